// The service worker's stand-in global scope, for test_browser_push.py: runs sw.js's
// source against it and reports what a push showed, where clicks went, what was posted.
(async (source) => {
  const handlers = {};
  const calls = [];
  const pending = [];
  const origin = "https://basra.example";
  const page = (url, navigates = true) => ({
    url,
    focus: async () => { calls.push(["focus", url]); return page(url); },
    ...(navigates ? { navigate: async (to) => { calls.push(["navigate", url, to]); return page(to); } } : {}),
  });
  let pages = [];
  const self = {
    location: { origin },
    addEventListener: (type, handler) => { handlers[type] = handler; },
    skipWaiting: () => {},
    registration: {
      showNotification: async (title, options) => { calls.push(["show", title, options]); },
      pushManager: { subscribe: async () => ({ toJSON: () => ({ endpoint: "https://push.example/renewed" }) }) },
    },
    clients: {
      matchAll: async () => pages,
      openWindow: async (url) => { calls.push(["open", url]); return page(url); },
    },
  };
  const fetch = async (url, init) => { calls.push(["fetch", url, JSON.parse(init.body)]); return { ok: true }; };
  new Function("self", "PRECACHE", "caches", "fetch", source)(self, { version: "test", entries: [] }, {}, fetch);
  const event = (extra) => ({ waitUntil: (p) => pending.push(p), ...extra });
  const settle = async () => { await Promise.all(pending.splice(0)); };
  const push = (data) => event({ data: { json: () => JSON.parse(data), text: () => data } });
  const click = (url) => event({ notification: { close: () => calls.push(["close"]), data: { url } } });
  const results = {};
  handlers.push(push(JSON.stringify({ kind: "your_turn", title: "Your turn", body: "Table 3", url: "/t/abc", tag: "your_turn:/t/abc", lang: "ar" })));
  handlers.push(push(JSON.stringify({ title: "Elsewhere", url: "//evil.example/x" })));
  handlers.push(push(JSON.stringify({ title: "Backslash", url: "/\\evil.example/x" })));
  await settle();
  results.shown = calls.splice(0);
  pages = [page(origin + "/"), page(origin + "/t/abc")];
  handlers.notificationclick(click("/t/abc"));
  await settle();
  results.same = calls.splice(0);
  pages = [page(origin + "/games")];
  handlers.notificationclick(click("/t/abc"));
  await settle();
  results.other = calls.splice(0);
  pages = [page("https://elsewhere.example/")];
  handlers.notificationclick(click("/t/abc"));
  await settle();
  results.none = calls.splice(0);
  handlers.pushsubscriptionchange(event({ oldSubscription: { options: {}, toJSON: () => ({ endpoint: "https://push.example/old", keys: { auth: "a" } }) } }));
  await settle();
  results.renewed = calls.splice(0);
  handlers.pushsubscriptionchange(event({ oldSubscription: null }));
  await settle();
  results.nothing = calls.splice(0);
  return results;
})
