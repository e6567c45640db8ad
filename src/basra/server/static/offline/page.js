// Offline play's pages: the offline home (a game against bots, pass and play), the
// offline table, and the games kept on this device in "My games".
//
// The table is the online table's TableView (table.js): the same cards, keys, sounds
// and screen-reader announcements. Only the transport differs: instead of a WebSocket,
// OfflineTablePage asks the engine in the page's worker (engine.js) and hands the
// TableView the very messages a server would send. Every rule, every bot, every hint
// is the server's Python, run under Pyodide; this file only draws and paces.

import { TableView } from "../table.js";
import { seatLabel, resultTag, variantTitle } from "../names.js";
import { SETTING_LABELS, dateText } from "../i18n.js";
import { canonical, settingField, settingLabel } from "../settings.js";
import { EngineError, engineProgress, offlineEngine } from "./engine.js";
import { forgetGame, getGame, keepGame, listGames } from "./store.js";
import { installOffer, offlineReady } from "./register.js";

const LEVELS = ["easy", "medium", "hard"];
const PERSON = "person";

/** A new game's id: random, so games made offline on two devices never meet. */
export function newGameId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A refusal in the page's language; the engine's own words follow where they name a setting. */
function errorWords(ui, err) {
  const code = err?.code || "engine_failed";
  const known = ui.t("err_" + code);
  const detail = ["bad_settings", "bad_name", "engine_failed", "bad_request"].includes(code) ? err?.message || "" : "";
  if (known === "err_" + code) return `${ui.t("err_engine_failed")} ${err?.message || ""}`.trim();
  return `${known} ${detail}`.trim();
}

/** Start a game in the engine, keep it on this device; resolves with its id. */
async function startGame(ui, request) {
  // Ask the browser to keep this site's data (games, the engine) when space runs short.
  navigator.storage?.persist?.().catch(() => {});
  const engine = await offlineEngine();
  const id = newGameId();
  const answer = await engine.call({ op: "new", id, ...request });
  await keepGame(answer.save, answer.summary);
  return id;
}

/**
 * "Starting the game engine" and how far along it is: the step in words, in a status
 * region (announced politely, each step once, never the same words twice) and a bar
 * beside it for the eyes (hidden from screen readers: the words say it). Starting takes
 * seconds on a phone the first time, a fraction of that once a snapshot is kept.
 */
function engineStatus(ui) {
  const { h, t } = ui;
  const words = h("span", { id: "offline-progress-words" }, t("offline_loading"));
  const bar = h("progress", { id: "offline-progress", max: "3", value: "0", "aria-hidden": "true" });
  const node = h("div", { class: "muted engine-progress", id: "offline-loading", role: "status" }, words, bar);
  let stop = null;
  let over = false;
  stop = engineProgress((stage) => {  // called at once with the step now (maybe "ready")
    if (stage.ready || stage.failed) { over = true; stop?.(); return; }
    const text = t("offline_progress", { step: stage.step, of: stage.of, what: t(`offline_step_${stage.step}`) });
    if (words.textContent === text) return;
    words.textContent = text;
    bar.max = stage.of;
    bar.value = stage.step;
  });
  if (over) stop();
  return node;
}

// ------------------------------------------------------------------ rules without a server

/** The presets as /api/variants gives them (name -> {name, description, rules}), from the engine; rethrows ``err`` without one. */
export async function offlineVariants(err) {
  if (navigator.onLine && err?.status) throw err;  // the server answered: its answer stands
  const engine = await offlineEngine().catch(() => { throw err; });
  const hello = await engine.call({ op: "hello" });
  return Object.fromEntries(hello.variants.map((v) => [v.name, v]));
}

/** Custom settings checked by the engine, as /api/rules answers (rethrows ``err`` without an engine). */
export async function offlineRules(variant, rules, err) {
  if (navigator.onLine && err?.status) throw err;
  const engine = await offlineEngine().catch(() => { throw err; });
  return engine.call({ op: "rules", variant, rules });
}

// ------------------------------------------------------------------ the offline home

/**
 * The offline home: what a new game may be (any preset or custom settings, 2-4 seats,
 * teams, bots up to hard, several people at one device), and the unfinished games.
 * ``/offline?variant=V&level=L`` starts a 2-player game against that bot at once.
 */
export async function offlineHome(root, ui, { reason = null } = {}) {
  const { h, t } = ui;
  const app = ui.app;
  const routed = app.routed;
  const page = h("div", { class: "page offline-home" });
  root.append(page);
  const online = navigator.onLine && reason !== "offline";
  page.append(h("h1", {}, t("offline_title")),
    h("p", { class: online ? "muted" : "offline-now", id: "offline-state", role: online ? null : "status" }, online ? t("offline_help") : t("offline_now")));
  const status = engineStatus(ui);
  page.append(status);
  // The engine starts at once (seconds the first time); the games kept here show
  // meanwhile; the form waits for the engine (it knows the rules).
  const starting = offlineEngine();
  starting.catch(() => {});  // said below
  const unfinished = await unfinishedPanel(ui);
  if (unfinished && app.routed === routed) page.append(unfinished);
  const params = new URLSearchParams(location.search);
  let engine;
  let hello;
  try {
    engine = await starting;
    hello = await engine.call({ op: "hello" });
  } catch (err) {
    status.replaceWith(h("p", { class: "panel error", role: "alert", id: "offline-error" }, t("offline_failed", { reason: errorWords(ui, err) })));
    return;
  }
  if (app.routed !== routed) return;
  if (params.has("variant") || params.has("level")) {
    status.remove();
    const variant = params.get("variant") || "egyptian";
    const level = params.get("level") || "medium";
    const failed = (text) => page.append(h("p", { class: "panel error", role: "alert", id: "offline-error" }, text));
    if (!LEVELS.includes(level)) { failed(t("err_bad_seat")); return; }
    try {
      const id = await startGame(ui, { variant, players: 2, seats: [PERSON, level], names: [app.name || t("person_default", { n: 1 }), null] });
      if (app.routed === routed) {
        history.replaceState(null, "", `/offline/g/${id}`);
        window.dispatchEvent(new PopStateEvent("popstate"));  // the router draws the table
      }
    } catch (err) {
      failed(errorWords(ui, err));
    }
    return;
  }
  status.replaceWith(newGameForm(ui, hello));
}

function newGameForm(ui, hello) {
  const { h, t, n } = ui;
  const app = ui.app;
  const all = Object.fromEntries(hello.variants.map((v) => [v.name, v]));
  const form = { variant: "egyptian", players: 2, teams: false, hints: true, seats: [PERSON, "medium", "medium", "medium"], names: [app.name || "", "", "", ""], custom: {} };
  const error = h("p", { class: "error", role: "alert", id: "offline-form-error" });
  const seatsBox = h("div", { class: "seat-rows", id: "offline-seats" });
  const settingsBox = h("div", { class: "settings-grid" });
  const teamsBox = h("input", { type: "checkbox", id: "offline-teams", disabled: true, onchange: (e) => { form.teams = e.target.checked; } });
  const variantSelect = h("select", { id: "offline-variant", onchange: (e) => { form.variant = e.target.value; form.custom = {}; drawSettings(); } },
    Object.keys(all).map((name) => h("option", { value: name, selected: name === form.variant }, ui.variantName(name))));
  const playersSelect = h("select", { id: "offline-players", onchange: (e) => {
    form.players = Number(e.target.value);
    teamsBox.disabled = form.players !== 4;
    if (form.players !== 4) { teamsBox.checked = false; form.teams = false; }
    drawSeats();
  } }, [2, 3, 4].map((v) => h("option", { value: v }, n(v))));
  const hintsBox = h("input", { type: "checkbox", id: "offline-hints", checked: true, onchange: (e) => { form.hints = e.target.checked; } });

  function drawSeats() {
    seatsBox.replaceChildren();
    for (let i = 0; i < form.players; i++) {
      const kind = form.seats[i];
      const select = h("select", { "data-seat": i, id: `offline-seat-${i}`, "aria-label": t("seat_n", { n: i + 1 }), onchange: (e) => { form.seats[i] = e.target.value; drawSeats(); } },
        h("option", { value: PERSON, selected: kind === PERSON }, t("seat_person_here")),
        LEVELS.map((level) => h("option", { value: level, selected: kind === level }, t("seat_bot", { level: t("level_" + level) }))));
      const name = kind === PERSON
        ? h("input", { "data-name": i, id: `offline-name-${i}`, value: form.names[i], maxlength: "24", autocomplete: i === 0 ? "nickname" : "off",
          "aria-label": t("person_name", { n: i + 1 }), placeholder: t("person_default", { n: i + 1 }),
          oninput: (e) => { form.names[i] = e.target.value; if (i === 0) ui.saveName(e.target.value); } })
        : null;
      seatsBox.append(h("div", { class: "seat-row" }, h("span", { class: "muted" }, t("seat_n", { n: i + 1 })), select, name));
    }
  }
  function drawSettings() {
    settingsBox.replaceChildren();
    const base = all[form.variant].rules;
    for (const key of Object.keys(SETTING_LABELS[app.lang])) {
      const current = key in form.custom ? form.custom[key] : base[key];
      const control = settingField(key, current, app.lang, {}, (value) => {
        if (canonical(base[key]) === canonical(value)) delete form.custom[key]; else form.custom[key] = value;
        error.textContent = "";
      });
      const wide = key === "point_cards" || key === "face_values";
      settingsBox.append(wide
        ? h("fieldset", { class: "setting wide" }, h("legend", {}, settingLabel(key, app.lang)), control)
        : h("label", { class: "setting", "data-label": key }, h("span", {}, settingLabel(key, app.lang)), control));
    }
  }
  async function start() {
    error.textContent = "";
    const seats = form.seats.slice(0, form.players);
    const names = seats.map((kind, i) => (kind === PERSON ? (form.names[i].trim() || t("person_default", { n: i + 1 })) : null));
    button.disabled = true;
    button.textContent = t("offline_starting");
    try {
      const id = await startGame(ui, { variant: form.variant, rules: form.custom, players: form.players, teams: form.teams, hints: form.hints, seats, names });
      ui.navigate(`/offline/g/${id}`);
    } catch (err) {
      error.textContent = errorWords(ui, err);
      button.disabled = false;
      button.textContent = t("offline_start");
    }
  }
  const button = h("button", { type: "button", id: "offline-start", onclick: start }, t("offline_start"));
  drawSeats();
  drawSettings();
  return h("section", { class: "panel", "aria-labelledby": "offline-new-title" },
    h("h2", { id: "offline-new-title" }, t("offline_new")),
    h("div", { class: "form-grid" },
      h("label", { for: "offline-variant" }, t("variant")), variantSelect,
      h("label", { for: "offline-players" }, t("players")), playersSelect,
      h("span"), h("label", {}, teamsBox, " ", t("teams")),
      h("span"), h("label", {}, hintsBox, " ", t("hints")),
      h("span", {}, t("seats")), seatsBox),
    h("p", { class: "muted" }, t("offline_people_help")),
    h("details", {}, h("summary", {}, t("custom")), h("p", { class: "muted" }, t("custom_help")), settingsBox),
    h("div", { class: "actions" }, button), error);
}

async function unfinishedPanel(ui) {
  const { h, t } = ui;
  const games = (await listGames().catch(() => [])).filter((g) => g.summary.status === "playing");
  if (!games.length) return null;
  return h("section", { class: "panel", id: "offline-unfinished" }, h("h2", {}, t("offline_unfinished")),
    h("ul", { class: "list" }, games.map((game) => gameRow(ui, game))));
}

// ------------------------------------------------------------------ the games kept here

function downloadLink(ui, game) {
  const blob = new Blob([JSON.stringify(game.save, null, 1) + "\n"], { type: "application/json" });
  return ui.h("a", { href: URL.createObjectURL(blob), download: `basra-offline-${game.id.slice(0, 8)}.json`, class: "offline-download" }, ui.t("download"));
}

function uploadWords(ui, game) {
  if (game.uploaded) return ui.h("span", { class: "tag" }, ui.t("uploaded_tag"));
  if (game.upload_error === "upload_unavailable") return ui.h("span", { class: "muted" }, ui.t("upload_unavailable"));
  if (game.upload_error) return ui.h("span", { class: "muted" }, ui.t("upload_refused", { reason: game.upload_error }));
  return ui.h("span", { class: "muted" }, ui.t("upload_waiting"));
}

function gameRow(ui, game, onForget = null) {
  const { h, t, n, bdi } = ui;
  const lang = ui.app.lang;
  const s = game.summary;
  const names = s.names.map((name, i) => (s.kinds[i] === "bot" ? seatLabel({ kind: "bot", level: s.levels[i] }, i, lang) : name));
  const when = dateText(s.updated_at || s.created_at, lang);
  const links = [
    s.status === "playing" ? h("a", { href: `/offline/g/${game.id}`, "data-link": true, class: "offline-resume" }, t("offline_resume")) : null,
    s.status === "playing" ? " · " : null,
    downloadLink(ui, game),
    game.uploaded?.url ? [" · ", h("a", { href: game.uploaded.url, "data-link": true }, t("replay"))] : null,
    game.uploaded?.id && s.status === "over" ? [" · ", h("a", { href: `/review/${game.uploaded.id}`, "data-link": true, class: "review-link" }, t("review"))] : null,
    onForget ? [" · ", h("button", { type: "button", class: "link-button", onclick: () => onForget(game) }, t("offline_forget"))] : null,
  ];
  // Uploaded, it is also the server's game (the same row: My games lists it once).
  return h("li", { "data-offline-game": game.id, "data-game": game.uploaded?.id || null },
    h("span", {}, h("strong", {}, variantTitle(s.variant, s.rules, lang)), " · ", names.map((x, i) => [i ? " · " : "", bdi(x)]),
      h("br"), h("span", { class: "muted" }, when, " · ", s.scores.map(n).join(" – "), " · "), uploadWords(ui, game)),
    h("span", {}, h("span", { class: "tag" }, t("offline_tag")), " ", resultTag(s, lang), " ", links));
}

/** The server's ids of the games kept on this device that were uploaded. */
export async function keptUploads() {
  const games = await listGames().catch(() => []);
  return new Set(games.map((game) => game.uploaded?.id).filter(Boolean));
}

/** "My games": the games kept on this device (null when there are none). */
export async function offlineGamesSection(ui) {
  const { h, t } = ui;
  const games = await listGames().catch(() => []);
  if (!games.length) return null;
  const list = h("ul", { class: "list" });
  const forget = async (game) => {
    if (!confirm(t("offline_forget_sure"))) return;
    await forgetGame(game.id);
    list.querySelector(`[data-offline-game="${game.id}"]`)?.remove();
  };
  list.append(...games.map((game) => gameRow(ui, game, forget)));
  return h("section", { class: "panel", id: "offline-games", "aria-labelledby": "offline-games-title" },
    h("h2", { id: "offline-games-title" }, t("kept_here")), h("p", { class: "muted" }, t("kept_here_help")), list);
}

/** A panel for the online home: play without a connection, install the app (where the browser offers it). */
export function offlinePanel(ui) {
  const { h, t } = ui;
  const install = h("button", { type: "button", class: "secondary", id: "install-app", hidden: !installOffer(), onclick: async () => {
    const offer = installOffer();
    if (!offer) return;
    install.hidden = true;
    await offer.prompt();
  } }, t("offline_install"));
  document.addEventListener("basra:install-offer", () => { install.hidden = !installOffer(); });
  // Whether the app is kept on this device yet: said once it is (the first visit fills
  // the cache in the background), so a person knows they may go offline.
  const ready = h("p", { id: "offline-ready", role: "status", class: "muted" }, t("offline_getting_ready"));
  const check = async (left) => {
    if (!ready.isConnected && left < 60) return;  // the page moved on
    if (await offlineReady()) { ready.textContent = t("offline_ready"); ready.classList.add("ready"); return; }
    if (left > 0) setTimeout(() => check(left - 1), 2000);
    else ready.textContent = t("offline_not_kept");
  };
  check(60);
  return h("section", { class: "panel offline-panel", id: "offline-panel", "aria-labelledby": "offline-panel-title" },
    h("h2", { id: "offline-panel-title" }, t("offline_title")), h("p", { class: "muted" }, t("offline_help")), ready,
    h("p", { class: "actions" }, h("a", { href: "/offline", "data-link": true, id: "offline-link" }, t("offline_home_link")), " ", install));
}

// ------------------------------------------------------------------ the offline table

/** Milliseconds between automatic events: a bot's play, the deal after a round's sheet. */
function pace(app) {
  return app.fast ? { bot: 40, round: 120 } : { bot: 700, round: 3500 };
}

export class OfflineTablePage {
  constructor(root, id, ui) {
    this.root = root;
    this.id = id;
    this.ui = ui;
    this.closed = false;
    this.viewer = null;
    this.revealed = false;
    this.running = false;
    this.summary = null;
    this.loading = engineStatus(ui);
    root.append(this.loading);
    this.view = new TableView(root, { lang: () => ui.app.lang, fast: ui.app.fast, toast: ui.toast }, {
      play: (move, version) => this.move(move, version),
      hint: (version) => this.askHint(version),
      rematch: () => this.rematch(),
      side: (view) => this.side(view),
      endLinks: () => this.endLinks(),
    });
    this.cover = null;
    this.open();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.view.close();
    this.cover?.remove();
  }

  relabel() {
    this.view.relabel();
    if (this.cover) this.showCover();
  }

  async open() {
    const { h, t } = this.ui;
    const starting = offlineEngine();  // at once, while the game is read
    starting.catch(() => {});  // said below
    try {
      const entry = await getGame(this.id);
      if (!entry) {
        this.loading.replaceWith(h("div", { class: "page" }, h("h1", {}, t("no_offline_game")),
          h("p", { class: "panel" }, h("a", { href: "/offline", "data-link": true }, t("new_offline_game")))));
        return;
      }
      this.engine = await starting;
      const opened = await this.engine.call({ op: "open", save: entry.save });
      this.summary = opened.summary;
    } catch (err) {
      this.loading.replaceWith(h("p", { class: "panel error", role: "alert", id: "offline-error" }, t("offline_failed", { reason: errorWords(this.ui, err) })));
      return;
    }
    if (this.closed) return;
    this.loading.remove();
    const people = this.summary.people;
    // Pass and play: after a reload nobody knows who holds the device, so the hand waits for a tap.
    this.viewer = this.nextViewer();
    this.revealed = people.length === 1;
    await this.draw();
    this.run();
  }

  /** Whose cards show: the person to move, else the last person who looked. */
  nextViewer() {
    const people = this.summary.people;
    const turn = this.summary.turn;
    if (people.includes(turn)) return turn;
    return this.viewer ?? people[0];
  }

  async draw() {
    const frames = await this.engine.call({ op: "frames", viewer: this.viewer });
    if (this.closed) return;
    // Pass and play: the next person's hand enters the page only once they tap.
    this.waiting = frames;
    if (this.revealed) this.show();
    this.showCover();
  }

  show() {
    const frames = this.waiting;
    this.waiting = null;
    if (!frames) return;
    this.view.setTable(frames.table.table);
    this.view.accept(frames.state);
  }

  /** Pass and play: cover the table until the person whose hand is next taps. */
  showCover() {
    const { h, bdi } = this.ui;
    this.cover?.remove();
    this.cover = null;
    this.view.node.hidden = !this.revealed;
    if (this.revealed) return;
    const name = this.summary.names[this.viewer];
    const ready = h("button", { type: "button", id: "pass-ready", onclick: () => {
      this.revealed = true;
      this.show();
      this.showCover();
      this.view.focusCard?.(0);
    } }, ...this.ui.tn("pass_ready", { name: bdi(name) }));
    this.cover = h("section", { class: "panel pass-cover", id: "pass-cover", "aria-labelledby": "pass-title" },
      h("h1", { id: "pass-title" }, ...this.ui.tn("pass_to", { name: bdi(name) })),
      h("p", { class: "muted" }, ...this.ui.tn("pass_help", { name: bdi(name) })), ready);
    this.root.append(this.cover);
    ready.focus({ preventScroll: true });
  }

  /** Keep the game after every event; a person changing in pass and play covers the table. */
  async after(answer) {
    this.summary = answer.summary;
    await keepGame(answer.save, answer.summary);
    const viewer = this.nextViewer();
    if (viewer !== this.viewer) {
      this.viewer = viewer;
      this.revealed = this.summary.people.length === 1;
    }
    if (this.closed) return;
    await this.draw();
    if (answer.over) document.dispatchEvent(new CustomEvent("basra:offline-over", { detail: { id: this.id } }));
  }

  /** Make the automatic events (deals, bots' plays) one by one, at a person's pace. */
  async run() {
    if (this.running) return;
    this.running = true;
    try {
      const timing = pace(this.ui.app);
      while (!this.closed && this.summary.status === "playing") {
        if (!this.summary.pending) break;
        // The first deal at once; a later one after the round's score sheet; a bot at a person's pace.
        const dealing = this.summary.turn === null;
        const wait = dealing ? (this.summary.round < 0 ? 0 : timing.round) : timing.bot;
        if (wait) await new Promise((resolve) => { this.timer = setTimeout(resolve, wait); });
        if (this.closed) break;
        const answer = await this.engine.call({ op: "next" });
        await this.after(answer);
      }
    } catch (err) {
      if (!this.closed) this.ui.toast(errorWords(this.ui, err));
    } finally {
      this.running = false;
    }
  }

  async move(move, version) {
    try {
      const answer = await this.engine.call({ op: "move", seat: this.viewer, move, version });
      await this.after(answer);
      this.run();
    } catch (err) {
      if (err instanceof EngineError) this.view.refused(err.code, { message: err.message, ...err.detail });
      else this.ui.toast(errorWords(this.ui, err));
    }
  }

  async askHint(version) {
    try {
      this.view.hint(await this.engine.call({ op: "hint", seat: this.viewer, version }));
    } catch (err) {
      this.view.refused(err.code || "hint_failed", { message: err.message });
    }
  }

  async rematch() {
    try {
      const id = newGameId();
      const answer = await this.engine.call({ op: "rematch", id });
      await keepGame(answer.save, answer.summary);
      this.ui.navigate(`/offline/g/${id}`);
    } catch (err) {
      this.ui.toast(errorWords(this.ui, err));
    }
  }

  side() {
    const { h, t } = this.ui;
    return h("section", { class: "panel", id: "offline-side", "aria-labelledby": "offline-side-title" },
      h("h2", { id: "offline-side-title" }, t("offline_table")), h("p", { class: "muted" }, t("offline_table_help")),
      h("p", {}, h("a", { href: "/offline", "data-link": true }, t("new_offline_game"))));
  }

  endLinks() {
    const { h, t } = this.ui;
    const link = h("a", { href: "#", id: "download", download: `basra-offline-${this.id.slice(0, 8)}.json`, onclick: async (event) => {
      if (link.dataset.ready) return;
      event.preventDefault();
      const game = await getGame(this.id);
      link.href = URL.createObjectURL(new Blob([JSON.stringify(game.save, null, 1) + "\n"], { type: "application/json" }));
      link.dataset.ready = "1";
      link.click();
    } }, t("download"));
    return [link, h("a", { href: "/games", "data-link": true, id: "offline-my-games" }, t("nav_games")),
      h("a", { href: "/offline", "data-link": true }, t("new_offline_game"))];
  }
}
