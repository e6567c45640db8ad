// A round's score sheet (the table's round-over and game-over panels, and the
// replay): one column a side, one row a kind of points, from a round result of
// RECORD.md's replay output (the view's past_rounds have the same fields).

import { bdi, h } from "./dom.js";
import { num, translate } from "./i18n.js";

const ROWS = [
  ["col_cards", "cards"], ["col_points", "card_points"], ["col_majority", "majority"],
  ["col_basras", "basras"], ["col_basra_points", "basra_points"], ["col_round", "points"], ["col_total", "score"],
];

/** The sheet of one round: names are the sides' names; mine marks the reader's column. */
export function scoreSheet(result, names, lang, mine = null) {
  const cell = (side, content, tag = "td") => h(tag, { class: "num" + (side === mine ? " mine" : "") }, content);
  return h("div", { class: "sheet-scroll" }, h("table", { class: "score-sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr-only" }, translate(lang, "scores"))), names.map((name, side) => cell(side, bdi(name), "th")))),
    h("tbody", {}, ROWS.map(([label, key]) => h("tr", { class: key === "score" ? "total" : "" },
      h("th", {}, translate(lang, label)), result[key].map((value, side) => cell(side, num(value, lang))))))));
}
