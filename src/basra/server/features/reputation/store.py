"""Reputation's reading of stored history: people's settled games, several people at once.

Reputation keeps no rows of its own: a person's history is their results
(:data:`basra.server.store.sql.schema.results`, written once when a game is settled),
read as :class:`~basra.server.features.reputation.rules.Played` by the one rule
:func:`~basra.server.features.reputation.rules.played_of`. :meth:`ReputationStore.histories`
reads the newest games of many people in one query (a table's seats, a quick-play pool),
so a table shows every seat's share without a query per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import func, select

from basra.server.features.reputation.rules import Played, played_of
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import results

__all__ = ["ReputationStore", "SqlReputation"]


class ReputationStore(Protocol):
    """People's histories of settled games."""

    async def histories(self, identities: Sequence[str], limit: int) -> dict[str, list[Played]]:
        """Each identity's newest ``limit`` settled games, newest first (every identity asked
        is a key, with an empty list when it has none)."""


class SqlReputation:
    """:class:`ReputationStore` in SQL, over the results table."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def histories(self, identities: Sequence[str], limit: int) -> dict[str, list[Played]]:
        """One query: the results numbered per identity, newest first, cut at ``limit``."""
        wanted = sorted(set(identities))
        out: dict[str, list[Played]] = {identity: [] for identity in wanted}
        if not wanted:
            return out
        newest = (
            func.row_number()
            .over(partition_by=results.c.identity_id, order_by=results.c.ended_at.desc())
            .label("n")
        )
        ranked = (
            select(
                results.c.identity_id,
                results.c.outcome,
                results.c.rated,
                results.c.ended_at,
                results.c.left_game,
                newest,
            )
            .where(results.c.identity_id.in_(wanted))
            .subquery()
        )
        query = (
            select(
                ranked.c.identity_id,
                ranked.c.outcome,
                ranked.c.rated,
                ranked.c.ended_at,
                ranked.c.left_game,
            )
            .where(ranked.c.n <= limit)
            .order_by(ranked.c.identity_id, ranked.c.ended_at.desc())
        )
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        for identity, outcome, rated, ended_at, left in rows:
            out[identity].append(played_of(outcome, bool(rated), float(ended_at), bool(left)))
        return out
