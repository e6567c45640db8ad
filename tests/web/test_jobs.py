"""The server's one background-job queue (:mod:`basra.server.runtime.jobs`): kinds, one
job per key, a job put back when its process stops and taken again when it dies; in one
process, and on a real Redis through saq shared by several."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from basra.server.runtime.devservices import redis_server
from basra.server.runtime.jobs import Beat, JobQueue, LocalJobs, SaqJobs

ROOT = Path(__file__).resolve().parents[2]


class Rows:
    """A feature's status rows as the handlers use them: claimed by one job at a time
    (a job finds its row queued, or not there yet, or it does nothing: a job delivered
    again, as saq may do under load, finds the row running or done), put back when a
    job is cancelled; ``gate`` holds every job until it is set."""

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.gate = gate
        self.status: dict[str, str] = {}
        self.history: dict[str, list[str]] = {}  # every status each key went through
        self.ran: list[tuple[str, str]] = []
        self.started = asyncio.Event()

    def handler(self, kind: str) -> object:
        async def run(key: str, beat: Beat | None) -> None:
            if self.status.get(key, "queued") != "queued":
                return
            self.mark(key, "running")
            self.started.set()
            try:
                if self.gate is not None:
                    await self.gate.wait()
                if beat is not None:
                    await beat()
            except asyncio.CancelledError:
                self.mark(key, "queued")  # back to the queue, for the next process
                raise
            self.ran.append((kind, key))
            self.mark(key, "done")

        return run

    def mark(self, key: str, status: str) -> None:
        self.status[key] = status
        self.history.setdefault(key, []).append(status)


def handled(jobs: JobQueue, rows: Rows, *kinds: str, **options: int) -> None:
    for kind in kinds:
        jobs.register(kind, rows.handler(kind), 2, **options)  # type: ignore[arg-type]


async def until(check: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


# ------------------------------------------------------------------ in one process


def test_each_kind_goes_to_its_handler_and_a_waiting_key_is_queued_once() -> None:
    async def scenario() -> list[tuple[str, str]]:
        gate = asyncio.Event()
        rows = Rows(gate)
        jobs = LocalJobs()
        handled(jobs, rows, "reviews", "puzzle_mining")
        with pytest.raises(ValueError, match="handled already"):
            jobs.register("reviews", rows.handler("again"))  # type: ignore[arg-type]
        await jobs.start()
        with pytest.raises(RuntimeError, match="after the queue started"):
            jobs.register("late", rows.handler("late"))  # type: ignore[arg-type]
        with pytest.raises(KeyError, match="no handler"):
            await jobs.enqueue("nobody", "g1")
        try:
            for key in ("g1", "g2", "g3", "g3", "g3"):
                await jobs.enqueue("reviews", key)
            await jobs.enqueue("puzzle_mining", "g9")
            await until(lambda: jobs.pending == 1)  # g3 waits, once: 2 consumers a kind are busy
            gate.set()
            await until(lambda: len(rows.ran) == 4)
            await asyncio.sleep(0.05)
            return sorted(rows.ran)
        finally:
            await jobs.close()

    assert asyncio.run(scenario()) == [
        ("puzzle_mining", "g9"),
        ("reviews", "g1"),
        ("reviews", "g2"),
        ("reviews", "g3"),
    ]


def test_a_job_under_way_when_its_process_stops_is_put_back_and_taken_again() -> None:
    async def scenario() -> tuple[str, list[tuple[str, str]]]:
        rows = Rows(asyncio.Event())  # never set: the first process never finishes
        first = LocalJobs()
        handled(first, rows, "reviews")
        await first.start()
        await first.enqueue("reviews", "g1")
        await rows.started.wait()
        await first.close()
        left = rows.status["g1"]
        # The next server queues again what its rows say is unfinished.
        rows.gate = None
        second = LocalJobs()
        handled(second, rows, "reviews")
        await second.start()
        try:
            for key, status in rows.status.items():
                if status in ("queued", "running"):
                    await second.enqueue("reviews", key)
            await until(lambda: rows.status["g1"] == "done")
            return left, rows.ran
        finally:
            await second.close()

    assert asyncio.run(scenario()) == ("queued", [("reviews", "g1")])


def test_later_queues_a_job_again_after_its_delay_and_close_forgets_it() -> None:
    async def scenario() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        rows = Rows()
        jobs = LocalJobs()
        handled(jobs, rows, "puzzle_mining")
        await jobs.start()
        jobs.later("puzzle_mining", "soon", 0.05)
        jobs.later("puzzle_mining", "never", 60)
        await until(lambda: rows.ran)
        first = list(rows.ran)
        await jobs.close()
        return first, rows.ran

    first, after = asyncio.run(scenario())
    assert first == after == [("puzzle_mining", "soon")]


def test_an_awaited_job_runs_once_per_key_and_stops_when_nobody_waits() -> None:
    async def scenario() -> tuple[int, list[str], bool]:
        jobs = LocalJobs()
        await jobs.start()
        calls = 0
        gate = asyncio.Event()

        async def check() -> str:
            nonlocal calls
            calls += 1
            await gate.wait()
            return f"checked {calls}"

        try:
            both = [asyncio.create_task(jobs.once("offline_check", "k", check)) for _ in "ab"]
            await asyncio.sleep(0.05)
            assert jobs.pending == 1
            gate.set()
            answers = list(await asyncio.gather(*both))
            # Later, the same key is a new job; cancelled by its only caller, it stops.
            gate.clear()
            stopped = asyncio.Event()

            async def endless() -> str:
                try:
                    await asyncio.Event().wait()
                finally:
                    stopped.set()
                return "never"

            alone = asyncio.create_task(jobs.once("offline_check", "k", endless))
            await asyncio.sleep(0.05)
            alone.cancel()
            await asyncio.gather(alone, return_exceptions=True)
            await asyncio.wait_for(stopped.wait(), 5)
            return calls, answers, jobs.pending == 0
        finally:
            await jobs.close()

    assert asyncio.run(scenario()) == (1, ["checked 1", "checked 1"], True)


def test_an_awaited_job_goes_on_for_a_caller_still_waiting() -> None:
    async def scenario() -> str:
        jobs = LocalJobs()
        gate = asyncio.Event()

        async def check() -> str:
            await gate.wait()
            return "checked"

        try:
            first = asyncio.create_task(jobs.once("offline_check", "k", check))
            second = asyncio.create_task(jobs.once("offline_check", "k", check))
            await asyncio.sleep(0.05)
            first.cancel()
            await asyncio.gather(first, return_exceptions=True)
            gate.set()
            return await asyncio.wait_for(second, 5)
        finally:
            await jobs.close()

    assert asyncio.run(scenario()) == "checked"


# ------------------------------------------------------------------ on Redis, through saq


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    """A Redis server on a free port; yields its URL."""
    with redis_server() as url:
        yield url


@pytest.mark.services
def test_saq_shares_kinds_and_keys_between_processes(redis: str) -> None:
    async def scenario() -> list[tuple[str, str]]:
        gate = asyncio.Event()
        rows = Rows(gate)
        one, two = SaqJobs(redis), SaqJobs(redis)
        for jobs in (one, two):
            handled(jobs, rows, "reviews", "puzzle_mining")
            await jobs.start()
        try:
            await one.enqueue("reviews", "g1")
            await rows.started.wait()
            # Asked again, on either process, while it runs: the game is worked out once.
            await two.enqueue("reviews", "g1")
            await one.enqueue("reviews", "g1")
            await two.enqueue("puzzle_mining", "g9")
            await asyncio.sleep(0.5)
            gate.set()
            await until(lambda: len(rows.ran) == 2)
            await asyncio.sleep(0.5)
            return sorted(rows.ran)
        finally:
            await asyncio.gather(one.close(), two.close())

    assert asyncio.run(scenario()) == [("puzzle_mining", "g9"), ("reviews", "g1")]


@pytest.mark.services
def test_saq_puts_back_the_job_of_a_process_that_stops(redis: str) -> None:
    async def scenario() -> tuple[list[str], list[tuple[str, str]]]:
        rows = Rows(asyncio.Event())
        one = SaqJobs(redis)
        handled(one, rows, "stops")
        await one.start()
        await one.enqueue("stops", "g1")
        await rows.started.wait()
        rows.gate = None
        two = SaqJobs(redis)
        handled(two, rows, "stops")
        await two.start()
        try:
            # Its job goes back to Redis and the other process takes it: perhaps before
            # close returns, so the story is read from the history, not from one moment.
            await one.close()
            await until(lambda: rows.ran)
            return rows.history["g1"], rows.ran
        finally:
            await two.close()

    history, ran = asyncio.run(scenario())
    assert ran == [("stops", "g1")]
    assert history == ["running", "queued", "running", "done"]


CRASHING = """
import asyncio, sys
from pathlib import Path
from basra.server.runtime.jobs import SaqJobs

async def main() -> None:
    jobs = SaqJobs(sys.argv[1], sweep=1)
    async def hang(key, beat):
        Path(sys.argv[2]).write_text(key)
        await asyncio.Event().wait()
    jobs.register("crash", hang, heartbeat=1)
    await jobs.start()
    await jobs.enqueue("crash", "g1")
    await asyncio.Event().wait()

asyncio.run(main())
"""


@pytest.mark.services
def test_saq_takes_again_the_job_of_a_process_that_died(redis: str, tmp_path: Path) -> None:
    flag = tmp_path / "started"
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(CRASHING), redis, str(flag)], env=env
    )
    try:
        deadline = time.monotonic() + 60
        while not flag.exists():
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)  # mid-job, its heartbeat stops
    finally:
        child.wait(10)

    async def scenario() -> list[tuple[str, str]]:
        rows = Rows()
        jobs = SaqJobs(redis, sweep=1)
        handled(jobs, rows, "crash", heartbeat=1)
        await jobs.start()
        try:
            await until(lambda: rows.ran, timeout=60)
            return rows.ran
        finally:
            await jobs.close()

    assert flag.read_text() == "g1"
    assert asyncio.run(scenario()) == [("crash", "g1")]
