"""A challenge's delivery time to the other person (issue 31), p50/p95, with 1,000 people
online across two real ``basra serve`` processes, next to a baseline of 10 people online
measured in the same run.

    python benchmarks/challenges_processes.py [--people 1000] [--baseline 10]
        [--challenges 200] [--database URL] [--redis URL]

Starts a PostgreSQL cluster and a Redis server of its own (unless ``--database`` and
``--redis`` name running ones) and two ``basra serve --config`` OS processes on them, the
configuration file raising the quotas per address (every person here is on 127.0.0.1)
and per person (a maker here makes many challenges). Then, for ``--baseline`` and then
``--people`` people online: each gets an identity over HTTP (``POST /api/identity``) from
the process it will be on, half on each, and holds a real WebSocket ``/ws/friends`` to it
(``hello`` with its token, then a ``ping`` answered ``pong``: the server has it registered,
as the home page's ``holdPresence`` does). Each of ``--challenges`` challenges (after
:data:`WARM` not counted) is made over HTTP (``POST /api/challenges`` with the invitee's
follow-me code) on process one by a person connected there, to a person connected to
process two (with fewer people than challenges, the same pairs again); a sample is the time
from just before the request to the invitee's socket receiving the ``challenge`` message:
the HTTP request, the checks, the challenge and its notification stored in PostgreSQL, the
message published on Redis, heard by the other process and written to the socket, and
the WebSocket frame read here. Challenges are made one after another. Everything on the
client side (sockets, requests) is one asyncio loop in this process. The people of a run
leave before the next; the servers and their database stay.

Prints, per number of people online, p50, p95 and mean in ms, and the machine's load
average (1 minute) just after the run's challenges: on a shared machine the numbers mean
little without it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from load_quickplay import percentile, server
from websockets.asyncio.client import ClientConnection, connect

from basra.server.runtime.devservices import postgres_cluster, redis_server

WARM = 20
"""Challenges made first and not counted."""
AT_ONCE = 25
"""Identities made, or sockets opened, at once while people arrive."""
CONFIG = """[server]
log_level = "error"
[workers]
bot_processes = 0
[quotas]
identities_per_address = { count = 1000000, per = 60 }
connections_per_address = 1000000
connections_per_identity = 100
http_per_address = { count = 1000000, per = 60 }
challenges_per_identity = { count = 1000000, per = 60 }
challenges_per_address = { count = 1000000, per = 60 }
"""
"""Every person here is on 127.0.0.1: the address's quotas are raised, and a maker's."""


class Person:
    """One person online: their token, follow-me code and socket, and the challenges it
    was sent with the moment each arrived."""

    def __init__(self, token: str, socket: ClientConnection, arrived: asyncio.Event) -> None:
        self.token = token
        self.code = ""
        self.socket = socket
        self.heard: dict[str, float] = {}
        self.reader = asyncio.create_task(self._read(arrived))

    async def _read(self, arrived: asyncio.Event) -> None:
        with contextlib.suppress(Exception):  # the socket closed at the end
            async for raw in self.socket:
                message = json.loads(raw)
                if message.get("type") == "challenge":
                    self.heard.setdefault(message["challenge"]["id"], time.perf_counter())
                    arrived.set()

    async def leave(self) -> None:
        await self.socket.close()
        await self.reader


async def arrive(client: httpx.AsyncClient, arrived: asyncio.Event) -> Person:
    """A new identity on ``client``'s process, holding its ``/ws/friends`` socket there."""
    made = await client.post("/api/identity", json={})
    made.raise_for_status()
    token = str(made.json()["token"])
    socket = await connect(
        str(client.base_url).replace("http", "ws", 1) + "/ws/friends", proxy=None
    )
    await socket.send(json.dumps({"type": "hello", "token": token}))
    await socket.send(json.dumps({"type": "ping"}))
    while True:  # the pong: hello was taken, the person is online
        message = json.loads(await asyncio.wait_for(socket.recv(), 30))
        if message["type"] == "pong":
            break
        if message["type"] == "error":
            raise RuntimeError(f"the socket was refused: {message}")
    return Person(token, socket, arrived)


async def run(ports: tuple[int, int], people: int, challenges: int) -> tuple[list[float], float]:
    """``challenges`` samples (ms) with ``people`` online, and the load average after."""
    arrived = asyncio.Event()
    limits = httpx.Limits(max_connections=AT_ONCE)
    async with (
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{ports[0]}", limits=limits) as one,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{ports[1]}", limits=limits) as two,
    ):
        sides: tuple[list[Person], list[Person]] = ([], [])
        for first in range(0, people, AT_ONCE):  # the even on process one, the odd on two
            batch = range(first, min(people, first + AT_ONCE))
            came = await asyncio.gather(*(arrive((one, two)[n % 2], arrived) for n in batch))
            for n, person in zip(batch, came, strict=True):
                sides[n % 2].append(person)
        makers, invitees = sides
        pairs = [
            (makers[k % len(makers)], invitees[k % len(invitees)])
            for k in range(min(len(invitees), challenges + WARM))
        ]
        for _, invitee in pairs:
            link = await two.get("/api/friends/link", headers=bearer(invitee))
            link.raise_for_status()
            invitee.code = link.json()["code"]
        samples = []
        try:
            for n in range(challenges + WARM):
                maker, invitee = pairs[n % len(pairs)]
                start = time.perf_counter()
                made = await one.post(
                    "/api/challenges", json={"to": {"code": invitee.code}}, headers=bearer(maker)
                )
                made.raise_for_status()
                ident = made.json()["id"]
                deadline = start + 30
                while ident not in invitee.heard:
                    arrived.clear()
                    if time.perf_counter() > deadline:
                        raise RuntimeError(f"challenge {ident} never reached its invitee")
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(arrived.wait(), 1)
                if n >= WARM:  # the first few warm the database's pages and the code's paths
                    samples.append((invitee.heard[ident] - start) * 1000)
            load = os.getloadavg()[0]
        finally:
            await asyncio.gather(*(p.leave() for side in sides for p in side))
    return samples, load


def bearer(person: Person) -> dict[str, str]:
    return {"Authorization": f"Bearer {person.token}"}


@contextlib.contextmanager
def services(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    with contextlib.ExitStack() as stack:
        database = args.database or stack.enter_context(postgres_cluster())
        redis = args.redis or stack.enter_context(redis_server())
        yield database, redis


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000, help="people online (1000)")
    parser.add_argument("--baseline", type=int, default=10, help="people online first (10)")
    parser.add_argument("--challenges", type=int, default=200, help="challenges counted (200)")
    parser.add_argument("--database", default=None, help="a running PostgreSQL's URL")
    parser.add_argument("--redis", default=None, help="a running Redis's URL")
    args = parser.parse_args()
    if min(args.people, args.baseline) < 2 or args.challenges < 1:
        parser.error("--people and --baseline: at least 2; --challenges: at least 1")
    results = []
    with services(args) as (database, redis), tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "basra.toml"  # --config names the database and Redis too
        config.write_text(f'[database]\nurl = "{database}"\n[redis]\nurl = "{redis}"\n{CONFIG}')
        options = ("--config", str(config))
        with (
            server(database, redis, options, None) as (one, _),
            server(database, redis, options, None) as (two, _),
        ):
            for people in (args.baseline, args.people):
                samples, load = asyncio.run(run((one, two), people, args.challenges))
                results.append((people, samples, load))
    print(
        f"two basra serve processes on PostgreSQL and Redis, {os.cpu_count()} CPUs; "
        f"{args.challenges} challenges after {WARM}, maker on one, invitee on two (ms)"
    )
    print(f"{'online':>8} {'p50':>8} {'p95':>8} {'mean':>8} {'load 1m':>8}")
    for people, samples, load in results:
        p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
        mean = statistics.mean(samples)
        print(f"{people:>8} {p50:>8.1f} {p95:>8.1f} {mean:>8.1f} {load:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
