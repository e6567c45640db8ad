"""Load: many tables of people playing over real WebSockets, with or without an adversary.

    python benchmarks/load.py [--tables 500] [--seconds 60] [--think 1.0] [--adversary | --proxy]

Starts ``basra serve`` as its own process (a SQLite file in a temporary
directory, the server's own quotas), then plays ``--tables`` tables of people
from client processes: half are two people, half a person against a medium
bot. Each person plays a greedy move (the legal move that takes the most
cards) after thinking ``--think`` seconds (with jitter); a finished game is
replaced by a new table. Every person connects from a loopback address of
their own (127.1.x.y), as people on the internet do, so per-address quotas
apply to them as they would.

It measures people's move acknowledgements (a move sent until its snapshot
comes back), their bots' replies (the person's move acknowledged until the
bot's move arrives: at least the bot delay), a ping/pong baseline through the
same sockets, and errors sent to well-behaved clients.

``--adversary`` runs it twice on fresh servers, without and then with an
adversary (its own process, from addresses 127.66.0.x) that floods at once:

- table creation, as fast as it can, from one identity and one address;
- all-bot ``expert`` tables, 60 asked for, each watched so it never ends;
- hints: 20 people at their own tables asking for a hint every 50 ms;
- 1,000 idle sockets (half never say hello, half watch and never read);
- malformed messages: binary frames, deep nesting, oversized, bad JSON and
  bad types, as fast as the server will take them;

and prints both runs side by side. The goal (issue 12): with the adversary,
people's acknowledgements p95 at most 50 ms, their bots' replies p95 within
the bot delay plus 1 s, and no error for well-behaved clients.

``--quick-play`` measures quick play instead (load_quickplay.py): ``--people``
(1,000) join the pool across two server processes on PostgreSQL and Redis
(started here unless ``--database`` and ``--redis`` name them), and it prints
how many were seated and the time from joining to the table, against the goal
(issue 15): all seated, p95 at most 1 s beyond the pairing window, and the CPU
the servers (and PostgreSQL) spent per person joined.

``--tournament`` measures a tournament instead (load_tournament.py): an arena of
``--entrants`` (200) people across two server processes on PostgreSQL and Redis,
next to the same people at plain tables in the same run: the time from a game's end
to the next pairing (goal, issue 22: p95 at most 2 s), the standings frame's delay,
and CPU per game.

``--baseline-src DIR`` runs it first with the server(s) from another checkout
(``DIR`` is its ``src/``: a baseline measured in the same run, on the same
machine), then from this one, and prints both: the server's CPU seconds per
1,000 moves stored (people's and bots'; its own process, and with its bot
workers), and for quick play the CPU per person joined. ``--server-src DIR``
runs only the other checkout's server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from http.client import HTTPConnection
from typing import Any

import load_quickplay
import load_tournament
import websockets
from load_quickplay import cpu_seconds, tree_cpu_seconds

GREEDY_PING = (2.0, 6.0)
"""Seconds between a client's pings (uniform)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def person_address(index: int) -> str:
    """The loopback address of well-behaved person number ``index``."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


def request(
    port: int, source: str, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """An HTTP request from ``source`` (blocking: run it in a thread)."""
    conn = HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        data = response.read()
        if response.status >= 500 and not data.startswith(b"{"):
            # Not the app's answer (a proxy's: no process took it): say which.
            raise RuntimeError(f"HTTP {response.status} {data[:60]!r}")
        return response.status, json.loads(data or b"null")
    finally:
        conn.close()


async def call(port: int, source: str, method: str, path: str, *rest: Any) -> tuple[int, Any]:
    return await asyncio.to_thread(request, port, source, method, path, *rest)


def greedy(legal: list[str]) -> str:
    """The legal move that takes the most cards (the first of equals)."""
    return max(legal, key=lambda m: m.count(",") + 1 if "x" in m else 0)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def server_moves(port: int) -> int:
    """Every move the server stored so far (people's, bots' and stand-ins'), from /healthz."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
        return int(json.loads(response.read())["moves"])


def server_env(args: argparse.Namespace) -> dict[str, str] | None:
    """The server's environment: with ``--server-src``, Python finds basra there first."""
    if not args.server_src:
        return None
    return {**os.environ, "PYTHONPATH": os.path.abspath(args.server_src)}


# ---------------------------------------------------------------------- people


class People:
    """What one client process of well-behaved people measured."""

    def __init__(self, window: tuple[float, float]) -> None:
        self.window = window
        self.acks: list[float] = []
        self.bots: list[float] = []
        self.pongs: list[float] = []
        self.errors: list[str] = []
        self.games = 0
        self.held = 0
        self.low = 1 << 30
        """The fewest tables held at once in the window (sampled every second)."""
        self.high = 0

    def measuring(self) -> bool:
        return self.window[0] <= time.time() < self.window[1]

    def result(self) -> dict[str, Any]:
        return {
            "acks": self.acks,
            "bots": self.bots,
            "pongs": self.pongs,
            "errors": self.errors,
            "games": self.games,
            "low": self.low,
            "high": self.high,
        }


async def seat_client(
    port: int,
    source: str,
    token: str,
    table: str,
    join: int | None,
    bot_seat: int | None,
    people: People,
    think: float,
    rng: random.Random,
) -> None:
    """One person: hello (and join), then greedy moves until the game ends.

    It never sleeps between reads: a move (after thinking) and the next ping are
    deadlines, so every frame is read as soon as it arrives.
    """
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/{table}", max_size=2**20, local_addr=(source, 0)
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "name": "person"}))
        if join is not None:
            await ws.send(json.dumps({"type": "join", "seat": join}))
        sent_at: float | None = None
        acked_at: float | None = None
        sent_version = -1
        move_due: float | None = None
        ping_at: float | None = None
        next_ping = time.perf_counter() + rng.uniform(*GREEDY_PING)
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
            now = time.perf_counter()
            if kind == "pong" and ping_at is not None:
                if people.measuring():
                    people.pongs.append(now - ping_at)
                ping_at = None
                next_ping = now + rng.uniform(*GREEDY_PING)
            elif kind == "state":
                version = message["version"]
                view = message["view"]
                event = message.get("event") or {}
                if sent_at is not None and version > sent_version:
                    if people.measuring():
                        people.acks.append(now - sent_at)
                    sent_at = None
                    bot_next = bot_seat is not None and view.get("turn") == bot_seat
                    acked_at = now if bot_next and view.get("phase") == "play" else None
                elif acked_at is not None and event.get("kind") == "play":
                    if event.get("seat") == bot_seat and people.measuring():
                        people.bots.append(now - acked_at)
                    acked_at = None
            elif kind == "error":
                people.errors.append(message.get("code", "?"))
                sent_at = None
            if view.get("over"):
                return
            my_turn = view.get("phase") == "play" and view.get("turn") == view.get("seat")
            if my_turn and sent_at is None and move_due is None and sent_version != version:
                move_due = time.perf_counter() + think * rng.uniform(0.5, 1.5)


async def table_loop(port: int, index: int, people: People, think: float) -> None:
    """Keep one table of people in play: when its game ends, start another."""
    rng = random.Random(index)
    source = person_address(index)
    pair = index % 2 == 0
    while True:
        try:
            host = (await call(port, source, "POST", "/api/identity", {}))[1]["token"]
            seats = [{"kind": "person"}, {"kind": "person" if pair else "bot", "level": "medium"}]
            if pair:
                seats[1] = {"kind": "person"}
            status, body = await call(
                port, source, "POST", "/api/tables", {"name": "host", "seats": seats}, host
            )
            if status != 201:
                people.errors.append(f"create {status} {body.get('error')}")
                await asyncio.sleep(1)
                continue
            table = body["id"]
            clients = [
                seat_client(
                    port, source, host, table, None, None if pair else 1, people, think, rng
                )
            ]
            if pair:
                guest = (await call(port, source, "POST", "/api/identity", {}))[1]["token"]
                clients.append(seat_client(port, source, guest, table, 1, None, people, think, rng))
            people.held += 1
            try:
                await asyncio.gather(*clients)
                if people.measuring():
                    people.games += 1
            finally:
                people.held -= 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any failure is an error a person met
            people.errors.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(1)


def people_process(
    port: int, indexes: list[int], think: float, window: tuple[float, float], ramp: float, out: Any
) -> None:
    """A client process playing the tables of ``indexes`` until the window closes."""

    async def run() -> dict[str, Any]:
        people = People(window)
        tasks = []
        step = ramp / max(len(indexes), 1)
        for index in indexes:
            tasks.append(asyncio.create_task(table_loop(port, index, people, think)))
            await asyncio.sleep(step)
        await asyncio.sleep(max(0.0, window[0] - time.time()))
        while time.time() < window[1]:  # how many tables are held, through the window
            people.low = min(people.low, people.held)
            people.high = max(people.high, people.held)
            await asyncio.sleep(min(1.0, max(0.0, window[1] - time.time())))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return people.result()

    out.put(("people", asyncio.run(run())))


# ---------------------------------------------------------------------- adversary


class Adversary:
    """What the adversary did and what the server said to it."""

    def __init__(self, addresses: int) -> None:
        self.addresses = [f"127.66.{i // 250}.{i % 250 + 1}" for i in range(addresses)]
        self.counts: dict[str, int] = {}
        self.idle_now = 0
        self.idle_peak = 0
        self.tables: list[str] = []

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def address(self, i: int) -> str:
        return self.addresses[i % len(self.addresses)]


async def identity(port: int, adversary: Adversary, source: str) -> str | None:
    status, body = await call(port, source, "POST", "/api/identity", {})
    adversary.count(f"identities {status}")
    return str(body["token"]) if status == 201 else None


async def flood_tables(port: int, adversary: Adversary) -> None:
    """Create tables as fast as the server answers, from one identity and one address."""
    source = adversary.address(0)
    token = await identity(port, adversary, source)
    form = {"name": "flood", "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
    while True:
        status, _ = await call(port, source, "POST", "/api/tables", form, token)
        adversary.count(f"tables {status}")


async def watch(port: int, source: str, table: str, adversary: Adversary, what: str) -> None:
    """Watch a table forever, reading every frame (so that it never ends as abandoned)."""
    while True:
        with contextlib.suppress(OSError, websockets.WebSocketException):
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{table}", local_addr=(source, 0), max_size=2**20
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "name": "w"}))
                adversary.count(what)
                async for _ in ws:
                    pass
        await asyncio.sleep(1)


async def bot_tables(port: int, adversary: Adversary, count: int) -> None:
    """Ask for ``count`` all-bot expert tables, from many identities, and watch each."""
    watchers = []
    for i in range(count):
        source = adversary.address(i + 1)
        token = await identity(port, adversary, source)
        if token is None:
            continue
        form = {
            "name": "bots",
            "seats": [{"kind": "bot", "level": "expert"}] * 2,
            "my_seat": None,
        }
        status, body = await call(port, source, "POST", "/api/tables", form, token)
        adversary.count(f"bot tables {status}")
        if status == 201:
            adversary.tables.append(body["id"])
            watchers.append(
                asyncio.create_task(watch(port, source, body["id"], adversary, "bot watch"))
            )
    await asyncio.gather(*watchers)


async def flood_hints(port: int, adversary: Adversary, i: int) -> None:
    """A person at their own table asking for a hint every 50 ms, never moving."""
    source = adversary.address(100 + i)
    token = await identity(port, adversary, source)
    form = {"name": "hint", "hints": True, "seats": [{"kind": "person"}, {"kind": "bot"}]}
    status, body = await call(port, source, "POST", "/api/tables", form, token)
    if status != 201:
        adversary.count(f"hint tables {status}")
        return
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/{body['id']}", local_addr=(source, 0), max_size=2**20
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "name": "hint"}))
        version = 0

        async def read() -> None:
            nonlocal version
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "state":
                    version = message["version"]
                elif message["type"] == "hint":
                    adversary.count("hints answered")
                elif message["type"] == "error":
                    adversary.count(f"hint refused: {message['code']}")

        reader = asyncio.create_task(read())
        try:
            while not reader.done():
                await ws.send(json.dumps({"type": "hint", "version": version}))
                adversary.count("hints asked")
                await asyncio.sleep(0.05)
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def idle_socket(port: int, adversary: Adversary, i: int) -> None:
    """Hold a socket open doing nothing (half never say hello); open it again when closed."""
    source = adversary.address(200 + i)
    while True:
        try:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{adversary.tables[0] if adversary.tables else 'x'}",
                local_addr=(source, 0),
                max_size=2**20,
                max_queue=1,
            ) as ws:
                adversary.idle_now += 1
                adversary.idle_peak = max(adversary.idle_peak, adversary.idle_now)
                try:
                    if i % 2:
                        await ws.send(json.dumps({"type": "hello", "name": "idle"}))
                    await ws.wait_closed()  # never reads: the server's frames pile up
                    adversary.count(f"idle closed {ws.close_code}")
                finally:
                    adversary.idle_now -= 1
        except (OSError, websockets.WebSocketException):
            adversary.count("idle refused")
        await asyncio.sleep(2)


MALFORMED: list[str | bytes] = [
    b"\x00\x01binary",
    "[" * 2000 + "]" * 2000,
    '{"type": "move", "move": ' + "[" * 20 + "]" * 20 + "}",
    "{" * 5000,
    "not json",
    '{"type": "move", "move": 7, "version": "x"}',
    '{"type": "join", "seat": 1e400}',
    '{"type": "fly"}',
    '{"type": "hello", "token": 1}',
    '{"type": "rename", "name": "\\u0000"}',
]


async def malformed(port: int, adversary: Adversary, i: int) -> None:
    """Send malformed messages as fast as the server takes them; come back when closed."""
    source = adversary.address(300 + i)
    rng = random.Random(i)
    while True:
        table = rng.choice(adversary.tables) if adversary.tables else "x"
        with contextlib.suppress(OSError, websockets.WebSocketException):
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{table}", local_addr=(source, 0), max_size=2**20
            ) as ws:
                if i % 2:  # some before hello, some after
                    await ws.send(json.dumps({"type": "hello", "name": "bad"}))

                async def read() -> None:
                    async for text in ws:
                        if '"error"' in str(text):
                            adversary.count("malformed answered")

                reader = asyncio.create_task(read())
                try:
                    while not reader.done():
                        await ws.send(rng.choice(MALFORMED))
                        adversary.count("malformed sent")
                        await asyncio.sleep(0.01)
                finally:
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)
        await asyncio.sleep(0.5)


def adversary_process(port: int, args: argparse.Namespace, until: float, out: Any) -> None:
    """The adversary's floods until ``until`` (below the clients' priority with ``--nice``)."""
    if args.adversary_nice:
        os.nice(args.adversary_nice)

    async def run() -> dict[str, Any]:
        adversary = Adversary(args.adversary_addresses)
        scale = args.adversary_scale

        def scaled(n: int) -> int:
            return max(1, round(n * scale))

        tasks = [
            asyncio.create_task(flood_tables(port, adversary)),
            asyncio.create_task(bot_tables(port, adversary, scaled(60))),
        ]
        tasks += [asyncio.create_task(flood_hints(port, adversary, i)) for i in range(scaled(20))]
        await asyncio.sleep(3)  # let the bot tables exist, to watch and to aim at
        tasks += [asyncio.create_task(idle_socket(port, adversary, i)) for i in range(scaled(1000))]
        tasks += [asyncio.create_task(malformed(port, adversary, i)) for i in range(scaled(8))]
        await asyncio.sleep(max(0.0, until - time.time()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        counts = dict(adversary.counts)
        counts["idle sockets held (peak)"] = adversary.idle_peak
        return counts

    out.put(("adversary", asyncio.run(run())))


# ---------------------------------------------------------------------- one run


@contextlib.contextmanager
def caddy_in_front(ports: list[int], tmp: str) -> Iterator[tuple[int, int]]:
    """The shipped deploy/Caddyfile in front of the servers on ``ports``, in plain HTTP (TLS
    would cost the same with or without the hop it measures); yields its port and pid."""
    proxy = free_port()
    env = {
        **os.environ,
        "BASRA_SITE": f"http://127.0.0.1:{proxy}",
        "BASRA_UPSTREAMS": " ".join(f"127.0.0.1:{port}" for port in ports),
        "BASRA_CADDY_ADMIN": f"localhost:{free_port()}",
        "XDG_DATA_HOME": os.path.join(tmp, "caddy-data"),
        "XDG_CONFIG_HOME": os.path.join(tmp, "caddy-config"),
    }
    caddyfile = os.path.join(os.path.dirname(__file__), "..", "deploy", "Caddyfile")
    command = ["caddy", "run", "--config", caddyfile, "--adapter", "caddyfile"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{proxy}/readyz", timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("caddy did not start") from None
                time.sleep(0.2)
        yield proxy, process.pid
    finally:
        process.terminate()
        process.wait(10)


def run_once(args: argparse.Namespace, with_adversary: bool, proxy: bool = False) -> dict[str, Any]:
    """Start a server (behind Caddy with ``proxy``), play, measure; returns the numbers."""
    with tempfile.TemporaryDirectory(prefix="basra-load-") as tmp, contextlib.ExitStack() as stack:
        port = free_port()
        database = args.database or os.path.join(tmp, "load.db")
        command = [
            sys.executable, "-m", "basra", "serve", "--port", str(port), "--database", database,
            "--bot-delay", str(args.bot_delay), "--round-pause", "0", "--log-level", "error",
        ]  # fmt: skip
        if args.bot_processes is not None:
            command += ["--bot-processes", str(args.bot_processes)]
        pin = (lambda: os.sched_setaffinity(0, {0})) if args.pin else None
        server = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, preexec_fn=pin, env=server_env(args)
        )
        try:
            deadline = time.time() + 30
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                    break
                except OSError:
                    if time.time() > deadline:
                        raise RuntimeError("the server did not start") from None
                    time.sleep(0.2)
            # People reach the server through the proxy, which it trusts (127.0.0.1, the
            # default) to name their own addresses: quotas per address stay theirs.
            entry, caddy = (
                stack.enter_context(caddy_in_front([port], tmp)) if proxy else (port, None)
            )
            start = time.time()
            window = (
                start + args.ramp + args.warmup,
                start + args.ramp + args.warmup + args.seconds,
            )
            context = multiprocessing.get_context("spawn")
            out = context.Queue()
            processes = []
            shares = [list(range(args.tables))[p :: args.clients] for p in range(args.clients)]
            for share in shares:
                processes.append(
                    context.Process(
                        target=people_process,
                        args=(entry, share, args.think, window, args.ramp, out),
                    )
                )
            if with_adversary:
                processes.append(
                    context.Process(target=adversary_process, args=(port, args, window[1], out))
                )
            for process in processes:
                process.start()
            time.sleep(max(0.0, window[0] - time.time()))
            cpu_start = cpu_seconds(server.pid)
            caddy_start = cpu_seconds(caddy) if caddy else 0.0
            tree_start, moves_start = tree_cpu_seconds(server.pid), server_moves(port)
            time.sleep(max(0.0, window[1] - time.time()))
            cpu = cpu_seconds(server.pid) - cpu_start
            caddy_cpu = cpu_seconds(caddy) - caddy_start if caddy else 0.0
            tree = tree_cpu_seconds(server.pid) - tree_start
            moves = server_moves(port) - moves_start
            results = [out.get(timeout=600) for _ in processes]
            for process in processes:
                process.join(30)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    run: dict[str, Any] = {"acks": [], "bots": [], "pongs": [], "errors": [], "games": 0}
    run["low"], run["high"] = 0, 0
    for kind, data in results:
        if kind == "adversary":
            run["adversary"] = data
            continue
        for key in ("acks", "bots", "pongs", "errors"):
            run[key] += data[key]
        run["games"] += data["games"]
        run["low"] += data["low"] if data["low"] < 1 << 30 else 0
        run["high"] += data["high"]
    run["cpu"] = cpu
    run["proxy_cpu"] = caddy_cpu
    run["tree_cpu"] = tree
    run["moves"] = moves
    run["seconds"] = args.seconds
    return run


# ---------------------------------------------------------------------- report


def report(args: argparse.Namespace, runs: list[tuple[str, dict[str, Any]]]) -> None:
    def ms(values: list[float]) -> str:
        return " / ".join(f"{percentile(values, q) * 1000:.1f}" for q in (0.5, 0.95, 0.99))

    def sec(values: list[float]) -> str:
        return " / ".join(f"{percentile(values, q):.2f}" for q in (0.5, 0.95, 0.99))

    rows = [
        ("tables of people held", lambda r: f"{r['low']} to {r['high']}"),
        ("games finished", lambda r: str(r["games"])),
        ("people's moves/s", lambda r: f"{len(r['acks']) / r['seconds']:.0f}"),
        ("move ack p50/p95/p99 ms", lambda r: ms(r["acks"])),
        ("bot reply p50/p95/p99 s", lambda r: sec(r["bots"])),
        ("ping baseline p50/p95/p99 ms", lambda r: ms(r["pongs"])),
        ("errors to people", lambda r: str(len(r["errors"]))),
        ("server CPU s (in the window)", lambda r: f"{r['cpu']:.1f}"),
        ("moves stored (people and bots)", lambda r: str(r["moves"])),
        ("server CPU s per 1,000 moves", lambda r: f"{1000 * r['cpu'] / max(1, r['moves']):.2f}"),
        (
            "with its workers, per 1,000 moves",
            lambda r: f"{1000 * r['tree_cpu'] / max(1, r['moves']):.2f}",
        ),
    ]
    if args.proxy:
        rows.append(
            (
                "Caddy's CPU s per 1,000 moves",
                lambda r: f"{1000 * r['proxy_cpu'] / max(1, r['moves']):.2f}",
            )
        )
    names = [name for name, _ in runs]
    print()
    print(f"{'':32}" + "".join(f"{name:>28}" for name in names))
    for label, value in rows:
        print(f"{label:32}" + "".join(f"{value(run):>28}" for _, run in runs))
    for name, run in runs:
        if run.get("adversary"):
            print(f"\nthe adversary ({name}):")
            for key, count in sorted(run["adversary"].items()):
                print(f"  {key:40} {count}")
        if run["errors"]:
            shown = sorted(set(run["errors"]))[:10]
            print(f"\nerrors to people ({name}): {shown}")
    last = runs[-1][1]
    acks = percentile(last["acks"], 0.95) * 1000
    bots = percentile(last["bots"], 0.95)
    print(
        f"\ngoal ({runs[-1][0]}): "
        f"ack p95 {acks:.1f} ms <= 50: {'met' if acks <= 50 else 'MISSED'}; "
        f"bot p95 {bots:.2f} s <= {args.bot_delay + 1:.2f}: "
        f"{'met' if bots <= args.bot_delay + 1 else 'MISSED'}; "
        f"errors {len(last['errors'])}: {'met' if not last['errors'] else 'MISSED'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables of people (500)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds (60)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a person thinks (1)")
    parser.add_argument("--bot-delay", type=float, default=0.9, help="the server's bot delay")
    parser.add_argument("--bot-processes", type=int, help="the server's worker processes")
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds to open all tables")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=2, help="client processes for people")
    parser.add_argument("--adversary", action="store_true", help="also run with the adversary")
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="run it twice: straight to the server, then through deploy/Caddyfile (plain HTTP)",
    )
    parser.add_argument(
        "--adversary-addresses", type=int, default=32, help="addresses the adversary holds (32)"
    )
    parser.add_argument(
        "--adversary-scale",
        type=float,
        default=1.0,
        help="scale the adversary's all-bot tables, hint flooders, idle sockets and "
        "malformed connections (1: 60, 20, 1,000 and 8)",
    )
    parser.add_argument(
        "--adversary-nice",
        type=int,
        default=0,
        help="run the adversary at this niceness: on a small machine, so that its own CPU "
        "does not starve the measured clients (the server still gets all it sends)",
    )
    parser.add_argument(
        "--database",
        help="database URL (default: SQLite in a temp dir; --quick-play: a PostgreSQL of its own)",
    )
    parser.add_argument(
        "--quick-play",
        action="store_true",
        help="instead: people joining the quick-play pool across two server processes on "
        "PostgreSQL and Redis (load_quickplay.py)",
    )
    load_quickplay.add_arguments(parser)
    parser.add_argument(
        "--tournament",
        action="store_true",
        help="instead: an arena of --entrants people across two server processes on "
        "PostgreSQL and Redis, next to plain tables in the same run (load_tournament.py)",
    )
    load_tournament.add_arguments(parser)
    parser.add_argument(
        "--server-src",
        help="run the server(s) from another checkout's src/, the clients from this one",
    )
    parser.add_argument(
        "--baseline-src",
        help="first the same run with the server(s) from another checkout's src/ (a baseline "
        "measured in the same run), then this checkout's; both are printed",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server and its workers on CPU 0, every client (and the adversary) on the "
        "others: on a small machine, as if the clients were elsewhere",
    )
    args = parser.parse_args()
    if args.pin:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 2)) - {0} or {0})
    # Thousands of sockets: raise this process's (and the server's) limit on open files.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    if args.quick_play:
        return load_quickplay.run(args)
    if args.tournament:
        return load_tournament.run(args)
    if args.baseline_src:
        saved = args.server_src
        args.server_src = args.baseline_src
        baseline = run_once(args, False)
        args.server_src = saved
        runs = [("baseline", baseline), ("this checkout", run_once(args, False))]
        report(args, runs)
        return 0
    print(
        f"{args.tables} tables of people (half two people, half a person and a medium bot), "
        f"think {args.think} s, bot delay {args.bot_delay} s, {args.seconds:.0f} s measured, "
        f"{os.cpu_count()} CPUs"
        + (", the server pinned to CPU 0" if args.pin else "")
        + (f", the adversary at nice {args.adversary_nice}" if args.adversary_nice else "")
        + (f", the adversary scaled by {args.adversary_scale}" if args.adversary_scale != 1 else "")
    )
    if args.proxy:
        runs = [("direct", run_once(args, False)), ("through Caddy", run_once(args, False, True))]
        report(args, runs)
        return 0
    runs = [("without adversary", run_once(args, False))]
    if args.adversary:
        runs.append(("with adversary", run_once(args, True)))
    report(args, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
