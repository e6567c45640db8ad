// What the lessons (learn.js) and the puzzles (puzzles.js) both draw: the server's words
// in the page's language, what each card of the hand would take, and a position as the
// table draws it. Both pages import these from here; neither imports the other's parts.

import { h } from "./dom.js";

/** A text the server wrote in both languages, in the page's. */
export function inLang(words, ui) {
  return (words && (words[ui.app.lang] || words.en)) || "";
}

/** What a card of the hand would take, option by option: "takes 5♠ · basra +10 or goes on the floor". */
export function optionWords(options, ui) {
  const out = [];
  options.forEach((option, i) => {
    if (i) out.push(ui.t("option_or"));
    out.push(...(option.take.length ? ui.tn("option_takes", { cards: h("span", {}, ui.cardsLabel(option.take)) }) : [ui.t("option_trail")]));
    if (option.basra) out.push(" · ", ui.t("option_basra", { n: option.basra }));
    if (option.points) out.push(" · ", ui.t("option_points", { n: option.points }));
  });
  return out;
}

/** The list of what each card of the hand would take (the server's hand_options). */
export function optionsList(handOptions, ui) {
  return h("section", { class: "panel card-options", id: "card-options", "aria-labelledby": "card-options-heading" },
    h("h3", { id: "card-options-heading" }, ui.t("learn_takes_title")),
    h("ul", {}, handOptions.map((entry) => h("li", { "data-key": entry.card },
      ...ui.tn("option_card", { card: ui.cardLabel(entry.card), what: h("span", {}, optionWords(entry.options, ui)) })))));
}

/** A view of the core (View.to_json) as the table draws it: with its sides, not over. */
export function frameOf(view, sides) {
  return { version: 0, event: null, view: { ...view, sides, over: false, winner: null } };
}
