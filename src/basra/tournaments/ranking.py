"""A line of the standings, and how entrants equal on every count share a place.

Scores and tie-breaks are exact fractions (a Swiss's half points, a four-seat
table's thirds, a duplicate's matchpoint shares), so ties are real ties;
:meth:`Standing.to_json` rounds them only for showing.

>>> rows = [("a", (Fraction(2),)), ("b", (Fraction(3),)), ("c", (Fraction(2),))]
>>> [(entrant, rank) for entrant, rank in places(rows)]
[('b', 1), ('a', 2), ('c', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["SheetEntry", "Standing", "number_json", "places"]


def number_json(value: Fraction) -> int | float:
    """A fraction as a JSON number: whole numbers exact, others to four decimals."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 4)


@dataclass(frozen=True)
class SheetEntry:
    """One game or round on an entrant's sheet: what it was and what it scored.

    ``kind`` is ``game`` (a game), ``double`` (an arena game played on fire),
    ``bye`` (no table for it that round), ``late`` (rounds missed by joining late,
    Swiss), ``absent`` (not paired: withdrawn) or ``round`` (a duplicate round's boards).
    """

    kind: str
    points: Fraction

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON."""
        return {"kind": self.kind, "points": number_json(self.points)}


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings (see each format's module for the counts)."""

    rank: int
    """Its place: entrants equal in score and every tie-break share one."""
    entrant: str
    score: Fraction
    tie_breaks: tuple[Fraction, ...]
    """In the order of the format's ``TIE_BREAKS`` names."""
    games: int
    """Games finished (duplicate: boards)."""
    wins: int
    """Games won outright: every other side outscored (duplicate: boards topped)."""
    byes: int
    withdrawn: bool
    sheet: tuple[SheetEntry, ...]
    fire: bool = False
    """Arena: the next game counts double (the last two were wins)."""

    def to_json(self, tie_break_names: Sequence[str] = ()) -> dict[str, Any]:
        """The line as JSON, its tie-breaks named by ``tie_break_names``."""
        names = list(tie_break_names) or [f"tie_break_{i + 1}" for i in range(len(self.tie_breaks))]
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "score": number_json(self.score),
            "tie_breaks": {n: number_json(v) for n, v in zip(names, self.tie_breaks, strict=True)},
            "games": self.games,
            "wins": self.wins,
            "byes": self.byes,
            "withdrawn": self.withdrawn,
            "fire": self.fire,
            "sheet": [entry.to_json() for entry in self.sheet],
        }


def places(
    rows: Sequence[tuple[str, tuple[Fraction | float | int, ...]]],
) -> list[tuple[str, int]]:
    """Entrants in order of their keys (higher first; equal keys keep the given
    order), each with its place: equal keys share the better place."""
    order = sorted(range(len(rows)), key=lambda i: rows[i][1], reverse=True)
    # sorted() is stable but reverse=True keeps equal items in their given order too.
    out: list[tuple[str, int]] = []
    for position, index in enumerate(order):
        entrant, key = rows[index]
        if out and rows[order[position - 1]][1] == key:
            out.append((entrant, out[-1][1]))
        else:
            out.append((entrant, position + 1))
    return out
