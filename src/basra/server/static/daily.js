// The daily deal (/daily): today's deals, a button to play each (one try), its board
// by margin, and, once you have played it, how everyone else played the same cards,
// decision by decision. Nothing here holds a card before you play: the server sends
// none (GET /api/daily has no cards; the others' games are refused until then).


/** The /daily page. */
export async function dailyPage(root, ui) {
  const { h, t, n, api } = ui;
  const page = h("div", { class: "page", id: "daily-page" }, h("h1", {}, t("daily_title")), h("p", { class: "muted" }, t("daily_help")));
  root.append(page);
  let today;
  try { today = await api("/api/daily"); } catch (err) { page.append(h("p", { class: "panel error" }, ui.errorText(err))); return; }
  const hours = Math.floor(today.next_in / 3600);
  const minutes = Math.floor((today.next_in % 3600) / 60);
  page.append(h("p", { class: "muted", id: "daily-next" }, t("daily_next", { n: t("hours_minutes", { h: n(hours), m: n(minutes) }) })));
  for (const deal of today.deals) page.append(await dealPanel(deal, ui));
}

async function dealPanel(deal, ui) {
  const { h, t, n, api, app } = ui;
  const error = h("p", { class: "error", role: "alert" });
  const action = h("div", { class: "actions" });
  const you = deal.you;
  if (!you) {
    action.append(h("button", { type: "button", "data-play": deal.id, onclick: async () => {
      error.textContent = "";
      try {
        const started = await api(`/api/daily/${deal.id}`, { method: "POST", body: JSON.stringify(app.name ? { name: app.name } : {}) });
        ui.navigate(started.url);
      } catch (err) { error.textContent = ui.errorText(err); }
    } }, t("daily_play")));
  } else if (you.status !== "over") {
    action.append(h("a", { href: you.url, "data-link": true, class: "button" }, t("daily_resume")));
  } else {
    action.append(h("p", { class: "daily-result" }, ui.tn("daily_played", { n: h("bdi", { dir: "ltr" }, signed(you.margin, n)) })));
  }
  const board = h("div", { class: "daily-board", "data-board": deal.id });
  const compare = h("div", { class: "daily-compare" });
  const panel = h("section", { class: "panel daily-deal", "data-deal": deal.id },
    h("h2", {}, ui.variantName(deal.variant)),
    h("p", { class: "muted" }, t("daily_vs", { level: t("level_" + deal.bot) }), " · ", t("daily_count", { n: n(deal.played) })),
    action, error, h("h3", {}, t("daily_board")), board, compare);
  try {
    drawBoard(board, compare, await api(`/api/daily/${deal.id}`), ui);
  } catch (err) { board.append(h("p", { class: "error" }, ui.errorText(err))); }
  return panel;
}

function signed(value, n) {
  return `${value > 0 ? "+" : value < 0 ? "−" : ""}${n(Math.abs(value))}`;
}

function drawBoard(node, compare, data, ui) {
  const { h, t, n, bdi } = ui;
  if (!data.entries.length) { node.append(h("p", { class: "muted" }, t("daily_empty"))); return; }
  const played = data.you && data.you.status === "over";
  // The column of "How they played" buttons only when there is one to press.
  const comparable = (e) => Boolean(e.table && !e.you && played);
  const compareColumn = data.entries.some(comparable);
  node.append(h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col_place")), h("th", { scope: "col" }, t("col_player")), h("th", { class: "num", scope: "col" }, t("col_margin")),
      h("th", { class: "num", scope: "col" }, t("col_score")), h("th", { class: "num", scope: "col" }, t("col_bot")), compareColumn ? h("th", { scope: "col" }, t("col_compare")) : null)),
    h("tbody", {}, data.entries.map((e) => h("tr", { class: e.you ? "mine" : "", "data-entry": e.name },
      // The name the player gave (as at the table), their profile linked when they have one.
      h("td", {}, n(e.place)), h("td", { class: "player" }, e.username
        ? h("a", { href: `/u/${encodeURIComponent(e.username)}`, "data-link": true, title: `@${e.username}` }, bdi(e.name || e.username))
        : bdi(e.name)),
      h("td", { class: "num" }, h("bdi", { dir: "ltr" }, signed(e.margin, n))), h("td", { class: "num" }, n(e.score)), h("td", { class: "num" }, n(e.bot_score)),
      compareColumn ? h("td", {}, comparable(e) ? h("button", { type: "button", class: "secondary", "data-see": e.table,
        onclick: () => showCompare(compare, data.you.table, e, ui) }, t("daily_see")) : null) : null)))));
  if (!played) node.append(h("p", { class: "muted", id: "daily-hidden" }, t("daily_hidden")));
}

/** Your decisions beside theirs: the card each of you played at each of your turns. */
async function showCompare(node, mine, entry, ui) {
  const { h, t, n, bdi, api } = ui;
  node.replaceChildren("…");
  let ours, theirs;
  try {
    [ours, theirs] = await Promise.all([api(`/api/games/${mine}/replay`), api(`/api/games/${entry.table}/replay`)]);
  } catch (err) { node.replaceChildren(h("p", { class: "error" }, ui.errorText(err))); return; }
  const decisions = (data) => {
    const seat = data.table.seats.findIndex((s) => s.kind === "person");
    return data.frames.filter((f) => f.event.kind === "play" && f.event.seat === seat).map((f) => f.event.move);
  };
  const a = decisions(ours);
  const b = decisions(theirs);
  const rows = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    rows.push(h("tr", { class: a[i] === b[i] ? "" : "changed" }, h("td", {}, t("decision_n", { n: n(i + 1) })),
      h("td", {}, a[i] ? moveLabel(a[i], ui) : "—"), h("td", {}, b[i] ? moveLabel(b[i], ui) : "—")));
  }
  node.replaceChildren(h("h3", {}, t("daily_compare")),
    h("table", { class: "sheet daily-decisions", id: "daily-decisions" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col_decision")), h("th", { scope: "col" }, t("daily_you")), h("th", { scope: "col" }, bdi(entry.name || entry.username)))),
      h("tbody", {}, rows)),
    h("div", { class: "actions" },
      h("a", { href: `/replay/${entry.table}`, "data-link": true }, t("replay")),
      h("button", { type: "button", class: "secondary", onclick: () => node.replaceChildren() }, t("daily_close"))));
}

function moveLabel(move, ui) {
  const [card, takes] = move.split("x");
  const out = [ui.cardLabel(card)];
  if (takes) out.push(" × ", ...ui.cardsLabel(takes.split(",")));
  return ui.h("span", {}, out);
}
