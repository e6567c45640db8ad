"""What a puzzle is about: its themes, found from the seat's view alone.

Each detector looks at the answer and at the **rival** (the best other move,
the one a solver is most tempted by) in the position the seat saw, through
the engine and the coach's account of what a move does
(:func:`basra.coach.hints.move_facts`: what it takes, its basra and card
points, the floor it leaves, and the most the next player could take from
that floor with any card this seat cannot place). None of them sees a hidden
card, so themes may be shown before a puzzle is solved.

=============== ===========================================================
basra           the answer makes a basra
deny_basra      the rival leaves a floor the next player could take for a
                basra; the answer does not
seven_diamonds  the 7♦ sweeps or is special in these rules, and the answer or
                the rival plays it (or the answer takes a lone 7♦ that gives
                a basra)
jack            the answer or the rival plays a jack
big_cards       the answer takes, or keeps from the next player, a card worth
                2 points or more (the 10♦, the 2♣ in most presets)
lone_card       the answer takes a lone card, or the rival leaves one card
                alone on the floor and the answer does not
clear_floor     the answer takes the whole floor without a basra (the next
                player must lay a card on an empty floor); the rival does not
majority        the bonus for the most cards is still open and the answer
                takes at least 2 more cards than the rival, with no basra
                and no more card points (the cards themselves are the gain)
=============== ===========================================================

A puzzle's main theme is the first that applies in that order; ``other``
when none does.

>>> from basra.moves import Move
>>> from basra.notation import parse_move
>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState.from_position(
...     "egyptian", floor=["3S", "6H"], hands=[["9D", "5C"], ["2H", "KS"]], turn=0)
>>> themes_of(view_of(state, 0), parse_move(state, "9D"), parse_move(state, "5C"))
('basra',)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from basra.cards import JACK, SEVEN_DIAMONDS
from basra.coach.hints import MoveFacts, move_facts
from basra.moves import Move
from basra.view import View

__all__ = ["OTHER", "THEMES", "Facts", "main_theme", "themes_of"]

OTHER = "other"
"""The theme of a puzzle that no detector claims."""


class Facts:
    """The position and what the answer and the rival do in it (computed once)."""

    __slots__ = ("answer", "rival", "view")

    def __init__(self, view: View, answer: Move, rival: Move) -> None:
        self.view = view
        self.answer = move_facts(view, answer)
        self.rival = move_facts(view, rival)


def _captured(facts: MoveFacts) -> int:
    """Cards a move puts in the pile: those it takes and the card itself (0 for a trail)."""
    move = facts.move
    return move.take.bit_count() + 1 if move.take else 0


def _reply_basra(facts: MoveFacts) -> int:
    return facts.reply.basra if facts.reply is not None else 0


def _reply_points(facts: MoveFacts) -> int:
    return facts.reply.points if facts.reply is not None else 0


def basra(f: Facts) -> bool:
    """The answer makes a basra."""
    return f.answer.basra > 0


def deny_basra(f: Facts) -> bool:
    """The rival leaves the next player a basra; the answer does not."""
    return _reply_basra(f.rival) > 0 and _reply_basra(f.answer) == 0


def seven_diamonds(f: Facts) -> bool:
    """The 7♦ is special in these rules and the puzzle turns on it."""
    rules = f.view.rules
    if rules.seven_diamonds == "plain":
        return False
    answer, rival = f.answer.move, f.rival.move
    if SEVEN_DIAMONDS in (answer.card, rival.card):
        return True
    return rules.lone_seven and f.view.floor == 1 << SEVEN_DIAMONDS and f.answer.basra > 0


def jack(f: Facts) -> bool:
    """The answer or the rival plays a jack."""
    return JACK in (f.answer.move.card >> 2, f.rival.move.card >> 2)


def big_cards(f: Facts) -> bool:
    """The answer takes, or keeps from the next player, a card worth 2 points or more."""
    points = f.view.rules.card_points
    answer, rival = f.answer, f.rival
    taken = answer.move.take | (1 << answer.move.card if answer.move.take else 0)
    big = any(points[c] >= 2 for c in range(52) if taken >> c & 1)
    if big and answer.card_points > rival.card_points:
        return True
    reply = rival.reply
    if reply is None:
        return False
    kept = any(points[c] >= 2 for c in range(52) if reply.take >> c & 1)
    return kept and _reply_points(rival) - _reply_points(answer) >= 2


def lone_card(f: Facts) -> bool:
    """The answer takes a lone card, or the rival leaves one card alone and the answer not."""
    floor = f.view.floor
    if floor and not floor & (floor - 1) and f.answer.move.take == floor:
        return True
    rival_after, answer_after = f.rival.floor_after, f.answer.floor_after
    rival_lone = rival_after and not rival_after & (rival_after - 1)
    answer_lone = answer_after and not answer_after & (answer_after - 1)
    return bool(rival_lone) and not answer_lone


def clear_floor(f: Facts) -> bool:
    """The answer takes the whole floor without a basra; the rival does not clear it."""
    return (
        f.answer.move.take != 0
        and f.answer.floor_after == 0
        and f.answer.basra == 0
        and f.rival.floor_after != 0
    )


def majority(f: Facts) -> bool:
    """The most-cards bonus is open and the answer takes 2 or more cards more than the
    rival, for no basra and no more points."""
    view = f.view
    if view.rules.majority_bonus <= 0:
        return False
    if max(pile.bit_count() for pile in view.captured) * 2 > view.rules.pack:
        return False  # a side already holds more than half the pack: the bonus is settled
    if f.answer.basra or f.answer.card_points > f.rival.card_points:
        return False  # the gain is a basra or points, not the count of cards
    return _captured(f.answer) - _captured(f.rival) >= 2


THEMES: Mapping[str, Callable[[Facts], bool]] = {
    "basra": basra,
    "deny_basra": deny_basra,
    "seven_diamonds": seven_diamonds,
    "jack": jack,
    "big_cards": big_cards,
    "lone_card": lone_card,
    "clear_floor": clear_floor,
    "majority": majority,
}
"""Every theme's detector, in the order that picks a puzzle's main theme."""


def themes_of(view: View, answer: Move, rival: Move) -> tuple[str, ...]:
    """The themes of a puzzle whose answer is ``answer`` and best other move ``rival``,
    main theme first (``("other",)`` when no detector applies)."""
    facts = Facts(view, answer, rival)
    found = tuple(name for name, detect in THEMES.items() if detect(facts))
    return found or (OTHER,)


def main_theme(themes: tuple[str, ...]) -> str:
    """The main theme of a list of themes (its first)."""
    return themes[0] if themes else OTHER
