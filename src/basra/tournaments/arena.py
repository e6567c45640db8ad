"""The arena: as many games as fit in its minutes, each scored at once, with streaks.

Scores (lichess's arena, generalised to every table):

- a game gives **2 points for every other side outscored and 1 for every side
  tied with**: with two sides 2 for a win, 1 for a draw, 0 for a loss; at a
  table of three 4 / 2 / 0, of four 6 / 4 / 2 / 0 (ties share: two sides level
  on top of a four-seat table get 5 each);
- a **win** is finishing alone on top (every other side outscored). After two
  wins in a row an entrant is **on fire**: its games count **double** until a
  game that is not a win (that game is doubled too, then the fire is out);
- a **forfeited** side (the server played for its person past the clock's
  allowance) scores nothing and its streak ends;
- teams: the team is the entrant and its side is the table's side, so a 2v2
  game is scored as a two-sided game.

Ranking: points, then fewer games (the same points in fewer games), then who
reached their points first (the earlier last scoring game), else a shared place.

Pairing (:func:`pair_arena`): whoever is waiting (finished a game, not
withdrawn) is ranked by the standings (level entrants by seed) and seated
near their rank (:func:`~basra.tournaments.grouping.group_tables`), avoiding
an *immediate rematch* (a table with two entrants who sat together in either one's last
game). A table that cannot avoid one is made only when all its entrants have
waited :data:`REMATCH_WAIT` seconds or the field has no one else; otherwise
they wait for the next pass. When the waiting do not fill whole tables, the
latest to arrive wait.

>>> from basra.tournaments.results import GameResult
>>> games = [GameResult(("a", "b"), (110, 40), finished_at=t) for t in (1, 2, 3)]
>>> [int(entry.points) for entry in arena_line("a", games).sheet]
[2, 2, 4]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from basra.tournaments.grouping import group_tables
from basra.tournaments.ranking import SheetEntry, Standing, places
from basra.tournaments.results import GameResult, head_to_head
from basra.tournaments.settings import Entrant, EventSettings

__all__ = [
    "POINTS_PER_SIDE_OUTSCORED",
    "POINTS_PER_SIDE_TIED",
    "REMATCH_WAIT",
    "TIE_BREAKS",
    "ArenaLine",
    "Waiting",
    "arena_line",
    "arena_standings",
    "game_order",
    "last_opponents",
    "pair_arena",
]

POINTS_PER_SIDE_OUTSCORED = 2
POINTS_PER_SIDE_TIED = 1
STREAK = 2
"""Wins in a row that set an entrant on fire."""
REMATCH_WAIT = 10.0
"""Seconds of waiting after which an immediate rematch is better than waiting longer."""
TIE_BREAKS = ("games", "reached_at")
"""The arena's tie-breaks as :attr:`Standing.tie_breaks` holds them: fewer games, then
the earlier time of the last scoring game, rank first."""


def game_order(results: Sequence[GameResult]) -> list[GameResult]:
    """An arena's games in the order they finished (stored order among equal times)."""
    return sorted(results, key=lambda r: r.finished_at)


@dataclass(frozen=True)
class ArenaLine:
    """An entrant's arena so far: its sheet, the fire, its wins, when it last scored."""

    sheet: tuple[SheetEntry, ...]
    fire: bool
    wins: int
    reached_at: float | None
    """When the last game that gave it points finished (None: no points yet)."""
    score: Fraction
    """Its points."""


def arena_line(entrant: str, results: Sequence[GameResult]) -> ArenaLine:
    """An entrant's games in order (each ``game`` or ``double`` with its points),
    its fire, its wins and when it last scored."""
    return _line(entrant, [r for r in game_order(results) if entrant in r.sides])


def _line(entrant: str, games: Sequence[GameResult]) -> ArenaLine:
    entries: list[SheetEntry] = []
    total = wins = wins_in_a_row = 0
    reached_at: float | None = None
    for result in games:
        side = result.side_of(entrant)
        outscored, tied = head_to_head(result.scores, result.forfeited)[side]
        points = POINTS_PER_SIDE_OUTSCORED * outscored + POINTS_PER_SIDE_TIED * tied
        doubled = wins_in_a_row >= STREAK
        if doubled:
            points *= 2
        entries.append(SheetEntry("double" if doubled else "game", Fraction(points)))
        total += points
        if points:
            reached_at = result.finished_at
        won = outscored == len(result.sides) - 1
        wins += won
        wins_in_a_row = wins_in_a_row + 1 if won else 0
    return ArenaLine(tuple(entries), wins_in_a_row >= STREAK, wins, reached_at, Fraction(total))


def arena_standings(
    settings: EventSettings, entrants: Sequence[Entrant], results: Sequence[GameResult]
) -> list[Standing]:
    """The arena's standings from its finished games (see the module's docstring).

    Its :attr:`Standing.tie_breaks` are the games played and when the entrant
    last scored (:data:`TIE_BREAKS`): fewer and earlier rank first.
    """
    del settings  # every arena scores alike; kept for the formats' common signature
    games: dict[str, list[GameResult]] = {e.id: [] for e in entrants}
    for result in game_order(results):
        for side in result.sides:
            if side in games:
                games[side].append(result)
    lines = {e.id: _line(e.id, games[e.id]) for e in entrants}
    rows = []
    for entrant in entrants:
        line = lines[entrant.id]
        reached = -math.inf if line.reached_at is None else -line.reached_at
        rows.append((entrant.id, (line.score, -len(line.sheet), reached)))
    withdrawn = {e.id: e.withdrawn for e in entrants}
    out = []
    for entrant_id, rank in places(rows):
        line = lines[entrant_id]
        reached_at = Fraction(0) if line.reached_at is None else Fraction(line.reached_at)
        out.append(
            Standing(
                rank=rank,
                entrant=entrant_id,
                score=line.score,
                tie_breaks=(Fraction(len(line.sheet)), reached_at),
                games=len(line.sheet),
                wins=line.wins,
                byes=0,
                withdrawn=withdrawn[entrant_id],
                sheet=line.sheet,
                fire=line.fire,
            )
        )
    return out


@dataclass(frozen=True)
class Waiting:
    """An entrant waiting for its next arena game, since a time (seconds)."""

    entrant: str
    since: float


def last_opponents(results: Sequence[GameResult]) -> dict[str, frozenset[str]]:
    """Everyone each entrant sat with in its latest game."""
    last: dict[str, frozenset[str]] = {}
    for result in game_order(results):
        for entrant in result.sides:
            last[entrant] = frozenset(result.sides) - {entrant}
    return last


def pair_arena(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    results: Sequence[GameResult],
    waiting: Sequence[Waiting],
    now: float,
    *,
    rematch_wait: float = REMATCH_WAIT,
) -> list[tuple[str, ...]]:
    """The tables to make now from the entrants waiting (see the module's docstring).

    Each table lists its entrants by rank, side 0 first. Entrants not seated
    keep waiting.
    """
    size = settings.sides
    active = {e.id for e in entrants if not e.withdrawn}
    since: dict[str, float] = {}
    for w in waiting:
        if w.entrant in active:
            since[w.entrant] = min(w.since, since.get(w.entrant, w.since))
    if len(since) < size:
        return []
    # Entrants level in the standings (everyone, at the start) are ranked by seed.
    by_seed = sorted(entrants, key=lambda e: -e.seed)
    order = {line.entrant: i for i, line in enumerate(arena_standings(settings, by_seed, results))}
    ranked = sorted(since, key=order.__getitem__)
    extra = len(ranked) % size
    if extra:
        latest = sorted(ranked, key=lambda e: (-since[e], -order[e]))[:extra]
        ranked = [e for e in ranked if e not in latest]
    last = last_opponents(results)
    empty: frozenset[str] = frozenset()

    def rematch(a: str, b: str) -> int:
        return int(b in last.get(a, empty) or a in last.get(b, empty))

    tables, conflicts = group_tables(ranked, size, rematch)
    if not conflicts:
        return tables
    nobody_else = len(active) <= size
    made = []
    for table in tables:
        clean = not any(rematch(a, b) for i, a in enumerate(table) for b in table[i + 1 :])
        patient = all(now - since[e] >= rematch_wait for e in table)
        if clean or patient or nobody_else:
            made.append(table)
    return made
