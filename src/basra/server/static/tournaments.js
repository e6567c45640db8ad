// Tournaments: the list (/tournaments, and a short panel on the home page), an
// event's page (/tournaments/{id}) and the forms to make, enter and leave one.
// An event's page draws GET /api/tournaments/{id}'s JSON, then keeps it live over
// WS /ws/tournaments/{id} (each change sends the whole event again, and "you", the
// watcher's part). Nothing here holds a card: the server's JSON has none, and a
// duplicate deal's results arrive only once every table has played it.
// A screen reader hears the event's changes in the polite status region (the
// leader), and its own pairing in the assertive one (announce.js).
// Names are the page's language's where the server sends what they are: a
// scheduled event's name (its "names" by language), the server's bots (an
// entrant's "bots": named as the event's tables name them, names.js).

import { say, status } from "./announce.js";
import { checkFields, clearMarks, markField } from "./fields.js";
import { dateText } from "./i18n.js";
import { entrantName, eventName } from "./names.js";

const FORMATS = ["arena", "swiss", "duplicate"];
const LEVELS = ["easy", "medium", "hard", "expert"];
const PAIRING_ROUNDS = 6;  // an arena pairs often: its page shows the newest few rounds

const when = (seconds, ui) => dateText(seconds, ui.app.lang, { dateStyle: "medium", timeStyle: "short" });

/** What an event is, in a line: format, game, length, table size, rated or not. */
function facts(event, ui) {
  const { t, n } = ui;
  const out = [t(`tour_format_${event.format}`), ui.variantName(event.variant)];
  if (event.minutes) out.push(t("tour_minutes_n", { n: n(event.minutes) }));
  if (event.rounds) out.push(t("tour_rounds", { n: event.rounds }));
  if (event.seats && event.seats !== 2) out.push(t("tour_seats_n", { n: n(event.seats) }));
  if (event.teams) out.push(t("tour_teams"));
  out.push(t(event.rated ? "tour_rated" : "tour_unrated"));
  if (!event.public) out.push(t("tour_private"));
  return out.join(" · ");
}

function timeLine(event, ui) {
  const { t } = ui;
  if (event.status === "created") return t("tour_starts", { when: when(event.starts_at, ui) });
  if (event.status === "running") return t("tour_started", { when: when(event.started_at || event.starts_at, ui) });
  const ended = event.ended === "cancelled" ? "tour_cancelled" : "tour_ended";
  return t(ended, { when: when(event.finished_at || event.ends_at || event.starts_at, ui) });
}

function eventItem(event, ui) {
  const { h, t, n, bdi } = ui;
  return h("li", { "data-event": event.id },
    h("span", {}, h("a", { href: event.url, "data-link": true }, bdi(eventName(event, ui.app.lang))), " ",
      h("span", { class: "muted" }, facts(event, ui))),
    h("span", { class: "muted" }, timeLine(event, ui),
      event.entrants != null ? ` · ${t("tour_entrants_n", { n: n(event.entrants) })}` : ""));
}

function eventList(id, title, events, ui) {
  const { h, t } = ui;
  return h("section", { class: "panel", id, "aria-labelledby": `${id}-heading` },
    h("h2", { id: `${id}-heading` }, title),
    events.length ? h("ul", { class: "list" }, events.map((e) => eventItem(e, ui))) : h("p", { class: "muted" }, t("tour_none")));
}

/** The home page's panel: events running now and the next to start, with a link to all. */
export function tournamentsPanel(ui) {
  const { h, t, api } = ui;
  const panel = h("section", { class: "panel", id: "home-tournaments", "aria-labelledby": "home-tournaments-heading" },
    h("h2", { id: "home-tournaments-heading" }, t("tour_home")));
  api("/api/tournaments").then((all) => {
    const shown = [...all.running, ...all.upcoming].slice(0, 5);
    if (shown.length) panel.append(h("ul", { class: "list" }, shown.map((e) => eventItem(e, ui))));
    else panel.append(h("p", { class: "muted" }, t("tour_none")));
    panel.append(h("p", {}, h("a", { href: "/tournaments", "data-link": true, id: "all-tournaments" }, t("tour_all"))));
  }, () => { panel.hidden = true; });
  return panel;
}

/** /tournaments and /tournaments/{id}: the page object (its ``close`` ends the live socket). */
export function tournamentsPage(root, ui, eventId) {
  const page = { closed: false, socket: null, close() { this.closed = true; if (this.socket) this.socket.close(); } };
  if (eventId) eventPage(root, ui, eventId, page); else listPage(root, ui, page);
  return page;
}

// ------------------------------------------------------------------ the list

async function listPage(root, ui, page) {
  const { h, t, api } = ui;
  document.title = `${t("tour_title")} · ${t("app_name")}`;
  const node = h("div", { class: "page", id: "tournaments-page" }, h("h1", {}, t("tour_title")), h("p", { class: "muted" }, t("tour_help")));
  root.append(node);
  let all, me = null;
  try {
    [all, me] = await Promise.all([api("/api/tournaments"), (ui.app.token ? api("/api/identity") : Promise.resolve(null)).catch(() => null)]);
  } catch (err) { node.append(h("p", { class: "panel error" }, ui.errorText(err))); return; }
  if (page.closed) return;
  if (all.mine.length) node.append(eventList("tour-mine", t("tour_mine"), all.mine, ui));
  node.append(eventList("tour-running", t("tour_running"), all.running, ui),
    eventList("tour-upcoming", t("tour_upcoming"), all.upcoming, ui),
    eventList("tour-finished", t("tour_finished"), all.finished, ui));
  node.append(await createPanel(ui, me && me.username ? me : null));
}

/** The form to make an event (an account holder's); others see how to become one. */
async function createPanel(ui, account) {
  const { h, t, n, api } = ui;
  const panel = h("section", { class: "panel", id: "tour-new", "aria-labelledby": "tour-new-heading" }, h("h2", { id: "tour-new-heading" }, t("tour_new")));
  if (!account) {
    panel.append(h("p", { class: "muted" }, t("tour_new_account"), " ", h("a", { href: "/account", "data-link": true }, t("tour_account_link"))));
    return panel;
  }
  const all = await ui.variants();
  const error = h("p", { class: "error", role: "alert", id: "tour-new-error" });
  const field = (id, label, control) => h("p", { class: "field" }, h("label", { for: id }, label), " ", control);
  const number = (id, value, min, max) => h("input", { id, type: "number", value: String(value), min: String(min), max: String(max), required: true, inputmode: "numeric", size: "5" });
  const name = h("input", { id: "tour-name", required: true, maxlength: "60", size: "28", autocomplete: "off" });
  const format = h("select", { id: "tour-format", onchange: () => showLength() }, FORMATS.map((f) => h("option", { value: f }, t(`tour_format_${f}`))));
  const variant = h("select", { id: "tour-variant" }, Object.keys(all).map((v) => h("option", { value: v, selected: v === "egyptian" }, ui.variantName(v))));
  const minutes = number("tour-minutes", 30, 5, 360);
  const rounds = number("tour-rounds", 5, 1, 20);
  const boards = number("tour-boards", 2, 1, 8);
  const target = number("tour-target", 101, 1, 500);
  const move = number("tour-move", 30, 5, 300);
  const maxEntrants = number("tour-max", 32, 2, 512);
  const startsIn = number("tour-starts-in", 5, 0, 10080);
  const publicBox = h("input", { type: "checkbox", id: "tour-public", checked: true });
  const ratedBox = h("input", { type: "checkbox", id: "tour-rated", checked: true });
  const botsBox = h("input", { type: "checkbox", id: "tour-bots" });
  const talkBox = h("input", { type: "checkbox", id: "tour-talk" });  // table talk at rated games (talk.js)
  const minutesField = field("tour-minutes", t("tour_length_minutes"), minutes);
  const roundsField = field("tour-rounds", t("tour_rounds"), rounds);
  const boardsField = field("tour-boards", t("tour_boards"), boards);
  function showLength() {
    // An arena lasts minutes; a Swiss and a duplicate event a number of rounds.
    const arena = format.value === "arena";
    minutesField.hidden = !arena; minutes.disabled = !arena;
    roundsField.hidden = arena; rounds.disabled = arena;
    boardsField.hidden = format.value !== "duplicate"; boards.disabled = format.value !== "duplicate";
  }
  const form = h("form", { id: "tour-form", novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    if (!checkFields(form, error, t)) return;
    const body = {
      name: name.value, format: format.value, variant: variant.value,
      rules: { target: Number(target.value) }, clock: { move: Number(move.value), reserve: Number(move.value) * 4 },
      max_entrants: Number(maxEntrants.value), starts_at: Date.now() / 1000 + 60 * Number(startsIn.value),
      public: publicBox.checked, rated: ratedBox.checked, bots: botsBox.checked,
    };
    if (talkBox.checked) body.talk = true;
    if (format.value === "arena") body.minutes = Number(minutes.value); else body.rounds = Number(rounds.value);
    if (format.value === "duplicate") body.boards = Number(boards.value);
    try {
      const made = await api("/api/tournaments", { method: "POST", body: JSON.stringify(body) });
      ui.toast(t("tour_created"));
      ui.navigate(made.url + (made.invite ? `?invite=${encodeURIComponent(made.invite)}` : ""));
    } catch (err) {
      const byField = { name, format, variant, rules: target, target, clock: move, move, max_entrants: maxEntrants, starts_at: startsIn, minutes, rounds, boards };
      if (err.field && byField[err.field]) markField(byField[err.field], ui.errorText(err), error); else { clearMarks(form, error); error.textContent = ui.errorText(err); }
    }
  } },
  field("tour-name", t("tour_name"), name), field("tour-format", t("tour_format"), format), field("tour-variant", t("tour_variant"), variant),
  minutesField, roundsField, boardsField, field("tour-target", t("tour_target"), target), field("tour-move", t("tour_move_seconds"), move),
  field("tour-max", t("tour_max_entrants"), maxEntrants), field("tour-starts-in", t("tour_starts_in"), startsIn),
  h("p", {}, h("label", {}, publicBox, " ", t("tour_public"))), h("p", {}, h("label", {}, ratedBox, " ", t("tour_rated_box"))),
  h("p", {}, h("label", {}, botsBox, " ", t("tour_bots_box"))),
  h("p", {}, h("label", {}, talkBox, " ", t("tour_talk_box"))),
  h("div", { class: "actions" }, h("button", { type: "submit", id: "tour-create" }, t("tour_create"))), error);
  showLength();
  panel.append(form);
  void n;
  return panel;
}

// ------------------------------------------------------------------ an event

async function eventPage(root, ui, eventId, page) {
  const { h, t, api } = ui;
  const invite = new URLSearchParams(location.search).get("invite");
  const node = h("div", { class: "page", id: "event-page", "data-event": eventId });
  root.append(node);
  const suffix = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let event;
  try { event = await api(`/api/tournaments/${encodeURIComponent(eventId)}${suffix}`); } catch (err) {
    node.append(h("h1", {}, t("tour_title")), h("p", { class: "panel error", id: "event-error" }, ui.errorText(err)),
      h("p", {}, h("a", { href: "/tournaments", "data-link": true }, t("tour_back"))));
    return;
  }
  if (page.closed) return;
  const state = { event, you: event.you, invite: event.invite || invite, leader: null, status: event.status };
  const battleBox = h("div", { id: "club-battle-box" });  // a club battle's standings (clubs.js)
  const draw = () => {
    const focused = document.activeElement && document.activeElement.id;
    node.replaceChildren(...eventNodes(state, ui, { act, addBots }).filter(Boolean), battleBox);
    // A redraw keeps the focus where the person was (the buttons keep their ids).
    const again = focused && document.getElementById(focused);
    if (again && document.activeElement !== again) again.focus({ preventScroll: true });
  };
  const message = h("p", { class: "muted", id: "event-message", role: "status" });
  const error = h("p", { class: "error", role: "alert", id: "event-error" });
  state.message = message; state.error = error;

  async function act(path, body = {}) {
    error.textContent = "";
    try {
      const answer = await api(`/api/tournaments/${encodeURIComponent(eventId)}/${path}`, { method: "POST", body: JSON.stringify(body) });
      const fresh = await api(`/api/tournaments/${encodeURIComponent(eventId)}${state.invite ? `?invite=${encodeURIComponent(state.invite)}` : ""}`);
      state.event = fresh; state.you = fresh.you;
      draw();
      message.textContent = { join: t("tour_joined"), withdraw: state.you.withdrawn && state.event.status === "running" ? t("tour_paused") : t("tour_withdrawn"), come_back: t("tour_back_in") }[path] || "";
      return answer;
    } catch (err) { error.textContent = ui.errorText(err); draw(); return null; }
  }
  async function addBots(level, count) {
    await act("join", { bot: level, count });
    if (!error.textContent) message.textContent = t("tour_bots_added");
  }
  document.title = `${eventName(event, ui.app.lang)} · ${t("app_name")}`;
  draw();
  import("./clubs.js").then(({ battleInto }) => { if (!page.closed) state.battle = battleInto(ui, eventId, battleBox); });
  connect();

  function connect(attempt = 0) {
    if (page.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(eventId)}`);
    page.socket = socket;
    socket.onopen = () => { attempt = 0; socket.send(JSON.stringify({ type: "hello", token: ui.app.token, invite: state.invite })); };
    socket.onmessage = (m) => {
      const data = JSON.parse(m.data);
      if (data.type === "event") {
        state.event = { ...data.event, you: state.you, invite: state.event.invite, now: state.event.now };
        tell(state, ui);
        draw();
        if (state.battle) state.battle();
      } else if (data.type === "you") {
        const before = state.you;
        state.you = { ...state.you, ...data.you };
        if (JSON.stringify(before) !== JSON.stringify(state.you)) draw();
      } else if (data.type === "paired") {
        state.you = { ...state.you, table: data.table };
        say(t("tour_paired_say"));
        draw();
      }
    };
    socket.onclose = () => { if (!page.closed) setTimeout(() => connect(attempt + 1), Math.min(10000, 500 * 2 ** attempt)); };
  }
}

/** Tell a screen reader what changed: a new leader, the end. */
function tell(state, ui) {
  const { t, n } = ui;
  const event = state.event;
  const top = event.standings[0];
  if (event.status === "finished" && state.status !== "finished" && top) {
    status(t("tour_over_say", { name: nameOf(event, top.entrant, ui) }));
  } else if (top && top.games && state.leader !== `${top.entrant}:${top.score}`) {
    status(t("tour_standings_changed", { name: nameOf(event, top.entrant, ui), points: n(top.score) }));
  }
  state.status = event.status;
  if (top) state.leader = `${top.entrant}:${top.score}`;
}

function eventNodes(state, ui, actions) {
  const { h, t } = ui;
  const event = state.event;
  const out = [
    h("p", {}, h("a", { href: "/tournaments", "data-link": true, id: "tour-back" }, t("tour_back"))),
    h("h1", {}, ui.bdi(eventName(event, ui.app.lang))),
    h("p", { class: "muted", id: "event-facts" }, facts(event, ui), " · ", t(`tour_status_${event.status}`), " · ", timeLine(event, ui)),
    youPanel(state, ui, actions),
  ];
  if (event.podium.length) out.push(podium(event, ui));
  out.push(standingsPanel(event, ui), playingPanel(event, ui));
  if (event.format !== "arena" && event.pairings.length) out.push(pairingsPanel(event, ui));
  out.push(finishedPanel(event, ui));
  if (event.board_results && event.board_results.length) out.push(boardsPanel(event, ui));
  out.push(entrantsPanel(event, ui));
  return out;
}

function youPanel(state, ui, { act, addBots }) {
  const { h, t, app } = ui;
  const { event, you } = state;
  const panel = h("section", { class: "panel", id: "event-you", "aria-labelledby": "event-you-heading" },
    h("h2", { id: "event-you-heading", class: "sr-only" }, t("tour_you")));
  const buttons = h("div", { class: "actions" });
  if (you.table && event.status === "running" && !you.withdrawn) {
    panel.append(h("p", {}, h("strong", {}, t("tour_your_game")), " ", h("a", { href: `/t/${you.table}`, "data-link": true, class: "button", id: "event-play" }, t("tour_go_play"))));
  }
  if (you.entrant) {
    panel.append(h("p", { id: "event-entered" }, ui.tn("tour_entered_as", { name: ui.bdi(you.name) }),
      you.withdrawn ? ` (${t(event.status === "running" ? "tour_paused" : "tour_withdrawn")})` : ""));
    if (you.open && !you.withdrawn) buttons.append(h("button", { type: "button", class: "secondary", id: "event-withdraw", onclick: () => act("withdraw") }, t(event.status === "running" ? "tour_pause" : "tour_withdraw")));
    if (you.open && you.withdrawn && event.status === "running") buttons.append(h("button", { type: "button", id: "event-come-back", onclick: () => act("come_back") }, t("tour_come_back")));
  } else if (you.can_join) {
    buttons.append(h("button", { type: "button", id: "event-join", onclick: () => act("join", { ...(app.name ? { name: app.name } : {}), ...(state.invite ? { invite: state.invite } : {}) }) }, t("tour_join")));
  }
  // Nothing to say or do here (an event over, or not one to enter): no empty box.
  if (!panel.children[1] && !buttons.children.length && !(you.organiser && you.open) && !state.error.textContent) return null;
  panel.append(buttons, state.message, state.error);
  if (you.organiser && state.invite) {
    const link = `${location.origin}/tournaments/${event.id}?invite=${encodeURIComponent(state.invite)}`;
    panel.append(h("p", {}, h("label", { for: "event-invite" }, t("tour_invite")), " ", h("input", { id: "event-invite", readonly: true, value: link, size: "40" })));
  }
  if (you.organiser && event.settings && event.settings.bots && you.open) {
    const level = h("select", { id: "event-bot-level" }, LEVELS.map((l) => h("option", { value: l, selected: l === "medium" }, t(`level_${l}`))));
    const count = h("input", { id: "event-bot-count", type: "number", min: "1", max: "64", value: "1", size: "4", inputmode: "numeric" });
    panel.append(h("fieldset", { class: "bot-add" }, h("legend", {}, t("tour_add_bots")),
      h("label", { for: "event-bot-level" }, t("tour_bot_level")), " ", level, " ",
      h("label", { for: "event-bot-count" }, t("tour_bot_count")), " ", count, " ",
      h("button", { type: "button", id: "event-add-bots", class: "secondary", onclick: () => {
        if (!count.checkValidity()) { markField(count, t("err_field_range", { label: t("tour_bot_count"), low: 1, high: 64 }), state.error); return; }
        addBots(level.value, Number(count.value));
      } }, t("tour_add"))));
  }
  return panel;
}

/** A table that scrolls sideways on a narrow screen (a region the keyboard can scroll). */
function scroller(ui, labelledBy, table) {
  const attrs = { class: "sheet sheet-scroll", tabindex: "0", role: "region" };
  if (labelledBy) attrs["aria-labelledby"] = labelledBy;
  return ui.h("div", attrs, table);
}

function section(id, title, ...children) {
  return [id, title, children];
}

function panelOf(ui, [id, title, children]) {
  const { h } = ui;
  return h("section", { class: "panel", id, "aria-labelledby": `${id}-heading` }, h("h2", { id: `${id}-heading` }, title), ...children);
}

function podium(event, ui) {
  const { h, t, n, bdi } = ui;
  return panelOf(ui, section("event-podium", t("tour_podium"),
    h("ol", { class: "list podium" }, event.podium.map((p) => h("li", { "data-rank": p.rank },
      h("strong", {}, t(`tour_place_${p.rank}`)), bdi(nameOf(event, p.entrant, ui)), h("span", {}, t("tour_points", { n: Number(p.score) })))))));
}

function standingsPanel(event, ui) {
  const { h, t, n, bdi } = ui;
  if (!event.standings.length) return panelOf(ui, section("event-standings", t("tour_standings"), h("p", { class: "muted" }, t("tour_no_standings"))));
  const tieBreaks = event.tie_breaks.filter((name) => name !== "reached_at");
  const mine = event.you && event.you.entrant;
  return panelOf(ui, section("event-standings", t("tour_standings"),
    scroller(ui, "event-standings-heading", h("table", { id: "standings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, t("tour_col_rank")), h("th", { scope: "col" }, t("tour_col_name")),
        h("th", { scope: "col", class: "num" }, t("tour_col_score")), h("th", { scope: "col", class: "num" }, t("tour_col_games")),
        tieBreaks.map((name) => h("th", { scope: "col", class: "num" }, t(`tour_tb_${name}`))),
        event.format === "arena" ? h("th", { scope: "col" }, t("tour_col_recent")) : null)),
      h("tbody", {}, event.standings.map((line) => h("tr", { class: line.entrant === mine ? "mine" : "", "data-entrant": line.entrant },
        h("td", { class: "num" }, n(line.rank)),
        h("th", { scope: "row" }, bdi(nameOf(event, line.entrant, ui)), line.fire ? h("span", { title: t("tour_fire"), "aria-label": t("tour_fire") }, " 🔥") : null,
          line.withdrawn ? h("span", { class: "muted" }, ` (${t("tour_out")})`) : null),
        h("td", { class: "num" }, n(line.score)), h("td", { class: "num" }, n(line.games)),
        tieBreaks.map((name) => h("td", { class: "num" }, n(line.tie_breaks[name]))),
        event.format === "arena" ? h("td", {}, h("bdi", { dir: "ltr" }, line.recent.map((p) => n(p)).join(" "))) : null)))))));
}

/** An entrant's name in the page's language (the server's bots named as at their tables). */
const nameOf = (event, id, ui) => entrantName(event.entrants.find((e) => e.id === id), ui.app.lang);

function sidesText(event, sides, ui) {
  const { h, t } = ui;
  const names = sides.map((id) => h("bdi", {}, nameOf(event, id, ui)));
  if (names.length === 2) return ui.tn("tour_vs", { a: names[0], b: names[1] });
  const out = [];
  names.forEach((name, i) => { if (i) out.push(" · "); out.push(name); });
  void t;
  return h("span", {}, out);
}

function playingPanel(event, ui) {
  const { h, t, n } = ui;
  if (!event.playing.length) return panelOf(ui, section("event-playing", t("tour_playing"), h("p", { class: "muted" }, t("tour_no_games"))));
  return panelOf(ui, section("event-playing", t("tour_playing"),
    h("ul", { class: "list" }, event.playing.map((g) => h("li", { "data-table": g.table },
      h("span", {}, event.format === "arena" ? "" : `${t("tour_round_n", { n: n(g.round) })} · ${t("tour_table_n", { n: n(g.number + 1) })}${event.format === "duplicate" ? ` · ${t("tour_board_n", { n: n(g.board + 1) })}` : ""}: `, sidesText(event, g.sides, ui)),
      // A duplicate deal is not watched while others are still to play it.
      g.private ? null : h("a", { href: `/t/${g.table}`, "data-link": true, "data-watch": g.table }, t("tour_watch")))))));
}

function pairingsPanel(event, ui) {
  const { h, t, n, bdi } = ui;
  const rounds = event.pairings.slice(-PAIRING_ROUNDS).reverse();
  return panelOf(ui, section("event-pairings", t("tour_pairings"), rounds.map((round) => h("div", { class: "pairing-round", "data-round": round.number },
    h("h3", {}, t("tour_round_n", { n: n(round.number) })),
    h("ol", { class: "list" }, round.tables.map((table, i) => h("li", {}, h("span", {}, `${t("tour_table_n", { n: n(i + 1) })}: `, sidesText(event, table.sides, ui))))),
    round.byes.length ? h("p", { class: "muted" }, ui.tn("tour_bye", { names: h("span", {}, round.byes.map((id, i) => [i ? ", " : "", bdi(nameOf(event, id, ui))]).flat()) })) : null))));
}

function gameLinks(g, ui) {
  const { h, t } = ui;
  if (!g.over || g.revealed === false) return h("span", { class: "muted" }, "—");
  return h("span", { class: "game-links" },
    h("a", { href: `/replay/${g.table}`, "data-link": true, "data-replay": g.table }, t("replay")), " · ",
    h("a", { href: `/review/${g.table}`, "data-link": true, "data-review": g.table }, t("review")), " · ",
    h("a", { href: `/api/games/${g.table}/record`, download: `basra-${g.table}.json`, "data-record": g.table }, t("tour_record")));
}

function resultText(g, event, ui) {
  const { n, t } = ui;
  if (g.revealed === false) return t("tour_hidden");
  const scores = (g.scores || []).map((s) => n(s)).join(" – ");
  return g.forfeited && g.forfeited.length ? `${scores} (${t("tour_forfeit")})` : scores;
}

function finishedPanel(event, ui) {
  const { h, t, n } = ui;
  if (!event.finished.length) return panelOf(ui, section("event-finished", t("tour_recent"), h("p", { class: "muted" }, t("tour_no_games"))));
  return panelOf(ui, section("event-finished", t("tour_recent"),
    scroller(ui, "event-finished-heading", h("table", { id: "finished-games" },
      h("thead", {}, h("tr", {}, event.format === "arena" ? null : h("th", { scope: "col", class: "num" }, t("tour_col_round_table")),
        h("th", { scope: "col" }, t("tour_col_game")), h("th", { scope: "col" }, t("tour_col_result")), h("th", { scope: "col" }, t("tour_col_links")))),
      h("tbody", {}, event.finished.map((g) => h("tr", { "data-game": g.table },
        event.format === "arena" ? null : h("td", { class: "num" }, `${n(g.round)}.${n(g.number + 1)}`),
        h("td", {}, sidesText(event, g.sides, ui)),
        h("td", {}, h("bdi", { dir: "ltr" }, resultText(g, event, ui))),
        h("td", {}, gameLinks(g, ui)))))))));
}

function boardsPanel(event, ui) {
  const { h, t, n, bdi } = ui;
  return panelOf(ui, section("event-boards", t("tour_board_results"), event.board_results.map((board) => h("div", { class: "board-result", style: "margin-block-end: 1.2rem", "data-board": `${board.round}.${board.board}` },
    h("h3", { id: `board-${board.round}-${board.board}` }, t("tour_round_board", { round: n(board.round), board: n(board.board + 1) })),
    scroller(ui, `board-${board.round}-${board.board}`, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tour_col_name")), h("th", { scope: "col", class: "num" }, t("tour_col_side")), h("th", { scope: "col", class: "num" }, t("tour_col_table")),
        h("th", { scope: "col", class: "num" }, t("tour_col_score")), h("th", { scope: "col", class: "num" }, t("tour_col_margin")), h("th", { scope: "col", class: "num" }, t("tour_col_matchpoints")), h("th", { scope: "col" }, t("tour_col_links")))),
      h("tbody", {}, board.rows.map((row) => h("tr", {},
        h("th", { scope: "row" }, bdi(nameOf(event, row.entrant, ui))), h("td", { class: "num" }, n(row.side + 1)), h("td", { class: "num" }, n(row.table + 1)),
        h("td", { class: "num" }, n(row.score)), h("td", { class: "num" }, h("bdi", { dir: "ltr" }, `${row.margin > 0 ? "+" : ""}${n(row.margin)}`)),
        h("td", { class: "num" }, `${n(row.matchpoints)} / ${n(row.top)}`),
        h("td", {}, row.table_id ? gameLinks({ table: row.table_id, over: true, revealed: true }, ui) : "—"))))))))));
}

function entrantsPanel(event, ui) {
  const { h, t, bdi } = ui;
  if (!event.entrants.length) return panelOf(ui, section("event-entrants", t("tour_entrants"), h("p", { class: "muted" }, t("tour_no_entrants"))));
  return panelOf(ui, section("event-entrants", `${t("tour_entrants")} (${ui.n(event.entrants.length)})`,
    h("ul", { class: "list", id: "entrant-list" }, event.entrants.map((e) => h("li", { "data-entrant": e.id },
      h("span", {}, bdi(entrantName(e, ui.app.lang)), e.withdrawn ? h("span", { class: "muted" }, ` (${t("tour_out")})`) : null),
      h("span", { class: "muted" }, e.members.map((m) => (m.username ? `@${m.username}` : "")).filter(Boolean).join(", ")))))));
}
