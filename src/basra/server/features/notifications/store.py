"""The notifications' data: one row a thing that happened for a person, with its
repository's protocol, its table and the repository in SQL (migration
``v0015_notifications``).

- ``notifications``: ``(id, identity, kind, data, url, at, read)``; ``data`` is a JSON
  object of words-free facts (names, ids, numbers: the page words them in its language),
  ``url`` the page the item links to. Listed newest first a page at a time
  (:meth:`NotificationStore.page`: ``before`` a time), counted unread
  (:meth:`NotificationStore.unread`) on an index of ``(identity, read)``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Boolean, Column, Float, Index, String, Table, Text, func, select, update
from sqlalchemy.exc import IntegrityError

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["NotificationRow", "NotificationStore", "SqlNotifications"]


@dataclass
class NotificationRow:
    """One thing that happened for a person."""

    id: str
    identity: str
    """Whose it is."""
    kind: str
    """One of :data:`basra.server.features.notifications.KINDS`."""
    data: dict[str, Any]
    """Words-free facts the page words (a name, a challenge's id, a variant)."""
    url: str
    """Where the item leads (a path on the site)."""
    at: float
    read: bool = False

    def shown(self) -> dict[str, Any]:
        """As the API and the sockets send it."""
        return {
            "id": self.id,
            "kind": self.kind,
            "data": self.data,
            "url": self.url,
            "at": self.at,
            "read": self.read,
        }


class NotificationStore(Protocol):
    """A person's notifications."""

    async def add(self, row: NotificationRow) -> None:
        """Keep a new notification."""

    async def add_new(self, row: NotificationRow) -> bool:
        """Keep a notification unless one of its id is kept already: whether it was new."""

    async def page(self, identity: str, limit: int, before: float | None) -> list[NotificationRow]:
        """A person's notifications, newest first, at most ``limit``, older than ``before``."""

    async def unread(self, identity: str) -> int:
        """How many of a person's notifications are unread."""

    async def mark_read(self, identity: str, ids: Sequence[str] | None) -> int:
        """Mark some of a person's notifications read (``ids``; None: all); how many changed."""


notifications = Table(
    "notifications",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("identity", String(64), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("url", String(200), nullable=False),
    Column("at", Float, nullable=False),
    Column("read", Boolean, nullable=False),
)
Index("ix_notifications_identity_at", notifications.c.identity, notifications.c.at)
Index("ix_notifications_identity_read", notifications.c.identity, notifications.c.read)

NO = notifications


def _values(row: NotificationRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "identity": row.identity,
        "kind": row.kind,
        "data": json.dumps(row.data),
        "url": row.url,
        "at": row.at,
        "read": row.read,
    }


class SqlNotifications:
    """:class:`NotificationStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def add(self, row: NotificationRow) -> None:
        """One insert."""
        async with self.db.engine.begin() as conn:
            await conn.execute(NO.insert().values(**_values(row)))

    async def add_new(self, row: NotificationRow) -> bool:
        """One insert; its id already there (another process's) is no error."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(NO.insert().values(**_values(row)))
        except IntegrityError:
            return False
        return True

    async def page(self, identity: str, limit: int, before: float | None) -> list[NotificationRow]:
        """One indexed query."""
        query = select(NO).where(NO.c.identity == identity)
        if before is not None:
            query = query.where(NO.c.at < before)
        query = query.order_by(NO.c.at.desc(), NO.c.id).limit(limit)
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(query)
        return [
            NotificationRow(
                id=r.id,
                identity=r.identity,
                kind=r.kind,
                data=json.loads(r.data),
                url=r.url,
                at=r.at,
                read=bool(r.read),
            )
            for r in rows
        ]

    async def unread(self, identity: str) -> int:
        """One count on the index."""
        async with self.db.engine.connect() as conn:
            found = await conn.execute(
                select(func.count()).where(NO.c.identity == identity, NO.c.read.is_(False))
            )
        return int(found.scalar_one())

    async def mark_read(self, identity: str, ids: Sequence[str] | None) -> int:
        """One update."""
        query = update(NO).where(NO.c.identity == identity, NO.c.read.is_(False))
        if ids is not None:
            if not ids:
                return 0
            query = query.where(NO.c.id.in_(list(ids)))
        async with self.db.engine.begin() as conn:
            done = await conn.execute(query.values(read=True))
        return int(done.rowcount)
