"""Helpers of the tournament tests: organisers, events, and clients of the event socket."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from typing import Any

from tests.web.helpers import FAST, Player, http, new_token
from websockets.sync.client import ClientConnection, connect

from basra.server.app import AppConfig
from basra.server.features.tournaments import TournamentConfig

QUICK = TournamentConfig(
    tick=0.1, pair_gap=0.05, frames_every=0.1, check_every=1.0, events_per_day=4, open_events=3
)
"""A clock that passes often, and small quotas a test can reach."""
SERVICE = replace(FAST, bot_delay=0.02)
ONE_ROUND = {"target": 1}


def config(database: str, tournaments: TournamentConfig = QUICK) -> AppConfig:
    """The app on ``database`` with quick tournaments and quick bots."""
    return AppConfig(database=database, service=SERVICE, tournaments=tournaments)


def organiser(base: str, name: str = "amal") -> str:
    """A new identity with an account (a username): it may organise events."""
    token = new_token(base)
    username = f"{name}{secrets.token_hex(3)}"
    status, body = http(
        base + "/api/account", {"username": username, "password": "correct horse"}, token=token
    )
    assert status == 201, body
    return token


def make_event(base: str, token: str, **form: Any) -> dict[str, Any]:
    """``POST /api/tournaments``: 201 and the event."""
    body = {"name": "Test event", "rules": ONE_ROUND, **form}
    status, event = http(base + "/api/tournaments", body, token=token)
    assert status == 201, event
    return dict(event)


def join(base: str, event: str, token: str, **form: Any) -> dict[str, Any]:
    """``POST /api/tournaments/{id}/join``: 201 and the answer."""
    status, body = http(f"{base}/api/tournaments/{event}/join", form, token=token)
    assert status == 201, body
    return dict(body)


def detail(base: str, event: str, token: str | None = None, **query: str) -> dict[str, Any]:
    """``GET /api/tournaments/{id}``."""
    suffix = "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    status, body = http(f"{base}/api/tournaments/{event}{suffix}", token=token)
    assert status == 200, body
    return dict(body)


def wait_for(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Poll until ``check`` gives something true."""
    deadline = time.time() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.time() < deadline, f"timed out waiting: {what}"
        time.sleep(0.05)


class EventWatch:
    """A client of ``WS /ws/tournaments/{id}`` keeping the latest event and ``you``."""

    def __init__(self, base: str, event: str, token: str | None = None, invite: str | None = None):
        self.ws: ClientConnection = connect(
            base.replace("http", "ws") + f"/ws/tournaments/{event}",
            open_timeout=10,
            proxy=None,
            legacy=True,
        )
        self.frames: list[str] = []
        self.event: dict[str, Any] = {}
        self.you: dict[str, Any] = {}
        self.paired: list[str] = []
        self.errors: list[dict[str, Any]] = []
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if invite is not None:
            hello["invite"] = invite
        self.ws.send(json.dumps(hello))

    def read(self, timeout: float = 0.05) -> None:
        """Read what has come (until quiet for ``timeout``)."""
        with suppress(TimeoutError):
            while True:
                text = self.ws.recv(timeout=timeout)
                assert isinstance(text, str)
                self.frames.append(text)
                message = json.loads(text)
                kind = message["type"]
                if kind == "event":
                    self.event = message["event"]
                elif kind == "you":
                    # As the page does: a table in "you" is this person's game, also one
                    # paired before this socket opened (no "paired" frame comes for it).
                    self.you = message["you"]
                    self._pair(self.you.get("table"))
                elif kind == "paired":
                    self._pair(message["table"])
                elif kind == "error":
                    self.errors.append(message)

    def _pair(self, table: str | None) -> None:
        if table is not None and table not in self.paired:
            self.paired.append(table)

    def until(self, check: Callable[[EventWatch], Any], what: str, timeout: float = 60) -> Any:
        """Read until ``check(self)`` gives something true."""
        deadline = time.time() + timeout
        while True:
            found = check(self)
            if found:
                return found
            assert time.time() < deadline, f"timed out waiting: {what}"
            self.read(0.05)

    def close(self) -> None:
        self.ws.close()


class Entrant:
    """A person in an event: watches it, and plays every game it is paired to (first legal
    move), one table at a time."""

    def __init__(self, base: str, event: str, token: str, name: str) -> None:
        self.base = base
        self.token = token
        self.name = name
        self.watch = EventWatch(base, event, token)
        self.player: Player | None = None
        self.played: list[str] = []

    def step(self) -> None:
        """Read the event, go to a new table, play a move if it is ours."""
        self.watch.read(0.01)
        if self.player is None and len(self.watch.paired) > len(self.played):
            table = self.watch.paired[len(self.played)]
            self.played.append(table)
            self.player = Player(self.base, table, self.token, self.name)
        player = self.player
        if player is None:
            return
        with suppress(TimeoutError):
            player.recv(0.01)
        assert not player.errors, player.errors
        if player.view.get("over"):
            player.close()
            self.player = None
        elif player.my_turn() and player.state.get("_sent") != player.version:
            player.state["_sent"] = player.version
            player.play_first_legal()

    def close(self) -> None:
        self.watch.close()
        if self.player is not None:
            self.player.close()
