"""Quick play: the pool pairs people over real sockets, in one process and across two."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    Player,
    ServerThread,
    eventually,
    http,
    new_token,
    server_process,
)
from tests.web.test_services import TwoServers, postgres, redis  # noqa: F401 (fixtures)
from websockets.sync.client import ClientConnection, connect

from basra.server.app import AppConfig
from basra.server.features.pairing import QuickPlayConfig, bot_level, plan_tables, window
from basra.server.features.quickplay_store import SeekRow

QUICK = QuickPlayConfig(pair_every=0.1, heartbeat=0.3, bot_after_bounds=(0, 300))


class Seeker:
    """A ``WS /ws/play`` client."""

    def __init__(self, base: str, token: str | None = None, name: str = "Amal") -> None:
        self.token = token or new_token(base)
        self.ws: ClientConnection = connect(
            base.replace("http", "ws") + "/ws/play", open_timeout=10, proxy=None, legacy=True
        )
        self.frames: list[str] = []
        self.send({"type": "hello", "token": self.token, "name": name})

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def seek(self, **form: Any) -> dict[str, Any]:
        self.send({"type": "seek", **form})
        return self.wait("seeking", "error", "matched")

    def wait(self, *kinds: str, timeout: float = 15) -> dict[str, Any]:
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            assert left > 0, f"no {kinds} message: {self.frames[-3:]}"
            text = self.ws.recv(timeout=left)
            assert isinstance(text, str)
            self.frames.append(text)
            message: dict[str, Any] = json.loads(text)
            if message["type"] in kinds:
                return message

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[str]:
    config = AppConfig(database=str(tmp_path / "basra.db"), service=FAST, quickplay=QUICK)
    with ServerThread(config) as running:
        yield running.url


def seek(**changes: Any) -> SeekRow:
    base = SeekRow("a", "a", "a", "egyptian", 2, False, 25.0, 8.0, 0.0, None, 0.0)
    return SeekRow(**{**base.__dict__, **changes})


# ------------------------------------------------------------------ the pairing itself


def no_pools(base: str) -> None:
    """Nobody is waiting in any pool, as the home page's counts say."""
    assert http(f"{base}/api/quickplay")[1]["pools"] == []


def test_the_rating_window_widens_until_it_takes_anyone() -> None:
    config = QuickPlayConfig(window_start=2, window_growth=0.5, window_full_after=30)
    assert [window(config, t) for t in (0, 4, 29)] == [2.0, 4.0, 16.5]
    assert window(config, 30) == float("inf")


def test_a_pass_pairs_the_nearest_ratings_within_the_oldest_seeks_window() -> None:
    seeks = [
        seek(ticket="old", mu=25.0, joined_at=0.0),
        seek(ticket="far", mu=35.0, joined_at=1.0),
        seek(ticket="near", mu=26.5, joined_at=2.0),
        seek(ticket="nearer", mu=25.5, joined_at=3.0),
    ]
    groups = plan_tables(seeks, 3.0, QuickPlayConfig())
    assert [[s.ticket for s in g] for g in groups] == [["old", "nearer"]]
    # Twenty seconds on, "far" reaches "near" (its window is 2 + 0.5 * 19 = 11.5).
    later = plan_tables(seeks, 20.0, QuickPlayConfig())
    assert [[s.ticket for s in g] for g in later] == [["old", "nearer"], ["far", "near"]]


def test_bots_fill_only_for_those_who_allowed_it_once_their_wait_is_over() -> None:
    lonely = seek(ticket="lonely", mu=40.0, bot_after=10.0)
    assert plan_tables([lonely], 5.0, QuickPlayConfig()) == []
    assert [[s.ticket for s in g] for g in plan_tables([lonely], 10.0, QuickPlayConfig())] == [
        ["lonely"]
    ]
    four = [
        seek(ticket="a", players=4, bot_after=5.0),
        seek(ticket="b", players=4, joined_at=1.0, bot_after=5.0),
        seek(ticket="c", players=4, joined_at=1.0),  # no bots for c
    ]
    groups = plan_tables(four, 8.0, QuickPlayConfig())
    assert [[s.ticket for s in g] for g in groups] == [["a", "b"]]


def test_a_bot_of_similar_strength_fills_the_seat() -> None:
    assert bot_level("egyptian", 2, False, 15.0) == "easy"
    assert bot_level("lebanese", 4, True, 27.0) == "hard"


# ------------------------------------------------------------------ over sockets


def test_two_people_pressing_play_now_meet_at_one_rated_table(quick: str) -> None:
    amal, badr = Seeker(quick, name="Amal"), Seeker(quick, name="Badr")
    first = amal.seek(variant="lebanese", players=2)
    assert first["type"] == "seeking" and first["rating"]["mu"] == 25.0
    assert first["window"] == QUICK.window_start
    badr.seek(variant="lebanese", players=2)
    one, two = amal.wait("matched"), badr.wait("matched")
    assert one["table"] == two["table"] and {one["seat"], two["seat"]} == {0, 1}
    status, table = http(f"{quick}/api/tables/{one['table']}")
    assert status == 200 and table["rated"] and table["clock"] == {"move": 30, "reserve": 60}
    assert table["variant"] == "lebanese" and not table["hints"] and table["status"] == "playing"
    assert sorted(s["name"] for s in table["seats"]) == ["Amal", "Badr"]
    at_table = Player(quick, one["table"], amal.token, "Amal")
    assert at_table.wait_type("state")["view"]["seat"] == one["seat"]
    # The pool is empty again; seeking again from a new connection (a reload) while
    # that table is in play leads back to it.
    time.sleep(1.1)  # the counts are read at most once a second
    no_pools(quick)
    assert amal.seek(variant="egyptian")["code"] == "matched"  # this connection is done
    back = Seeker(quick, amal.token).seek(variant="egyptian", players=3)
    assert back["type"] == "matched" and back["table"] == one["table"]


def test_a_person_at_a_rated_table_in_play_cannot_seek(quick: str) -> None:
    token = new_token(quick)
    status, made = http(
        f"{quick}/api/tables", {"name": "Amal", "rated": True, "seats": None}, token=token
    )
    assert status == 201
    refused = Seeker(quick, token).seek(variant="egyptian")
    assert refused["code"] == "at_table" and refused["table"] == made["id"]
    casual = new_token(quick)
    http(f"{quick}/api/tables", {"name": "Badr"}, token=casual)
    assert Seeker(quick, casual).seek(variant="egyptian")["type"] == "seeking"


def test_the_home_page_counts_and_cancel_leaves_the_pool(quick: str) -> None:
    amal = Seeker(quick)
    amal.seek(variant="syrian", players=3)
    pools = http(f"{quick}/api/quickplay")[1]["pools"]
    deadline = time.time() + 5
    while not pools and time.time() < deadline:
        time.sleep(0.2)
        pools = http(f"{quick}/api/quickplay")[1]["pools"]
    assert pools == [{"variant": "syrian", "players": 3, "teams": False, "waiting": 1}]
    amal.send({"type": "cancel"})
    assert amal.wait("cancelled")["type"] == "cancelled"
    # The counts are read at most once a second: they said one was waiting, until
    # they are read again.
    eventually(lambda: no_pools(quick))


def test_a_bot_fills_the_table_after_the_chosen_wait(quick: str) -> None:
    amal = Seeker(quick)
    amal.seek(variant="egyptian", players=2, bot_after=1)
    matched = amal.wait("matched", timeout=10)
    _, table = http(f"{quick}/api/tables/{matched['table']}")
    bots = [s for s in table["seats"] if s["kind"] == "bot"]
    assert len(bots) == 1 and bots[0]["level"] == "medium" and table["rated"]


def test_a_reconnect_keeps_its_place_and_a_second_connection_takes_over(quick: str) -> None:
    token = new_token(quick)
    first = Seeker(quick, token)
    seeking = first.seek(variant="yemeni", players=4, teams=True)
    first.close()
    time.sleep(0.5)
    back = Seeker(quick, token)
    again = back.seek(variant="yemeni", players=4, teams=True)
    assert again["ticket"] == seeking["ticket"] and again["waited"] >= 0.5
    other = Seeker(quick, token)
    other.seek(variant="yemeni", players=4, teams=True)
    assert back.wait("replaced")["type"] == "replaced"
    # Another kind replaces the seek: a new ticket, a new wait.
    other.send({"type": "seek", "variant": "yemeni", "players": 4})
    newer = other.wait("seeking")
    assert newer["ticket"] != seeking["ticket"] and newer["waited"] < 0.5


def test_bad_seeks_are_refused_naming_the_field(quick: str) -> None:
    amal = Seeker(quick)
    cases = [
        ({"variant": "chess"}, "variant"),
        ({"players": 5}, "players"),
        ({"players": "2"}, "players"),
        ({"players": 2, "teams": True}, "teams"),
        ({"bot_after": -1}, "bot_after"),
        ({"bot_after": 10_000}, "bot_after"),
        ({"bot_after": True}, "bot_after"),
        ({"colour": "red"}, "colour"),
    ]
    for form, field in cases:
        answer = amal.seek(**form)
        assert answer["code"] == "bad_seek" and answer["field"] == field, answer
    for frame in ("not json", "[1]", json.dumps({"type": "dance"})):
        amal.send(frame)
        assert amal.wait("error")["code"] in ("bad_message", "unknown_type")
    amal.send({"type": "ping"})
    assert amal.wait("pong")["type"] == "pong"
    stranger = connect(
        quick.replace("http", "ws") + "/ws/play", open_timeout=10, proxy=None, legacy=True
    )
    stranger.send(json.dumps({"type": "hello", "token": "nobody"}))
    assert json.loads(stranger.recv(timeout=5))["code"] == "signed_out"


def test_the_pool_pairs_across_two_server_processes() -> None:
    with TwoServers() as (one, two):
        amal, badr = Seeker(one, name="Amal"), Seeker(two, name="Badr")
        amal.seek(variant="egyptian", players=2)
        badr.seek(variant="egyptian", players=2)
        a, b = amal.wait("matched", timeout=20), badr.wait("matched", timeout=20)
        assert a["table"] == b["table"]
        player = Player(two, a["table"], amal.token, "Amal")
        assert player.wait_type("state")["view"]["seat"] == a["seat"]


@pytest.mark.services
def test_the_pool_pairs_across_two_processes_on_postgresql_and_redis(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
) -> None:
    options = ("--redis", redis, "--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        people = [Seeker(url, name=f"P{k}") for k, url in enumerate((one, two, one, two))]
        for person in people:
            person.seek(variant="lebanese", players=4, teams=True)
        matched = [p.wait("matched", timeout=20) for p in people]
        assert len({m["table"] for m in matched}) == 1
        assert sorted(m["seat"] for m in matched) == [0, 1, 2, 3]
        _, table = http(f"{two}/api/tables/{matched[0]['table']}")
        assert table["teams"]
        assert table["rated"]
        assert all(s["kind"] == "person" for s in table["seats"])
