// What a screen reader hears: two live regions that stay in the page (index.html),
// never redrawn with it. "Say" is the short assertive region for what just happened
// (a play, a basra, whose turn, a refused move): each text is read once. "Status"
// is the polite region for the state of things (waiting, reconnecting). Texts that
// come within a moment of each other are said together, so a play and the bot's
// quick reply are both heard. Every text said is also announced as a
// "basra:announce" event on the document ({ text, assertive }), which tests read.

const GATHER_MS = 120;
let pending = [];
let timer = null;

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
  document.dispatchEvent(new CustomEvent("basra:announce", { detail: { text, assertive: true } }));
  pending.push(text);
  clearTimeout(timer);
  timer = setTimeout(flush, GATHER_MS);
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
