"""The store in a SQL database through SQLAlchemy 2 (async): SQLite or PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from basra.server import models
from basra.server.faults import crash_point
from basra.server.store import (
    LIVE_STATUSES,
    Claim,
    DeviceRow,
    Event,
    GameSummary,
    IdentityRow,
    SeatRow,
    Status,
    TableRow,
    summary_of,
)
from basra.server.store.play_sql import SqlPlay
from basra.server.store.players_sql import SqlPlayers

__all__ = ["SqlStore", "database_url", "insert_table"]

T, S, E = models.tables, models.seats, models.events
IDS, DEV, XFR = models.identities, models.devices, models.transfers


def database_url(url: str) -> str:
    """An async SQLAlchemy URL: ``sqlite:///x.db`` and ``postgresql://`` get async drivers.

    >>> database_url("postgresql://u@127.0.0.1:5432/basra")
    'postgresql+asyncpg://u@127.0.0.1:5432/basra'
    >>> database_url("var/basra.db")
    'sqlite+aiosqlite:///var/basra.db'
    """
    if "://" not in url:
        return f"sqlite+aiosqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme in ("sqlite", "sqlite+pysqlite"):
        return f"sqlite+aiosqlite://{rest}"
    if scheme in ("postgres", "postgresql", "postgresql+psycopg2"):
        return f"postgresql+asyncpg://{rest}"
    return url


_Pending = tuple[str, Event, Status | None, "asyncio.Future[bool]"]


class SqlStore(SqlPlayers, SqlPlay):
    """Every :class:`~basra.server.store.Store` method in SQL.

    :meth:`start` runs the Alembic migrations shipped in the package, so a new
    or older database is brought up to date before the first request.
    """

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self._engine: AsyncEngine | None = None
        self._sqlite = self.url.startswith("sqlite")
        self._pending: list[_Pending] = []
        self._writer: asyncio.Task[None] | None = None
        self._insert_ignore: Any = None

    @property
    def engine(self) -> AsyncEngine:
        """The engine (after :meth:`start`)."""
        if self._engine is None:
            raise RuntimeError("the store is not started")
        return self._engine

    async def start(self) -> None:
        """Create the engine and run the migrations."""
        if self._sqlite:
            path = self.url.split(":///", 1)[1] if ":///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            # One connection: SQLite writes one at a time anyway, and every new
            # aiosqlite connection costs a thread and the pragmas below.
            engine = create_async_engine(
                self.url, connect_args={"timeout": 30}, pool_size=1, max_overflow=0, pool_timeout=60
            )

            @sa_event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA busy_timeout=30000")
                cursor.close()

            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            self._insert_ignore = sqlite_insert(E).on_conflict_do_nothing()
        else:
            engine = create_async_engine(self.url, pool_size=10, max_overflow=10)
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            self._insert_ignore = pg_insert(E).on_conflict_do_nothing()
        self._engine = engine
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade)

    async def close(self) -> None:
        """Finish pending writes, then dispose of the engine."""
        if self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer], timeout=10)
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    # ------------------------------------------------------------ tables

    async def create_table(self, table: TableRow) -> None:
        """Insert the table and its seats in one transaction."""
        from sqlalchemy.exc import IntegrityError

        try:
            async with self.engine.begin() as conn:
                await insert_table(conn, table)
        except IntegrityError:
            raise ValueError(f"table {table.id!r} exists") from None

    async def load_table(self, table_id: str) -> TableRow | None:
        """The table and its seats, or None."""
        async with self.engine.connect() as conn:
            found = await _load(conn, [table_id])
        return found[0] if found else None

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(E.c.seq, E.c.kind, E.c.data, E.c.at, E.c.auto)
                    .where(E.c.table_id == table_id, E.c.seq >= since)
                    .order_by(E.c.seq)
                )
            ).all()
        return [Event(r.seq, r.kind, r.data, r.at, r.auto) for r in rows]

    async def append_event(self, table_id: str, event: Event, status: Status | None = None) -> bool:
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
            final = any(s is not None and s.status == "over" for _, _, s, _ in batch)
            won: list[bool] = []
            try:
                async with self.engine.begin() as conn:
                    # One INSERT of every row, skipping steps already taken;
                    # RETURNING names the rows that went in.
                    result = await conn.execute(
                        self._insert_ignore.returning(E.c.table_id, E.c.seq), rows
                    )
                    inserted = {(r.table_id, r.seq) for r in result}
                    for table_id, event, status, _ in batch:
                        key = (table_id, event.seq)
                        ours = key in inserted
                        inserted.discard(key)  # a second writer of one step in a batch loses
                        won.append(ours)
                        if ours and status is not None:
                            await conn.execute(_status_update(table_id, status, now))
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
        async with self.engine.begin() as conn:
            seated = await conn.execute(
                update(S)
                .where(
                    S.c.table_id == table_id,
                    S.c.seat == seat,
                    S.c.kind == "person",
                    S.c.identity_id.is_(None),
                )
                .values(identity_id=identity, name=name)
            )
            if not seated.rowcount:
                return Claim(False, False)
            still_open = (
                await conn.execute(
                    select(func.count())
                    .select_from(S)
                    .where(S.c.table_id == table_id, S.c.kind == "person")
                    .where(S.c.identity_id.is_(None))
                )
            ).scalar_one()
            started = False
            if not still_open:
                result = await conn.execute(
                    update(T)
                    .where(T.c.id == table_id, T.c.status == "open")
                    .values(status="playing", updated_at=time.time())
                )
                started = bool(result.rowcount)
            if started:
                crash_point("join_before_commit")
        if started:
            crash_point("join_after_commit")
        return Claim(True, started)

    async def rename(self, table_id: str, seat: int, identity: str, name: str) -> None:
        """Rename one's own seat."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(S)
                .where(S.c.table_id == table_id, S.c.seat == seat, S.c.identity_id == identity)
                .values(name=name)
            )

    async def set_status(self, table_id: str, status: Status) -> None:
        """Update the status columns."""
        async with self.engine.begin() as conn:
            await conn.execute(_status_update(table_id, status, time.time()))

    async def set_fault(self, table_id: str, fault: str | None) -> None:
        """Update the fault column."""
        async with self.engine.begin() as conn:
            await conn.execute(update(T).where(T.c.id == table_id).values(fault=fault))

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Set the rematch link if none is set; return the stored one."""
        async with self.engine.begin() as conn:
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
        async with self.engine.connect() as conn:
            mine = (
                await conn.execute(
                    select(S.c.table_id, S.c.seat)
                    .join(T, T.c.id == S.c.table_id)
                    .where(S.c.identity_id == identity)
                    .order_by(T.c.created_at.desc())
                    .limit(limit)
                )
            ).all()
            tables = {t.id: t for t in await _load(conn, [r.table_id for r in mine])}
        return [summary_of(tables[r.table_id], r.seat) for r in mine if r.table_id in tables]

    async def list_tables(
        self, statuses: Sequence[str], limit: int = 50, *, daily: bool = True
    ) -> list[TableRow]:
        """Tables by status, newest first."""
        query = select(T.c.id).where(T.c.status.in_(list(statuses)))
        if not daily:
            query = query.where(T.c.daily.is_(None))
        async with self.engine.connect() as conn:
            ids = (await conn.execute(query.order_by(T.c.created_at.desc()).limit(limit))).scalars()
            return await _load(conn, list(ids))

    async def count_tables(
        self,
        *,
        created_by: str | None = None,
        created_from: str | None = None,
        all_bots: bool | None = None,
        statuses: Sequence[str] = LIVE_STATUSES,
    ) -> int:
        """Count the matching tables."""
        query = select(func.count()).select_from(T).where(T.c.status.in_(list(statuses)))
        if created_by is not None:
            query = query.where(T.c.created_by == created_by)
        if created_from is not None:
            query = query.where(T.c.created_from == created_from)
        if all_bots is not None:
            query = query.where(T.c.all_bots == all_bots)
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    # ------------------------------------------------------------ identities

    async def create_identity(self, identity: IdentityRow) -> None:
        """Insert the identity."""
        async with self.engine.begin() as conn:
            await conn.execute(
                IDS.insert().values(
                    id=identity.id,
                    created_at=identity.created_at,
                    name=identity.name,
                    revoked_at=identity.revoked_at,
                    legacy=identity.legacy,
                )
            )

    async def load_identity(self, identity_id: str) -> IdentityRow | None:
        """The identity, or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(IDS).where(IDS.c.id == identity_id))).first()
        return None if row is None else _identity(row)

    async def claim_legacy(self, identity_id: str) -> bool:
        """Clear the legacy mark in one UPDATE (one caller wins)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(IDS)
                .where(IDS.c.id == identity_id, IDS.c.legacy.is_(True), IDS.c.revoked_at.is_(None))
                .values(legacy=False)
            )
        return bool(result.rowcount)

    async def name_identity(self, identity_id: str, name: str) -> None:
        """Store the name."""
        async with self.engine.begin() as conn:
            await conn.execute(update(IDS).where(IDS.c.id == identity_id).values(name=name))

    async def add_device(self, device: DeviceRow, token_hash: str) -> None:
        """Insert the device."""
        async with self.engine.begin() as conn:
            await conn.execute(
                DEV.insert().values(
                    id=device.id,
                    identity_id=device.identity,
                    token_hash=token_hash,
                    created_at=device.created_at,
                    last_seen_at=device.last_seen_at,
                    user_agent=device.user_agent,
                )
            )

    async def device_by_token(self, token_hash: str) -> tuple[DeviceRow, IdentityRow] | None:
        """One indexed lookup of the device and its identity, both live."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(DEV, IDS.c.created_at.label("i_created_at"), IDS.c.name, IDS.c.legacy)
                    .join(IDS, IDS.c.id == DEV.c.identity_id)
                    .where(DEV.c.token_hash == token_hash)
                    .where(DEV.c.revoked_at.is_(None), IDS.c.revoked_at.is_(None))
                )
            ).first()
        if row is None:
            return None
        identity = IdentityRow(row.identity_id, row.i_created_at, row.name, None, bool(row.legacy))
        return _device(row), identity

    async def touch_device(self, device_id: str, now: float) -> None:
        """Update ``last_seen_at`` (at most once a minute)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(DEV)
                .where(DEV.c.id == device_id, DEV.c.last_seen_at < now - 60)
                .values(last_seen_at=now)
            )

    async def devices_of(self, identity_id: str) -> list[DeviceRow]:
        """Signed-in devices, newest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(DEV)
                    .where(DEV.c.identity_id == identity_id, DEV.c.revoked_at.is_(None))
                    .order_by(DEV.c.created_at.desc())
                )
            ).all()
        return [_device(r) for r in rows]

    async def revoke_devices(
        self, identity_id: str, device_ids: Sequence[str], now: float
    ) -> list[str]:
        """Revoke those devices (of this identity only)."""
        if not device_ids:
            return []
        async with self.engine.begin() as conn:
            found = (
                await conn.execute(
                    select(DEV.c.id).where(
                        DEV.c.identity_id == identity_id,
                        DEV.c.id.in_(list(device_ids)),
                        DEV.c.revoked_at.is_(None),
                    )
                )
            ).scalars()
            ids = list(found)
            if ids:
                await conn.execute(update(DEV).where(DEV.c.id.in_(ids)).values(revoked_at=now))
        return ids

    async def revoke_identity(self, identity_id: str, now: float) -> list[str]:
        """Revoke the identity and every device in one transaction."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(IDS)
                .where(IDS.c.id == identity_id, IDS.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            ids = list(
                (
                    await conn.execute(
                        select(DEV.c.id).where(
                            DEV.c.identity_id == identity_id, DEV.c.revoked_at.is_(None)
                        )
                    )
                ).scalars()
            )
            if ids:
                await conn.execute(update(DEV).where(DEV.c.id.in_(ids)).values(revoked_at=now))
        return ids

    async def add_transfer(
        self, code_hash: str, identity_id: str, device_id: str, now: float, expires_at: float
    ) -> None:
        """Insert the code."""
        async with self.engine.begin() as conn:
            await conn.execute(
                XFR.insert().values(
                    code_hash=code_hash,
                    identity_id=identity_id,
                    device_id=device_id,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

    async def find_transfer(self, code_hash: str, now: float) -> str | None:
        """The code's identity while unused and unexpired."""
        async with self.engine.connect() as conn:
            found = (
                await conn.execute(
                    select(XFR.c.identity_id).where(
                        XFR.c.code_hash == code_hash,
                        XFR.c.used_at.is_(None),
                        XFR.c.expires_at > now,
                    )
                )
            ).scalar_one_or_none()
        return None if found is None else str(found)

    async def use_transfer(self, code_hash: str, now: float) -> str | None:
        """Mark the code used in one UPDATE (one caller wins)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(XFR)
                .where(
                    XFR.c.code_hash == code_hash, XFR.c.used_at.is_(None), XFR.c.expires_at > now
                )
                .values(used_at=now)
            )
            if not result.rowcount:
                return None
            found = (
                await conn.execute(select(XFR.c.identity_id).where(XFR.c.code_hash == code_hash))
            ).scalar_one()
        return str(found)


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


def _status_update(table_id: str, status: Status, now: float) -> Any:
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


async def _load(conn: AsyncConnection, ids: Sequence[str]) -> list[TableRow]:
    """The tables of ``ids`` with their seats, in that order (two queries)."""
    if not ids:
        return []
    rows = {r.id: r for r in (await conn.execute(select(T).where(T.c.id.in_(list(ids))))).all()}
    seats: dict[str, list[SeatRow]] = {}
    seat_rows = await conn.execute(
        select(S).where(S.c.table_id.in_(list(ids))).order_by(S.c.table_id, S.c.seat)
    )
    for s in seat_rows:
        seats.setdefault(s.table_id, []).append(
            SeatRow(seat=s.seat, kind=s.kind, level=s.level, identity=s.identity_id, name=s.name)
        )
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
        status=row.status,
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
    )


def _identity(row: Any) -> IdentityRow:
    return IdentityRow(row.id, row.created_at, row.name, row.revoked_at, bool(row.legacy))


def _device(row: Any) -> DeviceRow:
    return DeviceRow(
        id=row.id,
        identity=row.identity_id,
        created_at=row.created_at,
        last_seen_at=row.last_seen_at,
        revoked_at=row.revoked_at,
        user_agent=row.user_agent,
    )


def _upgrade(connection: Any) -> None:
    """Run the packaged Alembic migrations on an open (sync) connection."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parents[1] / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
