"""Reports and sanctions in SQL (the ``reports`` and ``sanctions`` tables)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update

from basra.server.store.rows import ReportRow, SanctionRow
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlModeration"]

R = schema.reports
S = schema.sanctions


def _report(row: Any) -> ReportRow:
    return ReportRow(
        id=row.id,
        reporter=row.reporter,
        target=row.target,
        reason=row.reason,
        note=row.note,
        at=row.at,
        table_id=row.table_id,
        target_name=row.target_name,
        closed_at=row.closed_at,
        resolution=row.resolution,
    )


class SqlModeration:
    """:class:`~basra.server.store.protocols.ModerationStore` on one database."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def add_report(self, report: ReportRow) -> None:
        async with self.db.engine.begin() as conn:
            await conn.execute(
                insert(R).values(
                    id=report.id,
                    reporter=report.reporter,
                    target=report.target,
                    target_name=report.target_name,
                    table_id=report.table_id,
                    reason=report.reason,
                    note=report.note,
                    at=report.at,
                )
            )

    async def reports(
        self, open_only: bool = True, limit: int = 100, after: str | None = None
    ) -> list[ReportRow]:
        query = select(R).order_by(R.c.at.desc(), R.c.id.desc()).limit(limit)
        if open_only:
            query = query.where(R.c.closed_at.is_(None))
        async with self.db.engine.connect() as conn:
            if after is not None:
                at = (await conn.execute(select(R.c.at).where(R.c.id == after))).scalar()
                if at is None:
                    raise ValueError(f"there is no report {after!r}")
                query = query.where(or_(R.c.at < at, and_(R.c.at == at, R.c.id < after)))
            return [_report(row) for row in await conn.execute(query)]

    async def close_report(self, report_id: str, resolution: str, now: float) -> bool:
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(R)
                .where(R.c.id == report_id, R.c.closed_at.is_(None))
                .values(closed_at=now, resolution=resolution)
            )
            return bool(result.rowcount)

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
