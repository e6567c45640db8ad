// "Play now": the home page's quick-play panel. It joins the pool over WS /ws/play
// (the protocol is in server/quickplay.py), shows the wait and the rating range as
// they widen, and goes to the table once matched. A search survives a reload, a
// dropped connection or a visit to another page: this tab keeps its form
// (sessionStorage) and seeks again, which resumes its place in the pool (the server
// keeps it 20 s). "Cancel" leaves the pool. The panel also shows how many wait for each
// kind of table (GET /api/quickplay).

import { num1 } from "./i18n.js";
import { clearMarks, markField } from "./fields.js";

const BOT_WAITS = ["", "15", "30", "60", "120"];
const KINDS = ["2", "3", "4", "2v2"];
const PACES = ["", "1", "2", "3", "7"];  // a live game, or a turn-based one of days a move
const SEEKING = "basra.seeking";

/** The panel, and `close()` to leave the pool (unless matched) when the page goes. */
export function quickPlayPanel(ui, variants) {
  const { app, h, t, n, navigate, variantName } = ui;
  const saved = JSON.parse(sessionStorage.getItem(SEEKING) || "null");
  const form = saved || {
    variant: localStorage.getItem("basra.quick.variant") || "egyptian",
    kind: localStorage.getItem("basra.quick.kind") || "2",
    bot: localStorage.getItem("basra.quick.bot") ?? "30",
  };
  form.pace ??= "";  // "": a live game; "1", "2", "3", "7": a turn-based game of days a move
  let ws = null;
  let seeking = false;
  let closed = false;
  let retry = 0;

  const status = h("p", { id: "quick-status", class: "muted", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", id: "quick-error" });
  const pools = h("ul", { class: "list", id: "quick-pools" });
  const variantSelect = h("select", { id: "quick-variant", onchange: (e) => { form.variant = e.target.value; } },
    Object.keys(variants).map((name) => h("option", { value: name, selected: name === form.variant }, variantName(name))));
  const kindSelect = h("select", { id: "quick-kind", onchange: (e) => { form.kind = e.target.value; } },
    KINDS.map((k) => h("option", { value: k, selected: k === form.kind }, kindName(k))));
  const botSelect = h("select", { id: "quick-bot", onchange: (e) => { form.bot = e.target.value; } },
    BOT_WAITS.map((w) => h("option", { value: w, selected: w === form.bot }, waitName(w))));
  const paceSelect = h("select", { id: "quick-pace", onchange: (e) => { form.pace = e.target.value; } },
    PACES.map((p) => h("option", { value: p, selected: p === form.pace }, p ? t("clock_days", { n: Number(p) }) : t("pace_live"))));
  const button = h("button", { type: "button", id: "play-now", onclick: () => start() }, t("play_now"));
  const cancel = h("button", { type: "button", id: "quick-cancel", class: "secondary", hidden: true, onclick: () => stop(true) }, t("cancel"));

  function kindName(kind) {
    return kind === "2v2" ? t("kind_2v2") : t(`kind_${kind}p`);
  }
  function waitName(wait) {
    if (!wait) return t("bot_never");
    const s = Number(wait);
    return s >= 60 ? t("minutes_n", { n: n(s / 60) }) : t("seconds_n", { n: n(s) });
  }
  function seekMessage() {
    const players = form.kind === "2v2" ? 4 : Number(form.kind);
    return { type: "seek", variant: form.variant, players, teams: form.kind === "2v2", bot_after: form.bot ? Number(form.bot) : null, days: form.pace ? Number(form.pace) : null };
  }
  function showSeeking(busy) {
    seeking = busy;
    button.hidden = busy;
    cancel.hidden = !busy;
    for (const select of [variantSelect, kindSelect, botSelect, paceSelect]) select.disabled = busy;
  }

  function start() {
    error.textContent = "";
    clearMarks(document.querySelector(".hero") || document.body, error);
    if (!app.name) { markField(document.getElementById("name"), t("name_needed"), document.getElementById("name-error") || error); return; }
    localStorage.setItem("basra.quick.variant", form.variant);
    localStorage.setItem("basra.quick.kind", form.kind);
    localStorage.setItem("basra.quick.bot", form.bot);
    sessionStorage.setItem(SEEKING, JSON.stringify(form));
    showSeeking(true);
    status.textContent = t("seeking", { n: n(0) });
    connect();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/play`);
    ws = socket;
    socket.onopen = () => {
      retry = 0;
      socket.send(JSON.stringify({ type: "hello", token: app.token || undefined, name: app.name || undefined }));
      socket.send(JSON.stringify(seekMessage()));
    };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (ws !== socket) return;
      ws = null;
      if (closed || !seeking) return;
      // seeking again resumes the same place in the pool; a restarting server (1012): at once
      retry = event.code === 1012 ? 0 : Math.min(retry + 1, 5);
      const wait = event.code === 1012 ? Math.random() * 200 : 300 * 2 ** retry;
      setTimeout(() => { if (!closed && seeking && !ws) connect(); }, wait);
    };
  }

  function receive(message) {
    switch (message.type) {
      case "seeking": {
        if (message.waiting === null) setTimeout(drawPools, 1100);  // just joined: count this person too (the server caches counts 1 s)
        // The range of ratings met, on the scale profiles show (mu, one decimal), around the person's own.
        const one = (v) => num1(v, app.lang);
        const mu = message.rating?.mu;
        const range = message.window === null || mu === undefined ? t("window_any")
          : t("seeking_window", { low: one(mu - message.window), high: one(mu + message.window), mu: one(mu) });
        status.replaceChildren(t("seeking", { n: n(Math.round(message.waited)) }), " · ", range,
          ...(message.waiting ? [" · ", t("seeking_count", { n: n(message.waiting) })] : []));
        break;
      }
      case "matched":
        sessionStorage.removeItem(SEEKING);
        seeking = false;
        status.textContent = t("matched");
        ws?.close();
        navigate(message.url);
        break;
      case "cancelled":
        status.textContent = "";
        break;
      case "replaced":
        sessionStorage.removeItem(SEEKING);
        showSeeking(false);
        status.textContent = t("replaced_seek");
        break;
      case "error":
        if (message.code === "at_table") {
          error.replaceChildren(t("err_at_table"), " ", h("a", { href: `/t/${message.table}`, "data-link": true }, t("back_to_game")));
        } else {
          error.textContent = ui.errorText({ code: message.code, message: message.message, retry: message.retry_after, playban: message.playban });
        }
        if (message.code !== "rate_limited" || message.limit !== "messages") stop(false);
        break;
      default:
    }
  }

  function stop(leave) {
    sessionStorage.removeItem(SEEKING);
    showSeeking(false);
    if (leave) status.textContent = "";
    const socket = ws;
    ws = null;
    if (socket) {
      if (leave && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "cancel" }));
      setTimeout(() => socket.close(), 200);
    }
  }

  async function drawPools() {
    try {
      const data = await ui.api("/api/quickplay");
      pools.replaceChildren(...(data.pools.length ? data.pools.map((p) => h("li", { "data-pool": `${p.variant}/${p.teams ? "2v2" : p.players}` },
        h("span", {}, h("strong", {}, variantName(p.variant)), " · ", kindName(p.teams ? "2v2" : String(p.players)), p.days ? [" · ", t("clock_days", { n: p.days })] : null),
        h("span", { class: "tag" }, t("waiting_now", { n: n(p.waiting) }))))
        : [h("li", { class: "muted" }, t("pools_empty"))]));
    } catch { /* the counts are a convenience */ }
  }
  drawPools();
  const timer = setInterval(() => { if (!document.hidden) drawPools(); }, 5000);

  const node = h("section", { class: "panel quick-play", id: "quick-play" },
    h("h2", {}, t("play_now_title")),
    h("p", { class: "muted" }, t("play_now_help")),
    h("div", { class: "form-grid" },
      h("label", { for: "quick-variant" }, t("variant")), variantSelect,
      h("label", { for: "quick-kind" }, t("players")), kindSelect,
      h("label", { for: "quick-bot" }, t("bot_fill")), botSelect,
      h("label", { for: "quick-pace" }, t("pace_label")), paceSelect),
    h("div", { class: "actions" }, button, cancel), status, error,
    h("h3", {}, t("pools_title")), pools);
  if (saved) start();  // a reload while searching: seek again, keeping the place in the pool
  return {
    node,
    // Leaving the page pauses a search: back within the server's grace (20 s), this tab
    // seeks again and keeps its place; "Cancel" is how one leaves the pool.
    close() {
      closed = true;
      clearInterval(timer);
      ws?.close();
    },
  };
}
