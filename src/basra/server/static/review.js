// The review page (/review/{id}): a finished game's review, asked for once and worked
// out on the server in the background (progress shown), then browsed: each player's
// accuracy, the expected-margin graph through each round (SVG drawn here), every play
// with its label, and each decision's table and options, stepped through like the replay.

import { decimal, signed } from "./coach.js";
import { patch } from "./dom.js";
import { direction } from "./i18n.js";
import { seatLabel } from "./names.js";

const LABEL_CLASS = { best: "l-best", good: "l-good", inaccuracy: "l-inaccuracy", mistake: "l-mistake", blunder: "l-blunder", forced: "l-forced" };
const BAD = ["inaccuracy", "mistake", "blunder"];
const SIDE_COLOURS = ["#e8c96a", "#7fe0ff", "#ff9fb2", "#b6f08a"];

export class ReviewPage {
  constructor(root, id, ui) {
    this.root = root;
    this.id = id;
    this.ui = ui;
    this.step = 0;
    this.timer = null;
    this.closed = false;
    this.review = null;
    this.root.append(ui.h("p", { class: "muted" }, "…"));
    this.load(false);
  }

  close() { this.closed = true; clearTimeout(this.timer); }
  relabel() { if (this.review) this.render(); else this.load(false); }

  async load(ask) {
    const { api, t, h } = this.ui;
    let body;
    try {
      body = await api(`/api/games/${this.id}/review`, ask ? { method: "POST", body: "{}" } : {});
    } catch (err) {
      if (this.closed) return;
      this.root.replaceChildren(h("div", { class: "page" }, h("h1", {}, t("review_title")),
        h("p", { class: "panel error", id: "review-error" }, this.ui.errorText(err), " ", h("a", { href: "/", "data-link": true }, t("go_home")))));
      return;
    }
    if (this.closed) return;
    if (body.status === "none") { this.load(true); return; }
    if (body.status === "done") {
      this.review = body.review;
      this.seats = body.seats || null;
      this.step = this.firstStep();
      this.render();
      return;
    }
    if (body.status === "failed") {
      this.root.replaceChildren(h("div", { class: "page" }, h("h1", {}, t("review_title")), h("section", { class: "panel" },
        h("p", { class: "error" }, t("review_failed")),
        h("button", { type: "button", id: "review-retry", onclick: () => this.load(true) }, t("review_retry")))));
      return;
    }
    this.renderProgress(body);
    this.timer = setTimeout(() => this.load(false), 800);
  }

  renderProgress(body) {
    const { h, t } = this.ui;
    const running = body.status === "running" && body.total > 0;
    this.root.replaceChildren(h("div", { class: "page review" },
      h("h1", {}, t("review_title")),
      h("section", { class: "panel", id: "review-progress" },
        h("p", {}, running ? t("reviewing") : t("review_queued")),
        h("progress", { max: String(Math.max(body.total, 1)), value: String(body.done) }),
        running ? h("p", { class: "muted" }, t("review_progress", { done: body.done, total: body.total })) : null)));
  }

  // ------------------------------------------------------------ names

  seatName(seat) {
    const info = this.seats && this.seats[seat];
    if (info && info.kind === "bot") return seatLabel(info, seat, this.ui.app.lang);  // "Bot 2 (expert)" in the page's language
    const names = this.review.names;
    return (names && names[seat]) || this.ui.t("seat_n", { n: seat + 1 });
  }

  sideName(side) {
    return this.review.sides[side].map((s) => this.seatName(s)).join(" & ");
  }

  moveNodes(move) {
    const { cardLabel, cardsLabel } = this.ui;
    const [card, takes] = move.split("x");
    const out = [cardLabel(card)];
    if (takes) out.push(" × ", ...cardsLabel(takes.split(",")));
    return out;
  }

  firstStep() {
    const moments = this.review.key_moments;
    if (!moments.length) return 0;
    const first = moments[0];
    const index = this.review.decisions.findIndex((d) => d.round === first.round && d.play === first.play);
    return Math.max(index, 0);
  }

  // ------------------------------------------------------------ rendering

  render() {
    const { h, t, variantName } = this.ui;
    const review = this.review;
    const decisions = review.decisions;
    const slider = h("input", { type: "range", min: "0", max: String(decisions.length - 1), value: String(this.step), id: "review-step",
      "aria-label": t("step_slider"), "aria-valuetext": t("step", { n: this.step + 1, m: decisions.length }),
      oninput: (e) => this.go(Number(e.target.value) - this.step) });
    // Drawn in place (dom.patch): the button just pressed keeps the focus.
    patch(this.root, h("div", { class: "page review", id: "review-page" },
      h("h1", {}, t("review_title"), " · ", variantName(review.variant)),
      h("p", { class: "muted" }, t("review_help")),
      this.renderSeats(),
      this.renderGraph(),
      h("div", { class: "replay-controls" },
        h("button", { type: "button", class: "secondary", id: "review-prev", onclick: () => this.go(-1) }, t("prev")),
        slider,
        h("button", { type: "button", class: "secondary", id: "review-next", onclick: () => this.go(1) }, t("next")),
        h("button", { type: "button", class: "secondary", id: "review-next-bad", onclick: () => this.nextBad() }, t("review_next_bad"))),
      this.renderDecision(decisions[this.step]),
      this.renderMoments(),
      this.renderList(),
      h("p", {}, h("a", { href: `/replay/${this.id}`, "data-link": true }, t("review_back_replay")))));
    // The list scrolls to the decision shown; the page itself stays where the person is
    // (it opens at the top, on the summary).
    const list = this.root.querySelector("#review-list");
    const item = list?.querySelector(`[data-step="${this.step}"]`);
    if (list && item) list.scrollTop += item.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 2;
  }

  renderSeats() {
    const { h, t, n, bdi } = this.ui;
    const rows = this.review.seats.map((s) => h("tr", { "data-seat": s.seat },
      h("td", {}, bdi(this.seatName(s.seat))),
      h("td", { class: "num" }, n(s.decisions)),
      h("td", { class: "num" }, s.mean_loss === null ? "—" : decimal(s.mean_loss, this.ui.app.lang)),
      h("td", { class: "num accuracy" }, s.accuracy === null ? "—" : `${n(Math.round(s.accuracy))}%`),
      ...["best", "good", "inaccuracy", "mistake", "blunder"].map((label) => h("td", { class: "num" }, h("span", { class: "label-chip " + LABEL_CLASS[label] }, n(s.labels[label])))),
      h("td", { class: "num" }, `${n(s.basras_given)} / ${n(s.basras_missed)}`)));
    // A wide table scrolls inside its panel on a phone (and takes the focus, to scroll by keys).
    return h("section", { class: "panel scores table-scroll", id: "review-seats", tabindex: "0", "aria-label": t("review_seat") }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, t("review_seat")), h("th", { class: "num" }, t("review_decisions")),
        h("th", { class: "num" }, t("review_mean_loss")), h("th", { class: "num" }, t("review_col_accuracy")),
        ...["best", "good", "inaccuracy", "mistake", "blunder"].map((label) => h("th", { class: "num" }, t("label_" + label))),
        h("th", { class: "num" }, t("review_basras")))),
      h("tbody", {}, rows)),
      // The numbers in words, for a person who has never met "mean loss" or "±".
      h("details", { class: "review-words", id: "review-words" }, h("summary", {}, t("review_words_title")),
        h("dl", {}, ["margin", "loss", "mean_loss", "accuracy", "plus_minus", "labels"].flatMap((key) => [
          h("dt", {}, t(`review_word_${key}`)), h("dd", {}, t(`review_word_${key}_help`))]))));
  }

  /** The graph's lines: with two sides one line (side 0's; the other's is its opposite),
   * else a line per side through its own decisions; each round ends at its real margin. */
  lines() {
    const review = this.review;
    const two = review.sides.length === 2;
    const sides = two ? [0] : review.sides.map((_, i) => i);
    const lines = Object.fromEntries(sides.map((s) => [s, []]));
    const marks = [];
    const starts = [];
    const rounds = Object.fromEntries(review.rounds.map((r) => [r.round, r]));
    review.decisions.forEach((d, x) => {
      const first = x === 0 || review.decisions[x - 1].round !== d.round;
      if (first) { starts.push(x); for (const s of sides) lines[s].push([]); }
      if (d.points !== null) {
        let side = d.side; let value = d.points;
        if (two && side !== 0) { side = 0; value = -value; }
        lines[side][lines[side].length - 1].push([x, value, x]);
        if (BAD.includes(d.label)) marks.push([x, value, d.label]);
      }
      const last = x + 1 === review.decisions.length || review.decisions[x + 1].round !== d.round;
      const margins = rounds[d.round]?.margins;
      if (last && margins) for (const s of sides) lines[s][lines[s].length - 1].push([x + 0.5, margins[s], null]);
    });
    return { lines, marks, starts };
  }

  renderGraph() {
    const { t } = this.ui;
    const svgNS = "http://www.w3.org/2000/svg";
    const el = (tag, attrs, ...kids) => {
      const node = document.createElementNS(svgNS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      for (const kid of kids) node.append(kid);
      return node;
    };
    const { lines, marks, starts } = this.lines();
    const count = this.review.decisions.length;
    const values = Object.values(lines).flat(2).map((p) => p[1]);
    const top = Math.max(5, ...values.map(Math.abs));
    const W = 900; const H = 240; const pad = 28;
    // Time runs the way the page reads, as the step slider beneath does: right to left in Arabic.
    const rtl = direction(this.ui.app.lang) === "rtl";
    const ltrX = (v) => pad + (v / Math.max(count - 0.5, 1)) * (W - 2 * pad);
    const x = rtl ? (v) => W - ltrX(v) : ltrX;
    const y = (v) => H / 2 - (v / top) * (H / 2 - pad);
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-graph", id: "review-graph", role: "img", "aria-label": t("review_graph") });
    svg.append(el("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "axis" }));
    starts.forEach((s, i) => {
      if (i) svg.append(el("line", { x1: x(s - 0.5), x2: x(s - 0.5), y1: 4, y2: H - 4, class: "round-line" }));
      svg.append(el("text", { x: x(s) + (rtl ? -2 : 2), y: 14, class: "round-label", "text-anchor": rtl ? "end" : "start" }, t("round_n", { n: this.review.decisions[s].round })));
    });
    const edge = { x: rtl ? W - 2 : 2, class: "round-label", "text-anchor": rtl ? "end" : "start" };
    svg.append(el("text", { ...edge, y: y(top) + 4 }, this.ui.n(Math.round(top))));
    svg.append(el("text", { ...edge, y: y(-top) + 4 }, this.ui.n(-Math.round(top))));
    Object.entries(lines).forEach(([side, segments]) => {
      const colour = SIDE_COLOURS[Number(side) % SIDE_COLOURS.length];
      for (const seg of segments) {
        if (!seg.length) continue;
        svg.append(el("polyline", { points: seg.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(" "), stroke: colour, class: "margin-line" }));
        for (const [a, b, step] of seg) {
          const dot = el("circle", { cx: x(a).toFixed(1), cy: y(b).toFixed(1), r: step === null ? 5 : 3, fill: colour, class: step === null ? "round-end" : "step-dot" });
          if (step !== null) { dot.dataset.step = step; dot.addEventListener("click", () => this.go(step - this.step)); }
          svg.append(dot);
        }
      }
    });
    for (const [a, b, label] of marks) {
      const dot = el("circle", { cx: x(a).toFixed(1), cy: y(b).toFixed(1), r: 6, class: "mark " + LABEL_CLASS[label] });
      dot.dataset.step = a;
      dot.addEventListener("click", () => this.go(a - this.step));
      svg.append(dot);
    }
    svg.append(el("line", { x1: x(this.step), x2: x(this.step), y1: 4, y2: H - 4, class: "cursor" }));
    const legend = Object.keys(lines).map((side) => this.ui.h("span", { class: "legend" },
      this.ui.h("span", { class: "swatch", style: `background:${SIDE_COLOURS[Number(side) % SIDE_COLOURS.length]}` }), " ", this.ui.bdi(this.sideName(Number(side)))));
    const wrap = this.ui.h("section", { class: "panel" }, this.ui.h("h2", {}, t("review_graph")),
      this.ui.h("div", { class: "graph-wrap", dir: "ltr" }, svg), this.ui.h("p", { class: "muted" }, legend));
    return wrap;
  }

  renderDecision(d) {
    const { h, t, n, bdi, cardImg } = this.ui;
    const lang = this.ui.app.lang;
    const [played] = d.move.split("x");
    const table = h("div", { class: "review-table" },
      h("div", {}, h("strong", {}, t("review_floor")), " ",
        h("div", { class: "floor" }, d.floor.length ? d.floor.map((c) => h("span", { class: "card" + (this.takes(d.move).includes(c) ? " taken" : ""), "data-card": c }, cardImg(c))) : h("span", { class: "floor-empty" }, t("floor_empty")))),
      h("div", {}, h("strong", {}, t("review_hand")), " ",
        h("div", { class: "review-hand" }, d.hand.map((c) => h("span", { class: "mini" + (c === played ? " played" : "") + (c === d.best.split("x")[0] && d.best !== d.move ? " best" : ""), "data-card": c }, cardImg(c))))));
    const options = d.label === "forced"
      ? h("p", { class: "muted" }, t("review_forced"))
      : h("table", { class: "options", id: "review-options" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("review_col_move")), h("th", { scope: "col", class: "num" }, t("review_col_margin")), h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("review_col_note"))))),
        h("tbody", {}, d.options.map((o) => h("tr", { class: (o.move === d.move ? "played" : "") + (o.move === d.best ? " best" : ""), "data-move": o.move },
        h("td", {}, this.moveNodes(o.move)),
        h("td", { class: "num" }, signed(o.points, lang), " ± ", decimal(o.stderr, lang)),
        h("td", {}, o.move === d.best ? h("span", { class: "tag" }, t("review_best")) : null, " ", o.move === d.move ? h("span", { class: "tag played-tag" }, t("review_played")) : null)))));
    const notes = [];
    if (d.basra_given) notes.push(t("review_gave_basra"));
    if (d.basra_missed) notes.push(t("review_missed_basra"));
    let hindsight = null;
    if (d.hindsight) {
      hindsight = d.hindsight.best === d.move || d.hindsight.loss < 0.05
        ? h("p", { class: "hindsight" }, t("review_hindsight_same", { n: signed(d.hindsight.best_points, lang) }))
        : h("p", { class: "hindsight" }, ...this.ui.tn("review_hindsight", {
          move: h("span", {}, this.moveNodes(d.hindsight.best)), n: signed(d.hindsight.best_points, lang), m: signed(d.hindsight.points, lang),
        }));
    }
    return h("section", { class: "panel", id: "review-decision", "data-step": this.step },
      h("h2", {}, t("review_play_n", { r: d.round, p: d.play }), " · ", bdi(this.seatName(d.seat)), " · ", h("span", {}, this.moveNodes(d.move)), " ",
        h("span", { class: "label-chip " + LABEL_CLASS[d.label], id: "review-label" }, t("label_" + d.label)),
        d.label !== "forced" && d.label !== "best" ? h("span", { class: "muted" }, " ", t("review_loss", { n: decimal(d.loss, lang) })) : null),
      table, h("h3", {}, t("review_options")), options,
      notes.length ? h("p", { class: "muted" }, notes.join(" · ")) : null, hindsight, h("p", { class: "muted" }, n(this.step + 1), " / ", n(this.review.decisions.length)));
  }

  takes(move) {
    const [, takes] = move.split("x");
    return takes ? takes.split(",") : [];
  }

  renderMoments() {
    const { h, t, bdi } = this.ui;
    const moments = this.review.key_moments;
    const items = moments.map((m) => {
      const index = this.review.decisions.findIndex((d) => d.round === m.round && d.play === m.play);
      const d = this.review.decisions[index];
      return h("li", {}, h("a", { href: "#", "data-step": index, onclick: (e) => { e.preventDefault(); this.go(index - this.step); } },
        t("review_play_n", { r: d.round, p: d.play }), " · ", bdi(this.seatName(d.seat)), " · ", h("span", {}, this.moveNodes(d.move))),
      " ", h("span", { class: "label-chip " + LABEL_CLASS[d.label] }, t("label_" + d.label)));
    });
    return h("section", { class: "panel", id: "review-moments" }, h("h2", {}, t("review_key")),
      items.length ? h("ul", { class: "list" }, items) : h("p", { class: "muted" }, t("review_no_key")));
  }

  renderList() {
    const { h, t, bdi } = this.ui;
    const list = h("div", { class: "review-list", id: "review-list" });
    let round = 0;
    this.review.decisions.forEach((d, i) => {
      if (d.round !== round) { round = d.round; list.append(h("h3", {}, t("round_n", { n: round }))); }
      list.append(h("button", { type: "button", class: "review-item" + (i === this.step ? " current" : ""), "data-step": i, "data-label": d.label, onclick: () => this.go(i - this.step) },
        h("span", { class: "muted" }, this.ui.n(d.play)), " ", bdi(this.seatName(d.seat)), " ", h("span", {}, this.moveNodes(d.move)), " ",
        h("span", { class: "label-chip " + LABEL_CLASS[d.label] }, t("label_" + d.label))));
    });
    return h("section", { class: "panel" }, h("h2", {}, t("review_moves")), list);
  }

  go(delta) {
    const count = this.review.decisions.length;
    this.step = Math.max(0, Math.min(count - 1, this.step + delta));
    this.render();
  }

  nextBad() {
    const decisions = this.review.decisions;
    for (let i = this.step + 1; i < decisions.length; i++) {
      if (BAD.includes(decisions[i].label)) { this.go(i - this.step); return; }
    }
  }
}
