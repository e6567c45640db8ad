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
kept, in the process that kept it (once per item): Web Push is one such listener
(:meth:`basra.server.features.push.Push.notified`, connected in ``env.py``).

**Once.** :meth:`Notifications.add_once` keeps an item only if no item of the same
person and key was kept before, in any process (the key makes the row's id, and the
store's insert of an id already there does nothing): a tournament's "starting soon",
told by whichever process runs the events' clock, reaches a person once.

**Words.** An item is words-free; the page words it (``static/challenges.js``,
``notificationText``) and the server words it in one place, :func:`note_text` (a push
notification's body), both with the catalogues' ``note_<kind>`` messages.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from basra.locales import message
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
    "note_text",
]

KINDS = (
    "challenge",
    "challenge_accepted",
    "challenge_declined",
    "challenge_expired",
    "rematch",
    "your_turn",
    "tournament_soon",
    "club_event",
)
"""What a notification may be about: a challenge and its answers, a rematch asked for, a
person's turn at a turn-based table (:meth:`~basra.server.table.master.TableMaster.on_turn`),
a tournament they entered starting in a few minutes
(:class:`~basra.server.features.tournaments.runner.EventClock`), an event made by their
club (:meth:`~basra.server.features.clubs.Clubs.make_event`)."""
KIND = "notify"
"""The bus notices' kind."""
PAGE = 50
"""Most items listed at once."""
MAX_IDS = 200
"""Most ids marked read at once."""

Listener = Callable[[NotificationRow], Awaitable[object]]
"""Told of each item kept."""

log = logging.getLogger(__name__)


def _bad(field: str, text: str) -> ProtocolError:
    return ProtocolError("bad_notification", text, {"field": field})


NAMED = {"challenge": "from", "challenge_declined": "by", "rematch": "by"}
"""The fact naming the person an item is about, where it is not ``name`` (as the page's
``notificationText`` reads it)."""


def note_text(lang: str, kind: str, data: dict[str, Any]) -> str:
    """An item's words in ``lang``: its ``note_<kind>`` message with its facts (as the
    page's ``notificationText``: a challenge names its maker, ``from``; an answer or a
    rematch its asker, ``by``; a guest when neither is known)."""
    params = {k: v for k, v in data.items() if isinstance(v, (str, int, float))}
    name = data.get(NAMED.get(kind, "name"))
    params["name"] = name if isinstance(name, str) and name else message(lang, "guest")
    key = f"note_{kind}" if kind in KINDS else "note_other"
    return message(lang, key, **params)


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
        row = self._row(person, kind, data, url, secrets.token_hex(8))
        await self.store.add(row)
        await self._added(row)
        return row

    async def add_once(
        self, person: str, kind: str, data: dict[str, Any], url: str, key: str
    ) -> NotificationRow | None:
        """As :meth:`add`, unless an item of ``person`` and ``key`` was kept before (by
        any process): then nothing, and None."""
        digest = hashlib.sha256(f"{person}\n{key}".encode()).hexdigest()[:24]
        row = self._row(person, kind, data, url, f"k{digest}")
        if not await self.store.add_new(row):
            return None
        await self._added(row)
        return row

    def _row(
        self, person: str, kind: str, data: dict[str, Any], url: str, row_id: str
    ) -> NotificationRow:
        if kind not in KINDS:
            raise ValueError(f"no such notification kind: {kind!r}")
        return NotificationRow(
            id=row_id, identity=person, kind=kind, data=data, url=url, at=self.clock()
        )

    async def _added(self, row: NotificationRow) -> None:
        """A kept item: to the person's sockets, and told to the listeners."""
        person = row.identity
        unread = await self.store.unread(person)
        await self.tell(person, {"type": "notification", "item": row.shown(), "unread": unread})
        for listener in self._listeners:
            try:
                await listener(row)
            except Exception:
                log.exception("a notification listener failed")

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
