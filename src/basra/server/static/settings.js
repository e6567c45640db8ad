// Rule settings for people: their labels, their values in words (the rules page's
// table) and readable fields to edit them (the custom settings of a new table).
// Cards are written as the game writes them, "7♦" (rank first, Latin digits,
// isolated left to right) in both languages; numbers in the page's digits.

import { cardLabel, h } from "./dom.js";
import { CHOICE_LABELS, SETTING_CHOICES, SETTING_LABELS, iso, num, translate } from "./i18n.js";

const CARD_TOKEN = /((?:10|[2-9AJQK])[♠♥♦♣])/;
const SUIT_LETTERS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["S", "H", "D", "C"];
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** Text with every card in it ("7♦") as the game's card label. */
export function withCards(text, lang) {
  return String(text).split(CARD_TOKEN).map((part, i) =>
    (i % 2 ? cardLabel(part.slice(0, -1) + SUIT_LETTERS[part.slice(-1)], lang) : part)).filter((part) => part !== "");
}

/** A setting's name, as nodes. */
export function settingLabel(key, lang) {
  return withCards(SETTING_LABELS[lang][key] ?? key, lang);
}

const isCardKey = (key) => /[SHDC]$/i.test(key);
const keyText = (key) => (isCardKey(key) ? key.slice(0, -1) + SYMBOLS[key.slice(-1).toUpperCase()] : key);

/** One point_cards entry in words: "every A = 1", "10♦ = 3". */
function pointEntry(key, value, lang) {
  const card = isCardKey(key);
  const label = card ? cardLabel(key.slice(0, -1) + key.slice(-1).toUpperCase(), lang) : h("bdi", { dir: "ltr", class: "card-text" }, key);
  return h("span", { class: "entry" }, card ? null : translate(lang, "point_each") + " ", label, " = ", num(value, lang));
}

/** True when a Q or K basra scores basra_points: double_face with a picture lacking a face value. */
function picturesUseBasraPoints(rules) {
  const faces = rules.face_values || {};
  return rules.pack !== 44 && (!("Q" in faces) || !("K" in faces));
}

/** A setting's value in words, as nodes (the rules page's table). */
export function settingValue(key, rules, lang) {
  const value = rules[key];
  const t = (k, p) => translate(lang, k, p);
  const sep = () => h("span", { class: "muted" }, " · ");
  const choice = (v) => withCards(CHOICE_LABELS[lang][String(v)] ?? String(v), lang);
  if (key === "point_cards") {
    const entries = Object.entries(value || {});
    return entries.length ? entries.flatMap(([k, v], i) => [i ? sep() : null, pointEntry(k, v, lang)]) : ["—"];
  }
  if (key === "face_values") {
    if (rules.basra_value !== "double_face") return [h("span", { class: "muted" }, t("not_used"))];
    const entries = Object.entries(value || {});
    if (!entries.length) return ["—"];
    return entries.flatMap(([k, v], i) => [i ? sep() : null, h("bdi", { dir: "ltr", class: "card-text" }, k), " = ", num(v, lang)]);
  }
  if (key === "basra_points" && rules.basra_value === "double_face") {
    // A double_face basra scores twice the capturing card's face value: basra_points
    // counts only for a queen or king without a face value.
    if (!picturesUseBasraPoints(rules)) return [h("span", { class: "muted" }, t("basra_points_unused"))];
    return [num(value, lang), " ", h("span", { class: "muted" }, t("basra_points_pictures"))];
  }
  if (Array.isArray(value)) return choice(value.join(","));
  if (typeof value === "number") return [num(value, lang)];
  return choice(value);
}

/** JSON with object keys sorted: two settings are the same whatever their key order. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

/** The point_cards field: a row per rank or card with its points, a button to add one. */
function pointCardsField(current, lang, high, onChange) {
  const t = (k, p) => translate(lang, k, p);
  const rows = Object.entries(current || {}).map(([key, value]) => ({ key: isCardKey(key) ? key.toUpperCase() : key, value }));
  const box = h("div", { class: "points-field", "data-setting": "point_cards" });
  const emit = () => onChange(Object.fromEntries(rows.map((r) => [r.key, r.value])));
  const keyOptions = (selected, taken) => [
    h("optgroup", { label: t("points_ranks") }, RANKS.map((rank) =>
      h("option", { value: rank, selected: rank === selected, disabled: rank !== selected && taken.has(rank) }, `${t("point_each")} ${iso(rank)}`))),
    h("optgroup", { label: t("points_cards") }, RANKS.flatMap((rank) => SUITS.map((suit) => {
      const key = rank + suit;
      return h("option", { value: key, selected: key === selected, disabled: key !== selected && taken.has(key) }, iso(rank + SYMBOLS[suit]));
    }))),
  ];
  const draw = () => {
    const taken = new Set(rows.map((r) => r.key));
    box.replaceChildren(
      ...rows.map((row, i) => h("div", { class: "points-row", "data-row": i },
        h("select", { "aria-label": t("points_which"), "data-key": row.key, onchange: (e) => { row.key = e.target.value; draw(); emit(); } }, keyOptions(row.key, taken)),
        h("input", { type: "number", min: "0", max: String(high), value: String(row.value), "aria-label": t("points_worth"),
          onchange: (e) => { row.value = Math.max(0, Math.round(Number(e.target.value) || 0)); emit(); } }),
        h("button", { type: "button", class: "secondary small", "aria-label": t("remove"), title: t("remove"),
          onclick: () => { rows.splice(i, 1); draw(); emit(); } }, "✕"))),
      h("button", { type: "button", class: "secondary small", "data-add": "point_cards", onclick: () => {
        const free = [...RANKS, ...RANKS.flatMap((r) => SUITS.map((s) => r + s))].find((k) => !taken.has(k));
        if (!free) return;
        rows.push({ key: free, value: 1 }); draw(); emit();
      } }, t("points_add")));
  };
  draw();
  return box;
}

/** The face_values field: the queen's and the king's value, empty for none. */
function faceValuesField(current, lang, high, onChange) {
  const t = (k, p) => translate(lang, k, p);
  const values = { ...(current || {}) };
  const box = h("div", { class: "faces-field", "data-setting": "face_values" });
  for (const rank of ["Q", "K"]) {
    box.append(h("label", { class: "face" }, t(rank === "Q" ? "face_q" : "face_k"), " ", h("bdi", { dir: "ltr", class: "card-text" }, rank),
      h("input", { type: "number", min: "0", max: String(high), value: rank in values ? String(values[rank]) : "", placeholder: t("face_none"), "data-face": rank,
        onchange: (e) => {
          if (e.target.value === "") delete values[rank];
          else values[rank] = Math.max(0, Math.round(Number(e.target.value) || 0));
          onChange({ ...values });
        } })));
  }
  return box;
}

/** A field to edit one setting; onChange(value) gets the new JSON value. */
export function settingField(key, current, lang, bounds, onChange) {
  if (SETTING_CHOICES[key]) {
    return h("select", { "data-setting": key, onchange: (e) => onChange(JSON.parse(e.target.value)) },
      SETTING_CHOICES[key].map((choice) => h("option", { value: JSON.stringify(choice), selected: canonical(choice) === canonical(current) },
        typeof choice === "number" ? num(choice, lang) : (CHOICE_LABELS[lang][String(choice)] ?? String(choice)).replace(CARD_TOKEN, (c) => iso(c)))));
  }
  const cardBound = bounds.card_points ?? 100;
  if (key === "point_cards") return pointCardsField(current, lang, cardBound, onChange);
  if (key === "face_values") return faceValuesField(current, lang, cardBound, onChange);
  const [low, high] = bounds[key] || [0, null];
  return h("input", { type: "number", min: String(low), max: high === null ? null : String(high), value: current, "data-setting": key,
    onchange: (e) => onChange(Number(e.target.value)) });
}

/**
 * A refused create-table or rules form (``bad_settings`` with its ``field``) for a person:
 * the controls to mark in ``scope`` and the words naming them by their labels. ``sent``
 * is the rules sent (overrides), ``bounds`` the server's (GET /api/variants).
 */
export function settingsProblem(err, scope, lang, bounds, { rated = false, sent = {} } = {}) {
  const t = (k, p) => translate(lang, k, p);
  const field = String(err.field || "");
  const labelOf = (key) => (SETTING_LABELS[lang][key] ?? key);
  const inside = (holder) => (!holder ? [] : holder.matches("input, select") ? [holder] : [...holder.querySelectorAll("input, select")]);
  if (field.startsWith("rules.")) {
    const key = field.slice(6);
    const controls = inside(scope.querySelector(`[data-setting="${key}"]`));
    const label = labelOf(key);
    if (bounds[key]) return { controls, message: t("err_field_range", { label, low: bounds[key][0], high: bounds[key][1] }) };
    if (key === "point_cards" || key === "face_values") {
      const high = bounds.card_points ?? 100;
      const values = Object.values(sent[key] || {});
      // The only other refusal of point cards: nothing scores at all.
      if (key === "point_cards" && !values.some((v) => v > high)) return { controls, message: t("err_settings_never_end") };
      return { controls, message: t("err_field_range", { label, low: 0, high }) };
    }
    return { controls, message: t("err_field_invalid", { label }) };
  }
  const byId = (id) => scope.querySelector(`#${id}`);
  const labelled = (control, fallback) => {
    const label = control ? (scope.querySelector(`label[for="${control.id}"]`) || control.closest("label"))?.textContent?.trim() : "";
    return label || fallback;
  };
  if (field === "rules") return { controls: [], message: rated ? t("err_rated_rules") : `${t("err_bad_settings")}${lang === "en" && err.message ? ` (${err.message})` : ""}` };
  if (field === "teams") return { controls: [byId("teams")].filter(Boolean), message: t("err_teams_four") };
  if (field === "hints") return { controls: [byId("hints")].filter(Boolean), message: t("err_rated_hints") };
  if (field === "rated") return { controls: [byId("rated")].filter(Boolean), message: t("err_rated_person") };
  if (field === "clock" || field.startsWith("clock.")) {
    const clock = byId("clock");
    return { controls: [clock].filter(Boolean), message: rated ? t("err_rated_clock") : t("err_program_clock") };
  }
  const seat = /^seats\.(\d+)/.exec(field);
  if (seat || field === "seats" || field === "my_seat") {
    const controls = seat ? [scope.querySelector(`select[data-seat="${seat[1]}"]`)].filter(Boolean) : [...scope.querySelectorAll("select[data-seat]")];
    return { controls, message: t("err_field_invalid", { label: labelled(controls[0], t("seats")) }) };
  }
  const control = byId(field);
  return { controls: [control].filter(Boolean), message: t("err_field_invalid", { label: labelled(control, field) }) };
}
