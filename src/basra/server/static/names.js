// Names people read: seats (counted from 1), sides and teams, a game's variant
// (custom rules said so), who won, a tournament's entrants and its name. The
// table, the replay, the lobby, "My games" and the tournaments all name things
// through here, so a bot is "Bot 2" everywhere, in the page's language.
//
// The server's bots are named by their number (basra/bot_names.py decides it and
// sends it as "number", or an entrant's "bots"): a seat's at an ordinary table, and
// a tournament's own (its third bot is "Bot 3" in the pairing and at each of its
// tables, whatever seat it takes).

import { bdi, fill, h } from "./dom.js";
import { VARIANT_NAMES, num, translate } from "./i18n.js";

/** A bot's number in the page's digits: 3, or "3a" (one of a team of two bots). */
function botNumber(number, lang) {
  return typeof number === "number" ? number : String(number).replace(/\d+/g, (digits) => num(Number(digits), lang));
}

/** A seat's name at the table: a person's name, or "Bot 2" (seats counted from 1). */
export function seatName(info, index, lang) {
  if (!info) return translate(lang, "seat_n", { n: index + 1 });
  if (info.kind === "bot") return translate(lang, "bot_n", { n: botNumber(info.number ?? index + 1, lang) });
  return info.name || translate(lang, "open_seat");
}

/** A seat's name in lists, a bot with its level: "Bot 2 (expert)". */
export function seatLabel(info, index, lang) {
  if (info && info.kind === "bot" && info.level) {
    return translate(lang, "bot_level", { n: botNumber(info.number ?? index + 1, lang), level: translate(lang, "level_" + info.level) });
  }
  return seatName(info, index, lang);
}

/** A tournament entrant's name: its own, or the server's bots as their tables name
 * them, with their level ("Bot 3 (easy)", a team of two "Bots 3 (easy)"). */
export function entrantName(entrant, lang) {
  if (!entrant) return "?";
  const bots = entrant.bots;
  if (!bots) return entrant.name;
  const level = translate(lang, "level_" + bots.level);
  return translate(lang, bots.count > 1 ? "bots_level" : "bot_level", { n: botNumber(bots.number, lang), level });
}

/** An event's name: the schedule's in the page's language where it gives one, else its name. */
export function eventName(event, lang) {
  return event.names?.[lang] || event.name;
}

/** Several names as one: "Amal & Badr", in Arabic "Amal وBadr" (the catalogue's names_and). */
export function joinNames(names, lang) {
  return names.join(translate(lang, "names_and"));
}

/** A side's name: its seat's, or both partners' for a team. */
export function sideName(sides, side, nameOf, lang) {
  return joinNames(sides[side].map(nameOf), lang);
}

/** A variant's name, saying when the table changed its rules. */
export function variantTitle(variant, overrides, lang) {
  const name = VARIANT_NAMES[lang][variant] || variant;
  const custom = overrides && Object.keys(overrides).length > 0;
  return custom ? `${name} (${translate(lang, "custom_rules")})` : name;
}

/**
 * Who won, as nodes: "You win!", "Your team wins!", "Amal wins!", "Bot 2 & Bot 4 win!", "A draw".
 * mySide is the reader's side, or null for someone watching.
 */
export function headline(winner, mySide, teams, nameOfSide, lang) {
  if (winner === null || winner === undefined) return [translate(lang, "draw")];
  if (mySide !== null && mySide !== undefined && mySide === winner) return [translate(lang, teams ? "your_team_wins" : "you_win")];
  return fill(translate(lang, teams ? "team_wins" : "wins"), { name: bdi(nameOfSide(winner)) }, lang);
}

/** "My games": how a game ended for the reader, as a tag. */
export function resultTag(game, lang) {
  const t = (key) => translate(lang, key);
  if (game.status === "open") return h("span", { class: "tag" }, t("game_open"));
  if (game.status === "playing") return h("span", { class: "tag" }, t("game_in_play"));
  if (game.status === "abandoned") return h("span", { class: "tag abandoned" }, t("game_abandoned"));
  if (game.status === "unfinished") return h("span", { class: "tag" }, t("game_unfinished"));  // an offline game sent before its end
  const mine = game.teams ? game.seat % 2 : game.seat;
  if (game.winner === null || game.winner === undefined) return h("span", { class: "tag draw" }, t("game_draw"));
  if (game.winner === mine) return h("span", { class: "tag win" }, t(game.teams ? "your_team_won" : "you_won"));
  return h("span", { class: "tag loss" }, t(game.teams ? "your_team_lost" : "you_lost"));
}
