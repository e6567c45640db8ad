// The table's input, after lichess's round keyboard: what a person's pointer and keys
// mean, turned into the controller's intents (table.js: pressCard, choose, pickChoice,
// play, cancel, preview, askHint...). The view hands every pointer gesture here
// (a card clicked, hovered or focused, a choice, the confirm setting, a sheet's
// button); the keys come from the document while the table is shown:
// - 1-6 (Latin or Arabic-Indic digits) press the n-th card of the hand, or choose the
//   n-th set when a card can take different sets;
// - the arrows, Home and End move the focus along the hand, as it is laid out (right
//   to left in Arabic);
// - Escape cancels a choice or an armed card; Enter plays the armed card.
// Fields (a name, blind mode's command box) and other pages' keys are left alone.
// It decides no rule of the game: what a card may take is the snapshot's legal moves.
// It imports neither the view nor the non-visual plugin.

import { ARABIC_DIGITS } from "../i18n.js";

/** The digit a key stands for (Latin or Arabic-Indic), or null. */
function digitOf(event) {
  const key = event.key;
  if (/^[0-9]$/.test(key)) return Number(key);
  const arabic = ARABIC_DIGITS.indexOf(key);
  if (arabic >= 0) return arabic;
  const code = /^(?:Digit|Numpad)([0-9])$/.exec(event.code || "");
  return code && !event.shiftKey ? Number(code[1]) : null;
}

/** True when keys typed go into a field (the table's keys leave them alone). */
function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable='true']"));
}

export class TableInput {
  /** ``ctrl``: the table's controller (table.js). */
  constructor(ctrl) {
    this.ctrl = ctrl;
  }

  // ------------------------------------------------------------ keys

  /** The table's keys; fields and other pages' keys are left alone. */
  key(event) {
    const ctrl = this.ctrl;
    if (ctrl.closed || !ctrl.msg || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target) || !ctrl.node.isConnected) return;
    const view = ctrl.msg.view;
    if (view.seat === null || view.seat === undefined) return;
    const digit = digitOf(event);
    if (digit !== null && digit >= 1) {
      event.preventDefault();
      if (ctrl.selected) { ctrl.pickChoice(digit); return; }
      ctrl.pressCard(digit);
      return;
    }
    const inHand = event.target.closest?.(".hand");
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key) && inHand) {
      event.preventDefault();
      this.moveFocus(event.key);
      return;
    }
    if (event.key === "Escape" && (ctrl.selected || ctrl.armed)) {
      event.preventDefault();
      ctrl.cancel();
      return;
    }
    if (event.key === "Enter" && ctrl.armed && !event.target.closest?.("button, a")) {
      event.preventDefault();
      ctrl.pressCard(ctrl.hand().indexOf(ctrl.armed) + 1);
    }
  }

  /** Arrows move the focus along the hand, as it is laid out (right to left in Arabic). */
  moveFocus(key) {
    const buttons = this.ctrl.handButtons();
    if (!buttons.length) return;
    const at = Math.max(0, buttons.indexOf(document.activeElement));
    const rtl = getComputedStyle(buttons[0].parentElement).direction === "rtl";
    let next = at;
    if (key === "Home") next = 0;
    else if (key === "End") next = buttons.length - 1;
    else if (key === "ArrowUp" || (key === "ArrowLeft") !== rtl) next = at - 1;
    else next = at + 1;
    next = (next + buttons.length) % buttons.length;
    this.ctrl.focusCard(next);
  }

  // ------------------------------------------------------------ pointer (the view's gestures)

  /** A card of the hand clicked: chosen on the person's turn, else pressed (which says why not). */
  cardClick(card) {
    const ctrl = this.ctrl;
    if (ctrl.isMyTurn(ctrl.msg.view) && ctrl.sent !== ctrl.msg.version) ctrl.choose(card, ctrl.optionsOf(card));
    else ctrl.pressCard(ctrl.hand().indexOf(card) + 1);
  }

  /** A card hovered (or left: null): what it would take, marked on the floor. */
  cardHover(card) {
    this.ctrl.preview(card, card === null ? [] : this.ctrl.optionsOf(card));
  }

  /** A card focused (by Tab, the arrows or a click): it takes the hand's Tab stop, and is previewed. */
  cardFocus(card) {
    this.ctrl.handIndex = this.ctrl.hand().indexOf(card);
    this.cardHover(card);
  }

  /** A choice of sets hovered, or focused: its cards marked on the floor. */
  choiceHover(index) { this.ctrl.focusChoice(index, true); }

  choiceFocus(index) { this.ctrl.focusChoice(index, false); }

  choiceClick(move) { this.ctrl.play(move); }

  cancelClick() { this.ctrl.cancel(); }

  hintClick() { this.ctrl.askHint(); }

  /** The "confirm each play" setting changed. */
  confirmChange(checked) { this.ctrl.setConfirm(checked); }

  /** The round's score sheet's Continue. */
  continueClick(rounds) { this.ctrl.sheetSeen(rounds); }

  joinClick(seat) { this.ctrl.actions.join(seat); }

  rematchClick() { this.ctrl.actions.rematch(); }
}
