"""Lessons done, puzzle ratings and tries, mined puzzles and mining jobs, in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.rows import (
    LessonStepRow,
    MinedPuzzleRow,
    MiningRow,
    PuzzleRatingRow,
    PuzzlerRow,
    PuzzleTryRow,
    ReviewStatus,
)
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlLessons", "SqlPuzzles"]

L, P, R, T = schema.lesson_steps, schema.puzzlers, schema.puzzle_ratings, schema.puzzle_tries
M, J = schema.mined_puzzles, schema.puzzle_mining
QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class _ConflictError(Exception):
    """A row changed since it was read: the transaction is rolled back."""


class SqlLessons:
    """:class:`~basra.server.store.protocols.LessonStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def done(self, identity: str) -> list[LessonStepRow]:
        """The person's steps, oldest first."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(L).where(L.c.identity_id == identity).order_by(L.c.done_at)
            )
            return [LessonStepRow(r.identity_id, r.course, r.step, r.done_at) for r in rows]

    async def mark(self, identity: str, course: str, step: str, now: float) -> bool:
        """Insert unless there (the primary key decides)."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(
                    L.insert().values(identity_id=identity, course=course, step=step, done_at=now)
                )
        except IntegrityError:
            return False
        return True


def _puzzler(r: Any) -> PuzzlerRow:
    return PuzzlerRow(
        r.identity_id, r.mu, r.sigma, r.tries, r.solved, r.streak, r.best_streak, r.updated_at
    )


def _try(r: Any) -> PuzzleTryRow:
    return PuzzleTryRow(
        r.identity_id, r.puzzle_id, r.move, bool(r.correct), r.at, r.rating_before, r.rating_after
    )


def _mined(r: Any) -> MinedPuzzleRow:
    return MinedPuzzleRow(
        r.puzzle_id,
        r.line,
        r.table_id,
        r.seat,
        r.identity_id,
        r.variant,
        r.theme,
        r.rating,
        r.created_at,
    )


async def _put_versioned(
    conn: AsyncConnection, table: Any, key: Any, values: dict[str, Any], version: int | None
) -> None:
    """Insert the row (``version`` None) or update it where its ``tries`` is still
    ``version``; :class:`_ConflictError` when another writer came first."""
    if version is None:
        await conn.execute(insert(table).values(**values))
        return
    result = await conn.execute(update(table).where(key, table.c.tries == version).values(**values))
    if result.rowcount != 1:
        raise _ConflictError


class SqlPuzzles:
    """:class:`~basra.server.store.protocols.PuzzleStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def puzzler(self, identity: str) -> PuzzlerRow | None:
        """One lookup by the primary key."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(P).where(P.c.identity_id == identity))).first()
        return _puzzler(row) if row is not None else None

    async def ratings(self, puzzle_ids: Sequence[str]) -> dict[str, PuzzleRatingRow]:
        """One query."""
        if not puzzle_ids:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(R).where(R.c.puzzle_id.in_(list(puzzle_ids))))
            return {
                r.puzzle_id: PuzzleRatingRow(r.puzzle_id, r.mu, r.sigma, r.tries, r.solved)
                for r in rows
            }

    async def tries(self, identity: str, puzzle_ids: Sequence[str]) -> dict[str, PuzzleTryRow]:
        """One query."""
        if not puzzle_ids:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(T).where(T.c.identity_id == identity, T.c.puzzle_id.in_(list(puzzle_ids)))
            )
            return {r.puzzle_id: _try(r) for r in rows}

    async def tried(self, identity: str) -> set[str]:
        """The ids only."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(T.c.puzzle_id).where(T.c.identity_id == identity))
            return {str(r) for r in rows.scalars()}

    async def recent_tries(self, identity: str, limit: int = 20) -> list[PuzzleTryRow]:
        """Newest first, by the (identity, at) index."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(T).where(T.c.identity_id == identity).order_by(T.c.at.desc()).limit(limit)
            )
            return [_try(r) for r in rows]

    async def record_try(
        self,
        attempt: PuzzleTryRow,
        person: PuzzlerRow,
        puzzle: PuzzleRatingRow,
        person_tries: int | None,
        puzzle_tries: int | None,
    ) -> bool:
        """One transaction: the try (its primary key: once), then both ratings, each
        only where its version is still the one read."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(
                    T.insert().values(
                        identity_id=attempt.identity,
                        puzzle_id=attempt.puzzle_id,
                        move=attempt.move,
                        correct=attempt.correct,
                        at=attempt.at,
                        rating_before=attempt.rating_before,
                        rating_after=attempt.rating_after,
                    )
                )
                await _put_versioned(
                    conn,
                    P,
                    P.c.identity_id == person.identity,
                    {
                        "identity_id": person.identity,
                        "mu": person.mu,
                        "sigma": person.sigma,
                        "tries": person.tries,
                        "solved": person.solved,
                        "streak": person.streak,
                        "best_streak": person.best_streak,
                        "updated_at": person.updated_at,
                    },
                    person_tries,
                )
                await _put_versioned(
                    conn,
                    R,
                    R.c.puzzle_id == puzzle.puzzle_id,
                    {
                        "puzzle_id": puzzle.puzzle_id,
                        "mu": puzzle.mu,
                        "sigma": puzzle.sigma,
                        "tries": puzzle.tries,
                        "solved": puzzle.solved,
                    },
                    puzzle_tries,
                )
        except (IntegrityError, _ConflictError):
            return False
        return True

    async def add_mined(self, rows: Sequence[MinedPuzzleRow]) -> int:
        """Insert each (one already kept is skipped)."""
        new = 0
        for row in rows:
            try:
                async with self.db.engine.begin() as conn:
                    await conn.execute(
                        M.insert().values(
                            puzzle_id=row.puzzle_id,
                            line=row.line,
                            table_id=row.table_id,
                            seat=row.seat,
                            identity_id=row.identity,
                            variant=row.variant,
                            theme=row.theme,
                            rating=row.rating,
                            created_at=row.created_at,
                        )
                    )
                new += 1
            except IntegrityError:
                continue
        return new

    async def mined(self, puzzle_id: str) -> MinedPuzzleRow | None:
        """One lookup by the primary key."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(M).where(M.c.puzzle_id == puzzle_id))).first()
        return _mined(row) if row is not None else None

    async def mistakes_of(self, identity: str, limit: int = 100) -> list[MinedPuzzleRow]:
        """By the identity's index, newest first."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(M)
                .where(M.c.identity_id == identity)
                .order_by(M.c.created_at.desc())
                .limit(limit)
            )
            return [_mined(r) for r in rows]

    async def mined_pool(
        self, limit: int = 500, before: float | None = None
    ) -> list[MinedPuzzleRow]:
        """By the time index, newest first."""
        query = select(M)
        if before is not None:
            query = query.where(M.c.created_at < before)
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(query.order_by(M.c.created_at.desc()).limit(limit))
            return [_mined(r) for r in rows]

    async def request_mining(self, table_id: str, now: float) -> bool:
        """Insert a queued row, or queue a failed one again."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(
                    J.insert().values(table_id=table_id, status=QUEUED, found=0, updated_at=now)
                )
            return True
        except IntegrityError:
            pass
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(J)
                .where(J.c.table_id == table_id, J.c.status == FAILED)
                .values(status=QUEUED, error=None, updated_at=now)
            )
        return bool(result.rowcount)

    async def claim_mining(self, table_id: str, now: float, stale: float) -> bool:
        """One UPDATE: queued, or running and stale, to running."""
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(J)
                .where(
                    J.c.table_id == table_id,
                    or_(
                        J.c.status == QUEUED,
                        and_(J.c.status == RUNNING, J.c.updated_at < now - stale),
                    ),
                )
                .values(status=RUNNING, updated_at=now)
            )
        return bool(result.rowcount)

    async def _set(self, table_id: str, **values: Any) -> None:
        async with self.db.engine.begin() as conn:
            await conn.execute(update(J).where(J.c.table_id == table_id).values(**values))

    async def touch_mining(self, table_id: str, now: float) -> None:
        """A new ``updated_at``."""
        await self._set(table_id, updated_at=now)

    async def finish_mining(self, table_id: str, found: int, now: float) -> None:
        """Done, with the count."""
        await self._set(table_id, status=DONE, found=found, updated_at=now)

    async def fail_mining(self, table_id: str, error: str, now: float) -> None:
        """Failed, with why."""
        await self._set(table_id, status=FAILED, error=error, updated_at=now)

    async def requeue_mining(self, table_id: str, now: float) -> None:
        """Running back to queued."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(J)
                .where(J.c.table_id == table_id, J.c.status == RUNNING)
                .values(status=QUEUED, updated_at=now)
            )

    async def mining(self, table_ids: Sequence[str]) -> dict[str, MiningRow]:
        """One query."""
        if not table_ids:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(J).where(J.c.table_id.in_(list(table_ids))))
            return {
                r.table_id: MiningRow(
                    r.table_id, ReviewStatus(r.status), r.found, r.error, r.updated_at
                )
                for r in rows
            }

    async def unfinished_mining(self) -> list[str]:
        """Queued and running."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(J.c.table_id).where(J.c.status.in_([QUEUED, RUNNING])).limit(10_000)
            )
            return [str(r) for r in rows.scalars()]
