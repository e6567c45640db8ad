"""The bot API: bot accounts, and programs playing whole games at web tables."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import openskill.models
from tests.web.helpers import (
    FAST,
    ROOT,
    TEST_LIMITS,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    play_to_end,
)
from tests.web.test_hidden import check_frames, states_by_version
from websockets.sync.client import ClientConnection, connect

from basra.server.app import AppConfig
from basra.server.quotas import Rate
from basra.server.table.ratings import EXTERNAL, bot_ratings


def make_bot(base: str, owner: str, name: str) -> dict[str, Any]:
    status, body = http(base + "/api/bots", {"name": name}, token=owner)
    assert status == 201, body
    return dict(body)


class Program:
    """A bot program over ``WS /ws/bot`` that plays the first legal move, in a thread."""

    def __init__(self, base: str, token: str) -> None:
        self.ws: ClientConnection = connect(
            base.replace("http", "ws") + "/ws/bot", open_timeout=10, proxy=None, legacy=True
        )
        self.frames: list[str] = []
        self.over: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        try:
            for text in self.ws:
                assert isinstance(text, str)
                self.frames.append(text)
                message = json.loads(text)
                if message["type"] == "move":
                    legal = message["view"]["legal"]
                    answer = {"table": message["table"], "version": message["version"]}
                    self.ws.send(json.dumps({"type": "move", **answer, "move": legal[0]}))
                elif message["type"] == "over":
                    self.over[message["table"]] = message
                elif message["type"] == "error":
                    self.errors.append(message)
        except Exception:  # the connection closed
            return

    def wait_over(self, table: str, timeout: float = 120) -> dict[str, Any]:
        deadline = time.time() + timeout
        while table not in self.over:
            assert time.time() < deadline, "the game did not end"
            time.sleep(0.05)
        return self.over[table]


def test_bot_accounts_are_made_listed_renewed_and_revoked(server: ServerThread) -> None:
    base = server.url
    owner = new_token(base)
    bot = make_bot(base, owner, "Sparrow_1")
    assert bot["token"].startswith("bot_")
    assert http(base + "/api/bots", token=owner)[1]["bots"] == [
        {k: bot[k] for k in ("id", "name", "created_at")}
    ]
    status, account = http(base + "/api/bot/account", token=bot["token"])
    assert status == 200 and account["name"] == "Sparrow_1" and "owner" not in account
    # A bot token signs in nowhere but the bot API; a person's token is not a bot's.
    assert http(base + "/api/games", token=bot["token"])[1]["error"] == "signed_out"
    assert http(base + "/api/bot/games", token=owner)[0] == 401
    status, renewed = http(f"{base}/api/bots/{bot['id']}/token", {}, token=owner)
    assert status == 201 and renewed["token"] != bot["token"]
    assert http(base + "/api/bot/account", token=bot["token"])[0] == 401
    assert http(base + "/api/bot/games", token=renewed["token"])[1] == {"games": []}
    assert http(f"{base}/api/bots/{bot['id']}", token=owner, method="DELETE")[0] == 200
    assert http(base + "/api/bot/account", token=renewed["token"])[0] == 401
    assert http(base + "/api/bots", token=owner)[1]["bots"] == []


def test_bad_bot_account_requests_get_clear_errors(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, bot_accounts_per_identity=2)
    config = AppConfig(database=str(tmp_path / "b.db"), service=replace(FAST, limits=limits))
    with ServerThread(config) as server:
        base = server.url
        owner = new_token(base)
        for body, field, code in (
            ({"name": "x"}, "name", "bad_bot_name"),
            ({"name": "no spaces"}, "name", "bad_bot_name"),
            ({"name": 7}, "name", "bad_request"),
            ({}, "name", "bad_request"),
            ({"name": "Fine", "extra": 1}, "extra", "bad_request"),
        ):
            status, answer = http(base + "/api/bots", body, token=owner)
            assert status == 422 and answer["error"] == code and answer["field"] == field
        make_bot(base, owner, "Heron")
        status, answer = http(base + "/api/bots", {"name": "heron"}, token=owner)
        assert status == 409 and answer["error"] == "bot_name_taken"
        make_bot(base, owner, "Stork")
        status, answer = http(base + "/api/bots", {"name": "Crane"}, token=owner)
        assert status == 429 and answer["limit"] == "bot_accounts"
        assert http(base + "/api/bots", {"name": "Crane"})[0] == 401
        assert http(f"{base}/api/bots/nope", token=owner, method="DELETE")[0] == 404
        # Only the creator's own bot accounts take seats.
        stranger = new_token(base)
        status, answer = http(
            base + "/api/tables",
            {"name": "S", "seats": [{"kind": "person"}, {"kind": "external", "bot": "Heron"}]},
            token=stranger,
        )
        assert status == 400 and answer["field"] == "seats.1.bot", answer
        status, answer = http(
            base + "/api/tables",
            {"name": "S", "seats": [{"kind": "person"}, {"kind": "external"}]},
            token=owner,
        )
        assert answer["field"] == "seats.1.bot"


def test_a_bot_program_plays_a_whole_rated_game_and_sees_only_its_seat(
    server: ServerThread,
) -> None:
    base = server.url
    owner = new_token(base)
    bot = make_bot(base, owner, "Kestrel")
    program = Program(base, bot["token"])
    table = create_table(
        base,
        owner,
        rated=True,
        rules={"target": 25},
        seats=[{"kind": "person"}, {"kind": "external", "bot": "kestrel"}],
    )
    amal = Player(base, table, owner, "Amal")
    amal.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["present"] is True)
    seat = amal.table["seats"][1]
    assert seat["kind"] == EXTERNAL and seat["name"] == "Kestrel"
    assert seat["rating"]["mu"] == bot_ratings().of(EXTERNAL, "egyptian", "2p")[0]
    assert seat["fixed"] and amal.table["clock"] == {"move": 30, "reserve": 60}
    play_to_end([amal], timeout=180)
    over = program.wait_over(table)
    assert over["scores"] == amal.view["scores"] and not program.errors
    # Rated as a bot: Amal's rating moved as openskill says against the fixed rating.
    amal.wait(lambda m: m["type"] == "table" and "change" in m["table"]["seats"][0])
    model = openskill.models.PlackettLuce()
    me, it = model.rating(), model.rating(*bot_ratings().of(EXTERNAL, "egyptian", "2p"))
    won = amal.view["winner"] == 0
    ranks = [0, 1] if won else [1, 0]
    [[after], _] = model.rate([[me], [it]], ranks=ranks)
    mine = http(base + "/api/profile", token=owner)[1]["ratings"][0]
    assert abs(mine["mu"] - after.mu) < 1e-3
    # Every frame the program got holds only cards its seat could see.
    status, record = http(f"{base}/api/games/{table}/record")
    assert status == 200 and record["names"][1] == "Kestrel"
    states = states_by_version(record)
    frames = [f for f in program.frames if json.loads(f).get("table") == table]
    moves = [json.loads(f) for f in frames if json.loads(f)["type"] == "move"]
    assert moves and all(m["view"]["seat"] == 1 for m in moves)
    holder = type("Frames", (), {"frames": [json.dumps({"type": "state", **m}) for m in moves]})
    assert check_frames(holder, states, 1) == len(moves)  # type: ignore[arg-type]


def test_the_example_client_plays_an_arena_bot_unchanged(server: ServerThread) -> None:
    base = server.url
    owner = new_token(base)
    bot = make_bot(base, owner, "Example")
    client = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "examples" / "botapi_client.py"),
            "--url",
            base,
            "--token",
            bot["token"],
            "--games",
            "1",
            "--",
            sys.executable,
            str(ROOT / "examples" / "external_bot.py"),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        table = create_table(
            base,
            owner,
            rules={"target": 20},
            seats=[{"kind": "person"}, {"kind": "external", "bot": "Example"}],
        )
        amal = Player(base, table, owner, "Amal")
        play_to_end([amal], timeout=180)
        assert client.wait(30) == 0
        assert "is over" in (client.stderr.read() if client.stderr else "")
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()


def test_bad_messages_from_a_bot_program_get_clear_errors(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, messages_per_connection=Rate(20, 100))
    config = AppConfig(database=str(tmp_path / "b.db"), service=replace(FAST, limits=limits))
    with ServerThread(config) as server:
        base = server.url
        owner = new_token(base)
        bot = make_bot(base, owner, "Wren")
        ws = connect(base.replace("http", "ws") + "/ws/bot", open_timeout=10, legacy=True)
        ws.send(json.dumps({"type": "hello", "token": bot["token"]}))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        table = create_table(
            base, owner, seats=[{"kind": "person"}, {"kind": "external", "bot": "Wren"}]
        )
        Player(base, table, owner, "Amal")
        game = json.loads(ws.recv(timeout=5))
        assert game["type"] == "game" and game["table"] == table and game["seat"] == 1
        for message, code in (
            ({"type": "move", "table": "elsewhere", "version": 1, "move": "7D"}, "not_seated"),
            ({"type": "move", "table": table, "version": "1", "move": "7D"}, "bad_message"),
            ({"type": "move", "table": table, "version": 1}, "bad_message"),
            ({"type": "move", "table": table, "version": 999, "move": "7D"}, "stale"),
            ({"type": "fly"}, "unknown_type"),
            ({"type": "hello", "token": bot["token"]}, "bad_message"),
        ):
            ws.send(json.dumps(message))
            answer = json.loads(ws.recv(timeout=5))
            while answer["type"] != "error":
                answer = json.loads(ws.recv(timeout=5))
            assert answer["code"] == code, (message, answer)
        ws.send(b"binary")
        assert json.loads(ws.recv(timeout=5))["code"] == "bad_message"
        for _ in range(20):
            ws.send(json.dumps({"type": "ping"}))
        kinds = [json.loads(ws.recv(timeout=5)) for _ in range(20)]
        assert any(k.get("code") == "rate_limited" for k in kinds)
        stranger = connect(base.replace("http", "ws") + "/ws/bot", open_timeout=10, legacy=True)
        stranger.send(json.dumps({"type": "hello", "token": owner}))
        assert json.loads(stranger.recv(timeout=5))["code"] == "signed_out"
        # A second connection of the bot takes over.
        second = connect(base.replace("http", "ws") + "/ws/bot", open_timeout=10, legacy=True)
        second.send(json.dumps({"type": "hello", "token": bot["token"]}))
        assert json.loads(second.recv(timeout=5))["type"] == "welcome"
        while (answer := json.loads(ws.recv(timeout=5)))["type"] != "replaced":
            pass
