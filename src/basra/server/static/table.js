// The table: one seat's view of a game, drawn and played by pointer, keyboard and
// screen reader. The online table (app.js, over a WebSocket) and the offline table
// (in the page) both draw with it, so they look, sound and behave the same.
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
//                          [{ seat, kind ("person" | "bot" | "external"), level, name, open,
//                          present, stand_in, rating, change, forfeited }], you (a seat or null),
//                          clock, rated, daily, fault, rematch, event }
//   table.accept(state)    a snapshot { version, view, event } (protocol.state_frame): view is
//                          the seat's View.to_json(brief=True) plus sides, winner and over;
//                          event is { kind: "play", seat, move, basra, auto? } or { kind: "deal" }
//   table.hint(message)    a hint { version, move, card, take, facts }
//   table.refused(code, detail)  a move or hint was refused: say so, and let the person play again
//   table.clock(message)   a clock message (clocked tables)
//   table.reaction(seat, code)   someone's reaction
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

import { cardName, joinList, message, num, parts as messageParts, translate } from "./i18n.js";
import * as dom from "./dom.js";
import { backImg, bdi, h, patch } from "./dom.js";
import { headline, joinNames, seatName as nameOfSeat, variantTitle } from "./names.js";
import { scoreSheet } from "./sheet.js";
import { playSound } from "./sound.js";
import { SeatClocks, TurnAlert, clockText } from "./clock.js";
import { Reactions } from "./reactions.js";
import { clearTakes, hintParts, markHint, markTakes, previewParts, takesOf } from "./coach.js";
import { changeText, ratingText } from "./profile.js";
import { say, status } from "./announce.js";
import { isBlind } from "./blind.js";

const LS = window.localStorage;
const POSITIONS = {
  2: { cw: ["bottom", "top"], ccw: ["bottom", "top"] },
  3: { cw: ["bottom", "left", "right"], ccw: ["bottom", "right", "left"] },
  4: { cw: ["bottom", "left", "top", "right"], ccw: ["bottom", "right", "top", "left"] },
};
const FROM = { top: ["0px", "-160px"], left: ["-200px", "0px"], right: ["200px", "0px"], bottom: ["0px", "200px"] };
const ARABIC_DIGITS = "٠١٢٣٤٥٦٧٨٩";
const COMMANDS = ["hand", "floor", "last", "scores", "piles", "clocks", "turn", "players", "help"];

/** The typed command a word names: the words of the page's language (its catalogue's
 * "cmd_" keys, "|" between them) first, then English's, which always work. */
function commandOf(word, lang) {
  const names = (l) => COMMANDS.find((name) => (message(l, "cmd_" + name) || "").split("|").includes(word));
  return names(lang) ?? names("en");
}

/** The digit a key stands for (Latin or Arabic-Indic), or null. */
function digitOf(event) {
  const key = event.key;
  if (/^[0-9]$/.test(key)) return Number(key);
  const arabic = ARABIC_DIGITS.indexOf(key);
  if (arabic >= 0) return arabic;
  const code = /^(?:Digit|Numpad)([0-9])$/.exec(event.code || "");
  return code && !event.shiftKey ? Number(code[1]) : null;
}

/** True when keys typed go into a field (the table's keys leave them alone). */
function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable='true']"));
}

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
    this.said = -1;         // the last version said aloud
    this.node = h("div", { class: "table-page" });
    this.root.append(this.node);
    this.clocks = new SeatClocks(this.lang);
    this.alert = new TurnAlert();
    this.reactions = actions.react ? new Reactions(this.ui(), (message) => actions.react(message.code), () => this.render()) : null;
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  // ------------------------------------------------------------ words

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

  seatName(seat) { return nameOfSeat(this.table?.seats?.[seat], seat, this.lang); }

  sideName(side) { return joinNames(this.msg.view.sides[side].map((s) => this.seatName(s)), this.lang); }

  /** A side's name as said: "you" for the reader's own side when alone. */
  sideWords(side) {
    const view = this.msg.view;
    if (!view.teams && view.side === side) return this.t("you");
    return this.sideName(side);
  }

  // ------------------------------------------------------------ input

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

  hint(message) {
    this.hintMessage = message;
    this.render();
    if (isBlind() && message.version === this.msg?.version) say(this.hintText(message));
  }

  refused(code, detail) {
    const text = code === "rate_limited" && detail?.retry_after
      ? this.t("err_rate_limited_retry", { n: detail.retry_after })
      : this.t("err_" + code) + (code === "bad_move" && detail?.message ? ` (${detail.message})` : "");
    this.options.toast(text);
    say(text);
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
    this.announce(previous, next);
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

  seatPosition(seat) {
    const view = this.msg.view;
    const me = view.seat ?? 0;
    const order = POSITIONS[view.players][this.table.rules.direction] || POSITIONS[view.players].ccw;
    return order[(seat - me + view.players) % view.players];
  }

  // ------------------------------------------------------------ what is said

  /** A play in words: "Bot 2 plays 8 of clubs and takes 8 of diamonds. Basra, 10 points!" */
  playWords(event) {
    const [card, takes] = event.move.split("x");
    const mine = event.seat === this.msg.view.seat;
    const parts = [mine ? this.t("say_you_play", { card: this.cardWords(card) }) : this.t("plays", { name: this.seatName(event.seat), card: this.cardWords(card) })];
    if (takes) parts.push(this.t(mine ? "say_you_take" : "say_takes", { cards: this.cardsWords(takes.split(",")) }));
    let text = parts.join(" ") + ".";
    if (event.basra) text += " " + this.t("say_basra", { n: event.basra });
    if (event.auto === "timeout") text += " " + this.t("say_timed_out", { name: this.seatName(event.seat) });
    else if (event.auto === "stand_in" || event.auto === "forfeited") text += " " + this.t("say_stood_in_one", { name: this.seatName(event.seat) });
    return text;
  }

  turnWords(view) {
    if (view.over || view.phase !== "play") return "";
    return view.turn === view.seat ? this.t("say_your_turn") : this.t("say_turn_of", { name: this.seatName(view.turn) });
  }

  scoresWords(view) {
    const list = view.scores.map((score, side) => this.t("score_of", { name: this.sideWords(side), n: num(score, this.lang) }));
    return this.t("say_scores", { list: joinList(list, this.lang) });
  }

  /** Say what the new snapshot changed: the play, a new deal, a round's or the game's end, whose turn. */
  announce(previous, next) {
    if (this.said === next.version) return;  // the same snapshot again (a reconnection): said already
    this.said = next.version;
    const view = next.view;
    const parts = [];
    const event = next.event;
    const step = previous && next.version === previous.version + 1;
    if (step && event?.kind === "play") parts.push(this.playWords(event));
    const away = this.awayPlays(previous, next);
    if (away) {
      const words = this.t("say_stood_in_away", { n: away });
      parts.push(words);
      this.options.toast?.(words);  // seen too, not only heard
    }
    // New cards: the stock went down (a deal within the round, which may come in the same
    // snapshot as the play before it), or a new round began. A round's first deal also
    // says the floor it laid.
    const before = previous?.view;
    const newRound = before && view.round !== before.round;
    const dealt = before && view.phase === "play" && (newRound || view.stock < before.stock);
    if (dealt || (step && event && event.kind !== "play" && view.phase === "play")) {
      const count = view.hand ? view.hand.length : null;
      parts.push(count === null ? this.t("say_dealt_watch") : this.t("say_dealt", { n: count }));
      if (newRound || !view.plays.length) parts.push(this.read("floor"));
    }
    const rounds = view.past_rounds.length;
    if (previous && rounds > previous.view.past_rounds.length) {
      parts.push(this.t("say_round_over", { n: rounds }));
      if (!view.over) parts.push(this.scoresWords(view));
    }
    if (view.over) {
      const result = headline(view.winner, view.side ?? null, view.teams, (side) => this.sideName(side), this.lang)
        .map((part) => (part instanceof Node ? part.textContent : part)).join("");
      parts.push(this.t("say_game_over", { result }), this.scoresWords(view));
    } else if (previous || this.isMyTurn(view)) {
      parts.push(this.turnWords(view));
    }
    say(parts.filter(Boolean).join(" "));
  }

  /** The plays of this seat a bot made for it that this page had not shown: on coming
   * back (a new page, or a reconnection after the stand-in played), how many. */
  awayPlays(previous, next) {
    const view = next.view;
    const seat = view.seat;
    if (seat === null || seat === undefined || !view.autos) return 0;
    const seen = previous && previous.view.round === view.round ? (previous.view.plays_from || 0) + previous.view.plays.length : 0;
    if (previous && next.version === previous.version + 1) return 0;  // one step: said as the play itself
    const from = view.plays_from || 0;
    return view.plays.filter((play, i) => from + i >= seen && play.seat === seat && view.autos[from + i] === "stand_in").length;
  }

  hintText(message) {
    const holder = h("span", {}, message.facts ? hintParts(message.facts, this.ui()) : this.moveLabel(message.move));
    return `${this.t("hint")}: ${holder.textContent}`;
  }

  // ------------------------------------------------------------ keys

  hand() { return this.msg?.view?.hand || []; }

  handButtons() { return [...this.node.querySelectorAll(".hand button.card")]; }

  /** The table's keys; fields and other pages' keys are left alone. */
  key(event) {
    if (this.closed || !this.msg || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target) || !this.node.isConnected) return;
    const view = this.msg.view;
    if (view.seat === null || view.seat === undefined) return;
    const digit = digitOf(event);
    if (digit !== null && digit >= 1) {
      event.preventDefault();
      if (this.selected) { this.pickChoice(digit); return; }
      this.pressCard(digit);
      return;
    }
    const inHand = event.target.closest?.(".hand");
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key) && inHand) {
      event.preventDefault();
      this.moveFocus(event.key);
      return;
    }
    if (event.key === "Escape" && (this.selected || this.armed)) {
      event.preventDefault();
      this.cancel();
      return;
    }
    if (event.key === "Enter" && this.armed && !event.target.closest?.("button, a")) {
      event.preventDefault();
      this.pressCard(this.hand().indexOf(this.armed) + 1);
    }
  }

  /** Arrows move the focus along the hand, as it is laid out (right to left in Arabic). */
  moveFocus(key) {
    const buttons = this.handButtons();
    if (!buttons.length) return;
    const at = Math.max(0, buttons.indexOf(document.activeElement));
    const rtl = getComputedStyle(buttons[0].parentElement).direction === "rtl";
    let next = at;
    if (key === "Home") next = 0;
    else if (key === "End") next = buttons.length - 1;
    else if (key === "ArrowUp" || (key === "ArrowLeft") !== rtl) next = at - 1;
    else next = at + 1;
    next = (next + buttons.length) % buttons.length;
    this.focusCard(next);
  }

  focusCard(index) {
    const buttons = this.handButtons();
    if (!buttons.length) { this.node.querySelector(".hand")?.focus({ preventScroll: true }); return; }
    this.handIndex = Math.max(0, Math.min(index, buttons.length - 1));
    buttons.forEach((b, i) => b.setAttribute("tabindex", i === this.handIndex ? "0" : "-1"));
    buttons[this.handIndex].focus({ preventScroll: true });
  }

  /** The key ``n`` (or the n-th card's click): select or play the n-th card of the hand. */
  pressCard(n) {
    const hand = this.hand();
    const card = hand[n - 1];
    if (!card) { say(this.t("say_no_card", { n })); playSound("error"); return; }
    this.focusCard(n - 1);
    const view = this.msg.view;
    if (!this.isMyTurn(view) || this.sent === this.msg.version) {
      say(view.over ? this.t("game_over") : this.t("err_not_your_turn"));
      playSound("error");
      return;
    }
    this.choose(card, this.optionsOf(card));
  }

  pickChoice(n) {
    const { moves } = this.selected;
    if (n > moves.length) { playSound("error"); say(this.t("say_choose", { card: this.cardWords(this.selected.card), n: moves.length })); return; }
    this.play(moves[n - 1]);
  }

  cancel() {
    const card = this.selected?.card ?? this.armed;
    this.selected = null;
    this.armed = null;
    this.render();
    say(this.t("say_cancelled"));
    const index = this.hand().indexOf(card);
    if (index >= 0) this.focusCard(index);
  }

  optionsOf(card) {
    return (this.msg.view.legal || []).filter((m) => m === card || m.startsWith(card + "x"));
  }

  // ------------------------------------------------------------ choosing and playing

  /** Mark on the floor what ``card`` would take, and say it under the hand (null: back to the armed card's, if any). */
  preview(card, options) {
    if (this.selected || (card !== null && !options.length)) return;
    if (this.previewing === card) return;
    this.previewing = card;
    this.render();
  }

  /** What playing a card does, in words, for its button: "takes 8 of diamonds", "goes on the floor". */
  optionWords(card) {
    const taking = takesOf(card, this.msg.view.legal || []).filter((take) => take.length);
    if (!taking.length) return this.t("card_goes_down");
    if (taking.length === 1) return this.t("card_takes", { cards: this.cardsWords(taking[0]) });
    const or = this.t("word_or");
    return this.t("card_can_take", { options: taking.map((take, i) => `${num(i + 1, this.lang)}: ${this.cardsWords(take)}`).join(or) });
  }

  /** What a card would take, said in words: "8 of clubs would take 8 of diamonds". */
  takesWords(card) {
    const words = { ...this.ui(), cardLabel: (c) => this.cardWords(c), cardsLabel: (cs) => this.cardsWords(cs) };
    const parts = previewParts(card, takesOf(card, this.msg.view.legal || []), words);
    return h("span", {}, parts).textContent;
  }

  choose(card, options) {
    this.finishAnimation(false);
    if (!options.length) { playSound("error"); return; }
    if (this.confirm && this.armed !== card) {
      this.armed = card;
      this.render();
      playSound("select");
      say(this.t("say_selected", { card: this.cardWords(card), what: this.takesWords(card), key: this.hand().indexOf(card) + 1 }));
      return;
    }
    this.armed = null;
    if (options.length === 1) { this.play(options[0]); return; }
    this.selected = { card, options: options.map((m) => m.split("x")[1].split(",")), moves: options, focus: null };
    this.render();
    playSound("select");
    say(this.t("say_choose", { card: this.cardWords(card), n: options.length }));
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

  // ------------------------------------------------------------ typed commands (blind mode)

  command(text) {
    const word = text.trim().toLowerCase();
    if (!word) return;
    const number = Number([...word].map((ch) => (ARABIC_DIGITS.includes(ch) ? ARABIC_DIGITS.indexOf(ch) : ch)).join(""));
    if (Number.isInteger(number) && number >= 1) {
      if (this.selected) this.pickChoice(number); else this.pressCard(number);
      return;
    }
    const name = commandOf(word, this.lang);
    const answer = name ? this.read(name) : this.t("command_unknown", { text: text.trim() });
    if (!name) playSound("error");
    const output = this.node.querySelector("#command-output");
    if (output) output.textContent = answer;
    say(answer);
  }

  /** The answer to a typed command. */
  read(what) {
    const view = this.msg.view;
    const join = (list) => joinList(list, this.lang);
    const count = (v) => num(v, this.lang);
    switch (what) {
      case "hand": {
        const hand = this.hand();
        if (view.seat === null || view.seat === undefined || !hand.length) return this.t("hand_empty");
        return this.t("read_hand", { cards: join(hand.map((c, i) => `${count(i + 1)} ${this.cardWords(c)}`)) });
      }
      case "floor":
        return view.floor.length ? this.t("read_floor", { cards: this.cardsWords(view.floor) }) : this.t("floor_empty");
      case "last": {
        const last = view.plays[view.plays.length - 1];
        return last ? this.t("read_last", { play: this.playWords(last).replace(/\.$/, "") }) : this.t("read_last_none");
      }
      case "scores":
        return this.t("read_scores", { list: join(view.scores.map((s, side) => this.t("score_of", { name: this.sideWords(side), n: count(s) }))), target: this.table.rules.target });
      case "piles":
        return this.t("read_piles", { list: join(view.pile_sizes.map((n, side) => this.t("read_pile", { name: this.sideWords(side), n, b: view.basras[side] }))) })
          + " " + this.t("read_stock", { n: view.stock });
      case "clocks": {
        if (!this.table.clock) return this.t("read_no_clock");
        const list = [];
        for (let seat = 0; seat < view.players; seat++) {
          const left = this.clocks.left(seat);
          if (!left) continue;
          const time = left.running && left.move > 0 ? `${clockText(left.move, this.lang)} + ${clockText(left.reserve, this.lang)}` : clockText(left.reserve, this.lang);
          list.push(`${seat === view.seat ? this.t("you") : this.seatName(seat)} ${time}`);
        }
        return list.length ? this.t("read_clocks", { list: join(list) }) : this.t("read_no_clock");
      }
      case "turn":
        return view.over ? this.t("game_over") : this.turnWords(view) || this.t("dealing");
      case "players":
        return this.t("read_players", { list: join(view.hand_sizes.map((n, seat) => (seat === view.seat ? this.t("read_player_you", { n }) : this.t("read_player", { name: this.seatName(seat), n })))) });
      default:
        return this.t("command_list");
    }
  }

  // ------------------------------------------------------------ drawing

  /** Whose turn it is, in words: a bot (or a bot standing in) thinks, a person plays. */
  turnText(seat) {
    const info = this.table.seats[seat];
    const thinking = info?.kind === "bot" || info?.kind === "external" || (info?.present === false && info?.stand_in);
    return this.tn(thinking ? "thinking" : "turn_of", { name: bdi(this.seatName(seat)) });
  }

  /** A seat's team at a 4-player team table: "partner" on the reader's side, else "Team n". */
  teamTag(seat) {
    const view = this.msg.view;
    if (!view.teams) return null;
    const side = seat % 2;
    if (view.seat !== null && view.seat !== undefined && seat !== view.seat && side === view.side) {
      return h("span", { class: `tag team team-${side} partner` }, this.t("partner"));
    }
    return h("span", { class: `tag team team-${side}` }, this.t("team_tag", { n: side + 1 }));
  }

  playText(event) {
    const { cardLabel, cardsLabel } = this.ui();
    const [card, takes] = event.move.split("x");
    const out = this.tn("plays", { name: bdi(this.seatName(event.seat)), card: cardLabel(card) });
    if (takes) out.push(" ", ...this.tn("takes", { cards: h("span", {}, cardsLabel(takes.split(","))) }));
    if (event.basra) out.push(" — ", h("strong", { class: "your-turn" }, this.t("basra_pts", { n: event.basra })));
    if (event.auto === "timeout") out.push(" — ", h("span", { class: "muted" }, this.t("timed_out")));
    else if (event.auto === "stand_in" || event.auto === "forfeited") out.push(" — ", h("span", { class: "muted auto-play" }, this.t("stood_in")));
    return out;
  }

  /** A seat's rating at a rated table (a bot's is fixed), its change once rated, a forfeit. */
  seatBadges(seat) {
    const info = this.table.seats[seat];
    const ui = this.ui();
    return [
      this.table.clock && info.kind !== "bot" ? this.clocks.node(seat) : null,
      info.rating ? h("span", { class: "tag rating", "data-rating": seat }, h("bdi", {}, this.t("rating_line", { rating: ratingText(info.rating, ui) }))) : null,
      info.change !== undefined ? h("bdi", { dir: "ltr", class: "rating-change " + (info.change >= 0 ? "up" : "down") }, changeText(info.change, ui)) : null,
      info.forfeited ? h("span", { class: "tag" }, this.t("forfeited_tag")) : null,
    ];
  }

  render() {
    if (this.closed || !this.table) return;
    const table = this.table;
    if (table.status === "open") { patch(this.node, this.renderWaiting()); return; }
    if (!this.msg) return;
    const view = this.msg.view;
    const blind = isBlind();
    this.alert.update(this.isMyTurn(view), this.t("title_your_turn"), this.t("app_name"));
    const handFocus = this.handButtons().indexOf(document.activeElement);
    const me = view.seat;
    const seated = me !== null && me !== undefined;
    const felt = h("section", { class: "felt" + (blind ? " blind-felt" : ""), "aria-labelledby": "felt-heading", id: "table" },
      h("h2", { class: "sr-only", id: "felt-heading" }, this.t("players_heading")));
    for (let seat = 0; seat < view.players; seat++) {
      if (seat === me) continue;
      felt.append(this.renderOpponent(seat, this.seatPosition(seat)));
    }
    felt.append(this.renderCenter(view));
    felt.append(seated ? this.renderMe(view) : h("div", { class: "me", id: "me" }, h("div", { class: "status-line" }, this.t("spectating"),
      view.phase === "play" && !view.over ? [" · ", ...this.turnText(view.turn)] : null)));
    const bottomSeat = [...felt.children].find((c) => c.classList.contains("bottom"));
    if (bottomSeat) { bottomSeat.remove(); felt.querySelector(".me").prepend(bottomSeat); }
    felt.append(...this.renderSheets(view));
    const side = h("aside", { class: "side", id: "side" }, this.renderScores(view),
      seated && this.reactions ? this.reactions.panel() : null, this.actions.side ? this.actions.side(view) : null, this.renderLog(view));
    const title = this.title();
    patch(this.node,
      h("h1", { class: "sr-only", id: "table-title" }, this.t("table_heading", { variant: title })),
      h("div", { class: "table-wrap" }, felt, side));
    if (this.anim) this.anim.fresh = false;
    this.afterRender(view, handFocus);
  }

  /** The game's name: its variant (with "custom rules"), or the daily deal's. */
  title() {
    const view = this.msg?.view;
    const variant = view?.variant ?? this.table.variant;
    if (this.table.daily) return `${this.t("daily_title")} · ${variantTitle(variant, null, this.lang)}`;
    return variantTitle(variant, this.table.overrides, this.lang);
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

  renderOpponent(seat, where) {
    const view = this.msg.view;
    const info = this.table.seats[seat];
    const count = view.hand_sizes[seat];
    const sideIndex = view.teams ? seat % 2 : seat;
    const away = info.kind !== "bot" && info.present === false;
    const classes = ["seat", where];
    if (view.phase === "play" && view.turn === seat) classes.push("turn");
    if (view.teams) classes.push(`team-${seat % 2}`);
    return h("div", { class: classes.join(" "), "data-seat": seat, "data-key": `seat-${seat}` },
      h("h3", { class: "name" },
        info.kind !== "bot" ? h("span", { class: "dot" + (away ? " away" : ""), title: away ? this.t("away") : null }) : null,
        bdi(this.seatName(seat)), this.teamTag(seat),
        view.dealer === seat ? h("span", { class: "dealer-chip", title: this.t("dealer") }, h("span", { "aria-hidden": "true" }, this.t("dealer_short")), h("span", { class: "sr-only" }, this.t("dealer"))) : null),
      h("div", { class: "backs" }, Array.from({ length: count }, () => backImg()),
        h("span", { class: "sr-only" }, this.t("cards_n", { n: count }))),
      h("div", { class: "meta" },
        info.kind === "bot" ? h("span", { class: "tag" }, this.t("level_" + info.level)) : null,
        info.kind === "external" ? h("span", { class: "tag program" }, this.t("program_tag")) : null,
        h("span", {}, this.t("pile", { n: view.pile_sizes[sideIndex] })),
        view.basras[sideIndex] ? h("span", {}, this.t("basras", { n: view.basras[sideIndex] })) : null,
        away && info.stand_in ? h("span", {}, this.t("stand_in")) : away ? h("span", {}, this.t("away")) : null,
        this.seatBadges(seat)));
  }

  renderFloor(view) {
    const anim = this.anim;
    const cards = anim ? anim.floor : view.floor;
    const img = (c) => (isBlind() ? this.cardWords(c) : dom.cardImg(c, this.lang));
    const floor = h(isBlind() ? "ul" : "div", { class: "floor", id: "floor" },
      cards.map((c) => h(isBlind() ? "li" : "span", { class: "card" + (anim && anim.taken.includes(c) ? " taken" : ""), "data-card": c }, img(c))));
    if (anim) {
      const played = h("span", { class: "card played" + (anim.fresh ? " arrive" : ""), "data-card": anim.card }, img(anim.card));
      played.style.setProperty("--from-x", FROM[anim.from][0]);
      played.style.setProperty("--from-y", FROM[anim.from][1]);
      floor.append(played);
    } else if (!cards.length) {
      floor.append(h(isBlind() ? "li" : "span", { class: "floor-empty" }, this.t("floor_empty")));
    }
    const option = !anim && this.selected ? this.selected.options[this.selected.focus ?? -1] : null;
    if (option) {
      for (const node of floor.querySelectorAll(".card")) if (option.includes(node.dataset.card)) node.classList.add("taken");
    } else if (!anim && !this.selected) {
      this.markFloor(floor, view);
    }
    return floor;
  }

  /** Mark on the floor what the card hovered (or else the armed card) would take, and what the hint takes. */
  markFloor(floor, view) {
    clearTakes(floor);
    const shown = this.previewing ?? this.armed;
    if (shown) markTakes(floor, takesOf(shown, view.legal || []));
    if (this.previewing === null && this.hintMessage && this.hintMessage.version === this.msg.version) markHint(floor, this.hintMessage.take);
  }

  renderCenter(view) {
    const last = this.msg.event && this.msg.event.kind === "play" ? this.playText(this.msg.event) : view.phase === "deal" && !view.over ? [this.t("dealing")] : [];
    return h("div", { class: "center", id: "center" },
      h("h2", { class: "sr-only", id: "floor-heading" }, this.t("floor")),
      h("div", { class: "stockline" },
        h("span", { class: "stock-pile" }, view.stock ? backImg() : null),
        h("span", {}, this.t("stock", { n: view.stock })),
        h("span", {}, this.t("round_n", { n: view.round + 1 })),
        h("span", {}, this.t("target", { n: this.table.rules.target }))),
      this.renderFloor(view),
      h("div", { class: "playline" }, last),
      this.anim?.basra && this.anim.fresh ? h("div", { class: "basra-stamp", "aria-hidden": "true" }, this.t("basra_pts", { n: this.anim.basra })) : null);
  }

  renderMe(view) {
    const seat = view.seat;
    const myTurn = this.isMyTurn(view);
    const waiting = this.sent === this.msg.version;
    const blind = isBlind();
    const ui = this.ui();
    const hand = h("div", { class: "hand" + (myTurn ? "" : " waiting"), id: "hand", role: "toolbar", "aria-labelledby": "hand-heading", tabindex: "-1" });
    view.hand.forEach((card, index) => {
      const options = this.optionsOf(card);
      const playable = myTurn && !waiting && options.length > 0;
      const suggested = this.hintMessage && this.hintMessage.card === card;
      const what = playable ? this.optionWords(card) : "";
      const button = h("button", {
        class: "card" + (this.selected?.card === card || (waiting && this.sentCard === card) ? " selected" : "") + (suggested ? " suggested" : "") + (this.armed === card ? " armed" : ""),
        type: "button", "data-card": card, "aria-disabled": playable ? null : "true", tabindex: "-1",
        "aria-pressed": this.confirm && playable ? String(this.armed === card) : null,
        onclick: () => { if (this.isMyTurn(this.msg.view) && this.sent !== this.msg.version) this.choose(card, this.optionsOf(card)); else this.pressCard(this.hand().indexOf(card) + 1); },
        onmouseenter: () => this.preview(card, options), onfocus: () => { this.handIndex = this.hand().indexOf(card); this.preview(card, options); },
        onmouseleave: () => this.preview(null), onblur: () => this.preview(null),
      },
      h("span", { class: "key-badge", "aria-hidden": blind ? null : "true" }, num(index + 1, this.lang), blind ? ". " : null),
      blind ? h("span", { class: "card-words" }, this.cardWords(card)) : dom.cardImg(card, this.lang),
      what ? h("span", { class: blind ? "card-what" : "sr-only" }, blind ? ` — ${what}` : `, ${what}`) : null);
      hand.append(button);
    });
    if (!view.hand.length) hand.append(h("span", { class: "muted hand-empty" }, this.t("hand_empty")));
    // The turn line says what is happening now: the move just sent, your turn, who thinks.
    const status = view.over ? this.t("game_over")
      : waiting ? this.tn("playing_card", { card: ui.cardLabel(this.sentCard) })
      : myTurn ? this.t("your_turn")
      : view.phase === "play" ? this.turnText(view.turn)
      : view.past_rounds.length ? this.t("next_round") : this.t("dealing");
    const info = this.table.seats[seat];
    const controls = h("div", { class: "actions table-actions", id: "table-actions" });
    if (this.table.hints && this.actions.hint && myTurn && !waiting) {
      controls.append(h("button", { type: "button", class: "secondary", id: "hint", onclick: () => this.askHint() }, this.t("hint")));
    }
    if (myTurn) {
      controls.append(h("label", { class: "confirm-setting", id: "confirm-label" }, h("input", { type: "checkbox", id: "confirm-play", checked: this.confirm, onchange: (e) => {
        this.confirm = e.target.checked; LS.setItem("basra.confirm", this.confirm ? "1" : "0"); this.armed = null; this.render();
      } }), this.t("confirm_setting")));
    }
    let hintLine = null;
    if (this.hintMessage && this.hintMessage.facts) hintLine = h("div", { class: "hint-line", id: "hint-line" }, h("strong", {}, this.t("hint"), ": "), ...hintParts(this.hintMessage.facts, ui));
    else if (this.hintMessage) hintLine = h("div", { class: "muted hint-line", id: "hint-line" }, ...this.tn("hint_says", { move: h("span", {}, this.moveLabel(this.hintMessage.move)) }));
    else if (myTurn && this.hintAsked === this.msg.version) hintLine = h("div", { class: "muted hint-line", id: "hint-waiting" }, this.t("hint_waiting"));
    const previewLine = h("div", { class: "preview-line", id: "preview-line" }, ...this.previewWords());
    return h("div", { class: "me" + (myTurn ? " turn" : ""), "data-seat": seat, id: "me" },
      h("h2", { class: "sr-only", id: "hand-heading" }, this.t("hand")),
      h("div", { class: "status-line" + (myTurn ? " your-turn" : "") }, status),
      this.selected ? this.renderChoices() : null,
      previewLine,
      hand,
      h("div", { class: "me-row" }, controls,
        h("div", { class: "seat mine" + (myTurn ? " turn" : ""), "data-key": "my-seat" },
          h("div", { class: "name" }, bdi(info?.name || ""), h("span", { class: "tag" }, this.t("you")), this.teamTag(seat),
            view.dealer === seat ? h("span", { class: "dealer-chip", title: this.t("dealer") }, h("span", { "aria-hidden": "true" }, this.t("dealer_short")), h("span", { class: "sr-only" }, this.t("dealer"))) : null),
          h("div", { class: "meta" }, h("span", {}, this.t("pile", { n: view.pile_sizes[view.side] })),
            view.basras[view.side] ? h("span", {}, this.t("basras", { n: view.basras[view.side] })) : null,
            this.seatBadges(seat)))),
      hintLine,
      blind ? this.renderCommand() : null,
      h("p", { class: "sr-only", id: "key-help" }, this.t("key_help")));
  }

  renderCommand() {
    const input = h("input", { id: "command", type: "text", autocomplete: "off", dir: "auto", placeholder: this.t("command_placeholder") });
    return h("form", { class: "command-box", id: "command-form", onsubmit: (e) => {
      e.preventDefault();
      const field = this.node.querySelector("#command");
      this.command(field.value);
      field.value = "";
    } }, h("label", { for: "command" }, this.t("command")), input, h("p", { id: "command-output", class: "command-output" }));
  }

  moveLabel(move) {
    const { cardLabel, cardsLabel } = this.ui();
    const [card, takes] = move.split("x");
    const out = [cardLabel(card)];
    if (takes) out.push(" × ", ...cardsLabel(takes.split(",")));
    return out;
  }

  /** The line under the hand: what the hovered card would take, or that the armed card needs a second click. */
  previewWords() {
    const card = this.previewing;
    const { cardLabel } = this.ui();
    if (card === null) return this.armed ? this.tn("confirm_again", { card: cardLabel(this.armed) }) : [];
    const parts = previewParts(card, takesOf(card, this.msg?.view?.legal || []), this.ui());
    if (this.armed === card) parts.unshift(...this.tn("confirm_again", { card: cardLabel(card) }), " · ");
    return parts;
  }

  renderChoices() {
    const { card, options, moves } = this.selected;
    const { cardLabel, cardsLabel } = this.ui();
    return h("div", { class: "panel choices-panel", id: "choices-panel" },
      h("p", { id: "choices-title" }, ...this.tn("choose_take", { card: cardLabel(card) })),
      h("ol", { class: "choices", "aria-labelledby": "choices-title" },
        options.map((take, i) => h("li", { "data-key": `choice-${moves[i]}` }, h("button", {
          type: "button", class: "choice", "data-move": moves[i], "data-key": moves[i],
          onmouseenter: () => { this.selected.focus = i; this.render(); },
          onfocus: () => { if (this.selected && this.selected.focus !== i) { this.selected.focus = i; this.render(); } },
          onclick: () => this.play(moves[i]),
        }, h("span", { class: "option-mark", "aria-hidden": "true" }, num(i + 1, this.lang)),
        isBlind() ? null : take.map((c) => h("span", { class: "mini", "aria-hidden": "true" }, dom.cardImg(c, this.lang))),
        h("span", { class: isBlind() ? "" : "sr-only" }, this.t("choice_n", { n: i + 1, cards: h("span", {}, cardsLabel(take)).textContent })))))),
      h("button", { type: "button", class: "secondary", id: "choices-cancel", onclick: () => this.cancel() }, this.t("cancel")));
  }

  renderScores(view) {
    const rows = view.scores.map((score, side) => h("tr", { class: view.side === side ? "mine" : "" },
      h("td", {}, view.teams ? this.t("team_n", { n: side + 1 }) + " · " : "", bdi(this.sideName(side))),
      h("td", { class: "num" }, num(score, this.lang))));
    const overrides = this.table.overrides || {};
    const rulesHref = `/rules/${view.variant}${Object.keys(overrides).length ? "?rules=" + encodeURIComponent(JSON.stringify(overrides)) : ""}`;
    return h("section", { class: "panel scores", id: "scores", "aria-labelledby": "scores-heading" }, h("h2", { id: "scores-heading" }, this.t("scores")),
      h("table", {}, h("tbody", {}, rows)),
      view.carry ? h("p", { class: "muted" }, this.t("carry", { n: view.carry })) : null,
      view.over && this.table.id ? h("p", {}, h("a", { href: `/review/${this.table.id}`, "data-link": true, id: "side-review" }, this.t("review"))) : null,
      this.table.rated || this.table.clock ? h("p", { class: "muted", id: "table-kind" },
        this.table.rated ? h("span", { class: "tag" }, this.t("rated")) : null, " ",
        this.table.clock ? this.t("clock_option", { move: this.table.clock.move, reserve: this.table.clock.reserve }) : null) : null,
      h("p", {}, h("a", { href: rulesHref, target: "_blank", id: "rules-of-table" }, this.title())));
  }

  renderLog(view) {
    const from = view.plays_from || 0;
    // A play the server made for a person says so ("a bot played for them"), in the log too.
    const autos = view.autos || {};
    const entries = view.plays.map((play, i) => h("li", { "data-key": `play-${view.round}-${from + i}`, "data-auto": autos[from + i] || null },
      this.playText({ ...play, auto: autos[from + i] ?? play.auto }))).reverse();
    // A log, not a live region: what is said comes from announce.js, once.
    return h("section", { class: "panel", id: "log-panel", "aria-labelledby": "log-heading" }, h("h2", { id: "log-heading" }, this.t("log")),
      h("ol", { class: "log", reversed: true, tabindex: entries.length ? "0" : null, "aria-labelledby": "log-heading" }, entries));
  }

  renderWaiting() {
    const table = this.table;
    const seated = table.you !== null && table.you !== undefined;
    const open = table.seats.filter((s) => s.open).length;
    const list = h("ul", { class: "seat-list" });
    for (const seat of table.seats) {
      let right;
      if (seat.kind === "bot") right = h("span", { class: "tag" }, `${this.t("bot")} · ${this.t("level_" + seat.level)}`);
      else if (seat.kind === "external") right = h("span", {}, h("span", { class: "dot" + (seat.present === false ? " away" : "") }), " ", h("span", { class: "tag program" }, this.t("program_tag")));
      else if (seat.open) right = seated || !this.actions.join ? h("span", { class: "muted" }, this.t("open_seat")) : h("button", { type: "button", "data-join": seat.seat, onclick: () => this.actions.join(seat.seat) }, this.t("sit_here"));
      else right = h("span", {}, h("span", { class: "dot" + (seat.present === false ? " away" : "") }), " ", seat.seat === table.you ? h("span", { class: "tag" }, this.t("you")) : null);
      list.append(h("li", { class: "seat-item", "data-key": `seat-${seat.seat}` }, h("span", {}, this.t("seat_n", { n: seat.seat + 1 }), " · ", bdi(seat.kind === "bot" ? this.seatName(seat.seat) : seat.name || "—")), right));
    }
    status(this.t("waiting_for", { n: open }));
    return h("div", { class: "page waiting-room" },
      h("h1", {}, this.title()),
      h("section", { class: "panel", "aria-labelledby": "waiting-heading" },
        h("h2", { id: "waiting-heading" }, this.t("waiting_for", { n: open })),
        h("p", { class: "muted" }, this.t("starts_when_full")),
        seated || !this.actions.waitingForm ? null : this.actions.waitingForm(),
        list),
      this.actions.side ? this.actions.side(null) : null);
  }

  /** The round's and the game's score sheets, over the table (never the window). */
  renderSheets(view) {
    if (this.anim) return [];  // the last play lands first
    const rounds = view.past_rounds.length;
    if (view.over) return [this.gameOver(view)];
    if (rounds > this.sheetShown && view.phase === "deal") {
      return [h("div", { class: "overlay soft", id: "round-over-overlay" }, h("div", { class: "sheet", role: "dialog", id: "round-over", "aria-labelledby": "round-over-title" },
        h("h2", { id: "round-over-title" }, this.t("round_over", { n: rounds })), this.sheetTable(view),
        h("div", { class: "actions" }, h("button", { type: "button", id: "continue", onclick: () => { this.sheetShown = rounds; this.render(); } }, this.t("continue")))))];
    }
    if (view.phase === "play") this.sheetShown = rounds;
    return [];
  }

  sheetTable(view) {
    const last = view.past_rounds[view.past_rounds.length - 1];
    if (!last) return null;
    return scoreSheet(last, view.scores.map((_, side) => this.sideName(side)), this.lang, view.side ?? null);
  }

  gameOver(view) {
    const words = headline(view.winner, view.side ?? null, view.teams, (side) => this.sideName(side), this.lang);
    const actions = h("div", { class: "actions" });
    const seated = this.table.you !== null && this.table.you !== undefined;
    if (this.actions.rematch && seated && !this.table.daily && !this.table.event) actions.append(h("button", { type: "button", id: "rematch", onclick: () => this.actions.rematch() }, this.t("rematch")));
    if (this.actions.endLinks) actions.append(...this.actions.endLinks(view).filter((node) => node !== null && node !== undefined));
    const me = seated ? this.table.seats[this.table.you] : null;
    const ui = this.ui();
    const rating = me?.rating ? h("p", { id: "rating-after" }, this.t("rating_line", { rating: ratingText(me.rating, ui) }), " ",
      me.change !== undefined ? h("bdi", { dir: "ltr", class: "rating-change " + (me.change >= 0 ? "up" : "down") }, changeText(me.change, ui)) : null) : null;
    const rounds = view.past_rounds.length;
    return h("div", { class: "overlay", id: "game-over" }, h("div", { class: "sheet", role: "dialog", "aria-labelledby": "game-over-title", id: "game-over-sheet" },
      h("h2", { id: "game-over-title", tabindex: "-1" }, this.t("game_over")), h("div", { class: "winner" }, words), rating,
      rounds ? h("h3", { class: "sheet-round", id: "last-round" }, this.t("last_round", { n: rounds })) : null,
      this.sheetTable(view), actions));
  }
}
