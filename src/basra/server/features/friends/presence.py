"""Presence: who is on the site now, from their open sockets, in every server process.

Each process counts the sockets it holds per identity (:class:`~basra.server.connection.Connections`
tells it when a person's first socket here opens and their last one closes). A person is
*online* while some process holds a socket of theirs, and for :attr:`PresenceConfig.grace`
seconds after the last one closed (a page reloading, a phone between two networks).

Processes share what they hold over the bus (notices of kind ``people``: a table's seats'
``presence`` is another matter; Redis when configured,
:mod:`basra.server.runtime.pubsub`): a person's first socket in a process is told at once,
and every :attr:`PresenceConfig.beat` seconds each process tells everyone it holds (in
grace too), each entry good for :attr:`PresenceConfig.ttl` seconds on the hearer's own
clock (so the processes' clocks need not agree, and a process that dies is forgotten
within ``ttl``); a person whose grace ran out is told gone at the next beat. Nothing here
is stored: presence is what the processes hold now. Whether a friend is *playing* comes
from the store (their tables), and who may see whom is the feature's
(:mod:`basra.server.features.friends`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from basra.server.runtime.pubsub import Bus

__all__ = ["KIND", "Presence", "PresenceConfig"]

KIND = "people"
"""The bus notices' kind."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PresenceConfig:
    """How long presence lasts."""

    grace: float = 15.0
    """Seconds a person stays online after their last socket closed."""
    beat: float = 10.0
    """Seconds between a process's telling of everyone it holds."""
    ttl: float = 30.0
    """Seconds another process's word that it holds someone lasts (three beats)."""


class Presence:
    """Who is online, here and in the other processes (see the module's docstring)."""

    def __init__(
        self,
        bus: Bus,
        origin: str,
        config: PresenceConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bus = bus
        self.origin = origin
        self.config = config or PresenceConfig()
        self.clock = clock
        self.here: set[str] = set()
        """People with a socket in this process."""
        self.left: dict[str, float] = {}
        """People whose last socket here closed, and when (until their grace ends)."""
        self.there: dict[str, dict[str, float]] = {}
        """People other processes hold: by process, until when their word lasts."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._beating: asyncio.Task[None] | None = None
        bus.on(KIND, self.heard)

    # ---------------------------------------------------------------- this process

    def changed(self, identity: str, present: bool) -> None:
        """A person's first socket here opened (``present``) or their last one closed."""
        if present:
            self.here.add(identity)
            fresh = self.left.pop(identity, None) is None
            if fresh:
                self._publish({"online": [identity]})
        else:
            self.here.discard(identity)
            self.left[identity] = self.clock()

    def online(self, identity: str) -> bool:
        """Whether a person is on the site now, in any process."""
        now = self.clock()
        if identity in self.here:
            return True
        left = self.left.get(identity)
        if left is not None and now - left < self.config.grace:
            return True
        return any(until > now for until in self.there.get(identity, {}).values())

    def held(self) -> list[str]:
        """Everyone this process counts as online (sockets, or in grace)."""
        now = self.clock()
        grace = self.config.grace
        return sorted(self.here | {p for p, at in self.left.items() if now - at < grace})

    async def tick(self) -> None:
        """One beat: tell the others everyone held here, and who is gone; forget what expired."""
        now = self.clock()
        gone = [p for p, at in self.left.items() if now - at >= self.config.grace]
        for person in gone:
            del self.left[person]
        for person, origins in list(self.there.items()):
            for origin, until in list(origins.items()):
                if until <= now:
                    del origins[origin]
            if not origins:
                del self.there[person]
        await self.bus.publish(
            {"kind": KIND, "origin": self.origin, "online": self.held(), "gone": gone}
        )

    # ---------------------------------------------------------------- the others

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's word of whom it holds, and who left it."""
        origin = notice.get("origin")
        if not isinstance(origin, str):
            return
        until = self.clock() + self.config.ttl
        for person in _people(notice.get("online")):
            self.there.setdefault(person, {})[origin] = until
        for person in _people(notice.get("gone")):
            origins = self.there.get(person)
            if origins is not None:
                origins.pop(origin, None)
                if not origins:
                    del self.there[person]

    # ---------------------------------------------------------------- running

    def start(self) -> None:
        """Beat every :attr:`PresenceConfig.beat` seconds."""
        self._beating = asyncio.create_task(self._beat())

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.config.beat)
            try:
                await self.tick()
            except Exception:
                log.exception("cannot tell the other processes who is here")

    def _publish(self, notice: dict[str, Any]) -> None:
        async def send() -> None:
            with contextlib.suppress(Exception):
                await self.bus.publish({"kind": KIND, "origin": self.origin, **notice})

        task = asyncio.create_task(send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop beating."""
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
        for task in list(self._tasks):
            task.cancel()


def _people(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [p for p in value[:10_000] if isinstance(p, str) and len(p) <= 64]
