"""Accounts, ratings and results in dicts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from basra.server.store.memory.data import MemoryData
from basra.server.store.rows import (
    LIVE_STATUSES,
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
    """:class:`~basra.server.store.protocols.PlayerStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def create_account(self, account: AccountRow) -> str | None:
        """Store the account unless the identity has one or the username is taken."""
        accounts = self.data.accounts
        if account.identity in accounts:
            return "identity"
        if any(a.username_key == account.username_key for a in accounts.values()):
            return "username"
        accounts[account.identity] = account
        return None

    async def account_by_username(self, username_key: str) -> AccountRow | None:
        """The account with that key."""
        return next(
            (a for a in self.data.accounts.values() if a.username_key == username_key), None
        )

    async def account_of(self, identity_id: str) -> AccountRow | None:
        """The identity's account."""
        return self.data.accounts.get(identity_id)

    async def accounts_of(self, identities: Sequence[str]) -> dict[str, AccountRow]:
        """The accounts of those identities that have one."""
        return {i: self.data.accounts[i] for i in identities if i in self.data.accounts}

    async def set_password_hash(self, identity_id: str, password_hash: str) -> None:
        """Replace the hash."""
        account = self.data.accounts.get(identity_id)
        if account is not None:
            self.data.accounts[identity_id] = replace(account, password_hash=password_hash)

    async def ratings_of(self, identity_id: str) -> list[RatingRow]:
        """Every pool's rating of the identity."""
        return [r for key, r in self.data.ratings.items() if key[0] == identity_id]

    async def ratings_in(
        self, family: str, kind: str, identities: Sequence[str]
    ) -> dict[str, RatingRow]:
        """The pool's ratings of those identities."""
        out = {}
        for identity in identities:
            found = self.data.ratings.get((identity, family, kind))
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
        table = self.data.tables.get(table_id)
        if table is None or table.settled_at is not None:
            return None
        settlement = settle(await self.ratings_in(family, kind, identities))
        table.settled_at = now
        for rating in settlement.ratings:
            self.data.ratings[(rating.identity, rating.family, rating.kind)] = rating
        for result in settlement.results:
            self.data.results.setdefault((result.table_id, result.identity), result)
        return settlement

    def _done(self, result: ResultRow) -> bool:
        table = self.data.tables.get(result.table_id)
        return table is not None and table.status not in LIVE_STATUSES

    async def results_of(self, identity_id: str, limit: int = 50) -> list[ResultRow]:
        """The identity's results of finished tables, newest first."""
        found = [
            r for r in self.data.results.values() if r.identity == identity_id and self._done(r)
        ]
        found.sort(key=lambda r: r.ended_at, reverse=True)
        return found[:limit]

    async def results_at(self, table_id: str) -> list[ResultRow]:
        """The table's results."""
        return sorted(
            (r for r in self.data.results.values() if r.table_id == table_id),
            key=lambda r: r.seat,
        )

    async def totals_of(self, identity_id: str) -> dict[str, int]:
        """Counts of each outcome, rounds and basras over finished tables."""
        totals = dict.fromkeys((*OUTCOMES, "rounds", "basras"), 0)
        for result in self.data.results.values():
            if result.identity == identity_id and self._done(result):
                totals[result.outcome] += 1
                totals["rounds"] += result.rounds
                totals["basras"] += result.basras
        return totals

    async def leaderboard(self, family: str, kind: str, limit: int = 100) -> list[LeaderRow]:
        """The pool's ratings of identities with accounts, by ``mu - 3 sigma``."""
        rows = []
        for (identity, fam, knd), rating in self.data.ratings.items():
            account = self.data.accounts.get(identity)
            row = self.data.identities.get(identity)
            if fam != family or knd != kind or account is None or row is None:
                continue
            if row.revoked_at is not None:
                continue
            rows.append(LeaderRow(rating, account.username, row.name))
        rows.sort(key=lambda r: (-(r.rating.mu - 3 * r.rating.sigma), r.username))
        return rows[:limit]
