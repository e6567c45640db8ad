"""Several server processes sharing tables: in memory, and on real PostgreSQL and Redis.

The PostgreSQL cluster and the Redis server are started here, in temporary
directories on free loopback ports, and stopped at the end.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from tests.web.helpers import (
    FAST,
    Player,
    create_table,
    file_store,
    free_port,
    http,
    new_token,
    next_mover,
    play_to_end,
    server_process,
    sharing,
)

from basra.server.app import AppConfig, create_app
from basra.server.env import Env
from basra.server.runtime.devservices import postgres_cluster, redis_server
from basra.server.runtime.pubsub import MemoryHub


class TwoServers:
    """Two apps with their own environments on one store and one in-memory hub, in one loop."""

    def __init__(self) -> None:
        store = file_store()
        hub = MemoryHub()
        config = AppConfig(service=FAST)
        self.envs = [
            Env(config, store=store, hub=hub, origin="one"),
            Env(config, store=sharing(store), hub=hub.attach(), origin="two"),
        ]
        self.ports = [free_port(), free_port()]
        self.servers = [
            uvicorn.Server(
                uvicorn.Config(create_app(env=e), host="127.0.0.1", port=p, log_level="warning")
            )
            for e, p in zip(self.envs, self.ports, strict=True)
        ]
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def both() -> None:
            await asyncio.gather(*(s.serve() for s in self.servers))

        asyncio.run(both())

    def __enter__(self) -> list[str]:
        self.thread.start()
        deadline = time.time() + 20
        while not all(s.started for s in self.servers):
            assert time.time() < deadline
            time.sleep(0.02)
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    def __exit__(self, *_: object) -> None:
        for server in self.servers:
            server.should_exit = True
        self.thread.join(20)


def two_process_game(one: str, two: str) -> None:
    """Amal plays on the first server, Badr on the second, to the end of the game."""
    token = new_token(one)
    table = create_table(one, token, rules={"target": 30}, seats=[{"kind": "person"}] * 2)
    amal = Player(one, table, token, "Amal")
    badr = Player(two, table, None, "Badr")
    badr.wait_type("state")
    badr.send({"type": "join", "seat": 1})
    amal.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["name"] == "Badr")
    play_to_end([amal, badr])
    assert amal.view["scores"] == badr.view["scores"]
    watcher = Player(two, table, None, "W")
    assert watcher.wait_type("state")["view"]["over"]
    status, record = http(f"{two}/api/games/{table}/record")
    assert status == 200 and record["names"] == ["Amal", "Badr"]


def test_two_services_share_tables_through_the_hub() -> None:
    with TwoServers() as (one, two):
        two_process_game(one, two)


# ------------------------------------------------------------------ real services


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster in a temporary directory; yields its URL."""
    with postgres_cluster() as url:
        yield url


@pytest.fixture(scope="module")
def redis() -> Iterator[str]:
    """A Redis server on a free port; yields its URL."""
    with redis_server() as url:
        yield url


@pytest.mark.services
def test_two_processes_on_postgresql_and_redis_play_a_game(postgres: str, redis: str) -> None:
    options = ("--redis", redis, "--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        two_process_game(one, two)


@pytest.mark.services
def test_postgresql_resumes_a_game_after_a_restart(postgres: str) -> None:
    options = ("--bot-delay", "0", "--round-pause", "0")
    with server_process(postgres, *options) as (_, url):
        token = new_token(url)
        table = create_table(url, token, seats=[{"kind": "person"}, {"kind": "bot"}])
        amal = Player(url, table, token)
        # Stop when it is Amal's turn: then nothing moves until she plays.
        assert next_mover([amal], timeout=30) is amal
        version, hand = amal.version, amal.view["hand"]
    with server_process(postgres, *options) as (_, url):
        back = Player(url, table, token)
        snapshot = back.wait_type("state")
        assert snapshot["version"] == version and snapshot["view"]["hand"] == hand
        play_to_end([back])


@pytest.mark.services
def test_two_processes_share_the_review_queue_through_redis(postgres: str, redis: str) -> None:
    """A review asked for on one process is worked out once (saq on Redis, by either
    process), its progress and result served by both."""
    options = (
        *("--redis", redis, "--bot-delay", "0", "--round-pause", "0"),
        *("--review-samples", "60", "--no-hindsight", "--bot-processes", "1"),
    )
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        bots = [{"kind": "bot", "level": "easy"}] * 2
        tokens = [new_token(one) for _ in range(3)]  # the server's own quotas hold here
        tables = [
            create_table(one, token, seats=bots, my_seat=None, rules={"target": 20})
            for token in tokens
        ]
        for table in tables:
            watcher = Player(two, table, watch_only=True)
            watcher.wait(lambda m: m["type"] == "state" and m["view"]["over"], timeout=60)
            watcher.close()
        for index, (table, token) in enumerate(zip(tables, tokens, strict=True)):
            base = (one, two)[index % 2]
            status, body = http(f"{base}/api/games/{table}/review", {}, token=token)
            assert status in (200, 202), body
        # Asking again on the other process queues nothing more (one job per game).
        status, _ = http(f"{two}/api/games/{tables[0]}/review", {}, token=tokens[1])
        assert status in (200, 202)
        deadline = time.time() + 120
        done: dict[str, dict[str, object]] = {}
        while len(done) < len(tables):
            assert time.time() < deadline, done
            for table in tables:
                for base in (one, two):
                    status, body = http(f"{base}/api/games/{table}/review")
                    assert status == 200 and body["status"] in ("queued", "running", "done")
                    if body["status"] == "done":
                        done[table] = body["review"]
            time.sleep(0.2)
        finished = [http(f"{base}/healthz")[1]["reviews"]["finished"] for base in (one, two)]
        assert sum(finished) == len(tables), finished
        # Each reviewed game is then mined for mistakes, once, by either process (the
        # job queue's puzzle_mining kind on saq; bots' games hold no person's mistake).
        while True:
            mined = [http(f"{base}/healthz")[1]["mining"]["finished"] for base in (one, two)]
            if sum(mined) >= len(tables):
                break
            assert time.time() < deadline, mined
            time.sleep(0.2)
        time.sleep(1.0)
        mined = [http(f"{base}/healthz")[1]["mining"]["finished"] for base in (one, two)]
        assert sum(mined) == len(tables), mined
        for table in tables:
            status, body = http(f"{one}/api/games/{table}/review")
            assert body["review"] == done[table]
