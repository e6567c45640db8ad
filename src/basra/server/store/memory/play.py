"""Quick play's pool, leases, server secrets, daily attempts and bot accounts in dicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from basra.server.store.memory.data import MemoryData
from basra.server.store.memory.tables import check_caps
from basra.server.store.rows import AttemptRow, BotRow, Cap, IdentityRow, SeekRow, TableRow

__all__ = ["MemoryBots", "MemoryDaily", "MemoryLeases", "MemorySecrets", "MemorySeeks"]


class MemorySeeks:
    """:class:`~basra.server.store.protocols.SeekStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def put(self, seek: SeekRow) -> None:
        """Replace the identity's seek."""
        seeks = self.data.seeks
        for ticket in [t for t, s in seeks.items() if s.identity == seek.identity]:
            del seeks[ticket]
        seeks[seek.ticket] = seek

    async def of_identity(self, identity: str) -> SeekRow | None:
        """The identity's seek."""
        return next((s for s in self.data.seeks.values() if s.identity == identity), None)

    async def get(self, tickets: Sequence[str]) -> list[SeekRow]:
        """Those seeks that exist."""
        return [self.data.seeks[t] for t in tickets if t in self.data.seeks]

    async def waiting(self) -> list[SeekRow]:
        """Seeks not seated, oldest first."""
        found = [s for s in self.data.seeks.values() if s.table_id is None]
        return sorted(found, key=lambda s: s.joined_at)

    async def touch(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Note the time on seeks still held by those connections."""
        for ticket, holder in zip(tickets, holders, strict=True):
            seek = self.data.seeks.get(ticket)
            if seek is not None and seek.holder == holder and seek.table_id is None:
                self.data.seeks[ticket] = replace(seek, seen_at=now)

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Mark the seek away or back (only for the connection holding it)."""
        seek = self.data.seeks.get(ticket)
        if seek is not None and seek.holder == holder and seek.table_id is None:
            self.data.seeks[ticket] = replace(seek, away_since=away_since)

    async def drop(self, tickets: Sequence[str]) -> None:
        """Remove them."""
        for ticket in tickets:
            self.data.seeks.pop(ticket, None)

    async def sweep(self, seen_before: float, away_before: float, matched_before: float) -> int:
        """Remove seeks nobody holds and old seated ones."""
        gone = [
            t
            for t, s in self.data.seeks.items()
            if (s.table_id is None and s.seen_at < seen_before)
            or (s.table_id is None and s.away_since is not None and s.away_since < away_before)
            or (s.matched_at is not None and s.matched_at < matched_before)
        ]
        for ticket in gone:
            del self.data.seeks[ticket]
        return len(gone)

    async def seat(
        self, seats: Mapping[str, int], table: TableRow, now: float, caps: Sequence[Cap] = ()
    ) -> bool:
        """Seat them and create the table within its caps, or nothing if one is gone or away."""
        for ticket in seats:
            seek = self.data.seeks.get(ticket)
            if seek is None or seek.table_id is not None or seek.away_since is not None:
                return False
        if table.id in self.data.tables:
            return False
        check_caps(self.data, caps)
        self.data.add_table(table)
        for ticket, seat in seats.items():
            self.data.seeks[ticket] = replace(
                self.data.seeks[ticket], table_id=table.id, seat=seat, matched_at=now
            )
        return True

    async def pool_counts(self, seen_after: float) -> dict[tuple[str, int, bool], int]:
        """Waiting and present seeks per pool."""
        counts: dict[tuple[str, int, bool], int] = {}
        for seek in self.data.seeks.values():
            if seek.table_id is None and seek.away_since is None and seek.seen_at >= seen_after:
                counts[seek.pool] = counts.get(seek.pool, 0) + 1
        return counts


class MemoryLeases:
    """:class:`~basra.server.store.protocols.LeaseStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def take(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Take the lease if free, expired or already ours."""
        current = self.data.leases.get(name)
        if current is not None and current[0] != holder and current[1] > now:
            return False
        self.data.leases[name] = (holder, now + ttl)
        return True

    async def renew(self, holder: str, names: Sequence[str], now: float, ttl: float) -> set[str]:
        """Extend those of ``names`` that ``holder`` holds."""
        kept = set()
        for name in names:
            current = self.data.leases.get(name)
            if current is not None and current[0] == holder:
                self.data.leases[name] = (holder, now + ttl)
                kept.add(name)
        return kept

    async def release(self, holder: str, names: Sequence[str]) -> None:
        """Delete those of ``names`` that ``holder`` holds."""
        for name in names:
            current = self.data.leases.get(name)
            if current is not None and current[0] == holder:
                del self.data.leases[name]

    async def held(
        self, prefix: str, expired_before: float | None = None
    ) -> dict[str, tuple[str, float]]:
        """The leases whose names start with ``prefix`` (expired before a time, if given)."""
        return {
            n: h
            for n, h in self.data.leases.items()
            if n.startswith(prefix) and (expired_before is None or h[1] < expired_before)
        }


class MemorySecrets:
    """:class:`~basra.server.store.protocols.SecretStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def get_or_make(self, name: str, fresh: bytes) -> bytes:
        """The stored secret (``fresh`` the first time)."""
        return self.data.secrets.setdefault(name, fresh)


class MemoryDaily:
    """:class:`~basra.server.store.protocols.DailyStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def start_attempt(
        self, attempt: AttemptRow, table: TableRow, caps: Sequence[Cap] = ()
    ) -> AttemptRow:
        """The identity's attempt: an existing one, or this one with its table (within its
        caps)."""
        key = (attempt.deal_id, attempt.identity)
        found = self.data.attempts.get(key)
        if found is not None:
            return self._joined(found)
        check_caps(self.data, caps)
        self.data.add_table(table)
        self.data.attempts[key] = attempt
        return self._joined(attempt)

    def _joined(self, attempt: AttemptRow) -> AttemptRow:
        table = self.data.tables.get(attempt.table_id)
        if table is None:
            return attempt
        account = self.data.accounts.get(attempt.identity)
        return replace(
            attempt,
            status=table.status,
            scores=tuple(table.scores),
            ended_at=table.updated_at or None,
            username=account.username if account is not None else None,
        )

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """The identity's attempt."""
        found = self.data.attempts.get((deal_id, identity))
        return None if found is None else self._joined(found)

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """The attempt at that table."""
        found = next((a for a in self.data.attempts.values() if a.table_id == table_id), None)
        return None if found is None else self._joined(found)

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """The deal's attempts, oldest first."""
        found = [self._joined(a) for key, a in self.data.attempts.items() if key[0] == deal_id]
        return sorted(found, key=lambda a: a.started_at)


class MemoryBots:
    """:class:`~basra.server.store.protocols.BotStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def create(self, bot: BotRow, token_hash: str) -> bool:
        """Store the bot and its identity unless the name is taken."""
        if any(b.name_key == bot.name_key for b in self.data.bots.values()):
            return False  # a name stays with its bot, revoked or not
        self.data.identities[bot.identity] = IdentityRow(bot.identity, bot.created_at, bot.name)
        self.data.bots[bot.identity] = bot
        self.data.bot_tokens[bot.identity] = token_hash
        return True

    def _live(self, bot: BotRow | None) -> bool:
        if bot is None or bot.revoked_at is not None:
            return False
        owner = self.data.identities.get(bot.owner)
        return owner is not None and owner.revoked_at is None

    async def by_token(self, token_hash: str) -> BotRow | None:
        """The live bot whose token hashes so (its owner live too)."""
        for identity, stored in self.data.bot_tokens.items():
            bot = self.data.bots.get(identity)
            if stored == token_hash and self._live(bot):
                return bot
        return None

    async def by_name(self, name_key: str) -> BotRow | None:
        """The live bot of that name."""
        return next(
            (b for b in self.data.bots.values() if b.name_key == name_key and self._live(b)),
            None,
        )

    async def of_owner(self, owner: str) -> list[BotRow]:
        """The owner's live bots, oldest first."""
        found = [b for b in self.data.bots.values() if b.owner == owner and self._live(b)]
        return sorted(found, key=lambda b: b.created_at)

    async def set_token(self, identity: str, token_hash: str) -> None:
        """Replace the token."""
        if identity in self.data.bots:
            self.data.bot_tokens[identity] = token_hash

    async def revoke(self, identity: str, now: float) -> None:
        """Revoke the bot and its identity."""
        bot = self.data.bots.get(identity)
        if bot is not None and bot.revoked_at is None:
            self.data.bots[identity] = replace(bot, revoked_at=now)
        row = self.data.identities.get(identity)
        if row is not None and row.revoked_at is None:
            self.data.identities[identity] = replace(row, revoked_at=now)
