"""The rule of seasons and leagues, written once: the calendar, the points, the order of a
division's standings, and promotion and relegation at a season's end.

Everything here is a pure function of rows (no store, no clock): the live standings
(:class:`~basra.server.features.seasons.Seasons`) and the final table written when a season
closes are both :func:`table_of` over the same totals of the same entries, so a final table
can always be recomputed from the stored results (the season tests do exactly that).

- **Calendar.** Seasons are numbered from 1 per variant family (rating pools,
  :data:`basra.pools.FAMILIES`); season ``n`` runs from ``start(n)`` to ``start(n + 1)``,
  where ``start(1)`` is the operator's ``first`` and each season lasts ``length``
  (``"3 months"`` by default: calendar months, so a season is a quarter; or a fixed
  number of days, hours, minutes or seconds). A result belongs to the season its
  ``ended_at`` falls in.
- **Points.** A rated game's stored result: a win 3, a draw 1, a loss or a forfeit 0
  (:data:`GAME_POINTS`). An arena's final standings (the tournaments feature's): the
  winner 5, the second 3, the third 2, every other entrant who finished a game 1
  (:func:`arena_points`); each person of a team entry gets its points.
- **Divisions.** ``divisions`` leagues (five by default: :data:`DIVISIONS`, Bronze
  ``0`` to Diamond ``4``). A person's division in a season is the one their last final
  table sent them to (of an earlier season of the family), else the lowest: a newcomer
  starts in Bronze. Only people with at least one counted entry in the season stand in
  its divisions.
- **Order.** Within a division: more points first, then more wins (arena wins count as
  wins), then whoever reached their total first (the time of their last entry that
  earned points, earlier first), then the identity (so the order is total).
- **Promotion and relegation.** In a division of ``n`` people, the first
  ``min(promoted, n // 2)`` go up one division (none from the highest) and the last
  ``min(relegated, n // 2)`` go down one (none from the lowest): at most half each way,
  so nobody is both. The *line to promotion* is the last rank that goes up, the *line
  to relegation* the first rank that goes down.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = [
    "ARENA_POINTS",
    "DIVISIONS",
    "GAME_POINTS",
    "Entry",
    "Line",
    "SeasonCalendar",
    "Total",
    "arena_points",
    "lines_of",
    "parse_length",
    "table_of",
    "totals_of",
]

DIVISIONS = ("bronze", "silver", "gold", "platinum", "diamond")
"""The divisions' keys, lowest first (their words: ``season_division_<key>`` in the locales)."""

GAME_POINTS = {"win": 3, "draw": 1, "loss": 0, "forfeit": 0}
"""Points of a rated game's stored outcome."""

ARENA_POINTS = (5, 3, 2)
"""Points of an arena's first, second and third places; every other finisher gets 1."""

_LENGTH = re.compile(r"\s*(\d+)\s*(month|day|hour|minute|second)s?\s*")
_SECONDS = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}


def parse_length(text: str) -> tuple[int, str]:
    """``"3 months"`` to ``(3, "month")``; a ValueError naming what is wrong else."""
    found = _LENGTH.fullmatch(text)
    if found is None or int(found[1]) < 1:
        raise ValueError(
            f"{text!r} is not a length: write a whole number of months, days, hours, minutes"
            ' or seconds, e.g. "3 months"'
        )
    return int(found[1]), found[2]


def arena_points(place: int, games: int) -> int:
    """An arena entrant's points from its final place (0 first) and the games it finished."""
    if games < 1:
        return 0
    return ARENA_POINTS[place] if place < len(ARENA_POINTS) else 1


def _add_months(start: datetime, months: int) -> datetime:
    month0 = start.month - 1 + months
    year, month = start.year + month0 // 12, month0 % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return start.replace(year=year, month=month, day=day)


@dataclass(frozen=True)
class SeasonCalendar:
    """When each season starts and ends (see the module's docstring)."""

    first: float
    """The first season's start (a Unix time)."""
    length: str = "3 months"

    def __post_init__(self) -> None:
        parse_length(self.length)

    def start(self, number: int) -> float:
        """Season ``number``'s start (season 1 starts at :attr:`first`)."""
        count, unit = parse_length(self.length)
        if unit == "month":
            first = datetime.fromtimestamp(self.first, UTC)
            return _add_months(first, count * (number - 1)).timestamp()
        return self.first + count * _SECONDS[unit] * (number - 1)

    def end(self, number: int) -> float:
        """Season ``number``'s end: the next one's start."""
        return self.start(number + 1)

    def number_at(self, at: float) -> int:
        """The season running at ``at`` (0 before the first)."""
        if at < self.first:
            return 0
        count, unit = parse_length(self.length)
        if unit == "month":
            first, when = (datetime.fromtimestamp(t, UTC) for t in (self.first, at))
            months = (when.year - first.year) * 12 + when.month - first.month
            number = months // count + 1
        else:
            number = int((at - self.first) // (count * _SECONDS[unit])) + 1
        while self.start(number) > at:  # a month's day or hour not reached yet
            number -= 1
        while self.end(number) <= at:
            number += 1
        return number


@dataclass(frozen=True)
class Entry:
    """One thing that counts in a season: a rated game's result or an arena's placing."""

    identity: str
    points: int
    won: bool
    at: float
    game: bool = True
    """A rated game (False: an arena's placing)."""


@dataclass(frozen=True)
class Line:
    """One person's line in a division's standings (live, or final)."""

    identity: str
    division: int
    rank: int
    """1 for the first of the division."""
    points: int
    games: int
    """Rated games counted."""
    wins: int
    reached: float
    """When their total was reached (their last entry that earned points; 0.0 if none)."""
    move: int = 0
    """+1 promoted, -1 relegated, 0 staying (as the standings stand)."""

    @property
    def next_division(self) -> int:
        """The division the move sends them to."""
        return self.division + self.move


def lines_of(
    count: int, division: int, divisions: int, promoted: int, relegated: int
) -> tuple[int, int]:
    """How many of a division of ``count`` go up and how many go down."""
    half = count // 2
    up = min(promoted, half) if division < divisions - 1 else 0
    down = min(relegated, half) if division > 0 else 0
    return up, down


@dataclass(frozen=True)
class Total:
    """One person's season so far: what their entries add up to."""

    identity: str
    points: int
    games: int
    wins: int
    reached: float
    """When their total was reached (their last entry that earned points; 0.0 if none)."""


def totals_of(entries: Iterable[Entry]) -> list[Total]:
    """Add up each person's entries (the store adds up rated games the same way in SQL,
    from :data:`GAME_POINTS`)."""
    sums: dict[str, list[float]] = {}
    for entry in entries:
        total = sums.setdefault(entry.identity, [0, 0, 0, 0.0])
        total[0] += entry.points
        total[1] += entry.game
        total[2] += entry.won
        if entry.points:
            total[3] = max(total[3], entry.at)
    return [
        Total(who, int(points), int(games), int(wins), reached)
        for who, (points, games, wins, reached) in sums.items()
    ]


def table_of(
    totals: Iterable[Total],
    division_of: Mapping[str, int],
    divisions: int,
    promoted: int,
    relegated: int,
) -> list[Line]:
    """Every division's standings with their moves, from a season's totals and the
    divisions people start it in (absent: the lowest). Sorted by division (highest first),
    then rank."""
    by_division: dict[int, list[Total]] = {}
    for total in totals:
        division = min(max(division_of.get(total.identity, 0), 0), divisions - 1)
        by_division.setdefault(division, []).append(total)
    out: list[Line] = []
    for division in sorted(by_division, reverse=True):
        people = sorted(
            by_division[division], key=lambda t: (-t.points, -t.wins, t.reached, t.identity)
        )
        up, down = lines_of(len(people), division, divisions, promoted, relegated)
        for index, t in enumerate(people):
            move = 1 if index < up else -1 if index >= len(people) - down else 0
            out.append(
                Line(t.identity, division, index + 1, t.points, t.games, t.wins, t.reached, move)
            )
    return out
