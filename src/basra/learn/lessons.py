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
from basra.learn.words import LANGUAGES, Words, card_words, facts_words, in_lang, words
from basra.locales import catalogue, message
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
    "variant_words",
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
    said = {
        "facts": lambda lang: facts_words(facts, lang, reply=False),
        "rule": lambda lang: in_lang(step.rule, lang),
    }
    if move == step.taught:
        return StepResult(True, move.text(), words("lesson_right", **said))
    return StepResult(False, move.text(), words("lesson_wrong", **said))


# ----------------------------------------------------------------- building


_BLANK: Words = dict.fromkeys(LANGUAGES, "")
"""No words yet (a step's texts are set once the engine agrees it is true)."""

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


def _basra_value_words(rules: Rules, points: int) -> Words:
    flat = rules.basra_value == "flat"
    return words("lesson_basra_flat" if flat else "lesson_basra_double", n=points)


def _join(*parts: Words) -> Words:
    return {lang: " ".join(in_lang(p, lang) for p in parts) for lang in LANGUAGES}


def _seven(mode: str) -> Words:
    seven = {"seven": lambda lang: card_words(parse_card("7D"), lang)}
    if mode == "ethiopian":
        return words("lesson_seven_ethiopian")
    return words(f"rules_seven_{mode}", **seven)


def _basra_rule(mode: str) -> Words:
    return words("lesson_mode_lone_match") if mode == "lone_match" else words(f"rules_mode_{mode}")


def _jack_basra(rules: Rules) -> Words:
    if rules.jack_on_lone_jack > 0:
        return words("lesson_jack_some", n=rules.jack_on_lone_jack)
    return words("lesson_jack_never")


def _point_cards_words(rules: Rules) -> Words:
    def listed(lang: str) -> str:
        items = []
        for key, points in rules.point_cards:
            is_card = key[-1:].upper() in "SHDC"
            label = card_words(parse_card(key), lang) if is_card else key
            key_of = "rules_point_card" if is_card else "rules_point_rank"
            items.append(message(lang, key_of, label=label, n=points))
        return message(lang, "list_sep").join(items) or message(lang, "rules_points_none")

    return words("rules_card_points", points=listed)


def _steps(rules: Rules, variant: str) -> list[Step | None]:
    """Every step these rules imply, in teaching order (``None``: not true here)."""
    steps: list[Step | None] = []
    add = steps.append

    def make(step_id: str, texts: tuple[Words, Words, Words], *args: Any, **kw: Any) -> None:
        add(_build(rules, variant, step_id, texts, *args, **kw))

    make(
        "match",
        (
            words("lesson_match_title"),
            words("lesson_match_goal"),
            words("lesson_match_rule"),
        ),
        "5S 9H 8C",
        "5H 2D",
        "5Hx5S",
        lambda f: f.move.take != 0 and f.move.take.bit_count() == 1,
    )
    make(
        "sum",
        (
            words("lesson_sum_title"),
            words("lesson_sum_goal"),
            words("lesson_sum_rule"),
        ),
        "2S 3H 9C",
        "5D 8S",
        "5Dx2S,3H",
        lambda f: _takes(f) == 2,
    )
    make(
        "both",
        (
            words("lesson_both_title"),
            words("lesson_both_goal"),
            words("lesson_both_rule"),
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
                words("lesson_most_title"),
                words("lesson_most_goal"),
                words("lesson_most_rule"),
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
                words("lesson_choose_title"),
                words("lesson_choose_goal"),
                words("lesson_choose_rule"),
            ),
            "2H AS 5S 4D",
            "7C 9H",
            "7Cx2H,5S",
            lambda f: f.move.card == parse_card("7C") and bool(f.move.take >> parse_card("5S") & 1),
        )
    make(
        "pictures",
        (
            words("lesson_pictures_title"),
            words("lesson_pictures_goal"),
            words("lesson_pictures_rule"),
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
            words("lesson_jack_title"),
            words("lesson_jack_goal"),
            words("lesson_jack_rule", jack=lambda lang: in_lang(jack_words, lang)),
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
                words("lesson_seven_title"),
                words("lesson_seven_goal"),
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
            (_BLANK, _BLANK, _BLANK),
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
                    title=words("lesson_seven_basra_title"),
                    goal=words("lesson_seven_basra_goal"),
                    rule=_join(_seven(rules.seven_diamonds), _basra_value_words(rules, worth)),
                )
            )
    if rules.lone_seven:
        make(
            "lone_seven",
            (
                words("lesson_lone_seven_title"),
                words("lesson_lone_seven_goal"),
                words("lesson_lone_seven_rule"),
            ),
            "7D",
            "2H JC",
            "2Hx7D",
            lambda f: f.basra > 0,
        )
    basra_rule = _basra_rule(rules.basra_mode)
    clear = rules.basra_mode == "clear"
    floor, hand, taught = ("3S 6H", "9D 5C", "9Dx3S,6H") if clear else ("6S", "6C 9D", "6Cx6S")
    blank = _BLANK
    basra = _build(
        rules, variant, "basra", (blank, blank, blank), floor, hand, taught, lambda f: f.basra > 0
    )
    basra_goal = words("lesson_basra_goal_clear" if clear else "lesson_basra_goal_lone")
    if basra is not None:
        worth = move_facts(basra.view(), basra.taught).basra
        add(
            replace(
                basra,
                title=words("lesson_basra_title"),
                goal=basra_goal,
                rule=_join(basra_rule, _basra_value_words(rules, worth)),
            )
        )
    if rules.basra_mode == "lone_match_or_sum":
        make(
            "lone_sum",
            (
                words("lesson_lone_sum_title"),
                words("lesson_lone_sum_goal"),
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
            words("lesson_jack_no_basra_title"),
            words("lesson_jack_no_basra_goal"),
            words("lesson_jack_no_basra_rule", jack=lambda lang: in_lang(jack_words, lang)),
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
                words("lesson_jack_on_jack_title"),
                words("lesson_jack_on_jack_goal", n=worth),
                words("lesson_jack_on_jack_rule", n=worth),
            ),
            "JS",
            "JH 4C",
            "JHxJS",
            lambda f: f.basra > 0,
        )
    add(_points_step(rules, variant))
    if rules.majority_bonus > 0:
        bonus = rules.majority_bonus
        tie = words(f"rules_tie_{rules.majority_tie}")
        make(
            "majority",
            (
                words("lesson_majority_title"),
                words("lesson_majority_goal"),
                words("lesson_majority_rule", n=bonus, tie=lambda lang: in_lang(tie, lang)),
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
            words("lesson_target_title"),
            words("lesson_target_goal", ahead=ahead, target=target, worth=worth),
            words("lesson_target_rule", target=target),
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
        words("lesson_points_title"),
        words("lesson_points_goal"),
        _join(
            _point_cards_words(rules),
            words(
                "lesson_points_worth",
                card=lambda lang: card_words(best, lang),
                n=worth[best],
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


def variant_words(variant: str) -> Words:
    """A preset's name in every language (the catalogues' ``variant_...``)."""
    return {lang: _variant_name(variant, lang) for lang in LANGUAGES}


def _variant_name(variant: str, lang: str) -> str:
    """A preset's name in ``lang`` (the catalogue's ``variant_...``)."""
    if f"variant_{variant}" in catalogue("en"):
        return message(lang, f"variant_{variant}")
    return variant_title(variant)


def course_for(variant: str, rules: Rules | None = None) -> Course:
    """The course for ``rules`` (the preset ``variant``'s when ``None``).

    Only the settings decide the steps; ``variant`` names the course and is the
    preset the positions are built on.
    """
    base = preset(variant)
    full = rules if rules is not None else base
    steps = tuple(step for step in _steps(full, variant) if step is not None)
    custom = full != base
    title = words(
        "lesson_course_custom" if custom else "lesson_course",
        variant=lambda lang: _variant_name(variant, lang),
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
