"""Fan-out between server processes: :class:`MemoryHub` (one process) and :class:`RedisHub`.

Each process publishes a small notice when it changes a table (``events``: the
log grew to ``version``; ``meta``: seats or status changed; ``presence``: how
many of a seat's people it holds connections for). The other processes reload
what changed from the store and send their own clients views built from it.
Notices never carry cards: everything secret stays in the store.

A :class:`MemoryHub` shared by several services in one Python process stands
in for Redis in tests; each service passes its own ``origin`` and never hears
its own notices.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

__all__ = ["CHANNEL", "Bus", "Hub", "Listener", "MemoryHub", "RedisHub", "open_hub"]

log = logging.getLogger(__name__)

CHANNEL = "basra:tables"
"""The Redis channel every process publishes to and listens on."""

Listener = Callable[[dict[str, Any]], Awaitable[None]]
"""Called with each notice published by another process."""


class Bus:
    """Notices between this server's processes, as the parts of the server use them: each
    publishes its own and hears the kinds it registered (:meth:`on`), over one :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._handlers: dict[str, Listener] = {}

    def on(self, kind: str, handler: Listener) -> None:
        """Hand notices of ``kind`` from other processes to ``handler`` (one a kind)."""
        if kind in self._handlers:
            raise ValueError(f"notices of kind {kind!r} are handled already")
        self._handlers[kind] = handler

    async def publish(self, notice: dict[str, Any]) -> None:
        """Tell the other processes (a JSON object with a ``kind``; never a card)."""
        await self.hub.publish(notice)

    async def start(self, origin: str) -> None:
        """Start hearing the other processes; ``origin`` names this one."""
        await self.hub.start(origin, self.dispatch)

    async def close(self) -> None:
        """Stop hearing them."""
        await self.hub.close()

    @property
    def reaches_others(self) -> bool:
        """Whether another process can hear what this one publishes (see :class:`Hub`)."""
        return self.hub.reaches_others

    async def dispatch(self, notice: dict[str, Any]) -> None:
        """Hand a notice to its kind's handler (a kind nobody handles is ignored)."""
        handler = self._handlers.get(str(notice.get("kind")))
        if handler is not None:
            await handler(notice)


class Hub(Protocol):
    """Publish notices and hear the other processes' notices."""

    async def start(self, origin: str, listener: Listener) -> None:
        """Begin listening; ``origin`` identifies this process."""

    async def publish(self, notice: dict[str, Any]) -> None:
        """Send a notice (JSON values) to every other process."""

    async def close(self) -> None:
        """Stop listening."""

    @property
    def reaches_others(self) -> bool:
        """Whether a notice published here can reach another process: always over Redis;
        in memory, only where another service listens on the same hub (tests). A process
        whose notices reach nobody cannot hand anything to another process."""


class MemoryHub:
    """A hub inside one Python process: listeners registered on the same object hear each other."""

    def __init__(self) -> None:
        self._listeners: dict[str, Listener] = {}
        self._origin = ""

    def attach(self) -> MemoryHub:
        """Another endpoint on the same hub (for a second service in a test)."""
        other = MemoryHub()
        other._listeners = self._listeners
        return other

    async def start(self, origin: str, listener: Listener) -> None:
        """Register the listener."""
        self._origin = origin
        self._listeners[origin] = listener

    async def publish(self, notice: dict[str, Any]) -> None:
        """Deliver to every other listener (as JSON would, a fresh copy each)."""
        others = [listener for o, listener in self._listeners.items() if o != self._origin]
        if not others:
            return  # one process alone: nobody to tell
        text = json.dumps({**notice, "origin": self._origin})
        for listener in others:
            await listener(json.loads(text))

    async def close(self) -> None:
        """Unregister."""
        self._listeners.pop(self._origin, None)

    @property
    def reaches_others(self) -> bool:
        """Whether another service listens on this hub."""
        return any(origin != self._origin for origin in self._listeners)


class RedisHub:
    """Notices over Redis pub/sub (``redis.asyncio``) on :data:`CHANNEL`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._redis: Any = None
        self._pubsub: Any = None
        self._task: asyncio.Task[None] | None = None
        self._origin = ""

    @property
    def reaches_others(self) -> bool:
        """Always: every process on the same Redis hears the channel."""
        return True

    async def start(self, origin: str, listener: Listener) -> None:
        """Connect, subscribe and start the reading task."""
        import redis.asyncio as aioredis

        self._origin = origin
        self._redis = aioredis.from_url(self.url, decode_responses=True)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(CHANNEL)

        async def read() -> None:
            while True:
                try:
                    message = await self._pubsub.get_message(timeout=1.0)
                except asyncio.CancelledError:
                    raise
                except Exception:  # a dropped connection: say so and retry
                    log.exception("redis pub/sub read failed; retrying")
                    await asyncio.sleep(0.5)
                    continue
                if message is None or message.get("type") != "message":
                    continue
                try:
                    notice = json.loads(message["data"])
                except (TypeError, ValueError):
                    continue
                if not isinstance(notice, dict) or notice.get("origin") == self._origin:
                    continue
                try:
                    await listener(notice)
                except Exception:
                    log.exception("handling a notice failed: %r", notice)

        self._task = asyncio.create_task(read())

    async def publish(self, notice: dict[str, Any]) -> None:
        """Publish a notice with this process's origin."""
        await self._redis.publish(CHANNEL, json.dumps({**notice, "origin": self._origin}))

    async def close(self) -> None:
        """Stop reading and disconnect."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def open_hub(url: str | None) -> Hub:
    """The hub for a ``--redis`` value: Redis when a URL is given, else in-process."""
    if url:
        return RedisHub(url)
    return MemoryHub()
