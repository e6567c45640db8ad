"""One background-job queue for the whole server: named kinds, each job queued once per key.

A feature registers a job kind with its handler (:meth:`JobQueue.register`), then
queues keys of that kind (:meth:`JobQueue.enqueue`); the queue hands each key to
the handler in some server process. The kinds today:

- ``reviews`` (:class:`~basra.server.features.reviews.ReviewService`): a finished
  game's review, keyed by game;
- ``puzzle_mining`` (:class:`~basra.server.features.mistakes.MistakeMiner`): a
  reviewed game mined for its people's mistakes, keyed by game;
- ``offline_check`` (:class:`~basra.server.features.offline.OfflineGames`): an
  uploaded offline game replayed and checked, keyed by person and upload. Its
  caller (the person's request) awaits the answer, so it runs in the process
  that was asked (:meth:`JobQueue.once`): the same upload sent twice at once is
  checked once, and both requests get the one answer.

**What the queue promises.** A key is queued once: queuing it again while it
waits (or, on Redis, while it runs) does nothing. A job being run when its
process stops (:meth:`JobQueue.close`) or dies is taken again: on close the
handler is cancelled (it puts its row back), and on Redis a job whose process
died is swept by saq and retried by another process. The handler is the
feature's: it claims the feature's own status row (``reviews``,
``puzzle_mining``: queued to running in one UPDATE, so one job at a time works
a key whichever process runs it), does the work on the fair scheduler's
workers, and stores the outcome. A handler that finds its row claimed by
another process asks to be run again later (:meth:`JobQueue.later`), once the
other's claim would be stale (its process may have died).

**Where jobs run.** Without Redis (the default: one process on SQLite) the queue
is this process's own (:class:`LocalJobs`): an asyncio queue per kind and as
many consumers as the kind's ``concurrency``. With Redis (``--redis``) it is
`saq <https://github.com/tobymao/saq>`_ (:class:`SaqJobs`): every server process
runs a saq worker per kind inside its event loop (without saq's signal handlers:
the server owns those), so any process takes the next job; one saq queue per kind
(``basra-<kind>``) keeps each kind's concurrency its own, so a flood of reviews
never holds back mining. saq was chosen over arq because its API is asyncio
through and through like the app's, it pins Redis's client less tightly (arq
needs redis<6, saq redis<8), and it can run on PostgreSQL too; rq, dramatiq and
celery are built around worker processes of their own, not an event loop, and
the work must run on the scheduler's ranks. Either way the work itself runs in
the server's worker processes (:mod:`basra.server.runtime.scheduler`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Beat", "Handler", "JobQueue", "LocalJobs", "SaqJobs", "open_jobs"]

log = logging.getLogger(__name__)

T = TypeVar("T")

Beat = Callable[[], Awaitable[None]]
"""Awaited by a handler as it makes progress: on Redis, the job's heartbeat (a job
whose heartbeat stops is swept and retried elsewhere)."""

Handler = Callable[[str, "Beat | None"], Awaitable[None]]
"""Works out one job: called with its key, and a heartbeat where the queue has one."""


@dataclass(frozen=True)
class Kind:
    """A registered kind of job."""

    name: str
    handler: Handler
    concurrency: int
    timeout: int
    """Seconds a job of this kind may run (on Redis; a longer one is retried)."""
    heartbeat: int
    """Seconds without a heartbeat after which a job is taken for dead (on Redis: swept
    and retried by another process)."""


class JobQueue:
    """The server's background jobs (see the module docstring); the parts common to
    :class:`LocalJobs` and :class:`SaqJobs`."""

    def __init__(self) -> None:
        self.kinds: dict[str, Kind] = {}
        self.started = False
        self._later: set[asyncio.TimerHandle] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._once: dict[tuple[str, str], asyncio.Future[Any]] = {}
        self._waiting: dict[tuple[str, str], int] = {}

    def register(
        self,
        kind: str,
        handler: Handler,
        concurrency: int = 1,
        *,
        timeout: int = 3600,
        heartbeat: int = 60,
    ) -> None:
        """Hand jobs of ``kind`` to ``handler``, at most ``concurrency`` at once in each
        process (one handler a kind, registered before :meth:`start`)."""
        if kind in self.kinds:
            raise ValueError(f"jobs of kind {kind!r} are handled already")
        if self.started:
            raise RuntimeError(f"jobs of kind {kind!r} registered after the queue started")
        self.kinds[kind] = Kind(kind, handler, max(1, concurrency), timeout, heartbeat)

    def _kind(self, kind: str) -> Kind:
        found = self.kinds.get(kind)
        if found is None:
            raise KeyError(f"no handler for jobs of kind {kind!r}")
        return found

    async def start(self) -> None:
        """Begin taking jobs of every registered kind."""
        self.started = True

    async def enqueue(self, kind: str, key: str) -> None:
        """Queue the job ``key`` of ``kind`` (once: a job already queued is not queued again)."""
        raise NotImplementedError

    def later(self, kind: str, key: str, delay: float) -> None:
        """Queue the job again in ``delay`` seconds (from this process, which stays up to
        ask; a job queued or running then is not queued twice)."""
        loop = asyncio.get_running_loop()

        def again() -> None:
            self._later.discard(handle)
            task = asyncio.create_task(self.enqueue(kind, key))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        handle = loop.call_later(delay, again)
        self._later.add(handle)

    async def once(self, kind: str, key: str, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` in this process and return its answer, once per key at a time: a
        caller asking for a key under way awaits the same answer (or the same error). The
        work is cancelled when every caller awaiting it is (a request dropped)."""
        name = (kind, key)
        running = self._once.get(name)
        if running is None:
            running = asyncio.ensure_future(work())
            self._once[name] = running
            self._waiting[name] = 0
            running.add_done_callback(lambda _: self._forget(name))
        self._waiting[name] = self._waiting.get(name, 0) + 1
        try:
            result: T = await asyncio.shield(running)
        except asyncio.CancelledError:
            if running.done() or self._waiting.get(name, 0) <= 1:
                running.cancel()
            raise
        finally:
            if name in self._waiting:
                self._waiting[name] -= 1
        return result

    def _forget(self, name: tuple[str, str]) -> None:
        self._once.pop(name, None)
        self._waiting.pop(name, None)

    async def close(self) -> None:
        """Stop taking jobs; a job being run is cancelled (its handler puts it back)."""
        for handle in self._later:
            handle.cancel()
        self._later.clear()
        for task in [*self._tasks, *self._once.values()]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._once.values(), return_exceptions=True)

    @property
    def pending(self) -> int:
        """Jobs this process holds queued or awaited (for ``/healthz``)."""
        return len(self._once)


class LocalJobs(JobQueue):
    """The job queue of one process: an asyncio queue per kind and its consumers."""

    def __init__(self) -> None:
        super().__init__()
        self._queues: dict[str, asyncio.Queue[str]] = {}
        self._queued: dict[str, set[str]] = {}
        self._consumers: list[asyncio.Task[None]] = []

    def _queue(self, kind: str) -> asyncio.Queue[str]:
        queue = self._queues.get(kind)
        if queue is None:
            queue = self._queues[kind] = asyncio.Queue()
            self._queued[kind] = set()
        return queue

    async def start(self) -> None:
        """Start each kind's consumers."""
        await super().start()
        for kind in self.kinds.values():
            queue = self._queue(kind.name)
            for _ in range(kind.concurrency):
                self._consumers.append(asyncio.create_task(self._consume(kind, queue)))

    async def _consume(self, kind: Kind, queue: asyncio.Queue[str]) -> None:
        queued = self._queued[kind.name]
        while True:
            key = await queue.get()
            queued.discard(key)
            try:
                await kind.handler(key, None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the %s job %s failed", kind.name, key)

    async def enqueue(self, kind: str, key: str) -> None:
        """Queue it unless it is waiting already."""
        self._kind(kind)
        queue = self._queue(kind)
        queued = self._queued[kind]
        if key not in queued:
            queued.add(key)
            queue.put_nowait(key)

    async def close(self) -> None:
        """Cancel the consumers (a running handler puts its job back)."""
        await super().close()
        for task in self._consumers:
            task.cancel()
        await asyncio.gather(*self._consumers, return_exceptions=True)
        self._consumers = []

    @property
    def pending(self) -> int:
        """Jobs waiting in this process, and those awaited."""
        return super().pending + sum(len(q) for q in self._queued.values())


class SaqJobs(JobQueue):
    """The job queue in Redis through saq, shared by every server process (see the module
    docstring): one saq queue and one worker per kind in each process."""

    PREFIX = "basra-"
    """Each kind's saq queue is named ``basra-<kind>``."""

    def __init__(self, url: str, sweep: int = 15) -> None:
        super().__init__()
        self.url = url
        self.sweep = sweep
        """Seconds between this process's looks for jobs whose process died."""
        self.queues: dict[str, Any] = {}
        self.workers: list[Any] = []
        self._running: list[asyncio.Task[None]] = []

    def _saq(self, kind: str) -> Any:
        from saq import Queue

        queue = self.queues.get(kind)
        if queue is None:
            queue = self.queues[kind] = Queue.from_url(self.url, name=self.PREFIX + kind)
        return queue

    async def start(self) -> None:
        """Connect and start this process's workers."""
        from saq import Worker
        from saq.types import Context

        await super().start()

        class QuietWorker(Worker[Context]):
            SIGNALS: list[Any] = []  # noqa: RUF012  (the server handles the signals)

        for kind in self.kinds.values():

            def job(handler: Handler) -> Callable[..., Awaitable[None]]:
                async def run(ctx: Context, *, subject: str) -> None:
                    saq_job = ctx["job"]

                    async def beat() -> None:
                        await saq_job.update()

                    await handler(subject, beat)

                return run

            queue = self._saq(kind.name)
            await queue.connect()
            worker = QuietWorker(
                queue,
                functions=[(kind.name, job(kind.handler))],
                concurrency=kind.concurrency,
                timers={"sweep": self.sweep, "abort": 2, "schedule": 5, "worker_info": 30},
            )
            self.workers.append(worker)
            self._running.append(asyncio.create_task(worker.start()))

    async def enqueue(self, kind: str, key: str) -> None:
        """Queue the job (saq keeps one incomplete job per key)."""
        found = self._kind(kind)
        await self._saq(kind).enqueue(
            kind,
            key=f"{kind}:{key}",
            timeout=found.timeout,
            heartbeat=found.heartbeat,
            retries=3,
            ttl=600,
            subject=key,  # the job's argument ("key" is saq's own)
        )

    async def close(self) -> None:
        """Stop the workers (a job one was running is retried elsewhere) and disconnect."""
        await super().close()
        for worker in self.workers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.stop(), 10)
        for task in self._running:
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
        for queue in self.queues.values():
            with contextlib.suppress(Exception):
                await queue.disconnect()


def open_jobs(redis: str | None) -> JobQueue:
    """The job queue of a server: on Redis at ``redis`` when given, else this process's own."""
    return SaqJobs(redis) if redis else LocalJobs()
