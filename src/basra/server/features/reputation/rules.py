"""Reputation's rules, as pure functions over a person's history of settled games.

A person's *history* is their settled games, newest first, each a :class:`Played`:
when it ended, whether it was rated, and whether they *left* it. Where a game ends is
the results store's (:class:`~basra.server.store.rows.ResultRow`), and the one rule of
what counts as leaving is :func:`played_of`: a seat that *forfeited*
(:mod:`basra.server.table.clocks`: the server played too many of its moves, because
its clock ran out or its person was away, or the operator settled it for good; the
result's outcome is ``forfeit``) left, and so did a seat at a casual table with a
clock that the same numbers would have forfeited (the result's ``left``:
:meth:`~basra.server.table.clocks.ClockState.walked_out`); every other result is a
game finished. A table abandoned by everyone is not settled and counts for nobody.

From a history:

- :func:`share`: the share of games finished, over the newest :data:`SHARE_OVER`,
  shown only from :data:`SHARE_FROM` games on (a newcomer shows none);
- :func:`leaves_often`: :data:`LEAVER_LEAVES` or more left among the newest
  :data:`LEAVER_OVER` games; quick play pairs such people with each other first
  (:func:`basra.server.features.pairing.plan_tables`);
- :func:`playban`: the wait before the next rated game, after lichess's playban.
  Rated games only: each rated game left is a *strike*; the first
  :data:`PLAYBAN_FREE` strikes are free, and each strike beyond earns a wait from the
  time of that game of :data:`PLAYBAN_FIRST` seconds doubled per strike beyond the
  first that costs (5, 10, 20, 40 ... minutes), at most :data:`PLAYBAN_MOST`. Strikes
  decay: one is forgotten for each :data:`PLAYBAN_FORGET_AFTER` seconds without a
  game left, and one for each :data:`PLAYBAN_GOOD_GAMES` rated games finished in a row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "LEAVER_LEAVES",
    "LEAVER_OVER",
    "PLAYBAN_FIRST",
    "PLAYBAN_FORGET_AFTER",
    "PLAYBAN_FREE",
    "PLAYBAN_GOOD_GAMES",
    "PLAYBAN_MOST",
    "SHARE_FROM",
    "SHARE_OVER",
    "Playban",
    "Played",
    "Share",
    "leaves_often",
    "playban",
    "played_of",
    "share",
    "strikes",
]

SHARE_OVER = 100
"""The share of games finished is over a person's newest so many games..."""
SHARE_FROM = 10
"""...and shown only from so many games on."""
LEAVER_OVER = 20
"""A person *leaves often* with :data:`LEAVER_LEAVES` games left among their newest so many."""
LEAVER_LEAVES = 3
PLAYBAN_FREE = 1
"""Strikes (rated games left, less those forgotten) that cost no wait."""
PLAYBAN_FIRST = 5 * 60.0
"""The first wait, in seconds; each strike beyond doubles it..."""
PLAYBAN_MOST = 24 * 3600.0
"""...up to so many seconds."""
PLAYBAN_FORGET_AFTER = 24 * 3600.0
"""A strike is forgotten for each so many seconds without a rated game left..."""
PLAYBAN_GOOD_GAMES = 3
"""...and for each so many rated games finished in a row."""


@dataclass(frozen=True)
class Played:
    """One settled game of a person, as reputation reads it."""

    ended_at: float
    rated: bool
    left: bool
    """They left it (their seat forfeited); otherwise they finished it."""


def played_of(outcome: str, rated: bool, ended_at: float, left: bool = False) -> Played:
    """A result as reputation reads it: the one rule of what counts as leaving (its
    outcome a forfeit, or marked ``left``).

    >>> played_of("forfeit", True, 10.0).left, played_of("loss", True, 10.0).left
    (True, False)
    >>> played_of("win", False, 10.0, left=True).left
    True
    """
    return Played(ended_at, rated, outcome == "forfeit" or left)


@dataclass(frozen=True)
class Share:
    """The share of games a person finished, and the number of games it rests on."""

    finished: int
    games: int

    @property
    def percent(self) -> int:
        """Whole percent, rounded down (100 only when every game was finished).

        >>> Share(199, 200).percent, Share(200, 200).percent
        (99, 100)
        """
        return self.finished * 100 // self.games

    def to_json(self) -> dict[str, Any]:
        """``{"finished", "games", "percent"}``."""
        return {"finished": self.finished, "games": self.games, "percent": self.percent}


def share(history: Sequence[Played]) -> Share | None:
    """The share of the newest :data:`SHARE_OVER` games finished; None under :data:`SHARE_FROM`.

    >>> share([Played(0.0, True, False)] * 9) is None
    True
    >>> share([Played(0.0, True, True)] + [Played(0.0, False, False)] * 11)
    Share(finished=11, games=12)
    """
    newest = history[:SHARE_OVER]
    if len(newest) < SHARE_FROM:
        return None
    return Share(sum(1 for p in newest if not p.left), len(newest))


def leaves_often(history: Sequence[Played]) -> bool:
    """Whether :data:`LEAVER_LEAVES` or more of the newest :data:`LEAVER_OVER` games were left.

    >>> leaves_often([Played(0.0, True, True)] * 2 + [Played(0.0, True, False)] * 5)
    False
    >>> leaves_often([Played(0.0, False, True)] * 3)
    True
    """
    return sum(1 for p in history[:LEAVER_OVER] if p.left) >= LEAVER_LEAVES


@dataclass(frozen=True)
class Playban:
    """A wait before the next rated game: earned by the rated game left at ``since``."""

    since: float
    """When the game that earned it ended (was left)."""
    wait: float
    """Its length in seconds."""
    strikes: int
    """The strikes counted when it was earned (the rated games left, less those forgotten)."""

    @property
    def until(self) -> float:
        """When it ends."""
        return self.since + self.wait

    def minutes_left(self, now: float) -> int:
        """Whole minutes left, rounded up (1 in its last minute)."""
        return max(1, math.ceil((self.until - now) / 60))

    def message(self, now: float) -> str:
        """Why and how long, in English (the page has it in each language).

        >>> Playban(0.0, 600.0, 3).message(60.0)
        'you left 3 rated games lately, so your next rated game waits 10 minutes: 9 minutes to go'
        """
        return (
            f"you left {self.strikes} rated games lately, so your next rated game waits "
            f"{round(self.wait / 60)} minutes: {self.minutes_left(now)} minutes to go"
        )

    def to_json(self, now: float) -> dict[str, Any]:
        """What a refusal and the person's own page say: the strikes, the wait's length and
        what is left (minutes), and when it ends (epoch seconds)."""
        return {
            "leaves": self.strikes,
            "minutes": round(self.wait / 60),
            "minutes_left": self.minutes_left(now),
            "until": self.until,
        }


def _wait(strikes: int) -> float:
    return min(PLAYBAN_FIRST * 2.0 ** (strikes - PLAYBAN_FREE - 1), PLAYBAN_MOST)


def _replay(history: Sequence[Played], now: float) -> tuple[int, Playban | None]:
    """The strikes standing at ``now``, and the last wait earned (ended or not)."""
    count, good, since, earned = 0, 0, 0.0, None
    rated = sorted((p for p in history if p.rated), key=lambda p: p.ended_at)

    def forget_until(at: float) -> None:
        nonlocal count, since
        if count:
            days = int((at - since) // PLAYBAN_FORGET_AFTER)
            gone = min(count, max(0, days))
            count -= gone
            since += gone * PLAYBAN_FORGET_AFTER

    for game in rated:
        forget_until(game.ended_at)
        if game.left:
            count, good, since = count + 1, 0, game.ended_at
            if count > PLAYBAN_FREE:
                earned = Playban(game.ended_at, _wait(count), count)
        else:
            good += 1
            if good >= PLAYBAN_GOOD_GAMES:
                good = 0
                if count:
                    count -= 1
    forget_until(now)
    return count, earned


def strikes(history: Sequence[Played], now: float) -> int:
    """The strikes standing at ``now`` (what the next rated game left adds to).

    >>> left = [Played(100.0, True, True), Played(50.0, True, True)]
    >>> strikes(left, 200.0), strikes(left, 200.0 + PLAYBAN_FORGET_AFTER)
    (2, 1)
    """
    return _replay(history, now)[0]


def playban(history: Sequence[Played], now: float) -> Playban | None:
    """The wait in force at ``now`` (None when a rated game may be joined).

    >>> left = [Played(100.0, True, True), Played(50.0, True, True)]
    >>> playban(left, 160.0)
    Playban(since=100.0, wait=300.0, strikes=2)
    >>> playban(left, 400.0) is None
    True
    """
    earned = _replay(history, now)[1]
    return earned if earned is not None and earned.until > now else None
