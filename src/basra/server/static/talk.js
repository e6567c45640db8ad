// Table talk (features/talk on the server): short lines among a table's seated players,
// and its spectators where the table's maker let them read. A line travels over the
// table's socket ({type: "say", text} or {type: "say", phrase}); everyone who may read it
// gets {type: "talk", id, seat, name, text | phrase}. A quick phrase travels as its key,
// so each reader sees it in their own language ("talk_phrase_" keys).
//
// The panel lies under the table, outside what the table redraws, so a line being typed
// keeps its focus and its text whatever the game does; on a phone it is a part of the
// page one scrolls to, never over the cards. The log is a live region (polite): a screen
// reader hears each line as it comes, and in blind mode the table's nvui plugin says it
// aloud instead (`announce(text)`), so it is heard once. Each line of another person
// has one button that opens its actions: mute them (kept by the server, for every
// table: their lines are hidden for this person) or report the line (the report quotes
// it). A switch turns one's talk off (the server keeps it). A refusal (a word not
// allowed, too fast, silenced) is said under the field, which it marks, and the line's
// text goes back into the field to be written another way.

import { isBlind } from "./blind.js";

export const PHRASES = ["hello", "good_luck", "have_fun", "your_turn", "well_played", "nice_basra", "oops", "sorry", "thanks", "one_moment", "good_game", "rematch"];
const KEPT = 50;
const REFUSALS = ["talk_not_allowed", "bad_talk", "bad_phrase", "talk_closed", "silenced", "talk_off", "not_seated"];

export class TableTalk {
  /**
   * ``ui``: the page's helpers (h, t, api, errorText, toast); ``send(message)`` sends over
   * the table's socket; ``announce(text)`` says a line in blind mode (the table's nvui).
   */
  constructor(ui, tableId, send, announce) {
    this.ui = ui;
    this.tableId = tableId;
    this.send = send;
    this.announce = announce;
    this.lines = [];
    this.table = null;
    this.where = null;     // {open, spectators}: GET /api/tables/{id}/talk
    this.settings = null;  // the person's own: GET /api/talk
    this.openLine = null;  // the line whose actions are open
    this.pending = null;   // the text of a line sent and not yet echoed
    this.node = ui.h("section", { class: "panel talk-panel", id: "talk", "aria-labelledby": "talk-heading", hidden: true });
    this.load();
  }

  async load() {
    const { api } = this.ui;
    try {
      const where = await api(`/api/tables/${this.tableId}/talk`);
      this.settings = this.ui.app.token ? await api("/api/talk") : null;
      this.where = where;  // both known: the panel is drawn once
    } catch { this.where = null; }
    this.render();
  }

  /** The table's description changed (a seat taken, the game's end). */
  setTable(table) {
    const before = this.table?.you;
    this.table = table;
    if (before !== table.you || this.node.hidden) this.render();
  }

  get seated() { return this.table && this.table.you !== null && this.table.you !== undefined; }

  /** Whether this person reads the table's talk here. */
  get reading() {
    return Boolean(this.where && this.table && (this.seated || this.where.spectators));
  }

  /** The words of a line, in this page's language. */
  words(line) { return line.phrase ? this.ui.t("talk_phrase_" + line.phrase) : line.text; }

  /** A line said at the table. */
  heard(line) {
    if (!this.reading) return;
    this.lines.push(line);
    while (this.lines.length > KEPT) this.lines.shift();
    const log = this.node.querySelector("#talk-log");
    if (log) {
      log.querySelector(".talk-empty")?.remove();
      log.append(this.lineNode(line));
      while (log.children.length > KEPT) log.firstChild.remove();
      log.scrollTop = log.scrollHeight;
    }
    const mine = line.seat === this.table?.you;
    if (mine) this.pending = null;
    this.announce(this.ui.t("talk_says", { name: mine ? this.ui.t("you") : line.name, text: this.words(line) }));
  }

  /** A refusal from the socket: true when it is talk's (said here, under the field). */
  refused(code, detail) {
    if (!(REFUSALS.includes(code) || (code === "rate_limited" && detail?.limit === "talk"))) return false;
    if (code === "not_seated" && !this.node.contains(document.activeElement)) return false;
    const text = code === "rate_limited" ? this.ui.t("err_rate_limited_retry", { n: detail.retry_after || 1 }) : this.ui.t("err_" + code);
    const field = this.node.querySelector("#talk-text");
    if (field && this.pending && !field.value) field.value = this.pending;  // to be written another way
    this.pending = null;
    this.say(text, detail?.field === "text");
    this.announce(text);
    return true;
  }

  /** Say ``text`` in the panel's status line (``bad``: and mark the field). */
  say(text, bad = false) {
    const status = this.node.querySelector("#talk-status");
    if (status) status.textContent = text;
    const field = this.node.querySelector("#talk-text");
    if (field) {
      if (bad) { field.setAttribute("aria-invalid", "true"); field.focus(); } else field.removeAttribute("aria-invalid");
    }
  }

  relabel() { this.render(); }

  close() { this.node.remove(); }

  lineNode(line) {
    const { h, t, bdi } = this.ui;
    const mine = line.seat === this.table?.you;
    const who = mine ? t("you") : line.name;
    const actions = [];
    if (!mine && this.ui.app.token) {
      const open = this.openLine === line.id;
      actions.push(h("button", {
        type: "button", class: "secondary talk-more", "data-line": line.id, "aria-expanded": String(open),
        "aria-label": t("talk_line_actions", { name: line.name }), title: t("talk_line_actions", { name: line.name }),
        onclick: () => { this.openLine = open ? null : line.id; this.redrawLog(); this.node.querySelector(`[data-line="${line.id}"]`)?.focus(); },
      }, "⋯"));
      if (open) {
        actions.push(h("span", { class: "talk-actions" },
          h("button", { type: "button", class: "secondary", "data-mute": String(line.seat), onclick: () => this.mute(line) }, t("talk_mute", { name: line.name })),
          h("button", { type: "button", class: "secondary", "data-report": line.id, onclick: () => this.report(line) }, t("talk_report"))));
      }
    }
    return h("p", { class: "talk-line" + (mine ? " mine" : ""), "data-key": "line-" + line.id, "data-seat": String(line.seat), "data-phrase": line.phrase || null },
      h("strong", {}, bdi(who)), ": ", h("bdi", { dir: "auto", class: "talk-words" }, this.words(line)), " ", actions);
  }

  redrawLog() {
    const log = this.node.querySelector("#talk-log");
    if (!log) return;
    log.replaceChildren(...(this.lines.length ? this.lines.map((l) => this.lineNode(l)) : [this.ui.h("p", { class: "talk-empty muted" }, this.ui.t("talk_empty"))]));
  }

  async mute(line) {
    const { api, t, errorText } = this.ui;
    try {
      this.settings = await api("/api/talk/mute", { method: "POST", body: JSON.stringify({ table: this.tableId, seat: line.seat }) });
      this.lines = this.lines.filter((l) => l.seat !== line.seat);
      this.openLine = null;
      this.render();
      this.say(t("talk_muted", { name: line.name }));
      this.node.querySelector("#talk-text")?.focus();
    } catch (err) { this.say(errorText(err)); }
  }

  async unmute(mute) {
    const { api, t, errorText } = this.ui;
    try {
      this.settings = await api("/api/talk/unmute", { method: "POST", body: JSON.stringify({ id: mute.id }) });
      this.render();
      this.say(t("talk_unmuted", { name: mute.name }));
    } catch (err) { this.say(errorText(err)); }
  }

  async report(line) {
    const { api, t, errorText } = this.ui;
    try {
      await api("/api/reports", { method: "POST", body: JSON.stringify({ table: this.tableId, line: line.id, reason: "abuse" }) });
      this.openLine = null;
      this.redrawLog();
      this.say(t("talk_reported"));
      this.node.querySelector(`[data-line="${line.id}"]`)?.focus();
    } catch (err) { this.say(errorText(err)); }
  }

  async turn(off) {
    const { api, errorText } = this.ui;
    try {
      this.settings = await api("/api/talk/settings", { method: "POST", body: JSON.stringify({ off }) });
      if (off) this.lines = [];
      this.render();
      this.node.querySelector("#talk-switch")?.focus();
    } catch (err) { this.say(errorText(err)); }
  }

  submit(event) {
    event.preventDefault();
    const field = this.node.querySelector("#talk-text");
    const text = field.value;
    if (!text.trim()) { this.say(this.ui.t("err_bad_talk"), true); return; }
    this.say("");
    this.send({ type: "say", text });
    this.pending = text;  // given back to the field if it is refused
    field.value = "";
  }

  phrase(key) {
    this.say("");
    this.send({ type: "say", phrase: key });
  }

  /** Draw the panel again, keeping the focus (and the caret of a line being typed). */
  render() {
    const active = this.node.contains(document.activeElement) ? document.activeElement : null;
    const caret = active?.id === "talk-text" ? [active.selectionStart, active.selectionEnd] : null;
    this.draw();
    if (active && active.id && !this.node.contains(active)) {
      const again = this.node.querySelector("#" + active.id);
      again?.focus({ preventScroll: true });
      if (again && caret) again.setSelectionRange(...caret);
    }
  }

  draw() {
    const { h, t } = this.ui;
    if (!this.reading) { this.node.hidden = true; return; }
    this.node.hidden = false;
    const off = Boolean(this.settings?.off);
    const typed = this.node.querySelector("#talk-text")?.value || "";
    const parts = [h("h2", { id: "talk-heading" }, t("talk_heading"))];
    if (!this.where.open) {
      parts.push(h("p", { class: "muted", id: "talk-closed" }, t("talk_closed")));
      this.node.replaceChildren(...parts);
      return;
    }
    if (this.ui.app.token) {
      parts.push(h("button", { type: "button", class: "secondary", id: "talk-switch", "aria-pressed": String(off), onclick: () => this.turn(!off) },
        t(off ? "talk_on_button" : "talk_off_button")));
    }
    if (off) {
      parts.push(h("p", { class: "muted", id: "talk-off" }, t("talk_is_off")));
      this.node.replaceChildren(...parts);
      return;
    }
    // In blind mode the nvui plugin says each line: the log is not read a second time.
    parts.push(h("div", { class: "talk-log", id: "talk-log", role: "log", "aria-live": isBlind() ? "off" : "polite", "aria-labelledby": "talk-heading", tabindex: "0" }));
    if (this.seated) {
      const field = h("input", { id: "talk-text", type: "text", dir: "auto", maxlength: "200", autocomplete: "off", value: typed, "aria-describedby": "talk-status",
        oninput: (e) => e.target.removeAttribute("aria-invalid") });
      parts.push(h("form", { class: "talk-form", id: "talk-form", onsubmit: (e) => this.submit(e) },
        h("label", { for: "talk-text" }, t("talk_input")), h("div", { class: "talk-row" }, field,
          h("button", { type: "submit", id: "talk-send" }, t("talk_send")))));
      parts.push(h("details", { class: "talk-phrases", id: "talk-phrases" }, h("summary", {}, t("talk_phrases")),
        h("div", { class: "actions" }, PHRASES.map((key) => h("button", { type: "button", class: "secondary", "data-phrase": key, onclick: () => this.phrase(key) }, t("talk_phrase_" + key))))));
    }
    parts.push(h("p", { class: "muted talk-status", id: "talk-status", role: "status" }));
    const mutes = this.settings?.mutes || [];
    if (mutes.length) {
      parts.push(h("details", { class: "talk-mutes", id: "talk-mutes" }, h("summary", {}, t("talk_mutes", { n: mutes.length })),
        h("ul", {}, mutes.map((m) => h("li", {}, h("button", { type: "button", class: "secondary", "data-unmute": m.id, onclick: () => this.unmute(m) }, t("talk_unmute", { name: m.name || "?" })))))));
    }
    this.node.replaceChildren(...parts);
    this.redrawLog();
  }
}
