// The installable app's wiring in the page: the service worker (sw.js, served at /sw.js
// with this deploy's file list), the offer to reload when a new version is ready, the
// manifest in the page's language, and the upload of offline games once online.
//
//   startOffline(ui)   called once by app.js; ui is the page's helpers (app, api, t, ...)

import { listGames, markUploaded } from "./store.js";

let ui = null;
let reloading = false;
let uploading = null;
let retryTimer = null;
const RETRY_FIRST = 3000;
const RETRY_MOST = 60_000;
let retryDelay = RETRY_FIRST;

/** The bar that offers the new version (outside the page's own banner, which pages clear). */
function offerUpdate(worker) {
  const { h, t } = ui;
  document.getElementById("update-bar")?.remove();
  const button = h("button", { type: "button", id: "update-reload", onclick: () => {
    reloading = true;
    button.disabled = true;
    worker.postMessage({ type: "skip-waiting" });
  } }, t("update_reload"));
  const bar = h("div", { class: "update-bar", id: "update-bar", role: "status" }, h("span", {}, t("update_ready")), " ", button);
  document.body.append(bar);
}

function watch(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      // "installed" with a page already controlled: an update, waiting for the person.
      if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
    });
  });
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  let hadController = Boolean(navigator.serviceWorker.controller);
  // The new version took over (here or in another tab): every page reloads onto it, so
  // no page goes on with old files while the old cache is gone.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (hadController || reloading) location.reload();
    hadController = true;
  });
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    watch(registration);
    // A page left open for days still learns of a deploy.
    setInterval(() => registration.update().catch(() => {}), 30 * 60 * 1000);
  } catch (err) {
    console.warn("the service worker was not registered:", err);
  }
}

/** Whether this device keeps the whole app for offline play: a service worker is
 * active and one of its caches is complete (the precache listing is written last). */
export async function offlineReady() {
  try {
    if (!("serviceWorker" in navigator) || !(await navigator.serviceWorker.getRegistration())?.active) return false;
    for (const name of await caches.keys()) {
      if (name.startsWith("basra-") && await (await caches.open(name)).match("/__precache.json")) return true;
    }
  } catch { /* no caches here (a private window): not ready */ }
  return false;
}

/** The manifest link follows the page's language (the app's name in English or Arabic). */
export function manifestLanguage(lang) {
  let link = document.querySelector('link[rel="manifest"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "manifest";
    document.head.append(link);
  }
  link.href = `/manifest.webmanifest?lang=${lang}`;
}

/**
 * Upload the offline games not uploaded yet at their current state (finished or not),
 * with this device's identity. A refused game keeps the reason and is not sent again
 * until it changes. Without a network (navigator.onLine is not to be trusted) it tries
 * again a little later, then less and less often; a server that does not keep offline
 * games yet is asked again in a while.
 */
export function uploadKept() {
  if (!ui || !ui.app.token) return Promise.resolve();
  clearTimeout(retryTimer);
  uploading ??= (async () => {
    let again = null;
    for (const game of await listGames()) {
      const s = game.summary;
      if (game.uploaded || (game.upload_error && game.upload_error !== "upload_unavailable" && game.upload_version === s.version)) continue;
      const body = { save: game.save, seat: s.seat, result: { scores: s.scores, winner: s.winner, finished: s.status === "over" } };
      try {
        const answer = await ui.api("/api/offline/games", { method: "POST", body: JSON.stringify(body) });
        await markUploaded(game.id, { id: answer.id, url: answer.url, version: s.version });
        retryDelay = RETRY_FIRST;
      } catch (err) {
        if (err.status === undefined) { again = retryDelay; retryDelay = Math.min(retryDelay * 2, RETRY_MOST); break; }  // no network
        if (err.code === "signed_out") break;  // a new identity comes; its page load tries again
        await markUploaded(game.id, null, err.code === "upload_unavailable" ? "upload_unavailable" : err.message || err.code, s.version);
        if (err.code === "upload_unavailable" || err.code === "rate_limited") { again = RETRY_MOST * 5; break; }
      }
    }
    if (again !== null) retryTimer = setTimeout(() => uploadKept(), again);
  })().catch(() => {}).finally(() => { uploading = null; });
  return uploading;
}

let deferredInstall = null;

/** The browser's offer to install the app (beforeinstallprompt), once it made one; else null. */
export function installOffer() { return deferredInstall; }

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();  // offered from the home page's button instead of the browser's bar
  deferredInstall = event;
  document.dispatchEvent(new CustomEvent("basra:install-offer"));
});
window.addEventListener("appinstalled", () => {
  deferredInstall = null;
  document.dispatchEvent(new CustomEvent("basra:install-offer"));
});

/**
 * Installed (the app runs standalone), the engine is made ready in the background once
 * the service worker has kept everything, so its first start offline restores the
 * snapshot instead of starting Python the long way. A browser tab does not pay for it.
 */
async function warmUpWhenInstalled() {
  if (!window.matchMedia?.("(display-mode: standalone)").matches) return;
  await navigator.serviceWorker?.ready;
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 3000));
  idle(async () => {
    const { offlineEngine } = await import("./engine.js");
    offlineEngine().catch(() => {});
  });
}

export function startOffline(helpers) {
  ui = helpers;
  manifestLanguage(ui.app.lang);
  register();
  warmUpWhenInstalled();
  window.addEventListener("online", () => { retryDelay = RETRY_FIRST; uploadKept(); });
  document.addEventListener("basra:offline-over", () => uploadKept());
  setTimeout(() => uploadKept(), 1500);
}
