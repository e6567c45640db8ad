"""Review jobs and results in a dict."""

from __future__ import annotations

import json
from dataclasses import replace

from basra.server.store.memory.data import MemoryData
from basra.server.store.rows import ReviewRow, ReviewStatus

__all__ = ["MemoryReviews"]

QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class MemoryReviews:
    """:class:`~basra.server.store.protocols.ReviewStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.rows = data.reviews

    async def load(self, table_id: str) -> ReviewRow | None:
        """The row, or None."""
        return self.rows.get(table_id)

    async def request(self, table_id: str, identity: str | None, now: float) -> bool:
        """A new row, or a failed one queued again."""
        row = self.rows.get(table_id)
        if row is not None and row.status != FAILED:
            return False
        self.rows[table_id] = ReviewRow(table_id, QUEUED, 0, 0, identity, None, None, now, now)
        return True

    async def claim(self, table_id: str, now: float, stale: float) -> bool:
        """Queued (or stale running) to running."""
        row = self.rows.get(table_id)
        if row is None or not (
            row.status == QUEUED or (row.status == RUNNING and row.updated_at < now - stale)
        ):
            return False
        self.rows[table_id] = replace(row, status=RUNNING, updated_at=now)
        return True

    async def progress(self, table_id: str, done: int, total: int, now: float) -> None:
        """Update the counts."""
        row = self.rows[table_id]
        self.rows[table_id] = replace(row, done=done, total=total, updated_at=now)

    async def finish(
        self, table_id: str, data: str, now: float, accuracy: str | None = None
    ) -> None:
        """Store the review."""
        row = self.rows[table_id]
        self.rows[table_id] = replace(
            row, status=DONE, data=data, accuracy=accuracy, done=row.total, updated_at=now
        )

    async def accuracies(self, table_ids: list[str]) -> dict[str, list[float | None]]:
        """The seats' accuracies of the done rows among ``table_ids``."""
        out: dict[str, list[float | None]] = {}
        for table_id in table_ids:
            row = self.rows.get(table_id)
            if row is not None and row.status == DONE and row.accuracy is not None:
                out[table_id] = json.loads(row.accuracy)
        return out

    async def fail(self, table_id: str, error: str, now: float) -> None:
        """Mark it failed."""
        row = self.rows[table_id]
        self.rows[table_id] = replace(row, status=FAILED, error=error, updated_at=now)

    async def requeue(self, table_id: str, now: float) -> None:
        """Running back to queued."""
        row = self.rows.get(table_id)
        if row is not None and row.status == RUNNING:
            self.rows[table_id] = replace(row, status=QUEUED, updated_at=now)

    async def pending(self, identity: str) -> int:
        """Count the person's queued and running rows."""
        return sum(
            1
            for r in self.rows.values()
            if r.requested_by == identity and r.status in (QUEUED, RUNNING)
        )

    async def unfinished(self) -> list[str]:
        """Queued and running rows."""
        return [r.table_id for r in self.rows.values() if r.status in (QUEUED, RUNNING)]
