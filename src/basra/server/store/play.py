"""What quick play, the daily deal and bot accounts keep in the store.

A :class:`SeekRow` is a person waiting in the quick-play pool: one per
identity, kept in the store (not one process's memory) so that every server
process pairs the same pool. :meth:`PlayStore.seat_seeks` takes a group of
waiting seeks and creates their table in one transaction: a seek another
process took first (or one whose person left) makes it fail whole, so nobody
is seated twice. A *lease* lets one process at a time run the pairing.

A :class:`AttemptRow` is one identity's attempt at one daily deal: its table
(with the deal already in its log) is created together with the attempt in
one transaction, keyed by the deal and the identity, so an identity has one
attempt however many requests race. The deals are derived from a *server
secret* (:meth:`PlayStore.server_secret`), made once and kept in the store.

A :class:`BotRow` is a bot account: an identity of its own (so it can sit at
tables), owned by the person who made it, with a bearer token of which the
store keeps only the SHA-256 (a separate table from devices: a bot's token
never signs in as a person).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from basra.server.store import Event, TableRow

__all__ = ["AttemptRow", "BotRow", "PlayStore", "SeekRow"]


@dataclass(frozen=True)
class SeekRow:
    """A person in the quick-play pool (a variant, a table size and teams)."""

    ticket: str
    identity: str
    name: str
    variant: str
    players: int
    teams: bool
    mu: float
    """The person's rating in the pool's family and kind when they joined."""
    sigma: float
    joined_at: float
    """When they joined (wall-clock seconds): their rating window widens from then."""
    bot_after: float | None
    """Seconds after which a bot of similar strength may fill the table (None: never)."""
    seen_at: float
    """When the process holding their connection last said they are still there."""
    holder: str = ""
    """The connection holding the seek (a newer one takes it over)."""
    away_since: float | None = None
    """Their connection dropped then (not paired while away; dropped after a grace period)."""
    table_id: str | None = None
    """The table they were seated at (None while waiting)."""
    seat: int | None = None
    matched_at: float | None = None

    @property
    def pool(self) -> tuple[str, int, bool]:
        """The pool key: variant, players, teams."""
        return (self.variant, self.players, self.teams)


@dataclass(frozen=True)
class AttemptRow:
    """One identity's attempt at one daily deal, and where its table stands."""

    deal_id: str
    identity: str
    table_id: str
    seat: int
    name: str
    started_at: float
    status: str = "playing"
    """The table's status (``over`` once the attempt is played)."""
    scores: tuple[int, ...] = ()
    ended_at: float | None = None
    """When the table last changed (its end, once over)."""
    username: str | None = None
    """The account's username, if the identity has one."""


@dataclass(frozen=True)
class BotRow:
    """A bot account: an identity of its own, owned by a person."""

    identity: str
    owner: str
    name: str
    name_key: str
    created_at: float
    revoked_at: float | None = None


class PlayStore(Protocol):
    """What quick play, the daily deal and the bot API need from storage."""

    # ------------------------------------------------------------ quick play

    async def put_seek(self, seek: SeekRow) -> None:
        """Store a seek, replacing the identity's previous one (one per identity)."""

    async def seek_of(self, identity: str) -> SeekRow | None:
        """The identity's seek (waiting, away or recently matched), or None."""

    async def seeks(self, tickets: Sequence[str]) -> list[SeekRow]:
        """The seeks of those tickets that still exist."""

    async def open_seeks(self) -> list[SeekRow]:
        """Every seek not yet seated, oldest first."""

    async def touch_seeks(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Say that those seeks' connections (``holders``, in order) are still there."""

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Mark a seek away (its connection ``holder`` dropped), or back (None)."""

    async def drop_seeks(self, tickets: Sequence[str]) -> None:
        """Remove seeks (left the pool, or done with)."""

    async def sweep_seeks(
        self, seen_before: float, away_before: float, matched_before: float
    ) -> int:
        """Remove seeks nobody holds (not seen since ``seen_before``, away since before
        ``away_before``) and seated ones older than ``matched_before``; how many went."""

    async def seat_seeks(self, seats: Mapping[str, int], table: TableRow, now: float) -> bool:
        """Seat waiting seeks (ticket -> seat) at a new table, in one transaction.

        False (and nothing written) if any of them is no longer waiting and present.
        """

    async def pool_counts(self, seen_after: float) -> dict[tuple[str, int, bool], int]:
        """How many are waiting (present, seen since ``seen_after``) in each pool."""

    async def take_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Hold the lease ``name`` for ``ttl`` seconds if it is free, expired or ours."""

    # ------------------------------------------------------------ the daily deal

    async def server_secret(self, name: str, fresh: bytes) -> bytes:
        """The secret ``name``, stored as ``fresh`` the first time (the first writer wins)."""

    async def start_attempt(self, attempt: AttemptRow, table: TableRow, deal: Event) -> AttemptRow:
        """Create the attempt, its table and the table's deal, in one transaction.

        If the identity already has an attempt at that deal, nothing is written
        and that one is returned.
        """

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """An identity's attempt at a deal, or None."""

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """The attempt played at a table, or None (not a daily table)."""

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """Every attempt at a deal, oldest first."""

    # ------------------------------------------------------------ bot accounts

    async def create_bot(self, bot: BotRow, token_hash: str) -> bool:
        """Store a bot account and its identity; False if its name is taken."""

    async def bot_by_token(self, token_hash: str) -> BotRow | None:
        """The live bot of a token, or None."""

    async def bot_by_name(self, name_key: str) -> BotRow | None:
        """The live bot of a name (its case-folded key), or None."""

    async def bots_of(self, owner: str) -> list[BotRow]:
        """A person's live bots, oldest first."""

    async def set_bot_token(self, identity: str, token_hash: str) -> None:
        """Replace a bot's token."""

    async def revoke_bot(self, identity: str, now: float) -> None:
        """Revoke a bot account (its token stops working)."""
