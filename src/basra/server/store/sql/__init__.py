"""The store in a SQL database through SQLAlchemy 2 (async): SQLite (a file, or
``memory``) or PostgreSQL.

:mod:`~basra.server.store.sql.database` is the one engine (and the migrations it
runs), ``schema.py`` the schema's one :data:`~basra.server.store.sql.schema.metadata`,
``migrations/`` the Alembic migrations, and each repository module keeps one kind of
the table master's rows. A feature that owns its data keeps its tables and its
repository in its own store module; :mod:`basra.server.stores` gathers them all
into one :class:`~basra.server.stores.SqlStore`.
"""
