// DOM helpers shared by the page's modules: elements, a keyed patch that updates a
// drawn part in place (so focus and screen readers keep their place), card images
// and card labels. Card labels are isolated left to right (<bdi dir="ltr">), so
// "7♦" reads "7♦" with Latin digits in Arabic too; in blind mode (words on) they
// are the card's name in words ("seven of diamonds").

import { cardName, cardShort, isRed, num, translate } from "./i18n.js";

const HANDLERS = Symbol("handlers");

/** Listen through one dispatcher per event type, so patch() can hand a node new handlers. */
function listen(node, type, handler) {
  const handlers = node[HANDLERS] || (node[HANDLERS] = {});
  if (!(type in handlers)) node.addEventListener(type, (event) => handlers[type]?.(event));
  handlers[type] = handler;
}

/** An element: h("p", { class: "x", onclick: f }, "text", child, [more]). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) listen(node, key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.style.cssText = value;  // through CSSOM: the CSP refuses style attributes
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A node's key among its siblings: its id, data-key or data-card (null: matched by position). */
function keyOf(node) {
  if (node.nodeType !== 1) return null;
  return node.id || node.getAttribute("data-key") || node.getAttribute("data-card") || null;
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

/** Make ``old`` look like ``fresh`` (same tag and key), keeping ``old`` in the page. */
function morph(old, fresh) {
  if (old.nodeType === 3 || old.nodeType === 8) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return old;
  }
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  const handlers = fresh[HANDLERS] || {};
  for (const type of Object.keys(old[HANDLERS] || {})) if (!(type in handlers)) old[HANDLERS][type] = null;
  for (const [type, handler] of Object.entries(handlers)) listen(old, type, handler);
  if (old.tagName === "INPUT") {
    old.checked = fresh.checked;
    old.disabled = fresh.disabled;
    if (old !== document.activeElement && old.value !== fresh.value) old.value = fresh.value;
  }
  patchChildren(old, [...fresh.childNodes]);
  return old;
}

function patchChildren(parent, freshKids) {
  const oldKids = [...parent.childNodes];
  const keyed = new Map();
  for (const kid of oldKids) { const key = keyOf(kid); if (key !== null && !keyed.has(key)) keyed.set(key, kid); }
  const loose = oldKids.filter((kid) => keyOf(kid) === null);
  const result = freshKids.map((fresh) => {
    const key = keyOf(fresh);
    let match = null;
    if (key !== null) {
      match = keyed.get(key) || null;
      keyed.delete(key);
    } else {
      const at = loose.findIndex((kid) => sameKind(kid, fresh));
      if (at >= 0) match = loose.splice(at, 1)[0];
    }
    return match && sameKind(match, fresh) ? morph(match, fresh) : fresh;
  });
  // Drop what went first, so the nodes kept never move unless their order changed
  // (a node moved loses focus, and a screen reader reads it again).
  const kept = new Set(result);
  for (const kid of oldKids) if (!kept.has(kid)) kid.remove();
  result.forEach((node, i) => {
    const at = parent.childNodes[i];
    if (at !== node) parent.insertBefore(node, at || null);
  });
}

/**
 * Draw ``children`` into ``parent`` by updating what is there: a child with the
 * same tag and key (id, data-key or data-card; else its place among its kind) is
 * kept and changed in place, so the focused card or button stays focused and a
 * screen reader hears nothing that did not change.
 */
export function patch(parent, ...children) {
  const fresh = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  patchChildren(parent, fresh);
}

/** Text isolated from its surroundings (a name, a score). */
export function bdi(text) { return h("bdi", {}, text); }

export function cardFile(text) {
  const rank = text.slice(0, -1);
  return `/static/cards/${rank === "10" ? "T" : rank}${text.slice(-1)}.svg`;
}

export function cardImg(text, lang) {
  return h("img", { src: cardFile(text), alt: cardName(text, lang), title: cardName(text, lang), draggable: "false" });
}

export function backImg() {
  return h("img", { src: "/static/cards/back.svg", alt: "", draggable: "false" });
}

let cardWords = false;

/** Blind mode: card labels are the cards' names in words ("8 of clubs"), not "8♣". */
export function setCardWords(on) { cardWords = Boolean(on); }

/** A card as text: rank and suit, isolated so it reads the same in Arabic (its name in words in blind mode). */
export function cardLabel(text, lang) {
  if (cardWords) return h("span", { class: "card-text card-words" }, cardName(text, lang));
  return h("bdi", { dir: "ltr", class: "card-text" + (isRed(text) ? " suit-red" : ""), title: cardName(text, lang) }, cardShort(text));
}

export function cardsLabel(texts, lang) {
  const out = [];
  texts.forEach((c, i) => { if (i) out.push(translate(lang, "list_sep")); out.push(cardLabel(c, lang)); });
  return out;
}

/** A translated sentence with nodes in it: "{name} plays {card}" -> [text, node, text]. */
export function fill(text, params, lang) {
  const parts = text.split(/(\{\w+\})/);
  return parts.map((part) => {
    const m = part.match(/^\{(\w+)\}$/);
    if (!m) return part;
    const value = params[m[1]];
    if (typeof value === "number") return num(value, lang);
    return value;
  });
}
