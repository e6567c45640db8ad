// Words of quick play, the daily deal, reactions and bot accounts, in English and
// Arabic. Importing this module adds them to i18n.js's dictionaries.

import { DICTS } from "./i18n.js";

const EN = {
  // quick play
  play_now_title: "Play now", play_now: "Play now",
  play_now_help: "Meet people of similar rating at a rated table with a clock. Your rating range widens while you wait; if nobody comes, a bot of similar strength may take a seat after the wait you choose.",
  bot_fill: "A bot after",
  bot_never: "never: wait for people", seconds_n: "{n} s", minutes_n: "{n} min",
  seeking: "Looking for players… {n} s", seeking_window: "players rated {low} to {high} (yours: {mu}; the range widens as you wait)", window_any: "any rating",
  seeking_count: "{n} waiting for this table", matched: "Found! Taking you to the table…",
  replaced_seek: "Your search goes on in another tab or window.",
  pools_title: "Waiting now", pools_empty: "Nobody is waiting right now: be the first.", waiting_now: "{n} waiting",
  back_to_game: "Back to your game",
  err_at_table: "You are playing a rated game: finish it first.", err_bad_seek: "That search is not valid.",
  err_matched: "You were matched already: reload the page.",
  // the daily deal
  nav_daily: "Daily deal", daily_title: "The daily deal",
  daily_help: "Every day everyone plays the same cards against the same bot, in the same seats: one round, one try each. The board ranks your points less the bot's.",
  daily_vs: "one round against a {level} bot", daily_play: "Play it", daily_resume: "Back to your game",
  daily_played: "You played it: margin {n}", daily_count: "{n} played", daily_next: "New deals in {n}",
  daily_board: "Board", col_margin: "Margin", col_score: "Points", col_bot: "Bot",
  daily_empty: "Nobody has finished this deal yet.", daily_hidden: "Play it to see how the others played the same cards.",
  daily_see: "How they played", daily_compare: "Decision by decision", decision_n: "Decision {n}",
  daily_you: "You", daily_them: "{name}", daily_close: "Close", daily_table: "Daily deal",
  daily_same: "same", hours_minutes: "{h} h {m} min",
  err_play_first: "Play this deal yourself first: its games stay hidden until then.",
  err_already_played: "You have played this deal: one try each.", err_no_such_deal: "There is no such deal.",
  err_not_today: "That was another day's deal.", err_private_table: "A daily deal game cannot be watched.",
  err_no_rematch: "The daily deal is played once a day.",
  // reactions
  react: "React", reactions_off: "Reactions off", reactions_on: "Reactions on",
  reactions_mute_help: "Hide everyone's reactions (remembered on this device)",
  react_hello: "Hello!", react_good_luck: "Good luck!", react_well_played: "Well played!", react_nice_basra: "Nice basra!",
  react_thanks: "Thanks!", react_sorry: "Sorry!", react_oops: "Oops!", react_thinking: "Let me think…",
  react_hurry: "Your move, please!", react_good_game: "Good game!", react_rematch: "Another game?",
  react_smile: "smile", react_laugh: "laugh", react_clap: "applause", react_wow: "wow", react_sad: "sad",
  react_fire: "fire", react_heart: "heart", react_cool: "cool",
  err_bad_reaction: "Unknown reaction.",
  // bot accounts
  nav_bots: "Bots", bots_title: "Your bot programs",
  bots_help: "A bot account lets a program you write play at tables here, marked as a bot and rated as one. Give its token to the program (the bot API is in docs/WEB.md), then seat the bot at a table you create.",
  bot_name: "Bot name", bot_make: "Make a bot account", bot_token: "Its token, shown only now (keep it secret):",
  bot_renew: "New token", bot_revoke: "Revoke", bots_none: "No bot accounts yet.", bot_revoked: "Revoked.",
  seat_program: "Bot program: {name}", program_tag: "bot program",
  err_bad_bot_name: "A bot name has 3 to 20 letters, digits, _ or -.", err_bot_name_taken: "There is a bot with that name already.",
  err_no_such_bot: "No such bot account.",
};

const AR = {
  // quick play
  play_now_title: "العب الآن", play_now: "العب الآن",
  play_now_help: "قابل لاعبين بتقييم قريب من تقييمك على طاولة مصنّفة بساعة. يتّسع نطاق التقييم كلما انتظرت، وإن لم يأتِ أحد يمكن أن يأخذ روبوت بقوة مقاربة مقعدًا بعد المدة التي تختارها.",
  bot_fill: "روبوت بعد",
  bot_never: "أبدًا: انتظر لاعبين", seconds_n: "{n} ث", minutes_n: "{n} د",
  seeking: "نبحث عن لاعبين… {n} ث", seeking_window: "لاعبون تقييمهم من {low} إلى {high} (تقييمك {mu}؛ يتّسع المدى كلما انتظرت)", window_any: "أي تقييم",
  seeking_count: "{n} ينتظرون هذه الطاولة", matched: "وجدناهم! ننقلك إلى الطاولة…",
  replaced_seek: "بحثك مستمر في تبويب أو نافذة أخرى.",
  pools_title: "ينتظرون الآن", pools_empty: "لا أحد ينتظر الآن: كن الأول.", waiting_now: "{n} ينتظرون",
  back_to_game: "عُد إلى لعبتك",
  err_at_table: "أنت في لعبة مصنّفة: أنهِها أولًا.", err_bad_seek: "هذا البحث غير صالح.",
  err_matched: "وجدنا لك طاولة بالفعل: أعد تحميل الصفحة.",
  // the daily deal
  nav_daily: "توزيعة اليوم", daily_title: "توزيعة اليوم",
  daily_help: "كل يوم يلعب الجميع الأوراق نفسها ضد الروبوت نفسه وفي المقاعد نفسها: جولة واحدة ومحاولة واحدة لكل لاعب. ترتّب اللوحة نقاطك ناقص نقاط الروبوت.",
  daily_vs: "جولة واحدة ضد روبوت {level}", daily_play: "العبها", daily_resume: "عُد إلى لعبتك",
  daily_played: "لعبتها: الفارق {n}", daily_count: "لعبها {n}", daily_next: "توزيعات جديدة بعد {n}",
  daily_board: "اللوحة", col_margin: "الفارق", col_score: "النقاط", col_bot: "الروبوت",
  daily_empty: "لم ينهِ أحد هذه التوزيعة بعد.", daily_hidden: "العبها لترى كيف لعب الآخرون الأوراق نفسها.",
  daily_see: "كيف لعبوا", daily_compare: "قرارًا بقرار", decision_n: "القرار {n}",
  daily_you: "أنت", daily_them: "{name}", daily_close: "أغلق", daily_table: "توزيعة اليوم",
  daily_same: "نفسها", hours_minutes: "{h} س {m} د",
  err_play_first: "العب هذه التوزيعة بنفسك أولًا: ألعابها مخفية حتى ذلك الحين.",
  err_already_played: "لعبت هذه التوزيعة: محاولة واحدة لكل لاعب.", err_no_such_deal: "لا توجد توزيعة كهذه.",
  err_not_today: "تلك توزيعة يوم آخر.", err_private_table: "لا يمكن مشاهدة لعبة من توزيعة اليوم.",
  err_no_rematch: "توزيعة اليوم تُلعب مرة واحدة في اليوم.",
  // reactions
  react: "تفاعل", reactions_off: "التفاعلات مخفية", reactions_on: "التفاعلات ظاهرة",
  reactions_mute_help: "أخفِ تفاعلات الجميع (يُحفظ على هذا الجهاز)",
  react_hello: "مرحبًا!", react_good_luck: "بالتوفيق!", react_well_played: "أحسنت!", react_nice_basra: "بصرة حلوة!",
  react_thanks: "شكرًا!", react_sorry: "آسف!", react_oops: "أوه!", react_thinking: "دعني أفكر…",
  react_hurry: "دورك، من فضلك!", react_good_game: "لعبة حلوة!", react_rematch: "لعبة أخرى؟",
  react_smile: "ابتسامة", react_laugh: "ضحك", react_clap: "تصفيق", react_wow: "دهشة", react_sad: "حزن",
  react_fire: "نار", react_heart: "قلب", react_cool: "رائع",
  err_bad_reaction: "تفاعل غير معروف.",
  // bot accounts
  nav_bots: "الروبوتات", bots_title: "برامج الروبوت الخاصة بك",
  bots_help: "حساب الروبوت يتيح لبرنامج تكتبه أن يلعب على الطاولات هنا، موسومًا كروبوت ومصنّفًا كروبوت. أعطِ رمزه للبرنامج (واجهة الروبوتات موصوفة في docs/WEB.md)، ثم أجلسه على طاولة تنشئها.",
  bot_name: "اسم الروبوت", bot_make: "أنشئ حساب روبوت", bot_token: "رمزه، يظهر الآن فقط (احفظه سرًّا):",
  bot_renew: "رمز جديد", bot_revoke: "ألغِه", bots_none: "لا حسابات روبوت بعد.", bot_revoked: "أُلغي.",
  seat_program: "برنامج روبوت: {name}", program_tag: "برنامج روبوت",
  err_bad_bot_name: "اسم الروبوت من ٣ إلى ٢٠ حرفًا أو رقمًا أو _ أو -.", err_bot_name_taken: "يوجد روبوت بهذا الاسم بالفعل.",
  err_no_such_bot: "لا يوجد حساب روبوت كهذا.",
};

Object.assign(DICTS.en, EN);
Object.assign(DICTS.ar, AR);

export const PLAY_WORDS = { en: EN, ar: AR };
