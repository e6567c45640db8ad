// Lessons (/learn, /learn/{variant}?rules=...) and the way to the puzzles (/puzzles,
// puzzles.js). Every preset has a course, and custom rules have one too (the rules
// page links to it): each step is a position with one move to find. The position is
// drawn by table.js, so a step is played as a table is, by pointer, by the table's
// keys (1-6, the arrows, Enter, a digit among the sets a card can take) and by screen
// reader (announce.js says every step's goal and what a move did). The server checks
// every move (basra.learn: only the taught move is right; any other is explained in
// words) and keeps the steps done for this browser's identity; nothing here knows a
// rule of the game.

import * as dom from "./dom.js";
import { h } from "./dom.js";
import { TableView } from "./table.js";
import { say } from "./announce.js";
import { playSound } from "./sound.js";
import { PuzzlesPage } from "./puzzles.js";
import { frameOf, inLang, optionsList } from "./learn-parts.js";

let styles = null;

/** The lessons' and puzzles' styles (their own file), loaded once before the first page. */
function loadStyles() {
  if (!styles) {
    styles = new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href: "/static/learn.css" });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    });
  }
  return styles;
}

/** The page of /learn... and /puzzles... (``rest``: what follows in the address). */
export function learnRoute(root, ui, section, rest, query) {
  const page = section === "puzzles" ? new PuzzlesPage(root, ui, rest, query)
    : rest ? new CoursePage(root, ui, rest, query.get("rules"), query.get("step"))
      : new CoursesPage(root, ui);
  loadStyles().then(() => page.start());
  return page;
}

// ------------------------------------------------------------------ the courses

class CoursesPage {
  constructor(root, ui) {
    this.root = root;
    this.ui = ui;
    this.data = null;
    this.closed = false;
  }

  async start() {
    const { ui } = this;
    try {
      this.data = await ui.api("/api/lessons");
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "page" }, h("h1", {}, ui.t("learn_title")), h("p", { class: "panel error" }, ui.errorText(err))));
      return;
    }
    if (!this.closed) this.render();
  }

  close() { this.closed = true; }

  relabel() { if (this.data) this.render(); }

  render() {
    const { ui } = this;
    const { t, n } = ui;
    document.title = `${t("learn_title")} · ${t("app_name")}`;
    const list = h("ul", { class: "list course-list", id: "course-list" }, this.data.courses.map((course) => {
      const total = course.steps.length;
      const done = course.done.length;
      const label = done === 0 ? t("learn_start") : done < total ? t("learn_continue") : t("learn_again_course");
      return h("li", { "data-course": course.variant },
        h("span", {}, h("strong", {}, inLang(course.title, ui)), h("br"),
          h("span", { class: "muted" }, t("learn_progress", { done: n(done), total: n(total) })),
          done === total ? [" ", h("span", { class: "tag win" }, t("learn_done_tag"))] : null),
        h("a", { href: `/learn/${course.variant}`, "data-link": true, class: "button", "aria-label": `${label}: ${inLang(course.title, ui)}` }, label));
    }));
    dom.patch(this.root, h("div", { class: "page", id: "learn-page" },
      h("h1", {}, t("learn_title")),
      h("p", { class: "muted" }, t("learn_help")),
      h("section", { class: "panel learn-puzzles", id: "learn-puzzles", "aria-labelledby": "learn-puzzles-heading" },
        h("h2", { id: "learn-puzzles-heading" }, t("puzzles_title")),
        h("p", {}, t("learn_puzzles_help")),
        h("p", {}, h("a", { href: "/puzzles", "data-link": true, class: "button", id: "go-puzzles" }, t("learn_go_puzzles")))),
      h("section", { class: "panel", "aria-labelledby": "courses-heading" }, h("h2", { id: "courses-heading" }, t("learn_courses")), list)));
  }
}

// ------------------------------------------------------------------ one course

class CoursePage {
  constructor(root, ui, variant, rules, stepId) {
    this.root = root;
    this.ui = ui;
    this.variant = variant;
    this.rules = rules;
    this.wanted = stepId;
    this.course = null;
    this.index = 0;
    this.result = null;   // the server's answer to the last move of this step
    this.table = null;
    this.closed = false;
    // The page's parts: drawn in place (dom.patch), all but the table, which table.js draws.
    this.head = h("div", { id: "course-head" });
    this.stepBox = h("div", { id: "lesson-step-box" });
    this.tableBox = h("div", { class: "lesson-table", id: "lesson-table" });
    this.optionsBox = h("div", { class: "lesson-options", id: "lesson-options-box" });
    this.navBox = h("div", { class: "lesson-nav", id: "lesson-nav-box" });
  }

  get query() { return this.rules ? `?rules=${encodeURIComponent(this.rules)}` : ""; }

  async start() {
    const { ui } = this;
    try {
      this.course = await ui.api(`/api/lessons/${encodeURIComponent(this.variant)}${this.query}`);
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "page" }, h("h1", {}, ui.t("learn_title")),
        h("p", { class: "panel error", id: "lesson-error" },
          err.code === "bad_settings" && err.field === "variant" ? ui.t("err_no_course", { name: this.variant }) : ui.errorText(err), " ", h("a", { href: "/learn", "data-link": true }, ui.t("learn_all_courses")))));
      return;
    }
    if (this.closed) return;
    this.root.replaceChildren(h("div", { class: "page learn-wide", id: "course-page" }, this.head,
      h("div", { class: "lesson-layout" }, this.stepBox, this.tableBox, this.optionsBox, this.navBox)));
    const steps = this.course.steps;
    const asked = steps.findIndex((s) => s.id === this.wanted);
    const todo = steps.findIndex((s) => !this.course.done.includes(s.id));
    this.open(asked >= 0 ? asked : Math.max(todo, 0), false);
  }

  close() {
    this.closed = true;
    this.table?.close();
  }

  relabel() {
    this.table?.relabel();
    this.render();
  }

  get step() { return this.course.steps[this.index]; }

  /** Show step ``index``: its position on a fresh table; ``focus`` moves the focus to it. */
  open(index, focus = true) {
    this.index = index;
    this.result = null;
    this.table?.close();
    this.tableBox.replaceChildren();
    const { ui } = this;
    const step = this.step;
    // A move that is not the taught one is explained by the step itself, not in the banner.
    const toast = (text) => { if (text !== ui.t("err_lesson_wrong")) ui.toast(text); };
    this.table = new TableView(this.tableBox, { lang: () => ui.app.lang, fast: ui.app.fast, toast }, {
      play: (move) => this.play(move),
    });
    this.table.setTable({
      id: null, variant: this.course.variant, rules: this.course.rules, overrides: this.course.overrides,
      players: 2, teams: false, hints: false, status: "playing", you: 0, clock: null, rated: false,
      seats: [{ seat: 0, kind: "person", name: ui.app.name || "" }, { seat: 1, kind: "person", name: ui.t("learn_other_player") }],
    });
    this.render();
    if (focus) this.root.querySelector("#step-heading")?.focus({ preventScroll: false });
    say(ui.t("learn_say_step", { n: index + 1, m: this.course.steps.length, title: inLang(step.title, ui), goal: inLang(step.goal, ui) }));
    this.table.accept(frameOf(step.view, step.sides));
  }

  async play(move) {
    const { ui } = this;
    const step = this.step;
    let answer;
    try {
      answer = await ui.api(`/api/lessons/${encodeURIComponent(this.variant)}/${step.id}`, {
        method: "POST", body: JSON.stringify({ move, rules: this.rules ? JSON.parse(this.rules) : null }),
      });
    } catch (err) {
      this.table?.refused(err.code || "bad_move", {});
      return;
    }
    if (this.closed || this.step !== step) return;
    this.result = answer;
    this.course.done = answer.done;
    if (answer.correct) {
      this.table.close();
      this.table = null;
      playSound(answer.move.includes("x") ? "capture" : "play");
      this.render();
      say(`${ui.t("learn_right")} ${inLang(answer.words, ui)}`);
      this.root.querySelector("#lesson-next")?.focus();
    } else {
      this.table.refused("lesson_wrong", {});
      this.render();
      say(inLang(answer.words, ui));
    }
  }

  render() {
    if (!this.course) return;
    const { ui } = this;
    const { t, n } = ui;
    const course = this.course;
    const step = this.step;
    const total = course.steps.length;
    document.title = `${inLang(course.title, ui)} · ${t("app_name")}`;
    const stepsNav = h("nav", { class: "panel lesson-steps", "aria-labelledby": "steps-heading" },
      h("h2", { id: "steps-heading" }, t("learn_steps"), " ", h("span", { class: "muted" }, t("learn_progress", { done: n(course.done.length), total: n(total) }))),
      h("ol", {}, course.steps.map((s, i) => h("li", { "data-key": `step-${s.id}` },
        h("button", { type: "button", class: "step-button" + (i === this.index ? " current" : ""), "data-step": s.id,
          "aria-current": i === this.index ? "step" : null, onclick: () => this.open(i) },
        inLang(s.title, ui), course.done.includes(s.id) ? [" ", h("span", { class: "step-done" }, "✓"), h("span", { class: "sr-only" }, ` (${t("learn_step_done")})`)] : null)))));
    const result = this.result;
    let feedback = null;
    if (result && result.correct) {
      const [card, takes] = result.move.split("x");
      const last = this.index === total - 1;
      const allDone = result.complete;
      feedback = h("section", { class: "panel lesson-result right", id: "lesson-result", "aria-labelledby": "lesson-result-heading" },
        h("h3", { id: "lesson-result-heading" }, t("learn_right")),
        h("div", { class: "result-cards", "aria-hidden": "true" }, h("span", { class: "mini" }, dom.cardImg(card, ui.app.lang)),
          takes ? [" × ", takes.split(",").map((c) => h("span", { class: "mini" }, dom.cardImg(c, ui.app.lang)))] : null),
        h("p", { id: "lesson-words" }, inLang(result.words, ui)),
        allDone && last ? h("p", { class: "your-turn", id: "course-done" }, t("learn_course_done")) : null,
        h("div", { class: "actions" },
          !last ? h("button", { type: "button", id: "lesson-next", onclick: () => this.open(this.index + 1) }, t("learn_next"))
            : h("a", { href: "/learn", "data-link": true, class: "button", id: "lesson-next" }, t("learn_all_courses")),
          h("button", { type: "button", class: "secondary", id: "lesson-again", onclick: () => this.open(this.index) }, t("learn_again"))));
    } else if (result) {
      feedback = h("section", { class: "panel lesson-result wrong", id: "lesson-result", "aria-labelledby": "lesson-result-heading" },
        h("h3", { id: "lesson-result-heading" }, t("err_lesson_wrong")),
        h("p", { id: "lesson-words" }, inLang(result.words, ui)));
    }
    const stepPanel = h("section", { class: "panel lesson-step", id: "lesson-step", "aria-labelledby": "step-heading" },
      h("p", { class: "muted step-count" }, t("learn_step_n", { n: n(this.index + 1), m: n(total) })),
      h("h2", { id: "step-heading", tabindex: "-1" }, inLang(step.title, ui)),
      h("p", { class: "lesson-goal", id: "lesson-goal" }, h("strong", {}, t("learn_goal"), ": "), inLang(step.goal, ui)),
      result && !result.correct ? feedback : null);
    if (!this.table) dom.patch(this.tableBox, result && result.correct ? feedback : null);
    dom.patch(this.head, h("div", { class: "learn-head" }, h("h1", {}, inLang(course.title, ui)),
      h("a", { href: "/learn", "data-link": true, id: "all-courses" }, t("learn_all_courses"))),
    course.custom ? h("p", { class: "muted" }, t("learn_custom_help")) : null);
    dom.patch(this.stepBox, stepPanel);
    dom.patch(this.optionsBox, result ? null : optionsList(step.hand_options, ui));
    dom.patch(this.navBox, stepsNav);
  }
}
