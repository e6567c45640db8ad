"""Storage: repositories around one engine, in memory (tests, ``--database memory``) or
in a SQL database (SQLite or PostgreSQL).

- :mod:`~basra.server.store.rows`: what is kept, as plain values, and the enums
  (:class:`~basra.server.store.rows.TableStatus`, :class:`~basra.server.store.rows.SeatKind`);
- :mod:`~basra.server.store.protocols`: one repository protocol per kind of row, and
  :class:`~basra.server.store.protocols.Store`, which gathers them;
- :mod:`~basra.server.store.memory` and :mod:`~basra.server.store.sql`: the two engines.

The store knows nothing about the rules: the table master replays events through
the engine (:mod:`basra.server.table.reducer`).
"""

from __future__ import annotations

from basra.server.store.memory import MemoryStore
from basra.server.store.protocols import Store

__all__ = ["MemoryStore", "Store", "open_store"]


def open_store(url: str | None) -> Store:
    """The store for a ``--database`` value: ``memory`` or a database URL / SQLite path."""
    if url in (None, "", "memory"):
        return MemoryStore()
    from basra.server.store.sql import SqlStore

    return SqlStore(url)
