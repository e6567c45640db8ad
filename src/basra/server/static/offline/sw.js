// The service worker: keeps the app (the page, its scripts, card faces, fonts, icons),
// the Pyodide runtime and the core's Python sources, so the app opens and plays with
// no connection. The server prepends `self.PRECACHE = {version, entries: [{url, hash,
// bytes}]}` (basra.server.offline.Precache): a deploy that changes any file changes
// this script, so the browser installs the new worker beside the old one.
//
// Updates are clean: the new worker fills its own cache (copying the files whose hash
// did not change from the old cache, fetching only the others) and then waits; pages
// keep running on the old cache, whole, until the person chooses "reload to update"
// (the page posts {type: "skip-waiting"}); then every page reloads on the new one.
// No page ever runs old and new files together.

/* global PRECACHE */
const PREFIX = "basra-";
const CACHE = PREFIX + PRECACHE.version;
const LISTING = "/__precache.json";
const WANTED = new Map(PRECACHE.entries.map((entry) => [entry.url, entry]));
// Navigations to these go to the network as they are (files, the API, sockets).
const NOT_PAGES = /^\/(api|ws|static|offline\/(core|pyodide|runtime\.json)|sw\.js|manifest\.webmanifest|healthz)(\/|$|\?)/;
const PARALLEL = 4;

/** The entries an older cache already holds, by URL (only where the hash is the same). */
async function reusable() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const listing = await cache.match(LISTING);
    if (!listing) continue;
    const old = await listing.json().catch(() => null);
    for (const entry of old?.entries || []) {
      const wanted = WANTED.get(entry.url);
      if (wanted && wanted.hash === entry.hash && !found.has(entry.url)) found.set(entry.url, cache);
    }
  }
  return found;
}

async function fill() {
  const cache = await caches.open(CACHE);
  const old = await reusable();
  const queue = [...WANTED.values()];
  let fetched = 0;
  async function next() {
    while (queue.length) {
      const entry = queue.shift();
      if (await cache.match(entry.url)) continue;  // an install that was cut short
      const kept = old.get(entry.url);
      const response = kept ? await kept.match(entry.url) : null;
      if (response) { await cache.put(entry.url, response); continue; }
      // "no-cache": revalidated with the server (a 304 when the browser already holds it,
      // as after a first visit that loaded the engine), never a stale copy.
      const fresh = await fetch(new Request(entry.url, { cache: "no-cache", credentials: "same-origin" }));
      if (!fresh.ok) throw new Error(`${entry.url}: ${fresh.status}`);
      await cache.put(entry.url, fresh);
      fetched += entry.bytes;
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, next));
  // Written last: a cache with its listing is complete.
  await cache.put(LISTING, new Response(JSON.stringify({ ...PRECACHE, fetched }), { headers: { "Content-Type": "application/json" } }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(fill());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
  })());
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
  if (event.data?.type === "version") event.source?.postMessage({ type: "version", version: PRECACHE.version });
});

async function fromCache(url, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(url);
  return hit || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (NOT_PAGES.test(url.pathname)) return;
    // Every page of the app is the one page: the kept copy, of this version.
    event.respondWith(fromCache("/", request));
    return;
  }
  if (WANTED.has(url.pathname)) event.respondWith(fromCache(url.pathname, request));
});

// Web Push (basra.server.features.push): the server's payload is {kind, title, body, url,
// tag, lang}, already decrypted by the browser (worded in lang, the subscribing page's). The notification is shown even with no page
// open; a click focuses a page of this site already on its address, else takes another
// page of the site there, else opens one.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { title: event.data?.text() || "" }; }
  const url = typeof data.url === "string" && data.url.startsWith("/") && !data.url.startsWith("//") && !data.url.includes("\\") ? data.url : "/";
  event.waitUntil(self.registration.showNotification(data.title || "Basra", {
    body: data.body || "",
    lang: typeof data.lang === "string" ? data.lang : "",
    dir: "auto",
    tag: data.tag || url,
    renotify: Boolean(data.tag),
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url, kind: data.kind || "" },
  }));
});

/** Focus the page already on ``url``, else bring a page of the site there, else open one. */
async function openPage(url) {
  const target = new URL(url, self.location.origin).href;
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = pages.find((page) => page.url === target);
  if (same) return same.focus();
  const ours = pages.find((page) => new URL(page.url).origin === self.location.origin);
  if (ours && "navigate" in ours) {
    const moved = await ours.navigate(target).catch(() => null);
    if (moved) return moved.focus();
  }
  return self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(event.notification.data?.url || "/"));
});

// The browser replaced its subscription (expired, or its keys rotated): the new one is
// posted with the old one, whose auth secret shows the server whose it is (a service
// worker holds no sign-in). Without the old one there is nothing to prove: the settings
// page subscribes again when next opened.
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const old = event.oldSubscription;
    if (!old) return;
    const fresh = event.newSubscription || await self.registration.pushManager.subscribe(old.options);
    await fetch("/api/push/renew", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ old: old.toJSON(), subscription: fresh.toJSON() }),
    });
  })().catch(() => {}));
});
