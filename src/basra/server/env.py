"""The environment: every part of the server, made and wired once (lichess's ``Env``).

:class:`Env` builds, in dependency order, the store and the bus, the quotas and
the fair scheduler, identities and revocation, the table master and its
lifecycle, and the features on top; each part gets what it needs as
constructor arguments, and no part is changed from outside afterwards.
:meth:`Env.start` and :meth:`Env.close` start and stop them in order, and
:meth:`Env.services` offers to the routes the objects they may ask for
(:mod:`basra.server.transport.deps`).

A new feature is one more object made here (from the lifecycle, the master's
narrow protocol and its own store repositories), one more line in
:meth:`Env.services`, and its router in
:data:`basra.server.transport.routes.ROUTERS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from basra.server.connection import Connections
from basra.server.features.accounts import Accounts
from basra.server.features.botapi import BotApi
from basra.server.features.challenges import ChallengeConfig, Challenges
from basra.server.features.clubs import Clubs
from basra.server.features.daily import Daily
from basra.server.features.friends import Friends, Presence, PresenceConfig
from basra.server.features.lessons import Lessons
from basra.server.features.mistakes import MistakeMiner
from basra.server.features.moderation import Moderation
from basra.server.features.notifications import Notifications
from basra.server.features.offline import OfflineConfig, OfflineGames
from basra.server.features.offline_files import OfflineFiles
from basra.server.features.pairing import QuickPlayConfig
from basra.server.features.profiles import Profiles
from basra.server.features.push import Push, PushConfig
from basra.server.features.puzzles import PuzzleConfig, Puzzles
from basra.server.features.quickplay import QuickPlay
from basra.server.features.reactions import Reactions
from basra.server.features.reputation import Reputation
from basra.server.features.reviews import ReviewConfig, ReviewService
from basra.server.features.seasons import SeasonConfig, Seasons
from basra.server.features.talk import Talk
from basra.server.features.tournaments import TournamentConfig, Tournaments
from basra.server.features.turns import Turns
from basra.server.identity import Identities
from basra.server.ops.control import Operations, OpsConfig, Sampler
from basra.server.ops.drain import Drain
from basra.server.ops.metrics import Metrics
from basra.server.ops.readiness import Readiness
from basra.server.quotas import Quotas
from basra.server.revocation import Revocations
from basra.server.runtime.jobs import open_jobs
from basra.server.runtime.pubsub import Bus, Hub, open_hub
from basra.server.runtime.scheduler import FairScheduler
from basra.server.runtime.workers import make_executor
from basra.server.stores import MEMORY, Store, open_store
from basra.server.table.connections import TableMessages
from basra.server.table.finish import Finisher
from basra.server.table.hints import Hints
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.live import ServiceConfig
from basra.server.table.master import TableMaster, YourTurn
from basra.server.table.queries import Queries
from basra.server.transport.deps import Services
from basra.server.transport.routes import pages
from basra.server.transport.routes.pages import HealthCheck
from basra.server.transport.socket import SocketPump

__all__ = ["AppConfig", "Env"]


@dataclass
class AppConfig:
    """Where the app keeps its games and how it behaves."""

    database: str = MEMORY
    """``memory`` (SQLite in this process's memory: tests), a SQLite path, or a database
    URL (``postgresql://...``)."""
    redis: str | None = None
    """A Redis URL to share tables between several processes."""
    service: ServiceConfig = field(default_factory=ServiceConfig)
    """How the tables run (:class:`~basra.server.table.live.ServiceConfig`)."""
    quickplay: QuickPlayConfig = field(default_factory=QuickPlayConfig)
    """How quick play pairs people (:mod:`basra.server.features.quickplay`)."""
    reviews: ReviewConfig = field(default_factory=ReviewConfig)
    """How finished games are reviewed (:mod:`basra.server.features.reviews`)."""
    tournaments: TournamentConfig = field(default_factory=TournamentConfig)
    """How events run, the server's schedule of them (:mod:`basra.server.features.tournaments`)."""
    ops: OpsConfig = field(default_factory=OpsConfig)
    """How the process is operated: metrics, the admin API, secrets (:mod:`basra.server.ops`)."""
    puzzles: PuzzleConfig = field(default_factory=PuzzleConfig)
    """How puzzles are mined and served (:mod:`basra.server.features.puzzles`)."""
    offline: OfflineConfig = field(default_factory=OfflineConfig)
    """How offline games are uploaded (:mod:`basra.server.features.offline`)."""
    presence: PresenceConfig = field(default_factory=PresenceConfig)
    """How long presence lasts (:mod:`basra.server.features.friends.presence`)."""
    push: PushConfig = field(default_factory=PushConfig)
    """Web Push's keys and delivery (:mod:`basra.server.features.push`)."""
    seasons: SeasonConfig = field(default_factory=SeasonConfig)
    """How long seasons last, their divisions (:mod:`basra.server.features.seasons`)."""
    challenges: ChallengeConfig = field(default_factory=ChallengeConfig)
    """How long challenges wait (:mod:`basra.server.features.challenges`)."""


class Env:
    """Every part of one server process, wired once.

    ``store`` and ``hub`` replace the ones ``config`` names (tests share one
    between two environments: two processes); ``origin`` names this process on
    the hub.
    """

    def __init__(
        self,
        config: AppConfig | None = None,
        *,
        store: Store | None = None,
        hub: Hub | None = None,
        origin: str | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config = config or AppConfig()
        tables = config.service
        self.store: Store = store or open_store(config.database)
        self.bus = Bus(hub or open_hub(config.redis))
        self.jobs = open_jobs(config.redis)  # reviews, mining, offline checks, push
        self.quotas = Quotas(tables.limits)
        self.connections = Connections()
        self.metrics = Metrics(config.ops.metrics_dir)
        processes, threads = tables.bot_processes, tables.bot_threads
        self.scheduler = FairScheduler(
            lambda: make_executor(processes, threads), processes or threads
        )
        store_ = self.store
        self.identities = Identities(
            store_.identities, store_.tables, self.quotas, sanctions=store_.moderation
        )
        self.accounts = Accounts(store_.players, store_.identities, self.identities, self.quotas)
        self.revocations = Revocations(self.connections, self.bus)
        # The tables: the master writes their logs, the lifecycle runs their lives.
        self.master = TableMaster(
            store_.tables,
            store_.players,
            self.bus,
            self.scheduler,
            tables,
            origin=origin,
            rng=rng,
            leases=store_.leases,
        )
        self.finisher = Finisher(self.master, store_.tables, store_.players, tables.clock)
        self.lifecycle = Lifecycle(
            self.master,
            self.finisher,
            store_.tables,
            store_.identities,
            self.quotas,
            tables,
            rng,
            seat_rule=lambda table, who: self.clubs.seat_rule(table, who),
            taps=store_.challenges.tap,
        )
        # Reputation: the share finished beside each seat, and the playban's one gate.
        self.reputation = Reputation(store_.reputation, tables.clock.now)
        self.master.badge_sources.append(self.reputation.seat_badges)
        self.lifecycle.rated_gate = self.reputation.check_rated
        self.hints = Hints(self.master, self.scheduler, self.quotas, tables.hint_samples)
        self.messages = TableMessages(
            self.master, self.lifecycle, self.hints, store_.tables, store_.identities
        )
        self.queries = Queries(store_.tables, self.lifecycle.disclosure)
        # The features, each on the lifecycle, the master and its own repositories.
        self.reactions = Reactions(self.master, self.messages, self.quotas, self.bus)
        self.reviews = ReviewService(
            store_.reviews,
            self.queries,
            store_.players,
            self.scheduler,
            self.quotas,
            self.jobs,
            config.reviews,
        )
        self.profiles = Profiles(
            store_.players,
            store_.identities,
            self.reviews.accuracy_of,
            reputation=self.reputation.profile,
        )
        self.quickplay = QuickPlay(
            config.quickplay,
            self.lifecycle,
            store_.seeks,
            store_.leases,
            store_.tables,
            store_.players,
            self.bus,
            self.quotas,
            self.master.origin,
            rng,
            on_matched=self.metrics.quickplay_wait.observe,
            blocks=store_.friends.blocked_pairs,
            leavers=self.reputation.leavers,
        )
        self.daily = Daily(
            self.lifecycle, store_.daily, store_.secrets, secret=config.ops.daily_secret
        )
        self.lessons = Lessons(store_.lessons)
        self.puzzles = Puzzles(store_.puzzles, config.puzzles, secrets=store_.secrets)
        self.mistakes = MistakeMiner(
            store_.puzzles,
            self.reviews,
            store_.reviews,
            self.queries,
            store_.players,
            self.scheduler,
            self.jobs,
            config.puzzles,
        )
        self.offline = OfflineGames(
            self.lifecycle, store_.tables, self.scheduler, self.quotas, self.jobs, config.offline
        )
        self.offline_files = OfflineFiles(pages.STATIC)  # the runtime: runtime_folder()
        self.bots = BotApi(
            store_.bots,
            store_.tables,
            self.master,
            self.messages,
            self.quotas,
            self.bus,
            tables.clock,
        )
        self.seasons = Seasons(
            config.seasons,
            store_.seasons,
            store_.leases,
            store_.players,
            store_.identities,
            self.master.origin,
            tables.clock,
        )
        self.tournaments = Tournaments(
            config.tournaments,
            self.lifecycle,
            store_.tournaments,
            store_.leases,
            store_.secrets,
            store_.players,
            self.bus,
            self.quotas,
            self.master.origin,
            programs=self.bots.seated,
            arena_ended=self.seasons.record_arena,
            entry_rule=lambda event, who: self.clubs.entry_rule(event, who),
        )
        self.talk = Talk(
            self.master,
            self.messages,
            store_.talk,
            store_.tables,
            store_.identities,
            self.quotas,
            self.bus,
            blocks=store_.friends.blocked_pairs,
            event_talk=self.tournaments.talk_open,
        )
        self.moderation = Moderation(
            store_.moderation,
            store_.tables,
            store_.identities,
            store_.players,
            self.lifecycle,
            self.connections,
            self.bus,
            self.quotas,
            follow_codes=store_.friends.owner_of,
            club_names=lambda slug: self.clubs.name_of(slug),
            challenges=store_.challenges.load,
            lines=self.talk.line,
        )
        self.presence = Presence(self.bus, self.master.origin, config.presence)
        self.connections.watch(self.presence.changed)
        self.friends = Friends(
            store_.friends,
            store_.identities,
            store_.players,
            store_.tables,
            store_.moderation,
            self.presence,
            self.quotas,
        )
        # Web Push: notifications sent by the job queue's workers.
        self.push = Push(store_.push, self.jobs, config.push)
        self.clubs = Clubs(
            store_.clubs, store_.players, self.friends, self.quotas, self.tournaments
        )
        self.notifications = Notifications(store_.notifications, self.connections, self.bus)
        # The list's items reach closed pages as Web Push, worded in each browser's language.
        self.notifications.on_added(self.push.notified)
        self.challenges = Challenges(
            store_.challenges,
            self.friends,
            store_.friends,
            store_.identities,
            self.lifecycle,
            self.notifications,
            self.quotas,
            config.challenges,
        )
        # Turn-based play: the your-turn list, and vacations that stop the clocks.
        self.turns = Turns(
            self.master,
            store_.tables,
            store_.vacations,
            tables.clock,
            self.bus,
            tables.vacation_days,
        )
        self.master.pauses = self.turns.pauses
        self.master.on_turn(self._your_turn)
        # Tournaments starting soon and clubs' new events: items of the notifications list.
        self.tournaments.runner.starting_soon = self._starting_soon
        self.clubs.notify = self.notifications.add
        # Operations: the drain, the checks and the metrics of this process.
        self.drain = Drain()
        self.drain.on_start(lambda: asyncio.ensure_future(self.master.ownership.hand_over()))
        self.readiness = Readiness(self.store, config.redis)
        self.operations = Operations(
            config.ops, self.metrics, self.readiness, self.drain, self.health
        )
        self.sampler = Sampler(self.sample, self.sample_store)

    async def _your_turn(self, turn: YourTurn) -> None:
        """A person's turn at a turn-based table: an item of their notifications list
        (and so sent to their open pages at once)."""
        data = {"table": turn.table_id, "deadline": turn.deadline}
        await self.notifications.add(turn.identity, "your_turn", data, f"/t/{turn.table_id}")

    async def _starting_soon(
        self, event_id: str, name: str, people: list[str], starts_at: float
    ) -> None:
        """A tournament starts soon: an item for each person entered, once (its key is
        the event's, so a second process running the clock tells nobody twice)."""
        minutes = max(1, round((starts_at - time.time()) / 60))
        data = {"tournament": event_id, "name": name, "minutes": minutes}
        for who in people:
            await self.notifications.add_once(
                who, "tournament_soon", data, f"/tournaments/{event_id}", f"soon:{event_id}"
            )

    @property
    def origin(self) -> str:
        """This process's name on the hub."""
        return self.master.origin

    def services(self) -> Services:
        """What the routes may ask for, by type."""
        services = Services()
        services.add(Quotas, self.quotas)
        services.add(SocketPump, SocketPump(self.quotas, self.connections, self.metrics.error))
        services.add(Identities, self.identities)
        services.add(Accounts, self.accounts)
        services.add(Revocations, self.revocations)
        services.add(TableMaster, self.master)
        services.add(Lifecycle, self.lifecycle)
        services.add(TableMessages, self.messages)
        services.add(Queries, self.queries)
        services.add(Profiles, self.profiles)
        services.add(ReviewService, self.reviews)
        services.add(QuickPlay, self.quickplay)
        services.add(Daily, self.daily)
        services.add(BotApi, self.bots)
        services.add(Tournaments, self.tournaments)
        services.add(Lessons, self.lessons)
        services.add(Puzzles, self.puzzles)
        services.add(MistakeMiner, self.mistakes)
        services.add(OfflineGames, self.offline)
        services.add(OfflineFiles, self.offline_files)
        services.add(HealthCheck, HealthCheck(self.health))
        services.add(Moderation, self.moderation)
        services.add(Friends, self.friends)
        services.add(Push, self.push)
        services.add(Seasons, self.seasons)
        services.add(Clubs, self.clubs)
        services.add(Notifications, self.notifications)
        services.add(Challenges, self.challenges)
        services.add(Turns, self.turns)
        services.add(Talk, self.talk)
        services.add(Operations, self.operations)
        services.add(Metrics, self.metrics)
        return services

    async def start(self, resume: bool = True) -> None:
        """Open the store and the bus, pick the tables back up (``resume``), then start
        the features."""
        await self.store.start()
        await self.bus.start(self.origin)
        await self.daily.start()  # before any daily table is dealt
        await self.puzzles.start()
        await self.tournaments.prepare()  # before any duplicate board is dealt
        await self.master.ownership.start(self.lifecycle)
        if resume:
            await self.lifecycle.resume()
        self.master.start()
        await self.jobs.start()
        await self.push.start()  # the sends a stopped process left
        await self.reviews.start()
        await self.mistakes.start()
        await self.quickplay.start()
        await self.tournaments.start()
        self.presence.start()
        self.seasons.start()
        self.challenges.start()
        self.sampler.start()

    async def close(self) -> None:
        """Stop the features, then the tables, the bus, the store and the workers."""
        await self.sampler.close()
        await self.presence.close()
        await self.seasons.close()
        await self.challenges.close()
        with contextlib.suppress(Exception):  # the others take its tables over at once
            await self.master.ownership.hand_over()
        await self.tournaments.close()
        await self.moderation.close()
        await self.quickplay.close()
        await self.bots.close()
        await self.mistakes.close()
        await self.jobs.close()  # a review or a mining under way goes back to its queue
        await self.push.close()
        await self.master.close()
        await self.bus.close()
        await self.store.close()
        await asyncio.to_thread(self.scheduler.shutdown)
        await self.readiness.close()
        self.metrics.close()

    def health(self) -> dict[str, Any]:
        """Counts for ``GET /healthz``."""
        tables = self.master.counts()
        return {
            "tables": tables.live,
            "owned": tables.owned,
            "origin": self.origin,
            "moves": tables.moves,
            "jobs": {"running": self.scheduler.running, "queued": self.scheduler.queued},
            "reviews": {"running": len(self.reviews.running), "finished": self.reviews.finished},
            "sockets": len(self.connections),
            "draining": self.drain.draining,
            "mining": {"running": len(self.mistakes.running), "finished": self.mistakes.mined},
            "background": {"pending": self.jobs.pending},
            "push": self.push.counts(),
        }

    def sample(self) -> None:
        """Read this process's gauges into the metrics."""
        metrics, tables = self.metrics, self.master.counts()
        metrics.live_tables.set(tables.live)
        metrics.owned_tables.set(tables.owned)
        metrics.decided(tables.decisions)
        metrics.open_sockets.set(len(self.connections))
        metrics.moved(tables.moves)
        metrics.bot_jobs_queued.set(self.scheduler.queued)
        metrics.bot_jobs_running.set(self.scheduler.running)

    async def sample_store(self) -> None:
        """Read the site-wide gauges from the store (every few samples)."""
        self.metrics.reviews_unfinished.set(len(await self.store.reviews.unfinished()))
        pools = await self.store.seeks.pool_counts(time.time() - 15.0)
        self.metrics.quickplay_waiting.set(sum(pools.values()))
