"""The whole store: every repository, the table master's and each feature's, on one database.

:class:`Store` gathers the repositories' protocols: those of the table master and the
people it seats (:mod:`basra.server.store.protocols`) and those of each feature that owns
its data (its own store module, as :mod:`basra.server.features.tournaments.store`).
:class:`SqlStore` makes each of them on one :class:`~basra.server.store.sql.database.SqlDatabase`
(one engine), so a step that spans two of them is still one transaction;
:func:`open_store` makes it for a ``--database`` value. Importing this module imports
every feature's store module, and with it every table of the schema's one
:data:`~basra.server.store.sql.schema.metadata`.

This module sits above the features (it imports them; they never import it): the
environment (:mod:`basra.server.env`), the operator's tools and the tests make stores.
"""

from __future__ import annotations

from typing import Protocol

from basra.server.features.botapi_store import BotStore, SqlBots, revoke_owned
from basra.server.features.challenges.store import ChallengeStore, SqlChallenges
from basra.server.features.clubs.store import ClubStore, SqlClubs
from basra.server.features.daily_store import DailyStore, SqlDaily
from basra.server.features.friends.store import FriendStore, SqlFriends
from basra.server.features.learn_store import LessonStore, PuzzleStore, SqlLessons, SqlPuzzles
from basra.server.features.moderation_store import ModerationStore, SqlModeration
from basra.server.features.notifications.store import NotificationStore, SqlNotifications
from basra.server.features.push.store import PushStore, SqlPush, drop_subscriptions
from basra.server.features.quickplay_store import SeekStore, SqlSeeks
from basra.server.features.reputation.store import ReputationStore, SqlReputation
from basra.server.features.reviews_store import ReviewStore, SqlReviews
from basra.server.features.seasons.store import SeasonStore, SqlSeasons
from basra.server.features.talk.store import SqlTalk, TalkStore
from basra.server.features.tournaments.store import SqlTournaments, TournamentStore
from basra.server.features.turns.store import SqlVacations, VacationStore
from basra.server.store.protocols import (
    IdentityStore,
    LeaseStore,
    PlayerStore,
    SecretStore,
    TableStore,
)
from basra.server.store.sql.database import MEMORY, SqlDatabase
from basra.server.store.sql.identities import SqlIdentities
from basra.server.store.sql.play import SqlLeases, SqlSecrets
from basra.server.store.sql.players import SqlPlayers
from basra.server.store.sql.schema import metadata
from basra.server.store.sql.tables import SqlTables

__all__ = ["MEMORY", "SqlStore", "Store", "metadata", "open_store"]


class Store(Protocol):
    """Every repository, around one engine; started before use and closed after."""

    @property
    def tables(self) -> TableStore:
        """Tables, seats and logs."""

    @property
    def identities(self) -> IdentityStore:
        """Identities, devices, codes."""

    @property
    def players(self) -> PlayerStore:
        """Accounts, ratings, results."""

    @property
    def seeks(self) -> SeekStore:
        """The quick-play pool."""

    @property
    def leases(self) -> LeaseStore:
        """Named leases."""

    @property
    def secrets(self) -> SecretStore:
        """Server secrets."""

    @property
    def daily(self) -> DailyStore:
        """Daily attempts."""

    @property
    def bots(self) -> BotStore:
        """Bot accounts."""

    @property
    def reviews(self) -> ReviewStore:
        """Reviews."""

    @property
    def tournaments(self) -> TournamentStore:
        """Tournaments."""

    @property
    def friends(self) -> FriendStore:
        """Follows, blocks and the presence setting."""

    @property
    def seasons(self) -> SeasonStore:
        """Seasons' final tables and arena placings."""

    @property
    def clubs(self) -> ClubStore:
        """Clubs, their members and invitations."""

    @property
    def moderation(self) -> ModerationStore:
        """Reports and sanctions."""

    @property
    def push(self) -> PushStore:
        """Web Push subscriptions, opt-ins and sends."""

    @property
    def notifications(self) -> NotificationStore:
        """What happened for each person."""

    @property
    def challenges(self) -> ChallengeStore:
        """Challenges and their answers."""

    @property
    def talk(self) -> TalkStore:
        """Table talk's mutes, settings, silences and table options."""

    @property
    def lessons(self) -> LessonStore:
        """Lessons done."""

    @property
    def puzzles(self) -> PuzzleStore:
        """Puzzle ratings, tries and mined puzzles."""

    @property
    def reputation(self) -> ReputationStore:
        """People's histories of settled games (read from the results)."""

    @property
    def vacations(self) -> VacationStore:
        """Vacations from turn-based clocks."""

    async def start(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Finish pending writes and release connections."""


class SqlStore:
    """Every repository of :class:`Store` on one
    :class:`SqlDatabase`.

    :meth:`start` runs the Alembic migrations shipped in the package, so a new
    or older database is brought up to date before the first request.
    """

    def __init__(self, url: str) -> None:
        self.db = SqlDatabase(url)
        self.tables = SqlTables(self.db)
        self.identities = SqlIdentities(self.db, cascades=[revoke_owned, drop_subscriptions])
        self.players = SqlPlayers(self.db)
        self.seeks = SqlSeeks(self.db)
        self.leases = SqlLeases(self.db)
        self.secrets = SqlSecrets(self.db)
        self.daily = SqlDaily(self.db)
        self.bots = SqlBots(self.db)
        self.reviews = SqlReviews(self.db)
        self.tournaments = SqlTournaments(self.db)
        self.moderation = SqlModeration(self.db)
        self.friends = SqlFriends(self.db)
        self.clubs = SqlClubs(self.db)
        self.notifications = SqlNotifications(self.db)
        self.challenges = SqlChallenges(self.db)
        self.lessons = SqlLessons(self.db)
        self.talk = SqlTalk(self.db)
        self.puzzles = SqlPuzzles(self.db)
        self.reputation = SqlReputation(self.db)
        self.push = SqlPush(self.db)
        self.seasons = SqlSeasons(self.db)
        self.vacations = SqlVacations(self.db)

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


def open_store(url: str | None) -> SqlStore:
    """The store for a ``--database`` value: ``memory`` (SQLite in this process's memory),
    a SQLite path or a database URL."""
    return SqlStore(url or MEMORY)
