// Bot accounts (/bots): make one (its token shows once), renew its token, revoke it.
// A program holding the token plays at tables through the bot API (docs/WEB.md, “The bot API”);
// the create-table form offers the person's bots for its seats.

import { clearMarks, markField } from "./fields.js";

/** The /bots page. */
export async function botsPage(root, ui) {
  const { h, t, api } = ui;
  const page = h("div", { class: "page", id: "bots-page" }, h("h1", {}, t("bots_title")), h("p", { class: "muted" }, t("bots_help")));
  root.append(page);
  const error = h("p", { class: "error", role: "alert", id: "bots-error" });
  const tokenBox = h("div", { id: "bot-token" });
  const list = h("ul", { class: "list", id: "bots" });
  const fail = (err) => { error.textContent = ui.errorText(err); };
  const showToken = (bot) => tokenBox.replaceChildren(h("p", {}, t("bot_token")),
    h("div", { class: "invite" }, h("input", { readonly: true, dir: "ltr", value: bot.token, id: "bot-token-value", "aria-label": t("bot_token"), onclick: (e) => e.target.select() }),
      h("button", { type: "button", class: "secondary", onclick: () => navigator.clipboard?.writeText(bot.token).then(() => ui.toast(t("copied")), () => {}) }, t("copy"))));

  async function draw() {
    try {
      const { bots } = await api("/api/bots");
      list.replaceChildren(...(bots.length ? bots.map((bot) => h("li", { "data-bot": bot.name },
        h("span", {}, h("strong", {}, h("bdi", {}, bot.name))),
        h("span", { class: "actions" },
          h("button", { type: "button", class: "secondary", onclick: async () => {
            try { showToken(await api(`/api/bots/${bot.id}/token`, { method: "POST", body: "{}" })); } catch (err) { fail(err); }
          } }, t("bot_renew")),
          h("button", { type: "button", class: "secondary", onclick: async () => {
            try { await api(`/api/bots/${bot.id}`, { method: "DELETE" }); ui.toast(t("bot_revoked")); tokenBox.replaceChildren(); draw(); } catch (err) { fail(err); }
          } }, t("bot_revoke")))))
        : [h("li", { class: "muted" }, t("bots_none"))]));
    } catch (err) { fail(err); }
  }

  const nameInput = h("input", { id: "bot-name", name: "name", dir: "auto", maxlength: "20", autocomplete: "off" });
  const make = h("button", { type: "submit", id: "make-bot" }, t("bot_make"));
  const form = h("form", { class: "bot-form", id: "bot-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    clearMarks(form, error);
    try {
      const bot = await api("/api/bots", { method: "POST", body: JSON.stringify({ name: nameInput.value }) });
      nameInput.value = "";
      showToken(bot);
      draw();
    } catch (err) {
      // A bad or taken name is about the name field: marked, and said by its label.
      if (err.code === "bad_bot_name" || err.code === "bot_name_taken") markField(nameInput, ui.errorText(err), error);
      else fail(err);
    }
  } }, h("label", { for: "bot-name" }, t("bot_name")), nameInput, make);
  page.append(
    h("section", { class: "panel" }, h("h2", {}, t("bot_make")), form, tokenBox, error),
    h("section", { class: "panel" }, list));
  draw();
}
