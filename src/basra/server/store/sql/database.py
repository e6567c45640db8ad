"""The one engine of the SQL store: SQLite or PostgreSQL through SQLAlchemy 2 (async).

:meth:`SqlDatabase.start` creates the engine and runs the Alembic migrations
shipped in the package (``migrations/``), so a new or older database is
brought up to date before the first request; on PostgreSQL under an advisory
lock, so processes started together migrate once. The repositories of
:mod:`basra.server.store.sql` all run their statements on this engine.

``memory`` (tests, ``basra serve --database memory``) is SQLite too, through
the same code: a named in-memory database (a shared-cache URI of its own), held
open by one idle connection from :meth:`~SqlDatabase.start` to
:meth:`~SqlDatabase.close`, so that it outlives the pool's connection.
"""

from __future__ import annotations

import functools
import hashlib
import sqlite3
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from basra.server.store.sql import schema

__all__ = ["MEMORY", "MIGRATION_LOCK", "SqlDatabase", "database_url", "migrations_head"]

MEMORY = "memory"
"""The ``--database`` value of a database that lives in this process's memory."""

MIGRATION_LOCK = 0x62617372_61000001
"""The PostgreSQL advisory lock held while the migrations run (one process at a time)."""


def database_url(url: str) -> str:
    """An async SQLAlchemy URL: ``sqlite:///x.db`` and ``postgresql://`` get async drivers.

    >>> database_url("postgresql://u@127.0.0.1:5432/basra")
    'postgresql+asyncpg://u@127.0.0.1:5432/basra'
    >>> database_url("var/basra.db")
    'sqlite+aiosqlite:///var/basra.db'
    >>> database_url("memory").startswith("sqlite+aiosqlite:///file:basra-")
    True
    """
    if url == MEMORY:
        return f"sqlite+aiosqlite:///{_memory_uri()}&uri=true"
    if "://" not in url:
        return f"sqlite+aiosqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme in ("sqlite", "sqlite+pysqlite"):
        return f"sqlite+aiosqlite://{rest}"
    if scheme in ("postgres", "postgresql", "postgresql+psycopg2"):
        return f"postgresql+asyncpg://{rest}"
    return url


def _memory_uri() -> str:
    """A new named in-memory SQLite database (its SQLite URI, without ``uri=true``)."""
    return f"file:basra-{uuid.uuid4().hex}?mode=memory&cache=shared"


class SqlDatabase:
    """The engine, its dialect's few differences, and the migrations."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.sqlite = self.url.startswith("sqlite")
        self.memory = self.sqlite and "mode=memory" in self.url
        """Whether the database lives in this process's memory (gone at :meth:`close`)."""
        self._keeper: sqlite3.Connection | None = None
        self._engine: AsyncEngine | None = None
        self.insert_event_ignore: Any = None
        """An INSERT into ``events`` that skips a step already taken (the dialect's)."""

    @property
    def engine(self) -> AsyncEngine:
        """The engine (after :meth:`start`)."""
        if self._engine is None:
            raise RuntimeError("the store is not started")
        return self._engine

    async def start(self) -> None:
        """Create the engine and run the migrations."""
        if self.memory:
            # The database lives while one connection to it is open: this one.
            uri = self.url.split(":///", 1)[1].removesuffix("&uri=true")
            self._keeper = sqlite3.connect(uri, uri=True, check_same_thread=False)
        elif self.sqlite:
            path = self.url.split(":///", 1)[1] if ":///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        if self.sqlite:
            # One connection: SQLite writes one at a time anyway, and every new
            # aiosqlite connection costs a thread and the pragmas below.
            # (A queue pool for memory too: one connection at a time, never two
            # coroutines' transactions on one connection as a static pool would.)
            engine = create_async_engine(
                self.url,
                connect_args={"timeout": 30},
                poolclass=AsyncAdaptedQueuePool,
                pool_size=1,
                max_overflow=0,
                pool_timeout=60,
            )

            @sa_event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA busy_timeout=30000")
                _journal_wal(cursor)
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            self.insert_event_ignore = sqlite_insert(schema.events).on_conflict_do_nothing()
        else:
            engine = create_async_engine(self.url, pool_size=10, max_overflow=10)
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            self.insert_event_ignore = pg_insert(schema.events).on_conflict_do_nothing()
        self._engine = engine
        async with engine.begin() as connection:
            # Several processes starting together migrate once: the first takes the
            # lock and upgrades; the others wait for it, then find the schema current.
            # On SQLite the lock is the database's write lock, for the whole migration.
            if self.sqlite:
                await connection.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                await connection.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            # A new in-memory database is made from the schema and stamped with the
            # head at once: the same schema as the migrations build (a test holds them
            # together), without running each migration for every test's store.
            await connection.run_sync(_create if self.memory else _upgrade)

    async def close(self) -> None:
        """Dispose of the engine (an in-memory database is gone with it)."""
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None
        if self._keeper is not None:
            self._keeper.close()
            self._keeper = None

    async def lock(self, conn: AsyncConnection, keys: Sequence[str]) -> None:
        """Hold the write locks named by ``keys`` until the transaction ends, in every process.

        PostgreSQL: one advisory transaction lock per key, taken in order (so two
        transactions never wait on each other in a circle). SQLite has one writer
        at a time: a write that changes nothing takes the database's write lock
        (waiting for another process's transaction, up to the busy timeout).
        """
        if self.sqlite:
            leases = schema.leases
            await conn.execute(update(leases).where(leases.c.name.is_(None)).values(until=0))
            return
        for key in sorted(set(keys)):
            number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
            await conn.execute(select(func.pg_advisory_xact_lock(number)))


def _journal_wal(cursor: Any, wait: float = 30.0) -> None:
    """Put the database in WAL mode (readers beside one writer).

    Switching the journal answers "database is locked" at once, without SQLite's busy
    wait, while another process holds a lock (two processes starting together on a new
    file: one of them migrating): try again for up to ``wait`` seconds.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as error:  # the driver's OperationalError, through aiosqlite
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _alembic_config() -> Any:
    """Alembic's configuration for the packaged migrations."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return config


@functools.cache
def _scripts() -> Any:
    """The packaged migrations, read once."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config())


def migrations_head() -> str:
    """The newest migration this code ships."""
    return str(_scripts().get_current_head())


def _upgrade(connection: Any) -> None:
    """Run the packaged Alembic migrations on an open (sync) connection."""
    from alembic import command

    config = _alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _create(connection: Any) -> None:
    """Make the schema in a new database and stamp it with the head migration."""
    from alembic.migration import MigrationContext

    schema.metadata.create_all(connection)
    MigrationContext.configure(connection).stamp(_scripts(), migrations_head())
