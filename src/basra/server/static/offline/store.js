// Offline games kept in the browser (IndexedDB "basra-offline", store "games"), one
// entry per game: { id, summary, save, uploaded, upload_error, upload_version }. The save is the game's
// record (RECORD.md) with what resuming it needs; the summary is what "My games" lists
// (both made by the engine, never computed here). Written after every event, so a game
// survives a closed tab, a reload or a crash, and goes on where it stopped.

const DB = "basra-offline";
const STORE = "games";
let opening = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function database() {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: "id" });
      store.createIndex("updated", "summary.updated_at");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  opening.catch(() => { opening = null; });
  return opening;
}

async function store(mode) {
  const db = await database();
  return db.transaction(STORE, mode).objectStore(STORE);
}

/** Keep a game (its save and summary as the engine gave them), keeping its upload state. */
export async function keepGame(save, summary) {
  const old = await getGame(summary.id);
  const entry = { id: summary.id, summary, save, uploaded: old?.uploaded ?? null,
    upload_error: old?.upload_error ?? null, upload_version: old?.upload_version ?? null };
  // A game that went on after an upload (or a refusal) is sent again as it is now.
  if (old && old.summary.version !== summary.version) {
    entry.uploaded = null;
    entry.upload_error = null;
  }
  await request((await store("readwrite")).put(entry));
  return entry;
}

export async function getGame(id) {
  return (await request((await store("readonly")).get(id))) ?? null;
}

/** Every kept game, the latest first. */
export async function listGames() {
  const all = await request((await store("readonly")).getAll());
  return all.sort((a, b) => (b.summary.updated_at || 0) - (a.summary.updated_at || 0));
}

/** Say how the upload of a game went: where the server keeps it, or why it did not. */
export async function markUploaded(id, uploaded, error = null, version = null) {
  const entry = await getGame(id);
  if (!entry) return;
  entry.uploaded = uploaded;
  entry.upload_error = error;
  entry.upload_version = version;
  await request((await store("readwrite")).put(entry));
}

export async function forgetGame(id) {
  await request((await store("readwrite")).delete(id));
}
