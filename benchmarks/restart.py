"""Rolling restarts through the proxy: how long a page takes to play on after its process restarts.

    python benchmarks/restart.py [--restarts 20] [--tables 8]

Starts PostgreSQL, Redis, two ``basra serve --config`` processes and the shipped
deploy/Caddyfile in front of them (plain HTTP), then ``--tables`` tables of a person
against a fast bot, each person a client that acts as the page does (static/app.js):
on a close with code 1012 it reconnects after 0 to 200 ms, through the proxy, to
whichever process takes it. The two processes are restarted in turn (SIGTERM: a drain;
then started again and ready) ``--restarts`` times. For every page whose socket the
restart closed it measures the time from the close to the table's snapshot on the new
socket (the page shows the table again) and to its next move acknowledged, and checks
that no snapshot after a reconnect is older than the page's last acknowledged move.
Prints p50/p95 of both.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from load import caddy_in_front, free_port, greedy, percentile

from basra.server.runtime.devservices import postgres_cluster, redis_server

CONFIG = """
[server]
forwarded_allow_ips = ["127.0.0.1"]
log_level = "warning"
drain_timeout = 10
[database]
url = "{database}"
[redis]
url = "{redis}"
[secrets]
admin_token = {{ file = "{secret}" }}
daily_deal = {{ file = "{secret}" }}
[tables]
bot_delay = 0.2
round_pause = 0.2
[workers]
bot_processes = 0
[quotas]
identities_per_address = {{ count = 1000, per = 60 }}
tables_per_identity = {{ count = 1000, per = 60 }}
tables_per_address = {{ count = 1000, per = 60 }}
http_per_address = {{ count = 100000, per = 60 }}
"""


def post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def wait_ready(url: str, seconds: float) -> None:
    deadline = time.time() + seconds
    while True:
        try:
            urllib.request.urlopen(url + "/readyz", timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                raise RuntimeError(f"{url} did not become ready") from None
            time.sleep(0.1)


class Samples:
    def __init__(self) -> None:
        self.snapshot: list[float] = []
        self.move: list[float] = []
        self.lost: list[str] = []
        self.closes = 0


async def page(proxy: int, index: int, samples: Samples, stop: asyncio.Event) -> None:
    """A person's page: plays greedy moves, reconnects on 1012 as static/app.js does."""
    rng = random.Random(index)
    base = f"http://127.0.0.1:{proxy}"
    while not stop.is_set():
        token = (await asyncio.to_thread(post, base, "/api/identity", {}))["token"]
        form = {"name": "p", "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
        table = (await asyncio.to_thread(post, base, "/api/tables", form, token))["id"]
        acked_version = -1  # the version that acknowledged its last move
        closed_at: float | None = None
        over = False
        while not over and not stop.is_set():
            try:
                async with websockets.connect(f"ws://127.0.0.1:{proxy}/ws/{table}") as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token, "name": "p"}))
                    pending: tuple[str, int] | None = None
                    first = True  # the first snapshot on this socket
                    async for text in ws:
                        message = json.loads(text)
                        if message["type"] != "state":
                            continue
                        view, version = message["view"], message["version"]
                        now = time.perf_counter()
                        if closed_at is not None and first:  # the table is back
                            samples.snapshot.append(now - closed_at)
                            if version < acked_version:  # a move it acknowledged is gone
                                samples.lost.append(f"{table}: {version} < {acked_version}")
                        first = False
                        if pending is not None and version > pending[1]:
                            acked_version = version
                            if closed_at is not None:
                                samples.move.append(now - closed_at)
                                closed_at = None
                            pending = None
                        if view.get("over"):
                            over = True
                            break
                        mine = view.get("phase") == "play" and view.get("turn") == view.get("seat")
                        if mine and pending is None and not stop.is_set():
                            await asyncio.sleep(rng.uniform(0.1, 0.4))
                            move = greedy(view["legal"])
                            pending = (move, version)
                            await ws.send(
                                json.dumps({"type": "move", "move": move, "version": version})
                            )
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == 1012:
                    samples.closes += 1
                    closed_at = time.perf_counter()
                    await asyncio.sleep(rng.uniform(0, 0.2))
                    continue
                raise
            except OSError:
                await asyncio.sleep(0.2)
                continue


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="basra-restart-") as tmp,
        contextlib.ExitStack() as stack,
    ):
        database = stack.enter_context(postgres_cluster())
        redis = stack.enter_context(redis_server())
        config = Path(tmp) / "basra.toml"
        secret = Path(tmp) / "secret"
        secret.write_text("t" * 64)
        config.write_text(CONFIG.format(database=database, redis=redis, secret=secret))
        ports = [free_port(), free_port()]
        procs: list[subprocess.Popen[bytes] | None] = [None, None]

        def start(i: int) -> None:
            command = [sys.executable, "-m", "basra", "serve", "--config", str(config)]
            procs[i] = subprocess.Popen(
                [*command, "--port", str(ports[i])], stdout=subprocess.DEVNULL, env=dict(os.environ)
            )
            wait_ready(f"http://127.0.0.1:{ports[i]}", 60)

        start(0)  # migrates
        start(1)
        for i in (0, 1):
            stack.callback(lambda i=i: procs[i] and procs[i].poll() is None and procs[i].kill())
        proxy, _ = stack.enter_context(caddy_in_front(ports, tmp))
        samples = Samples()
        drains: list[float] = []

        def restarter(stop: threading.Event) -> None:
            time.sleep(3)
            for n in range(args.restarts):
                i = n % 2
                proc = procs[i]
                assert proc is not None
                began = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                proc.wait(30)
                drains.append(time.monotonic() - began)
                start(i)
                time.sleep(2.5)  # the proxy's health check sees it ready again
            stop.set()

        async def run() -> None:
            stop = asyncio.Event()
            done = threading.Event()
            thread = threading.Thread(target=restarter, args=(done,))
            thread.start()
            tasks = [asyncio.create_task(page(proxy, i, samples, stop)) for i in range(args.tables)]
            while not done.is_set():
                await asyncio.sleep(0.2)
            await asyncio.sleep(2)
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            thread.join()

        asyncio.run(run())
    print(
        f"{args.restarts} restarts of two processes behind Caddy on PostgreSQL and Redis, "
        f"{args.tables} pages, {os.cpu_count()} CPUs"
    )
    print(f"pages closed with 1012: {samples.closes}")
    print(f"acknowledged moves missing after a reconnect: {len(samples.lost)} {samples.lost[:5]}")
    for label, values in (
        ("to the table's snapshot", samples.snapshot),
        ("to the next move acknowledged", samples.move),
    ):
        ms = " / ".join(f"{percentile(values, q) * 1000:.0f}" for q in (0.5, 0.95))
        print(f"close {label:32} p50/p95 ms {ms}  (n={len(values)})")
    print(
        f"drain (SIGTERM to exit) p50/p95 s "
        f"{percentile(drains, 0.5):.2f} / {percentile(drains, 0.95):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
