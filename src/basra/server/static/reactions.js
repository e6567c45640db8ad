// Reactions at the table: quick phrases and emoji from a fixed list. They travel as
// codes ({type: "react", code}) and are put into words here, in English or Arabic.
// Everyone's reactions show for a few seconds in a stack over the page; a switch
// hides them all, remembered on this device (localStorage "basra.reactions").
// Emoji show as words where the system has no font to draw them.


export const PHRASES = ["hello", "good_luck", "well_played", "nice_basra", "thanks", "sorry", "oops", "thinking", "hurry", "good_game", "rematch"];
export const EMOJI = { smile: "😊", laugh: "😂", clap: "👏", wow: "😮", sad: "😢", fire: "🔥", heart: "❤️", cool: "😎" };
const MUTED = "basra.reactions";
const SHOWN_MS = 4000;

let emojiDrawn = null;

/** True when this system draws emoji in colour (a font has them); else they show as words. */
export function canDrawEmoji() {
  if (emojiDrawn !== null) return emojiDrawn;
  emojiDrawn = false;
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 24;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    ctx.textBaseline = "top";
    ctx.font = "20px sans-serif";
    ctx.fillText("😊", 0, 0);
    const data = ctx.getImageData(0, 0, 24, 24).data;
    // A colour font paints coloured pixels; a missing glyph is an outline box (grey) or nothing.
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 0 && (Math.abs(r - g) > 40 || Math.abs(g - b) > 40 || Math.abs(r - b) > 40)) { emojiDrawn = true; break; }
    }
  } catch { emojiDrawn = false; }
  return emojiDrawn;
}

export class Reactions {
  /** `send(message)` sends over the table's socket; `changed()` redraws the panel. */
  constructor(ui, send, changed = () => {}) {
    this.ui = ui;
    this.send = send;
    this.changed = changed;
    this.open = false;
    this.stack = ui.h("div", { class: "reaction-stack", id: "reactions", "aria-live": "polite" });
    document.body.append(this.stack);
  }

  get muted() { return localStorage.getItem(MUTED) === "off"; }

  close() { this.stack.remove(); }

  /** What a code says: a phrase in words, an emoji as itself (or its word, where it cannot be drawn). */
  text(code) {
    return code in EMOJI && canDrawEmoji() ? EMOJI[code] : this.ui.t("react_" + code);
  }

  /** A reaction from a seat: shown for a moment, unless reactions are muted. */
  show(seat, code, name) {
    if (this.muted || !(PHRASES.includes(code) || code in EMOJI)) return;
    const { h, bdi } = this.ui;
    const drawn = code in EMOJI && canDrawEmoji();
    const bubble = h("div", { class: "reaction" + (drawn ? " emoji" : ""), "data-seat": seat, "data-code": code },
      h("strong", {}, bdi(name)), " ",
      drawn ? [h("span", { "aria-hidden": "true" }, EMOJI[code]), h("span", { class: "sr-only" }, this.ui.t("react_" + code))]
        : h("span", {}, this.ui.t("react_" + code)));
    this.stack.append(bubble);
    while (this.stack.children.length > 4) this.stack.firstChild.remove();
    setTimeout(() => bubble.remove(), SHOWN_MS);
  }

  /** The panel of a seated person: a button that opens the phrases and emoji to send, and the mute switch. */
  panel() {
    const { h, t } = this.ui;
    const drawn = canDrawEmoji();
    const mute = h("button", {
      type: "button", class: "secondary", id: "reactions-mute", "aria-pressed": String(this.muted), title: t("reactions_mute_help"),
      onclick: () => {
        localStorage.setItem(MUTED, this.muted ? "on" : "off");
        if (this.muted) this.stack.replaceChildren();
        this.changed();
      },
    }, this.muted ? t("reactions_off") : t("reactions_on"));
    const choices = this.open ? h("div", { class: "reaction-choices", id: "reaction-choices" },
      PHRASES.map((code) => h("button", { type: "button", class: "secondary", "data-react": code, onclick: () => this.react(code) }, t("react_" + code))),
      Object.entries(EMOJI).map(([code, emoji]) => h("button", {
        type: "button", class: "secondary" + (drawn ? " emoji" : ""), "data-react": code, onclick: () => this.react(code),
        "aria-label": drawn ? t("react_" + code) : null, title: t("react_" + code),
      }, drawn ? emoji : t("react_" + code)))) : null;
    const toggle = h("button", { type: "button", id: "react", "aria-expanded": String(this.open), "aria-controls": "reaction-choices", onclick: () => {
      this.open = !this.open;
      this.changed();
    } }, t("react"));
    return h("section", { class: "panel reactions-panel", id: "reactions-panel", "aria-label": t("react") }, h("div", { class: "actions" }, toggle, mute), choices);
  }

  react(code) {
    this.send({ type: "react", code });
    this.open = false;
    this.changed();
  }
}
