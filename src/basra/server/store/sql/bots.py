"""Bot accounts in SQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import BotRow
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlBots"]

BOTS, IDS = schema.bots, schema.identities


class SqlBots:
    """:class:`~basra.server.store.protocols.BotStore` in SQL."""

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
