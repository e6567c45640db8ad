// The table's sounds, made on the spot with the Web Audio API (no sound files):
// a card played, a capture, a basra, your turn, a card selected, a refusal (each
// distinct, so a person who cannot see the table hears which it was). A mute switch in the top bar is
// remembered in localStorage ("basra.muted"). Every sound asked for is announced
// as a "basra:sound" event on the document ({ name, muted }), which tests read.

const KEY = "basra.muted";
let context = null;

/** True when the person switched the sounds off (remembered across visits). */
export function isMuted() {
  try { return window.localStorage.getItem(KEY) === "1"; } catch { return false; }
}

export function setMuted(value) {
  try { window.localStorage.setItem(KEY, value ? "1" : "0"); } catch { /* private mode: for this page only */ }
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

// Browsers start audio only after a gesture: the first click or key wakes it up.
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { if (context && context.state === "suspended") context.resume().catch(() => {}); }, { capture: true, passive: true });
}

/** A short tone with a quick attack and an exponential fade. */
function tone(ac, at, { freq, dur, type = "sine", gain = 0.2, to = null }) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + dur);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(amp).connect(ac.destination);
  osc.start(at);
  osc.stop(at + dur + 0.02);
}

/** A burst of filtered noise: a card sliding onto the felt. */
function swish(ac, at, { dur = 0.09, gain = 0.25, freq = 1800 } = {}) {
  const length = Math.ceil(ac.sampleRate * dur);
  const buffer = ac.createBuffer(1, length, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const source = ac.createBufferSource();
  const filter = ac.createBiquadFilter();
  const amp = ac.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = freq;
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ac.destination);
  source.start(at);
}

const SOUNDS = {
  play(ac, at) {
    swish(ac, at);
    tone(ac, at, { freq: 180, to: 90, dur: 0.08, type: "triangle", gain: 0.18 });
  },
  capture(ac, at) {
    swish(ac, at, { dur: 0.12, freq: 2400 });
    tone(ac, at + 0.04, { freq: 523, dur: 0.12, type: "triangle", gain: 0.12 });
    tone(ac, at + 0.11, { freq: 784, dur: 0.16, type: "triangle", gain: 0.12 });
  },
  basra(ac, at) {
    swish(ac, at, { dur: 0.12, freq: 2400 });
    [523, 659, 784, 1047].forEach((freq, i) => tone(ac, at + 0.05 + i * 0.09, { freq, dur: 0.35, type: "square", gain: 0.06 }));
  },
  turn(ac, at) {
    tone(ac, at, { freq: 880, dur: 0.5, gain: 0.12 });
    tone(ac, at + 0.12, { freq: 1175, dur: 0.6, gain: 0.1 });
  },
  select(ac, at) {
    tone(ac, at, { freq: 660, dur: 0.06, type: "triangle", gain: 0.14 });
  },
  error(ac, at) {
    tone(ac, at, { freq: 220, to: 150, dur: 0.22, type: "sawtooth", gain: 0.07 });
    tone(ac, at + 0.16, { freq: 196, to: 130, dur: 0.25, type: "sawtooth", gain: 0.07 });
  },
};

/** Play one of "play", "capture", "basra", "turn", "select", "error" (unless muted). */
export function playSound(name) {
  const muted = isMuted();
  document.dispatchEvent(new CustomEvent("basra:sound", { detail: { name, muted } }));
  if (muted || !SOUNDS[name]) return;
  setTimeout(() => {  // after the page is drawn: the sound never delays what it goes with
    try {
      const ac = audio();
      if (ac) SOUNDS[name](ac, ac.currentTime + 0.01);
    } catch { /* no audio here: the game goes on silently */ }
  }, 0);
}

// A speaker drawn in SVG (no emoji font needed), with waves or crossed out.
const SPEAKER = '<path d="M3 9v6h4l5 4V5L7 9z" fill="currentColor"/>';
const ICON_ON = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">${SPEAKER}<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
const ICON_OFF = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">${SPEAKER}<path d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;

/** Wire the top bar's switch (pressed: muted); t translates its words. Returns its redraw. */
export function muteSwitch(button, t) {
  const draw = () => {
    const muted = isMuted();
    button.innerHTML = muted ? ICON_OFF : ICON_ON;
    button.setAttribute("aria-pressed", String(muted));
    button.setAttribute("aria-label", t("mute"));
    button.title = t(muted ? "sound_off" : "sound_on");
  };
  button.addEventListener("click", () => { setMuted(!isMuted()); draw(); });
  draw();
  return draw;
}
