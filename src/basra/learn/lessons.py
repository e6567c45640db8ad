"""Lessons: a short course for any rules, each step a position with one move to find.

A course is built from a rule set's **settings**, never from a variant's name
(:func:`course_for`): capturing by pairing, by adding up, both at once; the
choice among capture sets the settings give; pictures that only pair (in a
52-card pack); the jack's sweep; the 7♦ where it sweeps, and when it makes a
basra; what a basra is under these rules, and its exceptions (a jack on a
lone card; a lone jack); point cards; the most-cards bonus; the target. A
custom rule set gets the steps its settings imply.

Each step is a constructed two-player position (:meth:`Step.state`) with a
goal. It accepts only the taught move (:func:`check_step`); any other legal
move is explained in words, what it does and the rule the step teaches.
What each card would take is shown with the position
(:func:`basra.learn.board.hand_options`). Every text is in English and
Arabic (:mod:`basra.learn.words`).

Steps are checked by the engine when they are built: the taught move must be
legal and must reach the step's goal, and no other move may, so a setting
that makes a step untrue (custom rules) leaves that step out.

>>> course = course_for("lebanese")
>>> [step.id for step in course.steps][:4]
['match', 'sum', 'both', 'most']
>>> step = course.step("lone_sum")
>>> check_step(step, step.taught.text()).correct, check_step(step, "4D").correct
(True, False)
>>> print(check_step(step, "4D").words["en"])
Not that one: 4♦ takes 4♥. A basra is taking a lone card on the floor by pairing it, or, \
after a card was trailed onto a lone card, taking both with a card worth their sum. Try again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import pairwise
from typing import Any

from basra.cards import JACK, NUMERAL, Card, card_text, parse_card, parse_cards
from basra.coach.hints import MoveFacts, move_facts
from basra.describe import variant_title
from basra.learn.board import hand_options, move_error_words
from basra.learn.words import Words, both, card_words, count_words, facts_words, num
from basra.moves import Move
from basra.notation import MoveTextError, parse_move
from basra.rules import VARIANT_NAMES, Rules, preset
from basra.state import GameState, SetupError
from basra.view import View, view_of

__all__ = [
    "VARIANT_TITLES_AR",
    "Course",
    "Step",
    "StepResult",
    "check_step",
    "course_for",
    "courses",
    "courses_json",
]

VARIANT_TITLES_AR = {
    "cypriot_bastra": "الباسترا القبرصية",
    "cypriot_classic": "الباسترا القبرصية (القديمة)",
    "egyptian": "البصرة المصرية",
    "egyptian_121": "البصرة المصرية إلى ١٢١",
    "egyptian_mona_russel": "المصرية (منى راسل)",
    "saba_alkoomi": "سبعة الكومي",
    "yemeni": "البصرة اليمنية",
    "ethiopian": "البصرة الإثيوبية",
    "lebanese": "البصرة اللبنانية",
    "lebanese_ashush": "اللبنانية (عشوش)",
    "lebanese_alefb": "اللبنانية (للأطفال)",
    "palestinian": "البصرة الفلسطينية",
    "jordanian": "البصرة الأردنية (حداد)",
    "syrian": "البصرة السورية",
    "syrian_homsi": "البصرة السورية (الحمصية)",
}
"""Each preset's name in Arabic, as the web pages write it."""


@dataclass(frozen=True)
class Step:
    """One step of a course: a position, a goal, and the one move that reaches it."""

    id: str
    """What the step teaches (``match``, ``jack``, ``basra`` ...), unique in a course."""
    title: Words
    goal: Words
    rule: Words
    """The rule the step teaches, written from the settings."""
    variant: str
    rules: Rules
    floor: tuple[Card, ...]
    hand: tuple[Card, ...]
    other: tuple[Card, ...]
    """The other player's hand (never shown: the learner plays seat 0)."""
    taught: Move
    lone_trail: bool = False
    scores: tuple[int, int] = (0, 0)

    def state(self) -> GameState:
        """The step's position: seat 0 to move, the other player holding ``other``."""
        return GameState.from_position(
            self.variant,
            2,
            floor=self.floor,
            hands=[self.hand, self.other],
            turn=0,
            rules=self.rules,
            lone_trail=self.lone_trail,
            scores=self.scores,
        )

    def view(self) -> View:
        """What the learner sees: seat 0's view of the position."""
        return view_of(self.state(), 0)

    def to_json(self) -> dict[str, Any]:
        """The step for a front end: texts, the learner's view and what each card takes.

        The taught move is not in it (it is what the learner finds)."""
        view = self.view()
        return {
            "id": self.id,
            "title": self.title,
            "goal": self.goal,
            "rule": self.rule,
            "view": view.to_json(),
            "hand_options": hand_options(view),
        }


@dataclass(frozen=True)
class Course:
    """A course for one rule set: its steps in order."""

    variant: str
    """The preset the rules start from."""
    rules: Rules
    steps: tuple[Step, ...]
    custom: bool = False
    """True when the rules differ from the preset's."""
    title: Words = field(default_factory=dict)

    def step(self, step_id: str) -> Step:
        """The step with this id (KeyError when the course has none)."""
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"this course has no step {step_id!r}")

    def to_json(self, *, steps: bool = False) -> dict[str, Any]:
        """The course: its variant, title and steps (each with its position with ``steps``,
        else only ids and titles, as ``GET /api/lessons`` lists them)."""
        return {
            "variant": self.variant,
            "custom": self.custom,
            "title": self.title,
            "rules": self.rules.to_dict(),
            "steps": [
                step.to_json() if steps else {"id": step.id, "title": step.title}
                for step in self.steps
            ],
        }


@dataclass(frozen=True)
class StepResult:
    """What a move typed in a step did: right or wrong, and why in words."""

    correct: bool
    move: str | None
    """The move as canonical text (``None`` when the text was not a legal move)."""
    words: Words


def check_step(step: Step, text: str) -> StepResult:
    """Whether ``text`` is the step's taught move; the words to show either way.

    A legal move that is not the taught one is explained (what it does, and
    the rule); text that is not a legal move says why.
    """
    state = step.state()
    try:
        move = parse_move(state, text)
    except MoveTextError:
        return StepResult(False, None, move_error_words(state, text))
    view = view_of(state, 0)
    facts = move_facts(view, move)
    if move == step.taught:
        return StepResult(
            True,
            move.text(),
            both(
                f"Right: {facts_words(facts, 'en', reply=False)}. {step.rule['en']}",
                f"صحيح: {facts_words(facts, 'ar', reply=False)}. {step.rule['ar']}",
            ),
        )
    return StepResult(
        False,
        move.text(),
        both(
            f"Not that one: {facts_words(facts, 'en', reply=False)}. {step.rule['en']} Try again.",
            f"ليست هذه: {facts_words(facts, 'ar', reply=False)}. {step.rule['ar']} حاول مرة أخرى.",
        ),
    )


# ----------------------------------------------------------------- building


Goal = Callable[[MoveFacts], bool]
"""Whether a move reaches a step's goal (from what the move does)."""

_SPARE = parse_cards("9C 8S 6D 5S 4H 3D 10C 2H AC 8D 9H 6S 3C 5H")
"""Cards for the other player's hand, the first two unused ones."""


def _build(
    rules: Rules,
    variant: str,
    step_id: str,
    texts: tuple[Words, Words, Words],
    floor: str,
    hand: str,
    taught: str,
    goal: Goal,
    *,
    lone_trail: bool = False,
    scores: tuple[int, int] = (0, 0),
) -> Step | None:
    """A step, if the engine agrees: the taught move is legal and is the only one that
    reaches ``goal``. ``None`` otherwise (rules under which the step is not true)."""
    floor_cards = tuple(parse_cards(floor))
    hand_cards = tuple(parse_cards(hand))
    used = set(floor_cards) | set(hand_cards)
    if any(rules.pack == 44 and c >> 2 > JACK for c in used):
        return None  # queens and kings are not in a 44-card pack
    other = tuple(c for c in _SPARE if c not in used)[:2]
    title, goal_words, rule = texts
    step = Step(
        step_id,
        title,
        goal_words,
        rule,
        variant,
        rules,
        floor_cards,
        hand_cards,
        other,
        Move(0, 0),
        lone_trail,
        scores,
    )
    try:
        state = step.state()
        move = parse_move(state, taught)
    except (SetupError, MoveTextError):
        return None
    view = view_of(state, 0)
    if not goal(move_facts(view, move)):
        return None
    if any(goal(move_facts(view, m)) for m in state.legal_moves() if m != move):
        return None
    return replace(step, taught=move)


def _takes(facts: MoveFacts) -> int:
    return facts.move.take.bit_count()


def _cw(text: str, lang: str) -> str:
    """Card text (``7D``) as a label in ``lang``."""
    return card_words(parse_card(text), lang)


def _basra_value_words(rules: Rules, points: int) -> Words:
    if rules.basra_value == "flat":
        return both(
            f"This one scores {points}.", f"هذه قيمتها {count_words(points, 'point', 'ar')}."
        )
    return both(
        f"It scores twice the face value of the capturing card: {points} here.",
        f"قيمتها ضعف قيمة الورقة التي أكلت: {count_words(points, 'point', 'ar')} هنا.",
    )


def _join(*parts: Words) -> Words:
    return both(" ".join(p["en"] for p in parts), " ".join(p["ar"] for p in parts))


_SEVEN_RULE = {
    "egyptian": both(
        "The 7♦ sweeps the floor like a jack; it is a basra when every floor card is a "
        "numeral and they add up to 10 or less.",
        "{s} تكنس الأرض مثل الولد، وتكون بصرة إذا كانت كل أوراق الأرض أرقامًا مجموعها ١٠ أو أقل.",
    ),
    "yemeni": both(
        "The 7♦ sweeps the floor; it is a basra when the floor is numerals adding up to less "
        "than 10, or only tens, queens and kings, or splits into groups with equal sums under 10.",
        "{s} تكنس الأرض، وتكون بصرة إذا كانت الأرض أرقامًا مجموعها أقل من ١٠، أو عشرات وبنات "
        "وشياب فقط، أو مجموعات متساوية المجموع أقل من ١٠.",
    ),
    "ethiopian": both(
        "The 7♦ sweeps the floor; it is a basra when the floor is numerals adding up to 10 or "
        "less, or groups with equal sums up to 10.",
        "{s} تكنس الأرض، وتكون بصرة إذا كانت الأرض أرقامًا مجموعها ١٠ أو أقل أو مجموعات متساوية "
        "المجموع حتى ١٠.",
    ),
    "no_basra": both(
        "The 7♦ sweeps the floor like a jack, but never makes a basra.",
        "{s} تكنس الأرض مثل الولد لكنها لا تكون بصرة أبدًا.",
    ),
}

_BASRA_RULE = {
    "clear": both(
        "A basra is clearing the whole floor with any card but a jack.",
        "البصرة هي كنس الأرض كلها بورقة غير الولد.",
    ),
    "lone_match": both(
        "A basra is taking a lone card on the floor by pairing it; clearing a floor of "
        "several cards is not.",
        "البصرة هي أكل ورقة وحيدة على الأرض بمطابقتها؛ أما كنس أرض عليها عدة أوراق فليس بصرة.",
    ),
    "lone_match_or_sum": both(
        "A basra is taking a lone card on the floor by pairing it, or, after a card was "
        "trailed onto a lone card, taking both with a card worth their sum.",
        "البصرة هي أكل ورقة وحيدة على الأرض بمطابقتها، أو — إذا رُميت ورقة فوق ورقة وحيدة — "
        "أكل الاثنتين بورقة قيمتها مجموعهما.",
    ),
}

_TIE = {
    "each": both("On a tie every tied side gets it.", "عند التعادل يأخذها كل طرف متعادل."),
    "none": both("On a tie nobody gets it.", "عند التعادل لا يأخذها أحد."),
    "abeyance": both(
        "On a tie it is held over and added to the next round's bonus.",
        "عند التعادل تؤجَّل وتُضاف إلى مكافأة الجولة التالية.",
    ),
}


def _seven(mode: str) -> Words:
    text = _SEVEN_RULE[mode]
    return both(text["en"], text["ar"].format(s=_cw("7D", "ar")))


def _jack_basra(rules: Rules) -> Words:
    if rules.jack_on_lone_jack > 0:
        return both(
            f"a jack makes no basra, except on a lone jack ({rules.jack_on_lone_jack})",
            f"الولد لا يعمل بصرة، إلا على ولد وحيد ({num(rules.jack_on_lone_jack, 'ar')})",
        )
    return both("a jack never makes a basra", "الولد لا يعمل بصرة أبدًا")


def _point_cards_words(rules: Rules) -> Words:
    en, ar = [], []
    for key, points in rules.point_cards:
        is_card = key[-1:].upper() in "SHDC"
        label_en = card_words(parse_card(key), "en") if is_card else key
        label_ar = card_words(parse_card(key), "ar") if is_card else key
        en.append(f"{'' if is_card else 'each '}{label_en} = {points}")
        ar.append(f"{'' if is_card else 'كل '}{label_ar} = {num(points, 'ar')}")
    return both(
        f"Card points: {', '.join(en) or 'none'}.", f"نقاط الأوراق: {'، '.join(ar) or 'لا شيء'}."
    )


def _steps(rules: Rules, variant: str) -> list[Step | None]:
    """Every step these rules imply, in teaching order (``None``: not true here)."""
    steps: list[Step | None] = []
    add = steps.append

    def make(step_id: str, texts: tuple[Words, Words, Words], *args: Any, **kw: Any) -> None:
        add(_build(rules, variant, step_id, texts, *args, **kw))

    make(
        "match",
        (
            both("Pair a card", "أكل بالمطابقة"),
            both(
                "Take the 5♠ with the card of the same rank.",
                f"كُل {_cw('5S', 'ar')} بالورقة التي من نفس الرقم.",
            ),
            both(
                "A card takes every floor card of its own rank.",
                "الورقة تأكل كل ورقة على الأرض من نفس رقمها.",
            ),
        ),
        "5S 9H 8C",
        "5H 2D",
        "5Hx5S",
        lambda f: f.move.take != 0 and f.move.take.bit_count() == 1,
    )
    make(
        "sum",
        (
            both("Add up", "أكل بالجمع"),
            both(
                "Take 2♠ and 3♥ together with a card worth their sum.",
                f"كُل {_cw('2S', 'ar')} و{_cw('3H', 'ar')} معًا بورقة قيمتها مجموعهما.",
            ),
            both(
                "A numeral (ace = 1 to 10) also takes floor numerals that add up to its value.",
                "ورقة الرقم (الآس = ١ حتى ١٠) تأكل أيضًا أوراق الأرقام التي مجموعها يساوي قيمتها.",
            ),
        ),
        "2S 3H 9C",
        "5D 8S",
        "5Dx2S,3H",
        lambda f: _takes(f) == 2,
    )
    make(
        "both",
        (
            both("Pair and add at once", "مطابقة وجمع معًا"),
            both("Take three cards with one card.", "كُل ثلاث أوراق بورقة واحدة."),
            both(
                "A card takes the floor cards of its own rank and the groups that add up to "
                "its value, all at once.",
                "الورقة تأكل ما يطابقها من الأرض والمجموعات التي مجموعها قيمتها، "
                "كلها في مرة واحدة.",
            ),
        ),
        "4S AH 3C 8D",
        "4D 9S",
        "4Dx4S,AH,3C",
        lambda f: _takes(f) >= 3,
    )
    if rules.capture_policy == "max_cards":
        make(
            "most",
            (
                both("The most cards", "أكثر الأوراق في أكلة"),
                both(
                    "Take as many floor cards as you can with one card.",
                    "كُل أكبر عدد من أوراق الأرض بورقة واحدة.",
                ),
                both(
                    "When a card could take different sets, it takes one with the most cards; "
                    "among equally big sets you choose.",
                    "إذا استطاعت الورقة أن تأكل مجموعات مختلفة فإنها تأكل مجموعة فيها أكثر "
                    "الأوراق؛ وبين المجموعات المتساوية أنت تختار.",
                ),
            ),
            "2H AS 5S 4D",
            "7C 9H",
            "7CxAS,2H,4D",
            lambda f: _takes(f) >= 3,
        )
    else:
        make(
            "choose",
            (
                both("Choose your capture", "اختر أكلتك"),
                both(
                    "Your 7♣ can take different sets: take the 5♠ with it.",
                    f"يمكن لـ{_cw('7C', 'ar')} أن تأكل مجموعات مختلفة: كُل بها {_cw('5S', 'ar')}.",
                ),
                both(
                    "When a card could take different sets, you choose any set that cannot be "
                    "made bigger.",
                    "إذا استطاعت الورقة أن تأكل مجموعات مختلفة فأنت تختار أي مجموعة "
                    "لا يمكن تكبيرها.",
                ),
            ),
            "2H AS 5S 4D",
            "7C 9H",
            "7Cx2H,5S",
            lambda f: f.move.card == parse_card("7C") and bool(f.move.take >> parse_card("5S") & 1),
        )
    make(
        "pictures",
        (
            both("Pictures only pair", "الصور بالمطابقة فقط"),
            both("Take the Q♠.", f"كُل {_cw('QS', 'ar')}."),
            both(
                "Queens and kings capture only by pairing: they have no value to add up.",
                "البنت والشايب يأكلان بالمطابقة فقط: ليس لهما قيمة تُجمع.",
            ),
        ),
        "QS 4H 8C",
        "KD QH",
        "QHxQS",
        lambda f: f.move.take != 0,
    )
    jack_words = _jack_basra(rules)
    make(
        "jack",
        (
            both("The jack sweeps", "الولد يكنس"),
            both("Take every card on the floor with one card.", "كُل كل أوراق الأرض بورقة واحدة."),
            both(
                f"A jack sweeps the whole floor; {jack_words['en']}.",
                f"الولد يكنس الأرض كلها؛ و{jack_words['ar']}.",
            ),
        ),
        "3S 8H 9C 5D",
        "JH 2C",
        "JHx3S,5D,8H,9C",
        lambda f: f.move.take != 0 and f.floor_after == 0,
    )
    if rules.sweeping_seven:
        make(
            "seven",
            (
                both("The 7♦ sweeps", f"{_cw('7D', 'ar')} تكنس"),
                both("Sweep the floor with the 7♦.", f"اكنس الأرض بـ{_cw('7D', 'ar')}."),
                _seven(rules.seven_diamonds),
            ),
            "9S 10H 6C",
            "7D 3H",
            "7Dx6C,9S,10H",
            lambda f: f.move.take != 0 and f.floor_after == 0 and not f.basra,
        )
        seven = _build(
            rules,
            variant,
            "seven_basra",
            (both("", ""), both("", ""), both("", "")),
            "2S 3H 4C",
            "7D 8H",
            "7Dx2S,3H,4C",
            lambda f: f.basra > 0,
        )
        if seven is not None:
            worth = move_facts(seven.view(), seven.taught).basra
            add(
                replace(
                    seven,
                    title=both("A basra with the 7♦", f"بصرة بـ{_cw('7D', 'ar')}"),
                    goal=both("Make a basra with the 7♦.", f"اعمل بصرة بـ{_cw('7D', 'ar')}."),
                    rule=_join(_seven(rules.seven_diamonds), _basra_value_words(rules, worth)),
                )
            )
    if rules.lone_seven:
        make(
            "lone_seven",
            (
                both("The lone 7♦", f"{_cw('7D', 'ar')} الوحيدة"),
                both("Take the lone 7♦ for a basra.", f"كُل {_cw('7D', 'ar')} الوحيدة واعمل بصرة."),
                both(
                    "A lone 7♦ on the floor gives a basra to any card but a jack that takes it.",
                    f"{_cw('7D', 'ar')} وحدها على الأرض تعطي بصرة لأي ورقة تأكلها إلا الولد.",
                ),
            ),
            "7D",
            "2H JC",
            "2Hx7D",
            lambda f: f.basra > 0,
        )
    basra_rule = _BASRA_RULE[rules.basra_mode]
    clear = rules.basra_mode == "clear"
    floor, hand, taught = ("3S 6H", "9D 5C", "9Dx3S,6H") if clear else ("6S", "6C 9D", "6Cx6S")
    blank = both("", "")
    basra = _build(
        rules, variant, "basra", (blank, blank, blank), floor, hand, taught, lambda f: f.basra > 0
    )
    basra_goal = (
        both("Clear the whole floor in one play: a basra.", "امسح الأرض كلها في لعبة واحدة: بصرة.")
        if clear
        else both(
            "Take the lone card by pairing it: a basra.", "كُل الورقة الوحيدة بمطابقتها: بصرة."
        )
    )
    if basra is not None:
        worth = move_facts(basra.view(), basra.taught).basra
        add(
            replace(
                basra,
                title=both("The basra", "البصرة"),
                goal=basra_goal,
                rule=_join(basra_rule, _basra_value_words(rules, worth)),
            )
        )
    if rules.basra_mode == "lone_match_or_sum":
        make(
            "lone_sum",
            (
                both("A basra by adding up", "بصرة بالجمع"),
                both(
                    "The 4♥ was just laid on the lone 3♠: take both with one card worth their sum.",
                    f"رُميت {_cw('4H', 'ar')} للتو على {_cw('3S', 'ar')} الوحيدة: كُلهما معًا "
                    "بورقة قيمتها مجموعهما.",
                ),
                basra_rule,
            ),
            "3S 4H",
            "7C 4D",
            "7Cx3S,4H",
            lambda f: f.basra > 0,
            lone_trail=True,
        )
    make(
        "jack_no_basra",
        (
            both("A jack is no basra", "الولد ليس بصرة"),
            both("Make a basra.", "اعمل بصرة."),
            both(
                f"A jack takes a lone card too, but {jack_words['en']}.",
                f"الولد يأكل الورقة الوحيدة أيضًا، لكن {jack_words['ar']}.",
            ),
        ),
        "6S",
        "JH 6C",
        "6Cx6S",
        lambda f: f.basra > 0,
    )
    if rules.jack_on_lone_jack > 0:
        worth = rules.jack_on_lone_jack
        make(
            "jack_on_jack",
            (
                both("Jack on a lone jack", "ولد على ولد وحيد"),
                both(
                    f"Score {worth} with a jack.",
                    f"سجّل {count_words(worth, 'point', 'ar')} بالولد.",
                ),
                both(
                    f"A jack taking a lone jack is a basra worth {worth}.",
                    f"الولد على ولد وحيد بصرة قيمتها {count_words(worth, 'point', 'ar')}.",
                ),
            ),
            "JS",
            "JH 4C",
            "JHxJS",
            lambda f: f.basra > 0,
        )
    add(_points_step(rules, variant))
    if rules.majority_bonus > 0:
        bonus = rules.majority_bonus
        tie = _TIE[rules.majority_tie]
        make(
            "majority",
            (
                both("Most cards", "أكثر الأوراق"),
                both("Take the most cards you can.", "كُل أكبر عدد من الأوراق."),
                both(
                    f"When the round ends, the side with the most cards scores {bonus}. "
                    + tie["en"],
                    "في نهاية الجولة يأخذ الطرف الذي أكل أكثر الأوراق مكافأة قيمتها "
                    f"{count_words(bonus, 'point', 'ar')}. " + tie["ar"],
                ),
            ),
            "2S 3H 5C 9D",
            "5D 9H",
            "5Dx2S,3H,5C",
            lambda f: _takes(f) >= 3,
        )
    target = rules.target
    # The basra this step makes reaches the target, and the goal says so.
    worth = rules.basra_values[parse_card("6C")]
    ahead = max(target - worth, 0)
    make(
        "target",
        (
            both("The target", "الهدف"),
            both(
                f"You have {ahead} points and the game is played to {target}: make a basra, "
                f"worth {worth}, to reach it.",
                f"معك {count_words(ahead, 'point', 'ar')} واللعبة إلى {num(target, 'ar')}: "
                f"اعمل بصرة، قيمتها {count_words(worth, 'point', 'ar')}، لتصل إليه.",
            ),
            both(
                "Points are added up after each round; the game ends after a round in which a "
                f"side reaches {target}, and the highest score wins.",
                "تُجمع النقاط بعد كل جولة؛ وتنتهي اللعبة بعد جولة يصل فيها طرف إلى "
                f"{num(target, 'ar')}، ويفوز صاحب أعلى نتيجة.",
            ),
        ),
        "6S",
        "6C 9D",
        "6Cx6S",
        lambda f: f.basra > 0,
        scores=(ahead, max(ahead - 20, 0)),
    )
    return steps


def _points_step(rules: Rules, variant: str) -> Step | None:
    """Take the card worth the most points (a numeral, not a jack), if any is worth one."""
    worth = rules.card_points
    numerals = [c for c in range(52) if NUMERAL >> c & 1 and worth[c] > 0]
    if not numerals:
        return None
    best = max(numerals, key=lambda c: (worth[c], c == parse_card("10D"), c))
    rank = best >> 2
    partners = [c for c in range(rank * 4, rank * 4 + 4) if c != best]
    partners.sort(key=lambda c: worth[c])
    fillers = [r for r in (6, 9, 8, 5, 4, 3) if r != rank + 1]
    texts = (
        both("Point cards", "أوراق النقاط"),
        both("Take the card that scores.", "كُل الورقة التي لها نقاط."),
        _join(
            _point_cards_words(rules),
            both(
                f"The {card_words(best, 'en')} is worth {count_words(worth[best], 'point', 'en')}.",
                f"{card_words(best, 'ar')} قيمتها {count_words(worth[best], 'point', 'ar')}.",
            ),
        ),
    )
    for low, high in pairwise(fillers):
        spare, other = card_text((low - 1) * 4), card_text((high - 1) * 4 + 3)
        mine = card_text((low - 1) * 4 + 1)
        step = _build(
            rules,
            variant,
            "points",
            texts,
            f"{card_text(best)} {spare} {other}",
            f"{card_text(partners[0])} {mine}",
            f"{card_text(partners[0])}x{card_text(best)}",
            lambda f: f.move.take >> best & 1 == 1 and f.card_points > 0,
        )
        if step is not None:
            return step
    return None


def course_for(variant: str, rules: Rules | None = None) -> Course:
    """The course for ``rules`` (the preset ``variant``'s when ``None``).

    Only the settings decide the steps; ``variant`` names the course and is the
    preset the positions are built on.
    """
    base = preset(variant)
    full = rules if rules is not None else base
    steps = tuple(step for step in _steps(full, variant) if step is not None)
    custom = full != base
    ar_title = VARIANT_TITLES_AR.get(variant, variant)
    title = both(
        f"Learn {variant_title(variant)}" + (" (custom rules)" if custom else ""),
        f"تعلّم {ar_title}" + (" (قواعد خاصة)" if custom else ""),
    )
    return Course(variant, full, steps, custom, title)


@cache
def courses() -> tuple[Course, ...]:
    """A course for every preset, in the order of ``basra variants``."""
    return tuple(course_for(name) for name in VARIANT_NAMES)


def courses_json() -> list[dict[str, Any]]:
    """Every preset's course listed (variant, title, steps' ids and titles): ``GET
    /api/lessons``."""
    return [course.to_json() for course in courses()]
