// Words of the page, from the catalogues of static/locales/ (one ICU MessageFormat
// catalogue in JSON per language: key -> message). The server sends codes; they are put
// into words here. Card labels are isolated (<bdi>) so "7♥" never turns into "♥7".
//
// The languages are those the server found in static/locales/ (it writes their names on
// <html data-languages>), so adding a language is adding a catalogue. English and the
// chosen language are fetched before any module runs (a top-level await); another is
// fetched when the person picks it (loadLanguage). A word missing from a catalogue falls
// back to English (tests/web/test_catalogues.py keeps them complete).
//
// Messages (the subset basra/locales.py reads too): "{name}" is a value (numbers in the language's digits), "{n, plural, one {# card}
// other {# cards}}" picks a branch by the language's CLDR plural rules (Intl.PluralRules;
// "=2 {...}" matches exactly, "#" is the number), "{x, select, a {...} other {...}}" picks by
// value; a quote starts literal text before "{", "}" or "#" ("'{'"), "''" is one quote.

/** The languages on offer: code -> its name in itself (from the server; English alone without it). */
export const LANGUAGES = (() => {
  try {
    const text = globalThis.document?.documentElement?.dataset?.languages;
    if (text) return JSON.parse(text);
  } catch { /* the page is served without the list: English only */ }
  return { en: "English" };
})();

export const LANGS = Object.keys(LANGUAGES);

/** The catalogues fetched so far, by language: key -> message. */
export const DICTS = {};

/** Fetch a language's catalogue (once); resolves to it, or to English if it cannot be had. */
export async function loadLanguage(lang) {
  if (DICTS[lang]) return DICTS[lang];
  if (!LANGS.includes(lang)) return DICTS.en;
  const response = await fetch(new URL(`./locales/${lang}.json`, import.meta.url));
  if (!response.ok) throw new Error(`the ${lang} catalogue could not be fetched (${response.status})`);
  DICTS[lang] = await response.json();
  return DICTS[lang];
}

/** The language to show first: ?lang=, then the remembered choice, then the browser's
 * languages in order (their first part: "fr-CA" is "fr"), then English. */
export function chooseLanguage() {
  const wanted = [];
  try { wanted.push(new URLSearchParams(globalThis.location?.search || "").get("lang")); } catch { /* no address */ }
  try { wanted.push(globalThis.localStorage?.getItem("basra.lang")); } catch { /* storage off */ }
  for (const tag of globalThis.navigator?.languages || [globalThis.navigator?.language]) wanted.push(tag);
  for (const tag of wanted) {
    if (!tag) continue;
    const code = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

export const FIRST_LANGUAGE = chooseLanguage();
await Promise.all([loadLanguage("en"), loadLanguage(FIRST_LANGUAGE).catch(() => null)]);

/** The raw message of ``key`` in ``lang`` (English when it lacks it), or undefined. */
export function message(lang, key) {
  return DICTS[lang]?.[key] ?? DICTS.en?.[key];
}

/** The Intl locale of a language's numbers (Arabic writes Arabic-Indic digits: "ar-EG"). */
export function numberLocale(lang) {
  return message(lang, "number_locale") || lang;
}

/** Right to left or left to right. */
export function direction(lang) {
  return message(lang, "language_dir") === "rtl" ? "rtl" : "ltr";
}

// ------------------------------------------------------------------ messages

const PARSED = new Map();

/** Parse an ICU message into parts: strings, {arg}, {arg, plural|select, ...}, and "#". */
function parse(text) {
  let i = 0;
  function literal(until, inPlural) {
    let out = "";
    while (i < text.length) {
      const c = text[i];
      if (c === "'") {
        if (text[i + 1] === "'") { out += "'"; i += 2; continue; }
        if ("{}#|".includes(text[i + 1] ?? "")) {
          const close = text.indexOf("'", i + 1);
          const stop = close < 0 ? text.length : close;
          out += text.slice(i + 1, stop);
          i = stop + 1;
          continue;
        }
      }
      if (c === "{" || c === "}" || (c === "#" && inPlural)) break;
      out += c;
      i += 1;
    }
    return out;
  }
  function messageParts(inPlural) {
    const parts = [];
    while (i < text.length && text[i] !== "}") {
      const s = literal("}", inPlural);
      if (s) parts.push(s);
      if (text[i] === "#") { parts.push({ pound: true }); i += 1; }
      else if (text[i] === "{") parts.push(argument());
    }
    return parts;
  }
  function word() {
    while (/\s/.test(text[i] ?? "")) i += 1;
    const m = /^[^\s,{}]+/.exec(text.slice(i));
    if (!m) throw new SyntaxError(`a name expected at ${i} in ${JSON.stringify(text)}`);
    i += m[0].length;
    while (/\s/.test(text[i] ?? "")) i += 1;
    return m[0];
  }
  function argument() {
    i += 1;  // "{"
    const name = word();
    if (text[i] === "}") { i += 1; return { arg: name }; }
    if (text[i] !== ",") throw new SyntaxError(`"," or "}" expected at ${i} in ${JSON.stringify(text)}`);
    i += 1;
    const type = word();
    if (type !== "plural" && type !== "select") throw new SyntaxError(`unknown type ${type}`);
    if (text[i] !== ",") throw new SyntaxError(`"," expected at ${i} in ${JSON.stringify(text)}`);
    i += 1;
    const options = {};
    let offset = 0;
    for (;;) {
      while (/\s/.test(text[i] ?? "")) i += 1;
      if (text[i] === "}") { i += 1; break; }
      const selector = word();
      if (selector.startsWith("offset:")) { offset = Number(selector.slice(7)); continue; }
      if (text[i] !== "{") throw new SyntaxError(`"{" expected after ${selector} in ${JSON.stringify(text)}`);
      i += 1;
      options[selector] = messageParts(type !== "select");
      if (text[i] !== "}") throw new SyntaxError(`unclosed branch ${selector} in ${JSON.stringify(text)}`);
      i += 1;
    }
    if (!("other" in options)) throw new SyntaxError(`no "other" branch in ${JSON.stringify(text)}`);
    return { arg: name, type, options, offset };
  }
  const parts = messageParts(false);
  if (i < text.length) throw new SyntaxError(`unbalanced "}" at ${i} in ${JSON.stringify(text)}`);
  return parts;
}

/** A message's parts, parsed once. */
export function parsed(text) {
  if (!PARSED.has(text)) PARSED.set(text, parse(text));
  return PARSED.get(text);
}

const PLURAL_RULES = new Map();
function pluralRules(lang) {
  if (!PLURAL_RULES.has(lang)) PLURAL_RULES.set(lang, new Intl.PluralRules(numberLocale(lang)));
  return PLURAL_RULES.get(lang);
}

/** The Arabic-Indic digits, 0 to 9 (a key or a typed number may be written in them). */
export const ARABIC_DIGITS = "٠١٢٣٤٥٦٧٨٩";

const DIGITS = { "٠": 0, "١": 1, "٢": 2, "٣": 3, "٤": 4, "٥": 5, "٦": 6, "٧": 7, "٨": 8, "٩": 9, "٫": ".", "−": "-" };
/** A count as a number: numbers as they are, text written in any digits read back. */
function countOf(value) {
  if (typeof value === "number") return value;
  return Number(String(value).replace(/[٠-٩٫−]/g, (c) => DIGITS[c]).replace(/[^\d.+-]/g, ""));
}

function render(parts, lang, params, count, out) {
  for (const part of parts) {
    if (typeof part === "string") out.push(part);
    else if (part.pound) out.push(num(count, lang));
    else if (!part.type) {
      const value = params[part.arg];
      if (value === undefined) out.push(`{${part.arg}}`);
      else out.push(typeof value === "number" ? num(value, lang) : value);
    } else if (part.type === "select") {
      const value = String(params[part.arg]);
      render(part.options[value] ?? part.options.other, lang, params, count, out);
    } else {
      const n = countOf(params[part.arg]) - part.offset;
      const exact = part.options["=" + (n + part.offset)];
      const form = Number.isFinite(n) ? pluralRules(lang).select(n) : "other";
      render(exact ?? part.options[form] ?? part.options.other, lang, params, n, out);
    }
  }
  return out;
}

/** A message as a list of strings and the values given (DOM nodes stay nodes). */
export function parts(lang, key, params = {}) {
  const text = message(lang, key);
  if (text === undefined) return [key];
  const which = DICTS[lang]?.[key] !== undefined ? lang : "en";
  return render(parsed(text), which, params, 0, []);
}

/** A message as text. */
export function translate(lang, key, params = {}) {
  return parts(lang, key, params).join("");
}

// ------------------------------------------------------------------ cards and numbers

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function splitCard(text) {
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** A card's short label: rank and suit symbol (the same in every language). */
export function cardShort(text) {
  const { rank, suit } = splitCard(text);
  return rank + SUITS[suit];
}

/** A point_cards or face_values key as shown: a card (10D) as its short label, a rank (10, Q) as is. */
export function settingKeyLabel(key) {
  return /[SHDC]$/.test(key) ? cardShort(key) : key;
}

/** Left-to-right isolated text for use inside sentences ("7♦" never turns into "♦7"). */
export function iso(text) {
  return "\u2066" + text + "\u2069";
}

/** A card's full name for screen readers and titles ("ace of spades", "آس بستوني"). */
export function cardName(text, lang) {
  const { rank, suit } = splitCard(text);
  const rankWord = message(lang, "rank_name_" + rank) ?? Number(rank);
  return translate(lang, "card_name", { rank: rankWord, suit: translate(lang, "suit_name_" + suit) });
}

export function isRed(text) {
  const suit = text.slice(-1);
  return suit === "H" || suit === "D";
}

const FORMATS = new Map();
function formatter(lang, decimals) {
  const key = lang + decimals;
  if (!FORMATS.has(key)) {
    const options = decimals ? { minimumFractionDigits: 1, maximumFractionDigits: 1 } : {};
    FORMATS.set(key, new Intl.NumberFormat(numberLocale(lang), options));
  }
  return FORMATS.get(key);
}

/** Numbers in the language's digits (Arabic-Indic in Arabic, chosen by its catalogue). */
export function num(value, lang) {
  return formatter(lang, false).format(value);
}

/** A number with exactly one decimal (27.0, not 27), in the page's digits. */
export function num1(value, lang) {
  return formatter(lang, true).format(value);
}

/** A date and time as the language writes it. */
export function dateText(seconds, lang, options) {
  return new Date(seconds * 1000).toLocaleString(numberLocale(lang), options);
}

/** A date as the language writes it. */
export function dayText(seconds, lang) {
  return new Date(seconds * 1000).toLocaleDateString(numberLocale(lang));
}

/** Items joined as a list (", " or "، "). */
export function joinList(items, lang) {
  return items.join(translate(lang, "list_sep"));
}

// ------------------------------------------------------------------ rules from settings

function pointsText(points, lang) {
  const items = Object.entries(points).map(([key, value]) => {
    const isCard = /[SHDC]$/.test(key);
    return translate(lang, isCard ? "rules_point_card" : "rules_point_rank", { label: iso(settingKeyLabel(key)), n: value });
  });
  return items.length ? joinList(items, lang) : translate(lang, "rules_points_none");
}

/** The rules of a variant as sections of sentences, written from its settings. */
export function rulesText(rules, players, lang) {
  const t = (key, params) => translate(lang, key, params);
  const seven = iso(cardShort("7D"));
  const pictures = rules.pack === 44;
  const deal = [
    t(pictures ? "rules_pack_44" : "rules_pack_52"),
    t("rules_deal", { hand: rules.hand_size }),
    rules.bury.length ? t("rules_bury_" + rules.bury.join("_"), { seven }) : t("rules_bury_none"),
    t("rules_direction_" + rules.direction),
  ];
  const cap = [t("rules_one_card"), t("rules_rank_takes")];
  if (!pictures) cap.push(t("rules_pictures_pair"));
  cap.push(t("rules_jack_sweeps"), t("rules_policy_" + rules.capture_policy), t("rules_seven_" + rules.seven_diamonds, { seven }));
  if (rules.seven_diamonds !== "plain") cap.push(t("rules_seven_empty", { seven }));
  const b = [t("rules_mode_" + rules.basra_mode)];
  if (rules.basra_value === "flat") b.push(t("rules_basra_flat", { n: rules.basra_points }));
  else {
    const values = rules.face_values || {};
    const faces = Object.entries(values).map(([r, v]) => `${r} = ${num(v, lang)}`);
    // A queen or king without a face value scores basra_points (a 44-card pack has none).
    const unvalued = ["Q", "K"].filter((r) => !(r in values)).map((r) => t("rules_picture_" + r));
    const rest = !unvalued.length || pictures ? "" : t("rules_basra_rest", { pictures: unvalued.join(t("word_or")), n: rules.basra_points });
    b.push(t("rules_basra_double", { faces: faces.length ? t("list_sep") + joinList(faces, lang) : "", rest }));
  }
  b.push(rules.jack_on_lone_jack > 0 ? t("rules_jack_jack", { n: rules.jack_on_lone_jack }) : t("rules_jack_jack_none"));
  b.push(t(rules.basra_on_last_play ? "rules_last_counts" : "rules_last_not"));
  const sc = [
    t("rules_leftover"),
    t("rules_card_points", { points: pointsText(rules.point_cards, lang) }),
    t("rules_majority", { n: rules.majority_bonus, tie: t("rules_tie_" + rules.majority_tie) }),
    t("rules_target", { n: rules.target }),
    t(rules.end_tie === "draw" ? "rules_end_draw" : "rules_end_extra_rounds"),
    t("rules_teams"),
  ];
  return [
    { title: t("rules_title_deal"), items: deal },
    { title: t("rules_title_capture"), items: cap },
    { title: t("rules_title_basra"), items: b },
    { title: t("rules_title_scoring"), items: sc },
  ];
}

/** The words of a family of keys in a language: {suffix: message}, in the English catalogue's order. */
function family(prefix, rename = (k) => k) {
  const cache = new Map();
  return new Proxy({}, {
    get(_, lang) {
      if (typeof lang !== "string") return undefined;
      const dict = DICTS[lang] || DICTS.en;
      if (cache.get(lang)?.dict !== dict) {
        const out = {};
        for (const key of Object.keys(DICTS.en)) {
          if (key.startsWith(prefix)) out[rename(key.slice(prefix.length))] = message(lang, key);
        }
        cache.set(lang, { dict, out });
      }
      return cache.get(lang).out;
    },
  });
}

/** Variant names by language: VARIANT_NAMES[lang][variant]. */
export const VARIANT_NAMES = family("variant_");
/** Setting names by language, in the settings' order: SETTING_LABELS[lang][setting]. */
export const SETTING_LABELS = family("setting_");
/** Names of the settings' choices by language: CHOICE_LABELS[lang][String(value)]. */
export const CHOICE_LABELS = family("choice_", (k) => (k === "J_7D" ? "J,7D" : k));

export const SETTING_CHOICES = {
  pack: [52, 44], hand_size: [4, 5, 6], bury: [["J"], ["J", "7D"]], capture_policy: ["max_cards", "any_maximal"],
  seven_diamonds: ["plain", "egyptian", "yemeni", "ethiopian", "no_basra"], basra_mode: ["clear", "lone_match", "lone_match_or_sum"],
  basra_value: ["flat", "double_face"], basra_on_last_play: [true, false], majority_tie: ["each", "none", "abeyance"],
  end_tie: ["extra_rounds", "draw"], direction: ["ccw", "cw"],
};
