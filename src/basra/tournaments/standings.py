"""Standings of any format, recomputed from what the event stored.

:func:`standings` is a pure function of the settings, the entrants, the
rounds as paired and the finished games' results: the server may keep live
standings as it likes, and check them against this at any time.
"""

from __future__ import annotations

from collections.abc import Sequence

from basra.tournaments import arena, duplicate, swiss
from basra.tournaments.ranking import Standing
from basra.tournaments.results import GameResult, Round
from basra.tournaments.settings import Entrant, EventSettings

__all__ = ["TIE_BREAKS", "standings"]

TIE_BREAKS: dict[str, tuple[str, ...]] = {
    "arena": arena.TIE_BREAKS,
    "swiss": swiss.TIE_BREAKS,
    "duplicate": duplicate.TIE_BREAKS,
}
"""The names of each format's :attr:`Standing.tie_breaks`, in order."""


def standings(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> list[Standing]:
    """The event's standings, best first (an arena has no rounds: ``rounds`` is empty)."""
    if settings.format == "arena":
        return arena.arena_standings(settings, entrants, results)
    if settings.format == "swiss":
        return swiss.swiss_standings(settings, entrants, rounds, results)
    return duplicate.duplicate_standings(settings, entrants, rounds, results)
