"""Clocks: time controls per table, what is left on each person's clock, and the time source.

A table's time control is none, or :class:`TimeControl`: ``move`` seconds for
each move and a ``reserve`` of seconds per seat for the whole game. While a
person is to move, the move's seconds run down first, then their reserve
(which never refills). When both are gone the move *times out*: the server
plays it with the stand-in bot (``ServiceConfig.stand_in_level``), marked
``timeout`` in the log. The server's own bots have no clock (a program playing
through the bot API has one, like a person), and no clock runs between rounds.

Nothing here is a timer only: the deadlines come from the event log, whose
events carry the time they happened (``events.at``) and, for a person's play
the server made, why (``events.auto``). :class:`ClockState` replays them, so a
restarted server (or another process) has the same clocks. A deadline that
passed while the server was down gets :data:`RESUME_GRACE` seconds more once
it is back, so nobody loses a move to the server's own outage.

In a rated game (and at a table made with the forfeit rule though unrated: a
tournament's) a seat *forfeits* when the server has played
:data:`FORFEIT_IN_A_ROW` of its moves in a row, or :data:`FORFEIT_IN_ALL` in
the game, because its clock ran out or its person was away past the grace
period (``stand_in``). The game is then rated at once with that seat's side
last (see :mod:`basra.server.table.ratings`); a bot plays the seat to the end.
At a casual table with a clock the same numbers mark a seat whose person *left*
(:meth:`ClockState.walked_out`): the game plays on, and its result records that
they left (reputation's share of games finished, :mod:`basra.server.features.reputation`).

A *turn-based* table's control is days per move (:data:`TURN_DAYS`: 1, 2, 3 or
7), stored as ``move`` seconds (a whole number of :data:`DAY`) with no reserve:
:attr:`TimeControl.turn_based` is the one test of it. Its people are expected to
be away, so no stand-in plays for them while they are (the autopilot waits for
the clock alone), and the table is never abandoned for want of people. At a
turn-based table with the forfeit rule one move timed out forfeits the seat
(:meth:`TimeControl.forfeit_in_a_row`): a day or a week passed unanswered is the
game lost, as in correspondence chess. A person's *pauses* (their vacation,
:mod:`basra.server.features.vacation`) stop their clock: :attr:`ClockState.pauses`
holds them per seat, and the running clock counts only the time outside them,
so a deadline moves by exactly the vacation that falls before it.

Time comes from a :class:`Clock`: :class:`SystemClock` in use, and
:class:`FakeClock` in tests, which moves only when told to (so a test runs a
clock out without sleeping).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "AUTO_KINDS",
    "CONTROL_BOUNDS",
    "DAY",
    "DEFAULT_CONTROL",
    "FORFEIT_IN_ALL",
    "FORFEIT_IN_A_ROW",
    "RESUME_GRACE",
    "TURN_DAYS",
    "Clock",
    "ClockState",
    "FakeClock",
    "PauseSource",
    "SystemClock",
    "TimeControl",
    "check_control",
    "forfeit_rule",
]

CONTROL_BOUNDS: Mapping[str, tuple[int, int]] = {"move": (5, 600), "reserve": (0, 3600)}
"""The least and the most seconds of a time control's two parts."""
DAY = 86_400
"""Seconds in a day: a turn-based table's move is a whole number of them."""
TURN_DAYS = (1, 2, 3, 7)
"""The days per move a turn-based table may give."""
FORFEIT_IN_A_ROW = 3
"""A rated seat forfeits when the server played this many of its moves in a row..."""
FORFEIT_IN_ALL = 6
"""...or this many in the game."""
RESUME_GRACE = 10.0
"""Seconds a person gets after a restart when their deadline passed while the server was down."""
AUTO_KINDS = ("timeout", "stand_in", "forfeited")
"""Why the server made a person's play: their clock ran out, they were away past the
grace period, or their seat had forfeited."""


@dataclass(frozen=True)
class TimeControl:
    """``move`` seconds per move, then a ``reserve`` of seconds for the whole game.

    >>> TimeControl(30, 60).to_json()
    {'move': 30, 'reserve': 60}
    """

    move: int
    reserve: int

    @classmethod
    def days(cls, days: int) -> TimeControl:
        """A turn-based control of ``days`` per move.

        >>> TimeControl.days(2).to_json()
        {'move': 172800, 'reserve': 0, 'days': 2}
        """
        return cls(days * DAY, 0)

    @property
    def turn_based(self) -> bool:
        """Whether this is a turn-based table's clock (days per move): the one test of it."""
        return self.move >= DAY

    @property
    def forfeit_in_a_row(self) -> int:
        """Moves the server makes for a seat in a row before it forfeits (forfeit-rule
        tables): one at a turn-based table (days passed unanswered), else
        :data:`FORFEIT_IN_A_ROW`."""
        return 1 if self.turn_based else FORFEIT_IN_A_ROW

    def to_json(self) -> dict[str, int]:
        """The control as sent to clients and documented in WEB.md (with ``days`` when
        turn-based)."""
        out = {"move": self.move, "reserve": self.reserve}
        if self.turn_based:
            out["days"] = self.move // DAY
        return out

    @classmethod
    def of(cls, row: Any) -> TimeControl | None:
        """The control of a table row (None without a clock)."""
        if row.clock_move is None:
            return None
        return cls(int(row.clock_move), int(row.clock_reserve or 0))


DEFAULT_CONTROL = TimeControl(30, 60)
"""The control of a rated table that names none: 30 s a move and a minute of reserve."""


class Clock(Protocol):
    """Where the clocks read the time (seconds since the epoch) and wait."""

    def now(self) -> float:
        """The time now."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time."""


Pauses = dict[str, tuple[tuple[float, float], ...]]


class PauseSource(Protocol):
    """Where a turn-based table's clocks read their people's pauses (vacations)."""

    async def __call__(self, identities: Sequence[str]) -> Pauses:
        """The spans ``(start, end)`` each identity's clocks stand still, sorted (those
        with none may be left out)."""


class SystemClock:
    """The real time (:func:`time.time`) and :func:`asyncio.sleep`."""

    def now(self) -> float:
        """The wall-clock time."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """Sleep for real."""
        await asyncio.sleep(max(seconds, 0.0))


class FakeClock:
    """A clock that moves only when a test calls :meth:`advance` (from any thread).

    >>> clock = FakeClock(100.0)
    >>> clock.advance(5)
    >>> clock.now()
    105.0
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, int, asyncio.AbstractEventLoop, asyncio.Future[None]]]
        self._sleepers = []
        self._order = itertools.count()

    def now(self) -> float:
        """The fake time."""
        with self._lock:
            return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until :meth:`advance` has moved the time ``seconds`` on."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            wake = self._now + max(seconds, 0.0)
            if wake <= self._now:
                future.set_result(None)
            else:
                heapq.heappush(self._sleepers, (wake, next(self._order), loop, future))
        await future

    def advance(self, seconds: float) -> None:
        """Move the time on, waking every sleeper whose time has come."""
        with self._lock:
            self._now += seconds
            due = []
            while self._sleepers and self._sleepers[0][0] <= self._now:
                due.append(heapq.heappop(self._sleepers))
        for _, _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)

    @property
    def sleepers(self) -> int:
        """How many are waiting (tests use it to know a timer is set)."""
        with self._lock:
            return sum(1 for *_, future in self._sleepers if not future.done())


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


@dataclass
class ClockState:
    """A table's clocks, rebuilt from its events (see :meth:`observe`)."""

    control: TimeControl
    people: frozenset[int]
    """The seats of people: only they have clocks."""
    rated: bool
    """Whether seats forfeit: a rated table, or one made with the forfeit rule (a
    tournament's, :attr:`~basra.server.store.rows.TableRow.forfeits`)."""
    reserves: list[float]
    """Each seat's reserve left at the start of its current (or next) move."""
    turn: int | None = None
    """The seat whose clock runs (a person to move in a round), or None."""
    turn_started: float | None = None
    """When that seat's move began."""
    extra: float = 0.0
    """Seconds added to the running deadline after a restart (:data:`RESUME_GRACE`)."""
    in_a_row: list[int] = field(default_factory=list)
    """Per seat: moves the server made for it in a row (timeouts and stand-ins)."""
    missed: list[int] = field(default_factory=list)
    """Per seat: moves the server made for it in the game."""
    timeouts: list[int] = field(default_factory=list)
    """Per seat: moves whose clock ran out."""
    forfeited: list[int] = field(default_factory=list)
    """Seats that forfeited (rated games), in the order they did."""
    pauses: dict[int, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    """Per seat: the spans ``(start, end)`` its clock stands still (its person's vacation,
    at a turn-based table), sorted, from the master's pause source."""

    @classmethod
    def of(cls, row: Any) -> ClockState | None:
        """The clocks of a table row before its first event (None without a clock)."""
        control = TimeControl.of(row)
        if control is None:
            return None
        players = int(row.players)
        people = frozenset(s.seat for s in row.seats if s.kind != "bot")  # people, programs
        return cls(
            control,
            people,
            bool(row.forfeit_rule),  # rated tables, and unrated ones made with forfeits
            [float(control.reserve)] * players,
            in_a_row=[0] * players,
            missed=[0] * players,
            timeouts=[0] * players,
        )

    def observe(
        self, kind: str, seat: int | None, at: float, auto: str | None, next_turn: int | None
    ) -> int | None:
        """Account for one event; returns a seat that forfeited by it, if any.

        ``kind`` and ``auto`` are the event's, ``seat`` the mover of a play,
        ``at`` when it happened, and ``next_turn`` the seat to move after it
        (None between rounds and after the game).
        """
        forfeit = None
        if kind == "play" and seat is not None and seat in self.people:
            if self.turn == seat and self.turn_started is not None:
                spent = max(0.0, self._elapsed(at) - self.control.move)
                self.reserves[seat] = max(0.0, self.reserves[seat] - spent)
            if auto == "timeout":
                self.timeouts[seat] += 1
                self.reserves[seat] = 0.0
            if auto in ("timeout", "stand_in"):
                self.in_a_row[seat] += 1
                self.missed[seat] += 1
                if (
                    self.rated
                    and seat not in self.forfeited
                    and (
                        self.in_a_row[seat] >= self.control.forfeit_in_a_row
                        or self.missed[seat] >= FORFEIT_IN_ALL
                    )
                ):
                    self.forfeited.append(seat)
                    forfeit = seat
            elif auto is None:
                self.in_a_row[seat] = 0
        self.extra = 0.0
        if next_turn is not None and next_turn in self.people and next_turn not in self.forfeited:
            self.turn, self.turn_started = next_turn, at
        else:
            self.turn, self.turn_started = None, None
        return forfeit

    def walked_out(self) -> list[int]:
        """The seats whose person *left* the game: those that forfeited, and, where seats do
        not forfeit (a casual table), those the forfeit rule would have forfeited (the
        server played :data:`FORFEIT_IN_A_ROW` of their moves in a row, or
        :data:`FORFEIT_IN_ALL` in the game). Reputation reads it from the results."""
        return [
            seat
            for seat in sorted(self.people)
            if seat in self.forfeited
            or self.in_a_row[seat] >= FORFEIT_IN_A_ROW
            or self.missed[seat] >= FORFEIT_IN_ALL
        ]

    def deadline(self) -> float | None:
        """When the running clock reaches zero (None if no clock runs): its seconds counted
        from the move's start, skipping the seat's pauses."""
        if self.turn is None or self.turn_started is None:
            return None
        budget = self.control.move + self.reserves[self.turn] + self.extra
        at = self.turn_started
        for start, end in self.pauses.get(self.turn, ()):
            if end <= at:
                continue
            if start > at:
                if start - at >= budget:
                    break
                budget -= start - at
            at = max(at, end)
        return at + budget

    def _elapsed(self, now: float) -> float:
        """Seconds of the running move's clock spent by ``now`` (its pauses not counted)."""
        if self.turn is None or self.turn_started is None:
            return 0.0
        begun = self.turn_started
        elapsed = max(0.0, now - begun)
        for start, end in self.pauses.get(self.turn, ()):
            elapsed -= max(0.0, min(end, now) - max(start, begun))
        return max(0.0, elapsed)

    def paused(self, now: float) -> bool:
        """Whether the running clock stands still now (its seat's person is on vacation)."""
        if self.turn is None:
            return False
        return any(start <= now < end for start, end in self.pauses.get(self.turn, ()))

    def resume(self, now: float) -> None:
        """After loading: a deadline already past gets :data:`RESUME_GRACE` seconds from now."""
        deadline = self.deadline()
        if deadline is not None and deadline < now:
            self.extra += now + RESUME_GRACE - deadline

    def left(self, now: float) -> tuple[float | None, list[float | None]]:
        """The running move's seconds left, and every seat's reserve left (None for bots)."""
        reserves: list[float | None] = [
            round(r, 1) if seat in self.people else None for seat, r in enumerate(self.reserves)
        ]
        if self.turn is None or self.turn_started is None:
            return None, reserves
        elapsed = self._elapsed(now)
        move = self.control.move + self.extra
        spent = max(0.0, elapsed - move)
        reserves[self.turn] = round(max(0.0, self.reserves[self.turn] - spent), 1)
        return round(max(0.0, move - elapsed), 1), reserves

    def message(self, version: int, now: float) -> dict[str, Any]:
        """The ``clock`` message for clients (the same for every seat: no cards)."""
        move_left, reserves = self.left(now)
        return {
            "type": "clock",
            "version": version,
            "control": self.control.to_json(),
            "turn": self.turn,
            "move_left": move_left,
            "reserves": reserves,
            "timeouts": list(self.timeouts),
            "missed": list(self.missed),
            "in_a_row": list(self.in_a_row),
            "forfeited": list(self.forfeited),
            "paused": self.paused(now),
        }


def forfeit_rule() -> dict[str, int]:
    """The forfeit rule's numbers, as ``/api/variants`` shows them."""
    return {"in_a_row": FORFEIT_IN_A_ROW, "in_all": FORFEIT_IN_ALL}


def check_control(value: Mapping[str, Any] | None) -> TimeControl | None:
    """A time control from a form's ``{"move", "reserve"}`` (within :data:`CONTROL_BOUNDS`),
    or a turn-based one from ``{"days"}`` (one of :data:`TURN_DAYS`).

    Raises ``ValueError(field, message)`` naming the field that is out of bounds.

    >>> check_control({"move": 15, "reserve": 30})
    TimeControl(move=15, reserve=30)
    >>> check_control({"days": 3}).turn_based
    True
    """
    if value is None:
        return None
    days = value.get("days")
    if days is not None:
        if not isinstance(days, int) or isinstance(days, bool) or days not in TURN_DAYS:
            shown = ", ".join(map(str, TURN_DAYS))
            raise ValueError("clock.days", f"clock.days must be {shown} days, not {days!r}")
        if value.get("move") is not None or value.get("reserve"):
            raise ValueError(
                "clock.days",
                "a turn-based clock is days per move alone: leave out move and reserve",
            )
        return TimeControl.days(days)
    if value.get("move") is None:
        raise ValueError("clock.move", "clock.move (seconds per move) or clock.days is needed")
    parts = {}
    for name, (low, high) in CONTROL_BOUNDS.items():
        seconds = value.get(name, 0)
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not low <= seconds <= high:
            message = f"clock.{name} must be from {low} to {high} seconds, not {seconds!r}"
            raise ValueError(f"clock.{name}", message)
        parts[name] = seconds
    return TimeControl(parts["move"], parts["reserve"])
