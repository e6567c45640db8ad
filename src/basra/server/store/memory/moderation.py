"""Reports and sanctions in memory."""

from __future__ import annotations

from dataclasses import replace

from basra.server.store.memory.data import MemoryData
from basra.server.store.rows import ReportRow, SanctionRow

__all__ = ["MemoryModeration"]


class MemoryModeration:
    """:class:`~basra.server.store.protocols.ModerationStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def add_report(self, report: ReportRow) -> None:
        self.data.reports[report.id] = replace(report)

    async def reports(
        self, open_only: bool = True, limit: int = 100, after: str | None = None
    ) -> list[ReportRow]:
        rows = [r for r in self.data.reports.values() if not open_only or r.closed_at is None]
        if after is not None:
            cursor = self.data.reports.get(after)
            if cursor is None:
                raise ValueError(f"there is no report {after!r}")
            rows = [r for r in rows if (r.at, r.id) < (cursor.at, cursor.id)]
        rows.sort(key=lambda r: (r.at, r.id), reverse=True)
        return [replace(r) for r in rows[:limit]]

    async def close_report(self, report_id: str, resolution: str, now: float) -> bool:
        report = self.data.reports.get(report_id)
        if report is None or report.closed_at is not None:
            return False
        report.closed_at, report.resolution = now, resolution
        return True

    async def sanction(self, row: SanctionRow) -> None:
        self.data.sanctions[row.identity] = replace(row)

    async def lift(self, identity: str) -> bool:
        return self.data.sanctions.pop(identity, None) is not None

    async def sanction_of(self, identity: str, now: float) -> SanctionRow | None:
        row = self.data.sanctions.get(identity)
        if row is None or (row.until is not None and row.until <= now):
            return None
        return replace(row)
