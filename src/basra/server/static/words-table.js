// Words of the table's keyboard and screen-reader parts (table.js), the page's
// chrome (menu, skip link, blind mode) and its errors for people, in English and
// Arabic. Importing this module adds them to i18n.js's dictionaries.

import { DICTS } from "./i18n.js";

const EN = {
  // the page's chrome
  menu: "Menu", skip_main: "Skip to the content", skip_table: "Skip to the table", skip_form: "Skip to the form",
  blind_mode: "Blind mode", blind_on: "Blind mode is on: cards in words, typed commands (click to turn off)",
  blind_off: "Blind mode is off (click to turn on: cards in words, typed commands)",
  language_switch: "Language: العربية",
  not_found_title: "There is no such page", not_found_help: "The address may be mistyped, or the page has moved.",
  go_home: "Go to the home page",
  // the table's parts
  table_heading: "{variant}: the table", players_heading: "Players", your_seat: "Your seat",
  hand_empty: "No cards in your hand.", cards_n_one: "1 card",
  key_help: "Keys: 1 to 6 play a card of your hand, the arrows move between cards, Enter plays the selected card, Escape cancels.",
  choice_n: "{n}: takes {cards}",
  card_goes_down: "goes on the floor", card_takes: "takes {cards}", card_can_take: "can take {options}",
  // what is said after each play
  say_you_play: "You play {card}", say_takes: "and takes {cards}", say_you_take: "and take {cards}",
  say_basra: "Basra, {n} points!", say_your_turn: "Your turn.", say_turn_of: "{name} to play.",
  say_dealt: "New cards: {n} in your hand.", say_dealt_one: "New cards: 1 in your hand.", say_dealt_watch: "New cards are dealt.",
  say_round_over: "Round {n} is over.", say_scores: "Scores: {list}.", say_game_over: "Game over. {result}",
  say_selected: "{card} selected: {what}. Press {key} or Enter again to play it.",
  say_choose: "{card} can take different sets: press 1 to {n} to choose one, Escape to cancel.",
  say_no_card: "There is no card {n} in your hand.", say_cancelled: "Cancelled.",
  say_timed_out: "Time ran out: a bot played for {name}.", say_stood_in_one: "A bot played for {name}, who is away.",
  say_stood_in_away: "While you were away, a bot played {n} cards for you.", say_stood_in_away_one: "While you were away, a bot played 1 card for you.",
  // typed commands (blind mode)
  command: "Command", command_placeholder: "? for the commands",
  command_list: "Commands: h your hand, f the floor, l the last play, s the scores, p the piles, c the clocks, t whose turn, a every player; or a number to play that card.",
  command_unknown: "“{text}” is not a command. Type ? for the list.",
  read_hand: "Your hand: {cards}.", read_floor: "The floor: {cards}.", read_last_none: "Nobody has played yet this round.",
  read_last: "Last play: {play}.", read_scores: "Scores: {list}. The game ends at {target}.",
  read_piles: "Piles: {list}.", read_pile: "{name} {n} cards, {b} basras", read_clocks: "Clocks: {list}.",
  read_no_clock: "There is no clock at this table.", read_players: "Players: {list}.",
  read_player: "{name}, {n} cards in hand", read_stock: "{n} cards left in the stock.",
  // errors for people
  err_field_range: "{label} must be from {low} to {high}.", err_field_required: "{label}: fill this in.",
  err_field_short: "{label} needs at least {n} characters.", err_field_long: "{label} may have at most {n} characters.",
  err_field_chars: "{label} may have only letters, digits, _ and -.",
  err_no_variant: "There is no variant called “{name}”. These are the variants:",
  err_settings_never_end: "With no card worth a point and no most-cards bonus, rounds score nothing and the game could never end.",
  err_field_invalid: "{label}: this value is not allowed here.",
  err_rated_rules: "A rated table plays the variant's own rules: only the target may change.",
  err_rated_person: "A rated table needs a seat for a person.", err_rated_hints: "A rated table has no hints.",
  err_rated_clock: "A rated table needs a clock.", err_program_clock: "A table with a bot program needs a clock.",
  err_teams_four: "Teams need four seats.",
  rating_words: "{mu}, uncertain by {sigma}", provisional: "provisional", rating_provisional: "{mu}, provisional",
  last_round: "The last round: round {n}", col_compare: "Compare", col_decision: "Decision", step_slider: "Step",
  board_family: "Variants", board_kind: "Table",
  link_to_watch: "A link to watch this game", at_table: "You sit here", back_to_table: "Back to the table",
};

const AR = {
  // the page's chrome
  menu: "القائمة", skip_main: "انتقل إلى المحتوى", skip_table: "انتقل إلى الطاولة", skip_form: "انتقل إلى النموذج",
  blind_mode: "وضع المكفوفين", blind_on: "وضع المكفوفين مفعّل: الأوراق بالكلمات وأوامر مكتوبة (انقر لإيقافه)",
  blind_off: "وضع المكفوفين متوقف (انقر لتفعيله: الأوراق بالكلمات وأوامر مكتوبة)",
  language_switch: "Language: English",
  not_found_title: "لا توجد صفحة كهذه", not_found_help: "ربما في العنوان خطأ، أو نُقلت الصفحة.",
  go_home: "اذهب إلى الصفحة الرئيسية",
  // the table's parts
  table_heading: "{variant}: الطاولة", players_heading: "اللاعبون", your_seat: "مقعدك",
  hand_empty: "لا ورق في يدك.", cards_n_one: "ورقة واحدة",
  key_help: "المفاتيح: من ١ إلى ٦ تلعب ورقة من يدك، والأسهم تنتقل بين الأوراق، وEnter تلعب الورقة المختارة، وEscape تلغي.",
  choice_n: "{n}: تأكل {cards}",
  card_goes_down: "تنزل على الأرض", card_takes: "تأكل {cards}", card_can_take: "تستطيع أكل {options}",
  // what is said after each play
  say_you_play: "تلعب {card}", say_takes: "ويأكل {cards}", say_you_take: "وتأكل {cards}",
  say_basra: "بصرة، {n} نقاط!", say_your_turn: "دورك.", say_turn_of: "دور {name}.",
  say_dealt: "ورق جديد: {n} في يدك.", say_dealt_one: "ورق جديد: ورقة واحدة في يدك.", say_dealt_watch: "وُزّع ورق جديد.",
  say_round_over: "انتهت الجولة {n}.", say_scores: "النتيجة: {list}.", say_game_over: "انتهت اللعبة. {result}",
  say_selected: "اخترت {card}: {what}. اضغط {key} أو Enter مرة أخرى لتلعبها.",
  say_choose: "{card} تستطيع أكل مجموعات مختلفة: اضغط من ١ إلى {n} لتختار واحدة، وEscape للإلغاء.",
  say_no_card: "لا توجد ورقة رقم {n} في يدك.", say_cancelled: "أُلغي.",
  say_timed_out: "انتهى الوقت: لعب روبوت عن {name}.", say_stood_in_one: "لعب روبوت عن {name} لغيابه.",
  say_stood_in_away: "أثناء غيابك لعب روبوت {n} أوراق عنك.", say_stood_in_away_one: "أثناء غيابك لعب روبوت ورقة واحدة عنك.", say_stood_in_away_two: "أثناء غيابك لعب روبوت ورقتين عنك.", say_stood_in_away_many: "أثناء غيابك لعب روبوت {n} ورقة عنك.",
  // typed commands (blind mode)
  command: "أمر", command_placeholder: "? لقائمة الأوامر",
  command_list: "الأوامر: h يدك، f الأرض، l آخر لعبة، s النتيجة، p المكاسب، c الساعات، t دور من، a كل اللاعبين؛ أو رقم لتلعب تلك الورقة.",
  command_unknown: "«{text}» ليس أمرًا. اكتب ? لقائمة الأوامر.",
  read_hand: "يدك: {cards}.", read_floor: "الأرض: {cards}.", read_last_none: "لم يلعب أحد بعد في هذه الجولة.",
  read_last: "آخر لعبة: {play}.", read_scores: "النتيجة: {list}. تنتهي اللعبة عند {target}.",
  read_piles: "المكاسب: {list}.", read_pile: "{name} {n} ورقة، {b} بصرات", read_clocks: "الساعات: {list}.",
  read_no_clock: "لا ساعة على هذه الطاولة.", read_players: "اللاعبون: {list}.",
  read_player: "{name}، {n} ورقة في يده", read_stock: "بقي {n} ورقة في الباقي.",
  // errors for people
  err_field_range: "{label} يجب أن يكون من {low} إلى {high}.", err_field_required: "{label}: املأ هذا الحقل.",
  err_field_short: "{label} يحتاج {n} أحرف على الأقل.", err_field_long: "{label} لا يزيد على {n} حرفًا.",
  err_field_chars: "{label} فيه حروف وأرقام و_ و- فقط.",
  err_no_variant: "لا يوجد نوع اسمه «{name}». هذه هي الأنواع:",
  err_settings_never_end: "إذا لم تكن لأي ورقة نقاط ولا مكافأة للأكثر أوراقًا فلا تُسجَّل نقاط ولن تنتهي اللعبة أبدًا.",
  err_field_invalid: "{label}: هذه القيمة غير مسموحة هنا.",
  err_rated_rules: "الطاولة المصنّفة تلعب بقواعد النوع نفسها: الهدف وحده يمكن تغييره.",
  err_rated_person: "الطاولة المصنّفة تحتاج مقعدًا لشخص.", err_rated_hints: "لا تلميحات على الطاولة المصنّفة.",
  err_rated_clock: "الطاولة المصنّفة تحتاج ساعة.", err_program_clock: "الطاولة التي فيها برنامج روبوت تحتاج ساعة.",
  err_teams_four: "الفريقان يحتاجان أربعة مقاعد.",
  rating_words: "{mu}، بهامش شك {sigma}", provisional: "مؤقت", rating_provisional: "{mu}، مؤقت",
  last_round: "آخر جولة: الجولة {n}", col_compare: "مقارنة", col_decision: "القرار", step_slider: "الخطوة",
  board_family: "الأنواع", board_kind: "الطاولة",
  link_to_watch: "رابط لمشاهدة هذه اللعبة", at_table: "أنت على هذه الطاولة", back_to_table: "عُد إلى الطاولة",
};

Object.assign(DICTS.en, EN);
Object.assign(DICTS.ar, AR);

export const TABLE_WORDS = { en: EN, ar: AR };
