"""Moderation's data (:mod:`basra.server.features.moderation`): the reports' row, the
repository's protocol, the ``reports`` table and the repository in SQL.

``reports`` has one row per report of a player (who, about whom, from which table, the
reason and the reporter's words, what is reported besides the person (a line of table talk,
quoted: migration ``v0018_talk``), and once closed what the operator did). The sanctions
moderation sets are the store's (:class:`~basra.server.store.protocols.SanctionStore`,
the ``sanctions`` table), since identities check them at sign-in:
:class:`ModerationStore` is both. The table is declared on the schema's one
:data:`~basra.server.store.sql.schema.metadata` (migration ``v0008_moderation``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Column, Float, Index, String, Table, Text, and_, insert, or_, select, update

from basra.server.store.protocols import SanctionStore
from basra.server.store.sql.sanctions import SqlSanctions
from basra.server.store.sql.schema import metadata

__all__ = ["ModerationStore", "ReportRow", "SqlModeration"]

# ---------------------------------------------------------------------- rows


@dataclass
class ReportRow:
    """A person's report of another (moderation): who, about whom, where, and why."""

    id: str
    reporter: str
    """The reporting identity."""
    target: str
    """The reported identity."""
    reason: str
    """One of :data:`basra.server.features.moderation.REASONS`."""
    note: str
    """The reporter's words (at most 500 characters; may be empty)."""
    at: float
    table_id: str | None = None
    """The table it was reported from (None: from a profile)."""
    target_name: str | None = None
    """The name shown where it was reported (a seat's name, or the profile's)."""
    closed_at: float | None = None
    resolution: str | None = None
    """What the operator did about it (their words)."""
    subject: str | None = None
    """What is reported besides the person, if anything: ``talk`` (a line of table talk)."""
    quote: str | None = None
    """The reported words as they were shown (a line of talk; lines are kept nowhere else)."""


# ---------------------------------------------------------------- repository


class ModerationStore(SanctionStore, Protocol):
    """Reports of players, and (the store's) sanctions on identities."""

    async def add_report(self, report: ReportRow) -> None:
        """Keep a report."""

    async def reports(
        self, open_only: bool = True, limit: int = 100, after: str | None = None
    ) -> list[ReportRow]:
        """Reports, newest first (only those not closed, unless ``open_only`` is False),
        from the one after the report ``after`` on (a page's cursor; ``ValueError`` when
        there is no such report)."""

    async def close_report(self, report_id: str, resolution: str, now: float) -> bool:
        """Close an open report with the operator's words; False if there is none."""


# -------------------------------------------------------------------- tables


reports = Table(
    "reports",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("reporter", String(64), nullable=False),
    Column("target", String(64), nullable=False),
    Column("target_name", String(64), nullable=True),
    Column("table_id", String(32), nullable=True),
    Column("reason", String(16), nullable=False),
    Column("note", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
    Column("resolution", Text, nullable=True),
    Column("subject", String(16), nullable=True),
    Column("quote", Text, nullable=True),
)
Index("ix_reports_open", reports.c.closed_at, reports.c.at)

R = reports

# -------------------------------------------------------------------- in SQL


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
        subject=row.subject,
        quote=row.quote,
    )


class SqlModeration(SqlSanctions):
    """:class:`ModerationStore` in SQL: the reports here, the sanctions the store's."""

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
                    subject=report.subject,
                    quote=report.quote,
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
