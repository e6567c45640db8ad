// The offline engine's worker: Pyodide (WebAssembly CPython) running the server's own
// Python core, bots and coach (basra.server.offline_engine), off the page's main thread
// so the page never freezes while a bot thinks. No rule of the game is written here:
// every request goes to offline_engine.handle() as JSON and comes back as JSON.
//
// Messages: {id, op: "start", runtime} loads the runtime (runtime.json's contents) and
// the core's sources; {id, op: "call", request} answers one engine request. Each answer
// is {id, ok: true, answer} or {id, ok: false, error, message}.

let handle = null;
let starting = null;

async function start(runtime) {
  const started = performance.now();
  const { loadPyodide } = await import(runtime.pyodide.url + "pyodide.mjs");
  const pyodide = await loadPyodide({
    indexURL: runtime.pyodide.url,
    stdout: () => {},
    stderr: (text) => console.warn("offline engine:", text),
  });
  const loaded = performance.now();
  const response = await fetch(runtime.core.url);
  if (!response.ok) throw new Error(`the core's sources: ${response.status}`);
  const zip = new Uint8Array(await response.arrayBuffer());
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/basra-core" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/basra-core')");
  handle = pyodide.pyimport("offline_engine").handle;
  const ready = performance.now();
  return { runtime_ms: loaded - started, core_ms: ready - loaded, total_ms: ready - started };
}

self.onmessage = async (event) => {
  const { id, op } = event.data;
  try {
    if (op === "start") {
      starting ??= start(event.data.runtime);
      self.postMessage({ id, ok: true, answer: await starting });
      return;
    }
    if (!handle) await starting;
    if (!handle) throw new Error("the engine has not started");
    const answer = JSON.parse(handle(JSON.stringify(event.data.request)));
    self.postMessage({ id, ok: true, answer });
  } catch (error) {
    starting = op === "start" ? null : starting;  // a failed start may be tried again
    self.postMessage({ id, ok: false, error: "engine_failed", message: String(error?.message || error).slice(0, 2000) });
  }
};
