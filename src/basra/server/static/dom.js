// DOM helpers shared by the page's modules: elements, card images and card labels.
// Card labels are isolated left to right (<bdi dir="ltr">), so "7♦" reads "7♦" with
// Latin digits in Arabic too, the same in the game, the settings and the rules.

import { cardName, cardShort, isRed, num } from "./i18n.js";

/** An element: h("p", { class: "x", onclick: f }, "text", child, [more]). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
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

/** A card as text: rank and suit, isolated so it reads the same in Arabic. */
export function cardLabel(text, lang) {
  return h("bdi", { dir: "ltr", class: "card-text" + (isRed(text) ? " suit-red" : ""), title: cardName(text, lang) }, cardShort(text));
}

export function cardsLabel(texts, lang) {
  const out = [];
  texts.forEach((c, i) => { if (i) out.push(lang === "ar" ? "، " : ", "); out.push(cardLabel(c, lang)); });
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
