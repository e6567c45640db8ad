// The coach on the page: hint sentences put into words (static/locales/)
// words from the facts the server sends (basra.coach.hints: codes and card texts,
// never sentences), and what a card would take, marked on the floor before it is played.

import { message, numberLocale, parts } from "./i18n.js";


const FORMATS = new Map();
function pointsFormat(lang, sign) {
  const key = lang + sign;
  if (!FORMATS.has(key)) {
    FORMATS.set(key, new Intl.NumberFormat(numberLocale(lang), { signDisplay: sign ? "exceptZero" : "auto", minimumFractionDigits: 1, maximumFractionDigits: 1 }));
  }
  return FORMATS.get(key);
}

/** A number of points with its sign and one decimal ("+2.1"), isolated so it reads the same in Arabic. */
export function signed(value, lang) {
  return "\u2066" + pointsFormat(lang, true).format(value) + "\u2069";
}

/** A number of points with one decimal. */
export function decimal(value, lang) {
  return pointsFormat(lang, false).format(value);
}

function rankWords(rank, ui) {
  const named = message(ui.app.lang, "rank_any_" + rank);
  return named === undefined ? ui.t("rank_any", { rank: Number(rank) }) : ui.t("rank_any_" + rank);
}

/** The hint's reason as nodes, in the page's language, from ``facts`` (Hint.facts_json). */
export function hintParts(facts, ui) {
  const { t, app, cardLabel, cardsLabel } = ui;
  const lang = app.lang;
  const fill = (key, params) => parts(lang, key, params);
  const cards = (list) => ui.h("span", {}, cardsLabel(list));
  const out = [];
  const head = (f) => (f.take.length
    ? fill("hint_takes_cards", { card: cardLabel(f.card), cards: cards(f.take) })
    : fill("hint_goes_down", { card: cardLabel(f.card) }));
  out.push(...head(facts));
  if (facts.basra) out.push(t("hint_basra", { n: facts.basra }));
  else if (facts.card_points && facts.take.length) out.push(t("hint_card_points", { n: facts.card_points }));
  const reply = facts.reply;
  if (facts.last) out.push(t("hint_last"));
  else if (!facts.floor_after.length) out.push(t("hint_empty"));
  else if (!reply) out.push(t("hint_nothing"));
  else {
    const who = rankWords(reply.rank, ui);  // a rank: the seat never saw those cards
    if (reply.basra) out.push(...fill("hint_reply_basra", { who, n: reply.basra }));
    else if (reply.points) out.push(...fill("hint_reply_points", { who, n: reply.points, cards: cards(reply.take) }));
    else out.push(t("hint_reply_none"));
  }
  const alt = facts.alternative;
  if (!alt) out.push(t("hint_only"));
  else {
    let name;
    if (alt.card !== facts.card) name = cardLabel(alt.card);
    else if (alt.take.length) name = ui.h("span", {}, fill("hint_alt_take", { cards: cards(alt.take) }));
    else name = t("hint_alt_trail");
    const tie = pointsFormat("en", true).format(facts.value) === pointsFormat("en", true).format(alt.value);
    out.push(...fill(tie ? "hint_tie" : "hint_value", { v: signed(facts.value, lang), w: signed(alt.value, lang), alt: name }));
  }
  if (facts.exact) out.push(t("hint_exact"));
  return out;
}

/** The capture options of ``card`` among the legal moves ("7S", "7Sx2C,AH", ...): lists of taken cards. */
export function takesOf(card, legal) {
  return legal.filter((m) => m === card || m.startsWith(card + "x")).map((m) => (m.includes("x") ? m.split("x")[1].split(",") : []));
}

/** Mark on ``floor`` exactly what a card would take: one option gets "would-take"; several get
 * numbered marks (a card in options 1 and 2 shows both). Returns the options. */
export function markTakes(floor, options) {
  clearTakes(floor);
  const taking = options.filter((o) => o.length);
  taking.forEach((take, i) => {
    for (const node of floor.querySelectorAll(".card")) {
      if (!take.includes(node.dataset.card)) continue;
      node.classList.add("would-take");
      if (taking.length > 1) {
        const marks = node.dataset.options ? node.dataset.options.split(" ") : [];
        marks.push(String(i + 1));
        node.dataset.options = marks.join(" ");
        node.classList.add("would-take-option");
      }
    }
  });
  return taking;
}

/** Remove the marks of :func:`markTakes`. */
export function clearTakes(floor) {
  for (const node of floor.querySelectorAll(".card.would-take, .card.hinted-take")) {
    node.classList.remove("would-take", "would-take-option", "hinted-take");
    delete node.dataset.options;
  }
}

/** Mark the cards a hint's move takes. */
export function markHint(floor, take) {
  for (const node of floor.querySelectorAll(".card")) node.classList.toggle("hinted-take", take.includes(node.dataset.card));
}

/** What a card would take, in words (the line under the hand while a card is chosen). */
export function previewParts(card, options, ui) {
  const { app, cardLabel, cardsLabel } = ui;
  const fill = (key, params) => parts(app.lang, key, params);
  const taking = options.filter((o) => o.length);
  if (!taking.length) return fill("would_trail", { card: cardLabel(card) });
  if (taking.length === 1) return fill("would_take", { card: cardLabel(card), cards: ui.h("span", {}, cardsLabel(taking[0])) });
  const items = [];
  taking.forEach((take, i) => {
    if (i) items.push(ui.t("word_or"));
    items.push(ui.h("span", { class: "option-mark" }, ui.n(i + 1)), " ", ui.h("span", {}, cardsLabel(take)));
  });
  return fill("would_take_options", { card: cardLabel(card), options: ui.h("span", {}, items) });
}
