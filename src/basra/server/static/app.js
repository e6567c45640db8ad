// The Basra page: a small single-page app with no build step.
// Pages: home (create a table, tables to join), table (play or watch over a
// WebSocket), my games, replay, rules. Everything shown of a game comes from
// the snapshot the server built for this seat.

import { SETTING_LABELS, VARIANT_NAMES, cardName, num, rulesText, translate } from "./i18n.js";
import * as dom from "./dom.js";
import { backImg, bdi, h } from "./dom.js";
import { headline, joinNames, resultTag, seatLabel, seatName as nameOfSeat, variantTitle } from "./names.js";
import { canonical, settingField, settingLabel, settingValue } from "./settings.js";
import { scoreSheet } from "./sheet.js";
import { muteSwitch, playSound } from "./sound.js";
import { SeatClocks, TurnAlert } from "./clock.js";
import { accountPage, changeText, leaderboardPage, profilePage, ratingText } from "./profile.js";
import { quickPlayPanel } from "./quickplay.js";
import { dailyPage } from "./daily.js";
import { botsPage } from "./bots.js";
import { Reactions } from "./reactions.js";
import { clearTakes, hintParts, markHint, markTakes, previewParts, takesOf } from "./coach.js";
import { ReviewPage } from "./review.js";

const LS = window.localStorage;
const params = new URLSearchParams(location.search);
const app = {
  lang: params.get("lang") || LS.getItem("basra.lang") || ((navigator.language || "").startsWith("ar") ? "ar" : "en"),
  token: LS.getItem("basra.token"),
  name: LS.getItem("basra.name") || "",
  variants: null,
  levels: ["easy", "medium", "hard", "expert"],
  page: null,
  fast: params.get("anim") === "fast",
};
if (!["en", "ar"].includes(app.lang)) app.lang = "en";

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

function errorText(err) {
  if (err.code === "rate_limited" && err.retry) return t("err_rate_limited_retry", { n: err.retry });
  return `${t("err_" + (err.code || "bad_settings"))} ${err.message || ""}`.trim();
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
    throw Object.assign(new Error(body?.message || response.statusText), { code: body?.error, status: response.status, retry: body?.retry_after });
  }
  return body;
}

async function variants() {
  if (!app.variants) {
    const data = await api("/api/variants");
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
  document.documentElement.dir = lang === "ar" ? "rtl" : "ltr";
  document.title = t("app_name");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  document.getElementById("lang").textContent = lang === "ar" ? "English" : "عربي";
  redrawMute();
}
const redrawMute = muteSwitch(document.getElementById("mute"), (key) => t(key));

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
  route();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (link && !event.ctrlKey && !event.metaKey && link.origin === location.origin) {
    event.preventDefault();
    navigate(link.pathname + link.search);
  }
});
window.addEventListener("popstate", () => route());
document.getElementById("lang").addEventListener("click", () => {
  setLanguage(app.lang === "ar" ? "en" : "ar");
  if (app.page && app.page.relabel) app.page.relabel(); else route();
});

function route() {
  if (app.page && app.page.close) app.page.close();
  app.page = null;
  app.routed = (app.routed || 0) + 1;  // a page that awaits checks it still is the page
  banner("");
  const root = document.getElementById("app");
  root.replaceChildren();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([\w-]+)$/))) app.page = new TablePage(root, m[1]);
  else if (path === "/games") gamesPage(root);
  else if ((m = path.match(/^\/replay\/([\w-]+)$/))) app.page = new ReplayPage(root, m[1]);
  else if ((m = path.match(/^\/review\/([\w-]+)$/))) app.page = new ReviewPage(root, m[1], coachUi());
  else if (path === "/rules") rulesIndex(root);
  else if ((m = path.match(/^\/rules\/([\w]+)$/))) rulesPage(root, m[1], params.get("rules"));
  else if (path === "/device") devicePage(root);
  else if (path === "/account") accountPage(root, ui);
  else if (path === "/me") profilePage(root, ui);
  else if ((m = path.match(/^\/u\/([^/]+)$/))) profilePage(root, ui, decodeURIComponent(m[1]));
  else if (path === "/leaderboard") leaderboardPage(root, ui);
  else if (path === "/daily") dailyPage(root, ui);
  else if (path === "/bots") botsPage(root, ui);
  else homePage(root);
}

// ------------------------------------------------------------------ home

function saveName(value) {
  app.name = value.trim().slice(0, 24);
  LS.setItem("basra.name", app.name);
}

async function homePage(root) {
  const routed = app.routed;
  const all = await variants();
  if (app.routed !== routed) return;  // the person went elsewhere meanwhile
  const form = { variant: "egyptian", players: 2, teams: false, hints: true, seats: ["me", "bot:medium", "bot:medium", "bot:medium"], custom: {}, rated: false, clock: "" };
  const page = h("div", { class: "page" });
  root.append(page);
  const quick = quickPlayPanel(ui, all);
  app.page = { close: () => quick.close() };
  let myBots = [];  // the person's bot accounts, offered as seats (bots.js)
  api("/api/bots").then((body) => { myBots = body.bots; drawSeats(); }, () => {});
  const nameInput = h("input", { id: "name", value: app.name, maxlength: "24", placeholder: t("name_placeholder"), autocomplete: "nickname", oninput: (e) => saveName(e.target.value) });
  const error = h("p", { class: "error", role: "alert" });
  const settingsBox = h("div", { class: "settings-grid" });
  const seatsBox = h("div", { class: "seat-rows" });
  const rulesLink = h("a", { href: "/rules/egyptian", "data-link": true, id: "rules-link" }, t("read_rules"));
  const variantSelect = h("select", { id: "variant", onchange: (e) => { form.variant = e.target.value; form.custom = {}; drawSettings(); drawRulesLink(); } },
    Object.keys(all).map((name) => h("option", { value: name, selected: name === form.variant }, variantName(name))));
  const playersSelect = h("select", { id: "players", onchange: (e) => { form.players = Number(e.target.value); teamsBox.disabled = form.players !== 4; if (form.players !== 4) { teamsBox.checked = false; form.teams = false; } drawSeats(); } },
    [2, 3, 4].map((v) => h("option", { value: v }, n(v))));
  const teamsBox = h("input", { type: "checkbox", id: "teams", disabled: true, onchange: (e) => { form.teams = e.target.checked; } });
  const hintsBox = h("input", { type: "checkbox", id: "hints", checked: true, onchange: (e) => { form.hints = e.target.checked; } });
  // Rated tables: no hints and a clock (the server checks the rest and says why).
  const CLOCKS = ["", "15+30", "30+60", "60+180"];
  const clockSelect = h("select", { id: "clock", onchange: (e) => { form.clock = e.target.value; } },
    CLOCKS.map((c) => h("option", { value: c }, c ? t("clock_option", { move: Number(c.split("+")[0]), reserve: Number(c.split("+")[1]) }) : t("clock_none"))));
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
      seatsBox.append(h("div", { class: "seat-row" }, h("span", { class: "muted" }, t("seat_n", { n: i + 1 })),
        h("select", { "data-seat": i, onchange: (e) => {
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
    error.textContent = "";
    drawRulesLink();
  }
  async function create() {
    error.textContent = "";
    saveName(nameInput.value);
    if (!app.name) { error.textContent = t("name_needed"); nameInput.focus(); return; }
    const seats = form.seats.slice(0, form.players).map((s) => (s.startsWith("bot:") ? { kind: "bot", level: s.slice(4) }
      : s.startsWith("external:") ? { kind: "external", bot: s.slice(9) } : { kind: "person" }));
    const mine = form.seats.slice(0, form.players).indexOf("me");
    button.disabled = true; button.textContent = t("creating");
    try {
      const body = await api("/api/tables", { method: "POST", body: JSON.stringify({
        name: app.name, variant: form.variant, rules: overrides(), players: form.players,
        teams: form.teams, hints: form.hints, seats, my_seat: mine >= 0 ? mine : null,
        ...(form.rated ? { rated: true } : {}),
        ...(form.clock ? { clock: { move: Number(form.clock.split("+")[0]), reserve: Number(form.clock.split("+")[1]) } } : {}),
      }) });
      navigate(body.url);
    } catch (err) {
      error.textContent = errorText(err);
      button.disabled = false; button.textContent = t("create");
    }
  }
  const button = h("button", { id: "create", type: "button", onclick: create }, t("create"));
  drawSeats(); drawSettings(); drawRulesLink();
  page.append(
    h("section", { class: "hero" },
      h("div", { class: "hero-cards" }, cardImg("7D"), cardImg("JS"), cardImg("AH")),
      h("h1", {}, t("app_name")), h("p", {}, t("tagline")),
      h("p", {}, h("label", { for: "name" }, t("your_name")), " ", nameInput)),
    quick.node,
    h("section", { class: "panel" },
      h("h2", {}, t("new_table")),
      h("div", { class: "form-grid" },
        h("label", { for: "variant" }, t("variant")), h("div", {}, variantSelect, " ", rulesLink),
        h("label", { for: "players" }, t("players")), playersSelect,
        h("span"), h("label", {}, teamsBox, " ", t("teams")),
        h("span"), h("label", {}, hintsBox, " ", t("hints")),
        h("span"), h("label", {}, ratedBox, " ", t("rated_table")),
        h("label", { for: "clock" }, t("clock_label")), clockSelect,
        h("label", {}, t("seats")), seatsBox),
      h("details", {}, h("summary", {}, t("custom")), h("p", { class: "muted" }, t("custom_help")), settingsBox),
      h("div", { class: "actions" }, button), error),
  );
  const lobbyPanel = h("section", { class: "panel" }, h("h2", {}, t("open_tables")));
  page.append(lobbyPanel);
  try {
    const { tables } = await api("/api/tables");
    if (!tables.length) lobbyPanel.append(h("p", { class: "muted" }, t("no_tables")));
    const list = h("ul", { class: "list" });
    for (const table of tables) {
      const names = table.names.map((name, i) => (table.kinds[i] === "bot" || name ? seatLabel({ kind: table.kinds[i], level: table.levels[i], name }, i, app.lang) : "—"));
      list.append(h("li", {},
        h("span", {}, h("strong", {}, variantTitle(table.variant, table.rules, app.lang)), " · ", names.map((x, i) => [i ? " · " : "", bdi(x)])),
        h("span", {}, table.rated ? [h("span", { class: "tag" }, t("rated")), " "] : null,
          h("span", { class: "tag" }, table.status === "open" ? t("open_seats", { n: table.open }) : t("in_play")), " ",
          h("a", { href: `/t/${table.id}`, "data-link": true }, table.status === "open" ? t("join") : t("watch")))));
    }
    lobbyPanel.append(list);
  } catch { /* the list is a convenience */ }
}

// ------------------------------------------------------------------ the table

const POSITIONS = {
  2: { cw: ["bottom", "top"], ccw: ["bottom", "top"] },
  3: { cw: ["bottom", "left", "right"], ccw: ["bottom", "right", "left"] },
  4: { cw: ["bottom", "left", "top", "right"], ccw: ["bottom", "right", "top", "left"] },
};
const FROM = { top: ["0px", "-160px"], left: ["-200px", "0px"], right: ["200px", "0px"], bottom: ["0px", "200px"] };

class TablePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.table = null;
    this.msg = null;
    this.anim = null;
    this.animTimer = null;
    this.sheetShown = 0;
    this.hint = null;
    this.hintAsked = -1;
    this.selected = null;
    this.armed = null;
    this.previewing = null;
    this.confirm = LS.getItem("basra.confirm") === "1";
    this.sent = -1;
    this.closed = false;
    this.retry = 0;
    this.clocks = new SeatClocks(app.lang);
    this.alert = new TurnAlert();
    this.reactions = new Reactions(ui, (message) => this.send(message));
    this.root.append(h("p", { class: "muted" }, "…"));
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.animTimer);
    if (this.ws) this.ws.close();
    document.querySelector(".overlay")?.remove();
    this.clocks.close();
    this.alert.close(t("app_name"));
    this.reactions.close();
  }

  relabel() { this.clocks.lang = app.lang; this.render(); }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.sent = -1;  // a move sent before the connection dropped: the snapshot says if it counted
      banner("");
      ws.send(JSON.stringify({ type: "hello", token: app.token || undefined, name: app.name || undefined }));
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.closed) return;
      if (event.code === 4004) { this.root.replaceChildren(h("p", { class: "panel" }, t("no_table"))); return; }
      if (event.code === 4001) { signedOut().then(() => { if (!this.closed) this.connect(); }); return; }
      banner(t("reconnecting"));
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => { if (!this.closed) this.connect(); }, 300 * 2 ** this.retry);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  receive(message) {
    switch (message.type) {
      case "table":
        this.table = message.table;
        this.render();
        break;
      case "state":
        this.accept(message);
        break;
      case "error":
        if (message.code === "no_such_table") { this.root.replaceChildren(h("p", { class: "panel" }, t("no_table"))); return; }
        if (message.code === "signed_out") return;  // the close that follows starts over
        if (message.code === "rate_limited") toast(t("err_rate_limited_retry", { n: message.retry_after }));
        else toast(t("err_" + message.code) + (message.code === "bad_move" ? ` (${message.message})` : ""));
        this.sent = -1;
        this.render();
        break;
      case "hint":
        this.hint = message;
        this.render();
        break;
      case "clock":
        this.clocks.update(message);
        break;
      case "reaction":
        this.reactions.show(message.seat, message.code, this.seatName(message.seat));
        break;
      case "rematch":
        if (this.table && this.table.you !== null) { toast(t("rematch_wait")); navigate(`/t/${message.table}`); }
        else this.table.rematch = message.table;
        break;
      default:
    }
  }

  duration() {
    return app.fast ? 90 : 850;
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
    this.hint = this.hint && this.hint.version === next.version ? this.hint : null;
    const event = next.event;
    if (previous && this.table && event && event.kind === "play" && next.version === previous.version + 1) {
      const [card, takes] = event.move.split("x");
      this.anim = { floor: previous.view.floor, card, taken: takes ? takes.split(",") : [], from: this.seatPosition(event.seat), basra: event.basra, fresh: true };
      this.animTimer = setTimeout(() => this.finishAnimation(true), this.duration());
    }
    this.render();
    if (this.anim) playSound(this.anim.basra ? "basra" : this.anim.taken.length ? "capture" : "play");
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
    if (!redraw || this.closed || !this.msg) return;
    this.root.querySelector(".floor")?.replaceWith(this.renderFloor(this.msg.view));
    this.renderSheets(this.msg.view);
  }

  seatPosition(seat) {
    const view = this.msg.view;
    const me = view.seat ?? 0;
    const order = POSITIONS[view.players][this.table.rules.direction] || POSITIONS[view.players].ccw;
    return order[(seat - me + view.players) % view.players];
  }

  seatName(seat) {
    return nameOfSeat(this.table?.seats?.[seat], seat, app.lang);
  }

  sideName(side) {
    return joinNames(this.msg.view.sides[side].map((s) => this.seatName(s)), app.lang);
  }

  /** Whose turn it is, in words: a bot (or a bot standing in) thinks, a person plays. */
  turnText(seat) {
    const info = this.table.seats[seat];
    const thinking = info?.kind === "bot" || info?.kind === "external" || (info?.present === false && info?.stand_in);
    return fill(translate(app.lang, thinking ? "thinking" : "turn_of"), { name: bdi(this.seatName(seat)) });
  }

  /** A seat's team at a 4-player team table: "partner" on the reader's side, else "Team n". */
  teamTag(seat) {
    const view = this.msg.view;
    if (!view.teams) return null;
    const side = seat % 2;
    if (view.seat !== null && view.seat !== undefined && seat !== view.seat && side === view.side) {
      return h("span", { class: `tag team team-${side} partner` }, t("partner"));
    }
    return h("span", { class: `tag team team-${side}` }, t("team_tag", { n: side + 1 }));
  }

  playText(event) {
    const [card, takes] = event.move.split("x");
    const out = tn("plays", { name: bdi(this.seatName(event.seat)), card: cardLabel(card) });
    if (takes) out.push(" ", ...tn("takes", { cards: h("span", {}, cardsLabel(takes.split(","))) }));
    if (event.basra) out.push(" — ", h("strong", { class: "your-turn" }, t("basra_pts", { n: event.basra })));
    if (event.auto === "timeout") out.push(" — ", h("span", { class: "muted" }, t("timed_out")));
    return out;
  }

  /** A seat's rating at a rated table (a bot's is fixed), its change once rated, a forfeit. */
  seatBadges(seat) {
    const info = this.table.seats[seat];
    return [
      this.table.clock && info.kind !== "bot" ? this.clocks.node(seat) : null,
      info.rating ? h("span", { class: "tag rating", "data-rating": seat, title: t("rating_line", { rating: ratingText(info.rating, ui) }) }, h("bdi", { dir: "ltr" }, ratingText(info.rating, ui))) : null,
      info.change !== undefined ? h("bdi", { dir: "ltr", class: "rating-change " + (info.change >= 0 ? "up" : "down") }, changeText(info.change, ui)) : null,
      info.forfeited ? h("span", { class: "tag" }, t("forfeited_tag")) : null,
    ];
  }

  // -------------------------------------------------------------- rendering

  render() {
    if (this.closed || !this.table || !this.msg) return;
    const table = this.table;
    const view = this.msg.view;
    const mine = view.seat !== null && view.seat !== undefined && view.phase === "play" && view.turn === view.seat && !view.over;
    this.alert.update(mine, t("title_your_turn"), t("app_name"));
    this.root.replaceChildren();
    if (table.status === "abandoned") banner(t("table_abandoned"));
    else if (table.fault) banner(t("table_fault"));
    if (table.status === "open") { this.renderWaiting(); return; }
    const felt = h("section", { class: "felt", "aria-label": t("floor") });
    const me = view.seat;
    for (let seat = 0; seat < view.players; seat++) {
      if (seat === me) continue;
      const where = this.seatPosition(seat);
      if (where === "bottom") { felt.append(this.renderOpponent(seat, "bottom-seat")); continue; }
      felt.append(this.renderOpponent(seat, where));
    }
    felt.append(this.renderCenter(view));
    felt.append(me === null || me === undefined ? h("div", { class: "me" }, h("div", { class: "status-line" }, t("spectating"),
      view.phase === "play" && !view.over ? [" · ", ...this.turnText(view.turn)] : null)) : this.renderMe(view));
    const bottomSeat = felt.querySelector(".bottom-seat");
    if (bottomSeat) { bottomSeat.remove(); felt.querySelector(".me").prepend(bottomSeat); }
    const side = h("aside", { class: "side" }, this.renderScores(view),
      me !== null && me !== undefined ? this.reactions.panel() : null, this.renderInvite(), this.renderLog(view));
    this.root.append(h("div", { class: "table-wrap" }, felt, side));
    this.renderSheets(view);
    if (this.anim) this.anim.fresh = false;
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
    return h("div", { class: classes.join(" "), "data-seat": seat },
      h("div", { class: "name" },
        info.kind !== "bot" ? h("span", { class: "dot" + (away ? " away" : ""), title: away ? t("away") : "" }) : null,
        bdi(this.seatName(seat)), this.teamTag(seat),
        view.dealer === seat ? h("span", { class: "dealer-chip", title: t("dealer") }, t("dealer_short")) : null),
      h("div", { class: "backs", "aria-label": t("cards_n", { n: count }) }, Array.from({ length: count }, () => backImg())),
      h("div", { class: "meta" },
        info.kind === "bot" ? h("span", { class: "tag" }, t("level_" + info.level)) : null,
        info.kind === "external" ? h("span", { class: "tag program" }, t("program_tag")) : null,
        h("span", {}, t("pile", { n: view.pile_sizes[sideIndex] })),
        view.basras[sideIndex] ? h("span", {}, t("basras", { n: view.basras[sideIndex] })) : null,
        away && info.stand_in ? h("span", {}, t("stand_in")) : away ? h("span", {}, t("away")) : null,
        this.seatBadges(seat)));
  }

  renderFloor(view) {
    const anim = this.anim;
    const cards = anim ? anim.floor : view.floor;
    const floor = h("div", { class: "floor", "aria-label": t("floor") },
      cards.map((c) => h("span", { class: "card" + (anim && anim.taken.includes(c) ? " taken" : ""), "data-card": c }, cardImg(c))));
    if (anim) {
      const played = h("span", { class: "card played" + (anim.fresh ? " arrive" : ""), "data-card": anim.card }, cardImg(anim.card));
      played.style.setProperty("--from-x", FROM[anim.from][0]);
      played.style.setProperty("--from-y", FROM[anim.from][1]);
      floor.append(played);
    } else if (!cards.length) {
      floor.append(h("span", { class: "floor-empty" }, t("floor_empty")));
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
    if (this.previewing === null && this.hint && this.hint.version === this.msg.version) markHint(floor, this.hint.take);
  }

  renderCenter(view) {
    const last = this.msg.event && this.msg.event.kind === "play" ? this.playText(this.msg.event) : view.phase === "deal" && !view.over ? [t("dealing")] : [];
    return h("div", { class: "center" },
      h("div", { class: "stockline" },
        h("span", { class: "stock-pile" }, view.stock ? backImg() : null),
        h("span", {}, t("stock", { n: view.stock })),
        h("span", {}, t("round_n", { n: view.round + 1 })),
        h("span", {}, t("target", { n: this.table.rules.target }))),
      this.renderFloor(view),
      h("div", { class: "playline" }, last),
      this.anim?.basra && this.anim.fresh ? h("div", { class: "basra-stamp" }, t("basra_pts", { n: this.anim.basra })) : null);
  }

  renderMe(view) {
    const seat = view.seat;
    const myTurn = view.phase === "play" && view.turn === seat && !view.over;
    const waiting = this.sent === this.msg.version;
    const legal = view.legal || [];
    const sideIndex = view.side;
    const hand = h("div", { class: "hand" + (myTurn ? "" : " waiting"), "aria-label": t("hand") });
    for (const card of view.hand) {
      const options = legal.filter((m) => m === card || m.startsWith(card + "x"));
      const suggested = this.hint && this.hint.card === card;
      const button = h("button", {
        class: "card" + (this.selected?.card === card || (waiting && this.sentCard === card) ? " selected" : "") + (suggested ? " suggested" : ""),
        type: "button", "data-card": card, disabled: !myTurn || waiting || !options.length,
        "aria-label": cardName(card, app.lang),
        onclick: () => this.choose(card, options),
        onmouseenter: () => this.preview(card, options), onfocus: () => this.preview(card, options),
        onmouseleave: () => this.preview(null), onblur: () => this.preview(null),
      }, cardImg(card));
      if (this.armed === card) button.classList.add("armed");
      hand.append(button);
    }
    // The turn line says what is happening now: the move just sent, your turn, who thinks.
    const status = view.over ? t("game_over")
      : waiting ? tn("playing_card", { card: cardLabel(this.sentCard) })
      : myTurn ? t("your_turn")
      : view.phase === "play" ? this.turnText(view.turn)
      : view.past_rounds.length ? t("next_round") : t("dealing");
    const info = this.table.seats[seat];
    const controls = h("div", { class: "actions" });
    if (this.table.hints && myTurn && !waiting) {
      controls.append(h("button", { type: "button", class: "secondary", id: "hint", onclick: () => { this.hintAsked = this.msg.version; this.send({ type: "hint", version: this.msg.version }); this.render(); } }, t("hint")));
    }
    if (myTurn) {
      controls.append(h("label", { class: "confirm-setting" }, h("input", { type: "checkbox", id: "confirm-play", checked: this.confirm, onchange: (e) => {
        this.confirm = e.target.checked; LS.setItem("basra.confirm", this.confirm ? "1" : "0"); this.armed = null; this.render();
      } }), t("confirm_setting")));
    }
    let hintLine = null;
    if (this.hint && this.hint.facts) hintLine = h("div", { class: "hint-line", id: "hint-line" }, h("strong", {}, t("hint"), ": "), ...hintParts(this.hint.facts, coachUi()));
    else if (this.hint) hintLine = h("div", { class: "muted hint-line", id: "hint-line" }, ...tn("hint_says", { move: h("span", {}, this.moveLabel(this.hint.move)) }));
    else if (myTurn && this.hintAsked === this.msg.version) hintLine = h("div", { class: "muted hint-line" }, t("hint_waiting"));
    const previewLine = h("div", { class: "preview-line", id: "preview-line" }, ...this.previewWords());
    return h("div", { class: "me" + (myTurn ? " turn" : ""), "data-seat": seat },
      h("div", { class: "status-line" + (myTurn ? " your-turn" : "") }, status),
      this.selected ? this.renderChoices() : null,
      previewLine,
      hand,
      h("div", { class: "seat" + (myTurn ? " turn" : "") },
        h("div", { class: "name" }, bdi(info?.name || ""), h("span", { class: "tag" }, t("you")), this.teamTag(seat),
          view.dealer === seat ? h("span", { class: "dealer-chip", title: t("dealer") }, t("dealer_short")) : null),
        h("div", { class: "meta" }, h("span", {}, t("pile", { n: view.pile_sizes[sideIndex] })),
          view.basras[sideIndex] ? h("span", {}, t("basras", { n: view.basras[sideIndex] })) : null,
          this.seatBadges(seat))),
      hintLine, controls);
  }

  moveLabel(move) {
    const [card, takes] = move.split("x");
    const out = [cardLabel(card)];
    if (takes) out.push(" × ", ...cardsLabel(takes.split(",")));
    return out;
  }

  /** Mark on the floor what ``card`` would take, and say it under the hand (null: back to the armed card's, if any). */
  preview(card, options) {
    if (this.selected || (card !== null && !options.length)) return;
    this.previewing = card;
    const floor = this.root.querySelector(".felt .floor");
    if (floor && !this.anim) this.markFloor(floor, this.msg.view);  // a landing play: marked when it has landed
    this.root.querySelector("#preview-line")?.replaceChildren(...this.previewWords());
  }

  /** The line under the hand: what the hovered card would take, or that the armed card needs a second click. */
  previewWords() {
    const card = this.previewing;
    if (card === null) return this.armed ? tn("confirm_again", { card: cardLabel(this.armed) }) : [];
    const parts = previewParts(card, takesOf(card, this.msg?.view?.legal || []), coachUi());
    if (this.armed === card) parts.unshift(...tn("confirm_again", { card: cardLabel(card) }), " · ");
    return parts;
  }

  choose(card, options) {
    this.finishAnimation(false);
    if (this.confirm && this.armed !== card) { this.armed = card; this.render(); return; }
    this.armed = null;
    if (options.length === 1) { this.play(options[0]); return; }
    this.selected = { card, options: options.map((m) => m.split("x")[1].split(",")), moves: options, focus: null };
    this.render();
  }

  renderChoices() {
    const { card, options, moves } = this.selected;
    return h("div", { class: "panel choices-panel" },
      h("div", {}, ...tn("choose_take", { card: cardLabel(card) })),
      h("div", { class: "choices" },
        options.map((take, i) => h("button", {
          type: "button", class: "choice", "data-move": moves[i],
          onmouseenter: () => { this.selected.focus = i; this.highlight(take); },
          onclick: () => this.play(moves[i]),
        }, take.map((c) => h("span", { class: "mini" }, cardImg(c))))),
        h("button", { type: "button", class: "secondary", onclick: () => { this.selected = null; this.render(); } }, t("cancel"))));
  }

  highlight(take) {
    for (const node of this.root.querySelectorAll(".floor .card")) node.classList.toggle("taken", take.includes(node.dataset.card));
  }

  play(move) {
    this.finishAnimation(false);
    this.selected = null;
    this.sent = this.msg.version;
    this.sentCard = move.split("x")[0];
    this.send({ type: "move", move, version: this.msg.version });
    this.render();
  }

  renderScores(view) {
    const rows = view.scores.map((score, side) => h("tr", { class: view.side === side ? "mine" : "" },
      h("td", {}, view.teams ? t("team_n", { n: side + 1 }) + " · " : "", bdi(this.sideName(side))),
      h("td", { class: "num" }, n(score))));
    return h("section", { class: "panel scores" }, h("h3", {}, t("scores")),
      h("table", {}, h("tbody", {}, rows)),
      view.carry ? h("p", { class: "muted" }, t("carry", { n: view.carry })) : null,
      view.over ? h("p", {}, h("a", { href: `/review/${this.id}`, "data-link": true, id: "side-review" }, t("review"))) : null,
      this.table.rated || this.table.clock ? h("p", { class: "muted", id: "table-kind" },
        this.table.rated ? h("span", { class: "tag" }, t("rated")) : null, " ",
        this.table.clock ? t("clock_option", { move: this.table.clock.move, reserve: this.table.clock.reserve }) : null) : null,
      h("p", {}, h("a", { href: `/rules/${view.variant}${Object.keys(this.table.overrides).length ? "?rules=" + encodeURIComponent(JSON.stringify(this.table.overrides)) : ""}`, target: "_blank" }, variantTitle(view.variant, this.table.overrides, app.lang))));
  }

  renderInvite() {
    if (this.table.daily) {
      return h("section", { class: "panel" }, h("h3", {}, t("daily_table")), h("p", { class: "muted" }, t("daily_help")),
        h("a", { href: "/daily", "data-link": true, id: "daily-link" }, t("daily_board")));
    }
    const link = `${location.origin}/t/${this.id}`;
    const copy = (text) => () => { navigator.clipboard?.writeText(text).then(() => toast(t("copied")), () => {}); };
    const box = h("section", { class: "panel" }, h("h3", {}, t("invite")),
      h("div", { class: "invite" }, h("input", { readonly: true, value: link, id: "invite-link", onclick: (e) => e.target.select() }),
        h("button", { type: "button", class: "secondary", onclick: copy(link) }, t("copy"))));
    if (this.table.you !== null) {
      box.append(h("p", { class: "muted" }, h("a", { href: "/device", "data-link": true, id: "device-link" }, t("other_device"))));
    }
    if (this.table.you === null) box.append(h("p", { class: "muted" }, t("spectating")));
    return box;
  }

  renderLog(view) {
    const log = h("div", { class: "log" });
    for (const play of view.plays.slice().reverse()) {
      log.append(h("div", {}, this.playText(play)));
    }
    return h("section", { class: "panel" }, h("h3", {}, t("log")), log);
  }

  renderWaiting() {
    const table = this.table;
    const seated = table.you !== null;
    const open = table.seats.filter((s) => s.open).length;
    const list = h("div", { class: "seat-list" });
    for (const seat of table.seats) {
      let right;
      if (seat.kind === "bot") right = h("span", { class: "tag" }, `${t("bot")} · ${t("level_" + seat.level)}`);
      else if (seat.kind === "external") right = h("span", {}, h("span", { class: "dot" + (seat.present === false ? " away" : "") }), " ", h("span", { class: "tag program" }, t("program_tag")));
      else if (seat.open) right = seated ? h("span", { class: "muted" }, t("open_seat")) : h("button", { type: "button", "data-join": seat.seat, onclick: () => this.join(seat.seat) }, t("sit_here"));
      else right = h("span", {}, h("span", { class: "dot" + (seat.present === false ? " away" : "") }), " ", seat.seat === table.you ? h("span", { class: "tag" }, t("you")) : null);
      list.append(h("div", { class: "seat-item" }, h("span", {}, t("seat_n", { n: seat.seat + 1 }), " · ", bdi(seat.kind === "bot" ? this.seatName(seat.seat) : seat.name || "—")), right));
    }
    const nameInput = h("input", { id: "join-name", value: app.name, maxlength: "24", placeholder: t("name_placeholder"), oninput: (e) => saveName(e.target.value) });
    this.root.append(h("div", { class: "page waiting-room" },
      h("section", { class: "panel" }, h("h2", {}, variantTitle(table.variant, table.overrides, app.lang)),
        h("p", {}, t("waiting_for", { n: open }), " ", h("span", { class: "muted" }, t("starts_when_full"))),
        seated ? null : h("p", {}, h("label", { for: "join-name" }, t("your_name"), " "), nameInput),
        list),
      this.renderInvite()));
  }

  join(seat) {
    if (!app.name) { toast(t("name_needed")); document.getElementById("join-name")?.focus(); return; }
    this.send({ type: "join", seat, name: app.name });
  }

  /** The round's and the game's score sheets, over the table (never the window). */
  renderSheets(view) {
    this.root.querySelector(".overlay")?.remove();
    const felt = this.root.querySelector(".felt");
    if (this.anim || !felt) return;  // the last play lands first
    const rounds = view.past_rounds.length;
    if (view.over) { felt.append(this.gameOver(view)); return; }
    if (rounds > this.sheetShown && view.phase === "deal") {
      const overlay = h("div", { class: "overlay soft" }, h("div", { class: "sheet", role: "dialog", id: "round-over" },
        h("h2", {}, t("round_over", { n: rounds })), this.sheetTable(view),
        h("div", { class: "actions" }, h("button", { type: "button", id: "continue", onclick: () => { this.sheetShown = rounds; overlay.remove(); } }, t("continue")))));
      felt.append(overlay);
    } else if (view.phase === "play") {
      this.sheetShown = rounds;
    }
  }

  sheetTable(view) {
    const last = view.past_rounds[view.past_rounds.length - 1];
    if (!last) return null;
    return scoreSheet(last, view.scores.map((_, side) => this.sideName(side)), app.lang, view.side ?? null);
  }

  gameOver(view) {
    const words = headline(view.winner, view.side ?? null, view.teams, (side) => this.sideName(side), app.lang);
    const actions = h("div", { class: "actions" });
    if (this.table.daily) actions.append(h("a", { href: "/daily", "data-link": true, id: "daily-board-link" }, t("daily_board")));
    else if (this.table.you !== null) actions.append(h("button", { type: "button", id: "rematch", onclick: () => this.send({ type: "rematch" }) }, t("rematch")));
    else if (this.table.rematch) actions.append(h("a", { href: `/t/${this.table.rematch}`, "data-link": true }, t("watch")));
    actions.append(
      // A daily deal's record needs the token: the replay (fetched with it) shows it all.
      this.table.daily ? null : h("a", { href: `/api/games/${this.id}/record`, download: `basra-${this.id}.json`, id: "download" }, t("download")),
      h("a", { href: `/replay/${this.id}`, "data-link": true, id: "replay-link" }, t("replay")),
      h("a", { href: `/review/${this.id}`, "data-link": true, id: "review-link" }, t("review")),
      h("a", { href: "/", "data-link": true }, t("home")));
    const me = this.table.you !== null ? this.table.seats[this.table.you] : null;
    const rating = me?.rating ? h("p", { id: "rating-after" }, t("rating_line", { rating: ratingText(me.rating, ui) }), " ",
      me.change !== undefined ? h("bdi", { dir: "ltr", class: "rating-change " + (me.change >= 0 ? "up" : "down") }, changeText(me.change, ui)) : null) : null;
    return h("div", { class: "overlay", id: "game-over" }, h("div", { class: "sheet", role: "dialog" },
      h("h2", {}, t("game_over")), h("div", { class: "winner" }, words), rating, this.sheetTable(view), actions));
  }
}

// ------------------------------------------------------------------ my games

async function gamesPage(root) {
  const page = h("div", { class: "page" }, h("h1", {}, t("my_games")));
  root.append(page);
  const { games } = await api("/api/games");
  if (!games.length) { page.append(h("p", { class: "panel muted" }, t("no_games"))); return; }
  const list = h("ul", { class: "list panel" });
  for (const game of games) {
    const when = new Date(game.created_at * 1000).toLocaleString(app.lang === "ar" ? "ar-EG" : "en");
    const tag = resultTag(game, app.lang);
    const names = game.names.map((name, i) => seatLabel({ kind: game.kinds?.[i] ?? "person", level: game.levels?.[i], name }, i, app.lang));
    const review = game.status === "over" ? [" · ", h("a", { href: `/review/${game.id}`, "data-link": true, class: "review-link" }, t("review"))] : [];
    const links = game.status === "over" || game.status === "abandoned"
      ? [h("a", { href: `/replay/${game.id}`, "data-link": true }, t("replay")), ...review, " · ", h("a", { href: `/api/games/${game.id}/record`, download: `basra-${game.id}.json` }, t("download"))]
      : [h("a", { href: `/t/${game.id}`, "data-link": true }, t("rejoin"))];
    list.append(h("li", { "data-game": game.id },
      h("span", {}, h("strong", {}, variantTitle(game.variant, game.rules, app.lang)), " · ", names.map((x, i) => [i ? " · " : "", bdi(x)]),
        h("br"), h("span", { class: "muted" }, when, game.scores.length ? " · " + game.scores.map(n).join(" – ") : "")),
      h("span", {}, tag, " ", links)));
  }
  page.append(list);
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
      this.root.replaceChildren(h("p", { class: "panel" }, t("err_" + (err.code || "no_such_table"))));
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
    this.root.replaceChildren(h("div", { class: "page replay" },
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
  const all = await variants();
  root.append(h("div", { class: "page" }, h("h1", {}, t("rules_index")),
    h("ul", { class: "list panel" }, Object.keys(all).map((name) =>
      h("li", {}, h("a", { href: `/rules/${name}`, "data-link": true }, variantName(name)),
        app.lang === "en" ? h("span", { class: "muted" }, all[name].description) : null)))));
}

async function rulesPage(root, name, custom) {
  const all = await variants();
  let rules = all[name]?.rules;
  let overrides = {};
  const page = h("div", { class: "page rules" });
  root.append(page);
  if (!rules) { page.append(h("p", { class: "panel" }, t("err_bad_settings"))); return; }
  if (custom) {
    try {
      const checked = await api("/api/rules", { method: "POST", body: JSON.stringify({ variant: name, rules: JSON.parse(custom) }) });
      rules = checked.rules;
      overrides = checked.overrides;
    } catch (err) {
      page.append(h("p", { class: "panel error" }, t("err_bad_settings"), " ", err.message));
    }
  }
  const customized = Object.keys(overrides).length > 0;
  page.append(h("h1", {}, t("rules_title", { name: variantName(name) }), customized ? h("small", { class: "muted" }, " · ", t("rules_custom")) : null),
    h("p", { class: "muted" }, t("rules_help")));
  for (const section of rulesText(rules, 2, app.lang)) {
    page.append(h("section", { class: "panel" }, h("h3", {}, section.title), h("ul", {}, section.items.map((item) => h("li", {}, item)))));
  }
  page.append(h("section", { class: "panel" }, h("h3", {}, t("settings_table")),
    h("table", { class: "sheet settings-table" }, h("tbody", {}, Object.keys(SETTING_LABELS[app.lang]).map((key) =>
      h("tr", { class: key in overrides ? "changed" : "", "data-setting": key }, h("th", {}, settingLabel(key, app.lang)),
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
  const error = h("p", { class: "error", role: "alert" });
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
        h("div", { class: "invite" }, h("input", { readonly: true, value: link, onclick: (e) => e.target.select() }),
          h("button", { type: "button", class: "secondary", onclick: () => copy(link) }, t("copy"))));
    } catch (err) { error.textContent = errorText(err); }
  } }, t("device_make"));

  const codeInput = h("input", { id: "code-input", dir: "ltr", autocomplete: "one-time-code", placeholder: "XXXXX-XXXXX", maxlength: "32" });
  const confirmBox = h("div", { id: "confirm-box" });
  async function check() {
    confirmBox.replaceChildren();
    error.textContent = "";
    try {
      const info = await api("/api/identity/transfer/preview", { method: "POST", body: JSON.stringify({ code: codeInput.value }) });
      confirmBox.append(
        h("p", { id: "confirm-text" }, t("device_confirm", { name: info.name || t("device_someone"), n: info.games })),
        h("p", { class: "muted" }, t("device_leave")),
        h("div", { class: "actions" },
          h("button", { type: "button", id: "confirm-code", onclick: accept }, t("device_yes")),
          h("button", { type: "button", class: "secondary", onclick: () => confirmBox.replaceChildren() }, t("cancel"))));
    } catch (err) { error.textContent = errorText(err); }
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
          h("span", { class: "muted" }, t("device_seen", { when: new Date(d.last_seen_at * 1000).toLocaleString(app.lang === "ar" ? "ar-EG" : "en") }))),
        d.current ? h("span", { class: "tag" }, t("device_this"))
          : h("button", { type: "button", class: "secondary", "data-sign-out": d.id, onclick: async () => {
            try { await api(`/api/devices/${d.id}`, { method: "DELETE" }); toast(t("device_signed_out")); drawDevices(); } catch (err) { error.textContent = errorText(err); }
          } }, t("device_sign_out")))));
    } catch (err) { error.textContent = errorText(err); }
  }

  page.append(
    h("section", { class: "panel" }, h("h2", {}, t("device_move")), make, codeBox),
    h("section", { class: "panel" }, h("h2", {}, t("device_use")),
      h("div", { class: "invite" }, codeInput, h("button", { type: "button", id: "check-code", onclick: check }, t("device_check"))),
      confirmBox),
    h("section", { class: "panel" }, h("h2", {}, t("device_list")), list),
    error);
  const fromLink = location.hash.match(/code=([\w-]+)/);
  if (fromLink) {
    codeInput.value = fromLink[1];
    history.replaceState(null, "", location.pathname + location.search);
    check();  // shows whose identity it is: joining it still needs a click
  }
  drawDevices();
}

// ------------------------------------------------------------------ start

setLanguage(app.lang);
ensureIdentity().catch((err) => banner(errorText(err))).finally(route);
