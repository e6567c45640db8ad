"""The reviews' data (:mod:`basra.server.features.reviews`): their row, their repository's
protocol, their table and the repository in SQL.

A finished game's review is one ``reviews`` row: where its job stands (queued, running
with ``done`` of ``total`` decisions, done, failed: the store's
:class:`~basra.server.store.rows.ReviewStatus`, which the mining queue shares), who asked
for it (for quotas), and the review itself as JSON once done, served from there without
being worked out again; ``accuracy`` keeps each seat's accuracy apart from it, for
profiles. The table is declared on the schema's one
:data:`~basra.server.store.sql.schema.metadata` (migration ``v0004_reviews``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import ReviewStatus
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.jobrows import JobRows
from basra.server.store.sql.schema import metadata

__all__ = ["ReviewRow", "ReviewStore", "SqlReviews"]

# ---------------------------------------------------------------------- rows


@dataclass(frozen=True)
class ReviewRow:
    """A game's review: its job's status and progress, and the review once done."""

    table_id: str
    status: ReviewStatus
    done: int = 0
    total: int = 0
    requested_by: str | None = None
    data: str | None = None
    """The review (:meth:`basra.coach.review.GameReview.to_json`) as JSON text."""
    error: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    accuracy: str | None = None
    """Each seat's accuracy (a JSON list; null for a seat with nothing graded), once done."""


# ---------------------------------------------------------------- repository


class ReviewStore(Protocol):
    """The ``reviews`` rows: each finished game's review job and result."""

    async def load(self, table_id: str) -> ReviewRow | None:
        """A game's review row, or None."""

    async def request(self, table_id: str, identity: str | None, now: float) -> bool:
        """Queue a review: a new row, or a failed one again. False when one is already
        queued, running or done (nothing changes)."""

    async def claim(self, table_id: str, now: float, stale: float) -> bool:
        """Take a queued review (or a running one with no progress for ``stale`` seconds)
        to work it out: True for the one caller that did."""

    async def progress(self, table_id: str, done: int, total: int, now: float) -> None:
        """Record how many decisions are done."""

    async def finish(
        self, table_id: str, data: str, now: float, accuracy: str | None = None
    ) -> None:
        """Store the finished review (and each seat's accuracy, a JSON list)."""

    async def accuracies(self, table_ids: list[str]) -> dict[str, list[float | None]]:
        """Each seat's accuracy in the done reviews of these games (others are left out)."""

    async def fail(self, table_id: str, error: str, now: float) -> None:
        """Mark the review failed (it may be asked for again)."""

    async def requeue(self, table_id: str, now: float) -> None:
        """Put a running review back in the queue (its process is stopping)."""

    async def pending(self, identity: str) -> int:
        """How many of a person's reviews are queued or running."""

    async def unfinished(self) -> list[str]:
        """The games whose reviews are queued or running."""


# -------------------------------------------------------------------- tables


reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("done", Integer, nullable=False, server_default="0"),
    Column("total", Integer, nullable=False, server_default="0"),
    Column("requested_by", String(64), nullable=True),
    Column("data", Text, nullable=True),
    Column("error", Text, nullable=True),
    # each seat's accuracy (a JSON list, null for a seat with nothing graded): profiles
    Column("accuracy", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)
Index("ix_reviews_requested_by", reviews.c.requested_by)
Index("ix_reviews_status", reviews.c.status)


# -------------------------------------------------------------------- in SQL


R = reviews
QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class SqlReviews:
    """:class:`ReviewStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        self.rows = JobRows(db, R)

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
        """Queued, or running and stale, to running (:meth:`JobRows.claim`)."""
        return await self.rows.claim(table_id, now, stale)

    async def _set(self, table_id: str, **values: Any) -> None:
        await self.rows.set(table_id, **values)

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
        await self.rows.requeue(table_id, now)

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
        return await self.rows.unfinished()
