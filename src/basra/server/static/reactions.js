// Reactions at the table: quick phrases and emoji from a fixed list. They travel as
// codes ({type: "react", code}) and are put into words here, in English or Arabic.
// Everyone's reactions show for a few seconds in a stack over the page; a switch
// hides them all, remembered on this device (localStorage "basra.reactions").

import "./words-play.js";

export const PHRASES = ["hello", "good_luck", "well_played", "nice_basra", "thanks", "sorry", "oops", "thinking", "hurry", "good_game", "rematch"];
export const EMOJI = { smile: "😊", laugh: "😂", clap: "👏", wow: "😮", sad: "😢", fire: "🔥", heart: "❤️", cool: "😎" };
const MUTED = "basra.reactions";
const SHOWN_MS = 4000;

export class Reactions {
  /** `send(message)` sends over the table's socket. */
  constructor(ui, send) {
    this.ui = ui;
    this.send = send;
    this.open = false;
    this.stack = ui.h("div", { class: "reaction-stack", id: "reactions", "aria-live": "polite" });
    document.body.append(this.stack);
  }

  get muted() { return localStorage.getItem(MUTED) === "off"; }

  close() { this.stack.remove(); }

  /** What a code says: a phrase in words, an emoji as itself. */
  text(code) {
    return EMOJI[code] || this.ui.t("react_" + code);
  }

  /** A reaction from a seat: shown for a moment, unless reactions are muted. */
  show(seat, code, name) {
    if (this.muted || !(PHRASES.includes(code) || code in EMOJI)) return;
    const { h, bdi } = this.ui;
    const bubble = h("div", { class: "reaction" + (code in EMOJI ? " emoji" : ""), "data-seat": seat, "data-code": code },
      h("strong", {}, bdi(name)), " ", h("span", { "aria-label": this.ui.t("react_" + code) }, this.text(code)));
    this.stack.append(bubble);
    while (this.stack.children.length > 4) this.stack.firstChild.remove();
    setTimeout(() => bubble.remove(), SHOWN_MS);
  }

  /** The panel of a seated person: the phrases and emoji to send, and the mute switch. */
  panel() {
    const { h, t } = this.ui;
    const mute = h("button", {
      type: "button", class: "secondary", id: "reactions-mute", "aria-pressed": String(this.muted), title: t("reactions_mute_help"),
      onclick: () => {
        localStorage.setItem(MUTED, this.muted ? "on" : "off");
        if (this.muted) this.stack.replaceChildren();
        mute.setAttribute("aria-pressed", String(this.muted));
        mute.textContent = this.muted ? t("reactions_off") : t("reactions_on");
      },
    }, this.muted ? t("reactions_off") : t("reactions_on"));
    const choices = h("div", { class: "reaction-choices", id: "reaction-choices", hidden: !this.open },
      PHRASES.map((code) => h("button", { type: "button", class: "secondary", "data-react": code, onclick: () => this.react(code) }, t("react_" + code))),
      Object.entries(EMOJI).map(([code, emoji]) => h("button", { type: "button", class: "secondary emoji", "data-react": code, "aria-label": t("react_" + code), onclick: () => this.react(code) }, emoji)));
    const toggle = h("button", { type: "button", id: "react", "aria-expanded": String(this.open), onclick: () => {
      this.open = !this.open;
      choices.hidden = !this.open;
      toggle.setAttribute("aria-expanded", String(this.open));
    } }, t("react"));
    return h("section", { class: "panel reactions-panel" }, h("div", { class: "actions" }, toggle, mute), choices);
  }

  react(code) {
    this.send({ type: "react", code });
    this.open = false;
    document.getElementById("reaction-choices")?.setAttribute("hidden", "");
    document.getElementById("react")?.setAttribute("aria-expanded", "false");
  }
}
