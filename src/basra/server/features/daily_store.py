"""The daily deal's data (:mod:`basra.server.features.daily`): its attempts' row, their
repository's protocol, their table and the repository in SQL.

``daily_attempts`` has one row per identity and daily deal (its primary key: one attempt
each), pointing at the attempt's table, whose ``daily`` column names the deal; an
attempt is read with its table's status and scores and its player's username (the table
master's ``tables`` and ``accounts``). The table is declared on the schema's one
:data:`~basra.server.store.sql.schema.metadata` (migration ``v0005_play``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, select
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import Cap, TableRow, TableStatus
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata
from basra.server.store.sql.tables import check_caps, insert_table

__all__ = ["AttemptRow", "DailyStore", "SqlDaily"]

# ---------------------------------------------------------------------- rows


@dataclass(frozen=True)
class AttemptRow:
    """One identity's attempt at one daily deal, and where its table stands."""

    deal_id: str
    identity: str
    table_id: str
    seat: int
    name: str
    started_at: float
    status: TableStatus = TableStatus.PLAYING
    """The table's status (``over`` once the attempt is played)."""
    scores: tuple[int, ...] = ()
    ended_at: float | None = None
    """When the table last changed (its end, once over)."""
    username: str | None = None
    """The account's username, if the identity has one."""


# ---------------------------------------------------------------- repository


class DailyStore(Protocol):
    """The daily deal's attempts: one per identity and deal."""

    async def start_attempt(
        self, attempt: AttemptRow, table: TableRow, caps: Sequence[Cap] = ()
    ) -> AttemptRow:
        """Create the attempt and its table within its caps (counted as
        :meth:`~basra.server.store.protocols.TableStore.create` counts them), in one transaction.

        If the identity already has an attempt at that deal, nothing is written
        and that one is returned.
        """

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """An identity's attempt at a deal, or None."""

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """The attempt played at a table, or None (not a daily table)."""

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """Every attempt at a deal, oldest first."""


# -------------------------------------------------------------------- tables


daily_attempts = Table(
    "daily_attempts",
    metadata,
    Column("deal_id", String(64), primary_key=True),
    Column("identity_id", String(64), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("started_at", Float, nullable=False),
)
Index("ix_daily_attempts_table_id", daily_attempts.c.table_id, unique=True)


# -------------------------------------------------------------------- in SQL


ATT, T, ACC = daily_attempts, schema.tables, schema.accounts


class SqlDaily:
    """:class:`DailyStore` in SQL."""

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
