// Clocks at the table: every seat's countdown from the server's "clock" message,
// and the tab's title telling a person it is their turn (sound.js sounds it,
// under the page's one mute switch).

import { num } from "./i18n.js";

const TWO_DIGITS = {
  en: new Intl.NumberFormat("en", { minimumIntegerDigits: 2 }),
  ar: new Intl.NumberFormat("ar-EG", { minimumIntegerDigits: 2 }),
};

/** Seconds as m:ss (h:mm:ss from an hour: a turn-based table's days), in the page's digits. */
export function clockText(seconds, lang) {
  const s = Math.max(0, Math.ceil(seconds));
  const two = TWO_DIGITS[lang] || TWO_DIGITS.en;
  if (s >= 3600) return `${num(Math.floor(s / 3600), lang)}:${two.format(Math.floor((s % 3600) / 60))}:${two.format(s % 60)}`;
  return `${num(Math.floor(s / 60), lang)}:${TWO_DIGITS[lang].format(s % 60)}`;
}

/** Every seat's clock, counted down here from the last message (the server's time is the truth). */
export class SeatClocks {
  constructor(lang) {
    this.lang = lang;
    this.msg = null;
    this.at = 0;
    this.timer = setInterval(() => this.tick(), 250);
  }

  close() { clearInterval(this.timer); }

  update(message) {
    this.msg = message;
    this.at = performance.now();
    this.tick();
  }

  /** What is left of a seat's clock now: the move's seconds (while running) and the reserve. */
  left(seat) {
    const msg = this.msg;
    if (!msg || msg.reserves[seat] === null || msg.reserves[seat] === undefined) return null;
    const running = msg.turn === seat && msg.move_left !== null;
    if (!running) return { running, move: null, reserve: msg.reserves[seat] };
    const elapsed = (performance.now() - this.at) / 1000;
    const over = Math.max(0, elapsed - msg.move_left);
    return { running, move: Math.max(0, msg.move_left - elapsed), reserve: Math.max(0, msg.reserves[seat] - over) };
  }

  /** The countdown of a person's seat, kept up to date while it is on the page. */
  node(seat) {
    const node = document.createElement("span");
    node.className = "clock";
    node.dir = "ltr";  // "0:27 +1:00" reads the same in Arabic
    node.dataset.clock = String(seat);
    this.draw(node);
    return node;
  }

  draw(node) {
    const seat = Number(node.dataset.clock);
    const left = this.left(seat);
    if (!left) { node.textContent = ""; return; }
    const lang = this.lang;
    let text;
    if (left.running && left.move > 0) text = `${clockText(left.move, lang)} +${clockText(left.reserve, lang)}`;
    else text = `+${clockText(left.reserve, lang)}`;
    node.textContent = text;
    node.classList.toggle("running", left.running);
    node.classList.toggle("low", left.running && left.move <= 0 && left.reserve <= 10);
    const missed = this.msg.missed?.[seat] || 0;
    node.title = missed ? `${missed}` : "";
  }

  tick() {
    for (const node of document.querySelectorAll(".clock[data-clock]")) this.draw(node);
  }
}

/** The tab's title says when it is this person's turn (sound.js plays the turn's sound). */
export class TurnAlert {
  constructor() { this.mine = false; }

  update(myTurn, turnTitle, baseTitle) {
    document.title = myTurn ? turnTitle : baseTitle;
    this.mine = myTurn;
  }

  close(baseTitle) {
    document.title = baseTitle;
    this.mine = false;
  }
}
