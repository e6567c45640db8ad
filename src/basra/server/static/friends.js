// Friends (/api/friends): the home page's list of friends with their presence, the
// follow-me link a person shares (with its QR code when the server makes one), the
// "hide my presence" switch, a shared link's "Follow" offer, and the follow and block
// buttons of a profile. While the home page is open it holds WS /ws/friends (a person
// is present while they hold a socket: at a table, or here) and asks for the list again
// every POLL_MS; a friend whose presence changed is said in the polite status region, once.

import { status } from "./announce.js";

const POLL_MS = 10000;
const PING_MS = 25000;

const STATUS_KEYS = { online: "friend_online", playing: "friend_playing", away: "friend_away" };

/** A person as listed: a link to their profile when they have one, else their name. */
function personName(ui, person) {
  const { h, t } = ui;
  const name = h("bdi", {}, person.name || person.username || t("guest"));
  return person.username
    ? h("a", { href: `/u/${encodeURIComponent(person.username)}`, "data-link": true }, name)
    : name;
}

/** The home page's friends panel: ``{ node, close }`` (close stops asking). */
export function friendsPanel(ui, followCode) {
  const { h, t, api } = ui;
  const list = h("ul", { class: "list", id: "friends-list", "aria-labelledby": "friends-heading" });
  const empty = h("p", { class: "muted", id: "friends-empty", hidden: true }, t("friends_none"));
  const count = h("p", { class: "muted", id: "friends-count", hidden: true });
  const offer = h("div", { id: "follow-offer" });
  const hide = h("input", { type: "checkbox", id: "friends-hidden" });
  const shareBox = h("div", { id: "friends-share" });
  const error = h("p", { class: "error", role: "alert", id: "friends-error" });
  const node = h("section", { class: "panel", id: "friends", "aria-labelledby": "friends-heading" },
    h("h2", { id: "friends-heading" }, t("friends_title")), offer, count, list, empty,
    h("p", {}, h("label", {}, hide, " ", t("friends_hide"))),
    h("details", { id: "friends-link" }, h("summary", {}, t("friends_share")), shareBox), error);
  let timer = null;
  let closed = false;
  let before = null;  // each friend's presence last drawn, by code

  async function draw() {
    let data;
    try { data = await api("/api/friends"); } catch (err) { error.textContent = ui.errorText(err); return; }
    if (closed) return;
    error.textContent = "";
    hide.checked = data.hidden;
    list.replaceChildren(...data.friends.map((friend) => h("li", { "data-friend": friend.code, "data-status": friend.status },
      h("span", {}, personName(ui, friend)),
      h("span", {}, h("span", { class: `tag presence ${friend.status}` }, t(STATUS_KEYS[friend.status])),
        friend.table ? [" ", h("a", { href: `/t/${friend.table}`, "data-link": true, "data-watch": friend.table },
          t("friend_watch", { name: friend.name || friend.username || t("guest") }))] : null))));
    empty.hidden = data.friends.length > 0;
    count.hidden = !data.friends.length;
    count.textContent = t("friends_online_n", { n: data.friends.filter((f) => f.status !== "away").length });
    const now = Object.fromEntries(data.friends.map((f) => [f.code, f.status]));
    if (before) {
      const changed = data.friends.filter((f) => before[f.code] !== f.status);
      if (changed.length) status(changed.map((f) => t("friend_now", { name: f.name || f.username || t("guest"), status: t(STATUS_KEYS[f.status]) })).join(" "));
    }
    before = now;
  }

  async function loop() {
    await draw();
    if (!closed) timer = setTimeout(loop, POLL_MS);
  }

  let presence = null;  // present while the page is open (holdPresence)

  hide.addEventListener("change", async () => {
    try {
      await api("/api/friends/presence", { method: "POST", body: JSON.stringify({ hidden: hide.checked }) });
      status(t(hide.checked ? "friends_hidden_now" : "friends_shown_now"));
    } catch (err) { error.textContent = ui.errorText(err); hide.checked = !hide.checked; }
  });

  node.querySelector("#friends-link").addEventListener("toggle", async (event) => {
    if (!event.target.open || shareBox.childElementCount) return;
    try {
      const link = await api("/api/friends/link");
      const field = h("input", { id: "friends-url", value: link.url, readonly: true, dir: "ltr" });
      const copy = h("button", { type: "button", class: "secondary", id: "friends-copy" }, t("friends_copy"));
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(link.url); status(t("friends_copied")); } catch { field.select(); }
      });
      shareBox.append(h("p", { class: "muted" }, t("friends_share_help")),
        h("p", {}, h("label", { for: "friends-url" }, t("friends_link")), " ", field, " ", copy));
      if (link.qr) {
        shareBox.append(h("img", { id: "friends-qr", class: "qr", width: 160, height: 160, alt: t("friends_qr"),
          src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr)}` }));
      }
    } catch (err) { error.textContent = ui.errorText(err); }
  });

  if (followCode) {
    followButtons(ui, { code: followCode }, { onChange: draw }).then((buttons) => {
      if (buttons && !closed) offer.append(h("div", { class: "panel", id: "follow-link-offer" }, buttons));
    });
  }
  if (ui.app.token) { loop(); presence = holdPresence(ui); } else empty.hidden = false;
  return { node, close() { closed = true; clearTimeout(timer); if (presence) presence.close(); } };
}

/**
 * Hold WS /ws/friends while a page is open (a person is present while they hold a
 * socket: at a table, on the home page, on a club's page): one socket, opened again
 * after a drop (a few seconds on). ``{ close }`` lets it go.
 */
export function holdPresence(ui) {
  let socket = null;
  let pinger = null;
  let closed = false;
  function present(delay = 1000) {
    if (closed || !ui.app.token) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/friends`);
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: "hello", token: ui.app.token }));
      pinger = setInterval(() => { if (socket.readyState === 1) socket.send(JSON.stringify({ type: "ping" })); }, PING_MS);
    };
    // Its messages (notifications, challenges) go to whoever listens: challenges.js.
    socket.onmessage = (event) => window.dispatchEvent(new CustomEvent("basra:socket", { detail: JSON.parse(event.data) }));
    socket.onclose = (event) => {
      clearInterval(pinger);
      if (!closed && event.code !== 4001 && event.code !== 4003) setTimeout(() => present(Math.min(delay * 2, 30000)), delay);
    };
  }
  present();
  return { close() { closed = true; clearInterval(pinger); if (socket) socket.close(); } };
}

/**
 * Follow and block buttons for a person (``{ username }``, ``{ code }`` or ``{ table,
 * seat }``): how the two stand in words, then the buttons; null when there is nobody
 * to follow (oneself, an unknown link). ``onChange`` is told after each press.
 */
export async function followButtons(ui, target, { onChange = null, prefix = "" } = {}) {
  const { h, t, api } = ui;
  let relation;
  try {
    relation = await api("/api/friends/relation", { method: "POST", body: JSON.stringify(target) });
  } catch { return null; }
  const box = h("div", { class: "follow-box", id: `${prefix}follow-box` });
  const said = h("p", { id: `${prefix}follow-status`, role: "status" });
  const buttons = h("div", { class: "actions" });
  const error = h("p", { class: "error", role: "alert", id: `${prefix}follow-error` });
  const name = () => relation.person.name || relation.person.username || t("guest");

  function words() {
    if (relation.blocking) return t("follow_blocking", { name: name() });
    if (relation.friends) return t("follow_friends", { name: name() });
    if (relation.following) return t("follow_following", { name: name() });
    if (relation.follower) return t("follow_follower", { name: name() });
    return "";
  }

  async function act(path, spoken) {
    error.textContent = "";
    try {
      relation = await api(`/api/friends/${path}`, { method: "POST", body: JSON.stringify(target) });
      draw();
      status(spoken());
      if (onChange) onChange();
    } catch (err) { error.textContent = ui.errorText(err); }
  }

  function draw() {
    said.textContent = words();
    const follow = relation.following
      ? h("button", { type: "button", class: "secondary", id: `${prefix}unfollow` }, t("unfollow_name", { name: name() }))
      : h("button", { type: "button", id: `${prefix}follow`, disabled: relation.blocking }, t(relation.follower ? "follow_back_name" : "follow_name", { name: name() }));
    follow.addEventListener("click", () => act(relation.following ? "unfollow" : "follow", words));
    const block = h("button", { type: "button", class: "secondary", id: `${prefix}${relation.blocking ? "unblock" : "block"}` },
      t(relation.blocking ? "unblock_name" : "block_name", { name: name() }));
    block.addEventListener("click", () => act(relation.blocking ? "unblock" : "block", () => words() || t("follow_unblocked", { name: name() })));
    const challenge = h("button", { type: "button", class: "secondary", id: `${prefix}challenge`, disabled: relation.blocking },
      t("challenge_name", { name: name() }));
    challenge.addEventListener("click", async () => {
      error.textContent = "";
      try {
        const { challengeOne } = await import("./challenges.js");
        await challengeOne(ui, target);
      } catch (err) { error.textContent = ui.errorText(err); }
    });
    buttons.replaceChildren(follow, " ", block, " ", challenge);
  }

  draw();
  box.append(said, buttons, error);
  return box;
}

/**
 * A table's "Follow a player" box: closed until asked for, then the follow and block
 * buttons of each person seated there (``seats``: ``[{ seat, name }]``, not oneself).
 */
export function followAtTable(ui, table, seats) {
  const { h, t } = ui;
  if (!seats.length) return null;
  const body = h("div", { id: "follow-seats-list" });
  const details = h("details", { class: "report", id: "follow-seats" }, h("summary", {}, t("follow_players")), body);
  let asked = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || asked) return;
    asked = true;
    for (const s of seats) {
      const box = await followButtons(ui, { table, seat: s.seat }, { prefix: `seat-${s.seat}-` });
      if (box) body.append(box);
    }
  });
  return details;
}
