// Accounts, profiles and leaderboards: the /account, /me, /u/NAME and /leaderboard
// pages. app.js hands each page its helpers (`ui`), so this module needs nothing
// else of it. The rating chart is an SVG drawn here from the profile's history.

import { checkFields, markField } from "./fields.js";
import { dayText, num1 } from "./i18n.js";
import { reportForm } from "./report.js";
import { profileClubs } from "./clubs.js";
import { followButtons } from "./friends.js";
import { seasonBadges } from "./seasons.js";

const SVG = "http://www.w3.org/2000/svg";
const KIND_ORDER = ["2p", "3p", "4p", "2v2"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** Above this uncertainty a rating is called provisional: it rests on too few games to say more. */
export const PROVISIONAL_SIGMA = 6;

/** A rating in words: "25.0, provisional" while it is unsure, else "27.3, uncertain by 2.1". */
export function ratingText(rating, ui) {
  const one = (v) => num1(v, ui.app.lang);
  if (rating.sigma > PROVISIONAL_SIGMA) return ui.t("rating_provisional", { mu: one(rating.mu) });
  return ui.t("rating_words", { mu: one(rating.mu), sigma: one(rating.sigma) });
}

/** A signed change of rating, one decimal (+1.4, −0.8). */
export function changeText(change, ui) {
  const value = Math.round(change * 10) / 10;
  return `${value >= 0 ? "+" : "−"}${num1(Math.abs(value), ui.app.lang)}`;
}

const poolName = (family, kind, ui) => `${ui.t("family_" + family)} · ${ui.t("kind_" + kind)}`;
const when = (seconds, ui) => dayText(seconds, ui.app.lang);

// ------------------------------------------------------------------ account

export async function accountPage(root, ui) {
  const { h, t, api } = ui;
  const page = h("div", { class: "page", id: "account-page" }, h("h1", {}, t("account_title")));
  root.append(page);
  let me;
  try { me = await api("/api/identity"); } catch (err) { page.append(h("p", { class: "panel error" }, ui.errorText(err))); return; }
  const status = me.username
    ? h("p", { id: "account-status" }, ...ui.tn("account_signed_in", { name: h("bdi", {}, h("strong", {}, me.username)) }))
    : h("p", { id: "account-status", class: "muted" }, t("account_guest"));
  // Each form says what went wrong under itself, naming the field by its label and marking it.
  const errorBox = (id) => h("p", { class: "error", role: "alert", id });
  const refused = (form, error) => (err) => {
    const control = err.field ? form.querySelector(`[name="${err.field}"]`) : null;
    if (control) markField(control, ui.errorText(err), error); else error.textContent = ui.errorText(err);
  };

  const nameError = errorBox("account-error");
  const nameInput = h("input", { id: "display-name", name: "name", value: me.name || ui.app.name || "", maxlength: "24", minlength: "1", required: true, autocomplete: "nickname" });
  const nameForm = h("form", { class: "actions name-row", id: "name-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    if (!checkFields(nameForm, nameError, t)) return;
    try {
      const body = await api("/api/identity", { method: "PATCH", body: JSON.stringify({ name: nameInput.value }) });
      ui.saveName(body.name);
      nameInput.value = body.name;
      ui.toast(t("saved"));
    } catch (err) { refused(nameForm, nameError)(err); }
  } }, h("label", { for: "display-name", class: "sr-only" }, t("display_name")), nameInput, h("button", { type: "submit", id: "save-name" }, t("save")));

  const field = (id, name, label, type, autocomplete, limits) => [
    h("label", { for: id }, label),
    h("input", { id, name, type, autocomplete, dir: "auto", required: true, ...limits }),
  ];
  const usernameLimits = { minlength: "3", maxlength: "20", pattern: "[\\p{L}\\p{N}_\\-]+" };
  const passwordLimits = { minlength: "8", maxlength: "128" };

  page.append(status,
    h("section", { class: "panel", "aria-labelledby": "name-heading" }, h("h2", { id: "name-heading" }, t("display_name")), nameForm, nameError));

  if (!me.username) {
    const claimError = errorBox("claim-error");
    const claimForm = h("form", { id: "claim-form", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      if (!checkFields(claimForm, claimError, t)) return;
      try {
        const body = await api("/api/account", { method: "POST", body: JSON.stringify({ username: claimForm.elements.username.value, password: claimForm.elements.password.value }) });
        ui.toast(t("claimed", { name: body.username }));
        ui.navigate("/account");
      } catch (err) { refused(claimForm, claimError)(err); }
    } },
    h("div", { class: "form-grid" },
      ...field("claim-username", "username", t("username"), "text", "username", usernameLimits),
      ...field("claim-password", "password", t("password"), "password", "new-password", passwordLimits)),
    h("div", { class: "actions" }, h("button", { type: "submit", id: "claim" }, t("claim"))), claimError);
    page.append(h("section", { class: "panel", id: "claim-panel", "aria-labelledby": "claim-heading" }, h("h2", { id: "claim-heading" }, t("claim_title")),
      h("p", { class: "muted" }, t("username_help")), claimForm));

    const loginError = errorBox("login-error");
    const loginForm = h("form", { id: "login-form", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      if (!checkFields(loginForm, loginError, t)) return;
      try {
        const body = await api("/api/account/login", { method: "POST", body: JSON.stringify({ username: loginForm.elements.username.value, password: loginForm.elements.password.value }) });
        // The identity this browser had is signed out here, as with a transfer code.
        const old = ui.app.token;
        if (old) await fetch(`/api/devices/${me.device}`, { method: "DELETE", headers: { Authorization: `Bearer ${old}` } }).catch(() => {});
        ui.setToken(body.token);
        if (body.name) ui.saveName(body.name);
        ui.toast(t("login_done", { name: body.username }));
        ui.navigate("/me");
      } catch (err) {
        // A wrong username or password is one refusal (which, the server does not say): both fields.
        if (err.code === "bad_login") markField([loginForm.elements.username, loginForm.elements.password], ui.errorText(err), loginError);
        else refused(loginForm, loginError)(err);
      }
    } },
    h("div", { class: "form-grid" },
      ...field("login-username", "username", t("username"), "text", "username", { maxlength: "20" }),
      ...field("login-password", "password", t("password"), "password", "current-password", { maxlength: "128" })),
    h("p", { class: "muted" }, t("device_leave")),
    h("div", { class: "actions" }, h("button", { type: "submit", id: "login" }, t("login"))), loginError);
    page.append(h("section", { class: "panel", id: "login-panel", "aria-labelledby": "login-heading" }, h("h2", { id: "login-heading" }, t("login_title")), loginForm));
  } else {
    const outError = errorBox("sign-out-error");
    const signOut = h("button", { type: "button", class: "secondary", id: "sign-out", onclick: async () => {
      outError.textContent = "";
      try {
        await api(`/api/devices/${me.device}`, { method: "DELETE" });
        ui.setToken(null);
        await ui.ensureIdentity();
        ui.navigate("/account");
      } catch (err) { outError.textContent = ui.errorText(err); }
    } }, t("sign_out"));
    page.append(h("section", { class: "panel", "aria-labelledby": "sign-out-heading" }, h("h2", { id: "sign-out-heading" }, t("sign_out_title")),
      h("p", { class: "muted" }, t("sign_out_help")), h("div", { class: "actions" }, signOut), outError));
  }
  page.append(h("p", {}, h("a", { href: "/me", "data-link": true }, t("view_profile")), " · ",
    h("a", { href: "/device", "data-link": true }, t("nav_device"))));
}

// ------------------------------------------------------------------ profile

/** The rating history of one pool as an SVG line (μ) with its ±σ band, from the rating
 * before its first game. */
export function historyChart(history, ui) {
  const points = [{ ...history[0].before, at: history[0].at }, ...history];
  const width = 600, height = 200, pad = 30;
  const lows = points.map((p) => p.mu - p.sigma), highs = points.map((p) => p.mu + p.sigma);
  let low = Math.min(...lows), high = Math.max(...highs);
  if (high - low < 1) { low -= 0.5; high += 0.5; }
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const band = points.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse()).join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" ");
  const label = (value, at) => svg("text", { x: 4, y: at, class: "axis" }, ui.n(Math.round(value)));
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", id: "rating-chart", role: "img", "aria-label": ui.t("history"), direction: "ltr" },
    svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "grid" }),
    svg("line", { x1: pad, y1: pad, x2: width - pad, y2: pad, class: "grid" }),
    label(high, pad + 4), label(low, height - pad + 4),
    svg("polygon", { points: band, class: "band" }),
    svg("polyline", { points: line, class: "line" }),
    ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.mu), r: 3.5, class: "dot" },
      svg("title", {}, `${ratingText(p, ui)} · ${when(p.at, ui)}`))));
  return chart;
}

/** Reputation on a profile: the share of games finished (none for a newcomer) and, on the
 * person's own page, the wait before their next rated game (the playban) and its rule. */
function reputationPanel(ui, data) {
  const { h, t } = ui;
  const finished = data.finished;
  const panel = h("section", { class: "panel", id: "profile-reputation", "aria-labelledby": "reputation-heading" },
    h("h2", { id: "reputation-heading" }, t("finished_title")),
    h("p", { id: "finished-share", class: finished ? "" : "muted" },
      finished ? t("finished_share", { p: finished.percent, n: finished.games }) : t("finished_new", { n: data.finished_from ?? 10 })),
    h("p", { class: "muted" }, t("finished_help")));
  if (data.playban !== undefined) {  // their own page
    const ban = data.playban;
    panel.append(h("h3", {}, t("playban_title")),
      h("p", { id: "playban", class: ban ? "error" : "" }, ban ? t("err_playban", ban) : t("playban_none")),
      h("p", { class: "muted" }, t("playban_help", data.playban_rules || {})));
  }
  return panel;
}

export async function profilePage(root, ui, username) {
  const { h, t, api } = ui;
  const page = h("div", { class: "page", id: "profile-page" });
  root.append(page);
  let data;
  try {
    data = await api(username ? `/api/players/${encodeURIComponent(username)}` : "/api/profile");
  } catch (err) {
    // Still a page with a heading (a screen reader's first stop): whose profile it was.
    page.append(h("h1", {}, err.code === "no_such_player" ? t("no_such_player_title") : t("nav_profile")),
      h("p", { class: "panel error", id: "profile-error" }, ui.errorText(err)));
    return;
  }
  page.append(h("h1", {}, h("bdi", { id: "profile-name" }, data.name || data.username || t("guest")),
    data.username ? h("small", { class: "muted" }, " · @", h("bdi", { id: "profile-username" }, data.username)) : h("small", { class: "muted" }, " · ", t("guest"))));
  if (data.since) page.append(h("p", { class: "muted" }, t("since", { when: when(data.since, ui) })));

  const ratings = h("section", { class: "panel", id: "profile-ratings" }, h("h2", {}, t("ratings")));
  if (!data.ratings.length) ratings.append(h("p", { class: "muted" }, t("no_ratings")));
  else {
    const sorted = data.ratings.slice().sort((a, b) => b.games - a.games);
    ratings.append(h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, t("col_pool")), h("th", { class: "num" }, t("col_rating")), h("th", { class: "num" }, t("col_games")))),
      h("tbody", {}, sorted.map((r) =>
        h("tr", { "data-pool": `${r.family}/${r.kind}` }, h("td", {}, poolName(r.family, r.kind, ui)),
          h("td", { class: "num rating-value" }, h("bdi", { dir: "ltr" }, ratingText(r, ui))),
          h("td", { class: "num" }, ui.n(r.games)))))));
  }
  if (username && ui.app.token && data.username) {
    const follow = h("section", { class: "panel", id: "profile-follow", "aria-labelledby": "profile-follow-heading", hidden: true },
      h("h2", { id: "profile-follow-heading" }, t("friends_title")));
    page.append(follow);
    followButtons(ui, { username: data.username }).then((box) => { if (box) { follow.append(box); follow.hidden = false; } });
  }
  page.append(ratings);
  page.append(reputationPanel(ui, data));
  // The season badges (each family's last final table) under the ratings, once known.
  seasonBadges(ui, username).then((box) => { if (box && ratings.isConnected) ratings.after(box); });
  if (data.username) profileClubs(ui, data.username).then((panel) => { if (panel) ratings.after(panel); });
  if (username && ui.app.token && data.username) page.append(reportForm(ui, { username: data.username }));

  const chartBox = h("section", { class: "panel", id: "profile-history" }, h("h2", {}, t("history")));
  const pools = [...new Set(data.history.map((p) => `${p.family}/${p.kind}`))];
  if (!pools.length) chartBox.append(h("p", { class: "muted" }, t("no_history")));
  else {
    pools.sort((a, b) => data.history.filter((p) => `${p.family}/${p.kind}` === b).length - data.history.filter((p) => `${p.family}/${p.kind}` === a).length);
    const holder = h("div", { class: "chart-holder" });
    const draw = (pool) => holder.replaceChildren(historyChart(data.history.filter((p) => `${p.family}/${p.kind}` === pool), ui));
    if (pools.length > 1) {
      chartBox.append(h("select", { id: "history-pool", onchange: (e) => draw(e.target.value) },
        pools.map((pool) => { const [f, k] = pool.split("/"); return h("option", { value: pool }, poolName(f, k, ui)); })));
    } else {
      const [f, k] = pools[0].split("/");
      chartBox.append(h("p", { class: "muted" }, poolName(f, k, ui)));
    }
    chartBox.append(holder);
    draw(pools[0]);
  }
  page.append(chartBox);

  const totals = data.totals;
  const cell = (label, value, id) => h("div", { class: "stat", id }, h("div", { class: "stat-value" }, value), h("div", { class: "muted" }, label));
  const accuracy = data.review_accuracy;
  page.append(h("section", { class: "panel", id: "profile-totals" }, h("h2", {}, t("totals")),
    h("div", { class: "stats" },
      cell(t("col_games"), ui.n(totals.games), "total-games"),
      cell(t("col_wins"), ui.n(totals.win), "total-wins"),
      cell(t("col_losses"), ui.n(totals.loss), "total-losses"),
      cell(t("col_draws"), ui.n(totals.draw), "total-draws"),
      cell(t("col_forfeits"), ui.n(totals.forfeit), "total-forfeits"),
      cell(t("basras_per_round"), totals.basras_per_round === null ? "—" : ui.n(Math.round(totals.basras_per_round * 100) / 100), "basras-per-round")),
    // The coach's accuracy over the person's reviewed games (docs/COACH.md), when there are any.
    h("p", { id: "review-accuracy", class: accuracy ? "" : "muted" }, t("review_accuracy"), ": ",
      accuracy ? t("review_accuracy_value", { n: Math.round(accuracy.mean), m: accuracy.games }) : t("no_reviews"))));

  const games = h("section", { class: "panel", id: "profile-games" }, h("h2", {}, t("recent_games")));
  if (!data.games.length) games.append(h("p", { class: "muted" }, t("no_finished")));
  const list = h("ul", { class: "list" });
  for (const game of data.games) {
    const change = game.rating ? game.rating.after.mu - game.rating.before.mu : null;
    list.append(h("li", { "data-game": game.id },
      h("span", {}, h("strong", {}, ui.variantName(game.variant)), " · ", t("kind_" + game.kind), " · ",
        h("span", { class: "muted" }, when(game.ended_at, ui), " · ", t("basras", { n: game.basras }))),
      h("span", {},
        h("span", { class: "tag" }, game.rated ? t("rated") : t("casual")), " ",
        h("span", { class: "tag" + (game.outcome === "win" ? " win" : "") }, t("outcome_" + game.outcome)), " ",
        change === null ? null : h("bdi", { dir: "ltr", class: "rating-change " + (change >= 0 ? "up" : "down") }, changeText(change, ui)), " ",
        h("a", { href: `/replay/${game.id}`, "data-link": true }, t("replay")))));
  }
  games.append(list);
  page.append(games);
}

// ------------------------------------------------------------------ leaderboard

export async function leaderboardPage(root, ui) {
  const { h, t, api } = ui;
  const params = new URLSearchParams(location.search);
  await ui.variants();
  const families = ui.app.families || {};
  let family = params.get("variant") in families ? params.get("variant") : "egyptian";
  let kind = KIND_ORDER.includes(params.get("kind")) ? params.get("kind") : "2p";
  const page = h("div", { class: "page", id: "board-page" }, h("h1", {}, t("board_title")), h("p", { class: "muted" }, t("board_help")));
  const body = h("div", {});
  const familySelect = h("select", { id: "board-family", onchange: (e) => { family = e.target.value; draw(); } },
    Object.keys(families).map((f) => h("option", { value: f, selected: f === family }, t("family_" + f))));
  const kindSelect = h("select", { id: "board-kind", onchange: (e) => { kind = e.target.value; draw(); } },
    KIND_ORDER.map((k) => h("option", { value: k, selected: k === kind }, t("kind_" + k))));
  page.append(h("div", { class: "panel board-controls" },
    h("label", { for: "board-family" }, t("board_family")), familySelect,
    h("label", { for: "board-kind" }, t("board_kind")), kindSelect), body);
  root.append(page);

  async function draw() {
    history.replaceState(null, "", `/leaderboard?variant=${family}&kind=${kind}`);
    const players = kind === "2v2" ? 4 : Number(kind[0]);
    let board;
    try {
      board = await api(`/api/leaderboard?variant=${family}&players=${players}${kind === "2v2" ? "&teams=1" : ""}`);
    } catch (err) { body.replaceChildren(h("p", { class: "panel error" }, ui.errorText(err))); return; }
    const people = board.entries.length
      ? h("table", { class: "sheet", id: "board" },
        h("thead", {}, h("tr", {}, h("th", {}, t("col_place")), h("th", {}, t("col_player")), h("th", { class: "num" }, t("col_rating")), h("th", { class: "num" }, t("col_games")))),
        h("tbody", {}, board.entries.map((e) => h("tr", { "data-username": e.username },
          h("td", { class: "num" }, ui.n(e.place)),
          h("td", {}, h("a", { href: `/u/${encodeURIComponent(e.username)}`, "data-link": true }, h("bdi", {}, e.name || e.username)), " ",
            h("small", { class: "muted" }, "@", h("bdi", {}, e.username))),
          h("td", { class: "num" }, h("bdi", { dir: "ltr" }, ratingText(e, ui))),
          h("td", { class: "num" }, ui.n(e.games))))))
      : h("p", { class: "muted", id: "board-empty" }, t("board_empty"));
    const bots = h("table", { class: "sheet", id: "board-bots" }, h("tbody", {}, board.bots.map((b) =>
      h("tr", {}, h("td", {}, `${t("bot")} · ${t("level_" + b.level)}`), h("td", { class: "num" }, h("bdi", { dir: "ltr" }, ratingText(b, ui)))))));
    body.replaceChildren(h("section", { class: "panel" }, h("h2", {}, poolName(family, kind, ui)), people),
      h("section", { class: "panel" }, h("h3", {}, t("board_bots")), bots));
  }
  draw();
}
