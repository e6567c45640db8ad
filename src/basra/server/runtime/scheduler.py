"""Fair scheduling of bot moves and hints on a pool of worker processes.

Bots and hints think in worker processes (:mod:`basra.server.runtime.workers`), so the
server's event loop only moves messages. Which job runs next is decided here,
not by the pool: the pool is never given more jobs than it has workers, so no
backlog builds up in its first-come-first-served queue. Instead:

- jobs come in four ranks, each served only when the ranks before it have
  nothing waiting: :data:`PLAY` (a bot's move at a table where a seated
  person is connected: people are waiting for it), :data:`HINT` (a hint:
  only the person asking waits, and hints cannot hold up anyone's game),
  :data:`BACKGROUND` (all-bot tables, tables whose people are all gone) and
  :data:`REVIEW` (one decision of a finished game's review,
  :mod:`basra.server.features.reviews`: a few hundredths of a second each, so a
  review never holds a worker for long);
- one worker is kept for :data:`PLAY` (when there are two or more): hints,
  background work and reviews never take the last free worker, so a person's
  bot never waits for an expert's long search to end;
- within a rank every table has its own queue, and tables take turns: one
  job of a table, then one of the next table with work, round and round;
- a job whose caller stopped waiting (its client left, the table moved on) is
  dropped before it starts, and a result nobody waits for is thrown away.

So a person's game waits only for other people's bots, never behind a flood
of all-bot tables or of hints; and a table can take no more than its turn
from the others of its rank.

Why not a job-queue library: arq, saq, rq and dramatiq are first-come-first-
served queues (with priorities at best) that need Redis, which the default
single-process server does not have; none offers per-table turns or dropping
queued work whose client left. The worker processes themselves are the
standard library's :class:`concurrent.futures.ProcessPoolExecutor`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future
from typing import Any, TypeVar

__all__ = ["BACKGROUND", "HINT", "PLAY", "RANKS", "REVIEW", "FairScheduler"]

log = logging.getLogger(__name__)

T = TypeVar("T")

PLAY = 0
"""Rank of a bot's move where people are waiting for it."""
HINT = 1
"""Rank of a hint."""
BACKGROUND = 2
"""Rank of work nobody at a seat is waiting for (all-bot tables, tables left by all)."""
REVIEW = 3
"""Rank of a decision of a game's review: after everything else."""
RANKS = (PLAY, HINT, BACKGROUND, REVIEW)


class _Job:
    __slots__ = ("args", "fn", "future")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], future: asyncio.Future[Any]):
        self.fn = fn
        self.args = args
        self.future = future


class FairScheduler:
    """Runs jobs on an executor of ``slots`` workers: ranks in order, tables in turn."""

    def __init__(self, make_executor: Callable[[], Executor], slots: int) -> None:
        self._make_executor = make_executor
        self.executor = make_executor()
        self.slots = max(1, slots)
        self.running = 0
        self.others = 0
        """Running jobs that are not :data:`PLAY`."""
        self._queues: dict[tuple[int, str], deque[_Job]] = {}
        self._rings: tuple[OrderedDict[str, None], ...] = tuple(OrderedDict() for _ in RANKS)
        self.done = 0
        self.dropped = 0

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(q) for q in self._queues.values())

    async def run(self, table: str, rank: int, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker in this table's turn of ``rank``; cancel to drop it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        queue = self._queues.get((rank, table))
        if queue is None:
            queue = self._queues[(rank, table)] = deque()
            self._rings[rank][table] = None
        queue.append(_Job(fn, args, future))
        self._dispatch()
        return await future

    def _next(self) -> tuple[int, _Job] | None:
        for rank, ring in enumerate(self._rings):
            if rank != PLAY and self.slots > 1 and self.others >= self.slots - 1:
                return None  # the last free worker is kept for people's bots
            while ring:
                table, _ = ring.popitem(last=False)
                queue = self._queues[(rank, table)]
                job = queue.popleft()
                if queue:
                    ring[table] = None  # to the back of the ring: the others go first
                else:
                    del self._queues[(rank, table)]
                if job.future.done():  # its caller stopped waiting
                    self.dropped += 1
                    continue
                return rank, job
        return None

    def _dispatch(self) -> None:
        while self.running < self.slots:
            found = self._next()
            if found is None:
                return
            rank, job = found
            try:
                work: Future[Any] = self.executor.submit(job.fn, *job.args)
            except BrokenExecutor:
                self._replace_executor()
                work = self.executor.submit(job.fn, *job.args)
            self.running += 1
            self.others += rank != PLAY
            wrapped = asyncio.wrap_future(work)
            wrapped.add_done_callback(functools.partial(self._finished, rank, job))

    def _finished(self, rank: int, job: _Job, done: asyncio.Future[Any]) -> None:
        self.running -= 1
        self.others -= rank != PLAY
        self.done += 1
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                error = done.exception()
                if isinstance(error, BrokenExecutor):
                    self._replace_executor()
                job.future.set_exception(error)  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        elif not done.cancelled():
            done.exception()  # a result nobody waits for: read so it is not logged
        self._dispatch()

    def _replace_executor(self) -> None:
        """A worker died (killed, out of memory): start a new pool for the next jobs."""
        log.error("a bot worker process died; starting a new pool")
        old = self.executor
        self.executor = self._make_executor()
        old.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Drop every queued job and stop the workers (blocking until they end)."""
        for queue in self._queues.values():
            for job in queue:
                job.future.cancel()
        self._queues.clear()
        for ring in self._rings:
            ring.clear()
        self.executor.shutdown(wait=True, cancel_futures=True)
