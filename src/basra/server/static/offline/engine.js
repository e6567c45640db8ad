// The page's side of the offline engine: one Web Worker (worker.js) running the
// server's Python engine under Pyodide, asked one request at a time.
//
//   const engine = await offlineEngine();     // starts the worker once per page
//   const answer = await engine.call({ op: "new", ... });   // offline_engine.handle()
//
// Where the runtime and the core's sources are comes from /offline/runtime.json, which
// the service worker keeps with them, so the page offline loads the very files the
// server sent with this version of the page.
//
//   const stop = engineProgress(({ step, of, ready }) => ...);   // how far the start is
//
// The start goes in steps (the worker's {progress}); a listener hears each step once,
// the current one at once, and {ready: true} when the engine answers ({failed: true}
// when it could not start).

let shared = null;
let stage = null;  // the start's step now: {step, of} or {ready: true}
const listeners = new Set();

function advance(next) {
  stage = next;
  for (const listener of listeners) listener(next);
}

/** Hear how far the engine's start is (each step once; the current one at once); returns a function that stops it. */
export function engineProgress(listener) {
  listeners.add(listener);
  if (stage) listener(stage);
  return () => listeners.delete(listener);
}

export class EngineError extends Error {
  constructor(code, message, detail = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

/** Where the runtime is, and whether this server has it (null when neither the network nor the cache answers). */
export async function runtimeInfo() {
  try {
    const response = await fetch("/offline/runtime.json");
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

class Engine {
  constructor(runtime) {
    this.runtime = runtime;
    this.worker = new Worker("/static/offline/worker.js", { type: "module" });
    this.waiting = new Map();
    this.next = 1;
    this.worker.onmessage = (event) => {
      if (event.data.progress) { advance(event.data.progress); return; }
      const { id, ok, answer, error, message } = event.data;
      const pending = this.waiting.get(id);
      if (!pending) return;
      this.waiting.delete(id);
      if (ok) pending.resolve(answer);
      else pending.reject(new EngineError(error, message));
    };
    this.worker.onerror = (event) => {
      for (const pending of this.waiting.values()) pending.reject(new EngineError("engine_failed", event.message || "the engine stopped"));
      this.waiting.clear();
    };
  }

  post(message) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  /** Load Pyodide and the core (once); resolves with how long each part took (ms). */
  start() {
    this.started ??= this.post({ op: "start", runtime: this.runtime });
    return this.started;
  }

  /** One request to the engine; rejects with an EngineError carrying the engine's refusal. */
  async call(request) {
    await this.start();
    const answer = await this.post({ op: "call", request });
    if (!answer.ok) {
      const { ok, error, message, ...detail } = answer;
      throw new EngineError(error, message, detail);
    }
    return answer;
  }
}

/** The page's engine, started on first use; rejects with not_installed when the server lacks the runtime. */
export function offlineEngine() {
  shared ??= (async () => {
    const runtime = await runtimeInfo();
    if (!runtime) throw new EngineError("no_runtime", "the offline runtime could not be loaded");
    if (!runtime.installed) throw new EngineError("not_installed", runtime.message || "");
    const engine = new Engine(runtime);
    await engine.start();
    advance({ ready: true });
    return engine;
  })();
  shared.catch(() => { shared = null; advance({ failed: true }); stage = null; });  // a failure may be tried again later
  return shared;
}
