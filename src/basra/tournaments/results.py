"""What an event stores: its rounds as paired and its finished games' results.

A :class:`GameResult` is one finished game of the event: which entrant held
each *side* of the table (side ``i`` is seat ``i``, or with teams seats ``i``
and ``i + 2``), each side's final score, and the sides whose seat *forfeited*
(the server played for a person gone past the clock's allowance, see
:mod:`basra.server.clocks`). A :class:`Round` is a Swiss or duplicate round as
paired: its tables (entrants in table order) and its byes.

How one table's result is read, for every format, is :func:`head_to_head`:
each side against each other side of its table, higher score first; a
forfeited side scores nothing and is below every side that did not forfeit.
This is the one place where a table's order is decided.

>>> head_to_head((57, 31, 57, 12), frozenset())
((2, 1), (1, 0), (2, 1), (0, 0))
>>> head_to_head((40, 90), frozenset({1}))
((1, 0), (0, 0))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from basra.tournaments.settings import TournamentError

__all__ = ["GameResult", "Round", "head_to_head", "order_key", "versus"]


def order_key(value: int | Fraction, forfeited: bool) -> tuple[int, int | Fraction]:
    """How a side's result compares with the others' at its table: higher is better,
    and a forfeited side is below every side that did not forfeit."""
    return (0, 0) if forfeited else (1, value)


def head_to_head(
    values: Sequence[int | Fraction], forfeited: Collection[int]
) -> tuple[tuple[int, int], ...]:
    """For each side, ``(sides it outscored, sides it tied with)`` among the others.

    A forfeited side outscores and ties with nobody (not even another forfeit):
    it scores nothing from the game.
    """
    keys = [order_key(v, i in forfeited) for i, v in enumerate(values)]
    return tuple(
        (0, 0)
        if i in forfeited
        else (sum(1 for other in keys if key > other), sum(1 for other in keys if key == other) - 1)
        for i, key in enumerate(keys)
    )


def versus(result: GameResult, side: int, other: int) -> Fraction:
    """What ``side`` scored against ``other`` at the same table: 1, ½ or 0
    (0 for a forfeited side, see :func:`head_to_head`)."""
    if side in result.forfeited:
        return Fraction(0)
    mine = order_key(result.scores[side], False)
    theirs = order_key(result.scores[other], other in result.forfeited)
    return Fraction(1) if mine > theirs else Fraction(1, 2) if mine == theirs else Fraction(0)


@dataclass(frozen=True)
class GameResult:
    """One finished game of an event.

    ``round`` is the Swiss or duplicate round (from 1; 0 in an arena), ``table``
    the table's place in its round's pairing, ``board`` a duplicate board (from
    0). ``table_id`` is the server's table (its record); ``finished_at`` orders
    an arena's games.
    """

    sides: tuple[str, ...]
    """The entrant holding each side, side 0 first."""
    scores: tuple[int, ...]
    """Each side's final score in the game."""
    forfeited: frozenset[int] = field(default_factory=frozenset)
    """The sides whose seat forfeited (a team's side forfeits when either of its seats does)."""
    round: int = 0
    table: int = 0
    board: int = 0
    finished_at: float = 0.0
    table_id: str = ""

    def __post_init__(self) -> None:
        if len(self.sides) < 2 or len(set(self.sides)) != len(self.sides):
            raise TournamentError("bad_result", "a game has two or more different entrants")
        if len(self.scores) != len(self.sides) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in self.scores
        ):
            raise TournamentError("bad_result", "a game has one whole-number score per side")
        object.__setattr__(self, "forfeited", frozenset(self.forfeited))
        if not all(0 <= side < len(self.sides) for side in self.forfeited):
            raise TournamentError("bad_result", "a forfeit names a side of the table")

    def side_of(self, entrant: str) -> int:
        """The side an entrant held."""
        return self.sides.index(entrant)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (what :meth:`from_json` reads back)."""
        return {
            "sides": list(self.sides),
            "scores": list(self.scores),
            "forfeited": sorted(self.forfeited),
            "round": self.round,
            "table": self.table,
            "board": self.board,
            "finished_at": self.finished_at,
            "table_id": self.table_id,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """A result from :meth:`to_json`."""
        return cls(
            tuple(data["sides"]),
            tuple(data["scores"]),
            frozenset(data.get("forfeited", ())),
            int(data.get("round", 0)),
            int(data.get("table", 0)),
            int(data.get("board", 0)),
            float(data.get("finished_at", 0.0)),
            str(data.get("table_id", "")),
        )


@dataclass(frozen=True)
class Round:
    """A Swiss or duplicate round as paired: its tables (entrants in table order,
    who sits where: see :func:`basra.tournaments.duplicate.board_sides` for a
    duplicate's rotation) and the entrants given a bye."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def entrants(self) -> set[str]:
        """Everyone paired or given a bye this round."""
        return {e for table in self.tables for e in table} | set(self.byes)

    def to_json(self) -> dict[str, Any]:
        """The round as JSON (what :meth:`from_json` reads back)."""
        return {
            "number": self.number,
            "tables": [list(t) for t in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        """A round from :meth:`to_json`."""
        return cls(
            int(data["number"]),
            tuple(tuple(t) for t in data["tables"]),
            tuple(data.get("byes", ())),
        )
