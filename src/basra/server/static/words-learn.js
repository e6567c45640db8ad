// Words of the lessons (/learn) and the puzzles (/puzzles), in English and Arabic.
// Importing this module adds them to i18n.js's dictionaries. The lessons' and the
// puzzles' own sentences (a step's goal and rule, why a move is right or wrong, why a
// puzzle's answer is best) come from the server in both languages (basra.learn,
// basra.puzzles); these are the page's words around them.

import { DICTS } from "./i18n.js";

const EN = {
  // lessons
  nav_learn: "Learn", learn_title: "Learn Basra",
  learn_help: "A short course for every variant: each step is a position with one move to find, and only that move counts. Play with the mouse, or with the keys: 1–6 play a card, the arrows move along your hand, Enter plays the card, a digit picks among the sets a card can take.",
  learn_courses: "Courses", learn_progress: "Steps done: {done} of {total}",
  learn_start: "Start", learn_continue: "Continue", learn_again_course: "Go over it again", learn_done_tag: "Done",
  learn_step_n: "Step {n} of {m}", learn_steps: "Steps", learn_step_done: "done",
  learn_goal: "Your task", learn_takes_title: "What each card would take", learn_rule: "The rule",
  option_takes: "takes {cards}", option_trail: "goes on the floor", option_basra: "basra +{n}", option_points: "card points +{n}",
  option_or: " or ", option_card: "{card}: {what}",
  err_lesson_wrong: "Not the move this step teaches.",
  learn_right: "Right!", learn_next: "Next step", learn_again: "Play this step again",
  learn_course_done: "Course complete: you have done every step.", learn_all_courses: "All courses", err_no_course: "There is no course called “{name}”: no variant has that name.",
  learn_other_player: "The other player", learn_custom_help: "These are custom rules: the course has the steps their settings imply.",
  learn_rules_link: "Learn these rules step by step", learn_home_link: "New to Basra? Learn it step by step, then practise with puzzles.",
  learn_puzzles_help: "Moments of real games where one move is clearly the best: find it. Puzzles have ratings, streaks and a puzzle of the day, and you get puzzles from your own reviewed games.",
  learn_go_puzzles: "Solve puzzles", learn_say_step: "Step {n} of {m}: {title}. {goal}",
  // puzzles
  puzzles_title: "Puzzles",
  puzzles_help: "Each puzzle is a moment of a real game where one move beats every other by a clear margin. You see only what that player saw; once you move, the whole position and why.",
  puzzle_you: "You", puzzle_rating_label: "Puzzle rating", puzzle_rating_value: "{r} ± {d}",
  puzzle_streak: "Streak", puzzle_best_streak: "Best streak", puzzle_solved_label: "Solved at the first try", puzzle_solved_value: "{n} of {m}",
  puzzle_next: "Next puzzle", puzzle_daily: "Puzzle of the day", puzzle_mistakes: "Your mistakes",
  puzzle_choose: "Choose puzzles", puzzle_theme: "Theme", puzzle_variant: "Variant", puzzle_any: "Any",
  puzzle_find: "Find the best move", puzzle_heading: "Your puzzle", puzzle_of_day: "Puzzle of the day · {date}",
  puzzle_players: "Players: {n}", puzzle_teams: "in two teams", puzzle_puzzle_rating: "Puzzle rated {r}",
  puzzle_rated: "Rated: your first try at a puzzle counts.", puzzle_unrated: "You have tried this one before: not rated this time.",
  puzzle_exact: "proven exactly", puzzle_searched: "found by a deep search",
  puzzle_right: "Solved!", puzzle_wrong: "Not the best move.",
  puzzle_rating_after: "Your puzzle rating: {r} ({change})", puzzle_streak_now: "Streak: {n} · best {b}",
  puzzle_not_rated: "Not rated: you tried this puzzle before.",
  puzzle_why: "Why", puzzle_moves: "Every move", col_move: "Move", col_does: "What it does", col_value: "Expected round margin",
  puzzle_best_tag: "best", puzzle_yours_tag: "your move", puzzle_position: "The whole position",
  puzzle_hand_of: "Hand: {name}", puzzle_stock_label: "Stock", puzzle_stock_empty: "The stock is empty.",
  puzzle_themes: "Themes", puzzle_player_n: "Player {n}",
  puzzle_practice: "Practice", puzzle_practice_note: "Practice: a puzzle shipped with the game, whose answer anyone can read, so it is never rated.",
  puzzle_say_start: "Puzzle. {goal}", puzzle_no_puzzle: "No puzzle has that theme and variant yet.",
  mistakes_help: "Puzzles from your own reviewed games: moments where a clearly better move was there than the one you played.",
  mistakes_empty: "No puzzles from your games yet. They come from your finished games once they are reviewed: open a game in My games and ask for its review.",
  mistakes_mining: "Looking for puzzles in {n} of your reviewed games…", mistakes_item: "Round {r}, play {p}",
  mistakes_new: "new", mistakes_solved: "solved", mistakes_missed: "missed", puzzle_open: "Solve it",
  puzzle_recent: "Your latest puzzles", puzzle_recent_right: "solved", puzzle_recent_wrong: "missed",
  err_no_such_puzzle: "There is no such puzzle.", err_no_such_step: "This course has no such step.",
};

const AR = {
  // lessons
  nav_learn: "تعلّم", learn_title: "تعلّم البصرة",
  learn_help: "درس قصير لكل نوع من اللعبة: كل خطوة وضعية فيها حركة واحدة عليك أن تجدها، ولا تُحتسب غيرها. العب بالفأرة أو بالمفاتيح: ١–٦ تلعب ورقة، والأسهم تتنقل في يدك، وEnter تلعب الورقة، ورقمٌ يختار بين المجموعات التي تأكلها الورقة.",
  learn_courses: "الدروس", learn_progress: "الخطوات المنجزة: {done} من {total}",
  learn_start: "ابدأ", learn_continue: "تابع", learn_again_course: "راجعه من جديد", learn_done_tag: "مكتمل",
  learn_step_n: "الخطوة {n} من {m}", learn_steps: "الخطوات", learn_step_done: "منجزة",
  learn_goal: "مهمتك", learn_takes_title: "ماذا تأكل كل ورقة", learn_rule: "القاعدة",
  option_takes: "تأكل {cards}", option_trail: "تنزل على الأرض", option_basra: "بصرة +{n}", option_points: "نقاط الأوراق +{n}",
  option_or: " أو ", option_card: "{card}: {what}",
  err_lesson_wrong: "ليست الحركة التي تعلّمها هذه الخطوة.",
  learn_right: "صحيح!", learn_next: "الخطوة التالية", learn_again: "العب هذه الخطوة مرة أخرى",
  learn_course_done: "اكتمل الدرس: أنجزت كل الخطوات.", learn_all_courses: "كل الدروس", err_no_course: "لا يوجد درس باسم “{name}”: لا توجد طريقة لعب بهذا الاسم.",
  learn_other_player: "اللاعب الآخر", learn_custom_help: "هذه قواعد خاصة: في الدرس الخطوات التي تقتضيها إعداداتها.",
  learn_rules_link: "تعلّم هذه القواعد خطوة بخطوة", learn_home_link: "جديد على البصرة؟ تعلّمها خطوة بخطوة، ثم تمرّن بالألغاز.",
  learn_puzzles_help: "لحظات من ألعاب حقيقية فيها حركة واحدة هي الأفضل بوضوح: جدها. للألغاز تصنيف وسلاسل حلول ولغز لكل يوم، وتأتيك ألغاز من ألعابك التي رُوجعت.",
  learn_go_puzzles: "حلّ الألغاز", learn_say_step: "الخطوة {n} من {m}: {title}. {goal}",
  // puzzles
  puzzles_title: "الألغاز",
  puzzles_help: "كل لغز لحظة من لعبة حقيقية تتفوّق فيها حركة واحدة على كل حركة أخرى بفارق واضح. لا ترى إلا ما رآه ذلك اللاعب؛ وبعد حركتك ترى الوضعية كاملة ولماذا.",
  puzzle_you: "أنت", puzzle_rating_label: "تصنيف الألغاز", puzzle_rating_value: "{r} ± {d}",
  puzzle_streak: "سلسلة الحلول", puzzle_best_streak: "أفضل سلسلة", puzzle_solved_label: "حُلّت من المحاولة الأولى", puzzle_solved_value: "{n} من {m}",
  puzzle_next: "اللغز التالي", puzzle_daily: "لغز اليوم", puzzle_mistakes: "أخطاؤك",
  puzzle_choose: "اختر الألغاز", puzzle_theme: "الموضوع", puzzle_variant: "النوع", puzzle_any: "أيّ",
  puzzle_find: "جد أفضل حركة", puzzle_heading: "لغزك", puzzle_of_day: "لغز اليوم · {date}",
  puzzle_players: "اللاعبون: {n}", puzzle_teams: "في فريقين", puzzle_puzzle_rating: "تصنيف اللغز {r}",
  puzzle_rated: "مصنّف: محاولتك الأولى في اللغز تُحتسب.", puzzle_unrated: "حاولت هذا اللغز من قبل: غير مصنّف هذه المرة.",
  puzzle_exact: "مُثبت تمامًا", puzzle_searched: "وجده بحث عميق",
  puzzle_right: "أحسنت، حللته!", puzzle_wrong: "ليست أفضل حركة.",
  puzzle_rating_after: "تصنيفك في الألغاز: {r} ({change})", puzzle_streak_now: "السلسلة: {n} · الأفضل {b}",
  puzzle_not_rated: "غير مصنّف: حاولت هذا اللغز من قبل.",
  puzzle_why: "لماذا", puzzle_moves: "كل الحركات", col_move: "الحركة", col_does: "ماذا تفعل", col_value: "الفارق المتوقع في الجولة",
  puzzle_best_tag: "الأفضل", puzzle_yours_tag: "حركتك", puzzle_position: "الوضعية كاملة",
  puzzle_hand_of: "ورق {name}", puzzle_stock_label: "الباقي", puzzle_stock_empty: "لم يبقَ شيء.",
  puzzle_themes: "المواضيع", puzzle_player_n: "اللاعب {n}",
  puzzle_practice: "تمرين", puzzle_practice_note: "تمرين: لغز يأتي مع اللعبة وحلّه متاح لأي أحد، لذلك لا يُصنَّف أبدًا.",
  puzzle_say_start: "لغز. {goal}", puzzle_no_puzzle: "لا يوجد بعد لغز بهذا الموضوع وهذا النوع.",
  mistakes_help: "ألغاز من ألعابك التي رُوجعت: لحظات كانت فيها حركة أفضل بوضوح من التي لعبتها.",
  mistakes_empty: "لا ألغاز من ألعابك بعد. تأتي من ألعابك المنتهية بعد مراجعتها: افتح لعبة في «ألعابي» واطلب مراجعتها.",
  mistakes_mining: "جارٍ البحث عن ألغاز في ألعابك المراجَعة (عددها {n})…", mistakes_item: "الجولة {r}، اللعبة {p}",
  mistakes_new: "جديد", mistakes_solved: "حُلّ", mistakes_missed: "لم يُحلّ", puzzle_open: "حلّه",
  puzzle_recent: "آخر ألغازك", puzzle_recent_right: "حُلّ", puzzle_recent_wrong: "لم يُحلّ",
  err_no_such_puzzle: "لا يوجد لغز كهذا.", err_no_such_step: "لا توجد خطوة كهذه في هذا الدرس.",
};

Object.assign(DICTS.en, EN);
Object.assign(DICTS.ar, AR);

export const LEARN_WORDS = { en: EN, ar: AR };
