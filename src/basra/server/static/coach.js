// The coach on the page: its words in English and Arabic, hint sentences put into
// words from the facts the server sends (basra.coach.hints: codes and card texts,
// never sentences), and what a card would take, marked on the floor before it is played.

import { DICTS } from "./i18n.js";

const EN = {
  review: "Review", review_title: "Review", reviewing: "Working out the review…",
  review_progress: "{done} of {total} decisions analysed", review_queued: "Waiting for a free worker…",
  review_failed: "The review could not be worked out.", review_retry: "Try again",
  review_none: "This game has no review yet.", review_ask: "Review this game",
  review_help: "Every decision, analysed from what that player could see then: points are the expected round margin (the side's points in the round less the others').",
  review_graph: "Expected round margin, play by play", review_graph_side: "as {name} sees it",
  review_moves: "Every play", review_options: "The options", review_key: "Key moments", review_no_key: "No inaccuracy or worse.",
  review_col_move: "Move", review_col_margin: "Expected round margin", review_col_note: "Best or played",
  review_words_title: "What these numbers mean",
  review_word_margin: "Expected round margin", review_word_margin_help: "How many points the player's side should end this round ahead of the others (behind, when negative) after that move, if everyone plays on well.",
  review_word_loss: "Loss", review_word_loss_help: "The points a move gives away next to the best one: 0 for the best move.",
  review_word_mean_loss: "Mean loss", review_word_mean_loss_help: "A player's loss per decision, on average over the game: lower is better.",
  review_word_accuracy: "Accuracy", review_word_accuracy_help: "How close the player's moves came to the best ones, from 0% to 100%.",
  review_word_plus_minus: "± (plus or minus)", review_word_plus_minus_help: "How sure the estimate is: the value is most likely within that much of the number shown.",
  review_word_labels: "Inaccuracy, mistake, blunder", review_word_labels_help: "A move that surely lost about 1, 3 or 6 points or more next to the best one.",
  review_seat: "Player", review_decisions: "Decisions", review_mean_loss: "Mean loss", review_col_accuracy: "Accuracy",
  review_basras: "Basras given / missed", review_forced: "only move", review_play_n: "Round {r}, play {p}",
  review_played: "played", review_best: "best", review_loss: "loss {n}", review_points: "points",
  review_hand: "Hand", review_floor: "Floor", review_next_bad: "Next mistake ▶",
  review_hindsight: "With all cards seen (knowable only afterwards): {move} was best ({n}); the move played: {m}.",
  review_hindsight_same: "With all cards seen (knowable only afterwards): the move played was best too ({n}).",
  review_gave_basra: "the next player made a basra", review_missed_basra: "a basra was there to take",
  review_back_replay: "Replay", label_best: "best", label_good: "good", label_inaccuracy: "inaccuracy",
  label_mistake: "mistake", label_blunder: "blunder", label_forced: "only move",
  hint_goes_down: "{card} goes on the floor", hint_takes_cards: "{card} takes {cards}",
  hint_basra: " for a basra (+{n})", hint_card_points: " ({n} points in cards)", hint_card_points_one: " (1 point in cards)",
  hint_last: ", the round's last card", hint_empty: " and leaves the floor empty",
  hint_nothing: " and leaves nothing they can take",
  hint_reply_basra: ", but {who} would clear the floor for a basra (+{n})",
  hint_reply_points: " and leaves them at most {n} points ({who} takes {cards})",
  hint_reply_points_one: " and leaves them at most 1 point ({who} takes {cards})",
  hint_reply_none: " and leaves only cards worth no points",
  hint_value: ": {v} points against {w} for {alt}", hint_tie: ": {v} points, as good as {alt}", hint_only: ": the only move",
  hint_exact: " (exact: every card is known)", hint_alt_take: "taking {cards}", hint_alt_trail: "laying it down",
  hint_waiting: "Working out a hint…",
  rank_any: "a {rank}", rank_any_A: "an ace", rank_any_8: "an 8", rank_any_J: "a jack", rank_any_Q: "a queen", rank_any_K: "a king",
  would_take: "{card} would take {cards}", would_take_options: "{card} can take: {options}", would_trail: "{card} takes nothing: it goes on the floor",
  confirm_setting: "Confirm each card with a second click", confirm_again: "Click {card} again to play it",
};

const AR = {
  review: "المراجعة", review_title: "مراجعة", reviewing: "جارٍ إعداد المراجعة…",
  review_progress: "حُلّل {done} من {total} قرارًا", review_queued: "بانتظار عامل متاح…",
  review_failed: "تعذّر إعداد المراجعة.", review_retry: "حاول مجددًا",
  review_none: "لا مراجعة لهذه اللعبة بعد.", review_ask: "راجِع هذه اللعبة",
  review_help: "كل قرار محلَّل مما كان اللاعب يراه وقتها: النقاط هي الفرق المتوقع في الجولة (نقاط الطرف في الجولة ناقص نقاط الآخرين).",
  review_graph: "الفرق المتوقع في الجولة، لعبة بلعبة", review_graph_side: "كما يراه {name}",
  review_moves: "كل اللعبات", review_options: "الخيارات", review_key: "لحظات حاسمة", review_no_key: "لا أخطاء تُذكر.",
  review_col_move: "الحركة", review_col_margin: "الفارق المتوقع في الجولة", review_col_note: "الأفضل أو الملعوبة",
  review_words_title: "ماذا تعني هذه الأرقام",
  review_word_margin: "الفارق المتوقع في الجولة", review_word_margin_help: "كم نقطة يُتوقع أن يتقدّم بها فريق اللاعب على الآخرين في نهاية الجولة (أو يتأخر إن كان سالبًا) بعد تلك الحركة، إذا أحسن الجميع اللعب بعدها.",
  review_word_loss: "الخسارة", review_word_loss_help: "النقاط التي تضيّعها الحركة مقارنة بأفضل حركة: صفر لأفضل حركة.",
  review_word_mean_loss: "متوسط الخسارة", review_word_mean_loss_help: "خسارة اللاعب في كل قرار، في المتوسط على المباراة: الأقل أفضل.",
  review_word_accuracy: "الدقة", review_word_accuracy_help: "مدى قرب حركات اللاعب من أفضل الحركات، من ٠٪ إلى ١٠٠٪.",
  review_word_plus_minus: "± (زائد أو ناقص)", review_word_plus_minus_help: "مدى الثقة في التقدير: القيمة الحقيقية على الأرجح لا تبعد عن الرقم المعروض أكثر من ذلك.",
  review_word_labels: "عدم دقة، خطأ، خطأ فادح", review_word_labels_help: "حركة خسرت بالتأكيد نحو ١ أو ٣ أو ٦ نقاط أو أكثر مقارنة بأفضل حركة.",
  review_seat: "اللاعب", review_decisions: "القرارات", review_mean_loss: "متوسط الخسارة", review_col_accuracy: "الدقة",
  review_basras: "بصرات أُعطيت / فاتت", review_forced: "لعبة وحيدة", review_play_n: "الجولة {r}، اللعبة {p}",
  review_played: "لُعبت", review_best: "الأفضل", review_loss: "خسارة {n}", review_points: "النقاط",
  review_hand: "الورق", review_floor: "الأرض", review_next_bad: "الخطأ التالي ◀",
  review_hindsight: "مع رؤية كل الأوراق (لا يُعرف إلا بعد اللعب): كانت {move} الأفضل ({n})؛ اللعبة الملعوبة: {m}.",
  review_hindsight_same: "مع رؤية كل الأوراق (لا يُعرف إلا بعد اللعب): كانت اللعبة الملعوبة الأفضل أيضًا ({n}).",
  review_gave_basra: "اللاعب التالي عمل بصرة", review_missed_basra: "كانت هناك بصرة متاحة",
  review_back_replay: "إعادة العرض", label_best: "الأفضل", label_good: "جيدة", label_inaccuracy: "غير دقيقة",
  label_mistake: "خطأ", label_blunder: "خطأ فادح", label_forced: "لعبة وحيدة",
  hint_goes_down: "{card} تنزل على الأرض", hint_takes_cards: "{card} تأكل {cards}",
  hint_basra: " وتعمل بصرة (+{n})", hint_card_points: " ({n} نقاط من الأوراق)",
  hint_card_points_one: " (نقطة واحدة من الأوراق)", hint_card_points_two: " (نقطتان من الأوراق)", hint_card_points_many: " ({n} نقطة من الأوراق)",
  hint_last: "، آخر ورقة في الجولة", hint_empty: " وتترك الأرض فارغة",
  hint_nothing: " ولا تترك لهم شيئًا يأكلونه",
  hint_reply_basra: "، لكن {who} تمسح الأرض ببصرة (+{n})",
  hint_reply_points: " وتترك لهم {n} نقاط على الأكثر ({who} تأكل {cards})",
  hint_reply_points_one: " وتترك لهم نقطة واحدة على الأكثر ({who} تأكل {cards})",
  hint_reply_points_two: " وتترك لهم نقطتين على الأكثر ({who} تأكل {cards})",
  hint_reply_points_many: " وتترك لهم {n} نقطة على الأكثر ({who} تأكل {cards})",
  hint_reply_none: " ولا تترك إلا أوراقًا بلا نقاط",
  hint_value: ": {v} نقطة مقابل {w} لـ{alt}", hint_tie: ": {v} نقطة، بجودة {alt}", hint_only: ": اللعبة الوحيدة",
  hint_exact: " (دقيق: كل الأوراق معروفة)", hint_alt_take: "أكل {cards}", hint_alt_trail: "إنزالها على الأرض",
  hint_waiting: "جارٍ التفكير في تلميح…",
  rank_any: "أي {rank}", rank_any_A: "أي آس", rank_any_8: "أي ٨", rank_any_J: "أي ولد", rank_any_Q: "أي بنت", rank_any_K: "أي شايب",
  would_take: "{card} تأكل {cards}", would_take_options: "{card} تأكل: {options}", would_trail: "{card} لا تأكل شيئًا: تنزل على الأرض",
  confirm_setting: "أكّد كل ورقة بنقرة ثانية", confirm_again: "انقر {card} مرة أخرى لتلعبها",
};

Object.assign(DICTS.en, EN);
Object.assign(DICTS.ar, AR);

const SIGNED = {
  en: new Intl.NumberFormat("en", { signDisplay: "exceptZero", minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  ar: new Intl.NumberFormat("ar-EG", { signDisplay: "exceptZero", minimumFractionDigits: 1, maximumFractionDigits: 1 }),
};
const PLAIN = {
  en: new Intl.NumberFormat("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  ar: new Intl.NumberFormat("ar-EG", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
};

/** A number of points with its sign and one decimal ("+2.1"), isolated so it reads the same in Arabic. */
export function signed(value, lang) {
  return "\u2066" + SIGNED[lang].format(value) + "\u2069";
}

/** A number of points with one decimal. */
export function decimal(value, lang) {
  return PLAIN[lang].format(value);
}

/** A template with {name} holes filled with strings or DOM nodes: a list to append. */
export function fillNodes(template, params) {
  return template.split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
    const m = part.match(/^\{(\w+)\}$/);
    return m && m[1] in params ? params[m[1]] : part;
  });
}

/** The key of a counted phrase: English has one and many; Arabic one, two, 3 to 10 and more. */
export function plural(key, count, lang) {
  const dict = DICTS[lang] || DICTS.en;
  let form = "";
  if (count === 1) form = "_one";
  else if (lang === "ar" && count === 2) form = "_two";
  else if (lang === "ar" && (count > 10 || count === 0)) form = "_many";
  return key + form in dict ? key + form : key;
}

function rankWords(rank, ui) {
  const key = "rank_any_" + rank;
  const dict = DICTS[ui.app.lang] || DICTS.en;
  if (key in dict) return dict[key];
  return ui.t("rank_any", { rank: ui.n(Number(rank)) });
}

/** The hint's reason as nodes, in the page's language, from ``facts`` (Hint.facts_json). */
export function hintParts(facts, ui) {
  const { t, app, cardLabel, cardsLabel } = ui;
  const lang = app.lang;
  const word = (key) => (DICTS[lang] || DICTS.en)[key] ?? DICTS.en[key];
  const cards = (list) => ui.h("span", {}, cardsLabel(list));
  const out = [];
  const head = (f) => (f.take.length
    ? fillNodes(word("hint_takes_cards"), { card: cardLabel(f.card), cards: cards(f.take) })
    : fillNodes(word("hint_goes_down"), { card: cardLabel(f.card) }));
  out.push(...head(facts));
  if (facts.basra) out.push(t("hint_basra", { n: facts.basra }));
  else if (facts.card_points && facts.take.length) out.push(t(plural("hint_card_points", facts.card_points, lang), { n: facts.card_points }));
  const reply = facts.reply;
  if (facts.last) out.push(t("hint_last"));
  else if (!facts.floor_after.length) out.push(t("hint_empty"));
  else if (!reply) out.push(t("hint_nothing"));
  else {
    const who = rankWords(reply.rank, ui);  // a rank: the seat never saw those cards
    if (reply.basra) out.push(...fillNodes(word("hint_reply_basra"), { who, n: ui.n(reply.basra) }));
    else if (reply.points) out.push(...fillNodes(word(plural("hint_reply_points", reply.points, lang)), { who, n: ui.n(reply.points), cards: cards(reply.take) }));
    else out.push(t("hint_reply_none"));
  }
  const alt = facts.alternative;
  if (!alt) out.push(t("hint_only"));
  else {
    let name;
    if (alt.card !== facts.card) name = cardLabel(alt.card);
    else if (alt.take.length) name = ui.h("span", {}, fillNodes(word("hint_alt_take"), { cards: cards(alt.take) }));
    else name = word("hint_alt_trail");
    const tie = SIGNED.en.format(facts.value) === SIGNED.en.format(alt.value);
    out.push(...fillNodes(word(tie ? "hint_tie" : "hint_value"), { v: signed(facts.value, lang), w: signed(alt.value, lang), alt: name }));
  }
  if (facts.exact) out.push(t("hint_exact"));
  return out;
}

/** The capture options of ``card`` among the legal moves ("7S", "7Sx2C,AH", ...): lists of taken cards. */
export function takesOf(card, legal) {
  return legal.filter((m) => m === card || m.startsWith(card + "x")).map((m) => (m.includes("x") ? m.split("x")[1].split(",") : []));
}

/** Mark on ``floor`` exactly what a card would take: one option gets "would-take"; several get
 * numbered marks (a card in options 1 and 2 shows both). Returns the options. */
export function markTakes(floor, options) {
  clearTakes(floor);
  const taking = options.filter((o) => o.length);
  taking.forEach((take, i) => {
    for (const node of floor.querySelectorAll(".card")) {
      if (!take.includes(node.dataset.card)) continue;
      node.classList.add("would-take");
      if (taking.length > 1) {
        const marks = node.dataset.options ? node.dataset.options.split(" ") : [];
        marks.push(String(i + 1));
        node.dataset.options = marks.join(" ");
        node.classList.add("would-take-option");
      }
    }
  });
  return taking;
}

/** Remove the marks of :func:`markTakes`. */
export function clearTakes(floor) {
  for (const node of floor.querySelectorAll(".card.would-take, .card.hinted-take")) {
    node.classList.remove("would-take", "would-take-option", "hinted-take");
    delete node.dataset.options;
  }
}

/** Mark the cards a hint's move takes. */
export function markHint(floor, take) {
  for (const node of floor.querySelectorAll(".card")) node.classList.toggle("hinted-take", take.includes(node.dataset.card));
}

/** What a card would take, in words (the line under the hand while a card is chosen). */
export function previewParts(card, options, ui) {
  const { app, cardLabel, cardsLabel } = ui;
  const word = (key) => (DICTS[app.lang] || DICTS.en)[key];
  const taking = options.filter((o) => o.length);
  if (!taking.length) return fillNodes(word("would_trail"), { card: cardLabel(card) });
  if (taking.length === 1) return fillNodes(word("would_take"), { card: cardLabel(card), cards: ui.h("span", {}, cardsLabel(taking[0])) });
  const parts = [];
  taking.forEach((take, i) => {
    if (i) parts.push(app.lang === "ar" ? " أو " : " or ");
    parts.push(ui.h("span", { class: "option-mark" }, ui.n(i + 1)), " ", ui.h("span", {}, cardsLabel(take)));
  });
  return fillNodes(word("would_take_options"), { card: cardLabel(card), options: ui.h("span", {}, parts) });
}
