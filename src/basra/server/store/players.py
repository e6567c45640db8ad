"""What the store keeps of people beyond their identity: accounts, ratings and results.

An :class:`AccountRow` gives an identity a username and a password hash (never
the password). A :class:`RatingRow` is an identity's openskill rating in one
*pool*: a variant family and a table kind (see :mod:`basra.server.ratings`).
A :class:`ResultRow` is one person's line of one settled game: the outcome,
the basras made, and the rating before and after when the game was rated.

Settling a game is one store call, one transaction
(:meth:`PlayerStore.settle_game`): it marks the table settled (once: a second
caller, or a second process, gets None), reads the ratings of the people at the
table, lets the caller work out the new ratings and the result rows from them,
and writes both. A rating row is written only if nobody changed it since it
was read (its ``games`` count is the check), else the whole settlement is
tried again, so two games ending at once for one person both count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "AccountRow",
    "LeaderRow",
    "PlayerStore",
    "RatingRow",
    "ResultRow",
    "Settle",
    "Settlement",
]


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


class PlayerStore(Protocol):
    """What accounts, ratings and profiles need from storage."""

    async def create_account(self, account: AccountRow) -> str | None:
        """Store an account; None when stored, else what was taken: ``username`` or ``identity``."""

    async def account_by_username(self, username_key: str) -> AccountRow | None:
        """The account of a username (its lowercase key), or None."""

    async def account_of(self, identity_id: str) -> AccountRow | None:
        """The account of an identity, or None (a guest)."""

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

    async def unsettled_tables(self, limit: int = 1000) -> list[str]:
        """Finished tables whose results are not recorded (a crash came between)."""

    async def results_of(self, identity_id: str, limit: int = 50) -> list[ResultRow]:
        """A person's results of games no longer in play, newest first."""

    async def results_at(self, table_id: str) -> list[ResultRow]:
        """The results recorded for one table."""

    async def totals_of(self, identity_id: str) -> dict[str, int]:
        """A person's games no longer in play: how many of each outcome, rounds and basras."""

    async def leaderboard(self, family: str, kind: str, limit: int = 100) -> list[LeaderRow]:
        """The pool's rated people with accounts, by ``mu - 3 sigma``, best first."""
