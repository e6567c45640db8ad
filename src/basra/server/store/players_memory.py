"""Accounts, ratings and results in Python dicts (mixed into the memory store)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from basra.server.store.players import (
    AccountRow,
    LeaderRow,
    RatingRow,
    ResultRow,
    Settle,
    Settlement,
)

__all__ = ["MemoryPlayers"]

OUTCOMES = ("win", "loss", "draw", "forfeit")


class MemoryPlayers:
    """The :class:`~basra.server.store.players.PlayerStore` methods on dicts.

    The dicts live in the instance ``__dict__`` (made on first use), next to
    the tables and identities of the memory store they are mixed into.
    """

    _tables: dict[str, Any]
    _identities: dict[str, Any]

    def _players(self) -> dict[str, Any]:
        found: dict[str, Any] | None = self.__dict__.get("_player_data")
        if found is None:
            found = self.__dict__["_player_data"] = {
                "accounts": {},
                "ratings": {},
                "results": {},
            }
        return found

    @property
    def _accounts(self) -> dict[str, AccountRow]:
        accounts: dict[str, AccountRow] = self._players()["accounts"]
        return accounts

    @property
    def _ratings(self) -> dict[tuple[str, str, str], RatingRow]:
        ratings: dict[tuple[str, str, str], RatingRow] = self._players()["ratings"]
        return ratings

    @property
    def _results(self) -> dict[tuple[str, str], ResultRow]:
        results: dict[tuple[str, str], ResultRow] = self._players()["results"]
        return results

    async def create_account(self, account: AccountRow) -> str | None:
        """Store the account unless the identity has one or the username is taken."""
        if account.identity in self._accounts:
            return "identity"
        if any(a.username_key == account.username_key for a in self._accounts.values()):
            return "username"
        self._accounts[account.identity] = account
        return None

    async def account_by_username(self, username_key: str) -> AccountRow | None:
        """The account with that key."""
        return next((a for a in self._accounts.values() if a.username_key == username_key), None)

    async def account_of(self, identity_id: str) -> AccountRow | None:
        """The identity's account."""
        return self._accounts.get(identity_id)

    async def set_password_hash(self, identity_id: str, password_hash: str) -> None:
        """Replace the hash."""
        account = self._accounts.get(identity_id)
        if account is not None:
            self._accounts[identity_id] = replace(account, password_hash=password_hash)

    async def ratings_of(self, identity_id: str) -> list[RatingRow]:
        """Every pool's rating of the identity."""
        return [r for key, r in self._ratings.items() if key[0] == identity_id]

    async def ratings_in(
        self, family: str, kind: str, identities: Sequence[str]
    ) -> dict[str, RatingRow]:
        """The pool's ratings of those identities."""
        out = {}
        for identity in identities:
            found = self._ratings.get((identity, family, kind))
            if found is not None:
                out[identity] = found
        return out

    async def settle_game(
        self,
        table_id: str,
        family: str,
        kind: str,
        identities: Sequence[str],
        now: float,
        settle: Settle,
    ) -> Settlement | None:
        """Mark the table settled once, then store what ``settle`` works out."""
        table = self._tables.get(table_id)
        if table is None or table.settled_at is not None:
            return None
        settlement = settle(await self.ratings_in(family, kind, identities))
        table.settled_at = now
        for rating in settlement.ratings:
            self._ratings[(rating.identity, rating.family, rating.kind)] = rating
        for result in settlement.results:
            self._results.setdefault((result.table_id, result.identity), result)
        return settlement

    async def unsettled_tables(self, limit: int = 1000) -> list[str]:
        """Finished tables not settled."""
        found = [t.id for t in self._tables.values() if t.status == "over" and t.settled_at is None]
        return found[:limit]

    def _done(self, result: ResultRow) -> bool:
        table = self._tables.get(result.table_id)
        return table is not None and table.status not in ("open", "playing")

    async def results_of(self, identity_id: str, limit: int = 50) -> list[ResultRow]:
        """The identity's results of finished tables, newest first."""
        found = [r for r in self._results.values() if r.identity == identity_id and self._done(r)]
        found.sort(key=lambda r: r.ended_at, reverse=True)
        return found[:limit]

    async def results_at(self, table_id: str) -> list[ResultRow]:
        """The table's results."""
        return sorted(
            (r for r in self._results.values() if r.table_id == table_id), key=lambda r: r.seat
        )

    async def totals_of(self, identity_id: str) -> dict[str, int]:
        """Counts of each outcome, rounds and basras over finished tables."""
        totals = dict.fromkeys((*OUTCOMES, "rounds", "basras"), 0)
        for result in self._results.values():
            if result.identity == identity_id and self._done(result):
                totals[result.outcome] += 1
                totals["rounds"] += result.rounds
                totals["basras"] += result.basras
        return totals

    async def leaderboard(self, family: str, kind: str, limit: int = 100) -> list[LeaderRow]:
        """The pool's ratings of identities with accounts, by ``mu - 3 sigma``."""
        rows = []
        for (identity, fam, knd), rating in self._ratings.items():
            account = self._accounts.get(identity)
            row = self._identities.get(identity)
            if fam != family or knd != kind or account is None or row is None:
                continue
            if row.revoked_at is not None:
                continue
            rows.append(LeaderRow(rating, account.username, row.name))
        rows.sort(key=lambda r: (-(r.rating.mu - 3 * r.rating.sigma), r.username))
        return rows[:limit]
