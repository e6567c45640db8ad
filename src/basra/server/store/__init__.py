"""Storage: the rows the table master keeps and their repositories, around one SQL engine
(SQLite, in a file or in memory, or PostgreSQL).

- :mod:`~basra.server.store.rows`: what is kept, as plain values, and the enums
  (:class:`~basra.server.store.rows.TableStatus`, :class:`~basra.server.store.rows.SeatKind`);
- :mod:`~basra.server.store.protocols`: one repository protocol per kind of row;
- :mod:`~basra.server.store.sql`: the engine (``memory`` is an in-memory SQLite database
  through the same code as production), the schema, its migrations, and the repositories
  in SQL.

A feature that owns its data keeps its rows, its repository's protocol, its tables and
its SQL repository in its own store module (:mod:`basra.server.features.tournaments.store`);
:mod:`basra.server.stores` gathers every repository into one store. Nothing here
imports a feature.

The store knows nothing about the rules: the table master replays events through
the engine (:mod:`basra.server.table.reducer`).
"""
