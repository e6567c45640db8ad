// Turn-based games (/api/turns, /api/vacation): the "Your turn" list on the home page
// and on its own page (/turns, from the menu), each game a link to its table as it
// stands, and the vacation control that stops a person's clocks at every turn-based
// game for whole days (the words say how many days are left this month). The menu's
// count of games waiting for the person's move is drawn by turnCount().

import { patch } from "./dom.js";
import { dateText } from "./i18n.js";

/** Seconds left as days and hours (minutes under an hour), in the page's words. */
function leftText(ui, seconds) {
  const { t } = ui;
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return t("turns_minutes", { n: Math.ceil(s / 60) });
  return t("turns_time", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}

/** The "Your turn" panel: ``{ node, close }``. ``heading``: "h1" on its own page (where
 * the vacation control always shows; on the home page, once there is a game to stop). */
export function turnsPanel(ui, heading = "h2") {
  const { h, t, api, bdi } = ui;
  const list = h("ul", { class: "list", id: "turns-list", "aria-labelledby": "turns-heading" });
  const summary = h("p", { id: "turns-count" });
  const empty = h("p", { class: "muted", id: "turns-empty", hidden: true }, t("turns_none"));
  const error = h("p", { class: "error", role: "alert", id: "turns-error" });
  const vacationWords = h("p", { id: "vacation-left" });
  const daysInput = h("input", { type: "number", id: "vacation-days", min: "1", max: "7", value: "1", inputmode: "numeric", size: "3" });
  const take = h("button", { type: "button", id: "vacation-take", class: "secondary", onclick: () => change("/api/vacation", { days: Number(daysInput.value) }) }, t("vacation_take"));
  const end = h("button", { type: "button", id: "vacation-end", class: "secondary", hidden: true, onclick: () => change("/api/vacation/end", {}) }, t("vacation_end"));
  const takeRow = h("p", { id: "vacation-take-row" }, h("label", { for: "vacation-days" }, t("vacation_days")), " ", daysInput, " ", take);
  const vacation = h("section", { id: "vacation", "aria-labelledby": "vacation-heading" },
    h(heading === "h1" ? "h2" : "h3", { id: "vacation-heading" }, t("vacation_title")), h("p", { class: "muted" }, t("vacation_help")),
    vacationWords, takeRow, h("p", {}, end));
  const node = h("section", { class: "panel", id: "your-turn", "aria-labelledby": "turns-heading" },
    h(heading, { id: "turns-heading", tabindex: "-1" }, t("turns_title")), summary, list, empty, vacation, error);
  let closed = false;

  function drawVacation(state) {
    const on = state.until !== null;
    vacationWords.textContent = on
      ? `${t("vacation_until", { date: dateText(state.until, ui.app.lang, { dateStyle: "medium", timeStyle: "short" }) })} ${t("vacation_left", { n: state.left })}`
      : t("vacation_left", { n: state.left });
    end.hidden = !on;
    takeRow.hidden = on || state.left === 0;
    daysInput.max = String(Math.max(1, state.left));
  }

  async function change(path, body) {
    error.textContent = "";
    try {
      drawVacation(await api(path, { method: "POST", body: JSON.stringify(body) }));
      draw();
    } catch (err) { error.textContent = ui.errorText(err); }
  }

  async function draw() {
    let data;
    if (!ui.app.token) { empty.hidden = false; vacation.hidden = heading !== "h1"; return; }  // no identity yet
    try { data = await api("/api/turns"); } catch (err) { if (!closed) error.textContent = ui.errorText(err); return; }
    if (closed) return;
    // On the home page the vacation control waits until there is a game (or a vacation) to stop.
    vacation.hidden = heading !== "h1" && !data.turns.length && data.vacation.until === null;
    summary.textContent = t("turns_your_n", { n: data.count });
    // Patched, each game by its key (every 30 s, and after a vacation's change): a game's
    // link that has the keyboard's focus keeps it.
    patch(list, data.turns.map((game) => {
      const against = game.opponents.map((name) => bdi(name || t("guest")));
      const where = game.status === "open" ? t("turns_waiting")
        : game.your_turn ? t("turns_your_turn") : t("turns_their_turn");
      const left = game.paused ? t("turns_paused") : game.left !== null ? t("turns_left", { time: leftText(ui, game.left) }) : null;
      return h("li", { "data-key": game.table, "data-turn": game.table, "data-yours": String(game.your_turn) },
        h("span", {}, h("strong", {}, ui.variantName(game.variant)), " · ", t("clock_days", { n: game.days }), " · ",
          against.map((x, i) => [i ? ", " : "", x])),
        h("span", {}, h("span", { class: game.your_turn ? "tag yours" : "tag" }, where), left ? [" ", left] : null, " ",
          h("a", { href: `/t/${game.table}`, "data-link": true, "data-table": game.table }, t("turns_open"))));
    }));
    empty.hidden = data.turns.length > 0;
    drawVacation(data.vacation);
    turnCount(ui, data.count);
  }
  draw();
  const timer = setInterval(() => { if (!document.hidden) draw(); }, 30000);
  return { node, close() { closed = true; clearInterval(timer); } };
}

/** The menu's count of games waiting for the person's move (asked for when not given). */
export async function turnCount(ui, count) {
  const badge = document.getElementById("nav-turns-count");
  if (!badge) return;
  if (count === undefined) {
    if (!ui.app.token) return;
    try { count = (await ui.api("/api/turns")).count; } catch { return; }
  }
  badge.hidden = !count;
  badge.textContent = count ? ui.n(count) : "";
  badge.setAttribute("aria-label", ui.t("turns_your_n", { n: count }));
}

/** The /turns page: the list and the vacation control on their own. */
export function turnsPage(root, ui) {
  document.title = `${ui.t("turns_title")} · ${ui.t("app_name")}`;
  const panel = turnsPanel(ui, "h1");
  root.append(ui.h("div", { class: "page", id: "turns-page" }, panel.node));
  return panel;
}
