"""Quick play under load: ``python benchmarks/load.py --quick-play`` (see load.py).

    python benchmarks/load.py --quick-play [--people 1000] [--join-over 10] [--pair-every 0.5]
        [--database postgresql://...] [--redis redis://...]

Starts a PostgreSQL cluster and a Redis server of its own (in temporary
directories, on free loopback ports; ``scripts/system-deps`` installs both),
unless ``--database`` and ``--redis`` name running ones, then two ``basra
serve`` processes on them. ``--people`` people, each with an identity of their
own from a loopback address of their own (127.1.x.y), join the quick-play pool
at random moments over ``--join-over`` seconds, each on one of the two servers
in turn, for a mix of tables: Egyptian for 2 (40%), Lebanese for 3 (30%),
Egyptian in two teams (20%) and Cypriot for 4 (10%), each pool a whole number
of tables (a remainder goes to the 2-player pool; an odd one out allows a bot
after 5 s). Everyone is a newcomer (the same rating), so partners are always
within the rating window: what is measured is the pool, not the window's
widening.

Each person sends ``hello`` and ``seek`` over ``WS /ws/play``, waits for
``matched``, then connects to the table on the same server and waits for its
first snapshot: *join→matched* is the seek sent until ``matched``, and
*join→table* the seek sent until the table's snapshot shows the person in the
seat ``matched`` named. Afterwards it checks that everyone was seated, each at
one seat, and each table with exactly its size of people.

The goal (issue 15): all seated, and p95 join→table at most 1 s beyond the
pairing window (the seconds between pairing passes, ``--pair-every``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.client import HTTPConnection

import websockets

from basra.server.runtime.devservices import free_port, postgres_cluster, redis_server

__all__ = ["add_arguments", "cpu_seconds", "run", "tree_cpu_seconds"]

MIX: tuple[tuple[str, int, bool, float], ...] = (
    ("egyptian", 2, False, 0.4),
    ("lebanese", 3, False, 0.3),
    ("egyptian", 4, True, 0.2),
    ("cypriot_classic", 4, False, 0.1),
)
"""The pools people join: variant, players, teams, and the share of people."""


def person_address(index: int) -> str:
    """The loopback address of person number ``index`` (as load.py's people)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ---------------------------------------------------------------------- services


@contextlib.contextmanager
def started(command: Sequence[str], port: int, source: str | None) -> Iterator[tuple[int, int]]:
    """Run ``command`` (a ``basra serve`` on ``port``; ``source``'s basra, when given) and
    yield its port and pid once ``/healthz`` answers; stop it after."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(source)} if source else None
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError("a server did not start") from None
                time.sleep(0.2)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def server(
    database: str, redis: str, options: Sequence[str], source: str | None
) -> Iterator[tuple[int, int]]:
    """``basra serve`` on the shared database and Redis with more ``options`` (from
    ``source``'s basra, when given); yields its port and pid once it answers."""
    port = free_port()
    command = [
        sys.executable, "-m", "basra", "serve", "--port", str(port), "--database", database,
        "--redis", redis, *options, "--bot-processes", "1", "--log-level", "error",
    ]  # fmt: skip
    with started(command, port, source) as running:
        yield running


def machine_busy() -> tuple[float, float]:
    """The machine's busy and total CPU seconds so far, all CPUs (Linux /proc/stat)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc; not its workers)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds so far of a process and every live process below it (its workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        total += cpu_seconds(current)
        stack.extend(children.get(current, []))
    return total


def postmaster_of(database: str) -> int | None:
    """The pid of the PostgreSQL server a URL names, when it runs on this machine."""
    port = database.rsplit(":", 1)[-1].split("/", 1)[0]
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if (
            words
            and words[0].endswith(b"/postgres")
            and b"-p" in words
            and words[words.index(b"-p") + 1].decode() == port
        ):
            return int(entry)
    return None


# ---------------------------------------------------------------------- people


@dataclass(frozen=True)
class Seeker:
    """One person: who, where, what they seek and when."""

    index: int
    port: int
    variant: str
    players: int
    teams: bool
    bot_after: float | None
    at: float
    """Seconds after the start at which they press "Play now"."""


def plan(people: int, ports: list[int], join_over: float, seed: int) -> list[Seeker]:
    """Everyone's pool and moment; every pool a whole number of tables."""
    rng = random.Random(seed)
    counts = [int(people * share) // size * size for _, size, _, share in MIX]
    counts[0] += people - sum(counts)  # the rest to the 2-player pool
    kinds: list[tuple[str, int, bool, float | None]] = []
    for (variant, size, teams, _), count in zip(MIX, counts, strict=True):
        for k in range(count):
            odd_one = size == 2 and count % 2 == 1 and k == count - 1
            kinds.append((variant, size, teams, 5.0 if odd_one else None))
    rng.shuffle(kinds)
    moments = sorted(rng.uniform(0, join_over) for _ in range(people))
    return [
        Seeker(i, ports[i % len(ports)], v, p, t, b, moments[i])
        for i, (v, p, t, b) in enumerate(kinds)
    ]


def new_identity(port: int, source: str) -> str:
    """A device token, made from ``source`` (blocking)."""
    conn = HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        conn.request("POST", "/api/identity", "{}", {"Content-Type": "application/json"})
        response = conn.getresponse()
        body = json.loads(response.read())
        if response.status != 201:
            raise RuntimeError(f"identity refused: {response.status} {body}")
        return str(body["token"])
    finally:
        conn.close()


@dataclass
class Outcome:
    """What happened to one person."""

    seeker: Seeker
    sent_at: float = 0.0
    """When the seek was sent (``time.perf_counter``)."""
    seeking: float | None = None
    """Seconds from the seek sent to the first ``seeking`` (the seek is in the pool)."""
    matched: float | None = None
    """Seconds from the seek sent to ``matched``."""
    table_at: float | None = None
    """Seconds from the seek sent to the table's snapshot with the person seated."""
    table: str | None = None
    seat: int | None = None
    errors: list[str] = field(default_factory=list)


async def seek(seeker: Seeker, token: str, start: float, timeout: float) -> Outcome:
    """Press "Play now" at the seeker's moment; follow ``matched`` to the table."""
    outcome = Outcome(seeker)
    await asyncio.sleep(max(0.0, start + seeker.at - time.perf_counter()))
    source = person_address(seeker.index)
    name = f"P{seeker.index:04d}"
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{seeker.port}/ws/play", local_addr=(source, 0), open_timeout=30
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "name": name}))
            sent = outcome.sent_at = time.perf_counter()
            await ws.send(
                json.dumps(
                    {
                        "type": "seek",
                        "variant": seeker.variant,
                        "players": seeker.players,
                        "teams": seeker.teams,
                        "bot_after": seeker.bot_after,
                    }
                )
            )
            deadline = sent + timeout
            while outcome.table is None:
                message = json.loads(
                    await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.perf_counter()))
                )
                if message["type"] == "seeking" and outcome.seeking is None:
                    outcome.seeking = time.perf_counter() - sent
                elif message["type"] == "matched":
                    outcome.matched = time.perf_counter() - sent
                    outcome.table, outcome.seat = message["table"], message["seat"]
                elif message["type"] == "error":
                    outcome.errors.append(f"seek: {message.get('code')}")
                    return outcome
        async with websockets.connect(
            f"ws://127.0.0.1:{seeker.port}/ws/{outcome.table}",
            local_addr=(source, 0),
            open_timeout=30,
            max_size=2**20,
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "name": name}))
            while True:
                message = json.loads(
                    await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.perf_counter()))
                )
                if message["type"] == "state":
                    seat = message["view"].get("seat")
                    if seat != outcome.seat:
                        outcome.errors.append(f"seated at {seat}, matched to {outcome.seat}")
                    outcome.table_at = time.perf_counter() - sent
                    return outcome
                if message["type"] == "error":
                    outcome.errors.append(f"table: {message.get('code')}")
                    return outcome
    except TimeoutError:
        outcome.errors.append("timed out" + (" at the table" if outcome.table else " seeking"))
    except Exception as exc:  # anything a person met
        outcome.errors.append(f"{type(exc).__name__}: {exc}")
    return outcome


async def identities(seekers: list[Seeker]) -> list[str]:
    """Everyone's device token (made before the measured part)."""
    limit = asyncio.Semaphore(32)

    async def identity(seeker: Seeker) -> str:
        async with limit:
            return await asyncio.to_thread(new_identity, seeker.port, person_address(seeker.index))

    return list(await asyncio.gather(*(identity(s) for s in seekers)))


async def crowd(seekers: list[Seeker], tokens: list[str], timeout: float) -> list[Outcome]:
    """Let them all press "Play now", each at their moment."""
    start = time.perf_counter() + 1.0
    return list(
        await asyncio.gather(
            *(seek(s, t, start, timeout) for s, t in zip(seekers, tokens, strict=True))
        )
    )


# ---------------------------------------------------------------------- the run


def check(outcomes: list[Outcome]) -> list[str]:
    """What is wrong with the seating: seats taken twice, tables short or overfull."""
    problems: list[str] = []
    tables: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        if outcome.table is not None:
            tables.setdefault(outcome.table, []).append(outcome)
    for table, seated in tables.items():
        seats = [o.seat for o in seated]
        if len(set(seats)) != len(seats):
            problems.append(f"table {table}: a seat given twice {seats}")
        kinds = {(o.seeker.variant, o.seeker.players, o.seeker.teams) for o in seated}
        if len(kinds) != 1:
            problems.append(f"table {table}: people of different pools {sorted(kinds)}")
        size = seated[0].seeker.players
        bots_allowed = all(o.seeker.bot_after is not None for o in seated)
        if len(seated) > size or (len(seated) < size and not bots_allowed):
            problems.append(f"table {table}: {len(seated)} people for {size} seats")
    return problems


def run(args: argparse.Namespace) -> int:
    """The quick-play run (and first a baseline's, with ``--baseline-src``); prints the
    numbers and whether the goal is met."""
    # Stopped (timeout, Ctrl-C): unwind, so the servers, PostgreSQL and Redis stop too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    worst = 0
    if args.baseline_src:
        print(f"\n== baseline: the server from {args.baseline_src}")
        worst = max(worst, run_once(args, args.baseline_src))
        print("\n== this checkout")
    return max(worst, run_once(args, args.server_src))


def run_once(args: argparse.Namespace, source: str | None) -> int:
    """One quick-play run on fresh servers (from ``source``'s basra, when given)."""
    with contextlib.ExitStack() as stack:
        database = args.database or stack.enter_context(postgres_cluster(max_connections=200))
        redis = args.redis or stack.enter_context(redis_server())
        pairing = ("--pair-every", str(args.pair_every))
        first = stack.enter_context(server(database, redis, pairing, source))  # migrates
        second = stack.enter_context(server(database, redis, pairing, source))
        postmaster = postmaster_of(database)
        ports = [first[0], second[0]]
        seekers = plan(args.people, ports, args.join_over, args.seed)
        print(
            f"quick play: {args.people} people join over {args.join_over:g} s, across two "
            f"server processes on {'PostgreSQL' if 'postgres' in database else database} and "
            f"Redis; pairing window (--pair-every) {args.pair_every:g} s; "
            f"{os.cpu_count()} CPUs"
        )
        for variant, size, teams, _ in MIX:
            count = sum(
                1 for s in seekers if (s.variant, s.players, s.teams) == (variant, size, teams)
            )
            print(f"  {variant} {'2 teams of 2' if teams else f'{size} players'}: {count} people")
        tokens = asyncio.run(identities(seekers))
        cpu = [tree_cpu_seconds(first[1]), tree_cpu_seconds(second[1])]
        database_cpu = tree_cpu_seconds(postmaster) if postmaster else 0.0
        busy, total = machine_busy()
        mine = resource.getrusage(resource.RUSAGE_SELF)
        began = time.perf_counter()
        outcomes = asyncio.run(crowd(seekers, tokens, args.timeout))
        spent = time.perf_counter() - began
        cpu = [tree_cpu_seconds(first[1]) - cpu[0], tree_cpu_seconds(second[1]) - cpu[1]]
        database_cpu = tree_cpu_seconds(postmaster) - database_cpu if postmaster else -1.0
        busy_now, total_now = machine_busy()
        cpu.append((busy_now - busy) / max(1e-9, total_now - total))
        now = resource.getrusage(resource.RUSAGE_SELF)
        cpu.append(now.ru_utime + now.ru_stime - mine.ru_utime - mine.ru_stime)
        cpu.append(database_cpu)
    return report(args, outcomes, spent, cpu)


def report(
    args: argparse.Namespace, outcomes: list[Outcome], spent: float, cpu: list[float]
) -> int:
    pooled = [o.seeking for o in outcomes if o.seeking is not None]
    # From the moment the last of a table's people joined (the table could be made) to
    # the table: the pool's own delay, without the wait for partners to arrive.
    last_joined: dict[str, float] = {}
    for o in outcomes:
        if o.table is not None:
            last_joined[o.table] = max(last_joined.get(o.table, 0.0), o.sent_at)
    ready = [
        o.sent_at + o.table_at - last_joined[o.table]
        for o in outcomes
        if o.table is not None and o.table_at is not None and not o.errors
    ]
    matched = [o.matched for o in outcomes if o.matched is not None]
    at_table = [o.table_at for o in outcomes if o.table_at is not None and not o.errors]
    seated = len(at_table)
    tables = {o.table for o in outcomes if o.table is not None}
    errors = [e for o in outcomes for e in o.errors]
    problems = check(outcomes)
    by_server = [
        sum(1 for o in outcomes if o.seeker.port == port and o.table_at is not None)
        for port in sorted({o.seeker.port for o in outcomes})
    ]

    def line(values: list[float]) -> str:
        qs = (0.5, 0.95, 0.99)
        return " / ".join(f"{percentile(values, q):.3f}" for q in qs) + (
            f" / {max(values):.3f}" if values else ""
        )

    print()
    print(f"{'people seated':36}{seated} of {len(outcomes)} ({by_server[0]} + {by_server[1]})")
    print(f"{'tables made':36}{len(tables)}")
    print(f"{'join→in the pool p50/p95/p99/max s':36}{line(pooled)}")
    print(f"{'join→matched p50/p95/p99/max s':36}{line(matched)}")
    print(f"{'join→table p50/p95/p99/max s':36}{line(at_table)}")
    print(f"{'last of a table joined→table, s':36}{line(ready)}")
    print(f"{'servers CPU s (both, with workers)':36}{cpu[0]:.1f} + {cpu[1]:.1f} in {spent:.1f} s")
    per_person = 1000 * (cpu[0] + cpu[1]) / max(1, seated)
    print(f"{'servers CPU per person joined':36}{per_person:.1f} ms")
    if cpu[4] >= 0:
        with_database = 1000 * (cpu[0] + cpu[1] + cpu[4]) / max(1, seated)
        print(f"{'PostgreSQL CPU s':36}{cpu[4]:.1f}")
        print(f"{'servers + PostgreSQL per person':36}{with_database:.1f} ms")
    print(f"{'people (this process) CPU s':36}{cpu[3]:.1f}")
    print(f"{'machine CPU busy':36}{cpu[2]:.0%} (servers, PostgreSQL, Redis and the people)")
    if errors:
        counts: dict[str, int] = {}
        for error in errors:
            counts[error] = counts.get(error, 0) + 1
        print(f"{'errors':36}{sorted(counts.items(), key=lambda kv: -kv[1])[:10]}")
    for problem in problems[:10]:
        print(f"seating problem: {problem}")
    p95 = percentile(at_table, 0.95)
    goal = args.pair_every + 1.0
    all_seated = seated == len(outcomes) and not problems
    print(
        f"\ngoal: all seated: {'met' if all_seated else 'MISSED'}; "
        f"p95 join→table {p95:.3f} s <= pairing window {args.pair_every:g} s + 1 s = "
        f"{goal:g} s: {'met' if p95 <= goal else 'MISSED'}"
    )
    return 0 if all_seated else 1  # a person left unseated is a fault, not a slow run


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """load.py's options for ``--quick-play``."""
    group = parser.add_argument_group("quick play (--quick-play)")
    group.add_argument("--people", type=int, default=1000, help="people joining the pool (1000)")
    group.add_argument(
        "--join-over", type=float, default=10.0, help="seconds over which they join (10)"
    )
    group.add_argument(
        "--pair-every", type=float, default=0.5, help="the servers' pairing window (0.5 s)"
    )
    group.add_argument("--redis", help="Redis URL (default: a Redis server of its own)")
    group.add_argument("--timeout", type=float, default=120.0, help="seconds a person waits (120)")
    group.add_argument("--seed", type=int, default=1, help="who seeks what, and when (1)")
