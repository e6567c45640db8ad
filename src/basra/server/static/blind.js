// Blind mode: the table drawn for a screen reader (cards in words, the hand as
// numbered buttons, the floor as a list, typed commands), after lichess's
// non-visual UI. A switch in the top bar of every page turns it on or off, and a
// link ending in #blind turns it on (#blind=off turns it off); the choice is
// remembered on this device (localStorage "basra.blind").

import { setCardWords } from "./dom.js";

const KEY = "basra.blind";

function stored() {
  try { return window.localStorage.getItem(KEY) === "1"; } catch { return false; }
}

let on = stored();
const listeners = new Set();

/** True while blind mode is on. */
export function isBlind() { return on; }

/** Turn blind mode on or off (remembered on this device). */
export function setBlind(value) {
  on = Boolean(value);
  try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* private mode: this page only */ }
  setCardWords(on);
  document.documentElement.classList.toggle("blind", on);
  for (const listener of listeners) listener(on);
}

/** Read a #blind or #blind=off fragment (then drop it from the address). True when it changed the mode. */
export function blindFromFragment() {
  const match = location.hash.match(/^#blind(?:=(on|off|1|0))?$/);
  if (!match) return false;
  const value = match[1] === undefined || match[1] === "on" || match[1] === "1";
  history.replaceState(history.state, "", location.pathname + location.search);
  const changed = value !== on;
  setBlind(value);
  return changed;
}

/** Wire the top bar's switch (pressed: on); ``t`` translates, ``changed`` redraws the page. Returns its redraw. */
export function blindSwitch(button, t, changed) {
  const draw = () => {
    button.setAttribute("aria-pressed", String(on));
    button.textContent = t("blind_mode");
    button.title = t(on ? "blind_on" : "blind_off");
  };
  button.addEventListener("click", () => { setBlind(!on); changed(); });
  listeners.add(draw);
  draw();
  return draw;
}

setBlind(on);
