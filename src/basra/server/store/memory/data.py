"""The dicts the memory store keeps, one per kind of row (its "engine")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from basra.server.store.rows import (
    AccountRow,
    AttemptRow,
    BotRow,
    DeviceRow,
    EntrantRow,
    Event,
    IdentityRow,
    LessonStepRow,
    MinedPuzzleRow,
    MiningRow,
    PuzzleRatingRow,
    PuzzlerRow,
    PuzzleTryRow,
    RatingRow,
    ReportRow,
    ResultRow,
    ReviewRow,
    SanctionRow,
    SeekRow,
    TableRow,
    TeamRow,
    TournamentGameRow,
    TournamentRow,
)

__all__ = ["MemoryData", "TournamentData", "Transfer"]


@dataclass
class Transfer:
    """A transfer code as kept (its hash is the key)."""

    identity: str
    device: str
    expires_at: float
    used_at: float | None = None


@dataclass
class TournamentData:
    """One event's rows, each with the version that wrote it."""

    row: TournamentRow
    entrants: dict[str, tuple[int, EntrantRow]] = field(default_factory=dict)
    members: dict[str, str] = field(default_factory=dict)
    """Player key -> entrant id."""
    rounds: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    games: dict[str, tuple[int, TournamentGameRow]] = field(default_factory=dict)


@dataclass
class MemoryData:
    """Everything the memory store holds."""

    tables: dict[str, TableRow] = field(default_factory=dict)
    events: dict[str, list[Event]] = field(default_factory=dict)
    identities: dict[str, IdentityRow] = field(default_factory=dict)
    devices: dict[str, DeviceRow] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    """Device token hash -> device id."""
    transfers: dict[str, Transfer] = field(default_factory=dict)
    accounts: dict[str, AccountRow] = field(default_factory=dict)
    ratings: dict[tuple[str, str, str], RatingRow] = field(default_factory=dict)
    results: dict[tuple[str, str], ResultRow] = field(default_factory=dict)
    seeks: dict[str, SeekRow] = field(default_factory=dict)
    leases: dict[str, tuple[str, float]] = field(default_factory=dict)
    secrets: dict[str, bytes] = field(default_factory=dict)
    attempts: dict[tuple[str, str], AttemptRow] = field(default_factory=dict)
    bots: dict[str, BotRow] = field(default_factory=dict)
    bot_tokens: dict[str, str] = field(default_factory=dict)
    """Bot identity -> its token hash."""
    reviews: dict[str, ReviewRow] = field(default_factory=dict)
    tournaments: dict[str, TournamentData] = field(default_factory=dict)
    teams: dict[str, TeamRow] = field(default_factory=dict)
    """Teams waiting for a partner, by their code's hash."""
    reports: dict[str, ReportRow] = field(default_factory=dict)
    sanctions: dict[str, SanctionRow] = field(default_factory=dict)
    lesson_steps: dict[tuple[str, str, str], LessonStepRow] = field(default_factory=dict)
    """(identity, course, step) -> the step done."""
    puzzlers: dict[str, PuzzlerRow] = field(default_factory=dict)
    puzzle_ratings: dict[str, PuzzleRatingRow] = field(default_factory=dict)
    puzzle_tries: dict[tuple[str, str], PuzzleTryRow] = field(default_factory=dict)
    """(identity, puzzle id) -> the first try."""
    mined_puzzles: dict[str, MinedPuzzleRow] = field(default_factory=dict)
    mining: dict[str, MiningRow] = field(default_factory=dict)

    def add_table(self, table: TableRow, events: list[Event] | None = None) -> None:
        """Insert a table (a copy) with its log (ValueError if the id is taken)."""
        if table.id in self.tables:
            raise ValueError(f"table {table.id!r} exists")
        self.tables[table.id] = table.copy()
        self.events[table.id] = list(events or [])
