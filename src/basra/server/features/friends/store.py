"""The friends' data: follows, blocks, follow-me codes and the presence setting, with their
repository's protocol, their tables and the repository in SQL, all in this one module
(the feature owns its data; migration ``v0010_friends``).

- ``follows``: one row a ``(follower, followee)`` pair of identities; two people who follow
  each other are *friends* (:meth:`FriendStore.friends`: a join of the table on itself).
- ``blocks``: one row a ``(blocker, blocked)`` pair. A block removes the follows between the
  two, both ways, in the same transaction, and :meth:`FriendStore.follow` refuses a follow
  either of them blocks (checked in the insert's transaction). :meth:`FriendStore.blocked_pairs`
  is *the* blocks query every other feature asks (quick play's pairing now; challenges and
  table talk later): the pairs among some identities of which one blocks the other.
- ``follow_codes``: a person's follow-me code (one each, made on first asking), the key of
  the link they share.
- ``friend_settings``: whether a person hides their presence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from sqlalchemy import (
    Boolean,
    Column,
    ColumnElement,
    Float,
    Index,
    String,
    Table,
    and_,
    delete,
    or_,
    select,
)
from sqlalchemy.exc import IntegrityError

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["BlockedError", "FriendStore", "SqlFriends"]


class BlockedError(Exception):
    """A follow between two people one of whom blocks the other."""


# ---------------------------------------------------------------------- repository


class FriendStore(Protocol):
    """Follows, blocks, follow-me codes and the presence setting, by identity."""

    async def follow(self, follower: str, followee: str, at: float) -> bool:
        """Follow: True if new, False if followed already; :class:`BlockedError` if either
        blocks the other."""

    async def unfollow(self, follower: str, followee: str) -> bool:
        """Unfollow: True if there was such a follow."""

    async def following(self, identity: str) -> list[str]:
        """Whom a person follows, oldest follow first."""

    async def followers(self, identity: str) -> list[str]:
        """Who follows a person, oldest follow first."""

    async def friends(self, identity: str) -> list[str]:
        """A person's friends (mutual follows), oldest of their follows first."""

    async def block(self, blocker: str, blocked: str, at: float) -> bool:
        """Block (the follows between the two go, both ways): True if new."""

    async def unblock(self, blocker: str, blocked: str) -> bool:
        """Unblock: True if there was such a block."""

    async def blocking(self, identity: str) -> list[str]:
        """Whom a person blocks, oldest block first."""

    async def blocked_pairs(self, identities: Sequence[str]) -> set[frozenset[str]]:
        """The pairs among ``identities`` of which one blocks the other (either way)."""

    async def code_of(self, identity: str, new_code: str, at: float) -> str:
        """A person's follow-me code: the stored one, else ``new_code`` stored."""

    async def codes_of(
        self, identities: Sequence[str], make: Callable[[], str], at: float
    ) -> dict[str, str]:
        """Each person's follow-me code: the stored ones, and one made by ``make`` and
        stored for each person without one."""

    async def owner_of(self, code: str) -> str | None:
        """The identity whose follow-me code this is, or None."""

    async def hide(self, identity: str, hidden: bool) -> None:
        """Hide a person's presence from everyone, or show it to their friends again."""

    async def hidden(self, identities: Sequence[str]) -> set[str]:
        """Those of ``identities`` who hide their presence."""


# ---------------------------------------------------------------------- tables

follows = Table(
    "follows",
    metadata,
    Column("follower", String(64), primary_key=True),
    Column("followee", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)
Index("ix_follows_followee", follows.c.followee)

blocks = Table(
    "blocks",
    metadata,
    Column("blocker", String(64), primary_key=True),
    Column("blocked", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)
Index("ix_blocks_blocked", blocks.c.blocked)

follow_codes = Table(
    "follow_codes",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("identity", String(64), nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_follow_codes_identity", follow_codes.c.identity, unique=True)

friend_settings = Table(
    "friend_settings",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("hidden", Boolean, nullable=False),
)

FO, BL, FC, FS = follows, blocks, follow_codes, friend_settings


def _between(a: str, b: str) -> ColumnElement[bool]:
    return or_(
        and_(BL.c.blocker == a, BL.c.blocked == b), and_(BL.c.blocker == b, BL.c.blocked == a)
    )


class SqlFriends:
    """:class:`FriendStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def follow(self, follower: str, followee: str, at: float) -> bool:
        """Check the blocks and insert, under the two people's lock."""
        try:
            async with self.db.engine.begin() as conn:
                await self.db.lock(conn, [f"friends:{follower}", f"friends:{followee}"])
                blocking = await conn.execute(select(BL.c.at).where(_between(follower, followee)))
                if blocking.first() is not None:
                    raise BlockedError(followee)
                found = await conn.execute(
                    select(FO.c.at).where(FO.c.follower == follower, FO.c.followee == followee)
                )
                if found.first() is not None:
                    return False
                await conn.execute(FO.insert().values(follower=follower, followee=followee, at=at))
        except IntegrityError:
            return False  # the same follow, written at the same moment elsewhere
        return True

    async def unfollow(self, follower: str, followee: str) -> bool:
        """One delete."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                delete(FO).where(FO.c.follower == follower, FO.c.followee == followee)
            )
        return bool(done.rowcount)

    async def following(self, identity: str) -> list[str]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(FO.c.followee).where(FO.c.follower == identity).order_by(FO.c.at)
            )
        return [r[0] for r in rows]

    async def followers(self, identity: str) -> list[str]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(FO.c.follower).where(FO.c.followee == identity).order_by(FO.c.at)
            )
        return [r[0] for r in rows]

    async def friends(self, identity: str) -> list[str]:
        """The follows out joined to the follows back."""
        back = FO.alias("back")
        query = (
            select(FO.c.followee)
            .join(back, and_(back.c.follower == FO.c.followee, back.c.followee == FO.c.follower))
            .where(FO.c.follower == identity)
            .order_by(FO.c.at)
        )
        async with self.db.engine.connect() as conn:
            return [r[0] for r in await conn.execute(query)]

    async def block(self, blocker: str, blocked: str, at: float) -> bool:
        """Drop the follows both ways and insert the block, in one transaction."""
        try:
            async with self.db.engine.begin() as conn:
                await self.db.lock(conn, [f"friends:{blocker}", f"friends:{blocked}"])
                await conn.execute(
                    delete(FO).where(
                        or_(
                            and_(FO.c.follower == blocker, FO.c.followee == blocked),
                            and_(FO.c.follower == blocked, FO.c.followee == blocker),
                        )
                    )
                )
                found = await conn.execute(
                    select(BL.c.at).where(BL.c.blocker == blocker, BL.c.blocked == blocked)
                )
                if found.first() is not None:
                    return False
                await conn.execute(BL.insert().values(blocker=blocker, blocked=blocked, at=at))
        except IntegrityError:
            return False
        return True

    async def unblock(self, blocker: str, blocked: str) -> bool:
        """One delete."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                delete(BL).where(BL.c.blocker == blocker, BL.c.blocked == blocked)
            )
        return bool(done.rowcount)

    async def blocking(self, identity: str) -> list[str]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(BL.c.blocked).where(BL.c.blocker == identity).order_by(BL.c.at)
            )
        return [r[0] for r in rows]

    async def blocked_pairs(self, identities: Sequence[str]) -> set[frozenset[str]]:
        """The blocks whose two sides are both among ``identities`` (one query)."""
        people = sorted(set(identities))
        if len(people) < 2:
            return set()
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(BL.c.blocker, BL.c.blocked).where(
                    BL.c.blocker.in_(people), BL.c.blocked.in_(people)
                )
            )
        return {frozenset((a, b)) for a, b in rows}

    async def code_of(self, identity: str, new_code: str, at: float) -> str:
        """The stored code, else the new one inserted (the unique index keeps one)."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(FC.c.code).where(FC.c.identity == identity))).first()
        if row is not None:
            return str(row[0])
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(FC.insert().values(code=new_code, identity=identity, at=at))
        except IntegrityError:
            return await self.code_of(identity, new_code, at)  # made meanwhile elsewhere
        return new_code

    async def codes_of(
        self, identities: Sequence[str], make: Callable[[], str], at: float
    ) -> dict[str, str]:
        """One query for the stored codes; a :meth:`code_of` for each person without one."""
        people = sorted(set(identities))
        if not people:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(FC.c.identity, FC.c.code).where(FC.c.identity.in_(people))
            )
            codes = {str(who): str(code) for who, code in rows}
        for who in people:
            if who not in codes:
                codes[who] = await self.code_of(who, make(), at)
        return codes

    async def owner_of(self, code: str) -> str | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(FC.c.identity).where(FC.c.code == code))).first()
        return None if row is None else str(row[0])

    async def hide(self, identity: str, hidden: bool) -> None:
        """Replace the setting's row."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(FS).where(FS.c.identity == identity))
            await conn.execute(FS.insert().values(identity=identity, hidden=hidden))

    async def hidden(self, identities: Sequence[str]) -> set[str]:
        """One query."""
        people = sorted(set(identities))
        if not people:
            return set()
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(FS.c.identity).where(FS.c.identity.in_(people), FS.c.hidden.is_(True))
            )
        return {r[0] for r in rows}
