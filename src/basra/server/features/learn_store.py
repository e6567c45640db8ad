"""The lessons' and puzzles' data (:mod:`basra.server.features.lessons`,
:mod:`basra.server.features.puzzles` and :mod:`basra.server.features.mistakes`): their
rows, their repositories' protocols, their tables and the repositories in SQL.

Lessons keep one ``lesson_steps`` row per person, course and step done. Puzzles keep
``puzzlers`` (a person's puzzle rating, openskill's mu and sigma, and streaks),
``puzzle_ratings`` (a puzzle's rating as tries move it), ``puzzle_tries`` (a
person's first try at a puzzle: only it is rated), ``mined_puzzles`` (puzzles
mined from people's reviewed games, as ``basra-puzzle/1`` lines, with the person
whose mistake each was) and ``puzzle_mining`` (where each game's mining stands, in the
store's :class:`~basra.server.store.rows.ReviewStatus`). The tables are declared on the
schema's one :data:`~basra.server.store.sql.schema.metadata` (migration ``v0006_learn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.rows import ReviewStatus
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.jobrows import JobRows
from basra.server.store.sql.schema import metadata

__all__ = [
    "LessonStepRow",
    "LessonStore",
    "MinedPuzzleRow",
    "MiningRow",
    "PuzzleRatingRow",
    "PuzzleStore",
    "PuzzleTryRow",
    "PuzzlerRow",
    "SqlLessons",
    "SqlPuzzles",
]

# ---------------------------------------------------------------------- rows


@dataclass(frozen=True)
class LessonStepRow:
    """One step of one course a person has done (:mod:`basra.server.features.lessons`)."""

    identity: str
    course: str
    """The course's key: the preset's name, or ``variant+hash`` for custom rules."""
    step: str
    done_at: float


@dataclass(frozen=True)
class PuzzlerRow:
    """A person's puzzle rating (openskill's mu and sigma) and streaks."""

    identity: str
    mu: float
    sigma: float
    tries: int = 0
    """Rated tries (first tries at puzzles): also the row's version."""
    solved: int = 0
    streak: int = 0
    """Puzzles solved in a row (first tries), up to now."""
    best_streak: int = 0
    updated_at: float = 0.0


@dataclass(frozen=True)
class PuzzleRatingRow:
    """A puzzle's rating as people's tries move it (openskill's mu and sigma)."""

    puzzle_id: str
    mu: float
    sigma: float
    tries: int = 0
    """Rated tries at it: also the row's version."""
    solved: int = 0


@dataclass(frozen=True)
class PuzzleTryRow:
    """A person's first try at a puzzle (only the first is kept, and only it is rated)."""

    identity: str
    puzzle_id: str
    move: str
    correct: bool
    at: float
    rating_before: float
    """The person's shown puzzle rating before and after the try."""
    rating_after: float


@dataclass(frozen=True)
class MinedPuzzleRow:
    """A puzzle mined from a person's reviewed game: a decision where they missed the
    answer (``identity``, at ``seat``), as its ``basra-puzzle/1`` line."""

    puzzle_id: str
    line: str
    table_id: str
    seat: int
    identity: str | None
    variant: str
    theme: str
    rating: int
    """The puzzle's first rating (its line's)."""
    created_at: float


@dataclass(frozen=True)
class MiningRow:
    """Where the mining of a reviewed game for its people's mistakes stands."""

    table_id: str
    status: ReviewStatus
    found: int = 0
    error: str | None = None
    updated_at: float = 0.0


# ---------------------------------------------------------------- repository


class LessonStore(Protocol):
    """The lessons each person has done: steps per course."""

    async def done(self, identity: str) -> list[LessonStepRow]:
        """Every step the person has done, in every course."""

    async def mark(self, identity: str, course: str, step: str, now: float) -> bool:
        """Note a step done (True when it is new; doing it again changes nothing)."""


class PuzzleStore(Protocol):
    """Puzzle ratings, tries, the puzzles mined from people's games, and the mining jobs.

    :meth:`record_try` stores a person's first try at a puzzle together with the
    ratings it leads to, in one transaction, and only if neither rating changed since
    it was read (its ``tries`` is its version): two tries at once never lose one.
    """

    async def puzzler(self, identity: str) -> PuzzlerRow | None:
        """A person's puzzle rating and streaks, or None before their first rated try."""

    async def ratings(self, puzzle_ids: Sequence[str]) -> dict[str, PuzzleRatingRow]:
        """The puzzles' ratings (those no one has tried are left out)."""

    async def tries(self, identity: str, puzzle_ids: Sequence[str]) -> dict[str, PuzzleTryRow]:
        """The person's first tries at these puzzles."""

    async def tried(self, identity: str) -> set[str]:
        """Every puzzle the person has tried."""

    async def recent_tries(self, identity: str, limit: int = 20) -> list[PuzzleTryRow]:
        """The person's newest first tries, newest first."""

    async def record_try(
        self,
        attempt: PuzzleTryRow,
        person: PuzzlerRow,
        puzzle: PuzzleRatingRow,
        person_tries: int | None,
        puzzle_tries: int | None,
    ) -> bool:
        """Store a first try and the two ratings it leads to, in one transaction.

        ``person_tries`` and ``puzzle_tries`` are the rows' ``tries`` as read (None: no
        row yet). False, and nothing stored, when the person tried the puzzle already
        or either row changed meanwhile (read them again and retry).
        """

    async def add_mined(self, rows: Sequence[MinedPuzzleRow]) -> int:
        """Keep mined puzzles (one already kept is left as it is); how many are new."""

    async def mined(self, puzzle_id: str) -> MinedPuzzleRow | None:
        """A mined puzzle by id, or None."""

    async def mistakes_of(self, identity: str, limit: int = 100) -> list[MinedPuzzleRow]:
        """The puzzles mined from the person's mistakes, newest first."""

    async def mined_pool(
        self, limit: int = 500, before: float | None = None
    ) -> list[MinedPuzzleRow]:
        """The newest mined puzzles of everyone (mined before ``before``, when given),
        newest first."""

    async def request_mining(self, table_id: str, now: float) -> bool:
        """Queue a game's mining (True when queued now: new, or failed before)."""

    async def claim_mining(self, table_id: str, now: float, stale: float) -> bool:
        """Queued (or running without progress for ``stale`` seconds) to running, in one
        step: True when this caller has it."""

    async def touch_mining(self, table_id: str, now: float) -> None:
        """Note that a running mining job is making progress (so it is not taken over)."""

    async def finish_mining(self, table_id: str, found: int, now: float) -> None:
        """Mark a game mined, with the number of puzzles found."""

    async def fail_mining(self, table_id: str, error: str, now: float) -> None:
        """Mark a game's mining failed (it may be queued again)."""

    async def requeue_mining(self, table_id: str, now: float) -> None:
        """Put a running mining job back in the queue (its process is stopping)."""

    async def mining(self, table_ids: Sequence[str]) -> dict[str, MiningRow]:
        """The mining rows of these games (games never queued are left out)."""

    async def unfinished_mining(self) -> list[str]:
        """The games whose mining is queued or running."""


# -------------------------------------------------------------------- tables


lesson_steps = Table(
    "lesson_steps",
    metadata,
    Column("identity_id", String(64), ForeignKey("identities.id"), primary_key=True),
    Column("course", String(80), primary_key=True),
    Column("step", String(32), primary_key=True),
    Column("done_at", Float, nullable=False),
)

puzzlers = Table(
    "puzzlers",
    metadata,
    Column("identity_id", String(64), ForeignKey("identities.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("streak", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

puzzle_tries = Table(
    "puzzle_tries",
    metadata,
    Column("identity_id", String(64), ForeignKey("identities.id"), primary_key=True),
    Column("puzzle_id", String(16), primary_key=True),
    Column("move", String(48), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
)
Index("ix_puzzle_tries_identity_at", puzzle_tries.c.identity_id, puzzle_tries.c.at)

mined_puzzles = Table(
    "mined_puzzles",
    metadata,
    Column("puzzle_id", String(16), primary_key=True),
    Column("line", Text, nullable=False),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("identity_id", String(64), nullable=True),
    Column("variant", String(40), nullable=False),
    Column("theme", String(24), nullable=False),
    Column("rating", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_mined_puzzles_identity_id", mined_puzzles.c.identity_id)
Index("ix_mined_puzzles_created_at", mined_puzzles.c.created_at)

puzzle_mining = Table(
    "puzzle_mining",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("found", Integer, nullable=False, server_default="0"),
    Column("error", Text, nullable=True),
    Column("updated_at", Float, nullable=False),
)
Index("ix_puzzle_mining_status", puzzle_mining.c.status)


# -------------------------------------------------------------------- in SQL


L, P, R, T = lesson_steps, puzzlers, puzzle_ratings, puzzle_tries
M, J = mined_puzzles, puzzle_mining
QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class _ConflictError(Exception):
    """A row changed since it was read: the transaction is rolled back."""


class SqlLessons:
    """:class:`LessonStore` in SQL."""

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
    """:class:`PuzzleStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        self.jobs = JobRows(db, J)

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
        """Queued, or running and stale, to running (:meth:`JobRows.claim`)."""
        return await self.jobs.claim(table_id, now, stale)

    async def _set(self, table_id: str, **values: Any) -> None:
        await self.jobs.set(table_id, **values)

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
        await self.jobs.requeue(table_id, now)

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
        return await self.jobs.unfinished()
