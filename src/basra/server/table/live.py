"""Tables and their clients held in memory by the table master, its settings and counts."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Any

from basra.server.connection import Connection
from basra.server.identity import Caller
from basra.server.quotas import Limits
from basra.server.store.rows import TableRow
from basra.server.table.clocks import Clock, ClockState, SystemClock
from basra.server.table.presence import Presence
from basra.server.table.reducer import EventInfo
from basra.state import GameState

__all__ = ["Client", "LiveTable", "ServiceConfig", "TableCounts"]


def _default_processes() -> int:
    """The CPU count less one, from 2 (one is kept for people's bots) to 4."""
    return max(2, min(4, (os.cpu_count() or 2) - 1))


@dataclass
class ServiceConfig:
    """Timing and capacity settings of the tables."""

    grace: float = 60.0
    """Seconds a person may be gone before a stand-in bot plays their turns."""
    bot_delay: float = 0.9
    """Seconds a bot waits before playing, so people can follow the game."""
    round_pause: float = 6.0
    """Seconds between the end of a round (its score sheet) and the next deal."""
    stand_in_level: str = "medium"
    """The bot level that plays for a person who is gone."""
    hint_samples: int = 600
    """Deals a hint's analysis plays out (:data:`basra.coach.hints.HINT_SAMPLES`)."""
    bot_threads: int = 2
    bot_processes: int = field(default_factory=_default_processes)
    """Worker processes for bots and hints (0: threads in the server process)."""
    presence_ttl: float = 30.0
    """Seconds another process's presence report stays valid without a heartbeat."""
    heartbeat: float = 10.0
    abandon_after: float = 1800.0
    """Seconds a table with people's seats may have nobody connected before it is abandoned."""
    abandon_bots_after: float = 120.0
    """Seconds an all-bot table may have nobody watching before it is abandoned."""
    retry_base: float = 1.0
    """Seconds before an automatic action that failed is tried again (doubling each time)..."""
    retry_limit: int = 5
    """...and how many failures in a row mark the table with its fault and stop it."""
    limits: Limits = field(default_factory=Limits)
    clock: Clock = field(default_factory=SystemClock)
    """The time source of the tables' clocks (a ``FakeClock`` in tests)."""
    owner_ttl: float = 3.0
    """Seconds a process's lease on the tables it drives lasts unless renewed: another
    process takes a table over this long after its owner died
    (:mod:`basra.server.table.ownership`)..."""
    owner_renew: float = 0.75
    """...and every how many seconds the leases are renewed (and orphans looked for)."""
    vacation_days: int = 7
    """Days a month a person may stop their turn-based clocks
    (:mod:`basra.server.features.turns`)."""


class Client(Connection):
    """A connection at one table, as the master sees it: the seat it sits in (None:
    watching), on top of its outbox."""

    def __init__(
        self,
        table_id: str,
        caller: Caller | None,
        name: str | None = None,
        address: str = "unknown",
    ) -> None:
        super().__init__(caller, name, address)
        self.table_id = table_id
        self.seat: int | None = None


@dataclass
class LiveTable:
    """A table held in memory: its settings, its game and who is connected."""

    row: TableRow
    state: GameState
    version: int
    presence: Presence
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    timer: asyncio.Task[None] | None = None
    plan: tuple[str, int] | None = None
    event: EventInfo | None = None
    """The public description of the event that brought the table to its version."""
    reaper: asyncio.Task[None] | None = None
    """Ends the table as abandoned when nobody comes back in time."""
    dropped: bool = False
    """Let go of (no longer in the master's memory): connect to a fresh copy instead."""
    failures: int = 0
    """Automatic actions failed in a row."""
    hinting: set[int] = field(default_factory=set)
    """Seats with a hint being worked out (one at a time each)."""
    clock: ClockState | None = None
    """The table's clocks (None without a time control)."""
    badges: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per seat: a username and, at rated tables, the rating
    (:func:`basra.server.table.frames.seat_badges`)."""
    autos: dict[int, str] = field(default_factory=dict)
    """The current round's plays the server made for a person, by their index in the
    round: why (``timeout``, ``stand_in``, ``forfeited``), for the log and the seat to
    see that a bot played them (:func:`basra.server.table.frames.state_frame`)."""
    autos_round: int = -1
    """The round :attr:`autos` is of."""
    settling: bool = False
    """The game's results are being recorded."""
    rules: dict[str, Any] = field(default_factory=dict)
    """The table's rules as JSON (worked out once, from its game's rules)."""

    def __post_init__(self) -> None:
        if not self.rules:
            self.rules = self.state.rules.to_dict()

    @property
    def id(self) -> str:
        """The table's id."""
        return self.row.id

    def deadline(self) -> float | None:
        """When the running clock reaches zero (None without one running)."""
        return self.clock.deadline() if self.clock is not None else None

    @property
    def turn_based(self) -> bool:
        """Whether its clock is days per move (:mod:`basra.server.table.clocks`): its people
        are expected to be away, so no stand-in plays for absence and it is never abandoned."""
        return self.clock is not None and self.clock.control.turn_based


@dataclass(frozen=True)
class TableCounts:
    """What this process holds and has done, for its health and metrics
    (:meth:`~basra.server.table.master.TableMaster.counts`)."""

    live: int
    """Tables loaded here (watched, played or driven)."""
    owned: int
    """Tables this process drives (their clocks, stand-ins and bots)."""
    moves: int
    """Plays stored here since the process started."""
    decisions: int
    """Moves the bots (and stand-ins) of this process worked out."""
