// What a screen reader hears: two live regions that stay in the page (index.html),
// never redrawn with it. "Say" is the short assertive region for what just happened
// (a play, a basra, whose turn, a refused move): each text is read once. "Status"
// is the polite region for the state of things (waiting, reconnecting). Texts that
// come within a moment of each other are said together, so a play and the bot's
// quick reply are both heard. The gathering is bounded: it waits GATHER_MS after
// the latest text but never more than GATHER_MAX_MS after the first, and says what
// it has as soon as it holds GATHER_MAX_CHARS; a text already waiting (the same
// refusal from keys pressed quickly) is said once. Every text said is also
// announced as a "basra:announce" event on the document ({ text, assertive }),
// which tests read.

const GATHER_MS = 120;
const GATHER_MAX_MS = 400;
const GATHER_MAX_CHARS = 160;
let pending = [];
let timer = null;
let first = 0;

function region(id) {
  return document.getElementById(id);
}

function flush() {
  timer = null;
  const node = region("announce");
  const text = pending.join(" ");
  pending = [];
  if (!node || !text) return;
  // Emptied first: the same words twice in a row are still read twice.
  node.textContent = "";
  setTimeout(() => { node.textContent = text; }, 30);
}

/** Say ``text`` now (assertive), after whatever is being gathered. */
export function say(text) {
  if (!text) return;
  if (pending.includes(text)) return;  // said once, however often it was asked for meanwhile
  document.dispatchEvent(new CustomEvent("basra:announce", { detail: { text, assertive: true } }));
  const now = Date.now();
  if (!pending.length) first = now;
  pending.push(text);
  clearTimeout(timer);
  const gathered = pending.reduce((n, t) => n + t.length + 1, 0);
  const wait = gathered >= GATHER_MAX_CHARS ? 0 : Math.min(GATHER_MS, Math.max(0, first + GATHER_MAX_MS - now));
  timer = setTimeout(flush, wait);
}

/** Put ``text`` in the polite status region (read when the reader is idle). */
export function status(text) {
  const node = region("live-status");
  document.dispatchEvent(new CustomEvent("basra:announce", { detail: { text, assertive: false } }));
  if (node && node.textContent !== text) node.textContent = text || "";
}

/** Forget what was about to be said (the page changed). */
export function hush() {
  clearTimeout(timer);
  timer = null;
  pending = [];
  const node = region("announce");
  if (node) node.textContent = "";
}
