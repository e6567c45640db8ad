// The Basra page: a small single-page app with no build step.
// Pages: home (create a table, tables to join), table (play or watch over a
// WebSocket), my games, replay, rules. Everything shown of a game comes from
// the snapshot the server built for this seat.

import { DICTS, FIRST_LANGUAGE, LANGUAGES, SETTING_LABELS, VARIANT_NAMES, dateText, direction, loadLanguage, num, rulesText, translate } from "./i18n.js";
import * as dom from "./dom.js";
import { bdi, h, patch } from "./dom.js";
import { headline, joinNames, resultTag, seatLabel, seatName as nameOfSeat, variantTitle } from "./names.js";
import { canonical, settingField, settingLabel, settingValue, settingsProblem } from "./settings.js";
import { scoreSheet } from "./sheet.js";
import { muteSwitch } from "./sound.js";
import { quickPlayPanel } from "./quickplay.js";
import "./coach.js";
import { blindFromFragment, blindSwitch } from "./blind.js";
import { hush } from "./announce.js";
import { checkFields, clearMarks, markField } from "./fields.js";
import { reportForm } from "./report.js";
import { followAtTable, friendsPanel } from "./friends.js";
import { badge as notificationsBadge, challengesPanel } from "./challenges.js";
import { turnCount, turnsPage, turnsPanel } from "./turns.js";
import { TableTalk } from "./talk.js";
import { manifestLanguage, startOffline } from "./offline/register.js";

// Each page's own module is loaded when that page first opens (the home page draws with
// none of them: a slow phone's first visit fetches only what it shows). The words of
// every page are above, so the menu, the errors and the titles never wait for a module.
const MODULES = {
  table: () => import("./table.js"),
  review: () => import("./review.js"),
  profile: () => import("./profile.js"),
  daily: () => import("./daily.js"),
  bots: () => import("./bots.js"),
  tournaments: () => import("./tournaments.js"),
  learn: () => import("./learn.js"),
  seasons: () => import("./seasons.js"),
  offline: () => import("./offline/page.js"),
  push: () => import("./push.js"),
  clubs: () => import("./clubs.js"),
};

const LS = window.localStorage;
const params = new URLSearchParams(location.search);
const app = {
  lang: FIRST_LANGUAGE,
  token: LS.getItem("basra.token"),
  name: LS.getItem("basra.name") || "",
  variants: null,
  levels: ["easy", "medium", "hard", "expert"],
  page: null,
  fast: params.get("anim") === "fast",
};

// ------------------------------------------------------------------ identity
// The server issues identities: this browser keeps its device token and sends it
// with every request. Nothing in a link ever replaces it: another device joins
// an identity only with a one-time code confirmed on the /device page.

function setToken(token) {
  app.token = token;
  if (token) LS.setItem("basra.token", token); else LS.removeItem("basra.token");
}

/** Ask the server for an identity once (a secret of the old scheme is exchanged for its games). */
async function ensureIdentity() {
  if (app.token) return;
  const legacy = LS.getItem("basra.secret");
  const response = await fetch("/api/identity", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(legacy ? { legacy_secret: legacy } : {}),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw Object.assign(new Error(body?.message || response.statusText), { code: body?.error, retry: body?.retry_after });
  setToken(body.token);
  LS.removeItem("basra.secret");
  if (body.name && !app.name) { app.name = body.name; LS.setItem("basra.name", app.name); }
}

/** This device was signed out (or its identity revoked): say so, and start a new identity. */
async function signedOut() {
  setToken(null);
  banner(t("err_signed_out"));
  try { await ensureIdentity(); } catch (err) { banner(errorText(err)); }
}

/** A refusal in the page's words: its code's sentence (the server's English message only where no sentence has that code). */
function errorText(err) {
  if (err.code === "rate_limited" && err.retry) return t("err_rate_limited_retry", { n: err.retry });
  if (err.code === "playban" && err.playban) return t("err_playban", err.playban);  // how long and why
  const key = "err_" + (err.code || "bad_settings");
  if (key in DICTS.en) return t(key);
  return `${t("err_bad_settings")}${app.lang === "en" && err.message ? ` (${err.message})` : ""}`;
}

const t = (key, p) => translate(app.lang, key, p);
const n = (v) => num(v, app.lang);

// ------------------------------------------------------------------ DOM helpers

const cardImg = (text) => dom.cardImg(text, app.lang);
const cardLabel = (text) => dom.cardLabel(text, app.lang);
const cardsLabel = (texts) => dom.cardsLabel(texts, app.lang);
const fill = (text, params) => dom.fill(text, params, app.lang);
const tn = (key, params) => fill(translate(app.lang, key, {}), params);

async function api(path, options = {}) {
  const auth = app.token ? { Authorization: `Bearer ${app.token}` } : {};
  const response = await fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", ...auth, ...(options.headers || {}) },
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    if (body?.error === "signed_out" && app.token) await signedOut();
    throw Object.assign(new Error(body?.message || response.statusText), { code: body?.error, field: body?.field, status: response.status, retry: body?.retry_after, playban: body?.playban });
  }
  return body;
}

// The variants are asked for as the page starts, beside the identity (no token needed):
// the home page draws with them one round trip sooner on a slow connection.
let earlyVariants = fetch("/api/variants").then((r) => (r.ok ? r.json() : null), () => null);

async function variants() {
  if (!app.variants) {
    const early = earlyVariants && await earlyVariants;
    earlyVariants = null;
    const data = early || await api("/api/variants");
    app.variants = Object.fromEntries(data.variants.map((v) => [v.name, v]));
    app.levels = data.levels;
    app.bounds = data.bounds || {};
    app.families = data.families || {};
  }
  return app.variants;
}

const variantName = (name) => VARIANT_NAMES[app.lang][name] || name;

/** What the account, profile and leaderboard pages (profile.js) use of this module. */
const ui = { app, h, api, t, n, tn, bdi, navigate, toast, errorText, setToken, ensureIdentity, variantName, variants, saveName, cardLabel, cardsLabel };

function setLanguage(lang) {
  app.lang = lang;
  LS.setItem("basra.lang", lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = direction(lang);
  document.title = t("app_name");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  // The menu names every language in itself (each option in its own lang, for screen readers).
  const menu = document.getElementById("lang");
  menu.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code }, name)));
  menu.value = lang;
  menu.title = t("language_menu_help");
  redrawMute();
  redrawBlind();
  drawSkip();
  manifestLanguage(lang);
  fitTopBar();
}

/** Fit the bar's one line: where the links do not fit (many pages; Greek and French words
 * are longer than English ones) they go behind the menu's button and the switches (blind
 * mode, sounds, language) stay in the bar; where even those do not fit, they go too. */
function fitTopBar() {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  bar.classList.remove("narrow", "narrower");
  const over = () => bar.scrollWidth > bar.clientWidth + 1;
  if (over()) bar.classList.add("narrow");
  if (over()) bar.classList.add("narrower");
}
window.addEventListener("resize", fitTopBar);
const redrawMute = muteSwitch(document.getElementById("mute"), (key) => t(key));
const redrawBlind = blindSwitch(document.getElementById("blind"), (key) => t(key), () => redraw());

/** Draw the page again in place (the language or blind mode changed). */
function redraw() {
  if (app.page && app.page.relabel) app.page.relabel(); else route({ keepFocus: true });
}

// ------------------------------------------------------------------ the top bar

const menu = document.getElementById("menu");
const menuToggle = document.getElementById("menu-toggle");

function openMenu(open) {
  menu.classList.toggle("open", open);
  menuToggle.setAttribute("aria-expanded", String(open));
}
menuToggle.addEventListener("click", () => openMenu(!menu.classList.contains("open")));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && menu.classList.contains("open")) { openMenu(false); menuToggle.focus(); }
});
document.addEventListener("click", (event) => {
  if (menu.classList.contains("open") && !event.target.closest("#menu, #menu-toggle")) openMenu(false);
});

// The skip link leads to what a page is for: the table's hand, or the form.
const skipLink = document.getElementById("skip-link");
function drawSkip() {
  const skip = app.skip || { key: "skip_main", target: "#app" };
  skipLink.textContent = t(skip.key);
  skipLink.href = skip.target.startsWith("#") && !skip.target.includes(" ") ? skip.target : "#app";
}
skipLink.addEventListener("click", (event) => {
  const skip = app.skip || { target: "#app" };
  // The first of the page's choices that is there (the hand's card, else the table...).
  const target = skip.target.split(",").map((s) => document.querySelector(s.trim())).find(Boolean) || document.getElementById("app");
  event.preventDefault();
  if (!target.matches("a, button, input, select, textarea, [tabindex]")) target.setAttribute("tabindex", "-1");
  target.focus();
});

/** A page says where its skip link leads (null: to the content). */
function setSkip(key, target) {
  app.skip = key ? { key, target } : null;
  drawSkip();
}

function banner(text) {
  const node = document.getElementById("banner");
  node.hidden = !text;
  node.textContent = text || "";
}

let toastTimer = null;
function toast(text) {
  banner(text);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => banner(""), 3500);
}

/** What the coach's modules (coach.js, review.js) draw with: this page's helpers. */
function coachUi() {
  return { h, api, t, tn, n, cardImg, cardLabel, cardsLabel, bdi, variantName, app, errorText };
}

// ------------------------------------------------------------------ router

function navigate(path) {
  history.pushState(null, "", path);
  openMenu(false);
  route({ moved: true });
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (link && !event.ctrlKey && !event.metaKey && link.origin === location.origin) {
    event.preventDefault();
    navigate(link.pathname + link.search);
  }
});
window.addEventListener("popstate", () => route({ moved: true }));
window.addEventListener("hashchange", () => { if (blindFromFragment()) redraw(); });
document.getElementById("lang").addEventListener("change", async (event) => {
  const lang = event.target.value;
  try {
    await loadLanguage(lang);
  } catch {
    event.target.value = app.lang;  // offline before it was ever fetched: stay
    toast(t("language_unavailable"));
    return;
  }
  setLanguage(lang);
  redraw();
});

/**
 * Draw the page of the address. ``moved``: the person went to another page, so the
 * focus goes to its content (a screen reader starts reading there).
 */
function route({ moved = false, keepFocus = false } = {}) {
  if (app.page && app.page.close) app.page.close();
  app.page = null;
  app.routed = (app.routed || 0) + 1;  // a page that awaits checks it still is the page
  banner("");
  hush();
  const root = document.getElementById("app");
  root.replaceChildren();
  const path = location.pathname;
  const query = new URLSearchParams(location.search);
  setSkip(null);
  document.title = t("app_name");
  turnCount(ui);  // the menu's count of turn-based games waiting for this person's move
  if (moved && !keepFocus) root.focus({ preventScroll: true });
  const routed = app.routed;
  /** Open the page with its module, unless the person has gone elsewhere meanwhile. */
  const lazy = (name, open) => MODULES[name]().then((module) => {
    if (app.routed !== routed) return;
    const page = open(module);
    if (page && typeof page.close === "function") app.page = page;
  }, (err) => { if (app.routed === routed) banner(errorText(err)); });
  let m;
  if ((m = path.match(/^\/t\/([\w-]+)$/))) { setSkip("skip_table", ".hand button.card[tabindex='0'], #hand, #table, .waiting-room"); lazy("table", ({ TableView }) => new TablePage(root, m[1], TableView)); }
  else if (path === "/games") gamesPage(root);
  else if ((m = path.match(/^\/replay\/([\w-]+)$/))) app.page = new ReplayPage(root, m[1]);
  else if ((m = path.match(/^\/review\/([\w-]+)$/))) lazy("review", ({ ReviewPage }) => new ReviewPage(root, m[1], coachUi()));
  else if (path === "/rules") rulesIndex(root);
  else if ((m = path.match(/^\/rules\/([^/]+)$/))) rulesPage(root, decodeURIComponent(m[1]), query.get("rules"));
  else if (path === "/device") devicePage(root);
  else if (path === "/account") lazy("profile", ({ accountPage }) => accountPage(root, ui));
  else if (path === "/me") lazy("profile", ({ profilePage }) => profilePage(root, ui));
  else if ((m = path.match(/^\/u\/([^/]+)$/))) lazy("profile", ({ profilePage }) => profilePage(root, ui, decodeURIComponent(m[1])));
  else if (path === "/leaderboard") lazy("profile", ({ leaderboardPage }) => leaderboardPage(root, ui));
  else if (path === "/daily") lazy("daily", ({ dailyPage }) => dailyPage(root, ui));
  else if (path === "/bots") lazy("bots", ({ botsPage }) => botsPage(root, ui));
  else if (path === "/settings/notifications") lazy("push", ({ pushPage }) => pushPage(root, ui));
  else if (path === "/seasons") lazy("seasons", ({ seasonsPage }) => seasonsPage(root, ui));
  else if ((m = path.match(/^\/tournaments(?:\/([\w-]+))?$/))) lazy("tournaments", ({ tournamentsPage }) => tournamentsPage(root, ui, m[1]));
  else if ((m = path.match(/^\/(learn|puzzles)(?:\/([^/]+))?$/))) { if (m[1] === "learn" ? m[2] : m[2] !== "mistakes") setSkip("skip_table", ".lesson-table .hand button.card[tabindex='0'], .puzzle-table .hand button.card[tabindex='0'], #lesson-next, #puzzle-result-heading, #app"); lazy("learn", ({ learnRoute }) => learnRoute(root, ui, m[1], m[2] && decodeURIComponent(m[2]), query)); }
  else if (path === "/clubs") lazy("clubs", ({ clubsPage }) => clubsPage(root, ui));
  else if ((m = path.match(/^\/club\/([a-z0-9-]+)$/))) lazy("clubs", ({ clubPage }) => clubPage(root, ui, m[1]));
  else if (path === "/turns") app.page = turnsPage(root, ui);
  else if (path === "/offline") lazy("offline", ({ offlineHome }) => offlineHome(root, ui));
  else if ((m = path.match(/^\/offline\/g\/([\w-]+)$/))) { setSkip("skip_table", ".hand button.card[tabindex='0'], #pass-ready, #hand, #table"); lazy("offline", ({ OfflineTablePage }) => new OfflineTablePage(root, m[1], ui)); }
  else if ((path === "/" || path === "") && !navigator.onLine) lazy("offline", ({ offlineHome }) => offlineHome(root, ui, { reason: "offline" }));
  else if (path === "/" || path === "") homePage(root);
  else notFoundPage(root);
}

/** An address the page does not know: say so in words, with a way home. */
function notFoundPage(root) {
  document.title = `${t("not_found_title")} · ${t("app_name")}`;
  root.append(h("div", { class: "page", id: "not-found" }, h("h1", {}, t("not_found_title")),
    h("section", { class: "panel" }, h("p", {}, t("not_found_help")),
      h("p", {}, h("a", { href: "/", "data-link": true, id: "go-home" }, t("go_home"))))));
}

// ------------------------------------------------------------------ home

function saveName(value) {
  app.name = value.trim().slice(0, 24);
  LS.setItem("basra.name", app.name);
}

async function homePage(root) {
  const routed = app.routed;
  let all;
  try { all = await variants(); } catch {  // no server: play here
    const { offlineHome } = await MODULES.offline();
    if (app.routed === routed) offlineHome(root, ui, { reason: "offline" });
    return;
  }
  if (app.routed !== routed) return;  // the person went elsewhere meanwhile
  const form = { variant: "egyptian", players: 2, teams: false, hints: true, seats: ["me", "bot:medium", "bot:medium", "bot:medium"], custom: {}, rated: false, clock: "" };
  const page = h("div", { class: "page" });
  root.append(page);
  const quick = quickPlayPanel(ui, all);
  const friends = friendsPanel(ui, new URLSearchParams(location.search).get("follow"));
  const challenges = challengesPanel(ui);
  const turns = turnsPanel(ui);
  app.page = { close: () => { quick.close(); friends.close(); challenges.close(); turns.close(); } };
  let myBots = [];  // the person's bot accounts, offered as seats (bots.js)
  api("/api/bots").then((body) => { myBots = body.bots; drawSeats(); }, () => {});
  const nameInput = h("input", { id: "name", value: app.name, maxlength: "24", size: "24", placeholder: t("name_placeholder"), autocomplete: "nickname", enterkeyhint: "go", oninput: (e) => saveName(e.target.value),
    onkeydown: (e) => { if (e.key === "Enter" && !e.isComposing) { e.preventDefault(); playBot(); } } });
  // Said beside the name itself, where a phone's screen is when the field takes the focus.
  const nameError = h("p", { class: "error", role: "alert", id: "name-error" });
  const error = h("p", { class: "error", role: "alert", id: "create-error" });
  const settingsBox = h("div", { class: "settings-grid" });
  const seatsBox = h("div", { class: "seat-rows" });
  const rulesLink = h("a", { href: "/rules/egyptian", "data-link": true, id: "rules-link" }, t("read_rules"));
  const variantSelect = h("select", { id: "variant", onchange: (e) => { form.variant = e.target.value; form.custom = {}; drawSettings(); drawRulesLink(); } },
    Object.keys(all).map((name) => h("option", { value: name, selected: name === form.variant }, variantName(name))));
  const playersSelect = h("select", { id: "players", onchange: (e) => { form.players = Number(e.target.value); teamsBox.disabled = form.players !== 4; if (form.players !== 4) { teamsBox.checked = false; form.teams = false; } drawSeats(); } },
    [2, 3, 4].map((v) => h("option", { value: v }, n(v))));
  const teamsBox = h("input", { type: "checkbox", id: "teams", disabled: true, onchange: (e) => { form.teams = e.target.checked; } });
  const hintsBox = h("input", { type: "checkbox", id: "hints", checked: true, onchange: (e) => { form.hints = e.target.checked; } });
  const talkBox = h("input", { type: "checkbox", id: "talk-spectators", onchange: (e) => { form.talk_spectators = e.target.checked; } });
  // Rated tables: no hints and a clock (the server checks the rest and says why).
  // "Nd": a turn-based table of N days a move (a person is expected to be away meanwhile).
  const CLOCKS = ["", "15+30", "30+60", "60+180", "1d", "2d", "3d", "7d"];
  const clockName = (c) => (!c ? t("clock_none") : c.endsWith("d") ? t("clock_days", { n: parseInt(c, 10) })
    : t("clock_option", { move: Number(c.split("+")[0]), reserve: Number(c.split("+")[1]) }));
  const clockSelect = h("select", { id: "clock", onchange: (e) => { form.clock = e.target.value; } },
    CLOCKS.map((c) => h("option", { value: c }, clockName(c))));
  const ratedBox = h("input", { type: "checkbox", id: "rated", onchange: (e) => {
    form.rated = e.target.checked;
    hintsBox.disabled = form.rated;
    if (form.rated) { hintsBox.checked = false; form.hints = false; if (!form.clock) { form.clock = "30+60"; clockSelect.value = "30+60"; } }
  } });

  function overrides() {
    return form.custom;
  }
  function drawRulesLink() {
    const custom = Object.keys(form.custom).length ? `?rules=${encodeURIComponent(JSON.stringify(form.custom))}` : "";
    rulesLink.href = `/rules/${form.variant}${custom}`;
  }
  function drawSeats() {
    seatsBox.replaceChildren();
    for (let i = 0; i < form.players; i++) {
      const value = form.seats[i];
      const options = [
        h("option", { value: "me", selected: value === "me" }, t("seat_me")),
        h("option", { value: "open", selected: value === "open" }, t("seat_open")),
        ...app.levels.map((level) => h("option", { value: `bot:${level}`, selected: value === `bot:${level}` }, t("seat_bot", { level: t("level_" + level) }))),
        ...myBots.map((bot) => h("option", { value: `external:${bot.name}`, selected: value === `external:${bot.name}` }, t("seat_program", { name: bot.name }))),
      ];
      seatsBox.append(h("div", { class: "seat-row" }, h("label", { class: "muted", for: `seat-${i}` }, t("seat_n", { n: i + 1 })),
        h("select", { "data-seat": i, id: `seat-${i}`, onchange: (e) => {
          if (e.target.value === "me") form.seats = form.seats.map((s) => (s === "me" ? "open" : s));
          form.seats[i] = e.target.value; drawSeats();
        } }, options)));
    }
  }
  function drawSettings() {
    settingsBox.replaceChildren();
    const base = all[form.variant].rules;
    for (const key of Object.keys(SETTING_LABELS[app.lang])) {
      const current = key in form.custom ? form.custom[key] : base[key];
      const control = settingField(key, current, app.lang, app.bounds, (value) => setSetting(key, value));
      const wide = key === "point_cards" || key === "face_values";
      settingsBox.append(wide
        ? h("fieldset", { class: "setting wide" }, h("legend", {}, settingLabel(key, app.lang)), control)
        : h("label", { class: "setting", "data-label": key }, h("span", {}, settingLabel(key, app.lang)), control));
    }
  }
  function setSetting(key, value) {
    const base = all[form.variant].rules;
    if (canonical(base[key]) === canonical(value)) delete form.custom[key];
    else form.custom[key] = value;
    clearMarks(formNode, error);
    drawRulesLink();
  }
  /** The server refused the form: the field it names, marked, and why in words. */
  function refused(err) {
    if (err.code !== "bad_settings" || !err.field) { error.textContent = errorText(err); return; }
    const { controls, message } = settingsProblem(err, formNode, app.lang, app.bounds, { rated: form.rated, sent: form.custom });
    if (controls.length) markField(controls, message, error); else error.textContent = message;
  }
  /** The name, or false after marking the field beside it. */
  function named() {
    clearMarks(page.querySelector(".hero"), nameError);
    saveName(nameInput.value);
    if (!app.name) { markField(nameInput, t("name_needed"), nameError); return false; }
    return true;
  }
  /** A newcomer's first game, in one press: casual, the default variant, two seats, a medium bot, hints. */
  async function playBot() {
    if (!named() || botButton.disabled) return;
    botButton.disabled = true;
    try {
      const body = await api("/api/tables", { method: "POST", body: JSON.stringify({
        name: app.name, variant: "egyptian", players: 2, teams: false, hints: true,
        seats: [{ kind: "person" }, { kind: "bot", level: "medium" }], my_seat: 0 }) });
      navigate(body.url);
    } catch (err) {
      botButton.disabled = false;
      nameError.textContent = errorText(err);
    }
  }
  const botButton = h("button", { type: "button", id: "play-bot", onclick: playBot }, t("play_bot"));
  async function create(event) {
    event?.preventDefault();
    clearMarks(formNode, error);
    if (!named()) return;
    if (!checkFields(formNode, error, t)) return;
    const seats = form.seats.slice(0, form.players).map((s) => (s.startsWith("bot:") ? { kind: "bot", level: s.slice(4) }
      : s.startsWith("external:") ? { kind: "external", bot: s.slice(9) } : { kind: "person" }));
    const mine = form.seats.slice(0, form.players).indexOf("me");
    button.disabled = true; button.textContent = t("creating");
    try {
      const body = await api("/api/tables", { method: "POST", body: JSON.stringify({
        name: app.name, variant: form.variant, rules: overrides(), players: form.players,
        teams: form.teams, hints: form.hints, seats, my_seat: mine >= 0 ? mine : null,
        ...(form.rated ? { rated: true } : {}),
        ...(form.clock.endsWith("d") ? { clock: { days: parseInt(form.clock, 10) } }
          : form.clock ? { clock: { move: Number(form.clock.split("+")[0]), reserve: Number(form.clock.split("+")[1]) } } : {}),
        ...(form.talk_spectators ? { talk_spectators: true } : {}),
      }) });
      navigate(body.url);
    } catch (err) {
      button.disabled = false; button.textContent = t("create");
      refused(err);
    }
  }
  const button = h("button", { id: "create", type: "submit" }, t("create"));
  drawSeats(); drawSettings(); drawRulesLink();
  const formNode = h("form", { id: "new-table-form", novalidate: true, onsubmit: create },
    h("div", { class: "form-grid" },
      h("label", { for: "variant" }, t("variant")), h("div", {}, variantSelect, " ", rulesLink),
      h("label", { for: "players" }, t("players")), playersSelect,
      h("span"), h("label", {}, teamsBox, " ", t("teams")),
      h("span"), h("label", {}, hintsBox, " ", t("hints")),
      h("span"), h("label", {}, ratedBox, " ", t("rated_table")),
      h("span"), h("label", {}, talkBox, " ", t("talk_spectators")),
      h("label", { for: "clock" }, t("clock_label")), clockSelect,
      h("span", { class: "grid-label", id: "seats-label" }, t("seats")), h("div", { role: "group", "aria-labelledby": "seats-label" }, seatsBox)),
    h("details", { id: "custom-settings" }, h("summary", {}, t("custom")), h("p", { class: "muted" }, t("custom_help")), settingsBox),
    h("div", { class: "actions" }, button), error);
  page.append(
    h("section", { class: "hero" },
      h("div", { class: "hero-cards" }, cardImg("7D"), cardImg("JS"), cardImg("AH")),
      h("h1", {}, t("app_name")), h("p", {}, t("tagline")),
      h("p", {}, h("label", { for: "name" }, t("your_name")), " ", nameInput), nameError,
      h("div", { class: "hero-play", id: "play-bot-box" }, botButton, h("p", { class: "muted" }, t("play_bot_help"))),
      h("p", { id: "home-learn" }, h("a", { href: "/learn", "data-link": true }, t("learn_home_link")))),
    quick.node,
    h("section", { class: "panel", id: "new-table", "aria-labelledby": "new-table-heading" },
      h("h2", { id: "new-table-heading", tabindex: "-1" }, t("new_table")), formNode),
  );
  setSkip("skip_form", "#new-table-heading");
  const lobbyPanel = h("section", { class: "panel", id: "lobby", "aria-labelledby": "lobby-heading" }, h("h2", { id: "lobby-heading" }, t("open_tables")));
  // The panels of other pages' modules come once those load (below the form: it is usable first).
  const later = (name, make) => {
    const slot = h("div", { hidden: true });
    MODULES[name]().then((module) => { if (slot.isConnected) slot.replaceWith(make(module)); }, () => slot.remove());
    return slot;
  };
  page.append(turns.node, friends.node, challenges.node, lobbyPanel, later("tournaments", ({ tournamentsPanel }) => tournamentsPanel(ui)), later("offline", ({ offlinePanel }) => offlinePanel(ui)));
  try {
    // The tables this person sits at are theirs to go back to, not to watch.
    const [{ tables }, mine] = await Promise.all([api("/api/tables"), api("/api/games").then((b) => new Set(b.games.map((g) => g.id)), () => new Set())]);
    if (!tables.length) lobbyPanel.append(h("p", { class: "muted" }, t("no_tables")));
    const list = h("ul", { class: "list" });
    for (const table of tables) {
      const names = table.names.map((name, i) => (table.kinds[i] === "bot" || name ? seatLabel({ kind: table.kinds[i], level: table.levels[i], number: table.numbers?.[i], name }, i, app.lang) : "—"));
      list.append(h("li", {},
        h("span", {}, h("strong", {}, variantTitle(table.variant, table.rules, app.lang)), " · ", names.map((x, i) => [i ? " · " : "", bdi(x)])),
        h("span", {}, table.rated ? [h("span", { class: "tag" }, t("rated")), " "] : null,
          h("span", { class: "tag" }, table.status === "open" ? t("open_seats", { n: table.open }) : t("in_play")), " ",
          h("a", { href: `/t/${table.id}`, "data-link": true, "data-table": table.id }, mine.has(table.id) ? t("back_to_table") : table.status === "open" ? t("join") : t("watch")))));
    }
    lobbyPanel.append(list);
  } catch { /* the list is a convenience */ }
}

// ------------------------------------------------------------------ the table

/**
 * A table online: its WebSocket, and table.js drawing it. The table's look, keys and
 * words are all table.js's (the offline table draws with it too); this class only
 * carries messages and adds what belongs to a table on the server: the invite link,
 * the game-over links, the name field of a waiting room.
 */
class TablePage {
  constructor(root, id, TableView) {
    this.root = root;
    this.id = id;
    this.table = null;
    this.closed = false;
    this.retry = 0;
    this.loading = h("p", { class: "muted" }, "…");
    this.root.append(this.loading);
    this.view = new TableView(root, { lang: () => app.lang, fast: app.fast, toast }, {
      play: (move, version) => this.send({ type: "move", move, version }),
      hint: (version) => this.send({ type: "hint", version }),
      rematch: () => this.send({ type: "rematch" }),
      join: (seat) => this.join(seat),
      react: (code) => this.send({ type: "react", code }),
      side: () => this.renderInvite(),
      endLinks: () => this.endLinks(),
      waitingForm: () => this.nameField(),
    });
    // Table talk: its panel under the table, outside what the table redraws (talk.js).
    this.talk = new TableTalk(ui, id, (message) => this.send(message), (text) => this.view.talkLine(text));
    this.root.append(this.talk.node);
    this.connect();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
    this.view.close();
    this.talk.close();
  }

  relabel() { this.view.relabel(); this.talk.relabel(); }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.view.sent = -1;  // a move sent before the connection dropped: the snapshot says if it counted
      banner("");
      ws.send(JSON.stringify({ type: "hello", token: app.token || undefined, name: app.name || undefined }));
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      window.dispatchEvent(new CustomEvent("basra:socket", { detail: message }));  // notifications, challenges
      this.receive(message);
    };
    ws.onclose = (event) => {
      if (this.closed) return;
      if (event.code === 4004) { this.gone(); return; }
      if (event.code === 4001) { signedOut().then(() => { if (!this.closed) this.connect(); }); return; }
      if (event.code === 4003) { banner(t("err_suspended")); return; }
      if (event.code === 1012) {  // the server restarts: another process takes the table at once, nothing to say
        this.retry = 0;
        setTimeout(() => { if (!this.closed) this.connect(); }, Math.random() * 200);
        return;
      }
      banner(t("reconnecting"));
      // 0.6, 1.2, 2.4, then every 4.8 s at most (with jitter, so a restarted server is not met
      // by every page at once): a page that lost its server during a slow restart is back
      // within seconds of it, not after a doubling wait grown to 19 s.
      this.retry = Math.min(this.retry + 1, 4);
      setTimeout(() => { if (!this.closed) this.connect(); }, 300 * 2 ** this.retry * (0.75 + Math.random() / 4));
    };
  }

  /** There is no such table: say so, with a way home. */
  gone() {
    this.view.close();
    this.root.replaceChildren(h("div", { class: "page" }, h("h1", {}, t("no_table")),
      h("p", { class: "panel" }, h("a", { href: "/", "data-link": true }, t("go_home")))));
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  receive(message) {
    switch (message.type) {
      case "table":
        this.table = message.table;
        this.loading.remove();
        this.view.setTable(message.table);
        this.talk.setTable(message.table);
        break;
      case "state":
        this.view.accept(message);
        break;
      case "error":
        if (message.code === "no_such_table") { this.gone(); return; }
        if (message.code === "signed_out" || message.code === "suspended") return;  // the close that follows says it
        if (this.talk.refused(message.code, message)) break;  // a line refused: said under its field
        this.view.refused(message.code, message);
        break;
      case "hint":
        this.view.hint(message);
        break;
      case "clock":
        this.view.clock(message);
        break;
      case "reaction":
        this.view.reaction(message.seat, message.code);
        break;
      case "talk":
        this.talk.heard(message);
        break;
      case "rematch":
        if (this.table && this.table.you !== null) { toast(t("rematch_wait")); navigate(`/t/${message.table}`); }
        else if (this.table) { this.table.rematch = message.table; this.view.render(); }
        break;
      case "rematch_taps":
        if (this.table && message.table === this.id) {
          const names = message.seats.map((s) => (this.table.seats[s] || {}).name || t("guest"));
          toast(t("rematch_tapped", { names: names.join(", "), n: message.seats.length }));
        }
        break;
      default:
    }
  }

  join(seat) {
    if (!app.name) { toast(t("name_needed")); document.getElementById("join-name")?.focus(); return; }
    this.send({ type: "join", seat, name: app.name });
  }

  nameField() {
    return h("p", {}, h("label", { for: "join-name" }, t("your_name"), " "),
      h("input", { id: "join-name", value: app.name, maxlength: "24", placeholder: t("name_placeholder"), autocomplete: "nickname", oninput: (e) => saveName(e.target.value) }));
  }

  /** The side panel of a table: the daily deal's board, or a link to the table. */
  renderInvite() {
    const table = this.table;
    if (table.daily) {
      return h("section", { class: "panel", id: "daily-panel", "aria-labelledby": "daily-heading" }, h("h2", { id: "daily-heading" }, t("daily_table")), h("p", { class: "muted" }, t("daily_help")),
        h("a", { href: "/daily", "data-link": true, id: "daily-link" }, t("daily_board")));
    }
    const link = `${location.origin}/t/${this.id}`;
    const copy = () => { navigator.clipboard?.writeText(link).then(() => toast(t("copied")), () => {}); };
    // An open seat is an invitation; a full table's link is for watching.
    const inviting = table.status === "open" && !table.rated;
    const box = h("section", { class: "panel", id: "invite-panel", "aria-labelledby": "invite-heading" }, h("h2", { id: "invite-heading" }, t(inviting ? "invite" : "link_to_watch")),
      h("div", { class: "invite" }, h("input", { readonly: true, value: link, id: "invite-link", "aria-labelledby": "invite-heading", onclick: (e) => e.target.select() }),
        h("button", { type: "button", class: "secondary", id: "invite-copy", onclick: copy }, t("copy"))));
    if (table.you !== null) {
      box.append(h("p", { class: "muted" }, h("a", { href: "/device", "data-link": true, id: "device-link" }, t("other_device"))));
    }
    if (table.you === null) box.append(h("p", { class: "muted" }, t("spectating")));
    const others = table.seats.map((s, seat) => ({ ...s, seat })).filter((s) => s.kind === "person" && s.name && s.seat !== table.you);
    if (app.token) box.append(followAtTable(ui, this.id, others) || "", reportForm(ui, { table: this.id, seats: others }) || "");
    return box;
  }

  /** The game-over sheet's links: the daily deal's board or a rematch to watch, the record, the replay, the review, home. */
  endLinks() {
    const table = this.table;
    return [
      table.daily ? h("a", { href: "/daily", "data-link": true, id: "daily-board-link" }, t("daily_board")) : null,
      // A tournament's game: back to its event (the next pairing is made there), no rematch.
      table.event ? h("a", { href: `/tournaments/${table.event}`, "data-link": true, id: "event-link", class: "button" }, t("tour_back_to_event")) : null,
      !table.daily && table.you === null && table.rematch ? h("a", { href: `/t/${table.rematch}`, "data-link": true }, t("watch")) : null,
      // A daily deal's record needs the token: the replay (fetched with it) shows it all.
      table.daily ? null : h("a", { href: `/api/games/${this.id}/record`, download: `basra-${this.id}.json`, id: "download" }, t("download")),
      h("a", { href: `/replay/${this.id}`, "data-link": true, id: "replay-link" }, t("replay")),
      h("a", { href: `/review/${this.id}`, "data-link": true, id: "review-link" }, t("review")),
      h("a", { href: "/", "data-link": true }, t("home")),
    ];
  }
}

// ------------------------------------------------------------------ my games

/** A game's name in lists: the daily deal is named so (its one-round rules are the deal's, not custom ones). */
function gameTitle(game) {
  if (game.daily) return `${t("daily_title")} · ${variantName(game.variant)}`;
  return variantTitle(game.variant, game.rules, app.lang);
}

async function gamesPage(root) {
  const page = h("div", { class: "page" }, h("h1", {}, t("my_games")));
  root.append(page);
  const { offlineGamesSection, keptUploads } = await MODULES.offline();
  const here = await offlineGamesSection(ui);  // games played offline, kept on this device
  if (here) page.append(here);
  // A game kept here and uploaded is listed once, where it is kept (its links are there).
  const kept = await keptUploads();
  const { games: all } = await api("/api/games").catch(() => ({ games: [] }));
  const games = all.filter((game) => !kept.has(game.id));
  if (!games.length) { if (!here) page.append(h("p", { class: "panel muted" }, t("no_games"))); return; }
  const list = h("ul", { class: "list" });
  for (const game of games) {
    const when = dateText(game.created_at, app.lang);
    const tag = resultTag(game, app.lang);
    const names = game.names.map((name, i) => seatLabel({ kind: game.kinds?.[i] ?? "person", level: game.levels?.[i], number: game.numbers?.[i], name }, i, app.lang));
    const review = game.status === "over" ? [" · ", h("a", { href: `/review/${game.id}`, "data-link": true, class: "review-link" }, t("review"))] : [];
    const links = game.status === "over" || game.status === "abandoned"
      ? [h("a", { href: `/replay/${game.id}`, "data-link": true }, t("replay")), ...review, " · ", h("a", { href: `/api/games/${game.id}/record`, download: `basra-${game.id}.json` }, t("download"))]
      : game.status === "unfinished" ? []  // played offline: it goes on on its device
        : [h("a", { href: `/t/${game.id}`, "data-link": true }, t("rejoin"))];
    const offline = game.offline ? [h("span", { class: "tag" }, t("offline_tag")), " "] : [];
    list.append(h("li", { "data-game": game.id },
      h("span", {}, h("strong", {}, gameTitle(game)), " · ", names.map((x, i) => [i ? " · " : "", bdi(x)]),
        h("br"), h("span", { class: "muted" }, when, game.scores.length ? " · " + game.scores.map(n).join(" – ") : "")),
      h("span", {}, offline, tag, " ", links)));
  }
  page.append(h("section", { class: "panel", id: "server-games", "aria-labelledby": "server-games-title" },
    h("h2", { id: "server-games-title" }, t(here ? "games_online" : "games_all")), list));
}

// ------------------------------------------------------------------ replay

class ReplayPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.step = 0;
    this.timer = null;
    this.load();
  }

  close() { clearInterval(this.timer); }
  relabel() { this.render(); }

  async load() {
    try {
      this.data = await api(`/api/games/${this.id}/replay`);
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "page" }, h("h1", {}, t("replay")),
        h("p", { class: "panel error", id: "replay-error" }, errorText(err), " ", h("a", { href: "/", "data-link": true }, t("go_home")))));
      return;
    }
    this.render();
  }

  render() {
    const { frames, table, sides, result } = this.data;
    const frame = frames[this.step];
    const names = table.seats.map((info, seat) => nameOfSeat(info, seat, app.lang));
    const sideName = (side) => joinNames(sides[side].map((seat) => names[seat]), app.lang);
    const slider = h("input", { type: "range", min: "0", max: String(frames.length - 1), value: String(this.step), id: "replay-step",
      "aria-label": t("step_slider"), "aria-valuetext": t("step", { n: this.step + 1, m: frames.length }),
      oninput: (e) => { this.step = Number(e.target.value); this.render(); } });
    const toggle = h("button", { type: "button", class: "secondary", id: "replay-play", onclick: () => this.toggle() }, this.timer ? t("pause") : t("play_all"));
    const event = frame.event;
    let line = t("dealing");
    if (event.kind === "play") {
      const [card, takes] = event.move.split("x");
      line = [...tn("plays", { name: bdi(names[event.seat]), card: cardLabel(card) })];
      if (takes) line.push(" ", ...tn("takes", { cards: h("span", {}, cardsLabel(takes.split(","))) }));
      if (event.basra) line.push(" — ", t("basra_pts", { n: event.basra }));
    }
    const hands = h("div", { class: "replay-hands" }, frame.hands.map((hand, seat) =>
      h("div", { class: "seat-hand" + (frame.turn === seat ? " turn" : "") }, h("strong", {}, bdi(names[seat])),
        hand.map((c) => h("span", { class: "mini" }, cardImg(c))))));
    // At the end of each round its score sheet; at the last step, the winner too.
    const last = this.step === frames.length - 1;
    const sheet = frame.round_over && result.rounds[event.round]?.score ? h("section", { class: "panel sheet replay-sheet", id: "replay-sheet" },
      h("h2", {}, t("round_over", { n: event.round + 1 })),
      last ? h("div", { class: "winner", id: "replay-winner" }, headline(result.winner, null, table.teams, sideName, app.lang)) : null,
      scoreSheet(result.rounds[event.round], sides.map((_, side) => sideName(side)), app.lang)) : null;
    // Drawn in place (dom.patch): the button just pressed keeps the focus.
    patch(this.root, h("div", { class: "page replay", id: "replay-page" },
      h("h1", {}, t("replay"), " · ", variantTitle(table.variant, table.overrides, app.lang)),
      h("div", { class: "replay-controls" },
        h("button", { type: "button", class: "secondary", id: "replay-prev", onclick: () => this.go(-1) }, t("prev")),
        slider, toggle,
        h("button", { type: "button", class: "secondary", id: "replay-next", onclick: () => this.go(1) }, t("next")),
        h("button", { type: "button", class: "secondary", id: "replay-end", onclick: () => this.go(frames.length) }, t("replay_end"))),
      h("p", { class: "muted", id: "replay-where" }, t("step", { n: this.step + 1, m: frames.length }), " · ", t("round_n", { n: event.round + 1 })),
      sheet,
      h("section", { class: "felt", style: "display:block;min-height:0" },
        h("div", { class: "playline" }, line),
        h("div", { class: "floor" }, frame.floor.length ? frame.floor.map((c) => h("span", { class: "card", "data-card": c }, cardImg(c))) : h("span", { class: "floor-empty" }, t("floor_empty"))),
        h("p", { class: "stockline" }, t("stock", { n: frame.stock }))),
      h("section", { class: "panel" }, hands),
      h("section", { class: "panel scores" }, h("table", {}, h("tbody", {}, frame.scores.map((score, side) =>
        h("tr", {}, h("td", {}, bdi(sideName(side))), h("td", { class: "num" }, t("pile", { n: frame.piles[side] })), h("td", { class: "num" }, n(score))))))),
      h("p", {}, h("a", { href: `/api/games/${this.id}/record`, download: `basra-${this.id}.json` }, t("download")),
        " · ", h("a", { href: `/review/${this.id}`, "data-link": true, id: "replay-review" }, t("review")))));
  }

  go(delta) {
    this.step = Math.max(0, Math.min(this.data.frames.length - 1, this.step + delta));
    this.render();
  }

  toggle() {
    if (this.timer) { clearInterval(this.timer); this.timer = null; }
    else this.timer = setInterval(() => { if (this.step >= this.data.frames.length - 1) this.toggle(); else this.go(1); }, 700);
    this.render();
  }
}

// ------------------------------------------------------------------ rules

async function rulesIndex(root) {
  const all = await variants().catch((err) => MODULES.offline().then(({ offlineVariants }) => offlineVariants(err)));  // no server: the engine in the page knows them
  root.append(h("div", { class: "page" }, h("h1", {}, t("rules_index")), variantList(all)));
}

/** Every variant, linked to its rules (with a line about it in English). */
function variantList(all) {
  return h("ul", { class: "list panel", id: "variant-list" }, Object.keys(all).map((name) =>
    h("li", {}, h("a", { href: `/rules/${name}`, "data-link": true }, variantName(name)),
      app.lang === "en" ? h("span", { class: "muted" }, all[name].description) : null)));
}

async function rulesPage(root, name, custom) {
  const all = await variants().catch((err) => MODULES.offline().then(({ offlineVariants }) => offlineVariants(err)));
  let rules = all[name]?.rules;
  let overrides = {};
  const page = h("div", { class: "page rules" });
  root.append(page);
  if (!rules) {
    // A mistyped variant: say so plainly, and offer the ones there are.
    page.append(h("h1", {}, t("rules_index")), h("p", { class: "error", id: "rules-error" }, t("err_no_variant", { name })), variantList(all));
    return;
  }
  let problem = null;
  if (custom) {
    try {
      const checked = await api("/api/rules", { method: "POST", body: JSON.stringify({ variant: name, rules: JSON.parse(custom) }) })
        .catch((err) => MODULES.offline().then(({ offlineRules }) => offlineRules(name, JSON.parse(custom), err)));
      rules = checked.rules;
      overrides = checked.overrides;
    } catch (err) {
      let sent = {};
      try { sent = JSON.parse(custom); } catch { /* not JSON at all: said below */ }
      problem = err.code === "bad_settings" && err.field ? settingsProblem(err, page, app.lang, app.bounds, { sent }).message : errorText(err);
    }
  }
  const customized = Object.keys(overrides).length > 0;
  page.append(h("h1", {}, t("rules_title", { name: variantName(name) }), customized ? h("small", { class: "muted" }, " · ", t("rules_custom")) : null),
    ...(problem ? [h("p", { class: "panel error", id: "rules-error" }, problem)] : []),  // append() would write "null"
    h("p", { class: "muted" }, t("rules_help")),
    h("p", { id: "rules-learn" }, h("a", { href: `/learn/${name}${customized ? "?rules=" + encodeURIComponent(JSON.stringify(overrides)) : ""}`, "data-link": true }, t("learn_rules_link"))));
  for (const section of rulesText(rules, 2, app.lang)) {
    page.append(h("section", { class: "panel" }, h("h2", {}, section.title), h("ul", {}, section.items.map((item) => h("li", {}, item)))));
  }
  page.append(h("section", { class: "panel" }, h("h2", {}, t("settings_table")),
    h("table", { class: "sheet settings-table" },
      h("thead", { class: "sr-only" }, h("tr", {}, h("th", { scope: "col" }, t("setting")), h("th", { scope: "col" }, t("value")))),
      h("tbody", {}, Object.keys(SETTING_LABELS[app.lang]).map((key) =>
        h("tr", { class: key in overrides ? "changed" : "", "data-setting": key }, h("th", { scope: "row" }, settingLabel(key, app.lang)),
          h("td", {}, settingValue(key, rules, app.lang), key in overrides ? " *" : "")))))));
}

// ------------------------------------------------------------------ devices

/** A device's browser and system, from its user agent, in a few words. */
function deviceLabel(agent) {
  if (!agent) return "—";
  const browser = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]].find(([k]) => agent.includes(k));
  const system = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"], ["Mac OS", "macOS"], ["Linux", "Linux"]].find(([k]) => agent.includes(k));
  return [browser?.[1], system?.[1]].filter(Boolean).join(" · ") || agent.slice(0, 40);
}

async function devicePage(root) {
  const page = h("div", { class: "page" }, h("h1", {}, t("device_title")), h("p", { class: "muted" }, t("device_help")));
  root.append(page);
  const error = h("p", { class: "error", role: "alert", id: "device-error" });
  const copy = (text) => navigator.clipboard?.writeText(text).then(() => toast(t("copied")), () => {});

  const codeBox = h("div", { id: "transfer-code" });
  const make = h("button", { type: "button", id: "make-code", onclick: async () => {
    error.textContent = "";
    try {
      const body = await api("/api/identity/transfer", { method: "POST", body: "{}" });
      const link = `${location.origin}/device#code=${body.code}`;
      codeBox.replaceChildren(
        h("p", { class: "code-line" }, ...tn("device_code", { code: h("bdi", { dir: "ltr", class: "transfer-code" }, body.code) })),
        h("p", { class: "muted" }, t("device_code_help", { n: Math.round(body.expires_in / 60) })),
        h("div", { class: "invite" }, h("input", { readonly: true, value: link, id: "transfer-link", "aria-label": t("device_code_input"), onclick: (e) => e.target.select() }),
          h("button", { type: "button", class: "secondary", onclick: () => copy(link) }, t("copy"))));
    } catch (err) { error.textContent = errorText(err); }
  } }, t("device_make"));

  const codeInput = h("input", { id: "code-input", dir: "ltr", autocomplete: "one-time-code", placeholder: "XXXXX-XXXXX", maxlength: "32" });
  const confirmBox = h("div", { id: "confirm-box" });
  async function check() {
    confirmBox.replaceChildren();
    error.textContent = "";
    try {
      clearMarks(page, error);
      const info = await api("/api/identity/transfer/preview", { method: "POST", body: JSON.stringify({ code: codeInput.value }) });
      confirmBox.append(
        h("p", { id: "confirm-text" }, t("device_confirm", { name: info.name || t("device_someone"), n: info.games })),
        h("p", { class: "muted" }, t("device_leave")),
        h("div", { class: "actions" },
          h("button", { type: "button", id: "confirm-code", onclick: accept }, t("device_yes")),
          h("button", { type: "button", class: "secondary", onclick: () => confirmBox.replaceChildren() }, t("cancel"))));
    } catch (err) {
      if (err.code === "bad_code") markField(codeInput, errorText(err), error); else error.textContent = errorText(err);
    }
  }
  async function accept() {
    error.textContent = "";
    try {
      const old = app.token;
      const before = await api("/api/identity").catch(() => null);
      const body = await api("/api/identity/transfer/accept", { method: "POST", body: JSON.stringify({ code: codeInput.value }) });
      // The identity this browser had is signed out here, not kept in a corner.
      if (old && before) await fetch(`/api/devices/${before.device}`, { method: "DELETE", headers: { Authorization: `Bearer ${old}` } }).catch(() => {});
      setToken(body.token);
      if (body.name) { app.name = body.name; LS.setItem("basra.name", app.name); }
      confirmBox.replaceChildren(h("p", { id: "code-done" }, t("device_done", { name: body.name || "" })));
      drawDevices();
    } catch (err) { error.textContent = errorText(err); }
  }

  const list = h("ul", { class: "list", id: "devices" });
  async function drawDevices() {
    try {
      const me = await api("/api/identity");
      list.replaceChildren(...me.devices.map((d) => h("li", { "data-device": d.id },
        h("span", {}, h("strong", {}, deviceLabel(d.user_agent)), " · ",
          h("span", { class: "muted" }, t("device_seen", { when: dateText(d.last_seen_at, app.lang) }))),
        d.current ? h("span", { class: "tag" }, t("device_this"))
          : h("button", { type: "button", class: "secondary", "data-sign-out": d.id, onclick: async () => {
            try { await api(`/api/devices/${d.id}`, { method: "DELETE" }); toast(t("device_signed_out")); drawDevices(); } catch (err) { error.textContent = errorText(err); }
          } }, t("device_sign_out")))));
    } catch (err) { error.textContent = errorText(err); }
  }

  page.append(
    h("section", { class: "panel" }, h("h2", {}, t("device_move")), make, codeBox),
    h("section", { class: "panel" }, h("h2", {}, t("device_use")),
      h("label", { for: "code-input" }, t("device_code_input")),
      h("div", { class: "invite" }, codeInput, h("button", { type: "button", id: "check-code", onclick: check }, t("device_check"))),
      error, confirmBox),
    h("section", { class: "panel" }, h("h2", {}, t("device_list")), list));
  const fromLink = location.hash.match(/code=([\w-]+)/);
  if (fromLink) {
    codeInput.value = fromLink[1];
    history.replaceState(null, "", location.pathname + location.search);
    check();  // shows whose identity it is: joining it still needs a click
  }
  drawDevices();
}

// ------------------------------------------------------------------ start

blindFromFragment();
setLanguage(app.lang);
startOffline(ui);
ensureIdentity().catch((err) => banner(errorText(err))).finally(() => { route(); notificationsBadge(ui); });
