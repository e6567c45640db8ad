"""Tables, seats and event logs in SQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.runtime.faults import crash_point
from basra.server.store.rows import (
    LIVE_STATUSES,
    Cap,
    CapReachedError,
    Claim,
    Event,
    GameSummary,
    SeatKind,
    SeatRow,
    Status,
    TableRow,
    TableStatus,
    seats_filled,
    summary_of,
)
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlTables", "check_caps", "insert_table", "load_tables"]

T, S, E = schema.tables, schema.seats, schema.events

_Pending = tuple[str, Event, Status | None, "asyncio.Future[bool]"]


class SqlTables:
    """:class:`~basra.server.store.protocols.TableStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        self._pending: list[_Pending] = []
        self._writer: asyncio.Task[None] | None = None

    async def flush(self) -> None:
        """Wait for the appends being committed (before the engine closes)."""
        if self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer], timeout=10)

    async def create(
        self, table: TableRow, caps: Sequence[Cap] = (), events: Sequence[Event] = ()
    ) -> None:
        """Lock the caps' keys, count them and insert the table (and its log), in one
        transaction."""
        try:
            async with self.db.engine.begin() as conn:
                await check_caps(self.db, conn, caps)
                await insert_table(conn, table)
                if events:
                    await conn.execute(E.insert(), _event_rows(table.id, events, time.time()))
        except IntegrityError:
            raise ValueError(f"table {table.id!r} exists") from None

    async def extend(self, table_id: str, events: Sequence[Event], status: Status) -> bool:
        """Insert the events and the status in one transaction; False when a step is taken."""
        if not events:
            return False
        now = time.time()
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(E.insert(), _event_rows(table_id, events, now))
                await conn.execute(status_update(table_id, status, now))
        except IntegrityError:
            return False
        return True

    async def load(self, table_id: str) -> TableRow | None:
        """The table and its seats, or None."""
        async with self.db.engine.connect() as conn:
            found = await load_tables(conn, [table_id])
        return found[0] if found else None

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(E.c.seq, E.c.kind, E.c.data, E.c.at, E.c.auto)
                    .where(E.c.table_id == table_id, E.c.seq >= since)
                    .order_by(E.c.seq)
                )
            ).all()
        return [Event(r.seq, r.kind, r.data, r.at, r.auto) for r in rows]

    async def append(self, table_id: str, event: Event, status: Status | None = None) -> bool:
        """Insert the event (and its status); False when another writer took that step.

        Appends from every table are committed together (group commit): each
        caller waits for the transaction that holds its row, so a move is on
        disk before anyone is told of it, at a fraction of a commit each. A
        status goes into the same transaction as its event, only if the event
        went in.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self._pending.append((table_id, event, status, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        return await done

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            now = time.time()
            rows = [
                {
                    "table_id": t,
                    "seq": e.seq,
                    "kind": e.kind,
                    "data": e.data,
                    "at": now if e.at is None else e.at,
                    "auto": e.auto,
                }
                for t, e, _, _ in batch
            ]
            final = any(s is not None and s.status == TableStatus.OVER for _, _, s, _ in batch)
            won: list[bool] = []
            try:
                async with self.db.engine.begin() as conn:
                    # One INSERT of every row, skipping steps already taken;
                    # RETURNING names the rows that went in.
                    result = await conn.execute(
                        self.db.insert_event_ignore.returning(E.c.table_id, E.c.seq), rows
                    )
                    inserted = {(r.table_id, r.seq) for r in result}
                    for table_id, event, status, _ in batch:
                        key = (table_id, event.seq)
                        ours = key in inserted
                        inserted.discard(key)  # a second writer of one step in a batch loses
                        won.append(ours)
                        if ours and status is not None:
                            await conn.execute(status_update(table_id, status, now))
                    if final:
                        crash_point("final_before_commit")
            except Exception as exc:
                for _, _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            if final:
                crash_point("final_after_commit")
            for (_, _, _, done), ours in zip(batch, won, strict=True):
                if not done.done():
                    done.set_result(ours)

    async def claim_seat(self, table_id: str, seat: int, identity: str, name: str) -> Claim:
        """Seat the person and, if no seat is left open, start the table: one transaction."""
        async with self.db.engine.begin() as conn:
            seated = await conn.execute(
                update(S)
                .where(
                    S.c.table_id == table_id,
                    S.c.seat == seat,
                    S.c.kind == SeatKind.PERSON,
                    S.c.identity_id.is_(None),
                )
                .values(identity_id=identity, name=name)
            )
            if not seated.rowcount:
                return Claim(False, False)
            seats = await _seats_of(conn, [table_id])
            started = False
            if seats_filled(seats.get(table_id, [])):
                result = await conn.execute(
                    update(T)
                    .where(T.c.id == table_id, T.c.status == TableStatus.OPEN)
                    .values(status=TableStatus.PLAYING, updated_at=time.time())
                )
                started = bool(result.rowcount)
            if started:
                crash_point("join_before_commit")
        if started:
            crash_point("join_after_commit")
        return Claim(True, started)

    async def rename_seat(self, table_id: str, seat: int, identity: str, name: str) -> None:
        """Rename one's own seat."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(S)
                .where(S.c.table_id == table_id, S.c.seat == seat, S.c.identity_id == identity)
                .values(name=name)
            )

    async def set_status(self, table_id: str, status: Status) -> None:
        """Update the status columns."""
        async with self.db.engine.begin() as conn:
            await conn.execute(status_update(table_id, status, time.time()))

    async def set_fault(self, table_id: str, fault: str | None) -> None:
        """Update the fault column."""
        async with self.db.engine.begin() as conn:
            await conn.execute(update(T).where(T.c.id == table_id).values(fault=fault))

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Set the rematch link if none is set; return the stored one."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(T)
                .where(T.c.id == table_id, T.c.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            stored = (
                await conn.execute(select(T.c.rematch_id).where(T.c.id == table_id))
            ).scalar_one()
        return str(stored)

    async def games_of(self, identity: str, limit: int = 50) -> list[GameSummary]:
        """Join seats to tables for the identity."""
        async with self.db.engine.connect() as conn:
            mine = (
                await conn.execute(
                    select(S.c.table_id, S.c.seat)
                    .join(T, T.c.id == S.c.table_id)
                    .where(S.c.identity_id == identity)
                    .order_by(T.c.created_at.desc())
                    .limit(limit)
                )
            ).all()
            tables = {t.id: t for t in await load_tables(conn, [r.table_id for r in mine])}
        return [summary_of(tables[r.table_id], r.seat) for r in mine if r.table_id in tables]

    async def find(
        self, statuses: Sequence[TableStatus], limit: int = 50, *, private: bool = True
    ) -> list[TableRow]:
        """Tables by status, newest first."""
        query = select(T.c.id).where(T.c.status.in_(list(statuses)))
        if not private:
            query = query.where(T.c.daily.is_(None), T.c.private.is_(False))
        async with self.db.engine.connect() as conn:
            ids = (await conn.execute(query.order_by(T.c.created_at.desc()).limit(limit))).scalars()
            return await load_tables(conn, list(ids))

    async def count(
        self,
        *,
        created_by: str | None = None,
        created_from: str | None = None,
        all_bots: bool | None = None,
        statuses: Sequence[TableStatus] = LIVE_STATUSES,
    ) -> int:
        """Count the matching tables."""
        async with self.db.engine.connect() as conn:
            return await _count(conn, created_by, created_from, all_bots, statuses=statuses)

    async def rated_in_play(self, identity: str, below: int | None = None) -> str | None:
        """One indexed join of the identity's seats to rated tables in play."""
        query = (
            select(T.c.id)
            .join(S, S.c.table_id == T.c.id)
            .where(S.c.identity_id == identity)
            .where(T.c.rated.is_(True), T.c.status == TableStatus.PLAYING)
        )
        if below is not None:
            query = query.where(or_(T.c.clock_move.is_(None), T.c.clock_move < below))
        async with self.db.engine.connect() as conn:
            found = (
                await conn.execute(query.order_by(T.c.created_at.desc()).limit(1))
            ).scalar_one_or_none()
        return None if found is None else str(found)

    async def clocked_of(self, identity: str, at_least: int, limit: int = 200) -> list[TableRow]:
        """One indexed join of the identity's seats to live tables with such a clock."""
        async with self.db.engine.connect() as conn:
            ids = (
                await conn.execute(
                    select(T.c.id)
                    .join(S, S.c.table_id == T.c.id)
                    .where(S.c.identity_id == identity)
                    .where(T.c.status.in_(list(LIVE_STATUSES)), T.c.clock_move >= at_least)
                    .order_by(T.c.updated_at.desc())
                    .limit(limit)
                )
            ).scalars()
            return await load_tables(conn, list(ids))

    async def unsettled(self, limit: int = 1000) -> list[str]:
        """Finished tables not settled."""
        async with self.db.engine.connect() as conn:
            found = (
                await conn.execute(
                    select(T.c.id)
                    .where(T.c.status == TableStatus.OVER, T.c.settled_at.is_(None))
                    .limit(limit)
                )
            ).scalars()
            return [str(table_id) for table_id in found]


async def check_caps(db: SqlDatabase, conn: AsyncConnection, caps: Sequence[Cap]) -> None:
    """Lock the caps' keys and count them on an open transaction (the table is inserted
    on it next): :class:`CapReachedError` naming the first full one."""
    if caps:
        await db.lock(conn, [_lock_key(cap) for cap in caps])
    for cap in caps:
        found = await _count(conn, cap.created_by, cap.created_from, cap.all_bots, cap.owner_prefix)
        if found >= cap.limit:
            raise CapReachedError(cap)


def _lock_key(cap: Cap) -> str:
    """The lock a cap's count is taken under: its identity, its address, its event, or the
    server."""
    if cap.created_by is not None:
        return f"tables:identity:{cap.created_by}"
    if cap.created_from is not None:
        return f"tables:address:{cap.created_from}"
    if cap.owner_prefix is not None:
        return f"tables:owner:{cap.owner_prefix}"
    return "tables:server"


async def _count(
    conn: AsyncConnection,
    created_by: str | None,
    created_from: str | None,
    all_bots: bool | None,
    owner_prefix: str | None = None,
    statuses: Sequence[TableStatus] = LIVE_STATUSES,
) -> int:
    query = select(func.count()).select_from(T).where(T.c.status.in_(list(statuses)))
    if created_by is not None:
        query = query.where(T.c.created_by == created_by)
    if created_from is not None:
        query = query.where(T.c.created_from == created_from)
    if all_bots is not None:
        query = query.where(T.c.all_bots == all_bots)
    if owner_prefix is not None:
        query = query.where(T.c.owner.startswith(owner_prefix, autoescape=True))
    return int((await conn.execute(query)).scalar_one())


async def insert_table(conn: AsyncConnection, table: TableRow) -> None:
    """Insert a table and its seats on an open transaction (IntegrityError if the id is taken)."""
    now = time.time()
    await conn.execute(
        T.insert().values(
            id=table.id,
            created_at=table.created_at or now,
            updated_at=now,
            variant=table.variant,
            rules=json.dumps(table.rules),
            players=table.players,
            teams=table.teams,
            first_dealer=table.first_dealer,
            hints=table.hints,
            status=table.status,
            scores=json.dumps(table.scores),
            winner=table.winner,
            rematch_of=table.rematch_of,
            rematch_id=table.rematch_id,
            created_by=table.created_by,
            created_from=table.created_from,
            all_bots=table.all_bots,
            fault=table.fault,
            rated=table.rated,
            clock_move=table.clock_move,
            clock_reserve=table.clock_reserve,
            settled_at=table.settled_at,
            daily=table.daily,
            owner=table.owner,
            private=table.private,
            forfeits=table.forfeits,
            lasting=table.lasting,
        )
    )
    await conn.execute(
        S.insert(),
        [
            {
                "table_id": table.id,
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "identity_id": s.identity,
                "name": s.name,
            }
            for s in table.seats
        ],
    )


def _event_rows(table_id: str, events: Sequence[Event], now: float) -> list[dict[str, Any]]:
    """The ``events`` rows of some of a table's events (stored at ``now`` when not timed)."""
    return [
        {
            "table_id": table_id,
            "seq": e.seq,
            "kind": e.kind,
            "data": e.data,
            "at": now if e.at is None else e.at,
            "auto": e.auto,
        }
        for e in events
    ]


def status_update(table_id: str, status: Status, now: float) -> Any:
    """The UPDATE that records where a table stands."""
    return (
        update(T)
        .where(T.c.id == table_id)
        .values(
            status=status.status,
            scores=json.dumps(list(status.scores)),
            winner=status.winner,
            updated_at=now,
        )
    )


async def _seats_of(conn: AsyncConnection, ids: Sequence[str]) -> dict[str, list[SeatRow]]:
    seats: dict[str, list[SeatRow]] = {}
    seat_rows = await conn.execute(
        select(S).where(S.c.table_id.in_(list(ids))).order_by(S.c.table_id, S.c.seat)
    )
    for s in seat_rows:
        seats.setdefault(s.table_id, []).append(
            SeatRow(
                seat=s.seat,
                kind=SeatKind(s.kind),
                level=s.level,
                identity=s.identity_id,
                name=s.name,
            )
        )
    return seats


async def load_tables(conn: AsyncConnection, ids: Sequence[str]) -> list[TableRow]:
    """The tables of ``ids`` with their seats, in that order (two queries)."""
    if not ids:
        return []
    rows = {r.id: r for r in (await conn.execute(select(T).where(T.c.id.in_(list(ids))))).all()}
    seats = await _seats_of(conn, ids)
    return [_table(rows[i], seats.get(i, [])) for i in ids if i in rows]


def _table(row: Any, seats: list[SeatRow]) -> TableRow:
    return TableRow(
        id=row.id,
        variant=row.variant,
        rules=json.loads(row.rules or "{}"),
        players=row.players,
        teams=bool(row.teams),
        first_dealer=row.first_dealer,
        hints=bool(row.hints),
        seats=seats,
        status=TableStatus(row.status),
        scores=json.loads(row.scores or "[]"),
        winner=row.winner,
        rematch_of=row.rematch_of,
        rematch_id=row.rematch_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        created_by=row.created_by,
        created_from=row.created_from,
        fault=row.fault,
        rated=bool(row.rated),
        clock_move=row.clock_move,
        clock_reserve=row.clock_reserve,
        settled_at=row.settled_at,
        daily=row.daily,
        owner=row.owner,
        private=bool(row.private),
        forfeits=bool(row.forfeits),
        lasting=bool(row.lasting),
    )
