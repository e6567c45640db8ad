"""A job's status row: one per game, claimed by one job at a time.

A review (:mod:`basra.server.features.reviews_store`) and the mining of a reviewed
game's mistakes (:mod:`basra.server.features.learn_store`) each keep a table of rows
keyed by ``table_id``, with a ``status``
(:class:`~basra.server.store.rows.ReviewStatus`) and an ``updated_at``. The job queue
(:mod:`basra.server.runtime.jobs`) decides which process runs a job; the row decides
whether that job may work on the game: :meth:`JobRows.claim` takes a queued row, or a
running one whose process stopped touching it, in one UPDATE, so two processes never
work out the same game. :class:`JobRows` is the one place these steps are written; the
features' stores add their own columns (who asked, the progress, what was found).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, and_, or_, select, update

from basra.server.store.rows import ReviewStatus
from basra.server.store.sql.database import SqlDatabase

__all__ = ["JobRows"]

QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class JobRows:
    """The claimed-row steps on one table of job rows (its key ``table_id``)."""

    def __init__(self, db: SqlDatabase, table: Table) -> None:
        self.db = db
        self.table = table

    async def claim(self, table_id: str, now: float, stale: float) -> bool:
        """One UPDATE: queued, or running and stale, to running; whether this job has it."""
        t = self.table
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(t)
                .where(
                    t.c.table_id == table_id,
                    or_(
                        t.c.status == QUEUED,
                        and_(t.c.status == RUNNING, t.c.updated_at < now - stale),
                    ),
                )
                .values(status=RUNNING, updated_at=now)
            )
        return bool(result.rowcount)

    async def set(self, table_id: str, **values: Any) -> None:
        """Write ``values`` on the game's row."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(self.table).where(self.table.c.table_id == table_id).values(**values)
            )

    async def requeue(self, table_id: str, now: float) -> None:
        """Running back to queued (its job stopped before the end)."""
        t = self.table
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(t)
                .where(t.c.table_id == table_id, t.c.status == RUNNING)
                .values(status=QUEUED, updated_at=now)
            )

    async def unfinished(self) -> list[str]:
        """The games whose rows are queued or running (a server queues them again)."""
        t = self.table
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(t.c.table_id).where(t.c.status.in_([QUEUED, RUNNING])).limit(10_000)
            )
            return [str(r) for r in rows.scalars()]
