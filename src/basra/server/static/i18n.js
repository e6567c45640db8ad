// Words of the page in English and Arabic. The server sends codes; they are put
// into words here. Card labels are isolated (<bdi>) so "7♥" never turns into "♥7".

export const LANGS = ["en", "ar"];

const EN = {
  app_name: "Basra", nav_play: "Play", nav_games: "My games", nav_rules: "Rules",
  tagline: "The fishing card game from Cairo to Beirut: play with friends and bots.",
  your_name: "Your name", name_placeholder: "Name shown at the table",
  new_table: "New table", variant: "Variant", players: "Seats", teams: "Play in two teams (seats 1+3 against 2+4)",
  hints: "Allow hints", seats: "Who sits where", custom: "Custom settings", custom_help: "Change any setting of the variant; the rules page shows the result.",
  seat_me: "Me", seat_open: "Open for a friend", seat_bot: "Bot: {level}",
  level_easy: "easy", level_medium: "medium", level_hard: "hard", level_expert: "expert",
  create: "Create table", creating: "Creating…", read_rules: "How to play this variant",
  open_tables: "Tables to join or watch", no_tables: "No tables right now: create one!",
  join: "Join", watch: "Watch", open_seats: "{n} open", in_play: "in play", waiting: "waiting",
  seat_n: "Seat {n}", you: "you", bot: "Bot", open_seat: "open seat", sit_here: "Sit here",
  invite: "Invite friends with this link", copy: "Copy", copied: "Copied!",
  other_device: "Continue on another device (a one-time code keeps your seat)",
  waiting_for: "Waiting for {n} more to join…", starts_when_full: "The game starts when every seat is taken.",
  spectating: "You are watching", your_turn: "Your turn: choose a card", turn_of: "{name} to play",
  dealing: "Dealing…", hand: "Your hand", floor: "Floor", floor_empty: "The floor is empty",
  stock: "Stock {n}", pile: "Pile {n}", basras: "Basras {n}", cards_n: "{n} cards", dealer: "Dealer", dealer_short: "D",
  away: "away", stand_in: "bot plays meanwhile", plays: "{name} plays {card}", takes: "takes {cards}",
  trails: "trails", basra: "Basra!", basra_pts: "Basra +{n}",
  choose_take: "Which cards does {card} take?", cancel: "Cancel",
  hint: "Hint", hint_says: "Hint: play {move}", hint_takes: "it takes {n} cards", hint_trail: "nothing worth taking; this card gives away least",
  scores: "Scores", side_n: "Side {n}", team_n: "Team {n}", round_n: "Round {n}", target: "Target {n}",
  round_over: "Round {n} is over", col_cards: "Cards", col_points: "Point cards", col_majority: "Most cards",
  col_basras: "Basras", col_basra_points: "Basra points", col_round: "Round", col_total: "Total",
  carry: "{n} held over to the next round", continue: "Continue",
  game_over: "Game over", wins: "{name} wins!", you_win: "You win!", your_team_wins: "Your team wins!", draw: "A draw",
  rematch: "Rematch", download: "Download record", replay: "Replay", home: "Home",
  log: "Plays", reconnecting: "Connection lost: reconnecting…", no_table: "There is no such table.",
  my_games: "My games", games_online: "Played online", games_all: "Your games", no_games: "No games yet.", game_in_play: "in play", game_open: "waiting for players",
  rejoin: "Back to the table", step: "Step {n} of {m}", prev: "◀ Back", next: "Next ▶", play_all: "Play", pause: "Pause",
  rules_title: "How to play: {name}", rules_custom: "with custom settings", rules_index: "Rules of every variant",
  settings_table: "The settings", setting: "Setting", value: "Value", rules_help: "Every rule below is written from the variant's settings.",
  name_needed: "Say your name first.", play_bot: "Play a bot", play_bot_help: "A friendly game of Egyptian Basra against a medium bot, with hints.", rematch_wait: "Starting the rematch…",
  err_bad_message: "The server could not read that message.", err_unknown_type: "Unknown message.",
  err_not_seated: "Take a seat to play.", err_not_playing: "No round is being played.",
  err_stale: "The table moved on; here is the latest.", err_not_your_turn: "It is not your turn.",
  err_bad_move: "That move is not allowed.", err_seat_taken: "That seat was just taken.",
  err_seat_not_open: "That seat is a bot's.", err_already_seated: "You already have a seat.",
  err_no_such_seat: "No such seat.", err_hints_off: "Hints are off at this table.",
  err_not_over: "The game is not over yet.", err_bad_name: "Choose a name of 1 to 24 characters.",
  err_bad_settings: "Those settings are not valid.", err_too_large: "That message is too large.",
  err_storage: "The move could not be saved; try again.", err_no_such_table: "There is no such table.",
  err_rate_limited: "Slow down: too many requests.",
  err_rate_limited_retry: "Slow down: try again in {n} s.",
  err_too_deep: "That message is nested too deeply.", err_bad_request: "The server could not read that form.",
  err_signed_out: "This browser was signed out; it has a new identity now.",
  err_hint_pending: "A hint is on its way.", err_hint_failed: "No hint this time.",
  err_not_open: "This table no longer takes people.", err_bad_code: "No such code: it may be mistyped, used already, or expired.",
  err_no_such_device: "No such device.",
  nav_device: "Devices", table_abandoned: "This table was abandoned: nobody was at it for a while.",
  table_fault: "This table has stopped because of a server problem; its game is saved.",
  game_abandoned: "abandoned",
  device_title: "Your identity and devices", device_help: "Your games belong to this browser's identity. To play them on another phone or computer, make a one-time code here and enter it there.",
  device_move: "Move to another device", device_make: "Make a code for another device", device_code: "Code: {code}", device_code_help: "Enter it (or open this link) on the other device within {n} minutes. It works once.",
  device_use: "Use a code from another device", device_code_input: "Code", device_check: "Check the code",
  device_confirm: "This will sign this browser in as “{name}” ({n} games). Only continue if the code came from your own device.",
  device_leave: "This browser's current identity will be signed out here.",
  device_yes: "Yes, sign in here", device_done: "This browser is now signed in as “{name}”.",
  device_list: "Signed-in devices", device_this: "this device", device_seen: "last seen {when}",
  device_sign_out: "Sign out", device_signed_out: "Signed out.", device_someone: "someone",
  replay_end: "End", bot_n: "Bot {n}", bot_level: "Bot {n} ({level})", thinking: "{name} is thinking…", playing_card: "Playing {card}…",
  next_round: "The next round is being dealt…",
  team_wins: "{name} win!", you_won: "You won", you_lost: "You lost", your_team_won: "Your team won",
  your_team_lost: "Your team lost", game_draw: "a draw", custom_rules: "custom rules", winner_is: "Winner",
  partner: "partner", team_tag: "Team {n}", final_score: "Final score",
  mute: "Sounds", sound_on: "Sounds are on (click to mute)", sound_off: "Sounds are off (click to turn on)",
  point_each: "every", points_ranks: "Every card of a rank", points_cards: "One card", points_which: "Card or rank",
  points_worth: "Points", points_add: "+ Add a point card", remove: "Remove",
  face_q: "Queen", face_k: "King", face_none: "none", not_used: "not used (the basra is flat)",
  basra_points_unused: "not used: a basra scores twice the capturing card's face value",
  basra_points_pictures: "(only a queen or king without a face value; other basras score twice the card's face value)",
};

const AR = {
  app_name: "بصرة", nav_play: "العب", nav_games: "ألعابي", nav_rules: "القواعد",
  tagline: "لعبة الصيد بالورق من القاهرة إلى بيروت: العب مع أصدقائك ومع الروبوتات.",
  your_name: "اسمك", name_placeholder: "الاسم الظاهر على الطاولة",
  new_table: "طاولة جديدة", variant: "النوع", players: "عدد المقاعد", teams: "اللعب في فريقين (المقعدان ١+٣ ضد ٢+٤)",
  hints: "السماح بالتلميحات", seats: "من يجلس أين", custom: "إعدادات مخصصة", custom_help: "غيّر أي إعداد من إعدادات النوع؛ صفحة القواعد تعرض النتيجة.",
  seat_me: "أنا", seat_open: "مفتوح لصديق", seat_bot: "روبوت: {level}",
  level_easy: "سهل", level_medium: "متوسط", level_hard: "صعب", level_expert: "خبير",
  create: "أنشئ الطاولة", creating: "جارٍ الإنشاء…", read_rules: "طريقة لعب هذا النوع",
  open_tables: "طاولات للانضمام أو المشاهدة", no_tables: "لا توجد طاولات الآن: أنشئ واحدة!",
  join: "انضم", watch: "شاهد", open_seats: "{n} مفتوح", in_play: "جارية", waiting: "بانتظار لاعبين",
  seat_n: "المقعد {n}", you: "أنت", bot: "روبوت", open_seat: "مقعد مفتوح", sit_here: "اجلس هنا",
  invite: "ادعُ أصدقاءك بهذا الرابط", copy: "انسخ", copied: "نُسخ!",
  other_device: "تابع على جهاز آخر (رمز لمرة واحدة يحفظ مقعدك)",
  waiting_for: "بانتظار انضمام {n}…", starts_when_full: "تبدأ اللعبة عندما تمتلئ كل المقاعد.",
  spectating: "أنت تشاهد", your_turn: "دورك: اختر ورقة", turn_of: "دور {name}",
  dealing: "جارٍ التوزيع…", hand: "ورقك", floor: "الأرض", floor_empty: "الأرض فارغة",
  stock: "الباقي {n}", pile: "المكسب {n}", basras: "بصرات {n}", cards_n: "{n} ورقات", dealer: "الموزّع", dealer_short: "م",
  away: "غائب", stand_in: "روبوت يلعب مكانه مؤقتًا", plays: "{name} يلعب {card}", takes: "ويأكل {cards}",
  trails: "ويتركها على الأرض", basra: "بصرة!", basra_pts: "بصرة +{n}",
  choose_take: "ماذا تأكل {card}؟", cancel: "إلغاء",
  hint: "تلميح", hint_says: "تلميح: العب {move}", hint_takes: "تأكل {n} ورقات", hint_trail: "لا شيء يستحق الأكل؛ هذه الورقة أقل خسارة",
  scores: "النتيجة", side_n: "الطرف {n}", team_n: "الفريق {n}", round_n: "الجولة {n}", target: "الهدف {n}",
  round_over: "انتهت الجولة {n}", col_cards: "الأوراق", col_points: "أوراق النقاط", col_majority: "الأكثر أوراقًا",
  col_basras: "البصرات", col_basra_points: "نقاط البصرة", col_round: "الجولة", col_total: "المجموع",
  carry: "{n} مؤجلة إلى الجولة التالية", continue: "متابعة",
  game_over: "انتهت اللعبة", wins: "{name} فاز!", you_win: "فزت!", your_team_wins: "فريقك فاز!", draw: "تعادل",
  rematch: "مباراة جديدة", download: "نزّل السجل", replay: "إعادة العرض", home: "الرئيسية",
  log: "اللعبات", reconnecting: "انقطع الاتصال: جارٍ إعادة الاتصال…", no_table: "لا توجد طاولة بهذا الرابط.",
  my_games: "ألعابي", games_online: "لُعبت على الإنترنت", games_all: "ألعابك", no_games: "لا ألعاب بعد.", game_in_play: "جارية", game_open: "بانتظار لاعبين",
  rejoin: "عُد إلى الطاولة", step: "الخطوة {n} من {m}", prev: "السابق ▶", next: "◀ التالي", play_all: "تشغيل", pause: "إيقاف",
  rules_title: "طريقة اللعب: {name}", rules_custom: "بإعدادات مخصصة", rules_index: "قواعد كل الأنواع",
  settings_table: "الإعدادات", setting: "الإعداد", value: "القيمة", rules_help: "كل قاعدة أدناه مكتوبة من إعدادات هذا النوع.",
  name_needed: "اكتب اسمك أولًا.", play_bot: "العب ضد روبوت", play_bot_help: "مباراة ودية في البصرة المصرية ضد روبوت متوسط، مع التلميحات.", rematch_wait: "تبدأ المباراة الجديدة…",
  err_bad_message: "تعذّر على الخادم قراءة الرسالة.", err_unknown_type: "رسالة غير معروفة.",
  err_not_seated: "اجلس في مقعد لتلعب.", err_not_playing: "لا جولة جارية الآن.",
  err_stale: "تغيّرت الطاولة؛ هذه آخر حالة.", err_not_your_turn: "ليس دورك.",
  err_bad_move: "هذه اللعبة غير مسموحة.", err_seat_taken: "أُخذ هذا المقعد للتو.",
  err_seat_not_open: "هذا المقعد لروبوت.", err_already_seated: "لديك مقعد بالفعل.",
  err_no_such_seat: "لا يوجد هذا المقعد.", err_hints_off: "التلميحات مغلقة على هذه الطاولة.",
  err_not_over: "لم تنتهِ اللعبة بعد.", err_bad_name: "اختر اسمًا من ١ إلى ٢٤ حرفًا.",
  err_bad_settings: "هذه الإعدادات غير صالحة.", err_too_large: "الرسالة كبيرة جدًا.",
  err_storage: "تعذّر حفظ اللعبة؛ حاول مجددًا.", err_no_such_table: "لا توجد طاولة بهذا الرابط.",
  err_rate_limited: "تمهّل: طلبات كثيرة جدًا.",
  err_rate_limited_retry: "تمهّل: حاول مجددًا بعد {n} ثانية.",
  err_too_deep: "الرسالة متداخلة أكثر من اللازم.", err_bad_request: "تعذّر على الخادم قراءة النموذج.",
  err_signed_out: "سُجّل خروج هذا المتصفح؛ لديه هوية جديدة الآن.",
  err_hint_pending: "التلميح في الطريق.", err_hint_failed: "لا تلميح هذه المرة.",
  err_not_open: "هذه الطاولة لم تعد تستقبل لاعبين.", err_bad_code: "لا يوجد هذا الرمز: ربما كُتب خطأً أو استُعمل أو انتهت صلاحيته.",
  err_no_such_device: "لا يوجد هذا الجهاز.",
  nav_device: "الأجهزة", table_abandoned: "تُركت هذه الطاولة: لم يكن عليها أحد منذ مدة.",
  table_fault: "توقفت هذه الطاولة بسبب مشكلة في الخادم؛ لعبتها محفوظة.",
  game_abandoned: "متروكة",
  device_title: "هويتك وأجهزتك", device_help: "ألعابك تخص هوية هذا المتصفح. لتلعبها على هاتف أو حاسوب آخر، أنشئ هنا رمزًا لمرة واحدة وأدخله هناك.",
  device_move: "الانتقال إلى جهاز آخر", device_make: "أنشئ رمزًا لجهاز آخر", device_code: "الرمز: {code}", device_code_help: "أدخله (أو افتح هذا الرابط) على الجهاز الآخر خلال {n} دقائق. يعمل مرة واحدة.",
  device_use: "استعمل رمزًا من جهاز آخر", device_code_input: "الرمز", device_check: "تحقّق من الرمز",
  device_confirm: "سيُسجَّل دخول هذا المتصفح باسم «{name}» ({n} ألعاب). تابع فقط إن كان الرمز من جهازك أنت.",
  device_leave: "سيُسجَّل خروج الهوية الحالية لهذا المتصفح هنا.",
  device_yes: "نعم، سجّل الدخول هنا", device_done: "هذا المتصفح مسجّل الآن باسم «{name}».",
  device_list: "الأجهزة المسجّلة", device_this: "هذا الجهاز", device_seen: "آخر ظهور {when}",
  device_sign_out: "سجّل الخروج", device_signed_out: "تم تسجيل الخروج.", device_someone: "شخص ما",
  replay_end: "النهاية", bot_n: "روبوت {n}", bot_level: "روبوت {n} ({level})", thinking: "{name} يفكّر…", playing_card: "تلعب {card}…",
  next_round: "تُوزَّع الجولة التالية…",
  team_wins: "{name} فازا!", you_won: "فزت", you_lost: "خسرت", your_team_won: "فاز فريقك",
  your_team_lost: "خسر فريقك", game_draw: "تعادل", custom_rules: "قواعد مخصصة", winner_is: "الفائز",
  partner: "شريكك", team_tag: "الفريق {n}", final_score: "النتيجة النهائية",
  mute: "الأصوات", sound_on: "الأصوات مفعّلة (انقر للكتم)", sound_off: "الأصوات مكتومة (انقر للتفعيل)",
  point_each: "كل", points_ranks: "كل أوراق رتبة", points_cards: "ورقة واحدة", points_which: "الورقة أو الرتبة",
  points_worth: "النقاط", points_add: "+ أضف ورقة نقاط", remove: "احذف",
  face_q: "البنت", face_k: "الشايب", face_none: "بلا", not_used: "غير مستعمل (البصرة ثابتة)",
  basra_points_unused: "غير مستعمل: البصرة ضعف قيمة الورقة التي أكلت",
  basra_points_pictures: "(للبنت أو الشايب بلا قيمة فقط؛ غيرهما البصرة ضعف قيمة الورقة)",
};

export const DICTS = { en: EN, ar: AR };

export const VARIANT_NAMES = {
  en: {
    cypriot_bastra: "Cypriot Bastra", cypriot_classic: "Cypriot Bastra (classic)", egyptian: "Egyptian Basra",
    egyptian_121: "Egyptian Basra to 121", egyptian_mona_russel: "Egyptian (Mona Russel)", saba_alkoomi: "Sab'a Alkoomi",
    yemeni: "Yemeni Basra", ethiopian: "Ethiopian Basra", lebanese: "Lebanese Basra", lebanese_ashush: "Lebanese (Ashush)",
    lebanese_alefb: "Lebanese (children's)", palestinian: "Palestinian Basra", jordanian: "Jordanian Basra (Haddad)",
    syrian: "Syrian Basra", syrian_homsi: "Syrian Basra (Homsi)",
  },
  ar: {
    cypriot_bastra: "الباسترا القبرصية", cypriot_classic: "الباسترا القبرصية (القديمة)", egyptian: "البصرة المصرية",
    egyptian_121: "البصرة المصرية إلى ١٢١", egyptian_mona_russel: "المصرية (منى راسل)", saba_alkoomi: "سبعة الكومي",
    yemeni: "البصرة اليمنية", ethiopian: "البصرة الإثيوبية", lebanese: "البصرة اللبنانية", lebanese_ashush: "اللبنانية (عشوش)",
    lebanese_alefb: "اللبنانية (للأطفال)", palestinian: "البصرة الفلسطينية", jordanian: "البصرة الأردنية (حداد)",
    syrian: "البصرة السورية", syrian_homsi: "البصرة السورية (الحمصية)",
  },
};

const RANKS_AR = { A: "آس", J: "ولد", Q: "بنت", K: "شايب" };
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUITS_EN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUITS_AR = { S: "بستوني", H: "كبة", D: "ديناري", C: "سباتي" };
const RANKS_EN = { A: "ace", J: "jack", Q: "queen", K: "king" };

export function splitCard(text) {
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** A card's short label: rank and suit symbol (the same in both languages). */
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

/** A card's full name for screen readers and titles. */
export function cardName(text, lang) {
  const { rank, suit } = splitCard(text);
  if (lang === "ar") return `${RANKS_AR[rank] || num(Number(rank), "ar")} ${SUITS_AR[suit]}`;
  return `${RANKS_EN[rank] || rank} of ${SUITS_EN[suit]}`;
}

export function isRed(text) {
  const suit = text.slice(-1);
  return suit === "H" || suit === "D";
}

const NUMBER_FORMATS = { en: new Intl.NumberFormat("en"), ar: new Intl.NumberFormat("ar-EG") };

/** Numbers: Latin digits in English, Arabic-Indic digits in Arabic (chosen explicitly). */
export function num(value, lang) {
  return NUMBER_FORMATS[lang].format(value);
}

const ONE_DECIMAL = {
  en: new Intl.NumberFormat("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  ar: new Intl.NumberFormat("ar-EG", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
};

/** A number with exactly one decimal (27.0, not 27), in the page's digits. */
export function num1(value, lang) {
  return ONE_DECIMAL[lang].format(value);
}

export function translate(lang, key, params = {}) {
  const dict = DICTS[lang] || EN;
  let text = dict[key] ?? EN[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    const shown = typeof value === "number" ? num(value, lang) : value;
    text = text.replaceAll(`{${name}}`, shown);
  }
  return text;
}

// ------------------------------------------------------------------ rules from settings


function pointsText(points, lang) {
  const parts = Object.entries(points).map(([key, value]) => {
    const isCard = /[SHDC]$/.test(key);
    const label = iso(settingKeyLabel(key));
    if (lang === "ar") return `${isCard ? "" : "كل "}${label} = ${num(value, "ar")}`;
    return `${isCard ? "" : "each "}${label} = ${value}`;
  });
  if (!parts.length) return lang === "ar" ? "لا شيء" : "none";
  return parts.join(lang === "ar" ? "، " : ", ");
}

/** The rules of a variant as sections of sentences, written from its settings. */
export function rulesText(rules, players, lang) {
  const ar = lang === "ar";
  const n = (v) => num(v, lang);
  const s = [];
  const pictures = rules.pack === 44;
  const seven = iso(cardShort("7D"));
  const sweepSeven = rules.seven_diamonds !== "plain";
  // The pack and the deal
  const deal = [];
  deal.push(ar
    ? (pictures ? `تُلعب بـ${n(44)} ورقة: تُنزع البنات والشياب.` : `تُلعب بورق كامل من ${n(52)} ورقة.`)
    : (pictures ? "A 44-card pack: queens and kings are taken out." : "A full 52-card pack."));
  deal.push(ar
    ? `في كل توزيعة يأخذ كل لاعب ${n(rules.hand_size)} أوراق، وفي التوزيعة الأولى تُكشف ${n(4)} أوراق على الأرض. حين تفرغ الأيدي يُوزَّع من الباقي من دون أوراق جديدة على الأرض.`
    : `Each deal gives every player ${rules.hand_size} cards; the first deal also turns 4 cards face up on the floor. When all hands are empty, the next deal comes from the stock, with nothing more to the floor.`);
  const buried = rules.bury.map((c) => (c === "J" ? (ar ? "الولد" : "jacks") : seven));
  if (!buried.length) deal.push(ar ? "لا يُدفن شيء من الأرض الأولى." : "Nothing is buried from the first floor.");
  else deal.push(ar
    ? `إذا ظهر على الأرض في التوزيعة الأولى ${buried.join(" أو ")} يُدفن تحت الباقي وتُكشف مكانه ورقة جديدة.`
    : `If the first floor shows ${buried.join(" or the ")}, it is buried under the stock and replaced by the next card.`);
  deal.push(ar
    ? (rules.direction === "ccw" ? "يدور اللعب عكس عقارب الساعة (إلى اليمين)، ويبدأ من يلي الموزّع." : "يدور اللعب مع عقارب الساعة (إلى اليسار)، ويبدأ من يلي الموزّع.")
    : (rules.direction === "ccw" ? "Play goes anticlockwise (to the right), starting with the player after the dealer." : "Play goes clockwise (to the left), starting with the player after the dealer."));
  s.push({ title: ar ? "الورق والتوزيع" : "The pack and the deal", items: deal });
  // Capturing
  const cap = [];
  cap.push(ar
    ? "في دورك تلعب ورقة واحدة. إن كانت تستطيع الأكل فلا بد أن تأكل، وإلا تبقى على الأرض."
    : "On your turn you play one card. If it can capture it must; otherwise it stays on the floor.");
  cap.push(ar
    ? "الورقة تأكل كل أوراق رتبتها من الأرض. وأوراق الأرقام (الآس = ١ حتى ١٠) تأكل أيضًا مجموعات من أوراق الأرقام مجموعها يساوي قيمتها."
    : "A card takes every floor card of its own rank. A numeral (ace = 1 to 10) also takes groups of numerals that add up to its value.");
  if (!pictures) cap.push(ar ? "البنت والشايب يأكلان بالمطابقة فقط." : "Queens and kings capture only by pairing.");
  cap.push(ar ? "الولد يكنس الأرض كلها؛ على أرض فارغة يبقى مكانه." : "A jack sweeps the whole floor; on an empty floor it stays there.");
  if (rules.capture_policy === "max_cards") {
    cap.push(ar ? "إذا أمكن للورقة أكل مجموعات مختلفة تأكل أكبرها عددًا، ويختار اللاعب بين المتساوية." : "When a card could take different sets, it takes as many cards as it can; among equally big sets the player chooses.");
  } else {
    cap.push(ar ? "إذا أمكن للورقة أكل مجموعات مختلفة يختار اللاعب أي مجموعة لا يمكن توسيعها." : "When a card could take different sets, the player chooses any set that cannot be made bigger.");
  }
  const sevenText = {
    plain: ar ? `${seven} سبعة عادية.` : `The ${seven} is an ordinary seven.`,
    egyptian: ar ? `${seven} تكنس الأرض مثل الولد، وتكون بصرة إذا كانت كل أوراق الأرض أرقامًا مجموعها ١٠ أو أقل.` : `The ${seven} sweeps the floor like a jack; it is a basra when every floor card is a numeral and they add up to 10 or less.`,
    yemeni: ar ? `${seven} تكنس الأرض، وتكون بصرة إذا كانت الأرض أرقامًا مجموعها أقل من ١٠، أو عشرات وبنات وشياب فقط، أو مجموعات متساوية المجموع أقل من ١٠.` : `The ${seven} sweeps the floor; it is a basra when the floor is numerals adding up to less than 10, or only tens, queens and kings, or splits into groups with equal sums under 10.`,
    ethiopian: ar ? `${seven} تكنس الأرض، وتكون بصرة إذا كانت الأرض أرقامًا مجموعها ١٠ أو أقل أو مجموعات متساوية المجموع حتى ١٠. و${seven} وحدها على الأرض تعطي بصرة لأي ورقة تأكلها إلا الولد.` : `The ${seven} sweeps the floor; it is a basra when the floor is numerals adding up to 10 or less, or groups with equal sums up to 10. A lone ${seven} on the floor gives a basra to any card but a jack that takes it.`,
    no_basra: ar ? `${seven} تكنس الأرض مثل الولد لكنها لا تكون بصرة أبدًا.` : `The ${seven} sweeps the floor like a jack, but never makes a basra.`,
  };
  cap.push(sevenText[rules.seven_diamonds]);
  if (sweepSeven) cap.push(ar ? `${seven} على أرض فارغة تبقى هناك وتؤكل مثل أي سبعة.` : `A ${seven} played on an empty floor stays there and is taken like any seven.`);
  s.push({ title: ar ? "الأكل" : "Capturing", items: cap });
  // Basra
  const b = [];
  const mode = {
    clear: ar ? "البصرة هي كنس الأرض كلها بورقة غير الولد." : "A basra is clearing the whole floor with any card but a jack.",
    lone_match: ar ? "البصرة هي أكل ورقة وحيدة على الأرض بمطابقتها." : "A basra is taking a lone card on the floor by pairing it.",
    lone_match_or_sum: ar ? "البصرة هي أكل ورقة وحيدة على الأرض بمطابقتها، أو — إذا رُميت ورقة فوق ورقة وحيدة — أكل الاثنتين بورقة قيمتها مجموعهما." : "A basra is taking a lone card on the floor by pairing it, or, after a card was trailed onto a lone card, taking both with a card worth their sum.",
  };
  b.push(mode[rules.basra_mode]);
  if (rules.basra_value === "flat") {
    b.push(ar ? `كل بصرة بـ${n(rules.basra_points)} نقاط.` : `Each basra scores ${rules.basra_points}.`);
  } else {
    const faces = Object.entries(rules.face_values || {}).map(([r, v]) => `${r} = ${n(v)}`).join(ar ? "، " : ", ");
    // A queen or king without a face value scores basra_points (a 44-card pack has none).
    const unvalued = ["Q", "K"].filter((r) => !(r in (rules.face_values || {})));
    const pictureNames = ar ? { Q: "البنت", K: "الشايب" } : { Q: "queen", K: "king" };
    const pictures = unvalued.map((r) => pictureNames[r]).join(ar ? " أو " : " or ");
    const rest = !pictures || rules.pack === 44 ? ""
      : ar ? `؛ وبـ${pictures} تساوي ${n(rules.basra_points)}` : `; with a ${pictures} it scores ${rules.basra_points}`;
    b.push(ar
      ? `البصرة تساوي ضعف قيمة الورقة التي أكلت (الآس ١، الأرقام بقيمتها${faces ? "، " + faces : ""}${rest}).`
      : `A basra scores twice the face value of the capturing card (ace 1, numerals their pips${faces ? ", " + faces : ""}${rest}).`);
  }
  b.push(rules.jack_on_lone_jack > 0
    ? (ar ? `الولد على ولد وحيد بصرة بـ${n(rules.jack_on_lone_jack)} نقطة.` : `A jack taking a lone jack is a basra worth ${rules.jack_on_lone_jack}.`)
    : (ar ? "الولد على ولد وحيد ليس بصرة." : "A jack taking a lone jack is no basra."));
  b.push(rules.basra_on_last_play
    ? (ar ? "البصرة في آخر ورقة من الجولة تُحسب." : "A basra with the round's last card counts.")
    : (ar ? "البصرة في آخر ورقة من الجولة لا تُحسب." : "A basra with the round's last card does not count."));
  s.push({ title: ar ? "البصرة" : "The basra", items: b });
  // Scoring
  const sc = [];
  sc.push(ar ? "بعد آخر ورقة يأخذ آخر من أكل ما بقي على الأرض (وليست بصرة)." : "After the last card, whoever captured last takes what is left on the floor (not a basra).");
  sc.push(ar ? `نقاط الأوراق: ${pointsText(rules.point_cards, "ar")}.` : `Card points: ${pointsText(rules.point_cards, "en")}.`);
  const tie = {
    each: ar ? "عند التعادل يأخذها كل طرف متعادل." : "On a tie every tied side gets it.",
    none: ar ? "عند التعادل لا يأخذها أحد." : "On a tie nobody gets it.",
    abeyance: ar ? "عند التعادل تؤجَّل وتُضاف إلى مكافأة الجولة التالية." : "On a tie it is held over and added to the next round's bonus.",
  };
  sc.push(ar
    ? `الطرف الذي أكل أكثر الأوراق يأخذ ${n(rules.majority_bonus)} نقطة. ${tie[rules.majority_tie]}`
    : `The side with the most cards scores ${rules.majority_bonus}. ${tie[rules.majority_tie]}`);
  sc.push(ar
    ? `تنتهي اللعبة بعد جولة يصل فيها طرف إلى ${n(rules.target)}، ويفوز صاحب أعلى نتيجة.`
    : `The game ends after a round in which a side reaches ${rules.target}; the highest score wins.`);
  sc.push(rules.end_tie === "draw"
    ? (ar ? "إذا تعادلت أعلى النتائج فهي تعادل." : "If the top scores are tied, the game is a draw.")
    : (ar ? "إذا تعادلت أعلى النتائج تُلعب جولات أخرى حتى يُكسر التعادل." : "If the top scores are tied, more rounds are played until one side leads."));
  sc.push(ar ? "مع أربعة لاعبين يمكن اللعب في فريقين: الشريكان متقابلان ويجمعان أوراقهما." : "With four players you may play in two teams: partners sit opposite and share their pile.");
  s.push({ title: ar ? "الحساب" : "Scoring", items: sc });
  return s;
}

export const SETTING_LABELS = {
  en: {
    pack: "Pack", hand_size: "Cards per deal", bury: "Buried from the first floor", capture_policy: "Capture choice",
    seven_diamonds: "7♦", basra_mode: "What a basra is", basra_value: "Basra value", basra_points: "Basra points",
    face_values: "Face values of Q and K", jack_on_lone_jack: "Jack on a lone jack", basra_on_last_play: "Basra on the last card",
    point_cards: "Point cards", majority_bonus: "Most-cards bonus", majority_tie: "Most cards tied", target: "Target",
    end_tie: "Tied at the target", direction: "Direction",
  },
  ar: {
    pack: "الورق", hand_size: "أوراق كل توزيعة", bury: "ما يُدفن من الأرض الأولى", capture_policy: "اختيار الأكل",
    seven_diamonds: "7♦", basra_mode: "ما هي البصرة", basra_value: "قيمة البصرة", basra_points: "نقاط البصرة",
    face_values: "قيمة البنت والشايب", jack_on_lone_jack: "ولد على ولد وحيد", basra_on_last_play: "بصرة آخر ورقة",
    point_cards: "أوراق النقاط", majority_bonus: "مكافأة الأكثر أوراقًا", majority_tie: "تعادل الأوراق", target: "الهدف",
    end_tie: "التعادل عند الهدف", direction: "الاتجاه",
  },
};

export const SETTING_CHOICES = {
  pack: [52, 44], hand_size: [4, 5, 6], bury: [["J"], ["J", "7D"]], capture_policy: ["max_cards", "any_maximal"],
  seven_diamonds: ["plain", "egyptian", "yemeni", "ethiopian", "no_basra"], basra_mode: ["clear", "lone_match", "lone_match_or_sum"],
  basra_value: ["flat", "double_face"], basra_on_last_play: [true, false], majority_tie: ["each", "none", "abeyance"],
  end_tie: ["extra_rounds", "draw"], direction: ["ccw", "cw"],
};

export const CHOICE_LABELS = {
  en: {
    max_cards: "most cards", any_maximal: "any maximal set", plain: "plain seven", egyptian: "Egyptian sweep", yemeni: "Yemeni sweep",
    ethiopian: "Ethiopian sweep", no_basra: "sweeps, no basra", clear: "clear the floor", lone_match: "take a lone card",
    lone_match_or_sum: "lone card or its sum", flat: "flat", double_face: "twice the face value", each: "each gets it",
    none: "nobody gets it", abeyance: "held over", extra_rounds: "play more rounds", draw: "a draw", ccw: "anticlockwise", cw: "clockwise",
    true: "yes", false: "no", J: "jacks", "J,7D": "jacks and 7♦",
  },
  ar: {
    max_cards: "أكبر عدد", any_maximal: "أي مجموعة قصوى", plain: "سبعة عادية", egyptian: "كنس مصري", yemeni: "كنس يمني",
    ethiopian: "كنس إثيوبي", no_basra: "تكنس بلا بصرة", clear: "كنس الأرض", lone_match: "أكل ورقة وحيدة",
    lone_match_or_sum: "ورقة وحيدة أو مجموعها", flat: "ثابتة", double_face: "ضعف القيمة", each: "لكلٍّ منهم",
    none: "لا أحد", abeyance: "تؤجَّل", extra_rounds: "جولات إضافية", draw: "تعادل", ccw: "عكس عقارب الساعة", cw: "مع عقارب الساعة",
    true: "نعم", false: "لا", J: "الولد", "J,7D": "الولد و7♦",
  },
};
