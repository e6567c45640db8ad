"""Load: many concurrent tables of greedy bots playing through real WebSocket clients.

    python benchmarks/load.py [--tables 500] [--seconds 60] [--think 1.0]

Starts ``basra serve`` as its own process (a SQLite file in a temporary
directory, or ``--database URL``), then opens two WebSocket clients per table
in this process. Each client plays a greedy move (the legal move that takes
the most cards) after thinking ``--think`` seconds (with jitter), as a person
would; a finished game is replaced by a new table, so ``--tables`` games are
held all along. Prints tables held, moves/s, and p50/p95/p99 move latency (a
move sent until its snapshot comes back) next to a same-run baseline: the
latency of a ``ping``/``pong`` through the same server and sockets, which is
the floor that transport and the event loop alone give. The goal (issue 5) is
500 tables on this 2-core machine with p95 at most 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def greedy(legal: list[str]) -> str:
    """The legal move that takes the most cards (the first of equals)."""
    return max(legal, key=lambda m: m.count(",") + 1 if "x" in m else 0)


@dataclass
class Stats:
    move_latency: list[float] = field(default_factory=list)
    pong_latency: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: int = 0
    held: int = 0
    measuring: bool = False


async def seat_client(
    base: str, table: str, seat: int, stats: Stats, think: float, rng: random.Random
) -> None:
    """One person-like client: hello, join, then play greedy moves until the game ends.

    It never sleeps between reads: a move (after thinking) and the next ping are
    deadlines, so every frame is read as soon as it arrives.
    """
    secret = secrets.token_hex(16)
    async with websockets.connect(f"{base}/ws/{table}", max_size=2**20) as ws:
        hello: dict[str, Any] = {"type": "hello", "secret": secret, "name": f"bot{seat}"}
        await ws.send(json.dumps(hello))
        await ws.send(json.dumps({"type": "join", "seat": seat}))
        sent_at: float | None = None
        sent_version = -1
        move_due: float | None = None
        ping_at: float | None = None
        next_ping = time.perf_counter() + rng.uniform(1, 5)
        view: dict[str, Any] = {}
        version = -1
        while True:
            now = time.perf_counter()
            if ping_at is None and now >= next_ping:
                ping_at = now
                await ws.send('{"type": "ping"}')
            if move_due is not None and now >= move_due:
                move_due = None
                sent_version = version
                sent_at = time.perf_counter()
                move = greedy(view["legal"])
                await ws.send(json.dumps({"type": "move", "move": move, "version": version}))
            deadlines = [d for d in (move_due, None if ping_at else next_ping) if d is not None]
            timeout = max(0.001, min(deadlines) - time.perf_counter()) if deadlines else 5.0
            try:
                text = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                continue
            message = json.loads(text)
            kind = message["type"]
            if kind == "pong" and ping_at is not None:
                if stats.measuring:
                    stats.pong_latency.append(time.perf_counter() - ping_at)
                ping_at = None
                next_ping = time.perf_counter() + rng.uniform(2, 6)
            elif kind == "state":
                version = message["version"]
                view = message["view"]
                if sent_at is not None and version > sent_version:
                    if stats.measuring:
                        stats.move_latency.append(time.perf_counter() - sent_at)
                        stats.moves += 1
                    sent_at = None
            elif kind == "error":
                stats.errors += 1
                sent_at = None
            if view.get("over"):
                if seat == 0:
                    stats.games += 1
                return
            my_turn = view.get("phase") == "play" and view.get("turn") == view.get("seat")
            if my_turn and sent_at is None and move_due is None and sent_version != version:
                move_due = time.perf_counter() + think * rng.uniform(0.5, 1.5)


async def table_loop(base: str, http: str, stats: Stats, think: float, seed: int) -> None:
    """Keep one table in play: when its game ends, start another."""
    rng = random.Random(seed)
    while True:
        body = {
            "secret": secrets.token_hex(16),
            "name": "host",
            "variant": "egyptian",
            "seats": [{"kind": "person"}, {"kind": "person"}],
            "my_seat": None,
        }
        created = await asyncio.to_thread(post, f"{http}/api/tables", body)
        stats.held += 1
        try:
            await asyncio.gather(
                seat_client(base, created["id"], 0, stats, think, rng),
                seat_client(base, created["id"], 1, stats, think, rng),
            )
        finally:
            stats.held -= 1


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(args: argparse.Namespace, http: str) -> Stats:
    base = http.replace("http", "ws")
    stats = Stats()
    tasks = []
    ramp = args.ramp / max(args.tables, 1)
    for index in range(args.tables):
        tasks.append(asyncio.create_task(table_loop(base, http, stats, args.think, index)))
        await asyncio.sleep(ramp)
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    args.cpu_start = cpu_seconds(args.server_pid) if args.server_pid else 0.0
    start = time.perf_counter()
    low = stats.held
    while time.perf_counter() - start < args.seconds:
        await asyncio.sleep(1)
        low = min(low, stats.held)
    elapsed = time.perf_counter() - start
    stats.measuring = False
    high = stats.held
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(f"tables held:      {low} to {high} concurrent (asked {args.tables})")
    print(f"games finished:   {stats.games}")
    print(
        f"moves:            {stats.moves} in {elapsed:.1f} s = {stats.moves / elapsed:.0f} moves/s"
    )
    print(
        f"move latency:     p50 {percentile(stats.move_latency, 0.5):.1f} ms, "
        f"p95 {percentile(stats.move_latency, 0.95):.1f} ms, "
        f"p99 {percentile(stats.move_latency, 0.99):.1f} ms"
    )
    print(
        f"baseline (pong):  p50 {percentile(stats.pong_latency, 0.5):.1f} ms, "
        f"p95 {percentile(stats.pong_latency, 0.95):.1f} ms "
        f"({len(stats.pong_latency)} pings through the same server and sockets)"
    )
    if stats.move_latency:
        print(f"mean move latency {statistics.fmean(stats.move_latency) * 1000:.1f} ms")
    print(f"errors:           {stats.errors}")
    if args.server_pid:
        print(f"server CPU:       {cpu_seconds(args.server_pid) - args.cpu_start:.1f} s in the run")
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client thinks")
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds to open all tables")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--database", help="database URL (default: SQLite in a temp dir)")
    parser.add_argument("--url", help="use a running server instead of starting one")
    args = parser.parse_args()
    args.server_pid = 0
    if args.url:
        asyncio.run(run(args, args.url.rstrip("/")))
        return 0
    with tempfile.TemporaryDirectory(prefix="basra-load-") as tmp:
        port = free_port()
        database = args.database or os.path.join(tmp, "load.db")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "basra",
                "serve",
                "--port",
                str(port),
                "--database",
                database,
                "--bot-delay",
                "0",
                "--round-pause",
                "0",
                "--log-level",
                "error",
            ],
            stdout=subprocess.DEVNULL,
        )
        http = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + 30
            while True:
                try:
                    urllib.request.urlopen(f"{http}/healthz", timeout=1).close()
                    break
                except OSError:
                    if time.time() > deadline:
                        raise RuntimeError("the server did not start") from None
                    time.sleep(0.2)
            print(f"server: {http} (pid {server.pid}, database {database})")
            args.server_pid = server.pid
            asyncio.run(run(args, http))
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
