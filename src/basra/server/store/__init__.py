"""Storage behind one interface: :class:`~basra.server.store.memory.MemoryStore` for
tests and ``--database memory``, :class:`~basra.server.store.sql.SqlStore` for use.

The store keeps table settings, seats and each table's event log (deals and
plays, see :mod:`basra.server.models`), the identities, devices and
transfer codes of :mod:`basra.server.identity`, the accounts, ratings and
results of :mod:`basra.server.store.players`, and the quick-play pool, daily
attempts and bot accounts of :mod:`basra.server.store.play`. It knows nothing
about the rules: the match service replays events through the engine.

Every transition that must not be torn by a crash is one store call, one
transaction: :meth:`TableStore.append_event` stores a play together with the
status it leads to (the final play and ``over``), :meth:`TableStore.claim_seat`
seats a person and starts the table when that was the last open seat. An
append fails (returns ``False``) when another writer already took that step,
so the log can never fork.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from basra.server.store.play import PlayStore
from basra.server.store.players import PlayerStore

__all__ = [
    "Claim",
    "DeviceRow",
    "Event",
    "GameSummary",
    "IdentityRow",
    "IdentityStore",
    "MemoryStore",
    "SeatRow",
    "Status",
    "Store",
    "TableRow",
    "TableStore",
    "open_store",
]

STATUSES: tuple[str, ...] = ("open", "playing", "over", "abandoned")
"""Where a table stands: waiting for people, in play, finished, or given up."""
LIVE_STATUSES: tuple[str, ...] = ("open", "playing")
"""The statuses of a table that still counts against its creator's quota."""


@dataclass(frozen=True)
class SeatRow:
    """One seat of a table: a person's (open while ``identity`` is None) or a bot's."""

    seat: int
    kind: str
    """``"person"`` or ``"bot"``."""
    level: str | None = None
    """The bot level (``easy`` ... ``expert``) for a bot seat."""
    identity: str | None = None
    """The id of the identity sitting here (never sent to clients)."""
    name: str | None = None


@dataclass(frozen=True)
class Event:
    """One step of a table's game: ``deal`` (the pack, card text top first) or ``play``."""

    seq: int
    kind: str
    data: str
    at: float | None = None
    """When it happened (the store's time when not given; read back from the store)."""
    auto: str | None = None
    """For a person's play the server made: ``timeout``, ``stand_in`` or ``forfeited``."""


@dataclass(frozen=True)
class Status:
    """Where a game stands, written with the event that brought it there."""

    status: str
    scores: tuple[int, ...] = ()
    winner: int | None = None


@dataclass(frozen=True)
class Claim:
    """The outcome of :meth:`TableStore.claim_seat`."""

    seated: bool
    """False when someone took the seat first."""
    started: bool
    """True when that was the last open seat: the table is ``playing`` now."""


@dataclass
class TableRow:
    """A table's settings and status, with its seats."""

    id: str
    variant: str
    rules: dict[str, Any]
    players: int
    teams: bool
    first_dealer: int
    hints: bool
    seats: list[SeatRow]
    status: str = "open"
    """One of :data:`STATUSES`."""
    scores: list[int] = field(default_factory=list)
    winner: int | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    created_by: str | None = None
    """The identity that created the table (for quotas; never sent to clients)."""
    created_from: str | None = None
    """The client address it was created from (for quotas; never sent to clients)."""
    fault: str | None = None
    """Why the table's automatic actions stopped, when they failed again and again."""
    rated: bool = False
    """A rated table: its result changes ratings (see :mod:`basra.server.ratings`)."""
    clock_move: int | None = None
    """Seconds a person has for each move (None: no clock; see :mod:`basra.server.clocks`)."""
    clock_reserve: int | None = None
    """Seconds of reserve each person may spend once a move's time is up."""
    settled_at: float | None = None
    """When the game's results (and ratings) were recorded."""
    daily: str | None = None
    """The daily deal this table is an attempt at (:mod:`basra.server.daily`), or None."""

    @property
    def all_bots(self) -> bool:
        """True when every seat is a bot's (people can only watch)."""
        return all(s.kind == "bot" for s in self.seats)

    def copy(self) -> TableRow:
        """A copy whose seat list can be changed on its own."""
        return replace(self, seats=list(self.seats), scores=list(self.scores))


@dataclass(frozen=True)
class GameSummary:
    """A line of a person's list of games."""

    id: str
    variant: str
    players: int
    teams: bool
    status: str
    seat: int
    names: list[str | None]
    scores: list[int]
    winner: int | None
    created_at: float
    updated_at: float
    kinds: list[str] = field(default_factory=list)
    """Each seat's kind (``person`` or ``bot``)."""
    levels: list[str | None] = field(default_factory=list)
    """Each bot seat's level (None for people)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """The table's rule overrides of its variant (empty: the preset as it is)."""


@dataclass(frozen=True)
class IdentityRow:
    """A person as the server knows them: an id, the name they last used, whether revoked."""

    id: str
    created_at: float
    name: str | None = None
    revoked_at: float | None = None
    legacy: bool = False
    """Made from an old browser secret (see the 0002 migration): exchangeable once."""


@dataclass(frozen=True)
class DeviceRow:
    """A device signed in as an identity (its token is stored only as a SHA-256)."""

    id: str
    identity: str
    created_at: float
    last_seen_at: float
    revoked_at: float | None = None
    user_agent: str | None = None


class TableStore(Protocol):
    """What the match service needs from storage for tables and games."""

    async def start(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Release connections."""

    async def create_table(self, table: TableRow) -> None:
        """Store a new table and its seats (ValueError if the id is taken)."""

    async def load_table(self, table_id: str) -> TableRow | None:
        """A table's settings and seats, or None."""

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The table's events with ``seq >= since``, in order."""

    async def append_event(self, table_id: str, event: Event, status: Status | None = None) -> bool:
        """Store the next event, and with it ``status`` when given, in one transaction.

        False if that ``seq`` is taken (another writer won); then nothing is written.
        """

    async def claim_seat(self, table_id: str, seat: int, identity: str, name: str) -> Claim:
        """Sit a person in an open seat; if it was the last, start the table (one transaction)."""

    async def rename(self, table_id: str, seat: int, identity: str, name: str) -> None:
        """Change the name of the person in a seat (only their own)."""

    async def set_status(self, table_id: str, status: Status) -> None:
        """Record where a table stands outside a play (abandoned, repaired)."""

    async def set_fault(self, table_id: str, fault: str | None) -> None:
        """Mark (or clear) why the table's automatic actions stopped."""

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Link a rematch once: returns the rematch id now stored (the first one wins)."""

    async def games_of(self, identity: str, limit: int = 50) -> list[GameSummary]:
        """The tables a person sat at, newest first."""

    async def list_tables(
        self, statuses: Sequence[str], limit: int = 50, *, daily: bool = True
    ) -> list[TableRow]:
        """Tables in one of ``statuses``, newest first (``daily=False``: no daily attempts)."""

    async def count_tables(
        self,
        *,
        created_by: str | None = None,
        created_from: str | None = None,
        all_bots: bool | None = None,
        statuses: Sequence[str] = LIVE_STATUSES,
    ) -> int:
        """How many tables in ``statuses`` match every filter given (for quotas)."""


class IdentityStore(Protocol):
    """What :mod:`basra.server.identity` needs from storage."""

    async def create_identity(self, identity: IdentityRow) -> None:
        """Store a new identity."""

    async def load_identity(self, identity_id: str) -> IdentityRow | None:
        """An identity by id, or None."""

    async def claim_legacy(self, identity_id: str) -> bool:
        """Clear the ``legacy`` mark of an identity: True for the one caller that did."""

    async def name_identity(self, identity_id: str, name: str) -> None:
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
        """Sign out those of the identity's devices; returns the ids signed out."""

    async def revoke_identity(self, identity_id: str, now: float) -> list[str]:
        """Revoke an identity and all its devices; returns the device ids signed out."""

    async def add_transfer(
        self, code_hash: str, identity_id: str, device_id: str, now: float, expires_at: float
    ) -> None:
        """Store a transfer code (as its hash)."""

    async def find_transfer(self, code_hash: str, now: float) -> str | None:
        """The identity of an unused, unexpired transfer code, or None."""

    async def use_transfer(self, code_hash: str, now: float) -> str | None:
        """Use a transfer code once: its identity for the one caller that did, else None."""


class Store(TableStore, IdentityStore, PlayerStore, PlayStore, Protocol):
    """Everything the server stores."""


def summary_of(table: TableRow, seat: int) -> GameSummary:
    """A person's line for ``table`` where they sit in ``seat``."""
    return GameSummary(
        id=table.id,
        variant=table.variant,
        players=table.players,
        teams=table.teams,
        status=table.status,
        seat=seat,
        names=[s.name for s in table.seats],
        scores=list(table.scores),
        winner=table.winner,
        created_at=table.created_at,
        updated_at=table.updated_at,
        kinds=[s.kind for s in table.seats],
        levels=[s.level for s in table.seats],
        rules=dict(table.rules),
    )


def open_store(url: str | None) -> Store:
    """The store for a ``--database`` value: ``memory`` or a database URL / SQLite path."""
    if url in (None, "", "memory"):
        return MemoryStore()
    from basra.server.store.sql import SqlStore

    return SqlStore(url)


from basra.server.store.memory import MemoryStore  # noqa: E402  (it needs the types above)
