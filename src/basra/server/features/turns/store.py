"""The turn-based tables' own data: each person's vacations, with their repository's
protocol, their table and the repository in SQL (migration ``v0017_turnbased``).

- ``vacations``: one row a span ``(identity, start, end)`` during which that person's
  clocks at turn-based tables stand still. A span is taken from now for whole days, and
  ended early by setting its ``end`` to the moment it ended (the days not begun are
  given back). The turn-based tables themselves are ordinary tables whose clock is days
  per move (``clock_move``, :mod:`basra.server.table.clocks`): no column of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import Column, Float, Index, String, Table, select, update

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["SqlVacations", "VacationStore", "vacations"]


# ---------------------------------------------------------------------- repository


class VacationStore(Protocol):
    """Vacations, by identity."""

    async def add(self, identity: str, start: float, end: float) -> None:
        """Store a vacation from ``start`` to ``end``."""

    async def spans(
        self, identities: Sequence[str], since: float
    ) -> dict[str, list[tuple[float, float]]]:
        """Each identity's vacations ending after ``since``, earliest first (those with
        none are left out)."""

    async def end(self, identity: str, now: float) -> bool:
        """End the identity's vacation running at ``now`` (its end becomes ``now``): True
        if one ran."""


# ---------------------------------------------------------------------- tables

vacations = Table(
    "vacations",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("start", Float, primary_key=True),
    Column("end", Float, nullable=False),
)
Index("ix_vacations_end", vacations.c.end)

V = vacations


class SqlVacations:
    """:class:`VacationStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def add(self, identity: str, start: float, end: float) -> None:
        """One insert."""
        async with self.db.engine.begin() as conn:
            await conn.execute(V.insert().values(identity=identity, start=start, end=end))

    async def spans(
        self, identities: Sequence[str], since: float
    ) -> dict[str, list[tuple[float, float]]]:
        """One query by the primary key's first column."""
        out: dict[str, list[tuple[float, float]]] = {}
        if not identities:
            return out
        query = (
            select(V.c.identity, V.c.start, V.c.end)
            .where(V.c.identity.in_(list(identities)), V.c.end > since)
            .order_by(V.c.start)
        )
        async with self.db.engine.connect() as conn:
            for identity, start, end in await conn.execute(query):
                out.setdefault(identity, []).append((float(start), float(end)))
        return out

    async def end(self, identity: str, now: float) -> bool:
        """One update of the span running now."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                update(V)
                .where(V.c.identity == identity, V.c.start <= now, V.c.end > now)
                .values(end=now)
            )
        return bool(done.rowcount)
