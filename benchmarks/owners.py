"""One owner per table (issue 36): bot CPU per 1,000 bot moves with 1, 2 and 3 processes,
and how long a killed owner's tables wait for another process.

    python benchmarks/owners.py [--tables 12] [--level medium] [--kills 20]
        [--processes 1,2,3] [--server-src PATH] [--database URL] [--redis URL]

Starts a PostgreSQL cluster and a Redis server of its own (unless ``--database`` and
``--redis`` name running ones), then, for each count of ``--processes``, that many
``basra serve`` processes on them (each with one bot worker process), and
``--tables`` tables of two ``--level`` bots made on the processes in turn, played to
the end with no bot delay. It measures the CPU seconds of every server's worker
processes (where the bots think) and of the servers themselves, per 1,000 bot moves
stored, with a spectator at every table on every process (people watching through a
proxy that spreads their sockets over the processes). With one owner per table the
bots' CPU does not grow with the processes; before it (``--server-src`` naming an older
checkout's ``src``), every process that held a table thought for its bots.

Then ``--kills`` times: with three processes playing long games (bots that wait
``--kill-delay`` s), the process owning the most tables is killed (``kill -9``); for
each of its tables the time from the kill to its next event stored (another process
took it over from the log) is one sample; a fresh process is started in its place.
Prints p50/p95 of those samples and of each kill's slowest table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import websockets
from load_quickplay import cpu_seconds, percentile, server, tree_cpu_seconds

from basra.server.runtime.devservices import postgres_cluster, redis_server
from basra.server.store.rows import TableStatus
from basra.server.stores import open_store


def http(port: int, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    """A JSON request to a server on this host; its JSON answer."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def make_tables(ports: list[int], count: int, level: str, target: int) -> list[str]:
    """``count`` tables of two bots, each made by a new identity, on the servers in turn."""
    ids = []
    for index in range(count):
        port = ports[index % len(ports)]
        token = http(port, "/api/identity", {})["token"]
        form = {
            "name": f"B{index}",
            "seats": [{"kind": "bot", "level": level}] * 2,
            "my_seat": None,
            "rules": {"target": target},
        }
        ids.append(http(port, "/api/tables", form, token)["id"])
    return ids


async def _read(database: str, ids: list[str]) -> dict[str, tuple[str, list[float]]]:
    store = open_store(database)
    await store.start()
    try:
        out = {}
        for table_id in ids:
            row = await store.tables.load(table_id)
            events = await store.tables.events(table_id)
            plays = [e.at or 0.0 for e in events if e.kind == "play"]
            out[table_id] = (str(row.status) if row else "gone", plays)
        return out
    finally:
        await store.close()


def tables(database: str, ids: list[str]) -> dict[str, tuple[str, list[float]]]:
    """Each table's status and the times of its plays, read from the store."""
    return asyncio.run(_read(database, ids))


def holders(database: str) -> dict[str, str]:
    """Which process (origin) holds each table's lease."""

    async def read() -> dict[str, str]:
        store = open_store(database)
        await store.start()
        try:
            held = await store.leases.held("table:")
            return {name[6:]: holder for name, (holder, until) in held.items()}
        finally:
            await store.close()

    return asyncio.run(read())


def wait_ended(database: str, ids: list[str], timeout: float) -> dict[str, tuple[str, list[float]]]:
    """Wait until none of the tables is in play; what :func:`tables` reads then."""
    deadline = time.time() + timeout
    while True:
        read = tables(database, ids)
        if all(status != str(TableStatus.PLAYING) for status, _ in read.values()):
            return read
        if time.time() > deadline:
            raise SystemExit(f"the games did not end in {timeout:g} s")
        time.sleep(0.5)


def decisions(port: int) -> float | None:
    """The process's ``basra_bot_decisions_total`` (None on a server without it)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("basra_bot_decisions_total "):
                return float(line.split()[1])
    return None


class Watchers:
    """A spectator at every table on every server (people watching through a proxy that
    spreads them over the processes), reading what they are sent, in a thread of their own.

    Before issue 36 a process that held a table for a spectator drove its bots too."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def watch(self, ports: list[int], ids: list[str]) -> None:
        for table_id in ids:
            for port in ports:
                coro = self._watch(f"ws://127.0.0.1:{port}/ws/{table_id}")
                asyncio.run_coroutine_threadsafe(coro, self.loop)

    async def _watch(self, url: str) -> None:
        with contextlib.suppress(Exception):
            async with websockets.connect(url, open_timeout=10, max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "name": "W"}))
                async for _ in ws:
                    pass

    def close(self) -> None:
        async def stop() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def options(bot_delay: float) -> tuple[str, ...]:
    return ("--bot-delay", str(bot_delay), "--round-pause", "0", "--tournaments", "none")


def cpu_run(args: argparse.Namespace, database: str, redis: str, count: int) -> dict[str, Any]:
    """``args.tables`` games with ``count`` processes: CPU per 1,000 bot moves."""
    with contextlib.ExitStack() as stack:
        servers = [
            stack.enter_context(server(database, redis, options(0.0), args.server_src))
            for _ in range(count)
        ]
        time.sleep(1.5)  # a lease pass: each knows the others
        ports, pids = [p for p, _ in servers], [pid for _, pid in servers]
        # Warm up: short games, so each server's bot worker has started before measuring.
        wait_ended(database, make_tables(ports, 3 * count, "easy", 1), args.timeout)
        time.sleep(2.5)  # the metrics are sampled every 2 s
        made_before = [decisions(port) or 0.0 for port in ports]
        before = [(tree_cpu_seconds(pid), cpu_seconds(pid)) for pid in pids]
        began = time.perf_counter()
        ids = make_tables(ports, args.tables, args.level, args.target)
        watchers = Watchers()
        stack.callback(watchers.close)
        watchers.watch(ports, ids)
        read = wait_ended(database, ids, args.timeout)
        spent = time.perf_counter() - began
        after = [(tree_cpu_seconds(pid), cpu_seconds(pid)) for pid in pids]
        time.sleep(2.5)  # the metrics are sampled every 2 s
        made = [decisions(port) for port in ports]
        made = [None if m is None else m - b for m, b in zip(made, made_before, strict=True)]
    moves = sum(len(plays) for _, plays in read.values())
    workers = sum((a[0] - a[1]) - (b[0] - b[1]) for a, b in zip(after, before, strict=True))
    servers_cpu = sum(a[1] - b[1] for a, b in zip(after, before, strict=True))
    return {
        "processes": count,
        "moves": moves,
        "seconds": spent,
        "bot_cpu_per_1000": 1000 * workers / max(1, moves),
        "server_cpu_per_1000": 1000 * servers_cpu / max(1, moves),
        "decisions": None if None in made else sum(m or 0 for m in made),
    }


def kill_run(args: argparse.Namespace, database: str, redis: str) -> dict[str, Any]:
    """``args.kills`` owners killed: the seconds each of their tables waited."""
    samples: list[float] = []
    worst: list[float] = []
    with contextlib.ExitStack() as outer:
        running: list[tuple[contextlib.ExitStack, int, int]] = []

        def start() -> None:
            stack = contextlib.ExitStack()
            port, pid = stack.enter_context(
                server(database, redis, options(args.kill_delay), args.server_src)
            )
            running.append((stack, port, pid))

        outer.callback(lambda: [stack.close() for stack, _, _ in running])
        for _ in range(3):
            start()
        time.sleep(1.5)
        ids: list[str] = []
        for kill in range(args.kills):
            read = tables(database, ids)
            live = [t for t, (status, _) in read.items() if status == str(TableStatus.PLAYING)]
            if len(live) < args.tables:
                ids += make_tables([p for _, p, _ in running], args.tables - len(live), "easy", 500)
                time.sleep(1.5)
            origins = {
                http(port, "/healthz")["origin"]: i for i, (_, port, _) in enumerate(running)
            }
            held = holders(database)
            owned: dict[int, list[str]] = {}
            for table_id in ids:
                index = origins.get(held.get(table_id, ""))
                if index is not None and read.get(table_id, ("", []))[0] != "over":
                    owned.setdefault(index, []).append(table_id)
            victim = max(owned, key=lambda i: len(owned[i]))
            stack, _, pid = running.pop(victim)
            os.kill(pid, signal.SIGKILL)
            killed = time.time()
            waits: dict[str, float] = {}
            while len(waits) < len(owned[victim]) and time.time() < killed + 30:
                for table_id, (status, plays) in tables(database, owned[victim]).items():
                    later = [at for at in plays if at > killed]
                    if table_id not in waits and later:
                        waits[table_id] = min(later) - killed
                    elif table_id not in waits and status != str(TableStatus.PLAYING):
                        waits[table_id] = float("nan")  # it ended: nothing to take over
                time.sleep(0.05)
            stack.close()
            got = [w for w in waits.values() if w == w]
            samples += got
            worst.append(max(got, default=0.0))
            missing = len(owned[victim]) - len(waits)
            print(
                f"  kill {kill + 1}: {len(owned[victim])} tables, slowest {worst[-1]:.2f} s"
                + (f", {missing} NOT TAKEN OVER in 30 s" if missing else ""),
                flush=True,
            )
            start()
            time.sleep(1.0)
    return {
        "kills": args.kills,
        "tables": len(samples),
        "p50": percentile(samples, 0.5),
        "p95": percentile(samples, 0.95),
        "worst_p50": percentile(worst, 0.5),
        "worst_p95": percentile(worst, 0.95),
        "max": max(samples, default=0.0),
    }


@contextlib.contextmanager
def services(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    with contextlib.ExitStack() as stack:
        database = args.database or stack.enter_context(postgres_cluster(max_connections=200))
        redis = args.redis or stack.enter_context(redis_server())
        yield database, redis


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=12, help="tables at once (12)")
    parser.add_argument("--level", default="medium", help="the bots of the CPU runs (medium)")
    parser.add_argument("--target", type=int, default=30, help="points a CPU-run game is to (30)")
    parser.add_argument("--processes", default="1,2,3", help="process counts (1,2,3)")
    parser.add_argument("--kills", type=int, default=20, help="owners killed (20; 0: none)")
    parser.add_argument("--kill-delay", type=float, default=0.3, help="bot delay while killing")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a CPU run may take")
    parser.add_argument("--server-src", default=None, help="run the servers from this src")
    parser.add_argument("--database", default=None, help="a running PostgreSQL's URL")
    parser.add_argument("--redis", default=None, help="a running Redis's URL")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with services(args) as (database, redis):
        print(
            f"{args.tables} tables of two {args.level} bots to {args.target} points, "
            f"PostgreSQL and Redis, {os.cpu_count()} CPUs, servers from "
            f"{args.server_src or 'this checkout'}"
        )
        print("processes  bot moves  seconds  bot CPU s/1000 moves  server CPU s/1000  decisions")
        for count in (int(c) for c in args.processes.split(",") if c):
            r = cpu_run(args, database, redis, count)
            print(
                f"{r['processes']:9d}  {r['moves']:9d}  {r['seconds']:7.1f}  "
                f"{r['bot_cpu_per_1000']:20.1f}  {r['server_cpu_per_1000']:17.1f}  "
                f"{r['decisions'] if r['decisions'] is not None else '-'}",
                flush=True,
            )
        if args.kills:
            print(f"\nkill -9 of the busiest owner, {args.kills} times (3 processes):")
            k = kill_run(args, database, redis)
            print(
                f"hand-over over {k['tables']} tables: p50 {k['p50']:.2f} s, p95 "
                f"{k['p95']:.2f} s, max {k['max']:.2f} s; per kill, slowest table: "
                f"p50 {k['worst_p50']:.2f} s, p95 {k['worst_p95']:.2f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
