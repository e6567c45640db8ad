"""Table talk's delivery time across two server processes, against reactions' in the same run.

    python benchmarks/talk.py [--tables 30] [--rounds 5] [--database URL] [--redis URL]

Starts a PostgreSQL cluster and a Redis server of its own (unless ``--database`` and
``--redis`` name running ones) and two ``basra serve`` processes on them. At each of
``--tables`` tables of three people, the first sits on process one and the two others on
process two. Each round, every table's first person says a line (``say``) and sends a
reaction (``react``), a table after another; for each, the time from sending it to its
arrival at the reader on the other process (through Redis) and at the speaker's own
process (the echo) is one sample. Reactions take the same path without talk's checks
(the words policy, the silence, mute, setting and block queries in SQL), so they are the
baseline. Prints p50/p95 of each. The servers' talk quota per address is raised (every
person here is on 127.0.0.1); a person's own stays 5 lines in 10 seconds, so a round
waits 2.2 seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from load_quickplay import percentile, server
from websockets.sync.client import ClientConnection, connect

from basra.server.runtime.devservices import postgres_cluster, redis_server

QUOTAS = """[quotas]
talk_per_address = { count = 100000, per = 10 }
identities_per_address = { count = 100000, per = 60 }
tables_per_identity = { count = 100000, per = 60 }
tables_per_address = { count = 100000, per = 60 }
open_tables_per_address = 100000
connections_per_address = 100000
http_per_address = { count = 100000, per = 60 }
"""
"""Every person here is on 127.0.0.1: the address's quotas are raised (a person's are not)."""


def http(port: int, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def socket(port: int, table: str, token: str) -> ClientConnection:
    ws = connect(f"ws://127.0.0.1:{port}/ws/{table}", proxy=None, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def wait_for(
    ws: ClientConnection, kind: str, test: Any = None, timeout: float = 30
) -> dict[str, Any]:
    deadline = time.time() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.time())))
        if message["type"] == kind and (test is None or test(message)):
            return message
        if message["type"] == "error":
            raise RuntimeError(message)


def seat_tables(one: int, two: int, count: int) -> list[tuple[ClientConnection, ClientConnection]]:
    """``count`` tables: the speaker's socket on one, a reader's on two (a third seat on two)."""
    out = []
    for _ in range(count):
        tokens = [http(port, "/api/identity", {})["token"] for port in (one, two, two)]
        seats = [{"kind": "person"}] * 3
        made = http(one, "/api/tables", {"name": "A", "players": 3, "seats": seats}, tokens[0])
        table = made["id"]
        speaker = socket(one, table, tokens[0])
        readers = []
        for seat, token in ((1, tokens[1]), (2, tokens[2])):
            ws = socket(two, table, token)
            wait_for(ws, "state")
            ws.send(json.dumps({"type": "join", "seat": seat, "name": f"P{seat}"}))
            wait_for(ws, "table", lambda m, s=seat: m["table"]["you"] == s)
            readers.append(ws)
        readers[1].close()
        out.append((speaker, readers[0]))
    return out


def measure(
    tables: list[tuple[ClientConnection, ClientConnection]], rounds: int
) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {
        "talk_other": [],
        "talk_own": [],
        "react_other": [],
        "react_own": [],
    }
    for round_ in range(rounds):
        started = time.time()
        for kind, message, answer in (
            ("talk", {"type": "say", "text": f"line {round_}"}, "talk"),
            ("react", {"type": "react", "code": "thanks"}, "reaction"),
        ):
            for speaker, reader in tables:
                sent = time.perf_counter()
                speaker.send(json.dumps(message))
                wait_for(speaker, answer)
                samples[f"{kind}_own"].append(time.perf_counter() - sent)
                wait_for(reader, answer)
                samples[f"{kind}_other"].append(time.perf_counter() - sent)
        time.sleep(max(0.0, 2.2 - (time.time() - started)))
    return samples


@contextlib.contextmanager
def services(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    with contextlib.ExitStack() as stack:
        database = args.database or stack.enter_context(postgres_cluster())
        redis = args.redis or stack.enter_context(redis_server())
        yield database, redis


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30, help="tables (30)")
    parser.add_argument("--rounds", type=int, default=5, help="lines each speaker says (5)")
    parser.add_argument("--database", default=None, help="a running PostgreSQL's URL")
    parser.add_argument("--redis", default=None, help="a running Redis's URL")
    args = parser.parse_args()
    with services(args) as (database, redis), tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "basra.toml"  # --config names the database and Redis too
        config.write_text(f'[database]\nurl = "{database}"\n[redis]\nurl = "{redis}"\n{QUOTAS}')
        options = ("--config", str(config), "--bot-delay", "0")
        with (
            server(database, redis, options, None) as (one, _),
            server(database, redis, options, None) as (two, _),
        ):
            tables = seat_tables(one, two, args.tables)
            samples = measure(tables, args.rounds)
            for speaker, reader in tables:
                speaker.close()
                reader.close()
    print(
        f"{args.tables} tables, {args.rounds} rounds, two processes on PostgreSQL and Redis, "
        f"{os.cpu_count()} CPUs (ms)"
    )
    print("message    reader           n     p50     p95")
    for key, values in samples.items():
        kind, where = key.split("_")
        reader = "other process" if where == "other" else "own echo"
        print(
            f"{kind:9s}  {reader:13s}  {len(values):4d}  {1000 * percentile(values, 0.5):6.1f}"
            f"  {1000 * percentile(values, 0.95):6.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
