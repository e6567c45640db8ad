"""From a move at a turn-based table to the Web Push request for the next person, with
many turn-based games in play.

    python benchmarks/turn_push.py [--games 1000] [--moves 200] [--rate 20]

A push service of the benchmark's own runs in a child process (``benchmarks/push.py``'s:
aiohttp on localhost, answering 201 and noting when each request came). In this process,
one server environment (``Env``: a SQLite file, the job queue of one process, as ``basra
serve`` without Redis, push on with a VAPID key) holds ``--games`` turn-based tables (two
days a move), each between two people who are seated and connected, each person with one
push subscription (half of them Arabic pages) opted into ``your_turn``. Every table is
dealt and waits for its first move (its first person's push delivered and not counted).

Then ``--moves`` moves, one every ``1/--rate`` seconds, each at another table: the time
from the move sent to the table (``TableMessages.handle``) to the push service receiving
the request for the person whose turn it becomes: the move checked and stored, the table
master's turn hook, the notifications list's item, its wording in the subscriber's
language, the send stored and queued, and the job's encryption (RFC 8291) and VAPID
signature (pywebpush). p50 and p95.

The baseline, in the same invocation: the same with ``--baseline`` games (10 by default),
so the cost of many games in play is read next to that of a few.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from push import arrivals, b64, percentile, push_service  # benchmarks/push.py

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.push import PushConfig, make_keys
from basra.server.table.forms import TableForm, check_table_form
from basra.server.table.live import Client, ServiceConfig

PEOPLE_SEATS = [{"kind": "person"}, {"kind": "person"}]


async def run(games: int, moves: int, rate: float, url: str) -> dict[str, Any]:
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    folder = tempfile.mkdtemp(prefix="basra-turn-push-")
    config = PushConfig(
        vapid_private_key=make_keys()[0],
        subject="mailto:bench@example.org",
        concurrency=16,
        insecure_endpoints=True,
    )
    env = Env(
        AppConfig(database=str(Path(folder) / "turns.db"), service=ServiceConfig(), push=config)
    )
    await env.start(resume=False)
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = b64(key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    auth = b64(os.urandom(16))
    form = TableForm.model_validate(
        {"name": "A", "seats": PEOPLE_SEATS, "my_seat": 0, "clock": {"days": 2}}
    )
    spec = check_table_form(form)[1]
    tables: list[tuple[Any, list[Client], list[str]]] = []
    for n in range(games):
        callers = []
        names = []
        for seat in range(2):
            caller = (await env.identities.create(f"127.4.{n // 250}.{n % 250}")).caller
            name = f"g{n}s{seat}"
            await env.push.subscribe(
                caller.identity,
                {
                    "endpoint": f"{url}/p/{name}",
                    "keys": {"p256dh": p256dh, "auth": auth},
                    "lang": "ar" if seat else "en",
                },
            )
            await env.push.choose(caller.identity, {"kinds": ["your_turn"]})
            callers.append(caller)
            names.append(name)
        row = await env.lifecycle.create(callers[0], f"127.4.{n // 250}.{n % 250}", "A", spec)
        clients = [Client(row.id, callers[0]), Client(row.id, callers[1], "B")]
        for client in clients:
            await env.master.connect(client)
        await env.messages.handle(clients[1], {"type": "join", "seat": 1})
        tables.append((env.master.live[row.id], clients, names))

    async def settle(total: int, seconds: float = 300) -> None:
        deadline = time.monotonic() + seconds
        while env.push.delivered + env.push.failed < total:
            assert time.monotonic() < deadline, (env.push.delivered, env.push.failed, total)
            await asyncio.sleep(0.01)

    for live, _, _ in tables:  # every table dealt, its first person told
        while live.state.phase != "play":
            await asyncio.sleep(0.01)
    await settle(games)
    await asyncio.to_thread(arrivals, url)  # the deals' pushes, not counted
    delays: list[float] = []
    pending: dict[str, float] = {}  # a person's push sent for, not yet seen arrive
    came: dict[str, float] = {}  # the last request for each person (the service tells once)

    async def arrived(name: str) -> None:
        at = pending.pop(name)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            came.update(await asyncio.to_thread(arrivals, url))
            if came.get(name, 0) >= at:
                delays.append(came[name] - at)
                return
            await asyncio.sleep(0.005)

    for index in range(moves):
        live, clients, names = tables[index % games]
        for name in names:  # this table's last push has come (its person is pushed once)
            if name in pending:
                await arrived(name)
        seat = live.state.turn
        text = live.state.legal_moves()[0].text()
        at, version = time.time(), live.version
        await env.messages.handle(clients[seat], {"type": "move", "move": text, "version": version})
        while live.version == version:  # stored (the table's queue takes it in turn)
            await asyncio.sleep(0.001)
        if live.state.turn is not None and not live.state.is_over:
            pending[names[live.state.turn]] = at
        await asyncio.sleep(1 / rate)
    for name in list(pending):
        await arrived(name)
    await env.close()
    return {
        "games": games,
        "moves": moves,
        "received": len(delays),
        "p50_ms": 1000 * statistics.median(delays),
        "p95_ms": 1000 * percentile(delays, 0.95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--baseline", type=int, default=10, help="games in the baseline run")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second")
    args = parser.parse_args()
    with push_service() as url:
        for games in (args.baseline, args.games):
            moves = min(args.moves, games * 20)
            result = asyncio.run(run(games, moves, args.rate, url))
            print(
                f"{result['games']:>5} turn-based games in play: a move to the next person's "
                f"push request p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms "
                f"({result['received']} of {result['moves']} moves at {args.rate:g}/s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
