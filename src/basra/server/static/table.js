// The table: one seat's view of a game, drawn and played by pointer, keyboard and
// screen reader. The online table (app.js, over a WebSocket) and the offline table
// (in the page) both draw with it, so they look, sound and behave the same.
//
// Kept as lichess keeps its round UI: this module is the controller (the table's
// state, the intents a person's choices become, the sounds, and the wiring), and
// three modules do the rest, each reading the controller and none importing another:
//   table/view.js    the view: the table drawn from the state (plain nodes, patched in)
//   table/input.js   the input: pointer gestures and keys turned into intents
//   table/nvui.js    the non-visual plugin: every word said aloud (announce.js), and
//                    blind mode's typed commands and command box
// No rule of the game is written here: what a card may take is the snapshot's legal
// moves, worked out by the server (or the Python engine in Pyodide, offline).
//
// Interface
// ---------
//   const table = new TableView(root, options, actions)
//     root      the element the table draws into (its children are the table's)
//     options   { lang: () => "en" | "ar" | "el" | "fr" (a catalogue's language), fast: bool (short animations), toast(text) }
//     actions   what the table does with a person's choices; only `play` is needed:
//       play(move, version)   play a legal move ("7Sx2C,AH", a move of view.legal) at that version
//       hint(version)         ask for a hint; answer with table.hint(message)
//       rematch()             the game-over sheet's "Rematch" button (none without it)
//       join(seat)            sit in an open seat, while the table waits for players
//       react(code)           send a reaction (the reactions panel shows only with it)
//       side(view)            nodes for the side column under the scores (an invite link...)
//       endLinks(view)        nodes for the game-over sheet (download, replay, review, home)
//       waitingForm()         nodes above the open seats of a waiting table (a name field)
//
//   table.setTable(info)   the table's description (protocol.table_json and the server's
//                          additions): { id, variant, rules {direction, target, ...}, overrides,
//                          players, teams, hints, status ("open" waits for players), seats
//                          [{ seat, kind ("person" | "bot" | "external"), level, number (a
//                          bot's, names.js), name, open, present, stand_in, rating, change,
//                          forfeited }], you (a seat or null),
//                          clock, rated, daily, fault, rematch, event }
//   table.accept(state)    a snapshot { version, view, event } (protocol.state_frame): view is
//                          the seat's View.to_json(brief=True) plus sides, winner and over;
//                          event is { kind: "play", seat, move, basra, auto? } or { kind: "deal" }
//   table.hint(message)    a hint { version, move, card, take, facts }
//   table.refused(code, detail)  a move or hint was refused: say so, and let the person play again
//   table.clock(message)   a clock message (clocked tables)
//   table.reaction(seat, code)   someone's reaction
//   table.talkLine(text)   a line of table talk, in words ("Badr says: ..."), said in blind mode
//   table.relabel()        the page's language (or blind mode) changed: draw again
//   table.close()          the page goes: timers stopped, keys and sounds let go
//
// What a person gets from it, whoever draws the frames:
// - Keys: 1-6 play the n-th card of the hand (with the confirm setting the first press
//   selects, the second plays), the arrows move between the cards, Enter plays the
//   selected card, a numbered list is chosen by its digit where a card can take
//   different sets, Escape cancels. Focus stays on the hand after a play.
// - Every play is said once, briefly, in the page's language (announce.js): who, which
//   card, what it took, a basra, whose turn; then the end of a round, the game's end.
// - Headings for each part (players, floor, your hand, scores, plays); a log of plays
//   that is never read again by itself; distinct sounds for a play, a capture, a
//   basra, your turn, a selected card and a refusal.
// - Blind mode (blind.js): cards in words, the hand as numbered buttons, the floor as
//   a list, and typed commands that read the hand, the floor, the last play, the
//   scores, the piles and the clocks.

import { cardName, num, parts as messageParts, translate } from "./i18n.js";
import * as dom from "./dom.js";
import { bdi, h, patch } from "./dom.js";
import { joinNames, seatName as nameOfSeat } from "./names.js";
import { playSound } from "./sound.js";
import { SeatClocks, TurnAlert } from "./clock.js";
import { Reactions } from "./reactions.js";
import { isBlind } from "./blind.js";
import { drawTable, drawWaiting } from "./table/view.js";
import { TableInput } from "./table/input.js";
import { TableNvui } from "./table/nvui.js";

const LS = window.localStorage;
const POSITIONS = {
  2: { cw: ["bottom", "top"], ccw: ["bottom", "top"] },
  3: { cw: ["bottom", "left", "right"], ccw: ["bottom", "right", "left"] },
  4: { cw: ["bottom", "left", "top", "right"], ccw: ["bottom", "right", "top", "left"] },
};

export class TableView {
  constructor(root, options, actions) {
    this.root = root;
    this.options = options;
    this.actions = actions;
    this.table = null;
    this.msg = null;
    this.anim = null;
    this.animTimer = null;
    this.sheetShown = 0;
    this.hintMessage = null;
    this.hintAsked = -1;
    this.selected = null;
    this.armed = null;
    this.previewing = null;
    this.confirm = LS.getItem("basra.confirm") === "1";
    this.sent = -1;
    this.sentCard = null;
    this.closed = false;
    this.handIndex = 0;     // the hand's card that takes the Tab stop (arrows move it)
    this.overShown = false; // the game-over sheet took focus once
    this.node = h("div", { class: "table-page" });
    this.root.append(this.node);
    this.clocks = new SeatClocks(this.lang);
    this.alert = new TurnAlert();
    this.input = new TableInput(this);
    this.nvui = new TableNvui(this);
    this.reactions = actions.react ? new Reactions(this.ui(), (message) => actions.react(message.code), () => this.render()) : null;
    this.onKey = (event) => this.input.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  // ------------------------------------------------------------ words (the view's and the plugin's)

  get lang() { return this.options.lang(); }

  t(key, params) { return translate(this.lang, key, params); }

  /** A sentence with nodes in it (names, card labels). */
  tn(key, params) { return messageParts(this.lang, key, params); }

  /** The helpers the coach, the reactions and the ratings draw with. */
  ui() {
    const lang = () => this.lang;
    return {
      h, bdi,
      app: { get lang() { return lang(); } },
      t: (key, params) => translate(lang(), key, params),
      tn: (key, params) => messageParts(lang(), key, params),
      n: (value) => num(value, lang()),
      cardImg: (text) => dom.cardImg(text, lang()),
      cardLabel: (text) => dom.cardLabel(text, lang()),
      cardsLabel: (texts) => dom.cardsLabel(texts, lang()),
    };
  }

  /** A card's name in words ("8 of clubs"), for what is said. */
  cardWords(card) { return cardName(card, this.lang); }

  cardsWords(cards) { return cards.map((c) => this.cardWords(c)).join(this.t("list_sep")); }

  /** A move as card labels: "7♠ × 3♣ 4♦". */
  moveLabel(move) {
    const { cardLabel, cardsLabel } = this.ui();
    const [card, takes] = move.split("x");
    const out = [cardLabel(card)];
    if (takes) out.push(" × ", ...cardsLabel(takes.split(",")));
    return out;
  }

  seatName(seat) { return nameOfSeat(this.table?.seats?.[seat], seat, this.lang); }

  sideName(side) { return joinNames(this.msg.view.sides[side].map((s) => this.seatName(s)), this.lang); }

  /** A side's name as said: "you" for the reader's own side when alone. */
  sideWords(side) {
    const view = this.msg.view;
    if (!view.teams && view.side === side) return this.t("you");
    return this.sideName(side);
  }

  // ------------------------------------------------------------ what the page tells the table

  setTable(info) {
    this.table = info;
    this.render();
  }

  close() {
    this.closed = true;
    clearTimeout(this.animTimer);
    document.removeEventListener("keydown", this.onKey);
    this.clocks.close();
    this.alert.close(this.t("app_name"));
    this.reactions?.close();
    this.node.remove();
  }

  relabel() {
    this.clocks.lang = this.lang;
    this.render();
  }

  clock(message) { this.clocks.update(message); }

  reaction(seat, code) { this.reactions?.show(seat, code, this.seatName(seat)); }

  /** A line of table talk (talk.js): said aloud in blind mode. */
  talkLine(text) { this.nvui.talk(text); }

  hint(message) {
    this.hintMessage = message;
    this.render();
    this.nvui.hint(message);
  }

  refused(code, detail) {
    const text = code === "rate_limited" && detail?.retry_after
      ? this.t("err_rate_limited_retry", { n: detail.retry_after })
      : code === "playban" && detail?.playban ? this.t("err_playban", detail.playban)
      : this.t("err_" + code) + (code === "bad_move" && detail?.message ? ` (${detail.message})` : "");
    this.options.toast(text);
    this.nvui.refused(text);
    playSound("error");
    this.sent = -1;
    this.render();
  }

  duration() {
    if (isBlind()) return 0;  // nothing to watch land: the floor is the floor at once
    return this.options.fast ? 90 : 850;
  }

  /**
   * A new snapshot is shown at once: the turn line, the hand and the seats follow the
   * game as it is. Only the floor lags: for a moment it shows the play that led here
   * landing on the floor as it was (cut short by the next snapshot).
   */
  accept(next) {
    const previous = this.msg;
    this.finishAnimation(false);
    this.msg = next;
    if (!previous || previous.version !== next.version) { this.selected = null; this.armed = null; this.previewing = null; }
    this.hintMessage = this.hintMessage && this.hintMessage.version === next.version ? this.hintMessage : null;
    const event = next.event;
    if (previous && this.table && event && event.kind === "play" && next.version === previous.version + 1 && this.duration()) {
      const [card, takes] = event.move.split("x");
      this.anim = { floor: previous.view.floor, card, taken: takes ? takes.split(",") : [], from: this.seatPosition(event.seat), basra: event.basra, fresh: true };
      this.animTimer = setTimeout(() => this.finishAnimation(true), this.duration());
    }
    this.render();
    this.nvui.announce(previous, next);
    if (event && event.kind === "play" && previous && next.version === previous.version + 1) {
      playSound(event.basra ? "basra" : event.move.includes("x") ? "capture" : "play");
    }
    if (previous && this.isMyTurn(next.view) && !this.isMyTurn(previous.view)) setTimeout(() => { if (!this.closed) playSound("turn"); }, 200);
  }

  isMyTurn(view) {
    return view.seat !== null && view.seat !== undefined && view.phase === "play" && view.turn === view.seat && !view.over;
  }

  /** The landing play is done: the floor as it is now, then any score sheet. */
  finishAnimation(redraw) {
    clearTimeout(this.animTimer);
    this.animTimer = null;
    if (!this.anim) return;
    this.anim = null;
    if (redraw && !this.closed && this.msg) this.render();
  }

  /** Where a seat sits around the felt: the reader at the bottom, the others by the table's direction. */
  seatPosition(seat) {
    const view = this.msg.view;
    const me = view.seat ?? 0;
    const order = POSITIONS[view.players][this.table.rules.direction] || POSITIONS[view.players].ccw;
    return order[(seat - me + view.players) % view.players];
  }

  // ------------------------------------------------------------ the hand and its focus

  hand() { return this.msg?.view?.hand || []; }

  handButtons() { return [...this.node.querySelectorAll(".hand button.card")]; }

  focusCard(index) {
    const buttons = this.handButtons();
    if (!buttons.length) { this.node.querySelector(".hand")?.focus({ preventScroll: true }); return; }
    this.handIndex = Math.max(0, Math.min(index, buttons.length - 1));
    buttons.forEach((b, i) => b.setAttribute("tabindex", i === this.handIndex ? "0" : "-1"));
    buttons[this.handIndex].focus({ preventScroll: true });
  }

  optionsOf(card) {
    return (this.msg.view.legal || []).filter((m) => m === card || m.startsWith(card + "x"));
  }

  // ------------------------------------------------------------ intents (from the input and typed commands)

  /** The key ``n`` (or the n-th card's click): select or play the n-th card of the hand. */
  pressCard(n) {
    const hand = this.hand();
    const card = hand[n - 1];
    if (!card) { this.nvui.noCard(n); playSound("error"); return; }
    this.focusCard(n - 1);
    const view = this.msg.view;
    if (!this.isMyTurn(view) || this.sent === this.msg.version) {
      this.nvui.notYourTurn(view);
      playSound("error");
      return;
    }
    this.choose(card, this.optionsOf(card));
  }

  /** The n-th of the sets the selected card can take. */
  pickChoice(n) {
    const { moves } = this.selected;
    if (n > moves.length) { playSound("error"); this.nvui.choosing(this.selected.card, moves.length); return; }
    this.play(moves[n - 1]);
  }

  /** A choice of sets shown on the floor (``always``: drawn again even if it was shown). */
  focusChoice(index, always) {
    if (!this.selected || (!always && this.selected.focus === index)) return;
    this.selected.focus = index;
    this.render();
  }

  cancel() {
    const card = this.selected?.card ?? this.armed;
    this.selected = null;
    this.armed = null;
    this.render();
    this.nvui.cancelled();
    const index = this.hand().indexOf(card);
    if (index >= 0) this.focusCard(index);
  }

  /** Mark on the floor what ``card`` would take, and say it under the hand (null: back to the armed card's, if any). */
  preview(card, options) {
    if (this.selected || (card !== null && !options.length)) return;
    if (this.previewing === card) return;
    this.previewing = card;
    this.render();
  }

  choose(card, options) {
    this.finishAnimation(false);
    if (!options.length) { playSound("error"); return; }
    if (this.confirm && this.armed !== card) {
      this.armed = card;
      this.render();
      playSound("select");
      this.nvui.armed(card);
      return;
    }
    this.armed = null;
    if (options.length === 1) { this.play(options[0]); return; }
    this.selected = { card, options: options.map((m) => m.split("x")[1].split(",")), moves: options, focus: null };
    this.render();
    playSound("select");
    this.nvui.choosing(card, options.length);
    this.node.querySelector(".choices .choice")?.focus({ preventScroll: true });
  }

  play(move) {
    this.finishAnimation(false);
    const card = move.split("x")[0];
    this.handIndex = Math.max(0, this.hand().indexOf(card));
    const focusInTable = this.node.contains(document.activeElement);
    this.selected = null;
    this.armed = null;
    this.sent = this.msg.version;
    this.sentCard = card;
    this.actions.play(move, this.msg.version);
    this.render();
    if (focusInTable) this.focusCard(this.handIndex);
  }

  askHint() {
    this.hintAsked = this.msg.version;
    this.actions.hint?.(this.msg.version);
    this.render();
  }

  /** The "confirm each play" setting (kept on this device). */
  setConfirm(on) {
    this.confirm = on;
    LS.setItem("basra.confirm", on ? "1" : "0");
    this.armed = null;
    this.render();
  }

  /** The round's score sheet was read (its Continue). */
  sheetSeen(rounds) {
    this.sheetShown = rounds;
    this.render();
  }

  // ------------------------------------------------------------ drawing

  render() {
    if (this.closed || !this.table) return;
    if (this.table.status === "open") {
      patch(this.node, drawWaiting(this));
      this.nvui.waiting(this.table.seats.filter((s) => s.open).length);
      return;
    }
    if (!this.msg) return;
    const view = this.msg.view;
    this.alert.update(this.isMyTurn(view), this.t("title_your_turn"), this.t("app_name"));
    const handFocus = this.handButtons().indexOf(document.activeElement);
    patch(this.node, ...drawTable(this));
    if (this.anim) this.anim.fresh = false;
    this.afterRender(view, handFocus);
  }

  /** Keep the focus on the hand (a played card's place), and take it to the game-over sheet once. */
  afterRender(view, handFocus) {
    const buttons = this.handButtons();
    this.handIndex = Math.max(0, Math.min(this.handIndex, buttons.length - 1));
    buttons.forEach((b, i) => b.setAttribute("tabindex", i === this.handIndex ? "0" : "-1"));
    const lost = !document.activeElement || document.activeElement === document.body;
    if (handFocus >= 0 && lost) this.focusCard(Math.min(handFocus, Math.max(buttons.length - 1, 0)));
    if (view.over && !this.overShown && this.node.querySelector("#game-over")) {
      this.overShown = true;
      this.node.querySelector("#game-over-title")?.focus({ preventScroll: true });
    }
  }
}
