"""Tables and connections held in memory by the match service, and its settings."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from typing import Any

from basra.server.clocks import Clock, ClockState, SystemClock
from basra.server.identity import Caller
from basra.server.presence import Presence
from basra.server.quotas import Limits
from basra.server.store import TableRow
from basra.state import GameState

__all__ = ["OUTBOX_LIMIT", "Client", "LiveTable", "ServiceConfig"]

OUTBOX_LIMIT = 500
"""Messages queued for one client before it is dropped as too slow."""


def _default_processes() -> int:
    """The CPU count less one, from 2 (one is kept for people's bots) to 4."""
    return max(2, min(4, (os.cpu_count() or 2) - 1))


@dataclass
class ServiceConfig:
    """Timing and capacity settings of the match service."""

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


class Client:
    """One connection as the service sees it: who it is, where it sits, and its outbox.

    The transport drains :attr:`outbox`; the service only queues text, so a
    slow client never holds up a table. Work done for this client alone (a
    hint) runs in :attr:`tasks` and is cancelled when it goes.
    """

    def __init__(
        self,
        table_id: str,
        caller: Caller | None,
        name: str | None = None,
        address: str = "unknown",
    ) -> None:
        self.table_id = table_id
        self.caller = caller
        self.name = name or (caller.name if caller else None)
        self.address = address
        self.seat: int | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.sent = 0
        self.tasks: set[asyncio.Task[Any]] = set()

    @property
    def identity(self) -> str | None:
        """The identity speaking through this connection (None: watching only)."""
        return self.caller.identity if self.caller else None

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict is serialised here)."""
        if self.closed:
            return
        if self.outbox.qsize() > OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))
        self.sent += 1

    def close(self) -> None:
        """Ask the transport to close the connection."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
        for task in list(self.tasks):
            task.cancel()


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
    event: dict[str, Any] | None = None
    reaper: asyncio.Task[None] | None = None
    """Ends the table as abandoned when nobody comes back in time."""
    dropped: bool = False
    """Let go of (no longer in the service's memory): connect to a fresh copy instead."""
    failures: int = 0
    """Automatic actions failed in a row."""
    hinting: set[int] = field(default_factory=set)
    """Seats with a hint being worked out (one at a time each)."""
    clock: ClockState | None = None
    """The table's clocks (None without a time control)."""
    badges: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per seat: a username and, at rated tables, the rating
    (:func:`basra.server.profiles.seat_badges`)."""
    settling: bool = False
    """The game's results are being recorded."""
