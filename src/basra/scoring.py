"""Scoring a round (RULES.md A8, A9, C7): the one place a score is summed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from basra.rules import Rules

__all__ = ["RoundScore", "pile_points", "score_round"]


class RoundScore(NamedTuple):
    """The result of one completed round, per side (RECORD.md replay output).

    A named tuple: rounds are scored in every playout of the search, and a
    tuple is the cheapest immutable record Python has.
    """

    last_capture_side: int | None
    cards: tuple[int, ...]
    card_points: tuple[int, ...]
    majority: tuple[int, ...]
    basras: tuple[int, ...]
    basra_points: tuple[int, ...]
    points: tuple[int, ...]
    score: tuple[int, ...]
    carry: int
    """Majority bonus held in abeyance after this round (0 unless tied under ``abeyance``)."""

    def to_json(self) -> dict[str, object]:
        """The round fields of ``basra replay --json`` (without ``plays``)."""
        return {
            "last_capture_side": self.last_capture_side,
            "cards": list(self.cards),
            "card_points": list(self.card_points),
            "majority": list(self.majority),
            "basras": list(self.basras),
            "basra_points": list(self.basra_points),
            "points": list(self.points),
            "score": list(self.score),
        }


def pile_points(rules: Rules, cards: int) -> int:
    """The points of the point cards (A9) in a set of cards: a pile, or a capture.

    >>> from basra.cards import mask_of, parse_cards
    >>> from basra.rules import preset
    >>> pile_points(preset("egyptian"), mask_of(parse_cards("AH 2C 10D 5S")))
    6
    """
    return sum(points * (cards & mask).bit_count() for points, mask in rules.point_masks)


def score_round(
    rules: Rules,
    piles: Sequence[int],
    basras: Sequence[int],
    basra_points: Sequence[int],
    last_capture_side: int | None,
    previous_score: Sequence[int],
    carry: int,
) -> RoundScore:
    """Score a finished round from each side's pile (leftovers already added).

    ``carry`` is the majority bonus held in abeyance by earlier tied rounds.
    """
    cards = tuple(pile.bit_count() for pile in piles)
    card_points = tuple(pile_points(rules, pile) for pile in piles)
    most = max(cards)
    leaders = [side for side, count in enumerate(cards) if count == most]
    majority = [0] * len(piles)
    if len(leaders) == 1:
        majority[leaders[0]] = rules.majority_bonus + carry
        carry = 0
    elif rules.majority_tie == "each":
        for side in leaders:
            majority[side] = rules.majority_bonus
    elif rules.majority_tie == "abeyance":
        carry += rules.majority_bonus
    points = tuple(c + m + b for c, m, b in zip(card_points, majority, basra_points, strict=True))
    score = tuple(s + p for s, p in zip(previous_score, points, strict=True))
    return RoundScore(
        last_capture_side=last_capture_side,
        cards=cards,
        card_points=card_points,
        majority=tuple(majority),
        basras=tuple(basras),
        basra_points=tuple(basra_points),
        points=points,
        score=score,
        carry=carry,
    )
