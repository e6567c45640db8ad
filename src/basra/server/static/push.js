// Push notifications (/api/push; basra.server.features.push): the page that turns them on
// or off for this device and chooses their kinds. Turning on asks the browser's permission,
// subscribes in the service worker already registered (offline/register.js) with the
// server's VAPID public key, and posts the subscription; turning off posts its endpoint
// and unsubscribes. Each kind is a checkbox, saved as it changes and said in the polite
// status region. Where the server has no keys, or the browser cannot receive push, or the
// person refused the permission, the page says so in words and nothing else breaks.
// The subscription is posted with the page's language (lang): the notifications sent to
// this browser are worded in it.

import { status } from "./announce.js";

const KIND_KEYS = {
  your_turn: "push_kind_your_turn",
  challenge: "push_kind_challenge",
  tournament_soon: "push_kind_tournament_soon",
  club_event: "push_kind_club_event",
  reply: "push_kind_reply",
};

/** The VAPID public key (base64url) as the PushManager takes it. */
function keyBytes(text) {
  const b64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** Whether this browser can receive push at all. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return registration ? registration.pushManager.getSubscription() : null;
}

export async function pushPage(root, ui) {
  const { h, t, api } = ui;
  document.title = `${t("push_title")} · ${t("app_name")}`;
  const state = h("p", { id: "push-state" });
  const toggle = h("button", { type: "button", id: "push-toggle", hidden: true });
  const devices = h("p", { class: "muted", id: "push-devices" });
  const error = h("p", { class: "error", role: "alert", id: "push-error" });
  const kinds = h("fieldset", { id: "push-kinds", class: "push-kinds" }, h("legend", {}, t("push_kinds")),
    h("p", { class: "muted", id: "push-kinds-help" }, t("push_kinds_help")));
  const page = h("div", { class: "page", id: "push-page" }, h("h1", {}, t("push_title")),
    h("p", { class: "muted" }, t("push_help")),
    h("section", { class: "panel", "aria-labelledby": "push-device-heading" },
      h("h2", { id: "push-device-heading" }, t("push_device")), state, toggle, devices),
    h("section", { class: "panel" }, kinds), error);
  root.append(page);
  if (!ui.app.token) { state.textContent = t("push_sign_in"); kinds.disabled = true; return; }

  let settings;
  try { settings = await api("/api/push"); } catch (err) { error.textContent = ui.errorText(err); return; }
  const boxes = settings.kinds.map((kind) => {
    const box = h("input", { type: "checkbox", id: `push-kind-${kind}`, "data-kind": kind, checked: settings.chosen.includes(kind), "aria-describedby": "push-kinds-help" });
    box.addEventListener("change", save);
    kinds.append(h("p", {}, h("label", { for: box.id }, box, " ", t(KIND_KEYS[kind] || kind))));
    return box;
  });

  // Saves go one after another, each sending the boxes as they are when it starts: two
  // quick changes never reach the server in the wrong order.
  let saving = Promise.resolve();
  function save() {
    saving = saving.then(async () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.dataset.kind);
      try {
        await api("/api/push/kinds", { method: "POST", body: JSON.stringify({ kinds: chosen }) });
        error.textContent = "";
        status(chosen.length ? t("push_saved", { n: chosen.length }) : t("push_saved_none"));
      } catch (err) { error.textContent = ui.errorText(err); }
    });
  }

  // The page's language goes with the subscription: the server words this browser's
  // notifications in it (posted again each time, so a change of language follows).
  const withLang = (subscription) => ({ ...subscription.toJSON(), lang: ui.app.lang });

  let synced = false;
  function showDevices(n) { devices.textContent = t("push_devices_n", { n }); }

  async function draw() {
    showDevices(settings.subscriptions);
    toggle.hidden = true;
    if (!settings.enabled) { state.textContent = t("push_server_off"); kinds.disabled = true; return; }
    if (!pushSupported()) { state.textContent = t("push_unsupported"); return; }
    if (Notification.permission === "denied") { state.textContent = t("push_denied"); return; }
    const here = await currentSubscription().catch(() => null);
    if (here && !synced) {
      // This browser's subscription, told again: the server keeps it for whoever is signed
      // in here now, and learns of one the browser replaced while no page was open.
      synced = true;
      try {
        settings.subscriptions = (await api("/api/push/subscribe", { method: "POST", body: JSON.stringify(withLang(here)) })).subscriptions;
        showDevices(settings.subscriptions);
      } catch (err) { error.textContent = ui.errorText(err); }
    }
    state.textContent = t(here ? "push_on_here" : "push_off_here");
    toggle.textContent = t(here ? "push_turn_off" : "push_turn_on");
    toggle.dataset.on = here ? "1" : "";
    toggle.hidden = false;
  }

  async function turnOn() {
    if ((await Notification.requestPermission()) !== "granted") { await draw(); return; }
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(settings.public_key) });
    const answer = await api("/api/push/subscribe", { method: "POST", body: JSON.stringify(withLang(subscription)) });
    settings.subscriptions = answer.subscriptions;
    status(t("push_turned_on"));
  }

  async function turnOff() {
    const subscription = await currentSubscription();
    if (subscription) {
      const answer = await api("/api/push/unsubscribe", { method: "POST", body: JSON.stringify({ endpoint: subscription.endpoint }) });
      settings.subscriptions = answer.subscriptions;
      await subscription.unsubscribe();
    }
    status(t("push_turned_off"));
  }

  toggle.addEventListener("click", async () => {
    toggle.disabled = true;
    try {
      await (toggle.dataset.on ? turnOff() : turnOn());
      error.textContent = "";
    } catch (err) {
      // The server's refusals have a word code; the browser's (a DOMException) do not.
      error.textContent = typeof err?.code === "string" ? ui.errorText(err) : t("push_failed");
    } finally {
      toggle.disabled = false;
      await draw();
      toggle.focus();
    }
  });
  await draw();
}
