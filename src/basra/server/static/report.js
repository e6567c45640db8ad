// Reporting a player to the site's moderators (POST /api/reports): from a table (the
// people seated there, not yourself) or from a profile. A closed <details> until asked
// for, so it takes no room at the table; every field labelled, the result said in a
// status region. The server keeps reports for the operator only (docs/DEPLOY.md).


export const REASONS = ["abuse", "cheating", "name", "spam", "other"];

/**
 * The report form. ``target`` is ``{ table, seats: [{ seat, name }] }`` at a table or
 * ``{ username }`` on a profile, ``{ club }`` (a slug) on a club's page; null when there is
 * nobody to report.
 */
export function reportForm(ui, target) {
  const { h, t } = ui;
  if (!target || (target.seats && !target.seats.length)) return null;
  const status = h("p", { class: "muted", id: "report-status", role: "status" });
  const reason = h("select", { id: "report-reason" }, REASONS.map((r) => h("option", { value: r }, t(`reason_${r}`))));
  const note = h("textarea", { id: "report-note", rows: 2, maxlength: 500 });
  const fields = [];
  let who = null;
  if (target.seats) {
    who = h("select", { id: "report-seat" }, target.seats.map((s) => h("option", { value: String(s.seat) }, s.name)));
    fields.push(h("label", { for: "report-seat" }, t("report_who")), who);
  }
  fields.push(h("label", { for: "report-reason" }, t("report_reason")), reason,
    h("label", { for: "report-note" }, t("report_note")), note);
  const send = h("button", { type: "submit", class: "secondary", id: "report-send" }, t("report_send"));
  const form = h("form", { class: "report-form", id: "report-form" }, ...fields, send, status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { reason: reason.value, note: note.value };
    if (target.seats) Object.assign(body, { table: target.table, seat: Number(who.value) });
    else if (target.club) body.club = target.club;
    else body.username = target.username;
    if (send.disabled) return;  // one report per press: a second submit while sending is the same report
    send.disabled = true;
    try {
      await ui.api("/api/reports", { method: "POST", body: JSON.stringify(body) });
      status.textContent = t("report_sent");
      note.value = "";
      // Sent: the form stays closed to this report (a second one about the same play is a new page).
      for (const field of form.querySelectorAll("select, textarea, input")) field.disabled = true;
    } catch (err) {
      status.textContent = ui.errorText(err);
      send.disabled = false;
    }
  });
  return h("details", { class: "report", id: "report" },
    h("summary", {}, t(target.seats ? "report_player" : target.club ? "report_club" : "report_profile")), form);
}
