"""What a played card captures (RULES.md A5, A6) and what a basra is worth (A7).

Everything here works on bit masks (see :mod:`basra.cards`). The one entry
point for captures is :func:`capture_options`; for basras it is
:func:`clear_basra`, because every basra of every variant takes the whole floor.

>>> from basra.cards import parse_card, parse_cards, mask_of, format_cards
>>> from basra.rules import preset
>>> floor = mask_of(parse_cards("2H AS 5S 4D"))
>>> [format_cards(t) for t in capture_options(preset("egyptian"), parse_card("7C"), floor)]
['AS 2H 4D']
>>> rules = preset("egyptian").with_overrides({"capture_policy": "any_maximal"})
>>> [format_cards(t) for t in capture_options(rules, parse_card("7C"), floor)]
['AS 2H 4D', '2H 5S']
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from basra.cards import (
    JACK,
    NUMERAL,
    QUEEN,
    RANK_MASKS,
    SEVEN_DIAMONDS,
    TEN,
    Card,
    cards_of,
    value_of,
)
from basra.rules import Rules

__all__ = ["capture_options", "clear_basra", "equal_groups", "seven_diamonds_basra"]

_SEVEN_BIT = 1 << SEVEN_DIAMONDS
_JACKS = RANK_MASKS[JACK]
_TENS_AND_PICTURES = RANK_MASKS[TEN] | RANK_MASKS[QUEEN] | RANK_MASKS[QUEEN + 1]
# _BELOW[v]: the numerals worth less than v, the only cards a v can take by summing.
_BELOW: tuple[int, ...] = tuple((1 << (4 * (v - 1))) - 1 if v else 0 for v in range(11))
_TRAIL = (0,)


def capture_options(rules: Rules, card: Card, floor: int) -> tuple[int, ...]:
    """The capture sets ``card`` may take from ``floor``, as masks.

    ``(0,)`` means the card captures nothing and is trailed. Otherwise every
    option is non-empty (capturing is compulsory for the played card, A4) and
    the options come in canonical order (RECORD.md). The played card is never
    part of an option.
    """
    if rules.sweepers >> card & 1:
        return (floor,) if floor else _TRAIL
    if floor == _SEVEN_BIT and rules.lone_seven:
        return (floor,)  # C11: any card but a jack takes a lone 7♦
    rank = card >> 2
    same = floor & RANK_MASKS[rank]
    if rank >= QUEEN:
        return (same,) if same else _TRAIL
    value = rank + 1
    candidates = floor & _BELOW[value]
    if not candidates & (candidates - 1):  # fewer than two: no sum group
        return (same,) if same else _TRAIL
    unions = _sum_unions(value, candidates, rules.capture_policy == "max_cards")
    if not same:
        return unions if unions[0] else _TRAIL
    return tuple(same | union for union in unions)


def _sum_unions(value: int, candidates: int, largest_only: bool) -> tuple[int, ...]:
    """The allowed unions of disjoint sum groups (each >= 2 numerals summing to ``value``).

    ``candidates`` are the floor's numerals worth less than ``value``. Returns
    ``(0,)`` when no group exists; otherwise, in canonical order, the unions of
    the most cards (``largest_only``, for ``max_cards``) or every union not
    inside a larger one (``any_maximal``).

    Cards of equal value are interchangeable in sums, so the search runs once
    per multiset of values (:func:`_value_templates`, cached on a packed count
    signature) and each resulting multiset is expanded to actual cards: when
    it takes every card of the values it uses, that is one AND with a mask.
    """
    signature = 0
    for rank in range(value - 1):
        signature |= _NIBBLE_COUNT[candidates >> 4 * rank & 15] << 3 * rank
    key = signature << 5 | value << 1 | largest_only
    plan = _PLANS.get(key)
    if plan is None:
        counts = tuple(signature >> 3 * rank & 7 for rank in range(value - 1))
        plan = _PLANS[key] = _plan(_value_templates(value, counts, largest_only), counts)
    if not plan:
        return _TRAIL
    if len(plan) == 1 and plan[0][1] is None:
        return (candidates & plan[0][0],)
    unions: list[int] = []
    for full, partial in plan:
        base = candidates & full
        if partial is None:
            unions.append(base)
            continue
        choices = [
            [sum(combo) for combo in combinations(_bits(candidates & RANK_MASKS[rank]), wanted)]
            for rank, wanted in partial
        ]
        unions.extend(base | sum(parts) for parts in product(*choices))
    unions.sort(key=cards_of)
    return tuple(unions)


_NIBBLE_COUNT = tuple(n.bit_count() for n in range(16))
_PLANS: dict[int, tuple[tuple[int, tuple[tuple[int, int], ...] | None], ...]] = {}


def _bits(mask: int) -> list[int]:
    return [1 << c for c in cards_of(mask)]


def _plan(
    templates: tuple[tuple[int, ...], ...], counts: tuple[int, ...]
) -> tuple[tuple[int, tuple[tuple[int, int], ...] | None], ...]:
    """Each template as (mask of ranks taken whole, [(rank, how many) taken in part] or None)."""
    plan = []
    for template in templates:
        full = 0
        partial = []
        for rank, wanted in enumerate(template):
            if wanted and wanted == counts[rank]:
                full |= RANK_MASKS[rank]
            elif wanted:
                partial.append((rank, wanted))
        plan.append((full, tuple(partial) or None))
    return tuple(plan)


@lru_cache(maxsize=1 << 16)
def _value_templates(
    value: int, counts: tuple[int, ...], largest_only: bool
) -> tuple[tuple[int, ...], ...]:
    """How many cards of each value the allowed capture sets take.

    ``counts[r]`` is the number of floor numerals of rank ``r`` (worth ``r + 1``,
    below ``value``). Returns count vectors like ``counts``, empty when no sum
    group exists.
    """
    groups = _group_shapes(value)
    size = len(counts)
    reachable: set[tuple[int, ...]] = set()

    def extend(start: int, used: list[int]) -> None:
        reachable.add(tuple(used))
        for index in range(start, len(groups)):
            group = groups[index]
            if all(used[v] + n <= counts[v] for v, n in group):
                for v, n in group:
                    used[v] += n
                extend(index, used)  # the same shape may be used again
                for v, n in group:
                    used[v] -= n

    extend(0, [0] * size)
    reachable.discard((0,) * size)
    if not reachable:
        return ()
    if largest_only:
        best = max(sum(t) for t in reachable)
        chosen = [t for t in reachable if sum(t) == best]
    else:
        chosen = [
            t
            for t in reachable
            if not any(o != t and all(a <= b for a, b in zip(t, o, strict=True)) for o in reachable)
        ]
    return tuple(sorted(chosen))


@lru_cache(maxsize=16)
def _group_shapes(value: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every multiset of >= 2 values below ``value`` summing to it, as (rank, count) pairs."""
    shapes: list[tuple[tuple[int, int], ...]] = []

    def extend(smallest: int, remaining: int, parts: list[int]) -> None:
        if remaining == 0:
            if len(parts) >= 2:
                shapes.append(tuple((v - 1, parts.count(v)) for v in sorted(set(parts))))
            return
        for v in range(smallest, min(remaining, value - 1) + 1):
            parts.append(v)
            extend(v, remaining - v, parts)
            parts.pop()

    extend(1, value, [])
    return tuple(shapes)


def clear_basra(rules: Rules, card: Card, floor: int, lone_trail: int) -> int:
    """Basra points for ``card`` taking the whole non-empty ``floor``.

    Only a capture that takes the whole floor can be a basra in any variant
    (a lone card is a whole floor too), so the engine calls this just then.
    ``lone_trail`` (true or non-zero) says the floor is lone_plus_trail(X, Y) (C12): a card
    trailed onto a lone card. ``basra_on_last_play`` is the caller's concern.
    """
    if card >> 2 == JACK:
        if floor & _JACKS and not floor & (floor - 1):
            return rules.jack_on_lone_jack
        return 0
    if card == SEVEN_DIAMONDS and rules.seven_diamonds != "plain":
        if seven_diamonds_basra(rules.seven_diamonds, floor):
            return rules.basra_values[card]
        return 0
    if floor == _SEVEN_BIT and rules.seven_diamonds == "ethiopian":
        return rules.basra_values[card]
    mode = rules.basra_mode
    if mode == "clear" or not floor & (floor - 1):
        # Clear-the-floor, or a lone card: one card is only taken by matching.
        return rules.basra_values[card]
    if (
        mode == "lone_match_or_sum"
        and lone_trail
        and card < 40
        and not floor & ~NUMERAL
        and floor.bit_count() == 2
    ):
        x, y = cards_of(floor)
        if value_of(x) + value_of(y) == value_of(card):
            return rules.basra_values[card]
    return 0


def seven_diamonds_basra(mode: str, floor: int) -> bool:
    """Whether a sweeping 7♦ taking ``floor`` is a basra (B4, C3, C13).

    The floor is checked before the capture and the 7♦ itself is not counted.
    """
    if mode in ("plain", "no_basra"):
        return False
    if mode == "yemeni" and not floor & ~_TENS_AND_PICTURES:
        return True  # (b): only tens, queens and kings
    if floor & ~NUMERAL:
        return False  # a picture card (a jack included) on the floor
    values = [value_of(c) for c in cards_of(floor)]
    total = sum(values)
    if mode == "egyptian":
        return total <= 10
    limit = 9 if mode == "yemeni" else 10  # yemeni: "less than 10"
    return total <= limit or equal_groups(tuple(sorted(values)), limit)


@lru_cache(maxsize=4096)
def equal_groups(values: tuple[int, ...], limit: int) -> bool:
    """Whether ``values`` split into >= 2 groups with one common sum <= ``limit``.

    Every value is used; a group may be a single card (C13).

    >>> equal_groups((1, 2, 7, 8), 9)
    True
    >>> equal_groups((4, 6), 9)
    False
    """
    total = sum(values)
    count = len(values)
    for target in range(max(values, default=1), limit + 1):
        if total % target or total // target < 2:
            continue
        if _partitions(values, target, (1 << count) - 1):
            return True
    return False


def _partitions(values: tuple[int, ...], target: int, full: int) -> bool:
    """Whether all ``values`` split into groups that each sum to ``target``."""
    failed: set[int] = set()

    def fill(used: int, partial: int) -> bool:
        if used == full:
            return partial == 0
        if used in failed:
            return False
        # Groups are filled one at a time, so the partial sum is known from ``used``.
        for i, v in enumerate(values):
            if not used >> i & 1 and partial + v <= target:
                if fill(used | 1 << i, (partial + v) % target):
                    return True
                if partial == 0:
                    break  # the first free card must start this group: no other choice
        failed.add(used)
        return False

    return fill(0, 0)
