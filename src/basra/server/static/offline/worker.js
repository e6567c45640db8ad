// The offline engine's worker: Pyodide (WebAssembly CPython) running the server's own
// Python core, bots and coach (the offline table: basra.offline), off the page's main
// thread so the page never freezes while a bot thinks. No rule of the game is written
// here: every request goes to basra.offline.handle() as JSON and comes back as JSON.
//
// Messages: {id, op: "start", runtime} loads the runtime (runtime.json's contents) and
// the core's sources; {id, op: "call", request} answers one engine request. Each answer
// is {id, ok: true, answer} or {id, ok: false, error, message}. While it starts, the
// worker says which step it is at: {progress: {step, of}} (1 the files, 2 Python, 3 the
// rules and bots), each step once, so the page can say how far along it is.
//
// Starting Python and importing the engine takes seconds on a phone. The standard
// library comes compiled where the server has it (runtime.pyodide.stdlib: Pyodide's
// own zip holds sources, and compiling the modules a start imports was most of it).
// The first start on a device ends with a memory snapshot of the interpreter with the
// engine imported (Pyodide's makeMemorySnapshot), kept gzipped in the Cache Storage
// under the runtime's version, the core's hash and the standard library's; later starts
// restore it in a fraction of that time. A snapshot that does not load is dropped and
// the engine starts the long way.

const SNAPSHOTS = "engine-snapshots";
const CORE_DIR = "/home/pyodide/basra-core";
const STEPS = 3;
let handle = null;
let starting = null;

async function zipOfCore(runtime) {
  const response = await fetch(runtime.core.url);
  if (!response.ok) throw new Error(`the core's sources: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** A snapshot goes with one runtime, one core and one standard library (its zip's directory is in it). */
function snapshotKey(runtime) {
  return `/snapshot/${runtime.pyodide.version}/${runtime.core.hash}/${runtime.pyodide.stdlib?.hash || "source"}`;
}

function progress(step) {
  self.postMessage({ progress: { step, of: STEPS } });
}

async function readSnapshot(runtime) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    const hit = await cache.match(snapshotKey(runtime));
    if (!hit) return null;
    const plain = hit.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(plain).arrayBuffer());
  } catch {
    return null;
  }
}

async function keepSnapshot(runtime, bytes) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old);  // another version's
    const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    await cache.put(snapshotKey(runtime), new Response(packed));
  } catch (error) {
    console.warn("offline engine: no snapshot kept:", error);
  }
}

async function dropSnapshot(runtime) {
  try { await (await caches.open(SNAPSHOTS)).delete(snapshotKey(runtime)); } catch { /* nothing kept */ }
}

async function boot(loadPyodide, runtime, snapshot) {
  const options = { indexURL: runtime.pyodide.url, stdout: () => {}, stderr: (text) => console.warn("offline engine:", text) };
  if (runtime.pyodide.stdlib) options.stdLibURL = runtime.pyodide.url + runtime.pyodide.stdlib.name;
  if (snapshot) options._loadSnapshot = snapshot;
  else options._makeSnapshot = true;
  return loadPyodide(options);
}

async function start(runtime) {
  const started = performance.now();
  progress(1);
  const [{ loadPyodide }, zip] = await Promise.all([import(runtime.pyodide.url + "pyodide.mjs"), zipOfCore(runtime)]);
  const snapshot = await readSnapshot(runtime);
  progress(2);
  let pyodide = null;
  let restored = false;
  if (snapshot) {
    try {
      pyodide = await boot(loadPyodide, runtime, snapshot);
      restored = true;
    } catch (error) {
      console.warn("offline engine: the snapshot did not load:", error);
      await dropSnapshot(runtime);
    }
  }
  pyodide ??= await boot(loadPyodide, runtime, null);
  const loaded = performance.now();
  progress(3);
  // The sources go on the file system either way: a module first imported later is read there.
  pyodide.unpackArchive(zip, "zip", { extractDir: CORE_DIR });
  if (!restored) {
    pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(CORE_DIR)}); import basra.offline`);
    const bytes = pyodide.makeMemorySnapshot();
    keepSnapshot(runtime, bytes);  // in the background: the engine is ready now
  }
  handle = pyodide.pyimport("basra.offline").handle;
  const ready = performance.now();
  return { runtime_ms: loaded - started, core_ms: ready - loaded, total_ms: ready - started, snapshot: restored };
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
