"""Quick play, daily attempts and bot accounts in Python dicts (mixed into the memory store)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from basra.server.store.play import AttemptRow, BotRow, SeekRow

if TYPE_CHECKING:
    from basra.server.store import Event, TableRow

__all__ = ["MemoryPlay"]


class MemoryPlay:
    """The :class:`~basra.server.store.play.PlayStore` methods on dicts.

    Each method runs without awaiting anything in between its reads and
    writes, so each is atomic on the event loop, like a transaction.
    """

    _tables: dict[str, Any]
    _events: dict[str, list[Any]]
    _identities: dict[str, Any]

    def _play(self) -> dict[str, Any]:
        found: dict[str, Any] | None = self.__dict__.get("_play_data")
        if found is None:
            found = self.__dict__["_play_data"] = {
                "seeks": {},
                "leases": {},
                "secrets": {},
                "attempts": {},
                "bots": {},
                "bot_tokens": {},
            }
        return found

    @property
    def _seeks(self) -> dict[str, SeekRow]:
        seeks: dict[str, SeekRow] = self._play()["seeks"]
        return seeks

    @property
    def _attempts(self) -> dict[tuple[str, str], AttemptRow]:
        attempts: dict[tuple[str, str], AttemptRow] = self._play()["attempts"]
        return attempts

    @property
    def _bots(self) -> dict[str, BotRow]:
        bots: dict[str, BotRow] = self._play()["bots"]
        return bots

    # ------------------------------------------------------------ quick play

    async def put_seek(self, seek: SeekRow) -> None:
        """Replace the identity's seek."""
        for ticket in [t for t, s in self._seeks.items() if s.identity == seek.identity]:
            del self._seeks[ticket]
        self._seeks[seek.ticket] = seek

    async def seek_of(self, identity: str) -> SeekRow | None:
        """The identity's seek."""
        return next((s for s in self._seeks.values() if s.identity == identity), None)

    async def seeks(self, tickets: Sequence[str]) -> list[SeekRow]:
        """Those seeks that exist."""
        return [self._seeks[t] for t in tickets if t in self._seeks]

    async def open_seeks(self) -> list[SeekRow]:
        """Seeks not seated, oldest first."""
        found = [s for s in self._seeks.values() if s.table_id is None]
        return sorted(found, key=lambda s: s.joined_at)

    async def touch_seeks(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Note the time on seeks still held by those connections."""
        for ticket, holder in zip(tickets, holders, strict=True):
            seek = self._seeks.get(ticket)
            if seek is not None and seek.holder == holder and seek.table_id is None:
                self._seeks[ticket] = replace(seek, seen_at=now)

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Mark the seek away or back (only for the connection holding it)."""
        seek = self._seeks.get(ticket)
        if seek is not None and seek.holder == holder and seek.table_id is None:
            self._seeks[ticket] = replace(seek, away_since=away_since)

    async def drop_seeks(self, tickets: Sequence[str]) -> None:
        """Remove them."""
        for ticket in tickets:
            self._seeks.pop(ticket, None)

    async def sweep_seeks(
        self, seen_before: float, away_before: float, matched_before: float
    ) -> int:
        """Remove seeks nobody holds and old seated ones."""
        gone = [
            t
            for t, s in self._seeks.items()
            if (s.table_id is None and s.seen_at < seen_before)
            or (s.table_id is None and s.away_since is not None and s.away_since < away_before)
            or (s.matched_at is not None and s.matched_at < matched_before)
        ]
        for ticket in gone:
            del self._seeks[ticket]
        return len(gone)

    async def seat_seeks(self, seats: Mapping[str, int], table: TableRow, now: float) -> bool:
        """Seat them and create the table, or nothing if one is gone or away."""
        for ticket in seats:
            seek = self._seeks.get(ticket)
            if seek is None or seek.table_id is not None or seek.away_since is not None:
                return False
        if table.id in self._tables:
            return False
        self._tables[table.id] = table.copy()
        self._events[table.id] = []
        for ticket, seat in seats.items():
            self._seeks[ticket] = replace(
                self._seeks[ticket], table_id=table.id, seat=seat, matched_at=now
            )
        return True

    async def pool_counts(self, seen_after: float) -> dict[tuple[str, int, bool], int]:
        """Waiting and present seeks per pool."""
        counts: dict[tuple[str, int, bool], int] = {}
        for seek in self._seeks.values():
            if seek.table_id is None and seek.away_since is None and seek.seen_at >= seen_after:
                counts[seek.pool] = counts.get(seek.pool, 0) + 1
        return counts

    async def take_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Take the lease if free, expired or already ours."""
        leases: dict[str, tuple[str, float]] = self._play()["leases"]
        current = leases.get(name)
        if current is not None and current[0] != holder and current[1] > now:
            return False
        leases[name] = (holder, now + ttl)
        return True

    # ------------------------------------------------------------ the daily deal

    async def server_secret(self, name: str, fresh: bytes) -> bytes:
        """The stored secret (``fresh`` the first time)."""
        secrets: dict[str, bytes] = self._play()["secrets"]
        return secrets.setdefault(name, fresh)

    async def start_attempt(self, attempt: AttemptRow, table: TableRow, deal: Event) -> AttemptRow:
        """The identity's attempt: an existing one, or this one with its table and deal."""
        key = (attempt.deal_id, attempt.identity)
        found = self._attempts.get(key)
        if found is not None:
            return self._joined(found)
        if table.id in self._tables:
            raise ValueError(f"table {table.id!r} exists")
        self._tables[table.id] = table.copy()
        self._events[table.id] = [deal]
        self._attempts[key] = attempt
        return self._joined(attempt)

    def _joined(self, attempt: AttemptRow) -> AttemptRow:
        table = self._tables.get(attempt.table_id)
        if table is None:
            return attempt
        accounts: dict[str, Any] = self.__dict__.get("_player_data", {}).get("accounts", {})
        account = accounts.get(attempt.identity)
        return replace(
            attempt,
            status=table.status,
            scores=tuple(table.scores),
            ended_at=table.updated_at or None,
            username=account.username if account is not None else None,
        )

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """The identity's attempt."""
        found = self._attempts.get((deal_id, identity))
        return None if found is None else self._joined(found)

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """The attempt at that table."""
        found = next((a for a in self._attempts.values() if a.table_id == table_id), None)
        return None if found is None else self._joined(found)

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """The deal's attempts, oldest first."""
        found = [self._joined(a) for key, a in self._attempts.items() if key[0] == deal_id]
        return sorted(found, key=lambda a: a.started_at)

    # ------------------------------------------------------------ bot accounts

    async def create_bot(self, bot: BotRow, token_hash: str) -> bool:
        """Store the bot and its identity unless the name is taken."""
        from basra.server.store import IdentityRow

        if any(b.name_key == bot.name_key for b in self._bots.values()):
            return False  # a name stays with its bot, revoked or not
        self._identities[bot.identity] = IdentityRow(bot.identity, bot.created_at, bot.name)
        self._bots[bot.identity] = bot
        self._play()["bot_tokens"][bot.identity] = token_hash
        return True

    async def bot_by_token(self, token_hash: str) -> BotRow | None:
        """The live bot whose token hashes so."""
        tokens: dict[str, str] = self._play()["bot_tokens"]
        for identity, stored in tokens.items():
            bot = self._bots.get(identity)
            if stored == token_hash and bot is not None and bot.revoked_at is None:
                return bot
        return None

    async def bot_by_name(self, name_key: str) -> BotRow | None:
        """The live bot of that name."""
        return next(
            (b for b in self._bots.values() if b.name_key == name_key and b.revoked_at is None),
            None,
        )

    async def bots_of(self, owner: str) -> list[BotRow]:
        """The owner's live bots, oldest first."""
        found = [b for b in self._bots.values() if b.owner == owner and b.revoked_at is None]
        return sorted(found, key=lambda b: b.created_at)

    async def set_bot_token(self, identity: str, token_hash: str) -> None:
        """Replace the token."""
        if identity in self._bots:
            self._play()["bot_tokens"][identity] = token_hash

    async def revoke_bot(self, identity: str, now: float) -> None:
        """Revoke the bot and its identity."""
        bot = self._bots.get(identity)
        if bot is not None and bot.revoked_at is None:
            self._bots[identity] = replace(bot, revoked_at=now)
        row = self._identities.get(identity)
        if row is not None and row.revoked_at is None:
            self._identities[identity] = replace(row, revoked_at=now)
