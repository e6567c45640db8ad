"""Accounts, ratings and results in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.rows import (
    LIVE_STATUSES,
    AccountRow,
    LeaderRow,
    RatingRow,
    ResultRow,
    Settle,
    Settlement,
)
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlPlayers"]

T, IDS = schema.tables, schema.identities
ACC, RAT, RES = schema.accounts, schema.ratings, schema.results
SETTLE_TRIES = 5
"""Times a settlement is tried again when a rating it read changed meanwhile."""


class _ChangedError(Exception):
    """A rating changed between reading and writing it: try the settlement again."""


class SqlPlayers:
    """:class:`~basra.server.store.protocols.PlayerStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def create_account(self, account: AccountRow) -> str | None:
        """Insert the account; the unique keys say what was taken."""
        try:
            async with self.db.engine.begin() as conn:
                taken = await _account_taken(conn, account)
                if taken is not None:
                    return taken
                await conn.execute(
                    ACC.insert().values(
                        identity_id=account.identity,
                        username=account.username,
                        username_key=account.username_key,
                        password_hash=account.password_hash,
                        created_at=account.created_at,
                    )
                )
        except IntegrityError:  # another writer came between the check and the insert
            async with self.db.engine.connect() as conn:
                return await _account_taken(conn, account) or "username"
        return None

    async def account_by_username(self, username_key: str) -> AccountRow | None:
        """One indexed lookup."""
        async with self.db.engine.connect() as conn:
            query = select(ACC).where(ACC.c.username_key == username_key)
            row = (await conn.execute(query)).first()
        return None if row is None else _account(row)

    async def account_of(self, identity_id: str) -> AccountRow | None:
        """The identity's account."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(ACC).where(ACC.c.identity_id == identity_id))).first()
        return None if row is None else _account(row)

    async def accounts_of(self, identities: Sequence[str]) -> dict[str, AccountRow]:
        """The accounts of those identities that have one (one query)."""
        if not identities:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(ACC).where(ACC.c.identity_id.in_(list(identities))))
            return {r.identity_id: _account(r) for r in rows}

    async def set_password_hash(self, identity_id: str, password_hash: str) -> None:
        """Update the hash."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(ACC)
                .where(ACC.c.identity_id == identity_id)
                .values(password_hash=password_hash)
            )

    async def ratings_of(self, identity_id: str) -> list[RatingRow]:
        """Every pool's rating of the identity."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(RAT)
                    .where(RAT.c.identity_id == identity_id)
                    .order_by(RAT.c.family, RAT.c.kind)
                )
            ).all()
        return [_rating(r) for r in rows]

    async def ratings_in(
        self, family: str, kind: str, identities: Sequence[str]
    ) -> dict[str, RatingRow]:
        """The pool's ratings of those identities."""
        async with self.db.engine.connect() as conn:
            return await _ratings_in(conn, family, kind, identities)

    async def settle_game(
        self,
        table_id: str,
        family: str,
        kind: str,
        identities: Sequence[str],
        now: float,
        settle: Settle,
    ) -> Settlement | None:
        """Mark the table settled, read, work out and write, in one transaction."""
        for attempt in range(SETTLE_TRIES):
            try:
                return await self._settle_once(table_id, family, kind, identities, now, settle)
            except (_ChangedError, IntegrityError):
                if attempt == SETTLE_TRIES - 1:
                    raise RuntimeError(f"table {table_id}: ratings kept changing") from None
        return None  # pragma: no cover - the loop returns or raises

    async def _settle_once(
        self,
        table_id: str,
        family: str,
        kind: str,
        identities: Sequence[str],
        now: float,
        settle: Settle,
    ) -> Settlement | None:
        async with self.db.engine.begin() as conn:
            marked = await conn.execute(
                update(T).where(T.c.id == table_id, T.c.settled_at.is_(None)).values(settled_at=now)
            )
            if not marked.rowcount:
                return None
            current = await _ratings_in(conn, family, kind, identities)
            settlement = settle(current)
            for rating in settlement.ratings:
                await _write_rating(conn, rating, current.get(rating.identity))
            if settlement.results:
                await conn.execute(
                    RES.insert(),
                    [
                        {
                            "table_id": r.table_id,
                            "identity_id": r.identity,
                            "seat": r.seat,
                            "variant": r.variant,
                            "family": r.family,
                            "kind": r.kind,
                            "rated": r.rated,
                            "outcome": r.outcome,
                            "place": r.place,
                            "rounds": r.rounds,
                            "basras": r.basras,
                            "score": r.score,
                            "ended_at": r.ended_at,
                            "mu_before": r.mu_before,
                            "sigma_before": r.sigma_before,
                            "mu_after": r.mu_after,
                            "sigma_after": r.sigma_after,
                            "left_game": r.left,
                        }
                        for r in settlement.results
                    ],
                )
        return settlement

    async def results_of(self, identity_id: str, limit: int = 50) -> list[ResultRow]:
        """The identity's results of finished tables, newest first."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(RES)
                    .join(T, T.c.id == RES.c.table_id)
                    .where(RES.c.identity_id == identity_id, T.c.status.not_in(list(LIVE_STATUSES)))
                    .order_by(RES.c.ended_at.desc())
                    .limit(limit)
                )
            ).all()
        return [_result(r) for r in rows]

    async def ratings_of_many(self, identities: Sequence[str]) -> dict[str, list[RatingRow]]:
        """One query."""
        people = sorted(set(identities))
        found: dict[str, list[RatingRow]] = {}
        if not people:
            return found
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(RAT)
                    .where(RAT.c.identity_id.in_(people))
                    .order_by(RAT.c.family, RAT.c.kind)
                )
            ).all()
        for row in rows:
            rating = _rating(row)
            found.setdefault(rating.identity, []).append(rating)
        return found

    async def results_among(
        self, identities: Sequence[str], limit: int, since: float | None = None
    ) -> list[ResultRow]:
        """One query."""
        people = sorted(set(identities))
        if not people:
            return []
        query = (
            select(RES)
            .join(T, T.c.id == RES.c.table_id)
            .where(RES.c.identity_id.in_(people), T.c.status.not_in(list(LIVE_STATUSES)))
        )
        if since is not None:
            query = query.where(RES.c.ended_at >= since)
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(RES.c.ended_at.desc()).limit(limit))).all()
        return [_result(r) for r in rows]

    async def results_at(self, table_id: str) -> list[ResultRow]:
        """The table's results."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(RES).where(RES.c.table_id == table_id).order_by(RES.c.seat)
                )
            ).all()
        return [_result(r) for r in rows]

    async def totals_of(self, identity_id: str) -> dict[str, int]:
        """Counts of each outcome, rounds and basras over finished tables."""
        outcomes = ("win", "loss", "draw", "forfeit")
        columns = [
            func.coalesce(func.sum(case((RES.c.outcome == name, 1), else_=0)), 0).label(name)
            for name in outcomes
        ]
        columns.append(func.coalesce(func.sum(RES.c.rounds), 0).label("rounds"))
        columns.append(func.coalesce(func.sum(RES.c.basras), 0).label("basras"))
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(*columns)
                    .select_from(RES.join(T, T.c.id == RES.c.table_id))
                    .where(RES.c.identity_id == identity_id, T.c.status.not_in(list(LIVE_STATUSES)))
                )
            ).one()
        return {name: int(row._mapping[name]) for name in (*outcomes, "rounds", "basras")}

    async def leaderboard(self, family: str, kind: str, limit: int = 100) -> list[LeaderRow]:
        """The pool's ratings of live identities with accounts, by ``mu - 3 sigma``."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(RAT, ACC.c.username, IDS.c.name)
                    .join(ACC, ACC.c.identity_id == RAT.c.identity_id)
                    .join(IDS, IDS.c.id == RAT.c.identity_id)
                    .where(RAT.c.family == family, RAT.c.kind == kind, IDS.c.revoked_at.is_(None))
                    .order_by((RAT.c.mu - 3 * RAT.c.sigma).desc(), ACC.c.username)
                    .limit(limit)
                )
            ).all()
        return [LeaderRow(_rating(r), r.username, r.name) for r in rows]


async def _account_taken(conn: AsyncConnection, account: AccountRow) -> str | None:
    mine = await conn.execute(
        select(ACC.c.identity_id).where(ACC.c.identity_id == account.identity)
    )
    if mine.first() is not None:
        return "identity"
    theirs = await conn.execute(
        select(ACC.c.identity_id).where(ACC.c.username_key == account.username_key)
    )
    return "username" if theirs.first() is not None else None


async def _ratings_in(
    conn: AsyncConnection, family: str, kind: str, identities: Sequence[str]
) -> dict[str, RatingRow]:
    if not identities:
        return {}
    rows = (
        await conn.execute(
            select(RAT).where(
                RAT.c.family == family, RAT.c.kind == kind, RAT.c.identity_id.in_(list(identities))
            )
        )
    ).all()
    return {r.identity_id: _rating(r) for r in rows}


async def _write_rating(conn: AsyncConnection, rating: RatingRow, before: RatingRow | None) -> None:
    """Insert a new rating, or update one only if it is still as it was read."""
    values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games}
    if before is None:
        # Someone else's insert of the same row fails the primary key: tried again.
        await conn.execute(
            RAT.insert().values(
                identity_id=rating.identity,
                family=rating.family,
                kind=rating.kind,
                updated_at=rating.updated_at,
                **values,
            )
        )
        return
    result = await conn.execute(
        update(RAT)
        .where(
            RAT.c.identity_id == rating.identity,
            RAT.c.family == rating.family,
            RAT.c.kind == rating.kind,
            RAT.c.games == before.games,
        )
        .values(updated_at=rating.updated_at, **values)
    )
    if not result.rowcount:
        raise _ChangedError


def _account(row: Any) -> AccountRow:
    return AccountRow(
        identity=row.identity_id,
        username=row.username,
        username_key=row.username_key,
        password_hash=row.password_hash,
        created_at=row.created_at,
    )


def _rating(row: Any) -> RatingRow:
    return RatingRow(
        identity=row.identity_id,
        family=row.family,
        kind=row.kind,
        mu=row.mu,
        sigma=row.sigma,
        games=row.games,
        updated_at=row.updated_at,
    )


def _result(row: Any) -> ResultRow:
    return ResultRow(
        table_id=row.table_id,
        identity=row.identity_id,
        seat=row.seat,
        variant=row.variant,
        family=row.family,
        kind=row.kind,
        rated=bool(row.rated),
        outcome=row.outcome,
        place=row.place,
        rounds=row.rounds,
        basras=row.basras,
        score=row.score,
        ended_at=row.ended_at,
        mu_before=row.mu_before,
        sigma_before=row.sigma_before,
        mu_after=row.mu_after,
        sigma_after=row.sigma_after,
        left=bool(row.left_game),
    )
