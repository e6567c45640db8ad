"""Notifications: one list of what happened for a person, delivered live wherever they are.

**Items.** :meth:`Notifications.add` keeps an item for a person: its ``kind`` (one of
:data:`KINDS`), its ``data`` (words-free facts: a name, a challenge's id, a variant; the
page words them in the reader's language) and its ``url`` (the page it leads to), unread.
A person lists theirs newest first a page at a time, counts the unread ones and marks
some or all read (``GET /api/notifications``, ``POST /api/notifications/read``).

**Live.** Every socket a person holds on the site (the home page's ``/ws/friends`` and a
table's socket alike: the process's :class:`~basra.server.connection.Connections` knows
them by identity) is sent ``{"type": "notification", "item", "unread"}`` at once; a
person's sockets held by other processes hear of it over the bus (notices of kind
``notify``, Redis when configured: :mod:`basra.server.runtime.pubsub`), each process
sending it to the sockets it holds. :meth:`Notifications.tell` is the same delivery for a
message that is not kept (a challenge's live changes:
:mod:`basra.server.features.challenges`).

**Listeners.** :meth:`Notifications.on_added` registers a callback told of every item
kept, in the process that kept it (once per item): Web Push is one such listener.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from basra.server.connection import Connections
from basra.server.errors import ProtocolError
from basra.server.features.notifications.store import (
    NotificationRow,
    NotificationStore,
    SqlNotifications,
)
from basra.server.runtime.pubsub import Bus

__all__ = [
    "KINDS",
    "PAGE",
    "NotificationRow",
    "NotificationStore",
    "Notifications",
    "SqlNotifications",
]

KINDS = (
    "challenge",
    "challenge_accepted",
    "challenge_declined",
    "challenge_expired",
    "rematch",
    "your_turn",
)
"""What a notification may be about: a challenge and its answers, a rematch asked for, a
person's turn at a turn-based table (:meth:`~basra.server.table.master.TableMaster.on_turn`)."""
KIND = "notify"
"""The bus notices' kind."""
PAGE = 50
"""Most items listed at once."""
MAX_IDS = 200
"""Most ids marked read at once."""

Listener = Callable[[NotificationRow], Awaitable[None]]
"""Told of each item kept."""

log = logging.getLogger(__name__)


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_notification", message, {"field": field})


class Notifications:
    """A person's notifications, kept and delivered live (see the module's docstring)."""

    def __init__(
        self,
        store: NotificationStore,
        connections: Connections,
        bus: Bus,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.connections = connections
        self.bus = bus
        self.clock = clock
        self._listeners: list[Listener] = []
        bus.on(KIND, self.heard)

    def on_added(self, listener: Listener) -> None:
        """Tell ``listener`` of every item kept from now on (Web Push)."""
        self._listeners.append(listener)

    async def add(self, person: str, kind: str, data: dict[str, Any], url: str) -> NotificationRow:
        """Keep an item for ``person``, send it to every socket they hold, tell the listeners."""
        if kind not in KINDS:
            raise ValueError(f"no such notification kind: {kind!r}")
        row = NotificationRow(
            id=secrets.token_hex(8),
            identity=person,
            kind=kind,
            data=data,
            url=url,
            at=self.clock(),
        )
        await self.store.add(row)
        unread = await self.store.unread(person)
        await self.tell(person, {"type": "notification", "item": row.shown(), "unread": unread})
        for listener in self._listeners:
            try:
                await listener(row)
            except Exception:
                log.exception("a notification listener failed")
        return row

    async def tell(self, person: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket ``person`` holds, in every process."""
        self.deliver(person, message)
        with contextlib.suppress(Exception):  # the others hear nothing: their sockets miss it
            await self.bus.publish({"kind": KIND, "to": person, "message": message})

    def deliver(self, person: str, message: dict[str, Any]) -> int:
        """Send ``message`` to the sockets ``person`` holds in this process; how many."""
        held = self.connections.of(person)
        for connection in held:
            connection.send(message)
        return len(held)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's message for a person: to their sockets here."""
        person, message = notice.get("to"), notice.get("message")
        if isinstance(person, str) and isinstance(message, dict):
            self.deliver(person, message)

    # ---------------------------------------------------------------- the list

    async def listing(self, me: str, before: Any = None, limit: Any = PAGE) -> dict[str, Any]:
        """The caller's items newest first (``before`` a time, for the next page), and
        how many are unread."""
        if before is not None and (
            not isinstance(before, (int, float)) or isinstance(before, bool)
        ):
            raise _bad("before", "before: the time of the last item listed")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 0 < limit <= PAGE:
            raise _bad("limit", f"limit: 1 to {PAGE}")
        rows = await self.store.page(me, limit, None if before is None else float(before))
        return {
            "items": [r.shown() for r in rows],
            "unread": await self.store.unread(me),
            "next": rows[-1].at if len(rows) == limit else None,
        }

    async def unread(self, me: str) -> dict[str, Any]:
        """How many of the caller's items are unread."""
        return {"unread": await self.store.unread(me)}

    async def mark_read(self, me: str, body: Any) -> dict[str, Any]:
        """Mark ``{"ids": [...]}`` or ``{"all": true}`` read; the unread count after (told to
        the caller's other sockets too, so every open page's badge agrees)."""
        if not isinstance(body, dict):
            raise _bad("ids", "send {ids: [...]} or {all: true}")
        if body.get("all") is True:
            ids: list[str] | None = None
        else:
            raw = body.get("ids")
            if not isinstance(raw, list) or len(raw) > MAX_IDS:
                raise _bad("ids", f"ids: a list of at most {MAX_IDS} notifications' ids")
            if not all(isinstance(i, str) and 0 < len(i) <= 32 for i in raw):
                raise _bad("ids", "ids: each a notification's id")
            ids = raw
        await self.store.mark_read(me, ids)
        unread = await self.store.unread(me)
        await self.tell(me, {"type": "unread", "unread": unread})
        return {"unread": unread}
