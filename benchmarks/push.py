"""Web Push delivery by one server process: notifications per second, and the delay from
``deliver`` to the push service's request.

    python benchmarks/push.py [--people 1000] [--rate 50] [--concurrency 1 16] [--via list]

A push service of the benchmark's own runs in a child process (aiohttp on localhost: it
answers 201 and notes when each request came). In this process, one server environment
(``Env``: a SQLite file, the job queue of one process, as ``basra serve`` without Redis)
has ``--people`` people, each with one subscription (a P-256 key and auth secret, as a
browser's) and opted into ``your_turn``. Then, for each ``--concurrency`` (the ``push``
job's sends at once in one process), two runs:

- **burst**: a send stored for each person, then all queued at once; notifications per
  second from then to the last one delivered (each payload encrypted, RFC 8291, and
  signed, VAPID, by pywebpush; the push service on loopback, so the cost is the server's
  own), the CPU seconds of this process per notification, and when the last ones came
  (p50 and p95 of the time from the queuing);
- **paced**: one ``deliver`` every ``1/--rate`` seconds (a steady stream of moves):
  the delay from ``deliver`` to the push service's receiving it, p50 and p95. With
  ``--via list`` each is a ``your_turn`` item of the notifications list instead
  (``Notifications.add``, as a move at a turn-based table makes it): kept, sent to the
  person's sockets, and pushed by push's listener, worded in the subscription's language
  (half the people subscribed in Arabic).

Concurrency 1 is the baseline (one send at a time, the job queue's default for a kind);
16 is the default of ``[push] concurrency``. The machine may be shared: read the runs of
one invocation side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.push import PushConfig, make_keys
from basra.server.table.live import ServiceConfig


def serve(port: int) -> None:
    """The push service (in a child process)."""
    from aiohttp import web

    arrived: dict[str, float] = {}

    async def take(request: web.Request) -> web.Response:
        arrived[request.match_info["name"]] = time.time()
        await request.read()
        return web.Response(status=201)

    async def stats(_: web.Request) -> web.Response:
        body = dict(arrived)
        arrived.clear()
        return web.json_response(body)

    app = web.Application()
    app.router.add_post("/p/{name}", take)
    app.router.add_get("/stats", stats)
    web.run_app(app, host="127.0.0.1", port=port, print=None, handle_signals=False)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def arrivals(url: str) -> dict[str, float]:
    with urllib.request.urlopen(f"{url}/stats", timeout=30) as response:
        return dict(json.loads(response.read()))


@contextlib.contextmanager
def push_service() -> Iterator[str]:
    """The push service started in a child process, its URL once it answers; stopped after."""
    port = free_port()
    child = multiprocessing.get_context("spawn").Process(target=serve, args=(port,), daemon=True)
    child.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 20
    try:
        while True:
            try:
                arrivals(url)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        child.terminate()
        child.join(10)


async def run(
    people: int, rate: float, concurrency: int, url: str, via: str = "deliver"
) -> dict[str, Any]:
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    folder = tempfile.mkdtemp(prefix="basra-push-")
    config = PushConfig(
        vapid_private_key=make_keys()[0],
        subject="mailto:bench@example.org",
        concurrency=concurrency,
        insecure_endpoints=True,
    )
    env = Env(
        AppConfig(database=str(Path(folder) / "push.db"), service=ServiceConfig(), push=config)
    )
    await env.start(resume=False)
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = b64(key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    auth = b64(os.urandom(16))
    who: list[str] = []
    for n in range(people):
        person = (await env.identities.create(f"127.3.{n // 250}.{n % 250}")).caller.identity
        endpoint = f"{url}/p/{n}"
        await env.push.subscribe(
            person,
            {
                "endpoint": endpoint,
                "keys": {"p256dh": p256dh, "auth": auth},
                "lang": "ar" if n % 2 else "en",
            },
        )
        await env.push.choose(person, {"kinds": ["your_turn"]})
        who.append(person)

    async def settle(total: int) -> None:
        while env.push.delivered + env.push.failed < total:
            await asyncio.sleep(0.005)

    # Burst: a send stored for everyone first, then all queued at once: the workers' rate.
    ids = []
    for n, person in enumerate(who):
        payload = json.dumps(
            {"kind": "your_turn", "title": "Your turn", "body": f"Table {n}", "url": f"/t/{n}"}
        )
        ids += await env.store.push.queue(
            person, "your_turn", lambda _lang, text=payload: text, time.time()
        )
    cpu, started = time.process_time(), time.time()
    sent = {str(n): started for n in range(people)}
    for send_id in ids:
        await env.jobs.enqueue("push", str(send_id))
    await settle(people)
    elapsed, cpu = time.time() - started, time.process_time() - cpu
    came = await asyncio.to_thread(arrivals, url)
    burst = [came[k] - sent[k] for k in sent if k in came]
    # Paced: a steady stream.
    sent = {}
    for n, person in enumerate(who):
        sent[str(n)] = time.time()
        if via == "list":
            await env.notifications.add(person, "your_turn", {"table": str(n)}, f"/t/{n}")
        else:
            await env.push.deliver(person, "your_turn", "Your turn", f"Table {n}", f"/t/{n}")
        await asyncio.sleep(1 / rate)
    await settle(2 * people)
    came = await asyncio.to_thread(arrivals, url)
    paced = [came[k] - sent[k] for k in sent if k in came]
    failed = env.push.failed
    await env.close()
    return {
        "concurrency": concurrency,
        "per_second": people / elapsed,
        "cpu_ms_each": 1000 * cpu / people,
        "burst_p50_ms": 1000 * statistics.median(burst),
        "burst_p95_ms": 1000 * percentile(burst, 0.95),
        "paced_p50_ms": 1000 * statistics.median(paced),
        "paced_p95_ms": 1000 * percentile(paced, 0.95),
        "received": len(burst) + len(paced),
        "failed": failed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=50.0, help="paced deliveries a second")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16])
    parser.add_argument(
        "--via", choices=["deliver", "list"], default="deliver", help="what the paced run calls"
    )
    args = parser.parse_args()
    with push_service() as url:
        for concurrency in args.concurrency:
            result = asyncio.run(run(args.people, args.rate, concurrency, url, args.via))
            print(
                f"concurrency {result['concurrency']:>3}: {result['per_second']:7.1f} "
                f"notifications/s, {result['cpu_ms_each']:.2f} ms CPU each; burst delay "
                f"p50 {result['burst_p50_ms']:.0f} ms p95 {result['burst_p95_ms']:.0f} ms; "
                f"paced ({args.rate:g}/s) delay p50 {result['paced_p50_ms']:.1f} ms "
                f"p95 {result['paced_p95_ms']:.1f} ms; {result['received']} received, "
                f"{result['failed']} failed",
                flush=True,
            )


if __name__ == "__main__":
    main()
