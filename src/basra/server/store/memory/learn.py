"""Lessons done, puzzle ratings and tries, mined puzzles and mining jobs, in dicts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from basra.server.store.memory.data import MemoryData
from basra.server.store.rows import (
    LessonStepRow,
    MinedPuzzleRow,
    MiningRow,
    PuzzleRatingRow,
    PuzzlerRow,
    PuzzleTryRow,
    ReviewStatus,
)

__all__ = ["MemoryLessons", "MemoryPuzzles"]

QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


class MemoryLessons:
    """:class:`~basra.server.store.protocols.LessonStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.rows = data.lesson_steps

    async def done(self, identity: str) -> list[LessonStepRow]:
        """The person's steps, oldest first."""
        found = [row for key, row in self.rows.items() if key[0] == identity]
        return sorted(found, key=lambda r: r.done_at)

    async def mark(self, identity: str, course: str, step: str, now: float) -> bool:
        """Insert unless there."""
        key = (identity, course, step)
        if key in self.rows:
            return False
        self.rows[key] = LessonStepRow(identity, course, step, now)
        return True


class MemoryPuzzles:
    """:class:`~basra.server.store.protocols.PuzzleStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def puzzler(self, identity: str) -> PuzzlerRow | None:
        """One lookup."""
        return self.data.puzzlers.get(identity)

    async def ratings(self, puzzle_ids: Sequence[str]) -> dict[str, PuzzleRatingRow]:
        """The rows there are."""
        rows = self.data.puzzle_ratings
        return {i: rows[i] for i in puzzle_ids if i in rows}

    async def tries(self, identity: str, puzzle_ids: Sequence[str]) -> dict[str, PuzzleTryRow]:
        """The person's rows among these."""
        rows = self.data.puzzle_tries
        return {i: rows[identity, i] for i in puzzle_ids if (identity, i) in rows}

    async def tried(self, identity: str) -> set[str]:
        """Every puzzle id the person tried."""
        return {puzzle for who, puzzle in self.data.puzzle_tries if who == identity}

    async def recent_tries(self, identity: str, limit: int = 20) -> list[PuzzleTryRow]:
        """Newest first."""
        mine = [row for (who, _), row in self.data.puzzle_tries.items() if who == identity]
        return sorted(mine, key=lambda r: -r.at)[:limit]

    async def record_try(
        self,
        attempt: PuzzleTryRow,
        person: PuzzlerRow,
        puzzle: PuzzleRatingRow,
        person_tries: int | None,
        puzzle_tries: int | None,
    ) -> bool:
        """All or nothing, checked against the versions read (no await in between)."""
        data = self.data
        if (attempt.identity, attempt.puzzle_id) in data.puzzle_tries:
            return False
        had_person = data.puzzlers.get(person.identity)
        had_puzzle = data.puzzle_ratings.get(puzzle.puzzle_id)
        if (had_person.tries if had_person else None) != person_tries:
            return False
        if (had_puzzle.tries if had_puzzle else None) != puzzle_tries:
            return False
        data.puzzle_tries[attempt.identity, attempt.puzzle_id] = attempt
        data.puzzlers[person.identity] = person
        data.puzzle_ratings[puzzle.puzzle_id] = puzzle
        return True

    async def add_mined(self, rows: Sequence[MinedPuzzleRow]) -> int:
        """Insert the new ones."""
        kept = self.data.mined_puzzles
        new = 0
        for row in rows:
            if row.puzzle_id not in kept:
                kept[row.puzzle_id] = row
                new += 1
        return new

    async def mined(self, puzzle_id: str) -> MinedPuzzleRow | None:
        """One lookup."""
        return self.data.mined_puzzles.get(puzzle_id)

    async def mistakes_of(self, identity: str, limit: int = 100) -> list[MinedPuzzleRow]:
        """The person's, newest first."""
        mine = [r for r in self.data.mined_puzzles.values() if r.identity == identity]
        return sorted(mine, key=lambda r: -r.created_at)[:limit]

    async def mined_pool(
        self, limit: int = 500, before: float | None = None
    ) -> list[MinedPuzzleRow]:
        """Everyone's, newest first."""
        rows = self.data.mined_puzzles.values()
        kept = [r for r in rows if before is None or r.created_at < before]
        return sorted(kept, key=lambda r: -r.created_at)[:limit]

    async def request_mining(self, table_id: str, now: float) -> bool:
        """A new queued row, or a failed one queued again."""
        row = self.data.mining.get(table_id)
        if row is not None and row.status != FAILED:
            return False
        self.data.mining[table_id] = MiningRow(table_id, QUEUED, 0, None, now)
        return True

    async def claim_mining(self, table_id: str, now: float, stale: float) -> bool:
        """Queued (or stale running) to running."""
        row = self.data.mining.get(table_id)
        if row is None or not (
            row.status == QUEUED or (row.status == RUNNING and row.updated_at < now - stale)
        ):
            return False
        self.data.mining[table_id] = replace(row, status=RUNNING, updated_at=now)
        return True

    async def touch_mining(self, table_id: str, now: float) -> None:
        """A new ``updated_at``."""
        row = self.data.mining[table_id]
        self.data.mining[table_id] = replace(row, updated_at=now)

    async def finish_mining(self, table_id: str, found: int, now: float) -> None:
        """Done, with the count."""
        row = self.data.mining[table_id]
        self.data.mining[table_id] = replace(row, status=DONE, found=found, updated_at=now)

    async def fail_mining(self, table_id: str, error: str, now: float) -> None:
        """Failed, with why."""
        row = self.data.mining[table_id]
        self.data.mining[table_id] = replace(row, status=FAILED, error=error, updated_at=now)

    async def requeue_mining(self, table_id: str, now: float) -> None:
        """Running back to queued."""
        row = self.data.mining.get(table_id)
        if row is not None and row.status == RUNNING:
            self.data.mining[table_id] = replace(row, status=QUEUED, updated_at=now)

    async def mining(self, table_ids: Sequence[str]) -> dict[str, MiningRow]:
        """The rows there are."""
        rows = self.data.mining
        return {t: rows[t] for t in table_ids if t in rows}

    async def unfinished_mining(self) -> list[str]:
        """Queued and running."""
        return [r.table_id for r in self.data.mining.values() if r.status in (QUEUED, RUNNING)]
