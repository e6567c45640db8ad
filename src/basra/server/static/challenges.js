// Challenges and notifications (/api/challenges, /api/notifications).
//
// badge(ui): the menu's "Notifications" link with the unread count, kept true on every page:
// asked once, then told by the sockets (a "basra:socket" event on window carries each
// message of the home page's /ws/friends and of a table's socket). A new item is said in
// the polite status region, in words (notificationText); the link's count is read in words.
//
// challengesPanel(ui): the home page's panel: the challenges received (accept, decline,
// report) and sent (cancel), each with where it stands (waiting, accepted, declined,
// expired, cancelled); a form to challenge friends (one for two seats, up to three for
// four: seats nobody takes go to bots of the chosen level); and the notifications list
// (mark all read). A challenge accepted sends everyone in it to its table.

import { say, status } from "./announce.js";

/** An item's words in the reader's language (its data is words-free). */
export function notificationText(t, item) {
  const d = item.data || {};
  switch (item.kind) {
    case "challenge": return t("note_challenge", { name: d.from || t("guest") });
    case "challenge_accepted": return t("note_challenge_accepted");
    case "challenge_declined": return t("note_challenge_declined", { name: d.by || t("guest") });
    case "challenge_expired": return t("note_challenge_expired");
    case "rematch": return t("note_rematch", { name: d.by || t("guest") });
    case "your_turn": return t("note_your_turn");
    case "tournament_soon": return t("note_tournament_soon", { name: d.name || "", minutes: d.minutes || 5 });
    case "club_event": return t("note_club_event", { club: d.club || "", name: d.name || "" });
    default: return t("note_other");
  }
}

let unread = 0;

function drawBadge(ui) {
  const link = document.getElementById("nav-notifications");
  if (!link) return;
  const count = link.querySelector(".badge");
  count.textContent = unread ? String(unread) : "";
  count.hidden = !unread;
  // The figure is for the eye; a screen reader reads the count in words beside the link's name.
  count.setAttribute("aria-hidden", "true");
  let words = link.querySelector(".sr-only");
  if (!words) { words = document.createElement("span"); words.className = "sr-only"; link.append(words); }
  words.textContent = unread ? ` (${ui.t("unread_n", { n: unread })})` : "";
  // On a phone the menu is folded: its button shows the count too (the link says it in words).
  const toggle = document.getElementById("menu-toggle");
  if (toggle) {
    let mark = toggle.querySelector(".badge");
    if (!mark) { mark = document.createElement("span"); mark.className = "badge"; mark.setAttribute("aria-hidden", "true"); toggle.append(" ", mark); }
    mark.textContent = count.textContent;
    mark.hidden = !unread;
  }
}

/** The menu's unread count, kept by the sockets' messages. */
export function badge(ui) {
  const refresh = () => {
    if (!ui.app.token) return;
    ui.api("/api/notifications/unread").then((b) => { unread = b.unread; drawBadge(ui); }, () => {});
  };
  window.addEventListener("basra:socket", (event) => {
    const message = event.detail;
    if (message.type === "notification") {
      unread = message.unread;
      drawBadge(ui);
      status(notificationText(ui.t, message.item));
    } else if (message.type === "unread") {
      unread = message.unread;
      drawBadge(ui);
    }
  });
  refresh();
  return refresh;
}

const ANSWER_KEYS = { waiting: "challenge_waiting", accepted: "challenge_accepted", declined: "challenge_declined", expired: "challenge_expired", cancelled: "challenge_cancelled" };

/** The home page's challenges and notifications: ``{ node, close }``. */
export function challengesPanel(ui) {
  const { h, t, api } = ui;
  const incoming = h("ul", { class: "list", id: "challenges-in", "aria-labelledby": "challenges-in-heading" });
  const outgoing = h("ul", { class: "list", id: "challenges-out", "aria-labelledby": "challenges-out-heading" });
  const notes = h("ul", { class: "list", id: "notifications-list", "aria-labelledby": "notifications-heading" });
  const error = h("p", { class: "error", role: "alert", id: "challenges-error" });
  const form = h("div", { id: "challenge-form" });
  const markAll = h("button", { type: "button", class: "secondary", id: "notifications-read" }, t("notifications_read_all"));
  const node = h("section", { class: "panel", id: "challenges", "aria-labelledby": "challenges-heading" },
    h("h2", { id: "challenges-heading" }, t("challenges_title")),
    h("h3", { id: "challenges-in-heading" }, t("challenges_in")), incoming,
    h("h3", { id: "challenges-out-heading" }, t("challenges_out")), outgoing,
    h("details", { id: "challenge-new" }, h("summary", {}, t("challenge_new")), form), error,
    h("h2", { id: "notifications-heading" }, t("nav_notifications")), notes, h("p", {}, markAll));
  let closed = false;
  const seen = {};  // each challenge's status last drawn, by id

  const settingsText = (s) => [ui.variantName ? ui.variantName(s.variant || "egyptian") : (s.variant || "egyptian"),
    t("challenge_players_n", { n: s.players || 2 }), s.rated ? t("challenge_rated") : null].filter(Boolean).join(", ");

  async function answer(id, verb, spoken) {
    error.textContent = "";
    try {
      const after = await api(`/api/challenges/${id}/${verb}`, { method: "POST", body: "{}" });
      say(spoken);
      moved(after);
    } catch (err) { error.textContent = ui.errorText(err); }
  }

  async function report(id) {
    error.textContent = "";
    try {
      await api("/api/reports", { method: "POST", body: JSON.stringify({ challenge: id, reason: "abuse" }) });
      status(t("challenge_reported"));
    } catch (err) { error.textContent = ui.errorText(err); }
  }

  function item(c) {
    const state = h("span", { class: `tag challenge-${c.status}` }, t(ANSWER_KEYS[c.status]));
    const who = c.mine ? t("challenge_to", { names: c.to.map((p) => p.name).join(", ") }) : t("challenge_from", { name: c.from });
    const buttons = h("span", { class: "actions" });
    if (!c.mine && c.status === "waiting" && c.you === "waiting") {
      buttons.append(
        h("button", { type: "button", "data-accept": c.id, onclick: () => answer(c.id, "accept", t("challenge_you_accepted")) }, t("challenge_accept")), " ",
        h("button", { type: "button", class: "secondary", "data-decline": c.id, onclick: () => answer(c.id, "decline", t("challenge_you_declined")) }, t("challenge_decline")));
    }
    if (!c.mine) buttons.append(" ", h("button", { type: "button", class: "secondary", "data-report": c.id, onclick: () => report(c.id) }, t("challenge_report")));
    if (c.mine && c.status === "waiting") {
      buttons.append(h("button", { type: "button", class: "secondary", "data-cancel": c.id, onclick: () => answer(c.id, "cancel", t("challenge_cancelled")) }, t("challenge_cancel")));
    }
    if (c.table && c.status === "accepted") buttons.append(" ", h("a", { href: `/t/${c.table}`, "data-link": true }, t("challenge_go")));
    return h("li", { "data-challenge": c.id, "data-status": c.status },
      h("span", {}, h("bdi", {}, who), " · ", settingsText(c.settings), c.text ? [" · ", h("q", {}, h("bdi", {}, c.text))] : null, " ", state), buttons);
  }

  async function draw() {
    if (!ui.app.token) return;
    try {
      const [data, listed] = await Promise.all([api("/api/challenges"), api("/api/notifications")]);
      if (closed) return;
      incoming.replaceChildren(...data.incoming.map(item));
      outgoing.replaceChildren(...data.outgoing.map(item));
      if (!data.incoming.length) incoming.append(h("li", { class: "muted" }, t("challenges_none")));
      if (!data.outgoing.length) outgoing.append(h("li", { class: "muted" }, t("challenges_none")));
      for (const c of [...data.incoming, ...data.outgoing]) seen[c.id] = c.status;
      notes.replaceChildren(...listed.items.map((i) => h("li", { "data-notification": i.id, class: i.read ? "read" : "unread" },
        h("a", { href: i.url, "data-link": true, onclick: () => { if (!i.read) readOne(i.id); } }, notificationText(t, i)),
        i.read ? null : [" ", h("span", { class: "tag" }, t("notification_new"))])));
      if (!listed.items.length) notes.append(h("li", { class: "muted" }, t("notifications_none")));
      if (!named) focusNamed();
    } catch (err) { error.textContent = ui.errorText(err); }
  }

  /** An item followed: read (the badge hears of it from the socket). */
  function readOne(id) {
    api("/api/notifications/read", { method: "POST", body: JSON.stringify({ ids: [id] }) }).catch(() => {});
  }

  /** The challenge a notification's link names (``/?challenge=ID``): its first button takes the focus. */
  function focusNamed() {
    const id = new URLSearchParams(location.search).get("challenge");
    const row = id && node.querySelector(`li[data-challenge="${CSS.escape(id)}"]`);
    const button = row && row.querySelector("button, a");
    if (button) { button.focus(); named = true; }
  }
  let named = false;

  /** A challenge changed (live, or answered here): said once, drawn, and followed to its table. */
  function moved(c) {
    if (closed) return;
    if (seen[c.id] !== c.status) {
      if (c.status === "waiting" && !c.mine) say(t("challenge_arrived", { name: c.from }));
      else if (c.status !== "waiting") status(t("challenge_now", { status: t(ANSWER_KEYS[c.status]) }));
    }
    seen[c.id] = c.status;
    const going = c.status === "accepted" && c.table && (c.mine || c.you === "accepted");
    if (going) { ui.navigate(`/t/${c.table}`); return; }
    draw();
  }

  async function buildForm() {
    let friends = [];
    try { friends = (await api("/api/friends")).friends; } catch { /* none to offer */ }
    const boxes = friends.map((f) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "challenge-friend", value: f.code }), " ", h("bdi", {}, f.name || f.username || t("guest"))));
    const username = h("input", { id: "challenge-username", maxlength: "20", autocomplete: "off", dir: "ltr" });
    const players = h("select", { id: "challenge-players" }, ...[2, 3, 4].map((n) => h("option", { value: String(n) }, String(n))));
    const variants = Object.keys(ui.app.variants || { egyptian: 1 });
    const variant = h("select", { id: "challenge-variant" }, ...variants.map((v) => h("option", { value: v }, ui.variantName ? ui.variantName(v) : v)));
    const level = h("select", { id: "challenge-level" }, ...ui.app.levels.map((l) => h("option", { value: l, selected: l === "medium" }, t(`level_${l}`))));
    const rated = h("input", { type: "checkbox", id: "challenge-rated" });
    const target = h("input", { id: "challenge-target", type: "number", min: "1", max: "1000", inputmode: "numeric" });
    // A live game, or a turn-based one of days a move (the table form's clock: table/clocks.py).
    const pace = h("select", { id: "challenge-pace" }, ...["", "1", "2", "3", "7"].map((p) => h("option", { value: p }, p ? t("clock_days", { n: Number(p) }) : t("pace_live"))));
    const words = h("input", { id: "challenge-text", maxlength: "140", autocomplete: "off" });
    const send = h("button", { type: "button", id: "challenge-send" }, t("challenge_send"));
    send.addEventListener("click", async () => {
      error.textContent = "";
      const to = [...form.querySelectorAll("input[name=challenge-friend]:checked")].map((b) => ({ code: b.value }));
      if (username.value.trim()) to.push({ username: username.value.trim() });
      const body = { to, players: Number(players.value), variant: variant.value, level: level.value, rated: rated.checked, text: words.value };
      if (target.value) body.rules = { target: Number(target.value) };
      if (pace.value) body.clock = { days: Number(pace.value) };
      try {
        const made = await api("/api/challenges", { method: "POST", body: JSON.stringify(body) });
        seen[made.id] = made.status;
        say(t("challenge_sent"));
        draw();
      } catch (err) { error.textContent = ui.errorText(err); }
    });
    form.replaceChildren(
      h("fieldset", { id: "challenge-friends" }, h("legend", {}, t("challenge_who")), ...(boxes.length ? boxes : [h("p", { class: "muted" }, t("friends_none"))])),
      h("p", {}, h("label", { for: "challenge-username" }, t("challenge_username")), " ", username),
      h("p", {}, h("label", { for: "challenge-players" }, t("challenge_players")), " ", players, " ",
        h("label", { for: "challenge-variant" }, t("challenge_variant")), " ", variant),
      h("p", {}, h("label", { for: "challenge-level" }, t("challenge_level")), " ", level, " ",
        h("label", { class: "check" }, rated, " ", t("challenge_rated"))),
      h("p", {}, h("label", { for: "challenge-target" }, t("challenge_target")), " ", target, " ",
        h("label", { for: "challenge-pace" }, t("pace_label")), " ", pace),
      h("p", {}, h("label", { for: "challenge-text" }, t("challenge_words")), " ", words),
      h("p", {}, send));
  }

  node.querySelector("#challenge-new").addEventListener("toggle", (event) => { if (event.target.open && !form.childElementCount) buildForm(); });
  markAll.addEventListener("click", async () => {
    try { await api("/api/notifications/read", { method: "POST", body: JSON.stringify({ all: true }) }); status(t("notifications_all_read")); draw(); } catch (err) { error.textContent = ui.errorText(err); }
  });
  const heard = (event) => {
    const message = event.detail;
    if (message.type === "challenge") moved(message.challenge);
    else if (message.type === "notification") draw();
    else if (message.type === "challenge_failed") error.textContent = t("challenge_failed");
  };
  window.addEventListener("basra:socket", heard);
  draw();
  return { node, close() { closed = true; window.removeEventListener("basra:socket", heard); } };
}

/** A one-tap challenge (two seats, the table's defaults) for a person named as the friends
 * module names them (``{ code }``, ``{ username }`` or ``{ table, seat }``). */
export async function challengeOne(ui, target) {
  const made = await ui.api("/api/challenges", { method: "POST", body: JSON.stringify({ to: [target] }) });
  say(ui.t("challenge_sent"));
  return made;
}
