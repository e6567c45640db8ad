"""The bot API's data (:mod:`basra.server.features.botapi`): the bot accounts' row, their
repository's protocol, their table and the repository in SQL.

``bots`` are bot accounts: an identity of their own (the store's ``identities``), their
owner's identity, a unique name and the SHA-256 of their token. Revoking an identity
revokes the bots it owns in the same transaction: :func:`revoke_owned` is the step the
store's identities run for it (:class:`~basra.server.store.sql.identities.SqlIdentities`,
wired in :mod:`basra.server.stores`). The table is declared on the schema's one
:data:`~basra.server.store.sql.schema.metadata` (migration ``v0005_play``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Column, Float, ForeignKey, Index, String, Table, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["BotRow", "BotStore", "SqlBots", "revoke_owned"]

# ---------------------------------------------------------------------- rows


@dataclass(frozen=True)
class BotRow:
    """A bot account: an identity of its own, owned by a person."""

    identity: str
    owner: str
    name: str
    name_key: str
    created_at: float
    revoked_at: float | None = None


# ---------------------------------------------------------------- repository


class BotStore(Protocol):
    """Bot accounts: an identity of their own, an owner, a token kept as its hash."""

    async def create(self, bot: BotRow, token_hash: str) -> bool:
        """Store a bot account and its identity; False if its name is taken."""

    async def by_token(self, token_hash: str) -> BotRow | None:
        """The live bot of a token (its owner live too), or None."""

    async def by_name(self, name_key: str) -> BotRow | None:
        """The live bot of a name (its case-folded key), or None."""

    async def of_owner(self, owner: str) -> list[BotRow]:
        """A person's live bots, oldest first."""

    async def set_token(self, identity: str, token_hash: str) -> None:
        """Replace a bot's token."""

    async def revoke(self, identity: str, now: float) -> None:
        """Revoke a bot account (its token stops working)."""


# -------------------------------------------------------------------- tables


bots = Table(
    "bots",
    metadata,
    Column("identity_id", String(64), ForeignKey("identities.id"), primary_key=True),
    Column("owner_id", String(64), ForeignKey("identities.id"), nullable=False),
    Column("name", String(32), nullable=False),
    Column("name_key", String(32), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("revoked_at", Float, nullable=True),
)
Index("ix_bots_owner_id", bots.c.owner_id)
Index("ix_bots_token_hash", bots.c.token_hash, unique=True)
Index("ix_bots_name_key", bots.c.name_key, unique=True)


# -------------------------------------------------------------------- in SQL


BOTS, IDS = bots, schema.identities


class SqlBots:
    """:class:`BotStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def create(self, bot: BotRow, token_hash: str) -> bool:
        """Insert the bot's identity and the bot; the unique name says if it is taken."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(
                    IDS.insert().values(id=bot.identity, created_at=bot.created_at, name=bot.name)
                )
                await conn.execute(
                    BOTS.insert().values(
                        identity_id=bot.identity,
                        owner_id=bot.owner,
                        name=bot.name,
                        name_key=bot.name_key,
                        token_hash=token_hash,
                        created_at=bot.created_at,
                    )
                )
        except IntegrityError:
            return False
        return True

    async def _bots(self, *where: Any) -> list[BotRow]:
        """Live bots (not revoked, their owner not revoked either) matching ``where``."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(BOTS)
                    .join(IDS, IDS.c.id == BOTS.c.owner_id)
                    .where(BOTS.c.revoked_at.is_(None), IDS.c.revoked_at.is_(None), *where)
                    .order_by(BOTS.c.created_at)
                )
            ).all()
        return [
            BotRow(r.identity_id, r.owner_id, r.name, r.name_key, r.created_at, r.revoked_at)
            for r in rows
        ]

    async def by_token(self, token_hash: str) -> BotRow | None:
        """One indexed lookup."""
        found = await self._bots(BOTS.c.token_hash == token_hash)
        return found[0] if found else None

    async def by_name(self, name_key: str) -> BotRow | None:
        """One indexed lookup."""
        found = await self._bots(BOTS.c.name_key == name_key)
        return found[0] if found else None

    async def of_owner(self, owner: str) -> list[BotRow]:
        """The owner's live bots."""
        return await self._bots(BOTS.c.owner_id == owner)

    async def set_token(self, identity: str, token_hash: str) -> None:
        """Update the hash."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(BOTS).where(BOTS.c.identity_id == identity).values(token_hash=token_hash)
            )

    async def revoke(self, identity: str, now: float) -> None:
        """Revoke the bot and its identity in one transaction."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(BOTS)
                .where(BOTS.c.identity_id == identity, BOTS.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            await conn.execute(
                update(IDS)
                .where(IDS.c.id == identity, IDS.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )


async def revoke_owned(conn: AsyncConnection, owner: str, now: float) -> list[str]:
    """Revoke the live bots ``owner`` owns, in the caller's transaction (their identities
    are revoked by the caller): their identities' ids."""
    owned = list(
        (
            await conn.execute(
                select(BOTS.c.identity_id).where(
                    BOTS.c.owner_id == owner, BOTS.c.revoked_at.is_(None)
                )
            )
        ).scalars()
    )
    if owned:
        await conn.execute(update(BOTS).where(BOTS.c.identity_id.in_(owned)).values(revoked_at=now))
    return [str(b) for b in owned]
