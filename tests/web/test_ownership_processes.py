"""One owner per table with three ``basra serve`` processes on PostgreSQL and Redis (issue 36).

Tables of bots spread over the processes: each bot decision is made once (the
processes' ``basra_bot_decisions_total`` add up to the bots' plays in the logs), no
automatic action is refused as stale, every table's record is what its log replays
to, and each process's ``/metrics`` shows the tables it owns. Then one owner is killed
(``kill -9``) and another drained (SIGTERM) mid-game: each of their tables goes on, on
a process still running, within five seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.helpers import create_table, eventually, free_port, http, new_token, wait_http
from tests.web.test_services import postgres, redis  # noqa: F401 (fixtures)

from basra.server.store.rows import Event, TableRow, TableStatus
from basra.server.stores import open_store
from basra.server.table.reducer import replay, status_after

OPTIONS = (
    *("--bot-delay", "0.05", "--round-pause", "0", "--bot-processes", "0"),
    *("--tournaments", "none", "--log-level", "info", "--message-rate", "10000"),
)
BOTS = [{"kind": "bot", "level": "easy"}] * 2
Tables = dict[str, tuple[TableRow, list[Event]]]
Served = Iterator[tuple[subprocess.Popen[bytes], str]]
HAND_OVER_LIMIT = 5.0


@contextlib.contextmanager
def serve(
    database: str, redis_url: str, log: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``basra serve`` on the shared database and Redis, its log written to ``log``."""
    port = free_port()
    command = [
        sys.executable, "-m", "basra", "serve", "--port", str(port), "--database", database,
        "--redis", redis_url, *OPTIONS,
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_http(url + "/healthz", 60)
            yield proc, url
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def metric(url: str, name: str) -> float:
    """A value of this process's ``/metrics`` (0 when absent)."""
    with urllib.request.urlopen(url + "/metrics", timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith((name + " ", name + "{")):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def origin(url: str) -> str:
    status, body = http(url + "/healthz")
    assert status == 200
    return str(body["origin"])


def stale_lines(logs: list[Path]) -> list[str]:
    return [
        line
        for log in logs
        for line in log.read_text(errors="replace").splitlines()
        if "automatic action" in line and "refused" in line
    ]


class Store:
    """The shared database, read the way ``basra admin check`` would."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def _read(self, ids: list[str]) -> Tables:
        store = open_store(self.url)
        await store.start()
        try:
            out: Tables = {}
            for table_id in ids:
                row = await store.tables.load(table_id)
                assert row is not None
                out[table_id] = (row, list(await store.tables.events(table_id)))
            return out
        finally:
            await store.close()

    def tables(self, ids: list[str]) -> Tables:
        return asyncio.run(self._read(ids))

    def holders(self) -> dict[str, str]:
        async def read() -> dict[str, str]:
            store = open_store(self.url)
            await store.start()
            try:
                held = await store.leases.held("table:")
                return {name[len("table:") :]: holder for name, (holder, _) in held.items()}
            finally:
                await store.close()

        return asyncio.run(read())


def make_tables(urls: list[str], tokens: list[str], target: int) -> list[str]:
    """A table of two easy bots for each person (``tokens``: one all-bot table at a time
    each), made on the processes in turn."""
    return [
        create_table(urls[i % len(urls)], token, seats=BOTS, my_seat=None, rules={"target": target})
        for i, token in enumerate(tokens)
    ]


def wait_over(store: Store, ids: list[str], seconds: float) -> Tables:
    deadline = time.time() + seconds
    while True:
        tables = store.tables(ids)
        if all(row.status == TableStatus.OVER for row, _ in tables.values()):
            return tables
        assert time.time() < deadline, {t: str(r.status) for t, (r, _) in tables.items()}
        time.sleep(0.5)


def records_match_logs(tables: Tables) -> None:
    for table_id, (row, events) in tables.items():
        state = replay(row, events)
        status = status_after(state)
        assert status is not None and status.status == row.status, table_id
        assert list(status.scores) == list(row.scores) and status.winner == row.winner, table_id
        assert [e.seq for e in events] == list(range(len(events))), table_id


def went_on_after(store: Store, ids: list[str], since: float) -> dict[str, float]:
    """Seconds from ``since`` to each table's first event stored after it (or its end)."""
    deadline = since + 30
    gone: dict[str, float] = {}
    while len(gone) < len(ids):
        assert time.time() < deadline, gone
        for table_id, (row, events) in store.tables([t for t in ids if t not in gone]).items():
            later = [e.at for e in events if e.at is not None and e.at > since]
            if later:
                gone[table_id] = min(later) - since
            elif row.status != TableStatus.PLAYING:
                gone[table_id] = 0.0  # it ended before: nothing to take over
        time.sleep(0.1)
    return gone


@pytest.mark.services
def test_three_processes_drive_each_table_once_and_take_over_the_dead(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    store = Store(postgres)
    logs = [tmp_path / f"serve{index}.log" for index in range(3)]
    with contextlib.ExitStack() as stack:
        running = [stack.enter_context(serve(postgres, redis, log)) for log in logs]
        procs, urls = [p for p, _ in running], [u for _, u in running]
        origins = [origin(url) for url in urls]
        time.sleep(1.0)  # a renewal pass: each knows the others are alive

        # Every bot decision made once, and each table's record equal to its log.
        tokens = [new_token(urls[i % 3]) for i in range(12)]  # the server's own quotas hold
        first = make_tables(urls, tokens[:9], target=15)
        time.sleep(0.5)
        holders = store.holders()
        owners = {holders[t] for t in first if t in holders}
        assert len(owners) >= 2, holders  # spread over the processes
        tables = wait_over(store, first, 180)
        records_match_logs(tables)
        plays = sum(1 for _, events in tables.values() for e in events if e.kind == "play")

        def every_decision_counted() -> None:  # the gauges are read every 2 s
            decisions = sum(metric(url, "basra_bot_decisions_total") for url in urls)
            assert decisions == plays, (decisions, plays)

        eventually(every_decision_counted)
        assert not stale_lines(logs)

        # Hand-over: the owner of the most tables killed, then another drained, mid-game.
        second = make_tables(urls, tokens, target=40)
        time.sleep(2.5)
        owned = [metric(url, "basra_owned_tables") for url in urls]
        assert sum(owned) <= len(second) and sum(1 for n in owned if n) >= 2, owned
        holders = store.holders()
        playing = [t for t, (row, _) in store.tables(second).items() if row.status.live]
        assert all(holders.get(t) in origins for t in playing), (holders, playing)
        mine = {o: [t for t in second if holders.get(t) == o] for o in origins}
        dead = max(range(3), key=lambda i: len(mine[origins[i]]))
        procs[dead].send_signal(signal.SIGKILL)
        killed_at = time.time()
        taken = went_on_after(store, mine[origins[dead]], killed_at)
        assert max(taken.values()) <= HAND_OVER_LIMIT, taken
        living = [i for i in range(3) if i != dead]
        holders = store.holders()
        over = {t for t, (row, _) in store.tables(list(taken)).items() if not row.status.live}
        for table_id, seconds in taken.items():
            # held by a living process, or ended since it went on (its lease given back)
            assert (
                seconds == 0.0
                or holders.get(table_id) in [origins[i] for i in living]
                or table_id in over
            ), (table_id, holders, over)

        drained, last = sorted(
            living, key=lambda i: -sum(holders.get(t) == origins[i] for t in second)
        )
        drained_tables = [t for t in second if holders.get(t) == origins[drained]]
        procs[drained].send_signal(signal.SIGTERM)
        drained_at = time.time()
        if drained_tables:
            moved = went_on_after(store, drained_tables, drained_at)
            assert max(moved.values()) <= HAND_OVER_LIMIT, moved
        assert procs[drained].wait(30) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal

        tables = wait_over(store, second, 300)
        records_match_logs(tables)
        assert not stale_lines(logs)

        def leases_back() -> None:  # a pass: the finished tables' leases go back
            assert http(urls[last] + "/healthz")[1]["owned"] == 0

        eventually(leases_back)
        print(f"kill -9 hand-over: {sorted(taken.values())}; drain: {sorted(moved.values())}")
