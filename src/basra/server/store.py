"""Storage behind one interface: :class:`MemoryStore` for tests, :class:`SqlStore` for use.

The store keeps table settings, seats and each table's event log (deals and
plays, see :mod:`basra.server.models`). It knows nothing about the rules: the
match service replays events through the engine. :meth:`Store.append_event`
is the one write a move needs, and it fails (returns ``False``) when another
writer already took that step, so the log can never fork.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "Event",
    "GameSummary",
    "MemoryStore",
    "SeatRow",
    "SqlStore",
    "Store",
    "TableRow",
    "database_url",
    "open_store",
]


@dataclass(frozen=True)
class SeatRow:
    """One seat of a table: a person's (open while ``player_key`` is None) or a bot's."""

    seat: int
    kind: str
    """``"person"`` or ``"bot"``."""
    level: str | None = None
    """The bot level (``easy`` ... ``expert``) for a bot seat."""
    player_key: str | None = None
    """SHA-256 hex of the secret of the person sitting here (never sent to clients)."""
    name: str | None = None


@dataclass(frozen=True)
class Event:
    """One step of a table's game: ``deal`` (the pack, card text top first) or ``play``."""

    seq: int
    kind: str
    data: str


@dataclass
class TableRow:
    """A table's settings and status, with its seats."""

    id: str
    variant: str
    rules: dict[str, Any]
    players: int
    teams: bool
    first_dealer: int
    hints: bool
    seats: list[SeatRow]
    status: str = "open"
    """``open`` (waiting for people), ``playing`` or ``over``."""
    scores: list[int] = field(default_factory=list)
    winner: int | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass(frozen=True)
class GameSummary:
    """A line of a person's list of games."""

    id: str
    variant: str
    players: int
    teams: bool
    status: str
    seat: int
    names: list[str | None]
    scores: list[int]
    winner: int | None
    created_at: float
    updated_at: float


class Store(Protocol):
    """What the match service needs from storage."""

    async def start(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Release connections."""

    async def create_table(self, table: TableRow) -> None:
        """Store a new table and its seats."""

    async def load_table(self, table_id: str) -> TableRow | None:
        """A table's settings and seats, or None."""

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The table's events with ``seq >= since``, in order."""

    async def append_event(self, table_id: str, event: Event) -> bool:
        """Store the next event; False if that ``seq`` is taken (another writer won)."""

    async def claim_seat(self, table_id: str, seat: int, player_key: str, name: str) -> bool:
        """Sit a person in an open seat; False if someone took it first."""

    async def rename(self, table_id: str, seat: int, player_key: str, name: str) -> None:
        """Change the name of the person in a seat (only their own)."""

    async def set_status(
        self, table_id: str, status: str, scores: Sequence[int], winner: int | None
    ) -> None:
        """Record where the game stands (for lists; the events stay the truth)."""

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Link a rematch once: returns the rematch id now stored (the first one wins)."""

    async def games_of(self, player_key: str, limit: int = 50) -> list[GameSummary]:
        """The tables a person sat at, newest first."""

    async def list_tables(self, statuses: Sequence[str], limit: int = 50) -> list[TableRow]:
        """Tables in one of ``statuses``, newest first."""


def _summary(table: TableRow, seat: int) -> GameSummary:
    return GameSummary(
        id=table.id,
        variant=table.variant,
        players=table.players,
        teams=table.teams,
        status=table.status,
        seat=seat,
        names=[s.name for s in table.seats],
        scores=list(table.scores),
        winner=table.winner,
        created_at=table.created_at,
        updated_at=table.updated_at,
    )


class MemoryStore:
    """A store in a dict: for tests and for ``--database memory``."""

    def __init__(self) -> None:
        self._tables: dict[str, TableRow] = {}
        self._events: dict[str, list[Event]] = {}

    async def start(self) -> None:
        """Nothing to connect."""

    async def close(self) -> None:
        """Nothing to release."""

    async def create_table(self, table: TableRow) -> None:
        """Store a copy of the table."""
        if table.id in self._tables:
            raise ValueError(f"table {table.id!r} exists")
        self._tables[table.id] = replace(table, seats=list(table.seats))
        self._events[table.id] = []

    async def load_table(self, table_id: str) -> TableRow | None:
        """A copy of the table, or None."""
        table = self._tables.get(table_id)
        return None if table is None else replace(table, seats=list(table.seats))

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on."""
        return list(self._events.get(table_id, [])[since:])

    async def append_event(self, table_id: str, event: Event) -> bool:
        """Append when ``event.seq`` is the next step."""
        log = self._events[table_id]
        if event.seq != len(log):
            return False
        log.append(event)
        return True

    async def claim_seat(self, table_id: str, seat: int, player_key: str, name: str) -> bool:
        """Sit a person if the seat is open."""
        table = self._tables[table_id]
        row = table.seats[seat]
        if row.kind != "person" or row.player_key is not None:
            return False
        table.seats[seat] = replace(row, player_key=player_key, name=name)
        return True

    async def rename(self, table_id: str, seat: int, player_key: str, name: str) -> None:
        """Rename the person in the seat if the key matches."""
        table = self._tables[table_id]
        row = table.seats[seat]
        if row.player_key == player_key:
            table.seats[seat] = replace(row, name=name)

    async def set_status(
        self, table_id: str, status: str, scores: Sequence[int], winner: int | None
    ) -> None:
        """Record the status."""
        table = self._tables[table_id]
        table.status, table.scores, table.winner = status, list(scores), winner
        table.updated_at = time.time()

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Link the rematch once."""
        table = self._tables[table_id]
        if table.rematch_id is None:
            table.rematch_id = rematch_id
        return table.rematch_id

    async def games_of(self, player_key: str, limit: int = 50) -> list[GameSummary]:
        """The person's tables, newest first."""
        out = []
        for table in self._tables.values():
            for row in table.seats:
                if row.player_key == player_key:
                    out.append(_summary(table, row.seat))
                    break
        out.sort(key=lambda g: g.created_at, reverse=True)
        return out[:limit]

    async def list_tables(self, statuses: Sequence[str], limit: int = 50) -> list[TableRow]:
        """Tables by status, newest first."""
        found = [t for t in self._tables.values() if t.status in statuses]
        found.sort(key=lambda t: t.created_at, reverse=True)
        return [replace(t, seats=list(t.seats)) for t in found[:limit]]


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


class SqlStore:
    """The store in a SQL database through SQLAlchemy 2 (async): SQLite or PostgreSQL.

    :meth:`start` runs the Alembic migrations shipped in the package, so a new
    or older database is brought up to date before the first request.
    """

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self._engine: Any = None
        self._sqlite = self.url.startswith("sqlite")
        self._pending: list[tuple[str, Event, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._insert_ignore: Any = None

    async def start(self) -> None:
        """Create the engine and run the migrations."""
        from sqlalchemy import event
        from sqlalchemy.ext.asyncio import create_async_engine

        if self._sqlite:
            path = self.url.split(":///", 1)[1] if ":///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            # One connection: SQLite writes one at a time anyway, and every new
            # aiosqlite connection costs a thread and the pragmas below.
            engine = create_async_engine(
                self.url, connect_args={"timeout": 30}, pool_size=1, max_overflow=0, pool_timeout=60
            )

            @event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA busy_timeout=30000")
                cursor.close()

        else:
            engine = create_async_engine(self.url, pool_size=10, max_overflow=10)
        self._engine = engine
        async with engine.begin() as connection:
            await connection.run_sync(_upgrade)
        from basra.server import models

        if self._sqlite:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            self._insert_ignore = sqlite_insert(models.events).on_conflict_do_nothing()
        else:
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            self._insert_ignore = pg_insert(models.events).on_conflict_do_nothing()

    async def close(self) -> None:
        """Finish pending writes, then dispose of the engine."""
        if self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer], timeout=10)
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    async def create_table(self, table: TableRow) -> None:
        """Insert the table and its seats in one transaction."""
        from basra.server import models

        now = time.time()
        async with self._engine.begin() as conn:
            await conn.execute(
                models.tables.insert().values(
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
                )
            )
            await conn.execute(
                models.seats.insert(),
                [
                    {
                        "table_id": table.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "player_key": s.player_key,
                        "name": s.name,
                    }
                    for s in table.seats
                ],
            )

    async def load_table(self, table_id: str) -> TableRow | None:
        """The table and its seats, or None."""
        from sqlalchemy import select

        from basra.server import models

        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(models.tables).where(models.tables.c.id == table_id))
            ).first()
            if row is None:
                return None
            seat_rows = (
                await conn.execute(
                    select(models.seats)
                    .where(models.seats.c.table_id == table_id)
                    .order_by(models.seats.c.seat)
                )
            ).all()
        return _table_from(row, seat_rows)

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on."""
        from sqlalchemy import select

        from basra.server import models

        e = models.events
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(e.c.seq, e.c.kind, e.c.data)
                    .where(e.c.table_id == table_id, e.c.seq >= since)
                    .order_by(e.c.seq)
                )
            ).all()
        return [Event(r.seq, r.kind, r.data) for r in rows]

    async def append_event(self, table_id: str, event: Event) -> bool:
        """Insert the event; False when that step is already taken by another writer.

        Appends from every table are committed together (group commit): each
        caller waits for the transaction that holds its row, so a move is on
        disk before anyone is told of it, at a fraction of a commit each.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self._pending.append((table_id, event, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        return await done

    async def _write_pending(self) -> None:
        from basra.server import models

        e = models.events
        while self._pending:
            batch, self._pending = self._pending, []
            rows = [
                {
                    "table_id": table_id,
                    "seq": event.seq,
                    "kind": event.kind,
                    "data": event.data,
                    "at": time.time(),
                }
                for table_id, event, _ in batch
            ]
            try:
                async with self._engine.begin() as conn:
                    # One INSERT of every row, skipping steps already taken;
                    # RETURNING names the rows that went in.
                    result = await conn.execute(
                        self._insert_ignore.returning(e.c.table_id, e.c.seq), rows
                    )
                    inserted = {(r.table_id, r.seq) for r in result}
            except Exception as exc:
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for table_id, event, done in batch:
                key = (table_id, event.seq)
                ours = key in inserted
                inserted.discard(key)  # a second writer of one step in a batch loses
                if not done.done():
                    done.set_result(ours)

    async def claim_seat(self, table_id: str, seat: int, player_key: str, name: str) -> bool:
        """An atomic UPDATE on the open seat."""
        from sqlalchemy import update

        from basra.server import models

        s = models.seats
        async with self._engine.begin() as conn:
            result = await conn.execute(
                update(s)
                .where(
                    s.c.table_id == table_id,
                    s.c.seat == seat,
                    s.c.kind == "person",
                    s.c.player_key.is_(None),
                )
                .values(player_key=player_key, name=name)
            )
            return bool(result.rowcount)

    async def rename(self, table_id: str, seat: int, player_key: str, name: str) -> None:
        """Rename one's own seat."""
        from sqlalchemy import update

        from basra.server import models

        s = models.seats
        async with self._engine.begin() as conn:
            await conn.execute(
                update(s)
                .where(s.c.table_id == table_id, s.c.seat == seat, s.c.player_key == player_key)
                .values(name=name)
            )

    async def set_status(
        self, table_id: str, status: str, scores: Sequence[int], winner: int | None
    ) -> None:
        """Update the status columns."""
        from sqlalchemy import update

        from basra.server import models

        t = models.tables
        async with self._engine.begin() as conn:
            await conn.execute(
                update(t)
                .where(t.c.id == table_id)
                .values(
                    status=status,
                    scores=json.dumps(list(scores)),
                    winner=winner,
                    updated_at=time.time(),
                )
            )

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Set the rematch link if none is set; return the stored one."""
        from sqlalchemy import select, update

        from basra.server import models

        t = models.tables
        async with self._engine.begin() as conn:
            await conn.execute(
                update(t)
                .where(t.c.id == table_id, t.c.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            stored = (
                await conn.execute(select(t.c.rematch_id).where(t.c.id == table_id))
            ).scalar_one()
        return str(stored)

    async def games_of(self, player_key: str, limit: int = 50) -> list[GameSummary]:
        """Join seats to tables for the person's key."""
        from sqlalchemy import select

        from basra.server import models

        t, s = models.tables, models.seats
        async with self._engine.connect() as conn:
            mine = (
                await conn.execute(
                    select(s.c.table_id, s.c.seat)
                    .join(t, t.c.id == s.c.table_id)
                    .where(s.c.player_key == player_key)
                    .order_by(t.c.created_at.desc())
                    .limit(limit)
                )
            ).all()
            out = []
            for table_id, seat in mine:
                table = await self._load(conn, table_id)
                if table is not None:
                    out.append(_summary(table, seat))
        return out

    async def list_tables(self, statuses: Sequence[str], limit: int = 50) -> list[TableRow]:
        """Tables by status, newest first."""
        from sqlalchemy import select

        from basra.server import models

        t = models.tables
        async with self._engine.connect() as conn:
            ids = (
                await conn.execute(
                    select(t.c.id)
                    .where(t.c.status.in_(list(statuses)))
                    .order_by(t.c.created_at.desc())
                    .limit(limit)
                )
            ).scalars()
            out = []
            for table_id in list(ids):
                table = await self._load(conn, table_id)
                if table is not None:
                    out.append(table)
        return out

    async def _load(self, conn: Any, table_id: str) -> TableRow | None:
        from sqlalchemy import select

        from basra.server import models

        row = (
            await conn.execute(select(models.tables).where(models.tables.c.id == table_id))
        ).first()
        if row is None:
            return None
        seat_rows = (
            await conn.execute(
                select(models.seats)
                .where(models.seats.c.table_id == table_id)
                .order_by(models.seats.c.seat)
            )
        ).all()
        return _table_from(row, seat_rows)


def _table_from(row: Any, seat_rows: Sequence[Any]) -> TableRow:
    return TableRow(
        id=row.id,
        variant=row.variant,
        rules=json.loads(row.rules or "{}"),
        players=row.players,
        teams=bool(row.teams),
        first_dealer=row.first_dealer,
        hints=bool(row.hints),
        seats=[
            SeatRow(seat=s.seat, kind=s.kind, level=s.level, player_key=s.player_key, name=s.name)
            for s in seat_rows
        ],
        status=row.status,
        scores=json.loads(row.scores or "[]"),
        winner=row.winner,
        rematch_of=row.rematch_of,
        rematch_id=row.rematch_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _upgrade(connection: Any) -> None:
    """Run the packaged Alembic migrations on an open (sync) connection."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def open_store(url: str | None) -> Store:
    """The store for a ``--database`` value: ``memory`` or a database URL / SQLite path."""
    if url in (None, "", "memory"):
        return MemoryStore()
    return SqlStore(url)
