"""The store in a SQL database through SQLAlchemy 2 (async): SQLite or PostgreSQL.

Every repository runs its statements on one :class:`SqlDatabase` (one engine):
``schema.py`` is the schema, ``migrations/`` the Alembic migrations that
:meth:`SqlStore.start` runs, and each repository module keeps one kind of row.
"""

from __future__ import annotations

from basra.server.store.sql.bots import SqlBots
from basra.server.store.sql.daily import SqlDaily
from basra.server.store.sql.database import SqlDatabase, database_url
from basra.server.store.sql.identities import SqlIdentities
from basra.server.store.sql.learn import SqlLessons, SqlPuzzles
from basra.server.store.sql.moderation import SqlModeration
from basra.server.store.sql.play import SqlLeases, SqlSecrets, SqlSeeks
from basra.server.store.sql.players import SqlPlayers
from basra.server.store.sql.reviews import SqlReviews
from basra.server.store.sql.tables import SqlTables
from basra.server.store.sql.tournaments import SqlTournaments

__all__ = ["SqlDatabase", "SqlStore", "database_url"]


class SqlStore:
    """Every repository of :class:`~basra.server.store.protocols.Store` on one
    :class:`SqlDatabase`.

    :meth:`start` runs the Alembic migrations shipped in the package, so a new
    or older database is brought up to date before the first request.
    """

    def __init__(self, url: str) -> None:
        self.db = SqlDatabase(url)
        self.tables = SqlTables(self.db)
        self.identities = SqlIdentities(self.db)
        self.players = SqlPlayers(self.db)
        self.seeks = SqlSeeks(self.db)
        self.leases = SqlLeases(self.db)
        self.secrets = SqlSecrets(self.db)
        self.daily = SqlDaily(self.db)
        self.bots = SqlBots(self.db)
        self.reviews = SqlReviews(self.db)
        self.tournaments = SqlTournaments(self.db)
        self.moderation = SqlModeration(self.db)
        self.lessons = SqlLessons(self.db)
        self.puzzles = SqlPuzzles(self.db)

    @property
    def url(self) -> str:
        """The database's async URL."""
        return self.db.url

    async def start(self) -> None:
        """Create the engine and run the migrations."""
        await self.db.start()

    async def close(self) -> None:
        """Finish pending writes, then dispose of the engine."""
        await self.tables.flush()
        await self.db.close()
