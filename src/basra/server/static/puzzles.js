// Puzzles (/puzzles, /puzzles/daily, /puzzles/mistakes, /puzzles/{id}): a moment of a
// real game where one move is clearly best. Before the move, the page has only what
// the server sends: the seat's view of the position (its hand, the floor, the plays,
// the piles, the scores) and what each of its cards would take; no other hand, no
// stock, no answer ever reaches the page before the try. The position is drawn by
// table.js and played like a table (pointer, the table's keys, screen reader); the
// try is one move, and its answer brings everything: right or not, the rating and
// streak it moved, why, every move's value, and the whole position.

import * as dom from "./dom.js";
import { h } from "./dom.js";
import { TableView } from "./table.js";
import { say } from "./announce.js";
import { playSound } from "./sound.js";
import { decimal, signed } from "./coach.js";
import { variantTitle } from "./names.js";
import { dayText } from "./i18n.js";
import { frameOf, inLang, optionsList } from "./learn-parts.js";

const MODES = { undefined: "next", "": "next", daily: "daily", mistakes: "mistakes", practice: "practice" };

export class PuzzlesPage {
  constructor(root, ui, rest, query) {
    this.root = root;
    this.ui = ui;
    this.mode = MODES[rest] || "one";
    this.puzzleId = this.mode === "one" ? rest : null;
    this.theme = query.get("theme") || "";
    this.variant = query.get("variant") || "";
    this.summary = null;
    this.served = null;    // the puzzle as served (view only until it is tried)
    this.answer = null;    // the server's answer to the try
    this.mistakes = null;
    this.error = null;
    this.table = null;
    this.closed = false;
    // The page's parts: drawn in place (dom.patch), but for the table while table.js draws it.
    this.head = h("div", { id: "puzzles-head" });
    this.info = h("div", { class: "puzzle-info", id: "puzzle-info" });
    this.tableBox = h("div", { class: "puzzle-table", id: "puzzle-table" });
    this.optionsBox = h("div", { class: "puzzle-options", id: "puzzle-options" });
    this.side = h("div", { class: "puzzle-side", id: "puzzle-side" });
  }

  async start() {
    this.root.replaceChildren(h("div", { class: "page learn-wide", id: "puzzles-page" }, this.head,
      h("div", { class: "puzzle-layout" + (this.mode === "mistakes" ? " listing" : "") }, this.info, this.tableBox, this.optionsBox, this.side)));
    await this.refreshSummary();
    if (this.mode === "mistakes") await this.loadMistakes(); else await this.load();
  }

  close() {
    this.closed = true;
    this.table?.close();
  }

  relabel() {
    this.table?.relabel();
    this.render();
  }

  async refreshSummary() {
    try { this.summary = await this.ui.api("/api/puzzles"); } catch (err) { this.error = err; }
    if (!this.closed) this.render();
  }

  /** The puzzle of the page's mode: the next one (with the filters), the day's, or one by id. */
  async load(focus = false) {
    const { ui } = this;
    const filters = new URLSearchParams();
    if (this.theme) filters.set("theme", this.theme);
    if (this.variant) filters.set("variant", this.variant);
    if (this.mode === "practice") filters.set("practice", "1");  // the shipped set: never rated
    const path = this.mode === "daily" ? "/api/puzzles/daily"
      : this.mode === "one" ? `/api/puzzles/${encodeURIComponent(this.puzzleId)}`
        : `/api/puzzles/next${filters.toString() ? "?" + filters : ""}`;
    this.table?.close();
    this.table = null;
    this.answer = null;
    this.error = null;
    try {
      this.served = await ui.api(path);
    } catch (err) {
      this.served = null;
      this.error = err;
    }
    if (this.closed) return;
    if (this.served?.tried && this.served.solution) {
      // Tried before (a reload, a link): the answer is the caller's to see again.
      this.answer = { attempt: null, solution: this.served.solution, rated: false, try: this.served.try };
    } else if (this.served) {
      this.tableBox.replaceChildren();
      this.drawTable();
    }
    this.render();
    if (focus) this.root.querySelector("#puzzle-heading")?.focus();
    if (this.served && !this.answer) say(ui.t("puzzle_say_start", { goal: inLang(this.served.puzzle.goal, ui) }));
  }

  drawTable() {
    const { ui } = this;
    const puzzle = this.served.puzzle;
    const view = puzzle.view;
    this.table = new TableView(this.tableBox, { lang: () => ui.app.lang, fast: ui.app.fast, toast: ui.toast }, {
      play: (move) => this.attempt(move),
    });
    const seats = [];
    for (let seat = 0; seat < puzzle.players; seat++) {
      seats.push({ seat, kind: "person", name: this.seatName(seat) });
    }
    this.table.setTable({
      id: null, variant: puzzle.variant, rules: view.rules, overrides: {}, players: puzzle.players, teams: puzzle.teams,
      hints: false, status: "playing", you: puzzle.seat, clock: null, rated: false, seats,
    });
    this.table.accept(frameOf(view, this.served.sides));
  }

  /** A seat's name: the reader's own name at their seat, "Player 2" at the others. */
  seatName(seat) {
    const { ui } = this;
    return seat === this.served?.puzzle.seat && ui.app.name ? ui.app.name : ui.t("puzzle_player_n", { n: seat + 1 });
  }

  async attempt(move) {
    const { ui } = this;
    const served = this.served;
    let answer;
    try {
      answer = await ui.api(`/api/puzzles/${served.puzzle.id}/attempt`, { method: "POST", body: JSON.stringify({ move }) });
    } catch (err) {
      this.table?.refused(err.code || "bad_move", {});
      return;
    }
    if (this.closed || this.served !== served) return;
    if (!answer.attempt.legal) {  // cannot come from the table (it plays legal moves only), but said if it does
      this.table.refused("bad_move", { message: inLang(answer.attempt.words, ui) });
      return;
    }
    this.answer = answer;
    this.table.close();
    this.table = null;
    playSound(answer.attempt.correct ? "basra" : "error");
    this.render();
    const parts = [answer.attempt.correct ? ui.t("puzzle_right") : ui.t("puzzle_wrong"), inLang(answer.attempt.words, ui)];
    if (answer.rated && answer.you) parts.push(ui.t("puzzle_rating_after", { r: answer.you.rating, change: signedInt(answer.you.change, ui) }));
    say(parts.join(" "));
    this.root.querySelector("#puzzle-result-heading")?.focus();
    this.refreshSummary();
  }

  async loadMistakes() {
    try { this.mistakes = await this.ui.api("/api/puzzles/mistakes"); } catch (err) { this.error = err; }
    if (!this.closed) this.render();
  }

  // ------------------------------------------------------------ drawing

  render() {
    const { ui } = this;
    const { t } = ui;
    document.title = `${t("puzzles_title")} · ${t("app_name")}`;
    dom.patch(this.head, h("div", { class: "learn-head" }, h("h1", {}, t("puzzles_title")), h("p", { class: "muted" }, t("puzzles_help"))));
    dom.patch(this.side, this.youPanel(), this.modesPanel());
    if (this.mode === "mistakes") {
      dom.patch(this.info, null);
      dom.patch(this.optionsBox, null);
      dom.patch(this.tableBox, this.mistakesPanel());
      return;
    }
    dom.patch(this.info, this.puzzlePanel());
    const open = this.served && !this.answer && !this.error;
    dom.patch(this.optionsBox, open ? optionsList(this.served.puzzle.hand_options, ui) : null);
    if (!this.table) dom.patch(this.tableBox, this.answer ? this.solutionPanel() : null);
  }

  youPanel() {
    const { ui } = this;
    const { t, n } = ui;
    const you = this.summary?.you;
    if (!you) return h("section", { class: "panel", id: "puzzle-you" }, h("h2", {}, t("puzzle_you")), h("p", { class: "muted" }, "…"));
    const rows = [
      [t("puzzle_rating_label"), h("span", { id: "puzzle-rating" }, h("bdi", {}, t("puzzle_rating_value", { r: n(you.rating), d: n(you.deviation) })),
        you.provisional ? [" ", h("span", { class: "tag" }, t("provisional"))] : null)],
      [t("puzzle_streak"), h("span", { id: "puzzle-streak" }, n(you.streak))],
      [t("puzzle_best_streak"), n(you.best_streak)],
      [t("puzzle_solved_label"), t("puzzle_solved_value", { n: n(you.solved), m: n(you.tries) })],
    ];
    return h("section", { class: "panel puzzle-you", id: "puzzle-you", "aria-labelledby": "puzzle-you-heading" },
      h("h2", { id: "puzzle-you-heading" }, t("puzzle_you")),
      h("table", { class: "sheet" }, h("tbody", {}, rows.map(([label, value]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", { class: "num" }, value))))));
  }

  modesPanel() {
    const { ui } = this;
    const { t } = ui;
    const link = (href, key, mode) => h("a", { href, "data-link": true, class: "button" + (this.mode === mode ? " current" : ""), "aria-current": this.mode === mode ? "page" : null, id: `mode-${mode}` }, t(key));
    const themes = this.summary?.themes || [];
    const variants = this.summary?.variants || [];
    const go = (event) => {
      event.preventDefault();
      const query = new URLSearchParams();
      if (this.theme) query.set("theme", this.theme);
      if (this.variant) query.set("variant", this.variant);
      ui.navigate(`/puzzles${this.mode === "practice" ? "/practice" : ""}${query.toString() ? "?" + query : ""}`);
    };
    return h("section", { class: "panel puzzle-modes", id: "puzzle-modes", "aria-labelledby": "puzzle-modes-heading" },
      h("h2", { id: "puzzle-modes-heading" }, t("puzzle_choose")),
      h("p", { class: "actions" }, link("/puzzles", "puzzle_next", "next"), link("/puzzles/daily", "puzzle_daily", "daily"), link("/puzzles/mistakes", "puzzle_mistakes", "mistakes"), link("/puzzles/practice", "puzzle_practice", "practice")),
      h("form", { class: "puzzle-filters", id: "puzzle-filters", onsubmit: go },
        h("label", { for: "puzzle-theme" }, t("puzzle_theme")),
        h("select", { id: "puzzle-theme", onchange: (e) => { this.theme = e.target.value; } },
          h("option", { value: "", selected: !this.theme }, t("puzzle_any")),
          themes.map((theme) => h("option", { value: theme.id, selected: theme.id === this.theme }, inLang(theme.title, ui)))),
        h("label", { for: "puzzle-variant" }, t("puzzle_variant")),
        h("select", { id: "puzzle-variant", onchange: (e) => { this.variant = e.target.value; } },
          h("option", { value: "", selected: !this.variant }, t("puzzle_any")),
          variants.map((name) => h("option", { value: name, selected: name === this.variant }, ui.variantName(name)))),
        h("button", { type: "submit", class: "secondary", id: "puzzle-filter-go" }, t("puzzle_next"))));
  }

  puzzlePanel() {
    const { ui } = this;
    const { t, n } = ui;
    if (this.error) {
      const text = this.error.code === "no_such_puzzle" && this.mode === "next" ? t("puzzle_no_puzzle") : ui.errorText(this.error);
      return h("section", { class: "panel", id: "puzzle-panel" }, h("h2", { id: "puzzle-heading", tabindex: "-1" }, t("puzzle_find")), h("p", { class: "error", id: "puzzle-error" }, text));
    }
    if (!this.served) return h("section", { class: "panel", id: "puzzle-panel" }, h("p", { class: "muted" }, "…"));
    const puzzle = this.served.puzzle;
    const heading = this.mode === "daily" ? t("puzzle_of_day", { date: this.summary?.daily?.date || "" }) : t("puzzle_heading");
    return h("section", { class: "panel puzzle-panel", id: "puzzle-panel", "aria-labelledby": "puzzle-heading" },
      h("h2", { id: "puzzle-heading", tabindex: "-1" }, heading),
      h("p", { class: "muted puzzle-meta", id: "puzzle-meta" },
        variantTitle(puzzle.variant, null, ui.app.lang), " · ", t("puzzle_players", { n: n(puzzle.players) }),
        puzzle.teams ? [" ", t("puzzle_teams")] : null, " · ",
        h("bdi", {}, t("puzzle_puzzle_rating", { r: n(this.served.rating.rating) })), " · ",
        puzzle.exact ? t("puzzle_exact") : t("puzzle_searched")),
      h("p", { class: "lesson-goal", id: "puzzle-goal" }, inLang(puzzle.goal, ui)),
      h("p", { class: "muted", id: "puzzle-rated" }, this.served.practice ? t("puzzle_practice_note") : this.served.rated ? t("puzzle_rated") : t("puzzle_unrated")));
  }

  solutionPanel() {
    const { ui } = this;
    const { t, n } = ui;
    const answer = this.answer;
    const solution = answer.solution;
    const mine = answer.attempt?.move ?? answer.try?.move;
    const correct = answer.attempt ? answer.attempt.correct : answer.try?.correct;
    const lang = ui.app.lang;
    const moveNodes = (move) => {
      const [card, takes] = move.split("x");
      return [ui.cardLabel(card), takes ? [" × ", ...ui.cardsLabel(takes.split(","))] : null];
    };
    const result = [
      h("h2", { id: "puzzle-result-heading", tabindex: "-1", class: correct ? "your-turn" : "" }, correct ? t("puzzle_right") : t("puzzle_wrong")),
      answer.attempt ? h("p", { id: "puzzle-words" }, inLang(answer.attempt.words, ui)) : null,
      answer.rated && answer.you ? h("p", { id: "puzzle-rating-after" }, h("bdi", {}, t("puzzle_rating_after", { r: n(answer.you.rating), change: signedInt(answer.you.change, ui) })),
        " · ", t("puzzle_streak_now", { n: n(answer.you.streak), b: n(answer.you.best_streak) })) : h("p", { class: "muted", id: "puzzle-rating-after" }, t(answer.practice || this.served?.practice ? "puzzle_practice_note" : "puzzle_not_rated")),
    ];
    const moves = h("table", { class: "sheet puzzle-moves", id: "puzzle-moves" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col_move")), h("th", { scope: "col" }, t("col_does")), h("th", { scope: "col", class: "num" }, t("col_value")))),
      h("tbody", {}, solution.moves.map((m) => h("tr", { class: m.move === solution.answer ? "mine" : "", "data-move": m.move },
        h("td", {}, moveNodes(m.move), m.move === solution.answer ? [" ", h("span", { class: "tag win" }, t("puzzle_best_tag"))] : null,
          m.move === mine ? [" ", h("span", { class: "tag" }, t("puzzle_yours_tag"))] : null),
        h("td", {}, inLang(m.words, ui)),
        h("td", { class: "num" }, signed(m.points, lang), m.stderr >= 0.05 ? ` ± ${decimal(m.stderr, lang)}` : "")))));
    const position = solution.position;
    const names = (seat) => this.seatName(seat) + (seat === this.served?.puzzle.seat ? ` (${t("you")})` : "");
    const cards = (list) => (list.length ? list.map((c) => h("span", { class: "mini" }, dom.cardImg(c, lang))) : h("span", { class: "muted" }, "—"));
    const whole = h("section", { class: "panel", id: "puzzle-position", "aria-labelledby": "puzzle-position-heading" },
      h("h3", { id: "puzzle-position-heading" }, t("puzzle_position")),
      h("ul", { class: "position-list" },
        position.hands.map((hand, seat) => h("li", { "data-key": `hand-${seat}` }, h("strong", {}, t("puzzle_hand_of", { name: names(seat) })), " ", cards(hand))),
        h("li", { "data-key": "floor" }, h("strong", {}, t("floor")), " ", cards(position.floor)),
        h("li", { "data-key": "stock" }, h("strong", {}, t("puzzle_stock_label")), " ", position.stock.length ? cards(position.stock) : h("span", { class: "muted" }, t("puzzle_stock_empty")))));
    const next = this.mode === "next" || this.mode === "practice"
      ? h("button", { type: "button", id: "puzzle-next", onclick: () => this.load(true) }, t("puzzle_next"))
      : h("a", { href: "/puzzles", "data-link": true, class: "button", id: "puzzle-next" }, t("puzzle_next"));
    return h("section", { class: "panel puzzle-solution " + (correct ? "right" : "wrong"), id: "puzzle-solution", "aria-labelledby": "puzzle-result-heading" },
      ...result,
      h("h3", {}, t("puzzle_why")), h("p", { id: "puzzle-why" }, inLang(solution.why, ui)),
      h("p", { id: "puzzle-themes" }, h("strong", {}, t("puzzle_themes"), ": "), solution.themes.map((theme, i) => [i ? " " : "", h("span", { class: "tag" }, inLang(theme.title, ui))])),
      h("h3", {}, t("puzzle_moves")), h("div", { class: "sheet-scroll" }, moves),
      whole,
      h("div", { class: "actions" }, next,
        this.mode === "one" ? h("a", { href: "/puzzles/mistakes", "data-link": true }, t("puzzle_mistakes")) : null));
  }

  mistakesPanel() {
    const { ui } = this;
    const { t, n } = ui;
    if (this.error) return h("section", { class: "panel", id: "mistakes" }, h("h2", {}, t("puzzle_mistakes")), h("p", { class: "error" }, ui.errorText(this.error)));
    if (!this.mistakes) return h("section", { class: "panel", id: "mistakes" }, h("h2", {}, t("puzzle_mistakes")), h("p", { class: "muted" }, "…"));
    const { puzzles, mining } = this.mistakes;
    const status = (p) => (!p.tried ? t("mistakes_new") : p.solved ? t("mistakes_solved") : t("mistakes_missed"));
    const when = (p) => dayText(p.created_at, ui.app.lang);
    return h("section", { class: "panel", id: "mistakes", "aria-labelledby": "mistakes-heading" },
      h("h2", { id: "mistakes-heading", tabindex: "-1" }, t("puzzle_mistakes")),
      h("p", { class: "muted" }, t("mistakes_help")),
      mining ? h("p", { id: "mistakes-mining" }, t("mistakes_mining", { n: n(mining) })) : null,
      puzzles.length ? h("ul", { class: "list", id: "mistakes-list" }, puzzles.map((p) => h("li", { "data-puzzle": p.id },
        h("span", {}, h("strong", {}, ui.variantName(p.variant)), " · ", t("mistakes_item", { r: n(p.round), p: n(p.play) }),
          h("br"), h("span", { class: "muted" }, when(p)), " ", h("span", { class: "tag" + (p.tried && p.solved ? " win" : "") }, status(p))),
        h("a", { href: `/puzzles/${p.id}`, "data-link": true, class: "button", "aria-label": `${t("puzzle_open")}: ${ui.variantName(p.variant)}, ${t("mistakes_item", { r: n(p.round), p: n(p.play) })}` }, t("puzzle_open")))))
        : h("p", { id: "mistakes-empty" }, t("mistakes_empty")));
  }
}

function signedInt(value, ui) {
  const shown = ui.n(Math.abs(value));
  return value > 0 ? `+${shown}` : value < 0 ? `−${shown}` : shown;
}
