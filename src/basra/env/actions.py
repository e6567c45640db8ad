"""The one action encoding of the research API (PettingZoo, Gymnasium, OpenSpiel).

An action is an int ``option * 52 + card``:

- ``card`` (0-51, :mod:`basra.cards` order) is the card played;
- ``option`` is which of that card's allowed capture sets it takes, counted in
  canonical order (RECORD.md: the sets' canonical card lists compared card by
  card, a prefix first). A card with one legal play, a trail or a single
  capture set, uses option 0, so actions 0-51 mean "play this card" and the
  higher blocks are used only where the rules leave a choice of capture sets.

There are :func:`option_slots` options per card, so the action space is
``Discrete(52 * option_slots(rules))``: 780 actions under ``capture_policy:
max_cards`` (every preset) and 1976 under ``any_maximal``. The first 780
actions mean the same under both.

Why the slots are enough, and the mask therefore exact (every legal move has
an action, every action in the mask is a legal move, one to one): a card's
options differ only in the numerals of lower value it takes by summing, and
the floor holds at most one card of each rank except for cards that have
lain there since the deal. A card is trailed only when it captures nothing, so
never onto a card of its own rank, and only 4 (one table: 5) cards are turned
up at the deal. :func:`max_options` enumerates every floor with that shape and
finds at most 15 options under ``max_cards`` and 38 under ``any_maximal``;
``tests/test_env_actions.py`` runs that enumeration and checks the mapping on
many thousands of positions of every variant and table.

>>> from basra.rules import preset
>>> from basra.cards import parse_card, mask_of, parse_cards
>>> rules = preset("egyptian").with_overrides({"capture_policy": "any_maximal"})
>>> floor = mask_of(parse_cards("2H AS 5S 4D"))
>>> actions = action_map(rules, [parse_card("7C")], floor)
>>> {action: str(move) for action, move in actions.items()}
{27: '7CxAS,2H,4D', 79: '7Cx2H,5S'}
>>> action_text(79)
'7C/1'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from basra.captures import capture_options
from basra.cards import CARD_NAMES, Card, cards_of
from basra.moves import Move
from basra.rules import Rules
from basra.state import generate_moves

__all__ = [
    "CARDS",
    "MAX_OPTIONS",
    "ActionError",
    "action_map",
    "action_of",
    "action_text",
    "max_options",
    "move_of",
    "num_actions",
    "option_slots",
]

CARDS = 52
"""Cards in the action encoding (the 44-card pack uses the first 44)."""

MAX_OPTIONS: dict[str, int] = {"max_cards": 15, "any_maximal": 38}
"""Capture sets one card can have in a position reached by play, per capture policy.

Checked by :func:`max_options` (and by the tests): the largest count over
every floor the rules can produce from a deal.
"""


class ActionError(ValueError):
    """An action that is out of range or not legal in the position."""


def option_slots(rules: Rules) -> int:
    """How many capture-set options each card has room for under ``rules``."""
    return MAX_OPTIONS[rules.capture_policy]


def num_actions(rules: Rules) -> int:
    """The size of the action space under ``rules``: ``52 * option_slots(rules)``."""
    return CARDS * MAX_OPTIONS[rules.capture_policy]


def action_text(action: int) -> str:
    """Readable action text: the card, and ``/option`` when it is not option 0."""
    option, card = divmod(action, CARDS)
    return CARD_NAMES[card] if option == 0 else f"{CARD_NAMES[card]}/{option}"


def _canonical(takes: Iterable[int]) -> list[int]:
    return sorted(takes, key=cards_of)


def actions_of_moves(moves: Sequence[Move], slots: int) -> dict[int, Move]:
    """Legal moves (as the engine lists them: grouped by card) keyed by action.

    The engine lists a card's options together and in canonical order; a card
    with several options is still sorted here, so the encoding never depends on
    that detail. Raises :class:`ActionError` if a card has more options than
    ``slots`` (impossible from a deal, see the module docstring).
    """
    out: dict[int, Move] = {}
    previous = -1
    several = False
    for move in moves:
        card = move[0]
        if card == previous:
            several = True
            break
        previous = card
        out[card] = move
    if not several:
        return out
    by_card: dict[Card, list[int]] = {}
    for card, take in moves:
        by_card.setdefault(card, []).append(take)
    out = {}
    for card, takes in by_card.items():
        if len(takes) > slots:
            raise ActionError(
                f"{CARD_NAMES[card]} has {len(takes)} capture sets, more than the "
                f"{slots} the action encoding has room for (a position not reached by play?)"
            )
        ordered = _canonical(takes) if len(takes) > 1 else takes
        for option, take in enumerate(ordered):
            out[option * CARDS + card] = Move(card, take)
    return out


def action_map(rules: Rules, hand: Iterable[Card], floor: int) -> dict[int, Move]:
    """Every legal move of a hand (cards in canonical order) on a floor, keyed by action."""
    return actions_of_moves(generate_moves(rules, sorted(hand), floor), option_slots(rules))


def action_of(rules: Rules, floor: int, move: Move) -> int:
    """The action of a move on a floor (the card is assumed to be in the mover's hand)."""
    card, take = move
    options = _canonical(capture_options(rules, card, floor))
    try:
        option = options.index(take)
    except ValueError:
        raise ActionError(f"{Move(card, take).text()} is not a legal play on this floor") from None
    return option * CARDS + card


def move_of(rules: Rules, hand: int, floor: int, action: int) -> Move:
    """The move an action stands for, given the mover's hand and the floor (checked)."""
    if not isinstance(action, int) or not 0 <= action < num_actions(rules):
        raise ActionError(
            f"action must be an int from 0 to {num_actions(rules) - 1}, not {action!r}"
        )
    option, card = divmod(action, CARDS)
    if not hand >> card & 1:
        raise ActionError(f"action {action} plays {CARD_NAMES[card]}, which is not in the hand")
    options = _canonical(capture_options(rules, card, floor))
    if option >= len(options):
        raise ActionError(
            f"action {action} is option {option} of {CARD_NAMES[card]}, "
            f"which has {len(options)} option(s) on this floor"
        )
    return Move(card, options[option])


@lru_cache(maxsize=4)
def max_options(capture_policy: str, floor_cards_at_deal: int = 5) -> int:
    """The most capture sets one card can have on any floor the rules can produce.

    Every floor reachable from a deal holds at most one card of each rank,
    except ranks whose cards all lie there since the deal (at most
    ``floor_cards_at_deal`` cards in all). This enumerates every count of
    numerals below each value with that shape and returns the largest number
    of options of any numeral (jacks, a sweeping 7♦, queens and kings have one).
    Only numerals below the card's value can make options differ.
    """
    rules = Rules(capture_policy=capture_policy)
    return max(
        len(capture_options(rules, (len(counts)) * 4, _floor_of(counts)))
        for value in range(2, 11)
        for counts in _rank_counts(value - 1, floor_cards_at_deal)
    )


def _rank_counts(ranks: int, duplicates: int) -> Iterable[list[int]]:
    """Counts (0-4) of each of ``ranks`` ranks, ranks held twice or more holding at most
    ``duplicates`` cards in all."""
    if ranks == 0:
        yield []
        return
    for rest in _rank_counts(ranks - 1, duplicates):
        used = sum(c for c in rest if c >= 2)
        for count in range(5):
            if count < 2 or used + count <= duplicates:
                yield [*rest, count]


def _floor_of(counts: Sequence[int]) -> int:
    """A floor with ``counts[r]`` cards of rank ``r`` (suits from spades on)."""
    floor = 0
    for rank, count in enumerate(counts):
        for suit in range(count):
            floor |= 1 << (rank * 4 + suit)
    return floor
