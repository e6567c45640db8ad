"""Storage: repositories around one SQL engine (SQLite, in a file or in memory, or PostgreSQL).

- :mod:`~basra.server.store.rows`: what is kept, as plain values, and the enums
  (:class:`~basra.server.store.rows.TableStatus`, :class:`~basra.server.store.rows.SeatKind`);
- :mod:`~basra.server.store.protocols`: one repository protocol per kind of row, and
  :class:`~basra.server.store.protocols.Store`, which gathers them;
- :mod:`~basra.server.store.sql`: the repositories in SQL through SQLAlchemy, the schema and
  its migrations. ``memory`` (tests, ``--database memory``) is an in-memory SQLite database
  through the same code as production.

The store knows nothing about the rules: the table master replays events through
the engine (:mod:`basra.server.table.reducer`).
"""

from __future__ import annotations

from basra.server.store.protocols import Store
from basra.server.store.sql import SqlStore
from basra.server.store.sql.database import MEMORY

__all__ = ["MEMORY", "SqlStore", "Store", "open_store"]


def open_store(url: str | None) -> SqlStore:
    """The store for a ``--database`` value: ``memory`` (SQLite in this process's memory),
    a SQLite path or a database URL."""
    return SqlStore(url or MEMORY)
