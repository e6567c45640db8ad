"""Draining a process for a rolling restart: on SIGTERM or on ``basra admin drain``.

A draining process (uvicorn does the first three, :class:`DrainingServer` starts it
on either signal):

1. stops taking connections: it closes its listening socket, so the proxy's next
   attempt there fails at once and goes to another process (docs/DEPLOY.md's proxy
   retries a failed connection on the next upstream);
2. tells its clients to reconnect: every WebSocket is closed with 1012 (*service
   restart*), which the page answers by connecting again at once, without a word on
   the screen (static/app.js, static/quickplay.js); the proxy sends it to another
   process, which loads the table from the store;
3. finishes what it acknowledged: every message already read is carried out (a move
   is acknowledged only once it is stored) and in-flight HTTP requests are answered,
   for at most ``drain_timeout`` seconds;
4. then stops its features, writes what is pending in the store and exits; a review
   it was working out goes back to the queue.

The tables this process drives are handed over to the other processes at the first
moment (:mod:`basra.server.table.ownership`): their bots and clocks go on elsewhere
while the connections here close.

``GET /readyz`` answers 503 ``draining`` from the first moment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import FrameType

import uvicorn

__all__ = ["Drain", "DrainingServer"]

log = logging.getLogger("basra.server.ops.drain")


class Drain:
    """Whether this process drains, and how to start it (bound by ``basra serve``)."""

    def __init__(self) -> None:
        self.draining = False
        self._start: Callable[[], None] | None = None
        self._hooks: list[Callable[[], object]] = []

    def on_start(self, hook: Callable[[], object]) -> None:
        """Call ``hook`` once when the drain begins (the tables are handed over then, not
        when the process exits: :mod:`basra.server.table.ownership`)."""
        self._hooks.append(hook)

    def bind(self, start: Callable[[], None]) -> None:
        """What starts the drain (uvicorn's graceful exit)."""
        self._start = start

    def mark(self, reason: str) -> None:
        """The drain has begun."""
        if not self.draining:
            log.warning("draining: %s", reason)
            self.draining = True
            for hook in self._hooks:
                try:
                    hook()
                except Exception:
                    log.exception("a drain hook failed")
        self.draining = True

    def start(self, reason: str) -> bool:
        """Begin draining; False when nothing can (no server bound)."""
        if self._start is None:
            return False
        self.mark(reason)
        self._start()
        return True


class DrainingServer(uvicorn.Server):
    """uvicorn's server, telling the :class:`Drain` when a signal starts its graceful exit."""

    def __init__(self, config: uvicorn.Config, drain: Drain) -> None:
        super().__init__(config)
        self.drain = drain
        drain.bind(self._exit)

    def _exit(self) -> None:
        self.should_exit = True

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.drain.mark(f"signal {sig}")
        super().handle_exit(sig, frame)
