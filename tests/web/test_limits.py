"""Quotas per person and per client address, bounds on rule settings, abandoned tables.

Each refusal is ``rate_limited`` naming the limit and saying when to retry.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    TEST_LIMITS,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
)
from websockets.sync.client import connect

from basra.server.app import AppConfig
from basra.server.quotas import Rate
from basra.server.table.forms import RULE_BOUNDS

ONE_BOT = {"seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
ALL_BOTS = {"seats": [{"kind": "bot", "level": "easy"}] * 2, "my_seat": None}


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with small limits."""
    limits = replace(
        TEST_LIMITS,
        tables_per_address=Rate(3, 600),
        open_tables_per_identity=2,
        bot_tables_per_identity=1,
        connections_per_address=4,
        connections_per_identity=3,
        identities_per_address=Rate(3, 3600),
        hints_per_identity=Rate(2, 60),
        http_per_address=Rate(2_000, 60),
    )
    config = AppConfig(database=str(tmp_path / "q.db"), service=replace(FAST, limits=limits))
    with ServerThread(config) as server:
        yield server


def request_from(
    source: str, base: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, dict[str, str], Any]:
    """An HTTP request from a chosen loopback address (each is its own client address)."""
    host, port = base.split("//")[1].split(":")
    conn = HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST" if body is not None else "GET", path, json.dumps(body), headers)
    response = conn.getresponse()
    data = json.loads(response.read() or b"null")
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def assert_limited(status: int, headers: dict[str, str], body: Any, limit: str) -> None:
    assert status == 429, body
    assert body["error"] == "rate_limited" and body["limit"] == limit
    assert body["retry_after"] >= 1 and headers["retry-after"] == str(body["retry_after"])
    assert "try again in" in body["message"]


def test_open_tables_per_person_and_new_tables_per_address_are_limited(
    strict: ServerThread,
) -> None:
    base = strict.url
    amal, badr, carl = (new_token(base) for _ in range(3))
    form = {"name": "Amal", **ONE_BOT}
    for _ in range(2):
        assert request_from("127.0.0.2", base, "/api/tables", form, amal)[0] == 201
    # Two tables waiting or in play is this server's most for one person...
    assert_limited(*request_from("127.0.0.2", base, "/api/tables", form, amal), "open_tables")
    # ...and three tries at a new table in ten minutes for one address.
    assert_limited(*request_from("127.0.0.2", base, "/api/tables", form, badr), "tables")
    assert request_from("127.0.0.3", base, "/api/tables", form, badr)[0] == 201
    assert request_from("127.0.0.3", base, "/api/tables", form, carl)[0] == 201
    assert len(http(base + "/api/tables")[1]["tables"]) == 4


def test_all_bot_tables_are_limited(strict: ServerThread) -> None:
    base = strict.url
    token = new_token(base)
    create_table(base, token, "Amal", **ALL_BOTS)
    status, headers, body = request_from(
        "127.0.0.9", base, "/api/tables", {"name": "Amal", **ALL_BOTS}, token
    )
    assert_limited(status, headers, body, "open_tables")
    assert "all-bot tables" in body["message"]


def test_new_identities_are_limited_per_address(strict: ServerThread) -> None:
    base = strict.url
    for _ in range(3):
        assert request_from("127.0.0.4", base, "/api/identity", {})[0] == 201
    assert_limited(*request_from("127.0.0.4", base, "/api/identity", {}), "identities")
    assert request_from("127.0.0.5", base, "/api/identity", {})[0] == 201  # another address


def test_connections_are_limited_per_address_and_per_person(strict: ServerThread) -> None:
    base = strict.url
    token = new_token(base)
    table = create_table(base, token, "Amal", **ONE_BOT)
    url = base.replace("http", "ws") + f"/ws/{table}"
    held = [
        connect(url, source_address=("127.0.0.6", 0), proxy=None, legacy=True) for _ in range(4)
    ]
    refused = connect(url, source_address=("127.0.0.6", 0), proxy=None, legacy=True)
    error = json.loads(refused.recv(timeout=10))
    assert error["code"] == "rate_limited" and error["limit"] == "connections"
    with pytest.raises(Exception):  # noqa: B017 - closed with 1013, try again later
        refused.recv(timeout=10)
    assert refused.close_code == 1013
    for ws in held:
        ws.close()
    # One person may hold three connections, wherever from.
    mine = [Player(base, table, token) for _ in range(3)]
    for player in mine:
        player.wait_type("state")
    extra = Player(base, table, token)
    assert extra.wait_type("error")["limit"] == "connections"
    mine[0].close()
    time.sleep(0.3)
    Player(base, table, token).wait_type("state")


def test_hints_are_limited_per_person(strict: ServerThread) -> None:
    base = strict.url
    token = new_token(base)
    table = create_table(base, token, "Amal", hints=True, **ONE_BOT)
    amal = Player(base, table, token)
    codes = []
    for _ in range(3):
        amal.wait(lambda m: m["type"] == "state" and amal.my_turn())
        amal.send({"type": "hint", "version": amal.version})
        reply = amal.wait(lambda m: m["type"] in ("hint", "error"))
        codes.append(reply.get("code", "hint"))
        if reply["type"] == "hint":
            amal.play_first_legal()
    assert codes == ["hint", "hint", "rate_limited"]
    assert amal.errors[-1]["limit"] == "hints"


def read_until_closed(player: Player) -> None:
    while True:
        player.recv(5)


def test_a_connection_that_floods_is_told_then_closed(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, messages_per_connection=Rate(10, 60))
    config = AppConfig(database=str(tmp_path / "f.db"), service=replace(FAST, limits=limits))
    with ServerThread(config) as server:
        token = new_token(server.url)
        table = create_table(server.url, token, "Amal", **ONE_BOT)
        amal = Player(server.url, table, token)
        amal.wait_type("state")
        for _ in range(40):
            amal.send({"type": "ping"})
        with pytest.raises(Exception):  # noqa: B017 - the server closes the connection
            read_until_closed(amal)
        limited = [e for e in amal.errors if e["code"] == "rate_limited"]
        assert limited and all(e["limit"] == "messages" for e in limited)
        assert amal.ws.close_code == 1008


@pytest.mark.parametrize("name", sorted(RULE_BOUNDS))
def test_every_rule_integer_has_a_bound_named_when_passed(server: ServerThread, name: str) -> None:
    token = new_token(server.url)
    low, high = RULE_BOUNDS[name]
    for value in (high + 1, 10**4299 if name == "basra_points" else 10**9):
        form = {"rules": {name: value}, **ONE_BOT}
        status, body = http(server.url + "/api/tables", {"name": "A", **form}, token=token)
        assert status == 400 and body["error"] == "bad_settings", body
        assert body["field"] == f"rules.{name}" and f"from {low} to {high}" in body["message"]
        status, body = http(
            server.url + "/api/rules", {"variant": "egyptian", "rules": {name: value}}
        )
        assert status == 400 and body["field"] == f"rules.{name}"
    status, _ = http(
        server.url + "/api/tables", {"name": "A", "rules": {name: high}, **ONE_BOT}, token=token
    )
    assert status == 201
    assert http(server.url + "/api/variants")[1]["bounds"][name] == [low, high]


def test_card_values_are_bounded_and_rules_must_score(server: ServerThread) -> None:
    token = new_token(server.url)
    for rules, field in (
        ({"point_cards": {"A": 101}}, "rules.point_cards"),
        ({"face_values": {"Q": 1000}}, "rules.face_values"),
        ({"point_cards": {}, "majority_bonus": 0}, "rules.point_cards"),
    ):
        status, body = http(
            server.url + "/api/tables", {"name": "A", "rules": rules, **ONE_BOT}, token=token
        )
        assert status == 400 and body["field"] == field, body


def test_tables_nobody_is_at_end_as_abandoned(tmp_path: Path) -> None:
    service = replace(FAST, abandon_after=1.5, abandon_bots_after=1.0, bot_delay=0.05)
    config = AppConfig(database=str(tmp_path / "a.db"), service=service)
    with ServerThread(config) as server:
        base = server.url
        token = new_token(base)
        waiting = create_table(base, token, "Amal", seats=[{"kind": "person"}] * 2)
        playing = create_table(base, token, "Amal", **ONE_BOT)
        bots = create_table(base, token, "Amal", **ALL_BOTS)
        watched = create_table(base, token, "Amal", **ALL_BOTS)
        watcher = Player(base, watched, token)
        amal = Player(base, playing, token)
        amal.wait_type("state")
        amal.close()
        deadline = time.time() + 10
        while True:
            statuses = {
                t: http(f"{base}/api/tables/{t}")[1]["status"] for t in (waiting, playing, bots)
            }
            if set(statuses.values()) == {"abandoned"}:
                break
            assert time.time() < deadline, statuses
            time.sleep(0.1)
        watcher.drain(0.5)
        assert http(f"{base}/api/tables/{watched}")[1]["status"] in ("playing", "over")
        games = {g["id"]: g["status"] for g in http(base + "/api/games", token=token)[1]["games"]}
        assert games[playing] == "abandoned" and games[waiting] == "abandoned"
        lobby = {t["id"] for t in http(base + "/api/tables")[1]["tables"]}
        assert not lobby & {waiting, playing, bots}
        # Someone coming back finds the table as it was left, and nothing moves.
        back = Player(base, playing, token)
        assert back.wait_type("table")["table"]["status"] == "abandoned"
        back.send({"type": "move", "move": "AS", "version": 0})
        assert back.wait_type("error")["code"] in ("not_playing", "stale")
