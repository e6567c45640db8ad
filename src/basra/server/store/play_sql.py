"""Quick play, daily attempts and bot accounts in SQL (mixed into the SQL store)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from basra.server import models
from basra.server.store.play import AttemptRow, BotRow, SeekRow

if TYPE_CHECKING:
    from basra.server.store import Event, TableRow

__all__ = ["SqlPlay"]

SK, LEASE, SECRET = models.seeks, models.leases, models.secrets
ATT, BOTS, T, E = models.daily_attempts, models.bots, models.tables, models.events
IDS, ACC = models.identities, models.accounts


class _GoneError(Exception):
    """A seek of a group was taken or left meanwhile: seat nobody."""


class SqlPlay:
    """The :class:`~basra.server.store.play.PlayStore` methods in SQL."""

    @property
    def engine(self) -> AsyncEngine:
        """The engine (the SQL store provides it)."""
        raise NotImplementedError

    # ------------------------------------------------------------ quick play

    async def put_seek(self, seek: SeekRow) -> None:
        """Delete the identity's seek and insert this one, in one transaction."""
        for attempt in range(3):
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(delete(SK).where(SK.c.identity_id == seek.identity))
                    await conn.execute(SK.insert().values(**_seek_values(seek)))
                return
            except IntegrityError:  # the same identity seeking twice at once: the last one wins
                if attempt == 2:
                    raise

    async def seek_of(self, identity: str) -> SeekRow | None:
        """One indexed lookup."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(SK).where(SK.c.identity_id == identity))).first()
        return None if row is None else _seek(row)

    async def seeks(self, tickets: Sequence[str]) -> list[SeekRow]:
        """Those that exist."""
        if not tickets:
            return []
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(SK).where(SK.c.ticket.in_(list(tickets))))).all()
        return [_seek(r) for r in rows]

    async def open_seeks(self) -> list[SeekRow]:
        """Seeks not seated, oldest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(SK).where(SK.c.table_id.is_(None)).order_by(SK.c.joined_at)
                )
            ).all()
        return [_seek(r) for r in rows]

    async def touch_seeks(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Lock the waiting ones in ticket order, skipping any a pairing pass holds (it is
        seating them), then one UPDATE: it never waits on a pass, so never deadlocks one."""
        if not tickets:
            return
        async with self.engine.begin() as conn:
            mine = (
                select(SK.c.ticket)
                .where(SK.c.ticket.in_(list(tickets)), SK.c.table_id.is_(None))
                .where(SK.c.holder.in_(list(holders)))
                .order_by(SK.c.ticket)
                .with_for_update(skip_locked=True)
            )
            locked = list((await conn.execute(mine)).scalars())
            if locked:
                await conn.execute(update(SK).where(SK.c.ticket.in_(locked)).values(seen_at=now))

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Only for the connection holding it."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(SK)
                .where(SK.c.ticket == ticket, SK.c.holder == holder, SK.c.table_id.is_(None))
                .values(away_since=away_since)
            )

    async def drop_seeks(self, tickets: Sequence[str]) -> None:
        """Delete them."""
        if tickets:
            async with self.engine.begin() as conn:
                await conn.execute(delete(SK).where(SK.c.ticket.in_(list(tickets))))

    async def sweep_seeks(
        self, seen_before: float, away_before: float, matched_before: float
    ) -> int:
        """One DELETE."""
        waiting = SK.c.table_id.is_(None)
        async with self.engine.begin() as conn:
            result = await conn.execute(
                delete(SK).where(
                    or_(
                        waiting & (SK.c.seen_at < seen_before),
                        waiting & (SK.c.away_since < away_before),
                        SK.c.matched_at < matched_before,
                    )
                )
            )
        return int(result.rowcount or 0)

    async def seat_seeks(self, seats: Mapping[str, int], table: TableRow, now: float) -> bool:
        """Claim every seek (each UPDATE must find it waiting), then insert the table."""
        from basra.server.store.sql import insert_table

        tickets = sorted(seats)
        waiting = (SK.c.ticket.in_(tickets), SK.c.table_id.is_(None), SK.c.away_since.is_(None))
        try:
            async with self.engine.begin() as conn:
                # Lock the seeks in ticket order (PostgreSQL; SQLite locks the whole file), so
                # two passes that overlap wait for each other rather than deadlock.
                lock = select(SK.c.ticket).where(*waiting).order_by(SK.c.ticket).with_for_update()
                if len(list((await conn.execute(lock)).scalars())) != len(tickets):
                    raise _GoneError
                claimed = await conn.execute(
                    update(SK)
                    .where(*waiting)
                    .values(
                        table_id=table.id,
                        seat=case(dict(seats), value=SK.c.ticket),
                        matched_at=now,
                    )
                )
                if claimed.rowcount != len(tickets):
                    raise _GoneError
                await insert_table(conn, table)
        except (_GoneError, IntegrityError):
            return False
        return True

    async def pool_counts(self, seen_after: float) -> dict[tuple[str, int, bool], int]:
        """One grouped count."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(SK.c.variant, SK.c.players, SK.c.teams, func.count())
                    .where(
                        SK.c.table_id.is_(None),
                        SK.c.away_since.is_(None),
                        SK.c.seen_at >= seen_after,
                    )
                    .group_by(SK.c.variant, SK.c.players, SK.c.teams)
                )
            ).all()
        return {(r[0], int(r[1]), bool(r[2])): int(r[3]) for r in rows}

    async def take_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Renew or take over an expired lease in one UPDATE; else insert it if there is none."""
        async with self.engine.begin() as conn:
            taken = await conn.execute(
                update(LEASE)
                .where(LEASE.c.name == name, or_(LEASE.c.holder == holder, LEASE.c.until < now))
                .values(holder=holder, until=now + ttl)
            )
        if taken.rowcount:
            return True
        try:
            async with self.engine.begin() as conn:
                await conn.execute(LEASE.insert().values(name=name, holder=holder, until=now + ttl))
        except IntegrityError:  # someone else holds it
            return False
        return True

    # ------------------------------------------------------------ the daily deal

    async def server_secret(self, name: str, fresh: bytes) -> bytes:
        """Read it; store ``fresh`` if there is none (the first writer wins), and read again."""
        query = select(SECRET.c.value).where(SECRET.c.name == name)
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).scalar_one_or_none()
        if found is None:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(SECRET.insert().values(name=name, value=fresh.hex()))
            except IntegrityError:
                pass
            async with self.engine.connect() as conn:
                found = (await conn.execute(query)).scalar_one()
        return bytes.fromhex(str(found))

    async def start_attempt(self, attempt: AttemptRow, table: TableRow, deal: Event) -> AttemptRow:
        """The existing attempt, or this one with its table and deal (one transaction)."""
        from basra.server.store.sql import insert_table

        found = await self.attempt_of(attempt.deal_id, attempt.identity)
        if found is not None:
            return found
        try:
            async with self.engine.begin() as conn:
                await insert_table(conn, table)
                await conn.execute(
                    E.insert().values(
                        table_id=table.id,
                        seq=deal.seq,
                        kind=deal.kind,
                        data=deal.data,
                        at=deal.at if deal.at is not None else attempt.started_at,
                        auto=deal.auto,
                    )
                )
                await conn.execute(
                    ATT.insert().values(
                        deal_id=attempt.deal_id,
                        identity_id=attempt.identity,
                        table_id=attempt.table_id,
                        seat=attempt.seat,
                        name=attempt.name,
                        started_at=attempt.started_at,
                    )
                )
        except IntegrityError:  # the same identity started it at the same moment
            found = await self.attempt_of(attempt.deal_id, attempt.identity)
            if found is None:
                raise
            return found
        joined = await self.attempt_of(attempt.deal_id, attempt.identity)
        return joined or attempt

    async def attempt_of(self, deal_id: str, identity: str) -> AttemptRow | None:
        """One lookup by the primary key, joined to its table."""
        rows = await self._attempts(ATT.c.deal_id == deal_id, ATT.c.identity_id == identity)
        return rows[0] if rows else None

    async def attempt_at(self, table_id: str) -> AttemptRow | None:
        """One lookup by the table's index."""
        rows = await self._attempts(ATT.c.table_id == table_id)
        return rows[0] if rows else None

    async def attempts(self, deal_id: str) -> list[AttemptRow]:
        """The deal's attempts with their tables, oldest first."""
        return await self._attempts(ATT.c.deal_id == deal_id)

    async def _attempts(self, *where: Any) -> list[AttemptRow]:
        query = (
            select(ATT, T.c.status, T.c.scores, T.c.updated_at, ACC.c.username)
            .join(T, T.c.id == ATT.c.table_id)
            .outerjoin(ACC, ACC.c.identity_id == ATT.c.identity_id)
            .where(*where)
            .order_by(ATT.c.started_at)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            AttemptRow(
                deal_id=r.deal_id,
                identity=r.identity_id,
                table_id=r.table_id,
                seat=r.seat,
                name=r.name,
                started_at=r.started_at,
                status=r.status,
                scores=tuple(json.loads(r.scores or "[]")),
                ended_at=r.updated_at,
                username=r.username,
            )
            for r in rows
        ]

    # ------------------------------------------------------------ bot accounts

    async def create_bot(self, bot: BotRow, token_hash: str) -> bool:
        """Insert the bot's identity and the bot; the unique name says if it is taken."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    IDS.insert().values(id=bot.identity, created_at=bot.created_at, name=bot.name)
                )
                await conn.execute(
                    BOTS.insert().values(
                        identity_id=bot.identity,
                        owner_id=bot.owner,
                        name=bot.name,
                        name_key=bot.name_key,
                        token_hash=token_hash,
                        created_at=bot.created_at,
                    )
                )
        except IntegrityError:
            return False
        return True

    async def _bots(self, *where: Any) -> list[BotRow]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(BOTS)
                    .where(BOTS.c.revoked_at.is_(None), *where)
                    .order_by(BOTS.c.created_at)
                )
            ).all()
        return [
            BotRow(r.identity_id, r.owner_id, r.name, r.name_key, r.created_at, r.revoked_at)
            for r in rows
        ]

    async def bot_by_token(self, token_hash: str) -> BotRow | None:
        """One indexed lookup."""
        found = await self._bots(BOTS.c.token_hash == token_hash)
        return found[0] if found else None

    async def bot_by_name(self, name_key: str) -> BotRow | None:
        """One indexed lookup."""
        found = await self._bots(BOTS.c.name_key == name_key)
        return found[0] if found else None

    async def bots_of(self, owner: str) -> list[BotRow]:
        """The owner's live bots."""
        return await self._bots(BOTS.c.owner_id == owner)

    async def set_bot_token(self, identity: str, token_hash: str) -> None:
        """Update the hash."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(BOTS).where(BOTS.c.identity_id == identity).values(token_hash=token_hash)
            )

    async def revoke_bot(self, identity: str, now: float) -> None:
        """Revoke the bot and its identity in one transaction."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(BOTS)
                .where(BOTS.c.identity_id == identity, BOTS.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            await conn.execute(
                update(IDS)
                .where(IDS.c.id == identity, IDS.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )


def _seek_values(seek: SeekRow) -> dict[str, Any]:
    return {
        "ticket": seek.ticket,
        "identity_id": seek.identity,
        "name": seek.name,
        "variant": seek.variant,
        "players": seek.players,
        "teams": seek.teams,
        "mu": seek.mu,
        "sigma": seek.sigma,
        "joined_at": seek.joined_at,
        "bot_after": seek.bot_after,
        "seen_at": seek.seen_at,
        "holder": seek.holder,
        "away_since": seek.away_since,
        "table_id": seek.table_id,
        "seat": seek.seat,
        "matched_at": seek.matched_at,
    }


def _seek(row: Any) -> SeekRow:
    return SeekRow(
        ticket=row.ticket,
        identity=row.identity_id,
        name=row.name,
        variant=row.variant,
        players=row.players,
        teams=bool(row.teams),
        mu=row.mu,
        sigma=row.sigma,
        joined_at=row.joined_at,
        bot_after=row.bot_after,
        seen_at=row.seen_at,
        holder=row.holder,
        away_since=row.away_since,
        table_id=row.table_id,
        seat=row.seat,
        matched_at=row.matched_at,
    )
