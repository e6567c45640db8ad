"""Reviews of finished games: background jobs whose results are stored with the game.

A person asks for a game's review (``POST /api/games/{id}/review``); the
review (:mod:`basra.coach.review`: every decision of every seat graded, and
the clearly labelled hindsight analysis with every card seen) is worked out
as a background job, its progress kept in the ``reviews`` row so that any
server process can show it, and the finished review is stored there as JSON
and served from it without being worked out again
(``GET /api/games/{id}/review``).

**Only finished games.** A review shows every hand at every decision, so it
is never made nor served for a game that is not over (``not_over``).

**Where the work runs.** A review job splits into one piece of work per
decision, each run on the fair scheduler (:mod:`basra.server.runtime.scheduler`) at
its lowest rank, :data:`~basra.server.runtime.scheduler.REVIEW`: in the server's worker
processes, only when no bot move, hint or background work is waiting, never
on the worker kept for people's bots, and a few hundredths of a second at a
time, so a review never delays a person's game.

**The job queue.** Which process works out a review is a job queue's
business. With Redis (``--redis``), the queue is `saq
<https://github.com/tobymao/saq>`_ (an asyncio job queue on Redis, or on
PostgreSQL): every server process runs a saq worker inside its event loop, so
any of them takes the next review, a job is queued once per game (its key),
and a process that dies mid-review leaves its job to be swept and retried by
another. saq was chosen over arq because its API is asyncio through and through
like the app's, it pins Redis's client less tightly (arq needs redis<6, saq
redis<8), and it can run on PostgreSQL too; rq, dramatiq and celery are built
around worker processes of their own, not an event loop. Without Redis (the
default, one process on SQLite) the queue is this process's own
(:class:`LocalQueue`), and the work still runs in its worker processes.

A ``reviews`` row is claimed by one job at a time (``queued`` to ``running``
in one UPDATE); a ``running`` row whose progress stopped for
:attr:`ReviewConfig.stale` seconds (its process died) may be claimed again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from basra.coach.analysis import DEFAULT_SAMPLES
from basra.coach.review import Decision, Spot, analyse_spot, assemble, grade, plan
from basra.record import Record
from basra.server.errors import ProtocolError
from basra.server.features.profiles import HISTORY_LIMIT
from basra.server.features.reviews_store import ReviewStore
from basra.server.identity import Caller
from basra.server.quotas import Quotas, RateLimitError
from basra.server.runtime.scheduler import REVIEW, FairScheduler
from basra.server.store.protocols import PlayerStore
from basra.server.store.rows import ReviewStatus
from basra.server.table.disclosure import SERVER
from basra.server.table.queries import Queries

__all__ = ["LocalQueue", "ReviewConfig", "ReviewQueue", "ReviewService", "SaqQueue"]

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)


@dataclass(frozen=True)
class ReviewConfig:
    """How reviews are worked out on this server."""

    samples: int = DEFAULT_SAMPLES
    """Deals played out per decision (:data:`basra.coach.analysis.DEFAULT_SAMPLES`)."""
    hindsight: bool = True
    """Also analyse every decision with all cards seen (labelled so on the page)."""
    seed: int = 0
    concurrency: int = 2
    """Reviews one process works out at once (their decisions share the workers)."""
    stale: float = 60.0
    """Seconds without progress after which a running review may be taken over."""
    progress_every: float = 0.5
    """Seconds between progress updates in the store."""


# ---------------------------------------------------------------------- queues

Run = Callable[[str, "Callable[[], Awaitable[None]] | None"], Awaitable[None]]
"""Works out one game's review; the second argument, when given, is awaited as a
heartbeat while it makes progress."""


class ReviewQueue(Protocol):
    """Which process works out which review, and when."""

    async def start(self, run: Run) -> None:
        """Begin taking jobs."""

    async def enqueue(self, table_id: str) -> None:
        """Queue a game's review (once: a review already queued is not queued again)."""

    async def close(self) -> None:
        """Stop taking jobs; a review being worked out goes back to its queue."""


class LocalQueue:
    """The job queue of one process: an asyncio queue and :attr:`concurrency` consumers."""

    def __init__(self, concurrency: int = 2) -> None:
        self.concurrency = max(1, concurrency)
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, run: Run) -> None:
        """Start the consumers."""

        async def consume() -> None:
            while True:
                table_id = await self._queue.get()
                self._queued.discard(table_id)
                try:
                    await run(table_id, None)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("the review of %s failed", table_id)

        self._tasks = [asyncio.create_task(consume()) for _ in range(self.concurrency)]

    async def enqueue(self, table_id: str) -> None:
        """Queue it unless it is waiting already."""
        if table_id not in self._queued:
            self._queued.add(table_id)
            self._queue.put_nowait(table_id)

    async def close(self) -> None:
        """Cancel the consumers."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


class SaqQueue:
    """The job queue in Redis, through saq, shared by every server process.

    Each process runs a saq worker in its own event loop (without saq's signal
    handlers: the server owns those). Jobs are keyed by game, so a review is
    queued once however many people ask for it; a job whose process died is
    swept and retried (its heartbeat is the review's progress).
    """

    NAME = "basra-reviews"

    def __init__(self, url: str, concurrency: int = 2) -> None:
        from saq import Queue

        self.queue = Queue.from_url(url, name=self.NAME)
        self.concurrency = max(1, concurrency)
        self.worker: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, run: Run) -> None:
        """Connect and start this process's worker."""
        from saq import Worker
        from saq.types import Context

        class QuietWorker(Worker[Context]):
            SIGNALS: list[Any] = []  # noqa: RUF012  (the server handles the signals)

        async def review(ctx: Context, *, table_id: str) -> None:
            job = ctx["job"]

            async def beat() -> None:
                await job.update()

            await run(table_id, beat)

        await self.queue.connect()
        self.worker = QuietWorker(
            self.queue,
            functions=[("review", review)],
            concurrency=self.concurrency,
            timers={"sweep": 15, "abort": 2, "schedule": 5, "worker_info": 30},
        )
        self._task = asyncio.create_task(self.worker.start())

    async def enqueue(self, table_id: str) -> None:
        """Queue the game's job (saq keeps one job per key)."""
        await self.queue.enqueue(
            "review",
            key=f"review:{table_id}",
            table_id=table_id,
            timeout=3600,
            heartbeat=60,
            retries=3,
            ttl=600,
        )

    async def close(self) -> None:
        """Stop the worker (a job it was running is retried elsewhere) and disconnect."""
        if self.worker is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.worker.stop(), 10)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.queue.disconnect()


# ---------------------------------------------------------------------- the service


class ReviewService:
    """Asks for, works out, stores and serves the reviews of finished games."""

    def __init__(
        self,
        rows: ReviewStore,
        queries: Queries,
        players: PlayerStore,
        scheduler: FairScheduler,
        quotas: Quotas,
        redis: str | None = None,
        config: ReviewConfig | None = None,
    ) -> None:
        self.rows = rows
        self.queries = queries
        self.players = players
        self.scheduler = scheduler
        self.quotas = quotas
        self.config = config or ReviewConfig()
        self.queue: ReviewQueue = (
            SaqQueue(redis, self.config.concurrency)
            if redis
            else LocalQueue(self.config.concurrency)
        )
        self.running: set[str] = set()
        self.finished = 0
        self._listeners: list[Callable[[str], Awaitable[None]]] = []
        self._later: set[asyncio.TimerHandle] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    def subscribe(self, listener: Callable[[str], Awaitable[None]]) -> None:
        """Have ``listener(table_id)`` awaited each time this process stores a finished
        review (the puzzle miner mines it for its people's mistakes)."""
        self._listeners.append(listener)

    async def start(self) -> None:
        """Start taking jobs, and queue again the reviews an earlier server left unfinished."""
        await self.queue.start(self.run)
        for table_id in await self.rows.unfinished():
            await self.queue.enqueue(table_id)

    async def close(self) -> None:
        """Stop (a review being worked out goes back to the queue)."""
        for handle in self._later:
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.queue.close()

    async def _finished_game(self, table_id: str) -> Record:
        """The record of a finished game; ``no_such_table`` or ``not_over`` otherwise (the
        routes asked the disclosure policy whether the caller may see it)."""
        data = await self.queries.record(table_id, SERVER)
        return Record.from_json(data)

    async def request(self, caller: Caller, table_id: str) -> tuple[dict[str, Any], str | None]:
        """Ask for a finished game's review (within the caller's quotas); returns its status."""
        row = await self.rows.load(table_id)
        if row is None or row.status == FAILED:
            await self._finished_game(table_id)  # never for a game in play
            quotas = self.quotas
            limits = quotas.limits
            pending = await self.rows.pending(caller.identity)
            if pending >= limits.reviews_pending_per_identity:
                raise RateLimitError(
                    "reviews",
                    limits.cap_retry,
                    f"reviews being worked out per person: at most "
                    f"{limits.reviews_pending_per_identity} at once",
                )
            quotas.take("reviews", caller.identity, limits.reviews_per_identity, "reviews")
            if await self.rows.request(table_id, caller.identity, time.time()):
                await self.queue.enqueue(table_id)
        return await self.status(table_id)

    async def status(self, table_id: str) -> tuple[dict[str, Any], str | None]:
        """Where a game's review stands, and the stored review (JSON text) once done.

        ``status`` is ``none`` (nobody asked yet), ``queued``, ``running``, ``done`` or
        ``failed``; only finished games have one (``not_over`` otherwise).
        """
        row = await self.rows.load(table_id)
        if row is None:
            await self._finished_game(table_id)
            return {"status": "none", "done": 0, "total": 0}, None
        out: dict[str, Any] = {"status": row.status, "done": row.done, "total": row.total}
        if row.status == FAILED:
            out["error"] = row.error
        return out, row.data if row.status == DONE else None

    async def run(self, table_id: str, beat: Callable[[], Awaitable[None]] | None = None) -> None:
        """Work out a game's review, if it is queued (or stale) and this process claims it."""
        config = self.config
        rows = self.rows
        if not await rows.claim(table_id, time.time(), config.stale):
            row = await rows.load(table_id)
            if row is not None and row.status == RUNNING and table_id not in self.running:
                self._retry_later(table_id)  # another process has it; take over if it dies
            return
        self.running.add(table_id)
        try:
            record = await self._finished_game(table_id)
            the_plan = await asyncio.to_thread(plan, record, hindsight=config.hindsight)
            decisions = await self._decide(table_id, the_plan.spots, beat)
            review = assemble(the_plan, decisions, samples=config.samples, seed=config.seed)
            out = review.to_json()
            data = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
            seats = sorted(out["seats"], key=lambda s: int(s["seat"]))
            accuracy = json.dumps([s["accuracy"] for s in seats])
            await rows.finish(table_id, data, time.time(), accuracy)
            self.finished += 1
            for listener in self._listeners:
                try:
                    await listener(table_id)
                except Exception:
                    log.exception("a listener of the review of %s failed", table_id)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(rows.requeue(table_id, time.time()))
            raise
        except Exception as exc:
            log.exception("the review of %s could not be worked out", table_id)
            reason = exc.message if isinstance(exc, ProtocolError) else "the review failed"
            await rows.fail(table_id, reason, time.time())
        finally:
            self.running.discard(table_id)

    async def _decide(
        self,
        table_id: str,
        spots: tuple[Spot, ...],
        beat: Callable[[], Awaitable[None]] | None,
    ) -> list[Decision]:
        """Every spot's analysis, each on the scheduler's workers at the review rank."""
        config = self.config
        scheduler = self.scheduler
        total = sum(1 for s in spots if not s.forced)
        done = 0
        shown = time.monotonic()
        await self.rows.progress(table_id, 0, total, time.time())

        async def one(spot: Spot) -> Decision:
            nonlocal done, shown
            if spot.forced:
                return grade(spot, None)
            analysis, hindsight = await scheduler.run(
                table_id, REVIEW, analyse_spot, spot, config.samples, config.seed
            )
            done += 1
            now = time.monotonic()
            if now - shown >= config.progress_every or done == total:
                shown = now
                await self.rows.progress(table_id, done, total, time.time())
                if beat is not None:
                    await beat()
            return grade(spot, analysis, hindsight)

        return list(await asyncio.gather(*(one(spot) for spot in spots)))

    async def accuracy_of(self, identity: str) -> dict[str, Any] | None:
        """A profile's ``review_accuracy``: the mean accuracy of the person's seat over their
        reviewed finished games (the newest :data:`~basra.server.features.profiles.HISTORY_LIMIT`),
        and how many; None when none of their games has a review."""
        results = await self.players.results_of(identity, limit=HISTORY_LIMIT)
        found = await self.rows.accuracies([r.table_id for r in results])
        values: list[float] = []
        for result in results:
            seats = found.get(result.table_id)
            if seats is not None and result.seat < len(seats):
                value = seats[result.seat]
                if value is not None:
                    values.append(float(value))
        if not values:
            return None
        return {"mean": round(sum(values) / len(values), 1), "games": len(values)}

    def _retry_later(self, table_id: str) -> None:
        """Queue a review again once it would be stale (its process may have died)."""
        loop = asyncio.get_running_loop()

        def again() -> None:
            self._later.discard(handle)
            task = asyncio.create_task(self.queue.enqueue(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        handle = loop.call_later(self.config.stale + 1, again)
        self._later.add(handle)
