"""Friends: follows, mutual follows, blocks, quotas, presence (one process and two), and
quick play never seating a blocked pair."""

from __future__ import annotations

import asyncio
import importlib
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    TEST_LIMITS,
    Player,
    ServerThread,
    code,
    create_table,
    http,
    new_token,
    refusal,
    server_process,
    started_env,
)
from tests.web.test_services import TwoServers, postgres, redis  # noqa: F401 (fixtures)

from basra.server.app import AppConfig
from basra.server.connection import Connection
from basra.server.env import Env
from basra.server.features.friends import Presence, PresenceConfig
from basra.server.features.pairing import QuickPlayConfig, plan_tables
from basra.server.features.quickplay_store import SeekRow
from basra.server.identity import Caller
from basra.server.quotas import Quotas, Rate, RateLimitError
from basra.server.runtime.pubsub import Bus, MemoryHub


async def person(env: Env) -> str:
    return (await env.identities.create("127.0.0.1")).caller.identity


def test_follows_make_friends_when_mutual_and_blocks_undo_and_refuse_them() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal, badr, carl = await person(env), await person(env), await person(env)
        friends = env.friends
        link = await friends.link(amal, "http://site/")
        assert link["url"] == f"http://site/?follow={link['code']}"
        try:  # the QR code: an SVG with segno (the web extra), else none
            importlib.import_module("segno")
        except ImportError:
            assert link["qr"] is None
        else:
            assert "<svg" in link["qr"]
        assert (await friends.link(amal, "http://site"))["code"] == link["code"]  # made once
        # Badr follows Amal through her link: not friends until she follows back.
        after = await friends.follow(badr, {"code": link["code"]})
        assert after["following"] and not after["follower"] and not after["friends"]
        assert (await friends.listing(amal))["friends"] == []
        back = await friends.follow(amal, await code(env, badr))
        assert back["friends"] and back["follower"]
        listed = await friends.listing(amal)
        assert [f["code"] for f in listed["friends"]] == [(await code(env, badr))["code"]]
        # Following twice changes nothing; unfollowing ends the friendship.
        await friends.follow(amal, await code(env, badr))
        assert (await friends.unfollow(amal, await code(env, badr)))["friends"] is False
        assert (await friends.listing(badr))["friends"] == []
        assert (await friends.listing(badr))["following"][0]["code"] == link["code"]
        # Carl blocks Badr: Badr cannot follow Carl, nor Carl Badr, until unblocked.
        await friends.follow(badr, await code(env, carl))
        blocked = await friends.block(carl, await code(env, badr))
        assert blocked["blocking"] and not blocked["follower"]  # his follow went
        error = await refusal(friends.follow(badr, await code(env, carl)))
        assert error.code == "blocked"
        assert (await refusal(friends.follow(carl, await code(env, badr)))).code == "blocked"
        assert await env.store.friends.blocked_pairs([amal, badr, carl]) == {
            frozenset((badr, carl))
        }
        assert [p["code"] for p in (await friends.listing(carl))["blocking"]] == [
            (await code(env, badr))["code"]
        ]
        await friends.unblock(carl, await code(env, badr))
        assert (await friends.follow(badr, await code(env, carl)))["following"]
        # Errors in words, naming the field.
        for body, field in (
            ({"code": 5}, "code"),
            ({"username": ""}, "username"),
            ({}, "username"),
            ([], "username"),
            ({"table": "x", "seat": "0"}, "seat"),
            (await code(env, amal), "code"),  # herself
        ):
            error = await refusal(friends.follow(amal, body))
            assert error.code == "bad_friend", (body, error)
            assert (error.extra or {})["field"] == field, (body, error)
        assert (await refusal(friends.follow(amal, {"code": "nobody"}))).code == "no_such_player"
        hide = await refusal(friends.hide(amal, {"hidden": "yes"}))
        assert (hide.extra or {})["field"] == "hidden"
        await env.close()

    asyncio.run(scenario())


def test_follows_and_blocks_have_daily_quotas_per_person_and_per_address() -> None:
    limits = replace(
        TEST_LIMITS,
        follows_per_identity=Rate(2, 86400),
        follows_per_address=Rate(3, 86400),
        blocks_per_identity=Rate(1, 86400),
    )

    async def scenario() -> None:
        env = await started_env(replace(FAST, limits=limits))
        people = [await person(env) for _ in range(5)]
        amal, badr = people[0], people[1]
        for other in people[1:3]:
            await env.friends.follow(amal, await code(env, other), "198.51.100.7")
        error = await refusal(env.friends.follow(amal, await code(env, people[3]), "198.51.100.7"))
        assert isinstance(error, RateLimitError) and error.limit == "follows"
        await env.friends.follow(badr, await code(env, people[3]), "198.51.100.7")
        # The address has made three: Badr's second follow from it is refused.
        error = await refusal(env.friends.follow(badr, await code(env, people[4]), "198.51.100.7"))
        assert isinstance(error, RateLimitError) and "address" in error.message
        await env.friends.block(amal, await code(env, people[4]))
        error = await refusal(env.friends.block(amal, await code(env, people[3])))
        assert isinstance(error, RateLimitError) and error.limit == "blocks"
        await env.close()

    asyncio.run(scenario())


def test_a_days_quota_is_not_forgotten_by_the_sweep_of_idle_buckets() -> None:
    now = [0.0]
    quotas = Quotas(clock=lambda: now[0])
    day = Rate(2, 86400)
    quotas.take("follows", "amal", day, "follows")
    quotas.take("follows", "amal", day, "follows")
    now[0] = 2 * 3600.0  # two idle hours: the bucket has refilled a tenth of one
    quotas.take("other", "x", Rate(1, 1), "sweeps")
    try:
        quotas.take("follows", "amal", day, "follows")
    except RateLimitError as error:
        assert error.retry_after > 3600
    else:
        raise AssertionError("a day's quota was forgotten after two hours")
    now[0] = 86400.0 * 2
    quotas.take("other", "x", Rate(1, 1), "sweeps")
    assert ("follows", "amal") not in quotas._buckets  # full again: forgotten
    quotas.take("follows", "amal", day, "follows")


def test_presence_online_away_after_the_grace_and_across_processes_on_a_clock() -> None:
    async def scenario() -> None:
        now = [100.0]
        hub = MemoryHub()
        config = PresenceConfig(grace=15, beat=10, ttl=30)
        one = Presence(Bus(hub), "one", config, clock=lambda: now[0])
        two = Presence(Bus(hub.attach()), "two", config, clock=lambda: now[0])
        await one.bus.start("one")
        await two.bus.start("two")
        one.changed("amal", True)
        await asyncio.sleep(0.05)  # the notice crosses
        assert one.online("amal") and two.online("amal") and not two.online("badr")
        one.changed("amal", False)
        now[0] += 10
        assert one.online("amal") and two.online("amal")  # in her grace
        await one.tick()
        await asyncio.sleep(0.05)
        now[0] += 6
        assert not one.online("amal")
        assert two.online("amal")  # the last beat said so: until the next one
        await one.tick()  # her grace has run out: gone
        await asyncio.sleep(0.05)
        assert not two.online("amal")
        # A process that stops beating is forgotten after the ttl.
        two.changed("badr", True)
        await asyncio.sleep(0.05)
        assert one.online("badr")
        now[0] += 31
        assert not one.online("badr") and two.online("badr")
        await one.bus.close()
        await two.bus.close()

    asyncio.run(scenario())


def test_presence_comes_from_the_sockets_held() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal = await person(env)
        seen: list[tuple[str, bool]] = []
        env.connections.watch(lambda who, present: seen.append((who, present)))
        first = Connection(Caller(amal, "d1"))
        second = Connection(Caller(amal, "d2"))
        env.connections.add(first)
        env.connections.add(second)
        env.connections.discard(first)
        assert seen == [(amal, True)] and env.presence.online(amal)
        env.connections.discard(second)
        env.connections.discard(second)
        assert seen == [(amal, True), (amal, False)]
        assert env.presence.online(amal)  # in her grace
        await env.close()

    asyncio.run(scenario())


def test_a_friend_is_online_then_playing_with_a_table_to_watch_then_away(tmp_path: Path) -> None:
    config = AppConfig(
        database=str(tmp_path / "f.db"), service=FAST, presence=PresenceConfig(grace=0.5)
    )
    with ServerThread(config) as server:
        base = server.url
        amal, badr, carl = new_token(base), new_token(base), new_token(base)

        def post(path: str, token: str, body: Any) -> dict[str, Any]:
            status, answer = http(f"{base}/api/friends/{path}", body, token=token)
            assert status == 200, answer
            return dict(answer)

        def friends_of(token: str) -> list[dict[str, Any]]:
            status, answer = http(f"{base}/api/friends", token=token)
            assert status == 200, answer
            return list(answer["friends"])

        badr_code = http(f"{base}/api/friends/link", token=badr)[1]["code"]
        amal_code = http(f"{base}/api/friends/link", token=amal)[1]["code"]
        post("follow", amal, {"code": badr_code})
        assert post("follow", badr, {"code": amal_code})["friends"]
        assert friends_of(amal)[0]["status"] == "away"
        # Badr opens a table and waits at it: online.
        table = create_table(base, badr, "Badr", seats=[{"kind": "person"}] * 2)
        seated = Player(base, table, badr, "Badr")
        seated.wait_type("state")
        deadline = time.time() + 10
        while friends_of(amal)[0]["status"] != "online":
            assert time.time() < deadline
            time.sleep(0.05)
        # Carl sits down: the game is on, and Amal may watch it.
        other = Player(base, table, carl, "Carl")
        other.wait_type("state")
        other.send({"type": "join", "seat": 1})
        while friends_of(amal)[0]["status"] != "playing":
            assert time.time() < deadline
            time.sleep(0.05)
        assert friends_of(amal)[0]["table"] == table
        # Carl is not a friend: he sees nobody. Badr hides his presence: away to Amal.
        assert friends_of(carl) == []
        assert post("presence", badr, {"hidden": True}) == {"hidden": True}
        assert friends_of(amal)[0] == {**friends_of(amal)[0], "status": "away", "table": None}
        post("presence", badr, {"hidden": False})
        assert friends_of(amal)[0]["status"] == "playing"
        # Badr leaves: away once his grace has passed.
        seated.ws.close()
        while friends_of(amal)[0]["status"] != "away":
            assert time.time() < deadline
            time.sleep(0.05)
        other.ws.close()
        # Errors over HTTP: the field named, the status right.
        status, body = http(f"{base}/api/friends/follow", {"code": 5}, token=amal)
        assert status == 422 and body["field"] == "code"
        post("block", badr, {"code": amal_code})
        status, body = http(f"{base}/api/friends/follow", {"code": badr_code}, token=amal)
        assert status == 403 and body["error"] == "blocked"
        assert http(f"{base}/api/friends")[0] == 401


def test_presence_crosses_between_two_server_processes() -> None:
    with TwoServers() as (one, two):
        amal, badr = new_token(one), new_token(two)
        amal_code = http(f"{one}/api/friends/link", token=amal)[1]["code"]
        badr_code = http(f"{two}/api/friends/link", token=badr)[1]["code"]
        assert http(f"{one}/api/friends/follow", {"code": badr_code}, token=amal)[0] == 200
        assert http(f"{two}/api/friends/follow", {"code": amal_code}, token=badr)[0] == 200
        table = create_table(one, amal, seats=[{"kind": "person"}] * 2)
        seated = Player(one, table, amal, "Amal")  # her socket is held by process one
        seated.wait_type("state")
        deadline = time.time() + 10
        while http(f"{two}/api/friends", token=badr)[1]["friends"][0]["status"] != "online":
            assert time.time() < deadline
            time.sleep(0.05)
        seated.ws.close()


def seek(ticket: str, mu: float, joined: float) -> SeekRow:
    return SeekRow(ticket, ticket, ticket, "egyptian", 2, False, mu, 8.0, joined, None, 0.0)


def test_quick_play_never_seats_a_blocked_pair_when_a_third_is_waiting() -> None:
    config = QuickPlayConfig()
    # Amal and Badr are nearest in rating and waited longest, but Amal blocks Badr.
    seeks = [seek("amal", 25.0, 0.0), seek("badr", 25.1, 1.0), seek("carl", 27.0, 2.0)]
    groups = plan_tables(seeks, 3.0, config, {frozenset(("amal", "badr"))})
    assert [[s.ticket for s in g] for g in groups] == [["amal", "carl"]]
    assert [[s.ticket for s in g] for g in plan_tables(seeks, 3.0, config)] == [["amal", "badr"]]
    # Alone together, the pair waits (for someone else, or the bots they allowed).
    assert plan_tables(seeks[:2], 100.0, config, {frozenset(("amal", "badr"))}) == []


def test_a_follow_me_code_can_be_reported_and_a_sanctioned_friend_is_away_at_once() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal, badr = await person(env), await person(env)
        await env.friends.follow(amal, await code(env, badr))
        await env.friends.follow(badr, await code(env, amal))
        report = await env.moderation.report(amal, {**await code(env, badr), "reason": "spam"})
        assert report.target == badr
        error = await refusal(
            env.moderation.report(amal, {**await code(env, amal), "reason": "spam"})
        )
        assert error.code == "bad_report" and (error.extra or {})["field"] == "code"
        env.presence.changed(badr, True)
        assert (await env.friends.listing(amal))["friends"][0]["status"] == "online"
        await env.moderation.sanction(badr, "banned", "spam", None)
        assert (await env.friends.listing(amal))["friends"][0]["status"] == "away"
        await env.close()

    asyncio.run(scenario())


def test_the_home_pages_socket_makes_a_person_present(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    config = AppConfig(
        database=str(tmp_path / "p.db"), service=FAST, presence=PresenceConfig(grace=0.3)
    )
    with ServerThread(config) as server:
        base = server.url
        amal, badr = new_token(base), new_token(base)
        amal_code = http(f"{base}/api/friends/link", token=amal)[1]["code"]
        badr_code = http(f"{base}/api/friends/link", token=badr)[1]["code"]
        http(f"{base}/api/friends/follow", {"code": badr_code}, token=amal)
        http(f"{base}/api/friends/follow", {"code": amal_code}, token=badr)
        with connect(base.replace("http", "ws") + "/ws/friends", proxy=None) as socket:
            socket.send(json.dumps({"type": "hello", "token": badr}))
            socket.send('{"type": "ping"}')
            assert "pong" in str(socket.recv(timeout=5))
            assert http(f"{base}/api/friends", token=amal)[1]["friends"][0]["status"] == "online"
        deadline = time.time() + 10
        while http(f"{base}/api/friends", token=amal)[1]["friends"][0]["status"] != "away":
            assert time.time() < deadline
            time.sleep(0.05)
        with connect(base.replace("http", "ws") + "/ws/friends", proxy=None) as socket:
            socket.send('{"type": "hello", "token": "nonsense"}')
            assert "signed_out" in str(socket.recv(timeout=5))


def test_quick_play_pairs_a_blocked_person_with_the_third_who_waits(tmp_path: Path) -> None:
    from tests.web.test_quickplay import QUICK, Seeker

    config = AppConfig(database=str(tmp_path / "q.db"), service=FAST, quickplay=QUICK)
    with ServerThread(config) as server:
        base = server.url
        amal, badr, carl = (Seeker(base, name=n) for n in ("Amal", "Badr", "Carl"))
        badr_code = http(f"{base}/api/friends/link", token=badr.token)[1]["code"]
        status, _ = http(f"{base}/api/friends/block", {"code": badr_code}, token=amal.token)
        assert status == 200
        assert amal.seek(variant="egyptian")["type"] == "seeking"
        assert badr.seek(variant="egyptian")["type"] == "seeking"
        time.sleep(1.0)  # ten pairing passes: the two who wait are never seated together
        assert carl.seek(variant="egyptian")["type"] == "seeking"
        one, other = amal.wait("matched"), carl.wait("matched")
        assert one["table"] == other["table"]
        seated = http(f"{base}/api/tables/{one['table']}")[1]["seats"]
        assert sorted(s["name"] for s in seated) == ["Amal", "Carl"]
        # Badr waits on, told of his place in the pool and of no table.
        renewed = badr.wait("seeking", "matched", timeout=5)
        assert renewed["type"] == "seeking"
        for seeker in (amal, badr, carl):
            seeker.close()


@pytest.mark.services
def test_presence_and_play_cross_two_processes_on_postgresql_and_redis(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
) -> None:
    from websockets.sync.client import connect

    options = ("--redis", redis, "--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        amal, badr, carl = new_token(one), new_token(two), new_token(two)
        amal_code = http(f"{one}/api/friends/link", token=amal)[1]["code"]
        badr_code = http(f"{two}/api/friends/link", token=badr)[1]["code"]
        assert http(f"{one}/api/friends/follow", {"code": badr_code}, token=amal)[0] == 200
        assert http(f"{two}/api/friends/follow", {"code": amal_code}, token=badr)[0] == 200

        def badr_seen_as(status: str) -> dict[str, Any]:
            deadline = time.time() + 15
            while True:
                friend: dict[str, Any] = http(f"{one}/api/friends", token=amal)[1]["friends"][0]
                if friend["status"] == status:
                    return friend
                assert time.time() < deadline, friend
                time.sleep(0.1)

        badr_seen_as("away")
        with connect(two.replace("http", "ws") + "/ws/friends", proxy=None) as socket:
            socket.send(json.dumps({"type": "hello", "token": badr}))
            badr_seen_as("online")  # his socket is held by process two, Amal asks process one
            table = create_table(two, badr, "Badr", seats=[{"kind": "person"}] * 2)
            other = Player(two, table, carl, "Carl")
            other.wait_type("state")
            other.send({"type": "join", "seat": 1})
            assert badr_seen_as("playing")["table"] == table
            other.ws.close()


def test_odd_bodies_are_refused_in_words_naming_the_field(tmp_path: Path) -> None:
    config = AppConfig(database=str(tmp_path / "o.db"), service=FAST)
    with ServerThread(config) as server:
        base = server.url
        amal = new_token(base)
        odd: list[tuple[Any, int, str | None]] = [
            ({"username": 5}, 422, "username"),
            ({"username": "x" * 5000}, 404, None),
            ({"code": "x" * 1000}, 422, "code"),
            ({"code": None}, 422, "code"),
            ({"table": 5, "seat": 0}, 422, "table"),
            ({"table": "nope", "seat": True}, 422, "seat"),
            ({"table": "nope", "seat": 0}, 404, None),
            ({"name": "Badr"}, 422, "username"),
            ([1, 2], 422, "username"),
            ("text", 422, "username"),
            (None, 422, "username"),
        ]
        for path in ("follow", "unfollow", "block", "unblock", "relation"):
            for body, status, field in odd:
                got, answer = http(f"{base}/api/friends/{path}", body, token=amal, method="POST")
                assert got == status, (path, body, answer)
                assert answer["message"], (path, body)
                if field is not None:
                    assert answer["field"] == field, (path, body, answer)
        got, answer = http(f"{base}/api/friends/presence", {"hidden": 1}, token=amal)
        assert got == 422 and answer["field"] == "hidden"


def test_a_friend_at_a_hidden_table_is_playing_with_no_table_to_watch(tmp_path: Path) -> None:
    config = AppConfig(database=str(tmp_path / "h.db"), service=FAST)
    with ServerThread(config) as server:
        base = server.url
        amal, badr = new_token(base), new_token(base)
        amal_code = http(f"{base}/api/friends/link", token=amal)[1]["code"]
        badr_code = http(f"{base}/api/friends/link", token=badr)[1]["code"]
        http(f"{base}/api/friends/follow", {"code": badr_code}, token=amal)
        http(f"{base}/api/friends/follow", {"code": amal_code}, token=badr)
        deal = http(f"{base}/api/daily", token=badr)[1]["deals"][0]["id"]
        status, started = http(f"{base}/api/daily/{deal}", {"name": "Badr"}, token=badr)
        assert status == 201
        attempt = Player(base, started["table"], badr, "Badr")  # a daily attempt: hidden
        attempt.wait_type("state")
        deadline = time.time() + 10
        while (friend := http(f"{base}/api/friends", token=amal)[1]["friends"][0])[
            "status"
        ] != "playing":
            assert time.time() < deadline, friend
            time.sleep(0.05)
        assert friend["table"] is None
        assert started["table"] not in json.dumps(http(f"{base}/api/friends", token=amal)[1])
        attempt.ws.close()
