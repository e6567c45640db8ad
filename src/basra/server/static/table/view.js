// The table's view, after lichess's round view: the table drawn from the controller's
// state (table.js: the table's description, the latest snapshot, the card selected,
// armed or previewed, the play landing, the hint), as plain nodes that the controller
// patches into the page (dom.patch keeps focus and unchanged nodes). It draws the
// seats around the felt (the reader at the bottom, the others by the table's
// direction), the floor and the stock, the hand and its turn line, the choices a card
// offers, the scores, the log of plays, the round's and the game's sheets, and the
// waiting room. In blind mode it draws the same parts in words (cards named, the
// floor as a list, the hand as numbered buttons) and places the non-visual plugin's
// command box under the hand.
//
// It decides nothing and says nothing: every pointer gesture goes to the controller's
// input (ctrl.input), every word aloud to its non-visual plugin (ctrl.nvui); it
// imports neither.

import { num } from "../i18n.js";
import * as dom from "../dom.js";
import { backImg, bdi, h } from "../dom.js";
import { headline, variantTitle } from "../names.js";
import { scoreSheet } from "../sheet.js";
import { clearTakes, hintParts, markHint, markTakes, previewParts, takesOf } from "../coach.js";
import { changeText, ratingText } from "../profile.js";
import { isBlind } from "../blind.js";

const FROM = { top: ["0px", "-160px"], left: ["-200px", "0px"], right: ["200px", "0px"], bottom: ["0px", "200px"] };

/** The game's name: its variant (with "custom rules"), or the daily deal's. */
export function title(ctrl) {
  const view = ctrl.msg?.view;
  const variant = view?.variant ?? ctrl.table.variant;
  if (ctrl.table.daily) return `${ctrl.t("daily_title")} · ${variantTitle(variant, null, ctrl.lang)}`;
  return variantTitle(variant, ctrl.table.overrides, ctrl.lang);
}

/** The table at play (or watched, or over): its heading and the felt beside the side column. */
export function drawTable(ctrl) {
  const view = ctrl.msg.view;
  const blind = isBlind();
  const me = view.seat;
  const seated = me !== null && me !== undefined;
  const felt = h("section", { class: "felt" + (blind ? " blind-felt" : ""), "aria-labelledby": "felt-heading", id: "table" },
    h("h2", { class: "sr-only", id: "felt-heading" }, ctrl.t("players_heading")));
  for (let seat = 0; seat < view.players; seat++) {
    if (seat === me) continue;
    felt.append(renderOpponent(ctrl, seat, ctrl.seatPosition(seat)));
  }
  felt.append(renderCenter(ctrl, view));
  felt.append(seated ? renderMe(ctrl, view) : h("div", { class: "me", id: "me" }, h("div", { class: "status-line" }, ctrl.t("spectating"),
    view.phase === "play" && !view.over ? [" · ", ...turnText(ctrl, view.turn)] : null)));
  const bottomSeat = [...felt.children].find((c) => c.classList.contains("bottom"));
  if (bottomSeat) { bottomSeat.remove(); felt.querySelector(".me").prepend(bottomSeat); }
  felt.append(...renderSheets(ctrl, view));
  const side = h("aside", { class: "side", id: "side" }, renderScores(ctrl, view),
    seated && ctrl.reactions ? ctrl.reactions.panel() : null, ctrl.actions.side ? ctrl.actions.side(view) : null, renderLog(ctrl, view));
  return [
    h("h1", { class: "sr-only", id: "table-title" }, ctrl.t("table_heading", { variant: title(ctrl) })),
    h("div", { class: "table-wrap" }, felt, side),
  ];
}

/** A table that waits for players: its seats, open ones to sit in. */
export function drawWaiting(ctrl) {
  const table = ctrl.table;
  const seated = table.you !== null && table.you !== undefined;
  const open = table.seats.filter((s) => s.open).length;
  const list = h("ul", { class: "seat-list" });
  for (const seat of table.seats) {
    let right;
    if (seat.kind === "bot") right = h("span", { class: "tag" }, `${ctrl.t("bot")} · ${ctrl.t("level_" + seat.level)}`);
    else if (seat.kind === "external") right = h("span", {}, h("span", { class: "dot" + (seat.present === false ? " away" : "") }), " ", h("span", { class: "tag program" }, ctrl.t("program_tag")));
    else if (seat.open) right = seated || !ctrl.actions.join ? h("span", { class: "muted" }, ctrl.t("open_seat")) : h("button", { type: "button", "data-join": seat.seat, onclick: () => ctrl.input.joinClick(seat.seat) }, ctrl.t("sit_here"));
    else right = h("span", {}, h("span", { class: "dot" + (seat.present === false ? " away" : "") }), " ", seat.seat === table.you ? h("span", { class: "tag" }, ctrl.t("you")) : null);
    list.append(h("li", { class: "seat-item", "data-key": `seat-${seat.seat}` }, h("span", {}, ctrl.t("seat_n", { n: seat.seat + 1 }), " · ", bdi(seat.kind === "bot" ? ctrl.seatName(seat.seat) : seat.name || "—"), finishedTag(ctrl, seat) ? " " : null, finishedTag(ctrl, seat)), right));
  }
  return h("div", { class: "page waiting-room" },
    h("h1", {}, title(ctrl)),
    h("section", { class: "panel", "aria-labelledby": "waiting-heading" },
      h("h2", { id: "waiting-heading" }, ctrl.t("waiting_for", { n: open })),
      h("p", { class: "muted" }, ctrl.t("starts_when_full")),
      seated || !ctrl.actions.waitingForm ? null : ctrl.actions.waitingForm(),
      list),
    ctrl.actions.side ? ctrl.actions.side(null) : null);
}

// ------------------------------------------------------------ the seats

/** Whose turn it is, in words: a bot (or a bot standing in) thinks, a person plays. */
function turnText(ctrl, seat) {
  const info = ctrl.table.seats[seat];
  const thinking = info?.kind === "bot" || info?.kind === "external" || (info?.present === false && info?.stand_in);
  return ctrl.tn(thinking ? "thinking" : "turn_of", { name: bdi(ctrl.seatName(seat)) });
}

/** A seat's team at a 4-player team table: "partner" on the reader's side, else "Team n". */
function teamTag(ctrl, seat) {
  const view = ctrl.msg.view;
  if (!view.teams) return null;
  const side = seat % 2;
  if (view.seat !== null && view.seat !== undefined && seat !== view.seat && side === view.side) {
    return h("span", { class: `tag team team-${side} partner` }, ctrl.t("partner"));
  }
  return h("span", { class: `tag team team-${side}` }, ctrl.t("team_tag", { n: side + 1 }));
}

function dealerChip(ctrl) {
  return h("span", { class: "dealer-chip", title: ctrl.t("dealer") }, h("span", { "aria-hidden": "true" }, ctrl.t("dealer_short")), h("span", { class: "sr-only" }, ctrl.t("dealer")));
}

/** A person's share of games finished (reputation), from the table's state: "92% of 48 games finished". */
export function finishedTag(ctrl, info) {
  if (!info.finished) return null;
  return h("span", { class: "tag finished", "data-finished": info.seat },
    ctrl.t("finished_share", { p: info.finished.percent, n: info.finished.games }));
}

/** A seat's rating at a rated table (a bot's is fixed), its change once rated, a forfeit,
 * and its person's share of games finished. */
function seatBadges(ctrl, seat) {
  const info = ctrl.table.seats[seat];
  const ui = ctrl.ui();
  return [
    finishedTag(ctrl, info),
    ctrl.table.clock && info.kind !== "bot" ? ctrl.clocks.node(seat) : null,
    info.rating ? h("span", { class: "tag rating", "data-rating": seat }, h("bdi", {}, ctrl.t("rating_line", { rating: ratingText(info.rating, ui) }))) : null,
    info.change !== undefined ? h("bdi", { dir: "ltr", class: "rating-change " + (info.change >= 0 ? "up" : "down") }, changeText(info.change, ui)) : null,
    info.forfeited ? h("span", { class: "tag" }, ctrl.t("forfeited_tag")) : null,
  ];
}

function renderOpponent(ctrl, seat, where) {
  const view = ctrl.msg.view;
  const info = ctrl.table.seats[seat];
  const count = view.hand_sizes[seat];
  const sideIndex = view.teams ? seat % 2 : seat;
  const away = info.kind !== "bot" && info.present === false;
  const classes = ["seat", where];
  if (view.phase === "play" && view.turn === seat) classes.push("turn");
  if (view.teams) classes.push(`team-${seat % 2}`);
  return h("div", { class: classes.join(" "), "data-seat": seat, "data-key": `seat-${seat}` },
    h("h3", { class: "name" },
      info.kind !== "bot" ? h("span", { class: "dot" + (away ? " away" : ""), title: away ? ctrl.t("away") : null }) : null,
      bdi(ctrl.seatName(seat)), teamTag(ctrl, seat),
      view.dealer === seat ? dealerChip(ctrl) : null),
    h("div", { class: "backs" }, Array.from({ length: count }, () => backImg()),
      h("span", { class: "sr-only" }, ctrl.t("cards_n", { n: count }))),
    h("div", { class: "meta" },
      info.kind === "bot" ? h("span", { class: "tag" }, ctrl.t("level_" + info.level)) : null,
      info.kind === "external" ? h("span", { class: "tag program" }, ctrl.t("program_tag")) : null,
      h("span", {}, ctrl.t("pile", { n: view.pile_sizes[sideIndex] })),
      view.basras[sideIndex] ? h("span", {}, ctrl.t("basras", { n: view.basras[sideIndex] })) : null,
      away && info.stand_in ? h("span", {}, ctrl.t("stand_in")) : away ? h("span", {}, ctrl.t("away")) : null,
      seatBadges(ctrl, seat)));
}

// ------------------------------------------------------------ the floor

/** A play as the log and the play line show it: who, the card, what it took, a basra. */
function playText(ctrl, event) {
  const { cardLabel, cardsLabel } = ctrl.ui();
  const [card, takes] = event.move.split("x");
  const out = ctrl.tn("plays", { name: bdi(ctrl.seatName(event.seat)), card: cardLabel(card) });
  if (takes) out.push(" ", ...ctrl.tn("takes", { cards: h("span", {}, cardsLabel(takes.split(","))) }));
  if (event.basra) out.push(" — ", h("strong", { class: "your-turn" }, ctrl.t("basra_pts", { n: event.basra })));
  if (event.auto === "timeout") out.push(" — ", h("span", { class: "muted" }, ctrl.t("timed_out")));
  else if (event.auto === "stand_in" || event.auto === "forfeited") out.push(" — ", h("span", { class: "muted auto-play" }, ctrl.t("stood_in")));
  return out;
}

function renderCenter(ctrl, view) {
  const last = ctrl.msg.event && ctrl.msg.event.kind === "play" ? playText(ctrl, ctrl.msg.event) : view.phase === "deal" && !view.over ? [ctrl.t("dealing")] : [];
  return h("div", { class: "center", id: "center" },
    h("h2", { class: "sr-only", id: "floor-heading" }, ctrl.t("floor")),
    h("div", { class: "stockline" },
      h("span", { class: "stock-pile" }, view.stock ? backImg() : null),
      h("span", {}, ctrl.t("stock", { n: view.stock })),
      h("span", {}, ctrl.t("round_n", { n: view.round + 1 })),
      h("span", {}, ctrl.t("target", { n: ctrl.table.rules.target }))),
    renderFloor(ctrl, view),
    h("div", { class: "playline" }, last),
    ctrl.anim?.basra && ctrl.anim.fresh ? h("div", { class: "basra-stamp", "aria-hidden": "true" }, ctrl.t("basra_pts", { n: ctrl.anim.basra })) : null);
}

function renderFloor(ctrl, view) {
  const anim = ctrl.anim;
  const blind = isBlind();
  const cards = anim ? anim.floor : view.floor;
  const img = (c) => (blind ? ctrl.cardWords(c) : dom.cardImg(c, ctrl.lang));
  const floor = h(blind ? "ul" : "div", { class: "floor", id: "floor" },
    cards.map((c) => h(blind ? "li" : "span", { class: "card" + (anim && anim.taken.includes(c) ? " taken" : ""), "data-card": c }, img(c))));
  if (anim) {
    const played = h("span", { class: "card played" + (anim.fresh ? " arrive" : ""), "data-card": anim.card }, img(anim.card));
    played.style.setProperty("--from-x", FROM[anim.from][0]);
    played.style.setProperty("--from-y", FROM[anim.from][1]);
    floor.append(played);
  } else if (!cards.length) {
    floor.append(h(blind ? "li" : "span", { class: "floor-empty" }, ctrl.t("floor_empty")));
  }
  const option = !anim && ctrl.selected ? ctrl.selected.options[ctrl.selected.focus ?? -1] : null;
  if (option) {
    for (const node of floor.querySelectorAll(".card")) if (option.includes(node.dataset.card)) node.classList.add("taken");
  } else if (!anim && !ctrl.selected) {
    markFloor(ctrl, floor, view);
  }
  return floor;
}

/** Mark on the floor what the card hovered (or else the armed card) would take, and what the hint takes. */
function markFloor(ctrl, floor, view) {
  clearTakes(floor);
  const shown = ctrl.previewing ?? ctrl.armed;
  if (shown) markTakes(floor, takesOf(shown, view.legal || []));
  if (ctrl.previewing === null && ctrl.hintMessage && ctrl.hintMessage.version === ctrl.msg.version) markHint(floor, ctrl.hintMessage.take);
}

// ------------------------------------------------------------ the reader's hand

/** What playing a card does, in words, for its button: "takes 8 of diamonds", "goes on the floor". */
function optionWords(ctrl, card) {
  const taking = takesOf(card, ctrl.msg.view.legal || []).filter((take) => take.length);
  if (!taking.length) return ctrl.t("card_goes_down");
  if (taking.length === 1) return ctrl.t("card_takes", { cards: ctrl.cardsWords(taking[0]) });
  const or = ctrl.t("word_or");
  return ctrl.t("card_can_take", { options: taking.map((take, i) => `${num(i + 1, ctrl.lang)}: ${ctrl.cardsWords(take)}`).join(or) });
}

/** The line under the hand: what the hovered card would take, or that the armed card needs a second click. */
function previewWords(ctrl) {
  const card = ctrl.previewing;
  const ui = ctrl.ui();
  if (card === null) return ctrl.armed ? ctrl.tn("confirm_again", { card: ui.cardLabel(ctrl.armed) }) : [];
  const parts = previewParts(card, takesOf(card, ctrl.msg?.view?.legal || []), ui);
  if (ctrl.armed === card) parts.unshift(...ctrl.tn("confirm_again", { card: ui.cardLabel(card) }), " · ");
  return parts;
}

function renderMe(ctrl, view) {
  const seat = view.seat;
  const myTurn = ctrl.isMyTurn(view);
  const waiting = ctrl.sent === ctrl.msg.version;
  const blind = isBlind();
  const ui = ctrl.ui();
  const input = ctrl.input;
  const hand = h("div", { class: "hand" + (myTurn ? "" : " waiting"), id: "hand", role: "toolbar", "aria-labelledby": "hand-heading", tabindex: "-1" });
  view.hand.forEach((card, index) => {
    const options = ctrl.optionsOf(card);
    const playable = myTurn && !waiting && options.length > 0;
    const suggested = ctrl.hintMessage && ctrl.hintMessage.card === card;
    const what = playable ? optionWords(ctrl, card) : "";
    const button = h("button", {
      class: "card" + (ctrl.selected?.card === card || (waiting && ctrl.sentCard === card) ? " selected" : "") + (suggested ? " suggested" : "") + (ctrl.armed === card ? " armed" : ""),
      type: "button", "data-card": card, "aria-disabled": playable ? null : "true", tabindex: "-1",
      "aria-pressed": ctrl.confirm && playable ? String(ctrl.armed === card) : null,
      onclick: () => input.cardClick(card),
      onmouseenter: () => input.cardHover(card), onfocus: () => input.cardFocus(card),
      onmouseleave: () => input.cardHover(null), onblur: () => input.cardHover(null),
    },
    h("span", { class: "key-badge", "aria-hidden": blind ? null : "true" }, num(index + 1, ctrl.lang), blind ? ". " : null),
    blind ? h("span", { class: "card-words" }, ctrl.cardWords(card)) : dom.cardImg(card, ctrl.lang),
    what ? h("span", { class: blind ? "card-what" : "sr-only" }, blind ? ` — ${what}` : `, ${what}`) : null);
    hand.append(button);
  });
  if (!view.hand.length) hand.append(h("span", { class: "muted hand-empty" }, ctrl.t("hand_empty")));
  // The turn line says what is happening now: the move just sent, your turn, who thinks.
  const status = view.over ? ctrl.t("game_over")
    : waiting ? ctrl.tn("playing_card", { card: ui.cardLabel(ctrl.sentCard) })
    : myTurn ? ctrl.t("your_turn")
    : view.phase === "play" ? turnText(ctrl, view.turn)
    : view.past_rounds.length ? ctrl.t("next_round") : ctrl.t("dealing");
  const info = ctrl.table.seats[seat];
  const controls = h("div", { class: "actions table-actions", id: "table-actions" });
  if (ctrl.table.hints && ctrl.actions.hint && myTurn && !waiting) {
    controls.append(h("button", { type: "button", class: "secondary", id: "hint", onclick: () => input.hintClick() }, ctrl.t("hint")));
  }
  if (myTurn) {
    controls.append(h("label", { class: "confirm-setting", id: "confirm-label" }, h("input", { type: "checkbox", id: "confirm-play", checked: ctrl.confirm, onchange: (e) => input.confirmChange(e.target.checked) }), ctrl.t("confirm_setting")));
  }
  let hintLine = null;
  if (ctrl.hintMessage && ctrl.hintMessage.facts) hintLine = h("div", { class: "hint-line", id: "hint-line" }, h("strong", {}, ctrl.t("hint"), ": "), ...hintParts(ctrl.hintMessage.facts, ui));
  else if (ctrl.hintMessage) hintLine = h("div", { class: "muted hint-line", id: "hint-line" }, ...ctrl.tn("hint_says", { move: h("span", {}, ctrl.moveLabel(ctrl.hintMessage.move)) }));
  else if (myTurn && ctrl.hintAsked === ctrl.msg.version) hintLine = h("div", { class: "muted hint-line", id: "hint-waiting" }, ctrl.t("hint_waiting"));
  const previewLine = h("div", { class: "preview-line", id: "preview-line" }, ...previewWords(ctrl));
  return h("div", { class: "me" + (myTurn ? " turn" : ""), "data-seat": seat, id: "me" },
    h("h2", { class: "sr-only", id: "hand-heading" }, ctrl.t("hand")),
    h("div", { class: "status-line" + (myTurn ? " your-turn" : "") }, status),
    ctrl.selected ? renderChoices(ctrl) : null,
    previewLine,
    hand,
    h("div", { class: "me-row" }, controls,
      h("div", { class: "seat mine" + (myTurn ? " turn" : ""), "data-key": "my-seat" },
        h("div", { class: "name" }, bdi(info?.name || ""), h("span", { class: "tag" }, ctrl.t("you")), teamTag(ctrl, seat),
          view.dealer === seat ? dealerChip(ctrl) : null),
        h("div", { class: "meta" }, h("span", {}, ctrl.t("pile", { n: view.pile_sizes[view.side] })),
          view.basras[view.side] ? h("span", {}, ctrl.t("basras", { n: view.basras[view.side] })) : null,
          seatBadges(ctrl, seat)))),
    hintLine,
    blind ? ctrl.nvui.commandBox() : null,
    h("p", { class: "sr-only", id: "key-help" }, ctrl.t("key_help")));
}

/** The sets a card can take, numbered: the person picks one (or cancels). */
function renderChoices(ctrl) {
  const { card, options, moves } = ctrl.selected;
  const { cardLabel, cardsLabel } = ctrl.ui();
  const blind = isBlind();
  const input = ctrl.input;
  return h("div", { class: "panel choices-panel", id: "choices-panel" },
    h("p", { id: "choices-title" }, ...ctrl.tn("choose_take", { card: cardLabel(card) })),
    h("ol", { class: "choices", "aria-labelledby": "choices-title" },
      options.map((take, i) => h("li", { "data-key": `choice-${moves[i]}` }, h("button", {
        type: "button", class: "choice", "data-move": moves[i], "data-key": moves[i],
        onmouseenter: () => input.choiceHover(i),
        onfocus: () => input.choiceFocus(i),
        onclick: () => input.choiceClick(moves[i]),
      }, h("span", { class: "option-mark", "aria-hidden": "true" }, num(i + 1, ctrl.lang)),
      blind ? null : take.map((c) => h("span", { class: "mini", "aria-hidden": "true" }, dom.cardImg(c, ctrl.lang))),
      h("span", { class: blind ? "" : "sr-only" }, ctrl.t("choice_n", { n: i + 1, cards: h("span", {}, cardsLabel(take)).textContent })))))),
    h("button", { type: "button", class: "secondary", id: "choices-cancel", onclick: () => input.cancelClick() }, ctrl.t("cancel")));
}

// ------------------------------------------------------------ the side column

function renderScores(ctrl, view) {
  const table = ctrl.table;
  const rows = view.scores.map((score, side) => h("tr", { class: view.side === side ? "mine" : "" },
    h("td", {}, view.teams ? ctrl.t("team_n", { n: side + 1 }) + " · " : "", bdi(ctrl.sideName(side))),
    h("td", { class: "num" }, num(score, ctrl.lang))));
  const overrides = table.overrides || {};
  const rulesHref = `/rules/${view.variant}${Object.keys(overrides).length ? "?rules=" + encodeURIComponent(JSON.stringify(overrides)) : ""}`;
  return h("section", { class: "panel scores", id: "scores", "aria-labelledby": "scores-heading" }, h("h2", { id: "scores-heading" }, ctrl.t("scores")),
    h("table", {}, h("tbody", {}, rows)),
    view.carry ? h("p", { class: "muted" }, ctrl.t("carry", { n: view.carry })) : null,
    view.over && table.id ? h("p", {}, h("a", { href: `/review/${table.id}`, "data-link": true, id: "side-review" }, ctrl.t("review"))) : null,
    table.rated || table.clock ? h("p", { class: "muted", id: "table-kind" },
      table.rated ? h("span", { class: "tag" }, ctrl.t("rated")) : null, " ",
      table.clock ? ctrl.t("clock_option", { move: table.clock.move, reserve: table.clock.reserve }) : null) : null,
    h("p", {}, h("a", { href: rulesHref, target: "_blank", id: "rules-of-table" }, title(ctrl))));
}

function renderLog(ctrl, view) {
  const from = view.plays_from || 0;
  // A play the server made for a person says so ("a bot played for them"), in the log too.
  const autos = view.autos || {};
  const entries = view.plays.map((play, i) => h("li", { "data-key": `play-${view.round}-${from + i}`, "data-auto": autos[from + i] || null },
    playText(ctrl, { ...play, auto: autos[from + i] ?? play.auto }))).reverse();
  // A log, not a live region: what is said comes from the non-visual plugin, once.
  return h("section", { class: "panel", id: "log-panel", "aria-labelledby": "log-heading" }, h("h2", { id: "log-heading" }, ctrl.t("log")),
    h("ol", { class: "log", reversed: true, tabindex: entries.length ? "0" : null, "aria-labelledby": "log-heading" }, entries));
}

// ------------------------------------------------------------ the sheets

/** The round's and the game's score sheets, over the table (never the window). */
function renderSheets(ctrl, view) {
  if (ctrl.anim) return [];  // the last play lands first
  const rounds = view.past_rounds.length;
  if (view.over) return [gameOver(ctrl, view)];
  if (rounds > ctrl.sheetShown && view.phase === "deal") {
    return [h("div", { class: "overlay soft", id: "round-over-overlay" }, h("div", { class: "sheet", role: "dialog", id: "round-over", "aria-labelledby": "round-over-title" },
      h("h2", { id: "round-over-title" }, ctrl.t("round_over", { n: rounds })), sheetTable(ctrl, view),
      h("div", { class: "actions" }, h("button", { type: "button", id: "continue", onclick: () => ctrl.input.continueClick(rounds) }, ctrl.t("continue")))))];
  }
  if (view.phase === "play") ctrl.sheetShown = rounds;  // a new round's play: its sheet is behind it
  return [];
}

function sheetTable(ctrl, view) {
  const last = view.past_rounds[view.past_rounds.length - 1];
  if (!last) return null;
  return scoreSheet(last, view.scores.map((_, side) => ctrl.sideName(side)), ctrl.lang, view.side ?? null);
}

function gameOver(ctrl, view) {
  const table = ctrl.table;
  const words = headline(view.winner, view.side ?? null, view.teams, (side) => ctrl.sideName(side), ctrl.lang);
  const actions = h("div", { class: "actions" });
  const seated = table.you !== null && table.you !== undefined;
  if (ctrl.actions.rematch && seated && !table.daily && !table.event) actions.append(h("button", { type: "button", id: "rematch", onclick: () => ctrl.input.rematchClick() }, ctrl.t("rematch")));
  if (ctrl.actions.endLinks) actions.append(...ctrl.actions.endLinks(view).filter((node) => node !== null && node !== undefined));
  const me = seated ? table.seats[table.you] : null;
  const ui = ctrl.ui();
  const rating = me?.rating ? h("p", { id: "rating-after" }, ctrl.t("rating_line", { rating: ratingText(me.rating, ui) }), " ",
    me.change !== undefined ? h("bdi", { dir: "ltr", class: "rating-change " + (me.change >= 0 ? "up" : "down") }, changeText(me.change, ui)) : null) : null;
  const rounds = view.past_rounds.length;
  return h("div", { class: "overlay", id: "game-over" }, h("div", { class: "sheet", role: "dialog", "aria-labelledby": "game-over-title", id: "game-over-sheet" },
    h("h2", { id: "game-over-title", tabindex: "-1" }, ctrl.t("game_over")), h("div", { class: "winner" }, words), rating,
    rounds ? h("h3", { class: "sheet-round", id: "last-round" }, ctrl.t("last_round", { n: rounds })) : null,
    sheetTable(ctrl, view), actions));
}
