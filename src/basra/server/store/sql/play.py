"""Quick play's pool, leases and server secrets in SQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import Cap, SeekRow, TableRow
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.tables import check_caps, insert_table

__all__ = ["SqlLeases", "SqlSecrets", "SqlSeeks"]

SK, LEASE, SECRET = schema.seeks, schema.leases, schema.secrets


class _GoneError(Exception):
    """A seek of a group was taken or left meanwhile: seat nobody."""


class SqlSeeks:
    """:class:`~basra.server.store.protocols.SeekStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def put(self, seek: SeekRow) -> None:
        """Delete the identity's seek and insert this one, in one transaction."""
        for attempt in range(3):
            try:
                async with self.db.engine.begin() as conn:
                    await conn.execute(delete(SK).where(SK.c.identity_id == seek.identity))
                    await conn.execute(SK.insert().values(**_seek_values(seek)))
                return
            except IntegrityError:  # the same identity seeking twice at once: the last one wins
                if attempt == 2:
                    raise

    async def of_identity(self, identity: str) -> SeekRow | None:
        """One indexed lookup."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(SK).where(SK.c.identity_id == identity))).first()
        return None if row is None else _seek(row)

    async def get(self, tickets: Sequence[str]) -> list[SeekRow]:
        """Those that exist."""
        if not tickets:
            return []
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(select(SK).where(SK.c.ticket.in_(list(tickets))))).all()
        return [_seek(r) for r in rows]

    async def waiting(self) -> list[SeekRow]:
        """Seeks not seated, oldest first."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(SK).where(SK.c.table_id.is_(None)).order_by(SK.c.joined_at)
                )
            ).all()
        return [_seek(r) for r in rows]

    async def touch(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Lock the waiting ones in ticket order, skipping any a pairing pass holds (it is
        seating them), then one UPDATE: it never waits on a pass, so never deadlocks one."""
        if not tickets:
            return
        async with self.db.engine.begin() as conn:
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
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(SK)
                .where(SK.c.ticket == ticket, SK.c.holder == holder, SK.c.table_id.is_(None))
                .values(away_since=away_since)
            )

    async def drop(self, tickets: Sequence[str]) -> None:
        """Delete them."""
        if tickets:
            async with self.db.engine.begin() as conn:
                await conn.execute(delete(SK).where(SK.c.ticket.in_(list(tickets))))

    async def sweep(self, seen_before: float, away_before: float, matched_before: float) -> int:
        """One DELETE."""
        waiting = SK.c.table_id.is_(None)
        async with self.db.engine.begin() as conn:
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

    async def seat(
        self, seats: Mapping[str, int], table: TableRow, now: float, caps: Sequence[Cap] = ()
    ) -> bool:
        """Claim every seek (each UPDATE must find it waiting), then count the caps and
        insert the table."""
        tickets = sorted(seats)
        waiting = (SK.c.ticket.in_(tickets), SK.c.table_id.is_(None), SK.c.away_since.is_(None))
        try:
            async with self.db.engine.begin() as conn:
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
                await check_caps(self.db, conn, caps)
                await insert_table(conn, table)
        except (_GoneError, IntegrityError):
            return False
        return True

    async def pool_counts(self, seen_after: float) -> dict[tuple[str, int, bool], int]:
        """One grouped count."""
        async with self.db.engine.connect() as conn:
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


class SqlLeases:
    """:class:`~basra.server.store.protocols.LeaseStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def take(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Renew or take over an expired lease in one UPDATE; else insert it if there is none."""
        async with self.db.engine.begin() as conn:
            taken = await conn.execute(
                update(LEASE)
                .where(LEASE.c.name == name, or_(LEASE.c.holder == holder, LEASE.c.until < now))
                .values(holder=holder, until=now + ttl)
            )
        if taken.rowcount:
            return True
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(LEASE.insert().values(name=name, holder=holder, until=now + ttl))
        except IntegrityError:  # someone else holds it
            return False
        return True

    async def renew(self, holder: str, names: Sequence[str], now: float, ttl: float) -> set[str]:
        """One UPDATE for them all, and one SELECT of those the holder has (RETURNING is
        not in every SQLite a server may run on)."""
        if not names:
            return set()
        wanted = list(dict.fromkeys(names))
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(LEASE)
                .where(LEASE.c.holder == holder, LEASE.c.name.in_(wanted))
                .values(until=now + ttl)
            )
            rows = await conn.execute(
                select(LEASE.c.name).where(LEASE.c.holder == holder, LEASE.c.name.in_(wanted))
            )
            return {str(r[0]) for r in rows}

    async def release(self, holder: str, names: Sequence[str]) -> None:
        """One DELETE of those the holder has."""
        if not names:
            return
        async with self.db.engine.begin() as conn:
            await conn.execute(
                delete(LEASE).where(LEASE.c.holder == holder, LEASE.c.name.in_(list(names)))
            )

    async def held(
        self, prefix: str, expired_before: float | None = None
    ) -> dict[str, tuple[str, float]]:
        """The leases whose names start with ``prefix`` (expired before a time, if given:
        the database filters them, so a read of the few expired ones sends no others)."""
        query = select(LEASE.c.name, LEASE.c.holder, LEASE.c.until).where(
            LEASE.c.name.startswith(prefix, autoescape=True)
        )
        if expired_before is not None:
            query = query.where(LEASE.c.until < expired_before)
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {str(r[0]): (str(r[1]), float(r[2])) for r in rows if str(r[0]).startswith(prefix)}


class SqlSecrets:
    """:class:`~basra.server.store.protocols.SecretStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def get_or_make(self, name: str, fresh: bytes) -> bytes:
        """Read it; store ``fresh`` if there is none (the first writer wins), and read again."""
        query = select(SECRET.c.value).where(SECRET.c.name == name)
        async with self.db.engine.connect() as conn:
            found = (await conn.execute(query)).scalar_one_or_none()
        if found is None:
            try:
                async with self.db.engine.begin() as conn:
                    await conn.execute(SECRET.insert().values(name=name, value=fresh.hex()))
            except IntegrityError:
                pass
            async with self.db.engine.connect() as conn:
                found = (await conn.execute(query)).scalar_one()
        return bytes.fromhex(str(found))


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
