"""Sanctions on identities in SQL (the ``sanctions`` table): identities check them at
sign-in, moderation (:mod:`basra.server.features.moderation_store`) sets and lifts them."""

from __future__ import annotations

from sqlalchemy import delete, insert, or_, select

from basra.server.store.rows import SanctionRow
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlSanctions"]

S = schema.sanctions


class SqlSanctions:
    """:class:`~basra.server.store.protocols.SanctionStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def sanction(self, row: SanctionRow) -> None:
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(S).where(S.c.identity_id == row.identity))
            await conn.execute(
                insert(S).values(
                    identity_id=row.identity,
                    kind=row.kind,
                    reason=row.reason,
                    at=row.at,
                    until=row.until,
                )
            )

    async def lift(self, identity: str) -> bool:
        async with self.db.engine.begin() as conn:
            result = await conn.execute(delete(S).where(S.c.identity_id == identity))
            return bool(result.rowcount)

    async def sanction_of(self, identity: str, now: float) -> SanctionRow | None:
        query = select(S).where(
            S.c.identity_id == identity, or_(S.c.until.is_(None), S.c.until > now)
        )
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        return SanctionRow(row.identity_id, row.kind, row.reason, row.at, row.until)
