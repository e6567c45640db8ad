"""Load of a tournament (``load.py --tournament``): an arena of ``--entrants`` people
across two server processes on PostgreSQL and Redis, next to a baseline measured in the
same run on the same servers: the same people playing plain tables (two people each,
a new table when a game ends, as load.py's tables).

The arena is the server's own event (a TOML schedule given to ``basra serve
--tournaments``: a person's event holds at most 100), one-round games, a 20 s move
clock. Each person enters it from a loopback address of their own, watches the
event's socket, and plays every game it is paired to (greedy moves after ``--think``
seconds), over the table's socket of whichever process it entered through.

It prints:

- the time from a game's end (the person sees the game over) to their next pairing
  (the event socket's ``paired``): p50 and p95 (goal: p95 at most 2 s);
- the standings frame's delay: from a game's end to the first event frame whose
  standings count that game (a sample of ``--samplers`` people read every frame;
  the others skip event frames unread, as a page in the background would not);
- CPU seconds per game: both server processes (with their bot workers) and
  PostgreSQL, for the arena and for the plain tables' baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from http.client import HTTPConnection
from typing import Any

import websockets
from load_quickplay import percentile, postmaster_of, server, tree_cpu_seconds

from basra.server.runtime.devservices import postgres_cluster, redis_server

__all__ = ["add_arguments", "run"]


def person_address(index: int) -> str:
    return f"127.1.{index // 250}.{index % 250 + 1}"


def greedy(legal: list[str]) -> str:
    return max(legal, key=lambda m: m.count(",") + 1 if "x" in m else 0)


def request(
    port: int, source: str, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """An HTTP request from ``source`` (blocking: run in a thread)."""
    conn = HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


async def call(
    port: int, source: str, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    return await asyncio.to_thread(request, port, source, method, path, body, token)


@dataclass
class Measured:
    """What the people measured."""

    to_pairing: list[float] = field(default_factory=list)
    standings_delay: list[float] = field(default_factory=list)
    games: int = 0
    """Games played (at plain tables: tables; in the arena: each person's, so twice the games)."""
    errors: list[str] = field(default_factory=list)
    busy: int = 0
    """Entries answered "busy" (and tried again)."""


async def play(
    port: int, source: str, token: str, table: str, think: float, rng: random.Random
) -> None:
    """Greedy moves at one table until its game ends."""
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/{table}", max_size=2**22, local_addr=(source, 0)
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "name": "person"}))
        sent = -1
        async for text in ws:
            message = json.loads(text)
            if message["type"] != "state":
                if message["type"] == "error":
                    raise RuntimeError(message.get("code"))
                continue
            view, version = message["view"], message["version"]
            if view.get("over"):
                return
            if (
                view.get("phase") == "play"
                and view.get("turn") == view.get("seat")
                and sent != version
            ):
                sent = version
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                await ws.send(
                    json.dumps({"type": "move", "move": greedy(view["legal"]), "version": version})
                )


async def entrant(
    ports: list[int],
    index: int,
    event: str,
    until: float,
    think: float,
    sampler: bool,
    out: Measured,
) -> None:
    """One person in the arena: enter, watch, play each game paired to, until ``until``
    (through ``ports[0]``)."""
    port = ports[0]
    rng = random.Random(index)
    source = person_address(index)
    token = (await call(port, source, "POST", "/api/identity", {}))[1]["token"]
    for _ in range(30):  # "busy" (many entering at once) says: try again, as a person would
        status, body = await call(
            port, source, "POST", f"/api/tournaments/{event}/join", {"name": f"p{index}"}, token
        )
        if status == 201 or body.get("error") != "busy":
            break
        out.busy += 1
        await asyncio.sleep(random.uniform(0.2, 1.0))
    if status != 201:
        out.errors.append(f"join {status} {body}")
        return
    me = body["entrant"]
    paired: asyncio.Queue[tuple[str, float]] = asyncio.Queue()
    ended: dict[int, float] = {}  # games finished -> when the person saw the end
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/tournaments/{event}", max_size=2**24, local_addr=(source, 0)
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))

        async def read() -> None:
            async for text in ws:
                head = text[:24]
                if "paired" in head:
                    paired.put_nowait((json.loads(text)["table"], time.perf_counter()))
                elif "event" in head and sampler and ended:
                    now = time.perf_counter()
                    line = next(
                        (s for s in json.loads(text)["event"]["standings"] if s["entrant"] == me),
                        None,
                    )
                    if line is not None:
                        for games in [g for g in ended if g <= line["games"]]:
                            out.standings_delay.append(now - ended.pop(games))

        reader = asyncio.create_task(read())
        played = 0
        last_end: float | None = None
        try:
            while time.time() < until:
                try:
                    table, at = await asyncio.wait_for(paired.get(), max(0.1, until - time.time()))
                except TimeoutError:
                    break
                if last_end is not None:
                    out.to_pairing.append(max(0.0, at - last_end))
                # A table just made may not be known yet where this person connects: try
                # again (each retry is counted as an error a person met).
                for attempt in range(6):
                    try:
                        # An opponent who stopped at the end leaves its seat to the clock:
                        # nobody waits for such a game beyond a minute after the end.
                        game = play(ports[attempt % 2], source, token, table, think, rng)
                        await asyncio.wait_for(game, max(1.0, until + 60 - time.time()))
                        break
                    except TimeoutError:
                        break
                    except (RuntimeError, OSError, websockets.WebSocketException) as error:
                        out.errors.append(f"table {table}: {error} (try {attempt + 1})")
                        await asyncio.sleep(0.2)
                last_end = time.perf_counter()
                played += 1
                out.games += 1
                if sampler:
                    ended[played] = last_end
        finally:
            reader.cancel()


async def plain(port: int, index: int, until: float, think: float, out: Measured) -> None:
    """Two people at plain tables, a new one when a game ends, until ``until``."""
    rng = random.Random(index)
    source = person_address(index)
    host = (await call(port, source, "POST", "/api/identity", {}))[1]["token"]
    guest = (await call(port, source, "POST", "/api/identity", {}))[1]["token"]
    seats = [{"kind": "person"}, {"kind": "person"}]
    while time.time() < until:
        status, body = await call(
            port,
            source,
            "POST",
            "/api/tables",
            {"name": "host", "seats": seats, "rules": {"target": 1}},
            host,
        )
        if status != 201:
            out.errors.append(f"create {status}")
            await asyncio.sleep(1)
            continue
        table = body["id"]

        async def join_and_play(table: str) -> None:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{table}", local_addr=(source, 0)
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": guest, "name": "guest"}))
                await ws.send(json.dumps({"type": "join", "seat": 1}))
                await ws.recv()
            await play(port, source, guest, table, think, rng)

        try:
            await asyncio.gather(play(port, source, host, table, think, rng), join_and_play(table))
            out.games += 1
        except Exception as exc:  # a failure is an error a person met
            out.errors.append(f"{type(exc).__name__}: {exc}")


def schedule_file(
    directory: str, minutes: int, starts_in: float, entrants: int
) -> tuple[str, float]:
    """A schedule of one hourly arena whose next start is at least ``starts_in`` away."""
    start = (int(time.time() + starts_in) // 60 + 1) * 60
    minute = time.gmtime(start).tm_min
    path = os.path.join(directory, "arena.toml")
    with open(path, "w") as out:
        out.write(
            "[[tournaments]]\n"
            'name = "Load arena"\nformat = "arena"\nvariant = "egyptian"\nseats = 2\n'
            f'every = "hour"\nat = ":{minute:02d}"\nannounce = 55\nminutes = {minutes}\n'
            "clock = { move = 20, reserve = 40 }\nrated = true\nbots = false\n"
            f"rules = {{ target = 1 }}\nmax_entrants = {entrants}\n"
        )
    return path, float(start)


async def find_event(port: int, timeout: float = 60.0) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        _, body = await call(port, "127.0.0.1", "GET", "/api/tournaments")
        found = [
            e
            for e in body.get("upcoming", []) + body.get("running", [])
            if e["name"] == "Load arena"
        ]
        if found:
            return str(found[0]["id"])
        await asyncio.sleep(1)
    raise RuntimeError("the scheduled arena was not made")


def cpu_now(pids: list[int], postmaster: int | None) -> float:
    return sum(tree_cpu_seconds(p) for p in pids) + (
        tree_cpu_seconds(postmaster) if postmaster else 0.0
    )


def run(args: argparse.Namespace) -> int:
    """The baseline (plain tables), then the arena, on the same two servers."""
    # Stopped (timeout, Ctrl-C): unwind, so the servers, PostgreSQL and Redis stop too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    people = args.entrants
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory() as directory:
        database = args.database or stack.enter_context(postgres_cluster(max_connections=200))
        redis = args.redis or stack.enter_context(redis_server())
        seconds = args.arena_minutes * 60
        baseline_seconds = min(seconds, args.baseline_seconds)
        # The arena starts after the baseline: its people enter in the minute before.
        path, start = schedule_file(directory, args.arena_minutes, baseline_seconds + 60, people)
        schedule = ("--tournaments", path)
        first = stack.enter_context(server(database, redis, schedule, args.server_src))  # migrates
        second = stack.enter_context(server(database, redis, schedule, args.server_src))
        ports, pids = [first[0], second[0]], [first[1], second[1]]
        postmaster = postmaster_of(database)
        print(
            f"tournament load: an arena of {people} people ({args.arena_minutes} min, one-round "
            f"games, think {args.think} s) across two server processes on PostgreSQL and Redis; "
            f"baseline: the same people at plain tables for {baseline_seconds:.0f} s; "
            f"{os.cpu_count()} CPUs"
        )

        async def baseline() -> tuple[Measured, float, float]:
            out = Measured()
            until = time.time() + baseline_seconds
            cpu = cpu_now(pids, postmaster)
            began = time.time()
            await asyncio.gather(
                *(plain(ports[i % 2], i, until, args.think, out) for i in range(0, people, 2))
            )
            return out, cpu_now(pids, postmaster) - cpu, time.time() - began

        plain_out, plain_cpu, plain_spent = asyncio.run(baseline())

        async def arena() -> tuple[Measured, float, float]:
            out = Measured()
            event = await find_event(ports[0])
            until = start + seconds
            samplers = set(random.Random(1).sample(range(people), min(args.samplers, people)))
            cpu = cpu_now(pids, postmaster)
            began = time.time()
            await asyncio.gather(
                *(
                    entrant(
                        ports[i % 2 :] + ports[: i % 2],
                        10_000 + i,
                        event,
                        until,
                        args.think,
                        i in samplers,
                        out,
                    )
                    for i in range(people)
                )
            )
            return out, cpu_now(pids, postmaster) - cpu, time.time() - began

        arena_out, arena_cpu, arena_spent = asyncio.run(arena())
    report(plain_out, plain_cpu, plain_spent, arena_out, arena_cpu, arena_spent)
    return 0 if percentile(arena_out.to_pairing, 0.95) <= 2.0 else 1


def report(
    plain: Measured,
    plain_cpu: float,
    plain_spent: float,
    arena: Measured,
    arena_cpu: float,
    arena_spent: float,
) -> None:
    def line(label: str, values: list[float]) -> str:
        if not values:
            return f"  {label}: none measured"
        return (
            f"  {label}: p50 {percentile(values, 0.5):.3f} s, "
            f"p95 {percentile(values, 0.95):.3f} s, "
            f"max {max(values):.3f} s ({len(values)})"
        )

    print("\narena")
    print(line("game's end to next pairing (goal p95 <= 2 s)", arena.to_pairing))
    print(line("game's end to the standings frame counting it", arena.standings_delay))
    print(
        f"  games {arena.games // 2} in {arena_spent:.0f} s; CPU (servers + PostgreSQL) "
        f"{arena_cpu:.1f} s, {arena_cpu / max(1, arena.games // 2):.3f} s a game; "
        f"errors {len(arena.errors)}; entries answered busy and tried again {arena.busy}"
    )
    print("plain tables (baseline, same run)")
    print(
        f"  games {plain.games} in {plain_spent:.0f} s; CPU (servers + PostgreSQL) "
        f"{plain_cpu:.1f} s, {plain_cpu / max(1, plain.games):.3f} s a game; "
        f"errors {len(plain.errors)}"
    )
    for what in arena.errors[:5] + plain.errors[:5]:
        print("  error:", what)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """load.py's options for ``--tournament``."""
    group = parser.add_argument_group("tournament (--tournament)")
    group.add_argument("--entrants", type=int, default=200, help="people in the arena (200)")
    group.add_argument("--arena-minutes", type=int, default=5, help="the arena's length (5)")
    group.add_argument(
        "--baseline-seconds", type=float, default=120.0, help="plain tables first (120)"
    )
    group.add_argument(
        "--samplers", type=int, default=20, help="people who read every standings frame (20)"
    )
