// Clubs (/api/clubs): the clubs page (/clubs: search, the caller's clubs and the
// invitations waiting for them, the form to make one) and a club's page (/club/SLUG:
// its description, what the caller may do, its members with their rating and, to
// members, their presence, its recent games and events; leaders invite people, accept
// or refuse requests, remove members and edit the club; the owner names leaders and
// hands the club over). Each action draws the page again from the server's answer and
// says what happened in the polite status region (announce.js); errors name their field.

import { status } from "./announce.js";
import { checkFields, clearMarks, markField } from "./fields.js";
import { holdPresence } from "./friends.js";
import { dateText } from "./i18n.js";
import { reportForm } from "./report.js";

const STATUS_KEYS = { online: "friend_online", playing: "friend_playing", away: "friend_away" };
const when = (seconds, ui) => dateText(seconds, ui.app.lang, { dateStyle: "medium" });

/** A person as listed: a link to their profile when they have one, else their name. */
function personName(ui, person) {
  const { h, t } = ui;
  const name = h("bdi", {}, person.name || person.username || t("guest"));
  return person.username
    ? h("a", { href: `/u/${encodeURIComponent(person.username)}`, "data-link": true }, name)
    : name;
}

const nameOf = (ui, person) => person.name || person.username || ui.t("guest");

/** A club in a list: its link, its members and whether anyone may join. */
function clubItem(ui, club) {
  const { h, t } = ui;
  return h("li", { "data-club": club.slug },
    h("a", { href: `/club/${club.slug}`, "data-link": true }, h("bdi", {}, club.name)),
    h("span", { class: "muted" }, " · ", t("club_members_n", { n: club.members }), " · ",
      t(club.open ? "club_open" : "club_by_invitation"),
      club.role ? [" · ", t(`club_role_${club.role}`)] : null));
}

/** /clubs: search, the caller's clubs and invitations, and the form to make a club. */
export function clubsPage(root, ui) {
  const { h, t, api } = ui;
  const page = h("div", { class: "page", id: "clubs-page" });
  root.append(page);
  page.append(h("h1", {}, t("clubs_title")));

  const query = h("input", { type: "search", id: "clubs-q", maxlength: 64 });
  const found = h("ul", { class: "list", id: "clubs-list", "aria-labelledby": "clubs-found-heading" });
  const none = h("p", { class: "muted", id: "clubs-none", hidden: true }, t("clubs_none"));
  const searchError = h("p", { class: "error", role: "alert", id: "clubs-search-error" });
  const search = h("form", { role: "search", id: "clubs-search", "aria-label": t("clubs_search") },
    h("label", { for: "clubs-q" }, t("clubs_search")), " ", query, " ",
    h("button", { type: "submit", class: "secondary" }, t("clubs_search_go")));
  async function list() {
    try {
      const data = await api(`/api/clubs?q=${encodeURIComponent(query.value)}`);
      found.replaceChildren(...data.clubs.map((club) => clubItem(ui, club)));
      none.hidden = data.clubs.length > 0;
      searchError.textContent = "";
      return data.clubs.length;
    } catch (err) { searchError.textContent = ui.errorText(err); return 0; }
  }
  search.addEventListener("submit", async (event) => {
    event.preventDefault();
    const count = await list();
    status(t("clubs_found_n", { n: count }));
  });
  page.append(h("section", { class: "panel", id: "clubs-found", "aria-labelledby": "clubs-found-heading" },
    h("h2", { id: "clubs-found-heading" }, t("clubs_all")), search, found, none, searchError));

  page.append(weeklyBoard(ui));
  if (ui.app.token) {
    const mine = h("ul", { class: "list", id: "clubs-mine-list", "aria-labelledby": "clubs-mine-heading" });
    const invited = h("ul", { class: "list", id: "clubs-invited", "aria-label": t("clubs_invited") });
    const mineEmpty = h("p", { class: "muted", id: "clubs-mine-none", hidden: true }, t("clubs_mine_none"));
    page.append(h("section", { class: "panel", id: "clubs-mine", "aria-labelledby": "clubs-mine-heading" },
      h("h2", { id: "clubs-mine-heading" }, t("clubs_mine")), mine, mineEmpty, invited));
    api("/api/clubs/mine").then((data) => {
      mine.replaceChildren(...data.clubs.map((club) => clubItem(ui, club)));
      mineEmpty.hidden = data.clubs.length > 0;
      invited.replaceChildren(...data.invited.map((club) => h("li", {},
        t("clubs_invited_to"), " ", h("a", { href: `/club/${club.slug}`, "data-link": true }, h("bdi", {}, club.name)))));
    }, () => {});
    page.append(makeForm(ui));
  }
  list();
  return { close() {} };
}

/** The form to make a club; a made club's page is opened. */
function makeForm(ui) {
  const { h, t, api } = ui;
  const name = h("input", { id: "club-name", required: true, minlength: 2, maxlength: 40, autocomplete: "off" });
  const description = h("textarea", { id: "club-description", rows: 3, maxlength: 500 });
  const open = h("input", { type: "checkbox", id: "club-open", checked: true });
  const error = h("p", { class: "error", role: "alert", id: "club-make-error" });
  const send = h("button", { type: "submit", id: "club-make" }, t("club_make"));
  const form = h("form", { id: "club-make-form", novalidate: true },
    h("p", {}, h("label", { for: "club-name" }, t("club_name")), " ", name),
    h("p", {}, h("label", { for: "club-description" }, t("club_description")), " ", description),
    h("p", {}, h("label", {}, open, " ", t("club_anyone_joins"))), send, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkFields(form, error, t)) return;
    send.disabled = true;
    try {
      const club = await api("/api/clubs", { method: "POST", body: JSON.stringify({ name: name.value, description: description.value, open: open.checked }) });
      status(t("club_made", { name: club.name }));
      ui.navigate(`/club/${club.slug}`);
    } catch (err) {
      const field = { name, description, open }[err.field] || name;
      markField(field, ui.errorText(err), error);
    } finally { send.disabled = false; }
  });
  return h("section", { class: "panel", id: "clubs-make", "aria-labelledby": "clubs-make-heading" },
    h("h2", { id: "clubs-make-heading" }, t("clubs_make")), form);
}

/** /club/SLUG: the club's page (see the module's comment). */
export function clubPage(root, ui, slug) {
  const { h, t, api } = ui;
  const page = h("div", { class: "page", id: "club-page" });
  root.append(page);
  let closed = false;

  async function act(path, body, said) {
    try {
      const answer = await api(`/api/clubs/${slug}/${path}`, { method: "POST", body: JSON.stringify(body || {}) });
      if (said) status(said);
      await draw(answer.member_list ? answer : null, true);
      return true;
    } catch (err) {
      const error = page.querySelector("#club-error");
      if (error) error.textContent = ui.errorText(err);
      return false;
    }
  }

  async function draw(given = null, keepFocus = false) {
    let data = given;
    if (!data) {
      try { data = await api(`/api/clubs/${slug}`); } catch (err) {
        page.replaceChildren(h("h1", {}, t("club_not_found")), h("p", { class: "panel error", id: "club-error" }, ui.errorText(err)));
        return;
      }
    }
    if (closed) return;
    const focused = keepFocus && document.activeElement && document.activeElement.id;
    const you = data.you;
    const leader = you.role === "owner" || you.role === "leader";
    const owner = you.role === "owner";
    const parts = [
      h("h1", {}, h("bdi", { id: "club-title" }, data.name)),
      h("p", { class: "muted", id: "club-facts" }, t("club_members_n", { n: data.members }), " · ",
        t(data.open ? "club_open" : "club_by_invitation"), " · ", t("club_since", { when: when(data.made_at, ui) })),
    ];
    if (data.description) parts.push(h("p", { id: "club-about" }, h("bdi", {}, data.description)));
    const error = h("p", { class: "error", role: "alert", id: "club-error" });

    // What the caller may do.
    const actions = h("p", { id: "club-actions" });
    const button = (id, key, onClick, secondary = false) => {
      const b = h("button", { type: "button", id, class: secondary ? "secondary" : null }, t(key));
      b.addEventListener("click", onClick);
      return b;
    };
    if (!ui.app.token) actions.append(t("club_sign_in"));
    else if (you.role) {
      const table = button("club-table", "club_table", async () => {
        // A two-person table only the club's members may sit at: the caller in seat 0.
        const body = { name: ui.app.name || t("guest"), club: slug, seats: [{ kind: "person" }, { kind: "person" }] };
        try {
          const made = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
          ui.navigate(made.url);
        } catch (err) { error.textContent = ui.errorText(err); }
      }, true);
      actions.append(h("span", { id: "club-your-role" }, t(`club_role_${you.role}`)), " ", table, " ",
        button("club-leave", "club_leave", () => act("leave", {}, t("club_left", { name: data.name })), true));
    } else if (you.invited) {
      actions.append(t("club_invited"), " ", button("club-accept", "club_accept", () => act("join", {}, t("club_joined", { name: data.name }))),
        " ", button("club-decline", "club_decline", () => act("decline", {}, t("club_declined")), true));
    } else if (you.requested) {
      actions.append(t("club_requested"), " ", button("club-withdraw", "club_withdraw", () => act("decline", {}, t("club_withdrawn")), true));
    } else {
      actions.append(data.open
        ? button("club-join", "club_join", () => act("join", {}, t("club_joined", { name: data.name })))
        : button("club-ask", "club_ask", () => act("join", {}, t("club_asked"))));
    }
    parts.push(actions, error);

    // Members.
    const members = h("table", { class: "sheet", id: "club-members" },
      h("caption", { class: "sr-only" }, t("club_members")),
      h("thead", {}, h("tr", {}, h("th", {}, t("club_col_member")), h("th", {}, t("club_col_role")),
        h("th", { class: "num" }, t("col_rating")), you.role ? h("th", {}, t("club_col_presence")) : null,
        leader ? h("th", {}, t("club_col_actions")) : null)),
      h("tbody", {}, data.member_list.map((m) => {
        const tools = [];
        const target = { code: m.code };
        const them = nameOf(ui, m);
        if (leader && m.role !== "owner" && (owner || m.role === "member")) {
          tools.push(button(`club-remove-${m.code}`, "club_remove", () => act("remove", target, t("club_removed", { name: them })), true));
        }
        if (owner && m.role !== "owner") {
          const next = m.role === "leader" ? "member" : "leader";
          tools.push(" ", button(`club-role-${m.code}`, next === "leader" ? "club_make_leader" : "club_make_member",
            () => act("role", { ...target, role: next }, t(`club_now_${next}`, { name: them })), true));
          tools.push(" ", button(`club-hand-${m.code}`, "club_hand_over", () => {
            if (window.confirm(t("club_hand_over_sure", { name: them }))) act("hand-over", target, t("club_handed", { name: them }));
          }, true));
        }
        for (const b of tools) if (b.setAttribute) b.setAttribute("aria-label", `${b.textContent}: ${them}`);
        return h("tr", { "data-member": m.code, "data-role": m.role },
          h("td", {}, personName(ui, m)), h("td", {}, t(`club_role_${m.role}`)),
          h("td", { class: "num" }, m.rating ? h("bdi", { dir: "ltr" }, ui.n(Math.round(m.rating.ordinal))) : "–"),
          you.role ? h("td", {}, h("span", { class: `tag presence ${m.status}` }, t(STATUS_KEYS[m.status] || "friend_away")),
            m.table ? [" ", h("a", { href: `/t/${m.table}`, "data-link": true }, t("friend_watch", { name: them }))] : null) : null,
          leader ? h("td", {}, tools) : null);
      })));
    parts.push(h("section", { class: "panel", id: "club-members-panel", "aria-labelledby": "club-members-heading" },
      h("h2", { id: "club-members-heading" }, t("club_members")), h("div", { class: "sheet-scroll" }, members)));

    // Leaders: invitations, requests, the club's settings.
    if (leader) {
      const who = h("input", { id: "club-invite-who", required: true, maxlength: 64, autocomplete: "off" });
      const inviteError = h("p", { class: "error", role: "alert", id: "club-invite-error" });
      const invite = h("form", { id: "club-invite-form", novalidate: true },
        h("label", { for: "club-invite-who" }, t("club_invite_who")), " ", who, " ",
        h("button", { type: "submit", class: "secondary", id: "club-invite" }, t("club_invite")), inviteError);
      invite.addEventListener("submit", async (event) => {
        event.preventDefault();
        if (!checkFields(invite, inviteError, t)) return;
        try {
          const answer = await api(`/api/clubs/${slug}/invite`, { method: "POST", body: JSON.stringify({ username: who.value.trim().replace(/^@/, "") }) });
          status(t("club_invited_now", { name: who.value }));
          await draw(answer, true);
        } catch (err) { markField(who, ui.errorText(err), inviteError); }
      });
      const requests = h("ul", { class: "list", id: "club-requests", "aria-labelledby": "club-requests-heading" },
        data.requests.map((p) => h("li", { "data-request": p.code }, personName(ui, p), " ",
          h("span", {}, button(`club-admit-${p.code}`, "club_admit", () => act("invite", { code: p.code }, t("club_admitted", { name: nameOf(ui, p) }))), " ",
            button(`club-refuse-${p.code}`, "club_refuse", () => act("remove", { code: p.code }, t("club_refused", { name: nameOf(ui, p) })), true)))));
      const invites = h("ul", { class: "list", id: "club-invites" },
        data.invites.map((p) => h("li", { "data-invite": p.code }, personName(ui, p), " ",
          button(`club-uninvite-${p.code}`, "club_uninvite", () => act("remove", { code: p.code }, t("club_uninvited", { name: nameOf(ui, p) })), true))));
      const about = h("textarea", { id: "club-edit-description", rows: 3, maxlength: 500 });
      about.value = data.description;
      const openBox = h("input", { type: "checkbox", id: "club-edit-open", checked: data.open });
      const editError = h("p", { class: "error", role: "alert", id: "club-edit-error" });
      const edit = h("form", { id: "club-edit-form", novalidate: true },
        h("p", {}, h("label", { for: "club-edit-description" }, t("club_description")), " ", about),
        h("p", {}, h("label", {}, openBox, " ", t("club_anyone_joins"))),
        h("button", { type: "submit", class: "secondary", id: "club-save" }, t("club_save")), editError);
      edit.addEventListener("submit", async (event) => {
        event.preventDefault();
        clearMarks(edit, editError);
        try {
          const answer = await api(`/api/clubs/${slug}/edit`, { method: "POST", body: JSON.stringify({ description: about.value, open: openBox.checked }) });
          status(t("club_saved"));
          await draw(answer, true);
        } catch (err) { markField(err.field === "open" ? openBox : about, ui.errorText(err), editError); }
      });
      parts.push(h("section", { class: "panel", id: "club-leaders", "aria-labelledby": "club-leaders-heading" },
        h("h2", { id: "club-leaders-heading" }, t("club_leading")), invite,
        h("h3", { id: "club-requests-heading" }, t("club_requests")), data.requests.length ? requests : h("p", { class: "muted" }, t("club_requests_none")),
        data.invites.length ? [h("h3", {}, t("club_invites")), invites] : null,
        h("details", { id: "club-settings" }, h("summary", {}, t("club_settings")), edit)));
    }

    // Recent games and events.
    const games = h("ul", { class: "list", id: "club-games", "aria-labelledby": "club-games-heading" },
      data.games.map((g) => h("li", { "data-game": g.id },
        h("a", { href: `/replay/${g.id}`, "data-link": true }, ui.variantName(g.variant)), " ",
        h("span", { class: "muted" }, g.members.map((m) => nameOf(ui, m)).join(", "), " · ", when(g.ended_at, ui)))));
    parts.push(h("section", { class: "panel", id: "club-games-panel", "aria-labelledby": "club-games-heading" },
      h("h2", { id: "club-games-heading" }, t("club_games")), data.games.length ? games : h("p", { class: "muted" }, t("club_games_none"))));
    const eventsPanel = h("section", { class: "panel", id: "club-events", "aria-labelledby": "club-events-heading" },
      h("h2", { id: "club-events-heading" }, t("club_events")),
      data.events.length ? h("ul", { class: "list", id: "club-events-list" }, data.events.map((e) => h("li", { "data-event": e.id },
        e.url ? h("a", { href: e.url, "data-link": true }, h("bdi", {}, e.name)) : h("bdi", {}, e.name),
        h("span", { class: "muted" }, " · ", t(e.kind === "battle" ? "club_event_battle" : "club_event_club"), " · ", t(`tour_status_${e.status}`)))))
        : h("p", { class: "muted" }, t("club_events_none")));
    if (leader) eventsPanel.append(eventForm(ui, slug));
    parts.push(eventsPanel);
    const battles = data.events.filter((e) => e.kind === "battle").slice(0, 3);
    for (const e of battles) {
      const box = h("section", { class: "panel", "data-battle": e.id, "aria-label": e.name });
      parts.push(box);
      api(`/api/clubs/battles/${e.id}`).then((battle) => {
        box.replaceChildren(h("h2", {}, t("battle_title_of", { name: e.name })), ...battleNodes(ui, battle, "h2"));
      }, () => box.remove());
    }
    if (ui.app.token) {
      const report = reportForm(ui, { club: slug });
      if (report) parts.push(report);
    }
    page.replaceChildren(...parts);
    if (focused) {
      const again = document.getElementById(focused);
      (again || page.querySelector("#club-actions button, h1")).focus?.();
    }
  }

  draw();
  const presence = ui.app.token ? holdPresence(ui) : null;  // present to the other members
  return { close() { closed = true; if (presence) presence.close(); } };
}

/** The leaders' form to make a club event: a club-only arena, or a battle with other clubs. */
function eventForm(ui, slug) {
  const { h, t, api } = ui;
  const name = h("input", { id: "club-event-name", required: true, maxlength: 80, autocomplete: "off" });
  const minutes = h("input", { id: "club-event-minutes", type: "number", min: 5, max: 1440, value: 30, required: true });
  const starts = h("input", { id: "club-event-starts", type: "number", min: 0, max: 10080, step: "any", value: 10, required: true });
  const others = h("input", { id: "club-event-clubs", maxlength: 400, autocomplete: "off", "aria-describedby": "club-event-clubs-help" });
  const best = h("input", { id: "club-event-best", type: "number", min: 1, max: 20, value: 3, required: true });
  const error = h("p", { class: "error", role: "alert", id: "club-event-error" });
  const form = h("form", { id: "club-event-form", novalidate: true },
    h("p", {}, h("label", { for: "club-event-name" }, t("club_event_name")), " ", name),
    h("p", {}, h("label", { for: "club-event-minutes" }, t("club_event_minutes")), " ", minutes),
    h("p", {}, h("label", { for: "club-event-starts" }, t("club_event_starts")), " ", starts),
    h("p", {}, h("label", { for: "club-event-clubs" }, t("club_event_clubs")), " ", others,
      h("small", { class: "muted", id: "club-event-clubs-help" }, " ", t("club_event_clubs_help"))),
    h("p", {}, h("label", { for: "club-event-best" }, t("club_event_best")), " ", best),
    h("button", { type: "submit", class: "secondary", id: "club-event-make" }, t("club_event_make")), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!checkFields(form, error, t)) return;
    const clubs = others.value.split(/[\s,]+/).map((c) => c.replace(/^.*\/club\//, "").trim()).filter(Boolean);
    const body = { name: name.value, format: "arena", minutes: Number(minutes.value), starts_at: Date.now() / 1000 + 60 * Number(starts.value) };
    if (clubs.length) body.battle = { clubs, best: Number(best.value) };
    try {
      const made = await api(`/api/clubs/${slug}/events`, { method: "POST", body: JSON.stringify(body) });
      status(t("club_event_made", { name: name.value }));
      ui.navigate(`/tournaments/${made.id}?invite=${encodeURIComponent(made.invite)}`);
    } catch (err) {
      const field = { name, minutes, starts_at: starts, clubs: others, best }[err.field] || name;
      markField(field, ui.errorText(err), error);
    }
  });
  return h("details", { id: "club-event-details" }, h("summary", {}, t("club_event_new")), form);
}

/** A profile's clubs (``/api/clubs/of/USERNAME``): a panel, or null without any. */
export async function profileClubs(ui, username) {
  const { h, t } = ui;
  let data;
  try { data = await ui.api(`/api/clubs/of/${encodeURIComponent(username)}`); } catch { return null; }
  if (!data.clubs.length) return null;
  return h("section", { class: "panel", id: "profile-clubs", "aria-labelledby": "profile-clubs-heading" },
    h("h2", { id: "profile-clubs-heading" }, t("clubs_title")),
    h("ul", { class: "list" }, data.clubs.map((club) => clubItem(ui, club))));
}

/** A club battle's standings: per club (score, its players, those counted marked) and per player. */
export function battleNodes(ui, battle, headingLevel = "h2") {
  const { h, t, n } = ui;
  const sub = headingLevel === "h2" ? "h3" : "h4";
  const clubs = h("table", { class: "sheet", id: `battle-clubs-${battle.event}` },
    h("caption", {}, t("battle_clubs_caption", { n: battle.best })),
    h("thead", {}, h("tr", {}, h("th", { class: "num" }, t("battle_col_rank")), h("th", {}, t("battle_col_club")),
      h("th", { class: "num" }, t("battle_col_score")), h("th", {}, t("battle_col_players")))),
    h("tbody", {}, battle.clubs.map((c) => h("tr", { "data-club": c.slug },
      h("td", { class: "num" }, n(c.rank)),
      h("td", {}, h("a", { href: `/club/${c.slug}`, "data-link": true }, h("bdi", {}, c.name))),
      h("td", { class: "num battle-score" }, n(c.score)),
      h("td", {}, c.players.map((p, i) => [i ? ", " : "", h("bdi", {}, p.name), " ", n(p.points),
        p.counted ? h("span", { class: "sr-only" }, ` (${t("battle_counted")})`) : null, p.counted ? "*" : ""]))))));
  const names = Object.fromEntries(battle.clubs.map((c) => [c.slug, c.name]));
  const players = h("table", { class: "sheet", id: `battle-players-${battle.event}` },
    h("caption", {}, t("battle_players_caption")),
    h("thead", {}, h("tr", {}, h("th", {}, t("battle_col_player")), h("th", {}, t("battle_col_club")), h("th", { class: "num" }, t("battle_col_points")))),
    h("tbody", {}, battle.players.map((p) => h("tr", {},
      h("td", {}, h("bdi", {}, p.name)), h("td", {}, h("bdi", {}, names[p.club] || p.club)), h("td", { class: "num" }, n(p.points))))));
  return [h(sub, {}, t("battle_standings")), h("p", { class: "muted" }, t("battle_counted_help", { n: battle.best })),
    h("div", { class: "sheet-scroll" }, clubs), h("div", { class: "sheet-scroll" }, players)];
}

/**
 * An event page's club battle panel, drawn into ``box`` when the event is a battle
 * (nothing otherwise); the function it returns asks again (at most every 2 seconds).
 */
export function battleInto(ui, eventId, box) {
  const { h, t } = ui;
  let last = 0;
  let pending = null;
  async function draw() {
    let battle;
    try { battle = await ui.api(`/api/clubs/battles/${encodeURIComponent(eventId)}`); } catch { return false; }
    box.replaceChildren(h("section", { class: "panel", id: "club-battle", "aria-labelledby": "club-battle-heading" },
      h("h2", { id: "club-battle-heading" }, t("battle_title")), ...battleNodes(ui, battle, "h2").slice(1)));
    return true;
  }
  draw();
  return () => {
    const wait = Math.max(0, 2000 - (Date.now() - last));
    if (pending) return;
    pending = setTimeout(() => { pending = null; last = Date.now(); draw(); }, wait);
  };
}

/** The /clubs page's weekly leaderboard. */
function weeklyBoard(ui) {
  const { h, t, n } = ui;
  const body = h("tbody", {});
  const empty = h("p", { class: "muted", id: "clubs-weekly-none", hidden: true }, t("clubs_weekly_none"));
  const table = h("table", { class: "sheet", id: "clubs-weekly" },
    h("caption", { class: "sr-only" }, t("clubs_weekly")),
    h("thead", {}, h("tr", {}, h("th", { class: "num" }, t("battle_col_rank")), h("th", {}, t("battle_col_club")),
      h("th", { class: "num" }, t("clubs_col_battle")), h("th", { class: "num" }, t("clubs_col_wins")),
      h("th", { class: "num" }, t("battle_col_points")))), body);
  const section = h("section", { class: "panel", id: "clubs-weekly-panel", "aria-labelledby": "clubs-weekly-heading" },
    h("h2", { id: "clubs-weekly-heading" }, t("clubs_weekly")), h("p", { class: "muted" }, t("clubs_weekly_help")),
    h("div", { class: "sheet-scroll" }, table), empty);
  ui.api("/api/clubs/weekly").then((board) => {
    body.replaceChildren(...board.clubs.slice(0, 20).map((c, i) => h("tr", { "data-club": c.slug },
      h("td", { class: "num" }, n(i + 1)),
      h("td", {}, h("a", { href: `/club/${c.slug}`, "data-link": true }, h("bdi", {}, c.name))),
      h("td", { class: "num" }, n(c.battle_points)), h("td", { class: "num" }, n(c.rated_wins)),
      h("td", { class: "num" }, n(c.points)))));
    empty.hidden = board.clubs.length > 0;
    table.hidden = !board.clubs.length;
  }, () => { empty.hidden = false; table.hidden = true; });
  return section;
}
