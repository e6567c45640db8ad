"""``basra admin backup`` / ``restore`` / ``check``: a consistent dump, and proof it replays.

- **PostgreSQL**: ``pg_dump --format=custom`` (one transaction's snapshot: consistent
  while the site runs), restored with ``pg_restore`` into an empty database;
- **SQLite**: the database's online backup (``sqlite3``'s backup API: a consistent copy
  while the server writes), restored by copying it into place (the server stopped);
- **the check** (:func:`check_games`): every stored table's log is replayed through the
  one reducer (:func:`basra.server.table.reducer.replay`); a finished game must end over,
  with the scores and winner its row keeps. ``backup`` checks the copy (SQLite) or the
  database dumped (PostgreSQL), ``restore`` the database restored.

Every action first makes sure of what it was given (:func:`locate`): a SQLite file that
is not there, or is not a SQLite database, a server's ``memory`` store, or a URL of
another kind, is a :class:`BackupError` in words, and nothing is created; a database
that cannot be opened (PostgreSQL not answering, a wrong password) is one too, with the
driver's own first line of reason. A restore writes into an empty database only (or
with ``force``), and a dump that is not one leaves nothing behind.
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

from basra.server.ops.config import without_password
from basra.server.store.rows import TableStatus
from basra.server.store.sql.database import database_url
from basra.server.stores import SqlStore
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


SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def locate(url: str) -> str:
    """Check a ``--database`` value before anything opens it; returns it as given.

    A :class:`BackupError` in words for ``memory`` (the server's store that keeps
    nothing), a URL that is neither SQLite nor PostgreSQL, and a SQLite file that is
    not there or is not a SQLite database; nothing is created.
    """
    if url == "memory":
        raise BackupError("'memory' is a server's store that keeps nothing: give a database")
    if "://" in url and not url.startswith(("sqlite://", "sqlite+")) and not is_postgres(url):
        raise BackupError(
            f"{url!r} is not a database URL: give a SQLite file path, sqlite:///PATH "
            "or postgresql://USER@HOST/DB"
        )
    if is_postgres(url):
        return url
    path = sqlite_path(url)
    if path.is_dir():
        raise BackupError(f"{path} is a folder, not a SQLite database")
    if not path.is_file():
        hint = ""
        if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
            hint = f" (sqlite:///{path} is relative; /{path} is sqlite:////{path})"
        raise BackupError(f"there is no SQLite database at {path}{hint}")
    _sqlite_file(path, "SQLite database")
    return url


def _sqlite_file(path: Path, what: str, empty: bool = True) -> None:
    """A :class:`BackupError` unless ``path`` holds a SQLite database (or, if ``empty``,
    nothing yet)."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(f"cannot read {path}: {error.strerror}") from None
    if (head or not empty) and head != SQLITE_MAGIC:
        raise BackupError(f"{path} is not a {what}")


def _reason(error: BaseException) -> str:
    """The first line of an error from a driver or a tool, for one line of words."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


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
    locate(url)
    store = SqlStore(url)
    try:
        await store.start()
    except Exception as error:
        await store.close()
        raise BackupError(
            f"cannot open the database {without_password(url)}: {_reason(error)}"
        ) from None
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
    locate(url)
    if out.exists():
        raise BackupError(f"{out} exists: give a new file name")
    made = [folder for folder in (out.parent, *out.parent.parents) if not folder.exists()]
    out.parent.mkdir(parents=True, exist_ok=True)
    if is_postgres(url):
        tmp = out.with_name(out.name + ".part")
        try:
            _pg_run("pg_dump", ["--format=custom", "--file", str(tmp), "--dbname", _libpq(url)])
        except BackupError:
            tmp.unlink(missing_ok=True)
            for folder in made:  # the innermost first
                folder.rmdir()
            raise
        os.replace(tmp, out)
        return asyncio.run(check_games(url))
    source = sqlite_path(url)
    tmp = out.with_name(out.name + ".part")
    with sqlite3.connect(source) as src, sqlite3.connect(tmp) as dst:
        src.backup(dst)
    os.replace(tmp, out)
    return asyncio.run(check_games(str(out)))


def restore(dump: Path, url: str, force: bool = False) -> Checked:
    """Restore a dump into a database (an empty one, unless ``force``), then check it."""
    if url == "memory" or ("://" in url and not url.startswith("sqlite") and not is_postgres(url)):
        locate(url)
    if not dump.is_file():
        raise BackupError(f"there is no dump at {dump}")
    if is_postgres(url):
        with dump.open("rb") as file:
            if file.read(5) != b"PGDMP":
                raise BackupError(f"{dump} is not a PostgreSQL dump (pg_dump --format=custom)")
        tables = _pg_run(
            "psql",
            ["-XAtqc", "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", _libpq(url)],
        )
        if tables.strip() not in ("", "0") and not force:
            raise BackupError(
                f"{without_password(url)} is not empty ({tables.strip()} tables): restore "
                "into a new database (createdb), or give --force to replace what it holds"
            )
        _pg_run(
            "pg_restore",
            [
                "--no-owner",
                "--exit-on-error",
                *(["--clean", "--if-exists"] if force else []),
                "--dbname",
                _libpq(url),
                str(dump),
            ],
        )
    else:
        _sqlite_file(dump, "SQLite dump (basra admin backup of a SQLite database)", empty=False)
        target = sqlite_path(url)
        if target.exists() and target.stat().st_size and not force:
            raise BackupError(f"{target} exists: restore into a new file, or give --force")
        target.parent.mkdir(parents=True, exist_ok=True)
        for suffix in ("-wal", "-shm"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        with sqlite3.connect(dump) as src, sqlite3.connect(target) as dst:
            src.backup(dst)
    return asyncio.run(check_games(url))


def _pg_run(tool: str, arguments: list[str]) -> str:
    """Run a PostgreSQL client tool; its output, or a :class:`BackupError` with its reason."""
    done = subprocess.run([_pg_tool(tool), *arguments], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        errors = [line.split("error:", 1)[1].strip() for line in said if "error:" in line]
        reason = errors[0] if errors else said[-1] if said else f"exit status {done.returncode}"
        raise BackupError(f"{tool} failed: {reason}")
    return done.stdout
