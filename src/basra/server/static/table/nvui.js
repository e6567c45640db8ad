// The table's non-visual plugin, after lichess's round nvui: what a screen reader
// hears and what a blind player types. It owns the words said aloud (announce.js):
// each play once, briefly, in the page's language (who, which card, what it took, a
// basra, whose turn), a deal, the end of a round and of the game, plays a bot made
// for the person while away, a refusal, a hint, the choices a card offers, a line of
// table talk; and blind
// mode's typed commands (the command box under the hand: a number plays that card,
// a word reads the hand, the floor, the last play, the scores, the piles, the clocks,
// whose turn, the players, or the list of commands).
//
// It reads the controller's state (table.js: the table, the latest snapshot, the
// seat clocks) and its words (seatName, cardWords...), and turns a typed number into
// the controller's intents (pressCard, pickChoice), as the keys do. It draws nothing
// but the command box, which the view places under the hand in blind mode; it
// imports neither the view nor the input.

import { ARABIC_DIGITS, joinList, message, num } from "../i18n.js";
import { h } from "../dom.js";
import { headline } from "../names.js";
import { playSound } from "../sound.js";
import { clockText } from "../clock.js";
import { hintParts, previewParts, takesOf } from "../coach.js";
import { say, status } from "../announce.js";
import { isBlind } from "../blind.js";

const COMMANDS = ["hand", "floor", "last", "scores", "piles", "clocks", "turn", "players", "help"];

/** The typed command a word names: the words of the page's language (its catalogue's
 * "cmd_" keys, "|" between them) first, then English's, which always work. */
function commandOf(word, lang) {
  const names = (l) => COMMANDS.find((name) => (message(l, "cmd_" + name) || "").split("|").includes(word));
  return names(lang) ?? names("en");
}

export class TableNvui {
  /** ``ctrl``: the table's controller (table.js). */
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.said = -1;  // the last version said aloud
  }

  t(key, params) { return this.ctrl.t(key, params); }

  // ------------------------------------------------------------ what is said on a change

  /** A play in words: "Bot 2 plays 8 of clubs and takes 8 of diamonds. Basra, 10 points!" */
  playWords(event) {
    const ctrl = this.ctrl;
    const [card, takes] = event.move.split("x");
    const mine = event.seat === ctrl.msg.view.seat;
    const parts = [mine ? this.t("say_you_play", { card: ctrl.cardWords(card) }) : this.t("plays", { name: ctrl.seatName(event.seat), card: ctrl.cardWords(card) })];
    if (takes) parts.push(this.t(mine ? "say_you_take" : "say_takes", { cards: ctrl.cardsWords(takes.split(",")) }));
    let text = parts.join(" ") + ".";
    if (event.basra) text += " " + this.t("say_basra", { n: event.basra });
    if (event.auto === "timeout") text += " " + this.t("say_timed_out", { name: ctrl.seatName(event.seat) });
    else if (event.auto === "stand_in" || event.auto === "forfeited") text += " " + this.t("say_stood_in_one", { name: ctrl.seatName(event.seat) });
    return text;
  }

  turnWords(view) {
    if (view.over || view.phase !== "play") return "";
    return view.turn === view.seat ? this.t("say_your_turn") : this.t("say_turn_of", { name: this.ctrl.seatName(view.turn) });
  }

  scoresWords(view) {
    const list = view.scores.map((score, side) => this.t("score_of", { name: this.ctrl.sideWords(side), n: num(score, this.ctrl.lang) }));
    return this.t("say_scores", { list: joinList(list, this.ctrl.lang) });
  }

  /** Say what the new snapshot changed: the play, a new deal, a round's or the game's end, whose turn. */
  announce(previous, next) {
    if (this.said === next.version) return;  // the same snapshot again (a reconnection): said already
    this.said = next.version;
    const ctrl = this.ctrl;
    const view = next.view;
    const parts = [];
    const event = next.event;
    const step = previous && next.version === previous.version + 1;
    if (step && event?.kind === "play") parts.push(this.playWords(event));
    const away = this.awayPlays(previous, next);
    if (away) {
      const words = this.t("say_stood_in_away", { n: away });
      parts.push(words);
      ctrl.options.toast?.(words);  // seen too, not only heard
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
      const result = headline(view.winner, view.side ?? null, view.teams, (side) => ctrl.sideName(side), ctrl.lang)
        .map((part) => (part instanceof Node ? part.textContent : part)).join("");
      parts.push(this.t("say_game_over", { result }), this.scoresWords(view));
    } else if (previous || ctrl.isMyTurn(view)) {
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

  // ------------------------------------------------------------ what is said on an intent

  /** A hint arrived: said in blind mode (the others see it marked on the floor). */
  hint(message) {
    if (isBlind() && message.version === this.ctrl.msg?.version) say(this.hintText(message));
  }

  hintText(message) {
    const holder = h("span", {}, message.facts ? hintParts(message.facts, this.ctrl.ui()) : this.ctrl.moveLabel(message.move));
    return `${this.t("hint")}: ${holder.textContent}`;
  }

  /** A line of table talk (talk.js), in words: said in blind mode (its panel's log, a
   * live region, is read by itself otherwise). */
  talk(text) { if (isBlind()) say(text); }

  /** A move or hint was refused (the text the page shows too). */
  refused(text) { say(text); }

  /** The key of a card not in the hand. */
  noCard(n) { say(this.t("say_no_card", { n })); }

  /** A card pressed out of turn (or after the game). */
  notYourTurn(view) { say(view.over ? this.t("game_over") : this.t("err_not_your_turn")); }

  /** A card armed by the confirm setting: what it would take, and the key that plays it. */
  armed(card) {
    say(this.t("say_selected", { card: this.ctrl.cardWords(card), what: this.takesWords(card), key: this.ctrl.hand().indexOf(card) + 1 }));
  }

  /** A card that can take different sets: how many choices (also for a choice out of range). */
  choosing(card, n) { say(this.t("say_choose", { card: this.ctrl.cardWords(card), n })); }

  cancelled() { say(this.t("say_cancelled")); }

  /** The waiting room: how many seats are still open (polite, the state of things). */
  waiting(open) { status(this.t("waiting_for", { n: open })); }

  /** What a card would take, said in words: "8 of clubs would take 8 of diamonds". */
  takesWords(card) {
    const ctrl = this.ctrl;
    const words = { ...ctrl.ui(), cardLabel: (c) => ctrl.cardWords(c), cardsLabel: (cs) => ctrl.cardsWords(cs) };
    const parts = previewParts(card, takesOf(card, ctrl.msg.view.legal || []), words);
    return h("span", {}, parts).textContent;
  }

  // ------------------------------------------------------------ typed commands (blind mode)

  /** The command box the view places under the hand in blind mode. */
  commandBox() {
    const input = h("input", { id: "command", type: "text", autocomplete: "off", dir: "auto", placeholder: this.t("command_placeholder") });
    return h("form", { class: "command-box", id: "command-form", onsubmit: (e) => {
      e.preventDefault();
      const field = this.ctrl.node.querySelector("#command");
      this.command(field.value);
      field.value = "";
    } }, h("label", { for: "command" }, this.t("command")), input, h("p", { id: "command-output", class: "command-output" }));
  }

  command(text) {
    const ctrl = this.ctrl;
    const word = text.trim().toLowerCase();
    if (!word) return;
    const number = Number([...word].map((ch) => (ARABIC_DIGITS.includes(ch) ? ARABIC_DIGITS.indexOf(ch) : ch)).join(""));
    if (Number.isInteger(number) && number >= 1) {
      if (ctrl.selected) ctrl.pickChoice(number); else ctrl.pressCard(number);
      return;
    }
    const name = commandOf(word, ctrl.lang);
    const answer = name ? this.read(name) : this.t("command_unknown", { text: text.trim() });
    if (!name) playSound("error");
    const output = ctrl.node.querySelector("#command-output");
    if (output) output.textContent = answer;
    say(answer);
  }

  /** The answer to a typed command. */
  read(what) {
    const ctrl = this.ctrl;
    const view = ctrl.msg.view;
    const lang = ctrl.lang;
    const join = (list) => joinList(list, lang);
    const count = (v) => num(v, lang);
    switch (what) {
      case "hand": {
        const hand = ctrl.hand();
        if (view.seat === null || view.seat === undefined || !hand.length) return this.t("hand_empty");
        return this.t("read_hand", { cards: join(hand.map((c, i) => `${count(i + 1)} ${ctrl.cardWords(c)}`)) });
      }
      case "floor":
        return view.floor.length ? this.t("read_floor", { cards: ctrl.cardsWords(view.floor) }) : this.t("floor_empty");
      case "last": {
        const last = view.plays[view.plays.length - 1];
        return last ? this.t("read_last", { play: this.playWords(last).replace(/\.$/, "") }) : this.t("read_last_none");
      }
      case "scores":
        return this.t("read_scores", { list: join(view.scores.map((s, side) => this.t("score_of", { name: ctrl.sideWords(side), n: count(s) }))), target: ctrl.table.rules.target });
      case "piles":
        return this.t("read_piles", { list: join(view.pile_sizes.map((n, side) => this.t("read_pile", { name: ctrl.sideWords(side), n, b: view.basras[side] }))) })
          + " " + this.t("read_stock", { n: view.stock });
      case "clocks": {
        if (!ctrl.table.clock) return this.t("read_no_clock");
        const list = [];
        for (let seat = 0; seat < view.players; seat++) {
          const left = ctrl.clocks.left(seat);
          if (!left) continue;
          const time = left.running && left.move > 0 ? `${clockText(left.move, lang)} + ${clockText(left.reserve, lang)}` : clockText(left.reserve, lang);
          list.push(`${seat === view.seat ? this.t("you") : ctrl.seatName(seat)} ${time}`);
        }
        return list.length ? this.t("read_clocks", { list: join(list) }) : this.t("read_no_clock");
      }
      case "turn":
        return view.over ? this.t("game_over") : this.turnWords(view) || this.t("dealing");
      case "players":
        return this.t("read_players", { list: join(view.hand_sizes.map((n, seat) => (seat === view.seat ? this.t("read_player_you", { n }) : this.t("read_player", { name: ctrl.seatName(seat), n })))) });
      default:
        return this.t("command_list");
    }
  }
}
