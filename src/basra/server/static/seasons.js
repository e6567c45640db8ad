// Seasons and leagues (/seasons): a variant family's running season, the person's league
// and place, one division's standings with the line to promotion and the line to
// relegation, and how points are earned. The rule itself is the server's
// (basra.server.features.seasons.rules); this page only shows what GET /api/seasons says.
// The lines are said in words (a paragraph and a status column), not by colour alone, so a
// screen reader hears them; the selects are labelled and redraw on change, the focus kept
// on the select and the division now shown said once in a status line.

import { dayText } from "./i18n.js";

/** A division's name from its key. */
function divisionName(key, ui) {
  return ui.t("season_division_" + key);
}

/** The /seasons page (``?family=F&division=D`` keep what is shown). */
export async function seasonsPage(root, ui) {
  const { h, t } = ui;
  const params = new URLSearchParams(location.search);
  let family = params.get("family") || "egyptian";
  let division = params.get("division");
  const page = h("div", { class: "page", id: "seasons-page" },
    h("h1", {}, t("seasons_title")), h("p", { class: "muted" }, t("seasons_help")));
  const controls = h("div", { class: "panel board-controls", id: "season-controls" });
  const body = h("div", { id: "season-body" });
  // What a change of family or division shows, said once (not the whole table re-read).
  const status = h("p", { id: "season-status", class: "sr-only", role: "status" });
  page.append(controls, status, body);
  root.append(page);
  let closed = false;

  async function draw(focusSelect) {
    const query = `family=${encodeURIComponent(family)}${division === null ? "" : `&division=${encodeURIComponent(division)}`}`;
    history.replaceState(null, "", `/seasons?${query}`);
    let data;
    try { data = await ui.api(`/api/seasons?${query}`); } catch (err) {
      if (!closed) body.replaceChildren(h("p", { class: "panel error", role: "alert" }, ui.errorText(err)));
      return;
    }
    if (closed) return;
    family = data.family;
    drawControls(data);
    body.replaceChildren(...drawSeason(data, ui));
    if (focusSelect) {
      document.getElementById(focusSelect)?.focus();
      status.textContent = t("season_standings", { division: divisionName(data.divisions[data.division], ui) });
    }
  }

  function drawControls(data) {
    const familySelect = h("select", { id: "season-family", onchange: (e) => { family = e.target.value; division = null; draw("season-family"); } },
      data.families.map((f) => h("option", { value: f, selected: f === data.family }, t("family_" + f))));
    const divisionSelect = h("select", { id: "season-division", onchange: (e) => { division = e.target.value; draw("season-division"); } },
      data.divisions.map((key, index) => h("option", { value: String(index), selected: index === data.division }, divisionName(key, ui))));
    controls.replaceChildren(
      h("label", { for: "season-family" }, t("seasons_family")), familySelect,
      h("label", { for: "season-division" }, t("seasons_division_pick")), divisionSelect);
  }

  await draw();
  return { close: () => { closed = true; } };
}

/** The season's panels: the person's league, the division's standings, the points. */
function drawSeason(data, ui) {
  const { h, t, n, bdi } = ui;
  const names = data.divisions;
  const shown = names[data.division];
  const out = [];
  const season = h("p", { id: "season-when" }, t("season_number", { n: n(data.season.number), when: dayText(data.season.ends, ui.app.lang) }));
  const you = h("section", { class: "panel", id: "season-you", "aria-labelledby": "season-you-heading" },
    h("h2", { id: "season-you-heading" }, t("season_your_league")), season);
  if (data.you) {
    you.append(h("p", { id: "season-league" }, t("season_you_in", { division: divisionName(names[data.you.division], ui) })));
    const line = data.you.line;
    you.append(h("p", { id: "season-you-line" }, line
      ? t("season_you_line", { rank: n(line.rank), points: n(line.points), status: t("season_status_" + moveKey(line.move)) })
      : t("season_you_none")));
    const last = data.you.last;
    if (last) {
      you.append(h("p", { id: "season-last" }, t("season_last", {
        n: n(last.season), division: divisionName(names[last.division], ui), rank: n(last.rank), move: t("season_move_" + moveKey(last.move)) })));
    }
  } else {
    you.append(h("p", { class: "muted" }, t("season_signed_out")));
  }
  out.push(you);

  const standings = h("section", { class: "panel", id: "season-standings", "aria-labelledby": "season-standings-heading" },
    h("h2", { id: "season-standings-heading" }, t("season_standings", { division: divisionName(shown, ui) })));
  const up = data.promotion_line, down = data.relegation_line;
  const lines = h("ul", { class: "season-lines", id: "season-lines" },
    h("li", { id: "season-line-up" }, up
      ? t("season_line_up", { n: n(up), division: divisionName(names[data.division + 1], ui) })
      : data.division === names.length - 1 ? t("season_line_top") : t("season_line_none")),
    h("li", { id: "season-line-down" }, down
      ? t("season_line_down", { n: n(down), division: divisionName(names[data.division - 1], ui) })
      : data.division === 0 ? t("season_line_bottom") : t("season_line_none")));
  standings.append(lines);
  if (!data.standings.length) {
    standings.append(h("p", { class: "muted", id: "season-empty" }, t("season_empty")));
  } else {
    standings.append(h("table", { class: "sheet", id: "season-table" },
      h("caption", { class: "sr-only" }, t("season_standings", { division: divisionName(shown, ui) })),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "num" }, t("col_place")), h("th", { scope: "col" }, t("col_player")),
        h("th", { scope: "col", class: "num" }, t("season_col_points")), h("th", { scope: "col", class: "num" }, t("col_games")),
        h("th", { scope: "col", class: "num" }, t("col_wins")), h("th", { scope: "col" }, t("season_col_status")))),
      h("tbody", {}, withGaps(data.standings, data.size, (from, to) => h("tr", { class: "season-gap" },
        h("td", { colspan: 6 }, t("season_gap", { from: n(from), to: n(to) }))), (line) => h("tr", {
        class: ["season-row", line.you ? "mine" : "", line.move > 0 ? "zone-up" : line.move < 0 ? "zone-down" : "", up && line.rank === up ? "line-up" : "", down && line.rank === down ? "line-down" : ""].filter(Boolean).join(" "),
        "data-rank": line.rank, "aria-current": line.you ? "true" : null },
      h("td", { class: "num" }, n(line.rank)),
      h("td", { class: "player" }, line.username
        ? h("a", { href: `/u/${encodeURIComponent(line.username)}`, "data-link": true }, bdi(line.name || line.username))
        : bdi(line.name || t("guest")), line.you ? h("span", { class: "sr-only" }, " ", t("season_you_mark")) : null),
      h("td", { class: "num" }, n(line.points)),
      h("td", { class: "num" }, n(line.games)),
      h("td", { class: "num" }, n(line.wins)),
      h("td", { class: "season-status" }, t("season_status_" + moveKey(line.move))))))));
  }
  out.push(standings);
  const points = data.points;
  out.push(h("section", { class: "panel", id: "season-points", "aria-labelledby": "season-points-heading" },
    h("h2", { id: "season-points-heading" }, t("season_points_title")),
    h("p", {}, t("season_points_rule", {
      win: n(points.win), draw: n(points.draw), loss: n(points.loss),
      first: n(points.arena[0]), second: n(points.arena[1]), third: n(points.arena[2]), other: n(points.arena[3]) }))));
  return out;
}

/** The rows of ``lines`` (ranks in order, some left out), a ``gap`` row where ranks are
 * missing (between two shown, and after the last shown up to ``size``). */
function withGaps(lines, size, gap, row) {
  const out = [];
  let next = 1;
  for (const line of lines) {
    if (line.rank > next) out.push(gap(next, line.rank - 1));
    out.push(row(line));
    next = line.rank + 1;
  }
  if (size >= next && lines.length) out.push(gap(next, size));
  return out;
}

function moveKey(move) {
  return move > 0 ? "up" : move < 0 ? "down" : "stay";
}

/** A profile's season badges (GET /api/seasons/badges), or null when there are none. */
export async function seasonBadges(ui, username) {
  const { h, t, n } = ui;
  let data;
  try {
    data = await ui.api(username ? `/api/seasons/badges?username=${encodeURIComponent(username)}` : "/api/seasons/badges");
  } catch { return null; }
  if (!data.badges.length) return null;
  return h("section", { class: "panel", id: "profile-seasons", "aria-labelledby": "profile-seasons-heading" },
    h("h2", { id: "profile-seasons-heading" }, t("season_badges")),
    h("ul", { class: "list season-badges" }, data.badges.map((b) => h("li", { "data-family": b.family },
      h("span", { class: `tag season-badge division-${b.division_key}` }, divisionName(b.division_key, ui)), " ",
      t("season_badge", { family: t("family_" + b.family), n: n(b.season), rank: n(b.rank), move: t("season_move_" + moveKey(b.move)) })))));
}
