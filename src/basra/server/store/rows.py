"""What the store keeps, as plain values: one dataclass per kind of row, and the enums.

A table (:class:`TableRow`) has its settings, its seats (:class:`SeatRow`) and
where it stands (:class:`TableStatus`); its game is its event log
(:class:`Event`: deals and plays, see :mod:`basra.server.table.reducer`).
People are identities (:class:`IdentityRow`) signed in on devices
(:class:`DeviceRow`), optionally with an account (:class:`AccountRow`); ratings
and results are :class:`RatingRow` and :class:`ResultRow`.
Reviews and the puzzles' mining jobs share :class:`ReviewStatus`.

A feature that owns its data keeps its rows in its own store module:
tournaments in :mod:`basra.server.features.tournaments.store`, reviews in
:mod:`basra.server.features.reviews_store`, bot accounts in
:mod:`basra.server.features.botapi_store`, the daily deal's attempts in
:mod:`basra.server.features.daily_store`, quick play's pool in
:mod:`basra.server.features.quickplay_store`, lessons and puzzles in
:mod:`basra.server.features.learn_store`.

Nothing here knows the rules of the game, and nothing here touches storage:
the repositories of :mod:`basra.server.store.protocols` read and write these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

__all__ = [
    "LIVE_STATUSES",
    "OFFLINE",
    "REVIEW_STATUSES",
    "AccountRow",
    "Cap",
    "CapReachedError",
    "Claim",
    "DeviceRow",
    "Event",
    "EventCap",
    "GameSummary",
    "IdentityRow",
    "LeaderRow",
    "RatingRow",
    "ResultRow",
    "ReviewStatus",
    "Revoked",
    "SeatKind",
    "SeatRow",
    "Settle",
    "Settlement",
    "Status",
    "TableRow",
    "TableStatus",
    "seats_filled",
    "summary_of",
]


class TableStatus(StrEnum):
    """Where a table stands: waiting for people, in play, finished, or given up; or, for a
    game played offline and uploaded before its end, unfinished (never played here)."""

    OPEN = "open"
    PLAYING = "playing"
    OVER = "over"
    ABANDONED = "abandoned"
    UNFINISHED = "unfinished"

    @property
    def live(self) -> bool:
        """Waiting or in play: the table still counts against its creator's quota.

        >>> TableStatus.OPEN.live, TableStatus.OVER.live
        (True, False)
        """
        return self in LIVE_STATUSES


LIVE_STATUSES: tuple[TableStatus, ...] = (TableStatus.OPEN, TableStatus.PLAYING)
"""The statuses of a table still waiting or in play."""

OFFLINE = "offline"
"""The ``created_from`` of a table that is a game played offline and uploaded
(:mod:`basra.server.features.offline`)."""


class SeatKind(StrEnum):
    """Who plays a seat: a person, one of the server's bots, or a program (the bot API)."""

    PERSON = "person"
    BOT = "bot"
    EXTERNAL = "external"


@dataclass(frozen=True)
class SeatRow:
    """One seat of a table: a person's (open while ``identity`` is None), a bot's, or a
    program's."""

    seat: int
    kind: SeatKind
    level: str | None = None
    """The bot level (``easy`` ... ``expert``) for a bot seat."""
    identity: str | None = None
    """The id of the identity sitting here (never sent to clients)."""
    name: str | None = None

    @property
    def open(self) -> bool:
        """A person's seat nobody has taken yet."""
        return self.kind == SeatKind.PERSON and self.identity is None


def seats_filled(seats: Sequence[SeatRow]) -> bool:
    """Whether nobody is left to join: the one rule for when a table starts.

    >>> seats_filled([SeatRow(0, "person", identity="a"), SeatRow(1, "bot", "easy")])
    True
    >>> seats_filled([SeatRow(0, "person"), SeatRow(1, "bot", "easy")])
    False
    """
    return not any(s.open for s in seats)


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

    status: TableStatus
    scores: tuple[int, ...] = ()
    winner: int | None = None


@dataclass(frozen=True)
class Claim:
    """The outcome of claiming a seat."""

    seated: bool
    """False when someone took the seat first."""
    started: bool
    """True when that was the last open seat: the table is ``playing`` now."""


@dataclass(frozen=True)
class Cap:
    """At most ``limit`` tables waiting or in play that match every filter given.

    A table is created only if each of its caps still has room, counted and
    inserted in one transaction (:meth:`~basra.server.store.protocols.TableStore.create`).
    """

    limit: int
    what: str
    """The cap in words (``open tables per person``)."""
    created_by: str | None = None
    created_from: str | None = None
    all_bots: bool | None = None
    owner_prefix: str | None = None
    """Tables whose ``owner`` key begins so (one event's: ``tournament:EVENT:``)."""


@dataclass(frozen=True)
class EventCap:
    """At most ``limit`` tournaments made by ``created_by`` or from ``created_from`` (each
    filter given): not finished (``since`` None), or made since ``since`` in any status.

    An event is made only if each of its caps still has room, counted and inserted in
    one transaction (:meth:`~basra.server.features.tournaments.store.TournamentStore.create`).
    """

    limit: int
    what: str
    """The cap in words (``events not finished per address``)."""
    created_by: str | None = None
    created_from: str | None = None
    since: float | None = None


class CapReachedError(Exception):
    """A table (or an event) was not created: one of its caps had no room left."""

    def __init__(self, cap: Cap | EventCap) -> None:
        super().__init__(f"{cap.what}: at most {cap.limit}")
        self.cap = cap


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
    status: TableStatus = TableStatus.OPEN
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
    """A rated table: its result changes ratings (see :mod:`basra.server.table.ratings`)."""
    clock_move: int | None = None
    """Seconds a person has for each move (None: no clock; see :mod:`basra.server.table.clocks`)."""
    clock_reserve: int | None = None
    """Seconds of reserve each person may spend once a move's time is up."""
    settled_at: float | None = None
    """When the game's results (and ratings) were recorded."""
    daily: str | None = None
    """The daily deal this table is an attempt at (:mod:`basra.server.features.daily`)."""
    owner: str | None = None
    """Who made the table and what it is to them, ``FEATURE:KEY`` (a tournament's game:
    ``tournament:EVENT:...``): set by a feature for the tables it makes
    (:meth:`~basra.server.table.lifecycle.Lifecycle.plan`), so every process can tell."""
    private: bool = False
    """Not listed, not watchable; its record, replay and review are shown only as the
    disclosure policy allows (:class:`~basra.server.table.disclosure.Disclosure`)."""
    forfeits: bool = False
    """The forfeit rule applies though the table is not rated (a tournament's games)."""
    lasting: bool = False
    """Never abandoned for want of people: the autopilot plays absent seats to the end."""

    @property
    def hidden(self) -> bool:
        """Private: made so (:attr:`private`), or a daily deal's attempt."""
        return self.private or self.daily is not None

    @property
    def forfeit_rule(self) -> bool:
        """Whether seats forfeit (see :mod:`basra.server.table.clocks`): rated tables, and
        those made with :attr:`forfeits`."""
        return self.rated or self.forfeits

    @property
    def all_bots(self) -> bool:
        """True when every seat is a bot's (people can only watch)."""
        return all(s.kind == SeatKind.BOT for s in self.seats)

    def set_status(self, status: Status) -> None:
        """Take a status (stored with the event that led to it, or on its own)."""
        self.status = TableStatus(status.status)
        self.scores = list(status.scores)
        self.winner = status.winner

    def copy(self) -> TableRow:
        """A copy whose seat list can be changed on its own."""
        return replace(self, seats=list(self.seats), scores=list(self.scores))

    def seat_of(self, identity: str | None) -> int | None:
        """The seat ``identity`` sits in, or None."""
        if identity is None:
            return None
        return next((s.seat for s in self.seats if s.identity == identity), None)


@dataclass(frozen=True)
class GameSummary:
    """A line of a person's list of games."""

    id: str
    variant: str
    players: int
    teams: bool
    status: TableStatus
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
    daily: bool = False
    """An attempt at a daily deal."""
    offline: bool = False
    """A game played offline and uploaded."""


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
        daily=table.daily is not None,
        offline=table.created_from == OFFLINE,
    )


# ---------------------------------------------------------------------- people


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


@dataclass(frozen=True)
class Revoked:
    """What revoking an identity ended: its devices and the bot accounts it owned."""

    devices: list[str]
    bots: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class AccountRow:
    """A username (as typed, and its lowercase key) and argon2 hash for an identity."""

    identity: str
    username: str
    username_key: str
    password_hash: str
    created_at: float


@dataclass(frozen=True)
class RatingRow:
    """An identity's rating in one pool (variant family and table kind)."""

    identity: str
    family: str
    kind: str
    mu: float
    sigma: float
    games: int
    updated_at: float


@dataclass(frozen=True)
class ResultRow:
    """One person's result of one settled game."""

    table_id: str
    identity: str
    seat: int
    variant: str
    family: str
    kind: str
    rated: bool
    outcome: str
    """``win``, ``loss``, ``draw`` or ``forfeit``."""
    place: int
    """0 for the first side, 1 for the next ... (tied sides share a place)."""
    rounds: int
    basras: int
    """Basras this person made (not their partner)."""
    score: int
    """Their side's score when the game was settled."""
    ended_at: float
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None
    left: bool = False
    """They left the game (their seat forfeited, or at a casual table would have:
    :meth:`basra.server.table.clocks.ClockState.walked_out`)."""


@dataclass(frozen=True)
class LeaderRow:
    """A line of a leaderboard: a rating with the account's username and display name."""

    rating: RatingRow
    username: str
    name: str | None


@dataclass(frozen=True)
class Settlement:
    """What a settled game writes: new ratings and one result per person."""

    ratings: Sequence[RatingRow]
    results: Sequence[ResultRow]


Settle = Callable[[Mapping[str, RatingRow]], Settlement]
"""Works out a :class:`Settlement` from the current ratings (by identity) of the pool."""


# ---------------------------------------------------------------------- quick play, daily, bots


class ReviewStatus(StrEnum):
    """Where a review stands: waiting for a worker, being worked out, stored, or failed."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


REVIEW_STATUSES = tuple(ReviewStatus)


@dataclass
class SanctionRow:
    """An identity kept off the server: ``suspended`` until a time, or ``banned``."""

    identity: str
    kind: str
    """``suspended`` or ``banned``."""
    reason: str
    at: float
    until: float | None = None
    """When a suspension ends (None: a ban)."""
