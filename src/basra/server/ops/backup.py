"""``basra admin backup`` / ``restore`` / ``check``: a consistent dump, and proof it replays.

- **PostgreSQL**: ``pg_dump --format=custom`` (one transaction's snapshot: consistent
  while the site runs), restored with ``pg_restore`` into an empty database;
- **SQLite**: the database's online backup (``sqlite3``'s backup API: a consistent copy
  while the server writes), restored by copying it into place (the server stopped);
- **the check** (:func:`check_games`): every stored table's log is replayed through the
  one reducer (:func:`basra.server.table.reducer.replay`); a finished game must end over,
  with the scores and winner its row keeps. ``backup`` checks the copy (SQLite) or the
  database dumped (PostgreSQL), ``restore`` the database restored.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from basra.server.store.rows import TableStatus
from basra.server.store.sql import SqlStore, database_url
from basra.server.table.reducer import replay

__all__ = [
    "BackupError",
    "Checked",
    "backup",
    "check_games",
    "is_postgres",
    "restore",
    "sqlite_path",
]


class BackupError(RuntimeError):
    """A backup or restore that cannot be made, said in words."""


def is_postgres(url: str) -> bool:
    """Whether a ``--database`` value is PostgreSQL."""
    return url.startswith(("postgres://", "postgresql"))


def sqlite_path(url: str) -> Path:
    """The file of a SQLite ``--database`` value.

    >>> str(sqlite_path("sqlite:///var/basra.db")), str(sqlite_path("var/basra.db"))
    ('var/basra.db', 'var/basra.db')
    """
    async_url = database_url(url)
    return Path(async_url.split(":///", 1)[1])


def _libpq(url: str) -> str:
    """A URL for pg_dump and pg_restore (no SQLAlchemy driver)."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if "+" in scheme or scheme == "postgres" else url


def _pg_tool(name: str) -> str:
    installed = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    found = installed[-1] if installed else shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (apt-get install postgresql-client)")
    return found


@dataclass
class Checked:
    """What :func:`check_games` found."""

    tables: int = 0
    events: int = 0
    finished: int = 0
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        verdict = "every game replays" if not self.failures else f"{len(self.failures)} FAILED"
        return (
            f"{self.tables} tables, {self.events} events, {self.finished} finished games "
            f"replayed: {verdict}"
        )


async def check_games(url: str) -> Checked:
    """Replay every stored table of a database (see the module's docstring)."""
    store = SqlStore(url)
    await store.start()
    checked = Checked()
    try:
        rows = await store.tables.find(list(TableStatus), limit=10_000_000)
        for row in rows:
            checked.tables += 1
            try:
                events = await store.tables.events(row.id)
                state = replay(row, events)
                checked.events += len(events)
                if row.status == TableStatus.OVER:
                    checked.finished += 1
                    if not state.is_over:
                        raise ValueError("finished, but its log does not end the game")
                    if list(state.scores) != list(row.scores):
                        raise ValueError(f"scores {list(state.scores)} != stored {row.scores}")
            except Exception as error:
                checked.failures.append(f"{row.id}: {error}")
    finally:
        await store.close()
    return checked


def backup(url: str, out: Path) -> Checked:
    """Dump the database to ``out`` and check it (see the module's docstring)."""
    if out.exists():
        raise BackupError(f"{out} exists: give a new file name")
    out.parent.mkdir(parents=True, exist_ok=True)
    if is_postgres(url):
        tmp = out.with_name(out.name + ".part")
        subprocess.run(
            [_pg_tool("pg_dump"), "--format=custom", "--file", str(tmp), "--dbname", _libpq(url)],
            check=True,
        )
        os.replace(tmp, out)
        return asyncio.run(check_games(url))
    source = sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"there is no SQLite database at {source}")
    tmp = out.with_name(out.name + ".part")
    with sqlite3.connect(source) as src, sqlite3.connect(tmp) as dst:
        src.backup(dst)
    os.replace(tmp, out)
    return asyncio.run(check_games(str(out)))


def restore(dump: Path, url: str, force: bool = False) -> Checked:
    """Restore a dump into a database (an empty one, unless ``force``), then check it."""
    if not dump.is_file():
        raise BackupError(f"there is no dump at {dump}")
    if is_postgres(url):
        subprocess.run(
            [
                _pg_tool("pg_restore"),
                "--no-owner",
                "--exit-on-error",
                *(["--clean", "--if-exists"] if force else []),
                "--dbname",
                _libpq(url),
                str(dump),
            ],
            check=True,
        )
    else:
        target = sqlite_path(url)
        if target.exists() and target.stat().st_size and not force:
            raise BackupError(f"{target} exists: restore into a new file, or give --force")
        target.parent.mkdir(parents=True, exist_ok=True)
        for suffix in ("-wal", "-shm"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        with sqlite3.connect(dump) as src, sqlite3.connect(target) as dst:
            src.backup(dst)
    return asyncio.run(check_games(url))
