"""The repositories of the store: one protocol for each kind of thing the server keeps.

Each part of the server depends on the repositories it needs, never on the
whole store: the table master on :class:`TableStore`, identities on
:class:`IdentityStore`, quick play on :class:`SeekStore` and
:class:`LeaseStore`, and so on. :class:`~basra.server.stores.Store` gathers them, with the
repositories of the features that own their data, around one engine
(:mod:`basra.server.store.sql`: SQLAlchemy on SQLite, in a file or in
memory, or PostgreSQL), so a step that spans two of them (seating
a quick-play group creates its table; revoking an identity revokes its bots)
is still one transaction.

Every transition that must not be torn by a crash is one call, one
transaction: :meth:`TableStore.append` stores a play together with the status
it leads to, :meth:`TableStore.claim_seat` seats a person and starts the table
when that was the last open seat, :meth:`TableStore.create` counts a table's
caps and inserts it. An append fails (returns ``False``) when another writer
already took that step, so the log can never fork.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from basra.server.store.rows import (
    LIVE_STATUSES,
    AccountRow,
    AttemptRow,
    BotRow,
    Cap,
    Claim,
    DeviceRow,
    Event,
    GameSummary,
    IdentityRow,
    LeaderRow,
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
    Revoked,
    SanctionRow,
    SeekRow,
    Settle,
    Settlement,
    Status,
    TableRow,
    TableStatus,
)

__all__ = [
    "BotStore",
    "DailyStore",
    "IdentityStore",
    "LeaseStore",
    "LessonStore",
    "ModerationStore",
    "PlayerStore",
    "PuzzleStore",
    "ReviewStore",
    "SecretStore",
    "SeekStore",
    "TableStore",
]


class TableStore(Protocol):
    """Tables, their seats and their event logs."""

    async def create(
        self, table: TableRow, caps: Sequence[Cap] = (), events: Sequence[Event] = ()
    ) -> None:
        """Store a new table and its seats, if each cap still has room once it is counted.

        The count and the insert are one transaction, serialised with every other
        creation under the same caps (in every process): two requests at once never
        both take the last place. ``events`` is the log of a game played elsewhere
        (an offline game), stored in the same transaction. Raises
        :class:`~basra.server.store.rows.CapReachedError` naming the full cap, or
        ValueError if the id is taken.
        """

    async def load(self, table_id: str) -> TableRow | None:
        """A table's settings and seats, or None."""

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The table's events with ``seq >= since``, in order."""

    async def append(self, table_id: str, event: Event, status: Status | None = None) -> bool:
        """Store the next event, and with it ``status`` when given, in one transaction.

        False if that ``seq`` is taken (another writer won); then nothing is written.
        """

    async def extend(self, table_id: str, events: Sequence[Event], status: Status) -> bool:
        """Store the next events of a game played elsewhere and the status they lead to, in
        one transaction; False (nothing written) if the first one's ``seq`` is taken."""

    async def claim_seat(self, table_id: str, seat: int, identity: str, name: str) -> Claim:
        """Sit a person in an open seat; if it was the last, start the table (one transaction)."""

    async def rename_seat(self, table_id: str, seat: int, identity: str, name: str) -> None:
        """Change the name of the person in a seat (only their own)."""

    async def set_status(self, table_id: str, status: Status) -> None:
        """Record where a table stands outside a play (abandoned, repaired)."""

    async def set_fault(self, table_id: str, fault: str | None) -> None:
        """Mark (or clear) why the table's automatic actions stopped."""

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Link a rematch once: returns the rematch id now stored (the first one wins)."""

    async def games_of(self, identity: str, limit: int = 50) -> list[GameSummary]:
        """The tables a person sat at, newest first."""

    async def find(
        self, statuses: Sequence[TableStatus], limit: int = 50, *, private: bool = True
    ) -> list[TableRow]:
        """Tables in one of ``statuses``, newest first (``private=False``: no private tables,
        daily attempts among them)."""

    async def count(
        self,
        *,
        created_by: str | None = None,
        created_from: str | None = None,
        all_bots: bool | None = None,
        statuses: Sequence[TableStatus] = LIVE_STATUSES,
    ) -> int:
        """How many tables in ``statuses`` match every filter given."""

    async def rated_in_play(self, identity: str) -> str | None:
        """A rated table in play where the identity sits (the newest), or None."""

    async def unsettled(self, limit: int = 1000) -> list[str]:
        """Finished tables whose results are not recorded (a crash came between)."""


class IdentityStore(Protocol):
    """Identities, their devices and transfer codes."""

    async def create(self, identity: IdentityRow) -> None:
        """Store a new identity."""

    async def load(self, identity_id: str) -> IdentityRow | None:
        """An identity by id, or None."""

    async def load_many(self, identity_ids: Sequence[str]) -> dict[str, IdentityRow]:
        """The identities of those ids that exist, by id."""

    async def claim_legacy(self, identity_id: str) -> bool:
        """Clear the ``legacy`` mark of an identity: True for the one caller that did."""

    async def name(self, identity_id: str, name: str) -> None:
        """Remember the name an identity last used."""

    async def add_device(self, device: DeviceRow, token_hash: str) -> None:
        """Sign a device in (its token stored as ``token_hash``)."""

    async def device_by_token(self, token_hash: str) -> tuple[DeviceRow, IdentityRow] | None:
        """The live device of a token and its identity; None if unknown or revoked."""

    async def touch_device(self, device_id: str, now: float) -> None:
        """Note that a device was seen."""

    async def devices_of(self, identity_id: str) -> list[DeviceRow]:
        """An identity's devices that are still signed in, newest first."""

    async def revoke_devices(
        self, identity_id: str, device_ids: Sequence[str], now: float
    ) -> list[str]:
        """Sign out those of the identity's devices, with the transfer codes they made;
        returns the ids signed out."""

    async def revoke(self, identity_id: str, now: float) -> Revoked:
        """Revoke an identity with all its devices, transfer codes and bot accounts
        (one transaction); returns the devices and bots it ended."""

    async def add_transfer(
        self, code_hash: str, identity_id: str, device_id: str, now: float, expires_at: float
    ) -> None:
        """Store a transfer code (as its hash), made on ``device_id``."""

    async def find_transfer(self, code_hash: str, now: float) -> str | None:
        """The identity of an unused, unexpired transfer code whose device is still
        signed in, or None."""

    async def use_transfer(self, code_hash: str, now: float) -> str | None:
        """Use a transfer code once (valid as for :meth:`find_transfer`): its identity for
        the one caller that did, else None."""


class PlayerStore(Protocol):
    """Accounts, ratings and results."""

    async def create_account(self, account: AccountRow) -> str | None:
        """Store an account; None when stored, else what was taken: ``username`` or ``identity``."""

    async def account_by_username(self, username_key: str) -> AccountRow | None:
        """The account of a username (its lowercase key), or None."""

    async def account_of(self, identity_id: str) -> AccountRow | None:
        """The account of an identity, or None (a guest)."""

    async def accounts_of(self, identities: Sequence[str]) -> dict[str, AccountRow]:
        """The accounts of some identities (those that have one)."""

    async def set_password_hash(self, identity_id: str, password_hash: str) -> None:
        """Replace an account's hash (a rehash with newer parameters)."""

    async def ratings_of(self, identity_id: str) -> list[RatingRow]:
        """An identity's ratings, in every pool it played."""

    async def ratings_in(
        self, family: str, kind: str, identities: Sequence[str]
    ) -> dict[str, RatingRow]:
        """The ratings of some identities in one pool (those that have one)."""

    async def settle_game(
        self,
        table_id: str,
        family: str,
        kind: str,
        identities: Sequence[str],
        now: float,
        settle: Settle,
    ) -> Settlement | None:
        """Record a game's results and ratings once (one transaction); None if already settled."""

    async def results_of(self, identity_id: str, limit: int = 50) -> list[ResultRow]:
        """A person's results of games no longer in play, newest first."""

    async def results_at(self, table_id: str) -> list[ResultRow]:
        """The results recorded for one table."""

    async def totals_of(self, identity_id: str) -> dict[str, int]:
        """A person's games no longer in play: how many of each outcome, rounds and basras."""

    async def leaderboard(self, family: str, kind: str, limit: int = 100) -> list[LeaderRow]:
        """The pool's rated people with accounts, by ``mu - 3 sigma``, best first."""


class SeekStore(Protocol):
    """The quick-play pool: one seek per identity, shared by every server process."""

    async def put(self, seek: SeekRow) -> None:
        """Store a seek, replacing the identity's previous one (one per identity)."""

    async def of_identity(self, identity: str) -> SeekRow | None:
        """The identity's seek (waiting, away or recently matched), or None."""

    async def get(self, tickets: Sequence[str]) -> list[SeekRow]:
        """The seeks of those tickets that still exist."""

    async def waiting(self) -> list[SeekRow]:
        """Every seek not yet seated, oldest first."""

    async def touch(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Say that those seeks' connections (``holders``, in order) are still there."""

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Mark a seek away (its connection ``holder`` dropped), or back (None)."""

    async def drop(self, tickets: Sequence[str]) -> None:
        """Remove seeks (left the pool, or done with)."""

    async def sweep(self, seen_before: float, away_before: float, matched_before: float) -> int:
        """Remove seeks nobody holds (not seen since ``seen_before``, away since before
        ``away_before``) and seated ones older than ``matched_before``; how many went."""

    async def seat(
        self, seats: Mapping[str, int], table: TableRow, now: float, caps: Sequence[Cap] = ()
    ) -> bool:
        """Seat waiting seeks (ticket -> seat) at a new table within its caps (counted as
        :meth:`TableStore.create` counts them), in one transaction.

        False (and nothing written) if any of them is no longer waiting and present;
        :class:`~basra.server.store.rows.CapReachedError` when a cap is full.
        """

    async def pool_counts(self, seen_after: float) -> dict[tuple[str, int, bool], int]:
        """How many are waiting (present, seen since ``seen_after``) in each pool."""


class LeaseStore(Protocol):
    """Named leases: one process at a time does a job (quick play's pairing, say, or
    driving a live table: :mod:`basra.server.table.ownership`)."""

    async def take(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Hold the lease ``name`` for ``ttl`` seconds if it is free, expired or ours."""

    async def renew(self, holder: str, names: Sequence[str], now: float, ttl: float) -> set[str]:
        """Hold for ``ttl`` seconds more those of ``names`` that ``holder`` holds still (in
        one statement, however many); returns them (one missing was lost: it expired and
        another took it)."""

    async def release(self, holder: str, names: Sequence[str]) -> None:
        """Let go of those of ``names`` that ``holder`` holds (another may take them at once)."""

    async def held(
        self, prefix: str, expired_before: float | None = None
    ) -> dict[str, tuple[str, float]]:
        """Every lease whose name starts with ``prefix`` (only those that expired before
        ``expired_before``, when given): its holder and until when."""


class SecretStore(Protocol):
    """Server secrets, made once and kept."""

    async def get_or_make(self, name: str, fresh: bytes) -> bytes:
        """The secret ``name``, stored as ``fresh`` the first time (the first writer wins)."""


class DailyStore(Protocol):
    """The daily deal's attempts: one per identity and deal."""

    async def start_attempt(
        self, attempt: AttemptRow, table: TableRow, caps: Sequence[Cap] = ()
    ) -> AttemptRow:
        """Create the attempt and its table within its caps (counted as
        :meth:`TableStore.create` counts them), in one transaction.

        If the identity already has an attempt at that deal, nothing is written
        and that one is returned.
        """

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """An identity's attempt at a deal, or None."""

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """The attempt played at a table, or None (not a daily table)."""

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """Every attempt at a deal, oldest first."""


class BotStore(Protocol):
    """Bot accounts: an identity of their own, an owner, a token kept as its hash."""

    async def create(self, bot: BotRow, token_hash: str) -> bool:
        """Store a bot account and its identity; False if its name is taken."""

    async def by_token(self, token_hash: str) -> BotRow | None:
        """The live bot of a token (its owner live too), or None."""

    async def by_name(self, name_key: str) -> BotRow | None:
        """The live bot of a name (its case-folded key), or None."""

    async def of_owner(self, owner: str) -> list[BotRow]:
        """A person's live bots, oldest first."""

    async def set_token(self, identity: str, token_hash: str) -> None:
        """Replace a bot's token."""

    async def revoke(self, identity: str, now: float) -> None:
        """Revoke a bot account (its token stops working)."""


class ReviewStore(Protocol):
    """The ``reviews`` rows: each finished game's review job and result."""

    async def load(self, table_id: str) -> ReviewRow | None:
        """A game's review row, or None."""

    async def request(self, table_id: str, identity: str | None, now: float) -> bool:
        """Queue a review: a new row, or a failed one again. False when one is already
        queued, running or done (nothing changes)."""

    async def claim(self, table_id: str, now: float, stale: float) -> bool:
        """Take a queued review (or a running one with no progress for ``stale`` seconds)
        to work it out: True for the one caller that did."""

    async def progress(self, table_id: str, done: int, total: int, now: float) -> None:
        """Record how many decisions are done."""

    async def finish(
        self, table_id: str, data: str, now: float, accuracy: str | None = None
    ) -> None:
        """Store the finished review (and each seat's accuracy, a JSON list)."""

    async def accuracies(self, table_ids: list[str]) -> dict[str, list[float | None]]:
        """Each seat's accuracy in the done reviews of these games (others are left out)."""

    async def fail(self, table_id: str, error: str, now: float) -> None:
        """Mark the review failed (it may be asked for again)."""

    async def requeue(self, table_id: str, now: float) -> None:
        """Put a running review back in the queue (its process is stopping)."""

    async def pending(self, identity: str) -> int:
        """How many of a person's reviews are queued or running."""

    async def unfinished(self) -> list[str]:
        """The games whose reviews are queued or running."""


class ModerationStore(Protocol):
    """Reports of players, and sanctions on identities."""

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

    async def sanction(self, row: SanctionRow) -> None:
        """Suspend or ban an identity (replacing a sanction it had)."""

    async def lift(self, identity: str) -> bool:
        """End an identity's sanction; False if it had none."""

    async def sanction_of(self, identity: str, now: float) -> SanctionRow | None:
        """The sanction in force on an identity now (a suspension ended is none)."""


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
