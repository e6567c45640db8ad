"""A challenge's delivery time to the other person (issue 31), p50/p95, with 1,000 people
online across two server processes, next to a baseline of 10 people online, measured in
the same run.

    python benchmarks/challenges.py [--people 1000] [--baseline 10] [--challenges 200]
        [--redis URL|start]

Two server environments (:class:`~basra.server.env.Env`, each what one ``basra serve``
process runs) in this one OS process, on one SQLite database file, sharing an in-memory hub
(or, with ``--redis``, each its own connection to that Redis server: the bus as two
processes use it). ``--people`` people are online, half holding a socket on each process
(a registered connection whose outbox is the socket's: the transport's JSON writing is
not measured). Each of ``--challenges`` challenges is made on process one by a person whose
socket is there, to a person whose socket is held by process two (with fewer people online
than challenges, the same pairs again); a sample is the time from
the call that makes it to the invitee's socket being sent the ``challenge`` message (stored,
checked, published, heard by the other process and queued to the socket). Then the same
with ``--baseline`` people online. The first :data:`WARM` challenges of each are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from basra.server.app import AppConfig
from basra.server.connection import Connection, Outgoing
from basra.server.env import Env
from basra.server.identity import Caller
from basra.server.quotas import Limits, Rate
from basra.server.runtime.devservices import redis_server
from basra.server.runtime.pubsub import MemoryHub, RedisHub
from basra.server.stores import open_store
from basra.server.table.live import ServiceConfig

PLENTY = Rate(1e9, 1)
WARM = 20
"""Challenges made first and not counted."""


class Socket(Connection):
    """A connection that notes when it is sent a challenge."""

    def __init__(self, caller: Caller) -> None:
        super().__init__(caller)
        self.heard: dict[str, float] = {}

    def send(self, message: Outgoing) -> None:
        if isinstance(message, dict) and message.get("type") == "challenge":
            self.heard.setdefault(message["challenge"]["id"], time.perf_counter())
        super().send(message)
        while not self.outbox.empty():  # nobody writes it out: keep it from filling
            self.outbox.get_nowait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(people: int, challenges: int, redis: str | None) -> list[float]:
    """``challenges`` samples (ms) with ``people`` online across two environments."""
    folder = tempfile.mkdtemp(prefix="basra-challenges-")
    database = str(Path(folder) / "basra.db")
    limits = replace(
        Limits(),
        identities_per_address=PLENTY,
        challenges_per_identity=PLENTY,
        challenges_per_address=PLENTY,
        connections_per_identity=10**6,
    )
    config = AppConfig(database=database, service=replace(ServiceConfig(), limits=limits))
    hub = MemoryHub()
    hubs: list[Any] = [RedisHub(redis), RedisHub(redis)] if redis else [hub, hub.attach()]
    envs = [Env(config, store=open_store(database), hub=hubs[n], origin=f"p{n}") for n in (0, 1)]
    for env in envs:
        await env.start(resume=False)
    one = envs[0]
    try:
        everyone = [(await one.identities.create("10.0.0.1")).caller for _ in range(people)]
        sockets: dict[str, Socket] = {}
        for n, caller in enumerate(everyone):  # the even on process one, the odd on two
            socket = Socket(caller)
            envs[n % 2].connections.add(socket)
            sockets[caller.identity] = socket
        pairs = [
            (everyone[(2 * k) % people].identity, everyone[(2 * k + 1) % people].identity)
            for k in range(challenges)
        ]
        codes = {b: (await one.friends.link(b, "http://site"))["code"] for _, b in pairs}
        samples = []
        for n, (maker, invitee) in enumerate([*pairs[:WARM], *pairs]):
            start = time.perf_counter()
            made = await one.challenges.make(maker, {"to": {"code": codes[invitee]}}, "10.0.0.1")
            while made["id"] not in sockets[invitee].heard:  # over Redis: heard later
                await asyncio.sleep(0.0005)
            if n >= WARM:  # the first few warm the database's pages and the code's paths
                samples.append((sockets[invitee].heard[made["id"]] - start) * 1000)
        return samples
    finally:
        for env in envs:
            await env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--baseline", type=int, default=10)
    parser.add_argument("--challenges", type=int, default=200)
    parser.add_argument("--redis", default=None, help="a Redis URL, or 'start' for one of ours")
    args = parser.parse_args()
    if args.people % 2 or args.baseline % 2 or min(args.people, args.baseline) < 2:
        parser.error("--people and --baseline: even numbers, at least 2")
    with contextlib.ExitStack() as stack:
        redis = args.redis
        if redis == "start":
            redis = stack.enter_context(redis_server())
        hub = f"Redis at {redis}" if redis else "an in-memory hub"
        print(f"two environments in one process on SQLite and {hub}; {args.challenges} challenges")
        print(f"{'online':>8} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
        for people in (args.baseline, args.people):
            samples = asyncio.run(run(people, args.challenges, redis))
            p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
            print(f"{people:>8} {p50:>8.2f} {p95:>8.2f} {statistics.mean(samples):>8.2f}")


if __name__ == "__main__":
    main()
