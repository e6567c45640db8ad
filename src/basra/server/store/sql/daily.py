"""The daily deal's attempts in SQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import AttemptRow, Cap, TableRow, TableStatus
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.tables import check_caps, insert_table

__all__ = ["SqlDaily"]

ATT, T, ACC = schema.daily_attempts, schema.tables, schema.accounts


class SqlDaily:
    """:class:`~basra.server.store.protocols.DailyStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def start_attempt(
        self, attempt: AttemptRow, table: TableRow, caps: Sequence[Cap] = ()
    ) -> AttemptRow:
        """The existing attempt, or this one with its table within its caps (one
        transaction)."""
        found = await self.attempt_of(attempt.deal_id, attempt.identity)
        if found is not None:
            return found
        try:
            async with self.db.engine.begin() as conn:
                await check_caps(self.db, conn, caps)
                await insert_table(conn, table)
                await conn.execute(
                    ATT.insert().values(
                        deal_id=attempt.deal_id,
                        identity_id=attempt.identity,
                        table_id=attempt.table_id,
                        seat=attempt.seat,
                        name=attempt.name,
                        started_at=attempt.started_at,
                    )
                )
        except IntegrityError:  # the same identity started it at the same moment
            found = await self.attempt_of(attempt.deal_id, attempt.identity)
            if found is None:
                raise
            return found
        joined = await self.attempt_of(attempt.deal_id, attempt.identity)
        return joined or attempt

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """One lookup by the primary key, joined to its table."""
        rows = await self._attempts(ATT.c.deal_id == deal_id, ATT.c.identity_id == identity)
        return rows[0] if rows else None

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """One lookup by the table's index."""
        rows = await self._attempts(ATT.c.table_id == table_id)
        return rows[0] if rows else None

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """The deal's attempts with their tables, oldest first."""
        return await self._attempts(ATT.c.deal_id == deal_id)

    async def _attempts(self, *where: Any) -> list[AttemptRow]:
        query = (
            select(ATT, T.c.status, T.c.scores, T.c.updated_at, ACC.c.username)
            .join(T, T.c.id == ATT.c.table_id)
            .outerjoin(ACC, ACC.c.identity_id == ATT.c.identity_id)
            .where(*where)
            .order_by(ATT.c.started_at)
        )
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            AttemptRow(
                deal_id=r.deal_id,
                identity=r.identity_id,
                table_id=r.table_id,
                seat=r.seat,
                name=r.name,
                started_at=r.started_at,
                status=TableStatus(r.status),
                scores=tuple(json.loads(r.scores or "[]")),
                ended_at=r.updated_at,
                username=r.username,
            )
            for r in rows
        ]
