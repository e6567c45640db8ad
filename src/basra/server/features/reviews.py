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

**The job queue.** Which process works out a review is the server's job
queue's business (:mod:`basra.server.runtime.jobs`, kind :data:`KIND`): this
process's own without Redis, saq on Redis with ``--redis`` (any process takes
the next review, a job is queued once per game, and a process that dies
mid-review leaves its job to be swept and retried by another).

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
from typing import Any

from basra.coach.analysis import DEFAULT_SAMPLES
from basra.coach.review import Decision, Spot, analyse_spot, assemble, grade, plan
from basra.record import Record
from basra.server.errors import ProtocolError
from basra.server.features.profiles import HISTORY_LIMIT
from basra.server.features.reviews_store import ReviewStore
from basra.server.identity import Caller
from basra.server.quotas import Quotas, RateLimitError
from basra.server.runtime.jobs import Beat, JobQueue
from basra.server.runtime.scheduler import REVIEW, FairScheduler
from basra.server.store.protocols import PlayerStore
from basra.server.store.rows import ReviewStatus
from basra.server.table.disclosure import SERVER
from basra.server.table.queries import Queries

__all__ = ["KIND", "ReviewConfig", "ReviewService"]

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)
KIND = "reviews"
"""The job queue's kind for reviews (keyed by game)."""


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
        jobs: JobQueue,
        config: ReviewConfig | None = None,
    ) -> None:
        self.rows = rows
        self.queries = queries
        self.players = players
        self.scheduler = scheduler
        self.quotas = quotas
        self.config = config or ReviewConfig()
        self.jobs = jobs
        jobs.register(KIND, self.run, self.config.concurrency)
        self.running: set[str] = set()
        self.finished = 0
        self._listeners: list[Callable[[str], Awaitable[None]]] = []

    def subscribe(self, listener: Callable[[str], Awaitable[None]]) -> None:
        """Have ``listener(table_id)`` awaited each time this process stores a finished
        review (the puzzle miner mines it for its people's mistakes)."""
        self._listeners.append(listener)

    async def start(self) -> None:
        """Queue again the reviews an earlier server left unfinished (the job queue,
        started before, takes them; closing it puts a review being worked out back)."""
        for table_id in await self.rows.unfinished():
            await self.jobs.enqueue(KIND, table_id)

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
                await self.jobs.enqueue(KIND, table_id)
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
        if row.status == DONE:  # the seats, for the page to name its bots in its language
            out["seats"] = await self.queries.seats_of(table_id)
        return out, row.data if row.status == DONE else None

    async def run(self, table_id: str, beat: Beat | None = None) -> None:
        """Work out a game's review, if it is queued (or stale) and this process claims it
        (the job queue's handler of :data:`KIND`)."""
        config = self.config
        rows = self.rows
        if not await rows.claim(table_id, time.time(), config.stale):
            row = await rows.load(table_id)
            if row is not None and row.status == RUNNING and table_id not in self.running:
                # Another process has it: take over if it dies.
                self.jobs.later(KIND, table_id, config.stale + 1)
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
        beat: Beat | None,
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
