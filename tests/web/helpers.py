"""Helpers of the web tests: a real server on a free loopback port, and socket players."""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy import select
from websockets.sync.client import ClientConnection, connect

from basra.server.app import AppConfig, create_app
from basra.server.env import Env
from basra.server.errors import ProtocolError
from basra.server.quotas import Limits, Rate
from basra.server.runtime.devservices import free_port
from basra.server.runtime.pubsub import Hub
from basra.server.store.sql import schema
from basra.server.stores import MEMORY, SqlStore, Store, open_store
from basra.server.table.live import ServiceConfig

ROOMY = Rate(1_000_000, 1)
TEST_LIMITS = Limits(
    identities_per_address=ROOMY,
    tables_per_identity=ROOMY,
    tables_per_address=ROOMY,
    open_tables_per_identity=1_000,
    open_tables_per_address=10_000,
    bot_tables_per_identity=100,
    bot_tables=1_000,
    bot_tables_per_event=100,
    events_per_address=10_000,
    open_events_per_address=10_000,
    reports_per_address=ROOMY,
    connections_per_address=10_000,
    connections_per_identity=100,
    hints_per_identity=ROOMY,
    reviews_per_identity=ROOMY,
    reviews_pending_per_identity=1_000,
    transfer_tries_per_address=ROOMY,
    accounts_per_address=ROOMY,
    logins_per_address=ROOMY,
    messages_per_connection=ROOMY,
    http_per_address=ROOMY,
)
"""Limits no test meets unless it means to (the server's own are in quotas.Limits)."""
FAST = ServiceConfig(
    grace=60.0, bot_delay=0.0, round_pause=0.0, bot_processes=0, limits=TEST_LIMITS
)
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")


def file_store() -> SqlStore:
    """A store on a new SQLite file, in a folder removed when the tests end."""
    folder = tempfile.mkdtemp(prefix="basra-test-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return SqlStore(os.path.join(folder, "basra.db"))


def sharing(store: SqlStore) -> SqlStore:
    """A second store on ``store``'s database: a second server process, in tests."""
    return SqlStore(store.url)


async def started_store(database: str = MEMORY) -> SqlStore:
    """A started store (an in-memory SQLite database unless told otherwise)."""
    store = open_store(database)
    await store.start()
    return store


async def stored_rows(store: SqlStore, *names: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of the named tables of ``store``'s database (all of them when none is named)."""
    tables = [t for t in schema.metadata.sorted_tables if not names or t.name in names]
    async with store.db.engine.connect() as conn:
        return {
            t.name: [dict(row._mapping) for row in await conn.execute(select(t))] for t in tables
        }


def count_rows(store: SqlStore, name: str) -> int:
    """The rows in one table of a SQLite file store, read from this thread (a server in
    another thread or loop owns the store's engine)."""
    path = store.url.split(":///", 1)[1]
    with closing(sqlite3.connect(path, timeout=30)) as conn:
        (count,) = conn.execute(f"SELECT count(*) FROM {name}").fetchone()
    return int(count)


async def started_env(
    config: ServiceConfig = FAST,
    store: Store | None = None,
    hub: Hub | None = None,
    origin: str | None = None,
) -> Env:
    """A server's environment, started in this loop without resuming tables (no HTTP)."""
    env = Env(AppConfig(service=config), store=store, hub=hub, origin=origin)
    await env.start(resume=False)
    return env


class ServerThread:
    """uvicorn serving the app in a thread of this process."""

    def __init__(self, config: AppConfig) -> None:
        self.port = free_port()
        self.app = create_app(config)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@contextmanager
def server_process(
    database: str, *extra: str, port: int | None = None, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``basra serve`` as a child process (killed at the end)."""
    port = port or free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "basra",
            "serve",
            "--port",
            str(port),
            "--database",
            database,
            "--message-rate",
            "10000",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/healthz", 30)
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_http(url: str, timeout: float) -> None:
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.time() > deadline:
            raise RuntimeError(f"{url} did not answer")
        time.sleep(0.1)


def http(
    url: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    token: str | None = None,
    method: str | None = None,
) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def new_token(base: str) -> str:
    """A new identity's device token (``POST /api/identity``)."""
    status, body = http(base + "/api/identity", {})
    assert status == 201, body
    return str(body["token"])


def create_table(base: str, token: str, name: str = "Amal", **form: Any) -> str:
    status, body = http(base + "/api/tables", {"name": name, **form}, token=token)
    assert status == 201, body
    return str(body["id"])


class Player:
    """A socket client that keeps the latest table and state it was sent."""

    def __init__(
        self,
        base: str,
        table: str,
        token: str | None = None,
        name: str | None = "Amal",
        *,
        watch_only: bool = False,
    ) -> None:
        self.token = None if watch_only else token or new_token(base)
        self.name = name
        self.table_id = table
        self.ws: ClientConnection = connect(
            base.replace("http", "ws") + f"/ws/{table}", open_timeout=10, legacy=True, proxy=None
        )
        self.frames: list[str] = []
        self.table: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.others: list[dict[str, Any]] = []
        hello: dict[str, Any] = {"type": "hello"}
        if self.token is not None:
            hello["token"] = self.token
        if name is not None:
            hello["name"] = name
        self.send(hello)

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        kind = message["type"]
        if kind == "table":
            self.table = message["table"]
        elif kind == "state":
            self.state = message
        elif kind == "error":
            self.errors.append(message)
        else:
            self.others.append(message)
        return message

    def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no such message")
            message = self.recv(left)
            if predicate(message):
                return message

    def wait_type(self, kind: str, timeout: float = 20) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == kind, timeout)

    def drain(self, quiet: float = 0.05) -> None:
        """Read whatever arrives until the socket is quiet for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.state.get("view", {}))

    @property
    def version(self) -> int:
        return int(self.state.get("version", -1))

    def my_turn(self) -> bool:
        view = self.view
        return bool(view) and view["phase"] == "play" and view["turn"] == view.get("seat")

    def play_first_legal(self) -> str:
        move = self.view["legal"][0]
        self.send({"type": "move", "move": move, "version": self.version})
        return str(move)

    def close(self) -> None:
        self.ws.close()


def next_mover(players: list[Player], timeout: float = 20) -> Player | None:
    """Read until one of the players is to move (None once the game is over)."""
    deadline = time.time() + timeout
    while True:
        for player in players:
            if player.my_turn():
                return player
        if any(p.view.get("over") for p in players):
            return None
        assert time.time() < deadline, "nobody came to move"
        for player in players:
            with suppress(TimeoutError):
                player.recv(0.02)


def play_to_end(players: list[Player], timeout: float = 120) -> None:
    """Each player plays its first legal move when it is its turn, until the game is over."""
    deadline = time.time() + timeout
    while not all(p.view.get("over") for p in players):
        assert time.time() < deadline, "the game did not end in time"
        for player in players:
            if player.my_turn() and player.state.get("_sent") != player.version:
                player.state["_sent"] = player.version
                player.play_first_legal()
        for player in players:
            with suppress(TimeoutError):
                player.recv(0.02)
        for player in players:
            assert not player.errors, player.errors


def cards_in(text: str) -> set[str]:
    """The card texts in a JSON text, leaving out rule settings (which name cards
    without dealing them)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("rules", "overrides")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return {rank + suit for rank, suit in CARD.findall(json.dumps(strip(json.loads(text))))}


def hidden_cards(frame: str) -> set[str]:
    """Every card text in a frame."""
    return {rank + suit for rank, suit in CARD.findall(frame)}


ROOT = Path(__file__).resolve().parents[2]


def eventually(check: Callable[[], None], timeout: float = 20, every: float = 0.1) -> None:
    """Run ``check`` (which asserts) until it passes, at most ``timeout`` seconds; the last
    failure is raised. For what a server does on its own clock (metrics sampled every
    few seconds, leases given back by a periodic pass): the test waits as long as that
    takes, not a fixed guess of the longest it could take."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            check()
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        time.sleep(every)


async def refusal(work: Any) -> ProtocolError:
    """The refusal ``work`` ends in (it must be refused)."""
    try:
        await work
    except ProtocolError as error:
        return error
    raise AssertionError("not refused")


async def code(env: Env, who: str) -> dict[str, str]:
    """``who``'s follow-me code, as a follow or challenge names a person by it."""
    return {"code": (await env.friends.link(who, "http://site"))["code"]}
