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

from collections.abc import Sequence
from typing import Protocol

from basra.server.store.rows import (
    LIVE_STATUSES,
    AccountRow,
    Cap,
    Claim,
    DeviceRow,
    Event,
    GameSummary,
    IdentityRow,
    LeaderRow,
    RatingRow,
    ResultRow,
    Revoked,
    SanctionRow,
    Settle,
    Settlement,
    Status,
    TableRow,
    TableStatus,
)

__all__ = [
    "IdentityStore",
    "LeaseStore",
    "PlayerStore",
    "SanctionStore",
    "SecretStore",
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

    async def rated_in_play(self, identity: str, below: int | None = None) -> str | None:
        """A rated table in play where the identity sits (the newest), or None; ``below``:
        only tables without a clock or whose move is shorter (turn-based ones left out)."""

    async def clocked_of(self, identity: str, at_least: int, limit: int = 200) -> list[TableRow]:
        """The tables waiting or in play where the identity sits whose clock gives at least
        ``at_least`` seconds a move (the turn-based ones), the most recently moved first."""

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

    async def ratings_of_many(self, identities: Sequence[str]) -> dict[str, list[RatingRow]]:
        """The ratings of some identities, in every pool each played (those with none left
        out)."""

    async def results_among(
        self, identities: Sequence[str], limit: int, since: float | None = None
    ) -> list[ResultRow]:
        """The results of some identities in games no longer in play (ended at ``since``
        or later, when given), newest first, at most ``limit``."""

    async def results_at(self, table_id: str) -> list[ResultRow]:
        """The results recorded for one table."""

    async def totals_of(self, identity_id: str) -> dict[str, int]:
        """A person's games no longer in play: how many of each outcome, rounds and basras."""

    async def leaderboard(self, family: str, kind: str, limit: int = 100) -> list[LeaderRow]:
        """The pool's rated people with accounts, by ``mu - 3 sigma``, best first."""


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


class SanctionStore(Protocol):
    """Sanctions on identities: a suspension until a time, or a ban. Identities check them
    at sign-in; moderation (:mod:`basra.server.features.moderation`) sets and lifts them."""

    async def sanction(self, row: SanctionRow) -> None:
        """Suspend or ban an identity (replacing a sanction it had)."""

    async def lift(self, identity: str) -> bool:
        """End an identity's sanction; False if it had none."""

    async def sanction_of(self, identity: str, now: float) -> SanctionRow | None:
        """The sanction in force on an identity now (a suspension ended is none)."""
