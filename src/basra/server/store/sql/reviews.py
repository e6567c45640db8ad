"""Review jobs and results in SQL (one ``reviews`` row per game)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import ReviewRow, ReviewStatus
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlReviews"]

R = schema.reviews
QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class SqlReviews:
    """:class:`~basra.server.store.protocols.ReviewStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def load(self, table_id: str) -> ReviewRow | None:
        """One row by primary key."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(R).where(R.c.table_id == table_id))).first()
        if row is None:
            return None
        return ReviewRow(
            row.table_id,
            ReviewStatus(row.status),
            row.done,
            row.total,
            row.requested_by,
            row.data,
            row.error,
            row.created_at,
            row.updated_at,
            row.accuracy,
        )

    async def request(self, table_id: str, identity: str | None, now: float) -> bool:
        """Insert a queued row, or queue a failed one again (one statement each)."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(
                    R.insert().values(
                        table_id=table_id,
                        status=QUEUED,
                        requested_by=identity,
                        created_at=now,
                        updated_at=now,
                    )
                )
            return True
        except IntegrityError:
            pass
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(R)
                .where(R.c.table_id == table_id, R.c.status == FAILED)
                .values(status=QUEUED, requested_by=identity, done=0, error=None, updated_at=now)
            )
        return bool(result.rowcount)

    async def claim(self, table_id: str, now: float, stale: float) -> bool:
        """One UPDATE: queued, or running and stale, to running."""
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(R)
                .where(
                    R.c.table_id == table_id,
                    or_(
                        R.c.status == QUEUED,
                        and_(R.c.status == RUNNING, R.c.updated_at < now - stale),
                    ),
                )
                .values(status=RUNNING, updated_at=now)
            )
        return bool(result.rowcount)

    async def _set(self, table_id: str, **values: Any) -> None:
        async with self.db.engine.begin() as conn:
            await conn.execute(update(R).where(R.c.table_id == table_id).values(**values))

    async def progress(self, table_id: str, done: int, total: int, now: float) -> None:
        """Update the counts."""
        await self._set(table_id, done=done, total=total, updated_at=now)

    async def finish(
        self, table_id: str, data: str, now: float, accuracy: str | None = None
    ) -> None:
        """Store the review."""
        await self._set(
            table_id, status=DONE, data=data, accuracy=accuracy, done=R.c.total, updated_at=now
        )

    async def accuracies(self, table_ids: list[str]) -> dict[str, list[float | None]]:
        """The seats' accuracies of the done rows among ``table_ids`` (one query)."""
        if not table_ids:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(R.c.table_id, R.c.accuracy).where(
                    R.c.table_id.in_(table_ids), R.c.status == DONE, R.c.accuracy.is_not(None)
                )
            )
            return {row.table_id: json.loads(row.accuracy) for row in rows}

    async def fail(self, table_id: str, error: str, now: float) -> None:
        """Mark it failed."""
        await self._set(table_id, status=FAILED, error=error, updated_at=now)

    async def requeue(self, table_id: str, now: float) -> None:
        """Running back to queued."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(R)
                .where(R.c.table_id == table_id, R.c.status == RUNNING)
                .values(status=QUEUED, updated_at=now)
            )

    async def pending(self, identity: str) -> int:
        """Count the person's queued and running rows."""
        async with self.db.engine.connect() as conn:
            count = await conn.execute(
                select(func.count())
                .select_from(R)
                .where(R.c.requested_by == identity, R.c.status.in_([QUEUED, RUNNING]))
            )
            return int(count.scalar_one())

    async def unfinished(self) -> list[str]:
        """Queued and running rows."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(R.c.table_id).where(R.c.status.in_([QUEUED, RUNNING])).limit(10_000)
            )
            return [str(r) for r in rows.scalars()]
