"""Web Push's data: each person's subscriptions, the kinds they opted into, and the sends
waiting to be delivered, with their repository's protocol, their tables and the
repository in SQL, all in this one module (the feature owns its data; migration
``v0012_push``).

- ``push_subscriptions``: one row a browser (or installed app) that subscribed: its
  push service's ``endpoint`` and the two keys the payload is encrypted to (``p256dh``,
  ``auth``). Its key is a digest of the endpoint (endpoints run to hundreds of
  characters), so the same browser subscribing again replaces its row, for whoever is
  signed in there now. Its ``lang`` is the language of the page that subscribed (or
  last posted it again): the notifications sent to it are worded in that language.
- ``push_kinds``: one row a ``(person, kind)`` opted into; no row, nothing sent.
- ``push_sends``: one row a notification waiting for one subscription: what to show,
  how many tries it has had. A send is deleted once delivered, given up, or when its
  subscription goes (the push service said it is gone, the person unsubscribed), so
  the table holds only work still to do: a restart queues every row again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["PushStore", "Send", "SqlPush", "Subscription", "drop_subscriptions", "endpoint_key"]


def endpoint_key(endpoint: str) -> str:
    """A subscription's key: the first 32 hex digits of its endpoint's SHA-256."""
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Subscription:
    """One browser's push subscription."""

    key: str
    identity: str
    endpoint: str
    p256dh: str
    auth: str
    at: float
    lang: str = "en"
    """The language of the page that subscribed: what its notifications are worded in."""


@dataclass(frozen=True)
class Send:
    """One notification on its way to one subscription."""

    id: int
    subscription: str
    kind: str
    payload: str
    """The JSON the service worker shows (title, body, url, kind)."""
    tries: int
    at: float


# ---------------------------------------------------------------------- repository


class PushStore(Protocol):
    """Subscriptions, opt-ins and the sends waiting, by identity."""

    async def subscribe(self, subscription: Subscription, most: int) -> None:
        """Keep a subscription (replacing the one of the same endpoint), and drop the
        person's oldest ones past ``most``."""

    async def unsubscribe(self, identity: str, key: str) -> bool:
        """Drop one of a person's subscriptions (and its sends): True if there was one."""

    async def drop(self, key: str) -> bool:
        """Drop a subscription whoever's it is (its push service said it is gone)."""

    async def subscriptions(self, identity: str) -> list[Subscription]:
        """A person's subscriptions, oldest first."""

    async def subscription(self, key: str) -> Subscription | None:
        """One subscription, or None."""

    async def choose(self, identity: str, kinds: Sequence[str]) -> None:
        """Set the kinds a person opted into (replacing the earlier choice)."""

    async def chosen(self, identity: str) -> set[str]:
        """The kinds a person opted into."""

    async def queue(
        self, identity: str, kind: str, payload: Callable[[str], str], at: float
    ) -> list[int]:
        """A send for each of the person's subscriptions, if they opted into ``kind``
        (checked in the same transaction), its payload ``payload(lang)`` in the
        subscription's language; the new sends' ids."""

    async def send(self, send_id: int) -> tuple[Send, Subscription | None] | None:
        """One waiting send with its subscription (None when it went), or None
        (delivered or given up)."""

    async def tried(self, send_id: int) -> None:
        """Count one more failed try of a send."""

    async def done(self, send_id: int) -> None:
        """Delete a send (delivered or given up)."""

    async def waiting(self) -> list[int]:
        """Every send still waiting, oldest first (queued again at start)."""


# ---------------------------------------------------------------------- tables

push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("identity", String(64), nullable=False),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Column("lang", String(8), nullable=False, server_default="en"),
)
Index("ix_push_subscriptions_identity", push_subscriptions.c.identity)

push_kinds = Table(
    "push_kinds",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("kind", String(32), primary_key=True),
)

push_sends = Table(
    "push_sends",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subscription", String(32), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("at", Float, nullable=False),
    sqlite_autoincrement=True,  # an id is never used twice (a retry may come late)
)
Index("ix_push_sends_subscription", push_sends.c.subscription)

PS, PK, PQ = push_subscriptions, push_kinds, push_sends


def _subscription(row: Sequence[object]) -> Subscription:
    key, identity, endpoint, p256dh, auth, at, lang = row
    return Subscription(
        str(key),
        str(identity),
        str(endpoint),
        str(p256dh),
        str(auth),
        float(at),  # type: ignore[arg-type]
        str(lang),
    )


class SqlPush:
    """:class:`PushStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def subscribe(self, subscription: Subscription, most: int) -> None:
        """Replace the endpoint's row, then drop the person's oldest past ``most``, under
        the person's lock."""
        s = subscription
        async with self.db.engine.begin() as conn:
            await self.db.lock(conn, [f"push:{s.identity}"])
            await conn.execute(delete(PS).where(PS.c.key == s.key))
            await conn.execute(
                PS.insert().values(
                    key=s.key,
                    identity=s.identity,
                    endpoint=s.endpoint,
                    p256dh=s.p256dh,
                    auth=s.auth,
                    at=s.at,
                    lang=s.lang,
                )
            )
            rows = await conn.execute(
                select(PS.c.key)
                .where(PS.c.identity == s.identity)
                .order_by(PS.c.at.desc(), PS.c.key)
                .offset(most)
            )
            extra = [r[0] for r in rows]
            if extra:
                await conn.execute(delete(PQ).where(PQ.c.subscription.in_(extra)))
                await conn.execute(delete(PS).where(PS.c.key.in_(extra)))

    async def unsubscribe(self, identity: str, key: str) -> bool:
        """Delete the row and its sends."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(delete(PS).where(PS.c.key == key, PS.c.identity == identity))
            if done.rowcount:
                await conn.execute(delete(PQ).where(PQ.c.subscription == key))
        return bool(done.rowcount)

    async def drop(self, key: str) -> bool:
        """Delete the row and its sends."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(delete(PS).where(PS.c.key == key))
            await conn.execute(delete(PQ).where(PQ.c.subscription == key))
        return bool(done.rowcount)

    async def subscriptions(self, identity: str) -> list[Subscription]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(PS).where(PS.c.identity == identity).order_by(PS.c.at, PS.c.key)
            )
        return [_subscription(tuple(r)) for r in rows]

    async def subscription(self, key: str) -> Subscription | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(PS).where(PS.c.key == key))).first()
        return None if row is None else _subscription(tuple(row))

    async def choose(self, identity: str, kinds: Sequence[str]) -> None:
        """Replace the person's rows."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(PK).where(PK.c.identity == identity))
            chosen = sorted(set(kinds))
            if chosen:
                await conn.execute(
                    PK.insert(), [{"identity": identity, "kind": kind} for kind in chosen]
                )

    async def chosen(self, identity: str) -> set[str]:
        """One query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(PK.c.kind).where(PK.c.identity == identity))
        return {str(r[0]) for r in rows}

    async def queue(
        self, identity: str, kind: str, payload: Callable[[str], str], at: float
    ) -> list[int]:
        """The opt-in, the subscriptions and the inserts in one transaction (each
        language's payload made once)."""
        async with self.db.engine.begin() as conn:
            opted = await conn.execute(
                select(PK.c.kind).where(PK.c.identity == identity, PK.c.kind == kind)
            )
            if opted.first() is None:
                return []
            keys = await conn.execute(
                select(PS.c.key, PS.c.lang).where(PS.c.identity == identity).order_by(PS.c.at)
            )
            ids = []
            worded: dict[str, str] = {}
            for key, lang in list(keys):
                text = worded.get(lang)
                if text is None:
                    text = worded[lang] = payload(str(lang))
                done = await conn.execute(
                    PQ.insert().values(subscription=key, kind=kind, payload=text, tries=0, at=at)
                )
                made = done.inserted_primary_key
                assert made is not None
                ids.append(int(made[0]))
        return ids

    async def send(self, send_id: int) -> tuple[Send, Subscription | None] | None:
        """One lookup, the subscription joined."""
        query = (
            select(PQ, PS.c.identity, PS.c.endpoint, PS.c.p256dh, PS.c.auth, PS.c.at, PS.c.lang)
            .select_from(PQ.outerjoin(PS, PS.c.key == PQ.c.subscription))
            .where(PQ.c.id == send_id)
        )
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        sid, key, kind, payload, tries, at, identity, endpoint, p256dh, auth, since, lang = tuple(
            row
        )
        send = Send(int(sid), str(key), str(kind), str(payload), int(tries), float(at))
        if identity is None:
            return send, None
        return send, _subscription((key, identity, endpoint, p256dh, auth, since, lang))

    async def tried(self, send_id: int) -> None:
        """One update."""
        async with self.db.engine.begin() as conn:
            await conn.execute(update(PQ).where(PQ.c.id == send_id).values(tries=PQ.c.tries + 1))

    async def done(self, send_id: int) -> None:
        """One delete."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(PQ).where(PQ.c.id == send_id))

    async def waiting(self) -> list[int]:
        """One query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(PQ.c.id).order_by(PQ.c.id))
        return [int(r[0]) for r in rows]


async def drop_subscriptions(conn: AsyncConnection, identity: str, now: float) -> list[str]:
    """An identity revoked (``DELETE /api/identity``): its subscriptions, opt-ins and sends
    go, in the revocation's transaction (a cascade of
    :class:`~basra.server.store.sql.identities.SqlIdentities`); no identity ends with it."""
    keys = select(PS.c.key).where(PS.c.identity == identity).scalar_subquery()
    await conn.execute(delete(PQ).where(PQ.c.subscription.in_(keys)))
    await conn.execute(delete(PS).where(PS.c.identity == identity))
    await conn.execute(delete(PK).where(PK.c.identity == identity))
    return []
