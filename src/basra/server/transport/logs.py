"""Log lines about what strangers send, rate-limited: a flood never fills the log.

A refused request body and a WebSocket text frame that is not UTF-8 each get
one line, without a traceback, at most once every :data:`EVERY` seconds per
kind; the next line says how many were left out meanwhile. uvicorn itself
refuses a frame that is not UTF-8 (it closes the connection with 1007) and
logs it with a traceback on ``uvicorn.error``: :func:`quiet_uvicorn` puts a
filter there that turns that record into such a line.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["EVERY", "Throttle", "quiet_uvicorn", "throttled"]

EVERY = 10.0
"""Seconds between two log lines of one kind."""
UVICORN_INVALID_UTF8 = "Invalid UTF-8 sequence received from client."
"""The message uvicorn logs (with a traceback) for a text frame that is not UTF-8."""

log = logging.getLogger("basra.server.transport")


class Throttle:
    """At most one line per kind every ``every`` seconds.

    >>> now = [0.0]
    >>> throttle = Throttle(10.0, clock=lambda: now[0])
    >>> throttle.allow("x"), throttle.allow("x")
    (0, None)
    >>> now[0] = 11.0
    >>> throttle.allow("x")
    1
    """

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}

    def allow(self, kind: str) -> int | None:
        """None when the line is to be left out, else how many were left out before it."""
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return None
        self._last[kind] = now
        return self._left_out.pop(kind, 0)


THROTTLE = Throttle()


def throttled(kind: str, message: str) -> None:
    """Log ``message`` (a warning, no traceback) unless a line of ``kind`` went out lately."""
    left_out = THROTTLE.allow(kind)
    if left_out is not None:
        log.warning(
            "%s%s", message, f" ({left_out} more since the last such line)" * bool(left_out)
        )


class _InvalidFrames(logging.Filter):
    """Turns uvicorn's traceback for a frame that is not UTF-8 into a throttled line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() != UVICORN_INVALID_UTF8:
            return True
        throttled(
            "invalid_utf8",
            "refused a WebSocket text frame that is not UTF-8 (the connection closed with 1007)",
        )
        return False


_FILTER = _InvalidFrames()


def quiet_uvicorn() -> None:
    """Put the filter on uvicorn's error log (once)."""
    logger = logging.getLogger("uvicorn.error")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
