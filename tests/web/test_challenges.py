"""Challenges: made, seen at once (sockets and notifications), accepted into a table through
the lifecycle, declined, expired, several invitees with bots in the seats nobody took,
blocks, quotas, words, reports; across two processes."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
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
    play_to_end,
    refusal,
    server_process,
    started_env,
)
from tests.web.test_services import TwoServers, postgres, redis  # noqa: F401 (fixtures)

from basra.server.app import AppConfig
from basra.server.connection import Connection
from basra.server.env import Env
from basra.server.features.challenges import ChallengeConfig
from basra.server.identity import Caller
from basra.server.quotas import Rate, RateLimitError
from basra.server.store.rows import SeatKind, TableStatus
from basra.server.table.lifecycle import rotated


async def person(env: Env, name: str) -> str:
    who = (await env.identities.create("127.0.0.1")).caller.identity
    await env.store.identities.name(who, name)
    return who


def socket_of(env: Env, who: str) -> Connection:
    connection = Connection(Caller(who, "device"))
    env.connections.add(connection)
    return connection


def told(connection: Connection, kind: str) -> list[dict[str, Any]]:
    out = []
    while not connection.outbox.empty():
        message = connection.outbox.get_nowait()
        assert isinstance(message, dict)
        if message["type"] == kind:
            out.append(message)
    return out


async def kinds(env: Env, who: str) -> list[str]:
    return [i["kind"] for i in (await env.notifications.listing(who))["items"]]


def test_a_challenge_is_seen_at_once_and_accepting_makes_the_table_with_both_seated() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal, badr = await person(env, "Amal"), await person(env, "Badr")
        badr_socket = socket_of(env, badr)
        made = await env.challenges.make(
            amal,
            {
                "to": [await code(env, badr)],
                "variant": "egyptian",
                "rules": {"target": 21},
                "clock": {"move": 30, "reserve": 60},
                "text": "  a game? ",
            },
            "198.51.100.7",
        )
        assert made["status"] == "waiting" and made["mine"] and made["text"] == "a game?"
        assert made["to"] == [{"name": "Badr", "answer": "waiting"}]
        live = told(badr_socket, "challenge")[0]["challenge"]
        assert live["id"] == made["id"] and live["you"] == "waiting" and not live["mine"]
        assert await kinds(env, badr) == ["challenge"]
        item = (await env.notifications.listing(badr))["items"][0]
        assert item["data"]["from"] == "Amal" and item["data"]["challenge"] == made["id"]
        incoming = (await env.challenges.listing(badr))["incoming"]
        assert [c["id"] for c in incoming] == [made["id"]]
        # Accepting makes the table: both seated, playing at once, with the settings chosen.
        after = await env.challenges.answer(badr, made["id"], "accept")
        assert after["status"] == "accepted" and after["table"]
        row = await env.store.tables.load(after["table"])
        assert row is not None and row.status == TableStatus.PLAYING
        assert [(s.identity, s.name) for s in row.seats] == [(amal, "Amal"), (badr, "Badr")]
        assert row.rules == {"target": 21} and row.clock_move == 30
        assert row.created_by == amal and row.created_from == "198.51.100.7"
        assert told(badr_socket, "challenge")[-1]["challenge"]["table"] == row.id
        assert await kinds(env, amal) == ["challenge_accepted"]
        # Answered: a second answer, or a cancel, is refused in words.
        assert (await refusal(env.challenges.answer(badr, made["id"], "decline"))).code == (
            "challenge_over"
        )
        assert (await refusal(env.challenges.answer(amal, made["id"], "cancel"))).code == (
            "challenge_over"
        )
        carl = await person(env, "Carl")
        error = await refusal(env.challenges.answer(carl, made["id"], "accept"))
        assert error.code == "no_such_challenge"
        await env.close()

    asyncio.run(scenario())


def test_declined_and_expired_challenges_are_told_to_the_maker_and_shown_as_such() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal, badr = await person(env, "Amal"), await person(env, "Badr")
        made = await env.challenges.make(amal, {"to": await code(env, badr)})
        after = await env.challenges.answer(badr, made["id"], "decline")
        assert after["status"] == "declined" and after["table"] is None
        assert await kinds(env, amal) == ["challenge_declined"]
        item = (await env.notifications.listing(amal))["items"][0]
        assert item["data"]["by"] == "Badr"
        # One that nobody answers expires; listed as expired even before the sweep.
        clock = [time.time()]
        env.challenges.clock = lambda: clock[0]
        late = await env.challenges.make(amal, {"to": await code(env, badr)})
        clock[0] += 601
        shown = (await env.challenges.listing(badr))["incoming"][0]
        assert shown["id"] == late["id"] and shown["status"] == "expired"
        assert shown["you"] == "expired"
        assert await env.challenges.sweep() == 1
        assert await env.challenges.sweep() == 0
        assert (await env.challenges.one(amal, late["id"]))["status"] == "expired"
        assert (await kinds(env, amal))[0] == "challenge_expired"
        error = await refusal(env.challenges.answer(badr, late["id"], "accept"))
        assert error.code == "challenge_over" and "expired" in error.message
        # A waiting challenge may be cancelled by its maker, and by nobody else.
        third = await env.challenges.make(amal, {"to": await code(env, badr)})
        error = await refusal(env.challenges.answer(badr, third["id"], "cancel"))
        assert error.code == "not_allowed"
        assert (await env.challenges.answer(amal, third["id"], "cancel"))["status"] == "cancelled"
        await env.close()

    asyncio.run(scenario())


def test_a_four_seat_challenge_fills_the_seats_not_taken_with_bots_once_all_answered() -> None:
    async def scenario() -> None:
        env = await started_env(replace(FAST, bot_delay=5.0))
        amal = await person(env, "Amal")
        badr, carl, dina = [await person(env, n) for n in ("Badr", "Carl", "Dina")]
        clock = [time.time()]
        env.challenges.clock = lambda: clock[0]
        made = await env.challenges.make(
            amal,
            {
                "to": [await code(env, w) for w in (badr, carl, dina)],
                "players": 4,
                "teams": True,
                "level": "hard",
            },
        )
        assert (await env.challenges.answer(badr, made["id"], "accept"))["status"] == "waiting"
        assert (await env.challenges.answer(carl, made["id"], "decline"))["status"] == "waiting"
        assert await kinds(env, amal) == ["challenge_declined"]
        clock[0] += 601  # Dina never answers
        await env.challenges.sweep()
        shown = await env.challenges.one(amal, made["id"])
        assert shown["status"] == "accepted"
        assert [t["answer"] for t in shown["to"]] == ["accepted", "declined", "expired"]
        row = await env.store.tables.load(shown["table"])
        assert row is not None and row.status == TableStatus.PLAYING and row.teams
        assert [(s.kind, s.identity, s.level) for s in row.seats] == [
            (SeatKind.PERSON, amal, None),
            (SeatKind.PERSON, badr, None),
            (SeatKind.BOT, None, "hard"),
            (SeatKind.BOT, None, "hard"),
        ]
        # Nobody accepting a three-seat challenge makes no table.
        none = await env.challenges.make(
            amal, {"to": [await code(env, w) for w in (badr, carl)], "players": 3}
        )
        await env.challenges.answer(badr, none["id"], "decline")
        after = await env.challenges.answer(carl, none["id"], "decline")
        assert after["status"] == "declined" and after["table"] is None
        await env.close()

    asyncio.run(scenario())


def test_blocks_words_settings_and_quotas_refuse_a_challenge_in_words() -> None:
    limits = replace(
        TEST_LIMITS,
        challenges_per_identity=Rate(3, 3600),
        challenges_per_address=Rate(4, 3600),
    )

    async def scenario() -> None:
        env = await started_env(replace(FAST, limits=limits))
        amal, badr, carl = [await person(env, n) for n in ("Amal", "Badr", "Carl")]
        await env.friends.block(badr, await code(env, amal))
        for maker, other in ((amal, badr), (badr, amal)):
            error = await refusal(env.challenges.make(maker, {"to": await code(env, other)}))
            assert error.code == "blocked"
        error = await refusal(
            env.challenges.make(
                carl, {"to": [await code(env, amal), await code(env, badr)], "players": 3}
            )
        )
        assert error.code == "blocked"  # never seated together
        to = await code(env, carl)
        for body, kind, field in (
            ([], "bad_challenge", "to"),
            ({"to": []}, "bad_challenge", "to"),
            ({"to": [to, to], "players": 3}, "bad_challenge", "to"),
            ({"to": [to], "level": "godlike"}, "bad_challenge", "level"),
            ({"to": [to], "text": "x" * 141}, "bad_challenge", "text"),
            ({"to": [to], "text": "fu\u0441k"}, "refused_word", "text"),
            ({"to": [to], "players": 5}, "bad_settings", "players"),
            ({"to": [to], "variant": "chess"}, "bad_settings", "variant"),
            ({"to": [to], "rated": True, "rules": {"basra_points": 5}}, "bad_settings", "rules"),
            ({"to": [to], "clock": {"move": "x"}}, "bad_settings", "clock.move"),
            ({"to": [{"username": "nobody_here"}]}, "no_such_player", None),
        ):
            error = await refusal(env.challenges.make(amal, body))
            assert error.code == kind, (body, error)
            if field is not None:
                assert (error.extra or {})["field"] == field, (body, error)
        for _ in range(3):
            await env.challenges.make(amal, {"to": to}, "198.51.100.7")
        error = await refusal(env.challenges.make(amal, {"to": to}, "198.51.100.7"))
        assert isinstance(error, RateLimitError) and error.limit == "challenges"
        await env.challenges.make(carl, {"to": await code(env, amal)}, "198.51.100.7")
        error = await refusal(
            env.challenges.make(carl, {"to": await code(env, amal)}, "198.51.100.7")
        )
        assert isinstance(error, RateLimitError) and "address" in error.message
        await env.close()

    asyncio.run(scenario())


def test_an_invitee_reports_a_challenge_with_its_words_quoted() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal, badr, carl = [await person(env, n) for n in ("Amal", "Badr", "Carl")]
        made = await env.challenges.make(amal, {"to": await code(env, badr), "text": "come on"})
        report = await env.moderation.report(
            badr, {"challenge": made["id"], "reason": "spam", "note": "again"}
        )
        assert report.target == amal and report.target_name == "Amal"
        assert report.note == f"[challenge {made['id']}: come on] again"
        for who, body in ((carl, {"challenge": made["id"]}), (badr, {"challenge": "nope"})):
            error = await refusal(env.moderation.report(who, {**body, "reason": "spam"}))
            assert error.code == "no_such_challenge"
        await env.close()

    asyncio.run(scenario())


def accept_over_http(base: str, token: str, challenge_id: str) -> dict[str, Any]:
    status, body = http(f"{base}/api/challenges/{challenge_id}/accept", {}, token=token)
    assert status == 200, body
    return body


def test_a_challenge_made_on_one_process_is_seen_and_accepted_on_the_other() -> None:
    from websockets.sync.client import connect

    with TwoServers() as (one, two):
        amal, badr = new_token(one), new_token(two)
        badr_code = http(f"{two}/api/friends/link", token=badr)[1]["code"]
        with connect(two.replace("http", "ws") + "/ws/friends", proxy=None) as socket:
            socket.send(json.dumps({"type": "hello", "token": badr}))
            socket.send('{"type": "ping"}')
            assert "pong" in str(socket.recv(timeout=5))
            status, made = http(f"{one}/api/challenges", {"to": {"code": badr_code}}, token=amal)
            assert status == 200, made
            seen = [json.loads(socket.recv(timeout=5)) for _ in range(2)]
            assert {m["type"] for m in seen} == {"challenge", "notification"}
            accepted = accept_over_http(two, badr, made["id"])
            table = accepted["table"]
            assert http(f"{one}/api/tables/{table}")[1]["status"] == "playing"
        status, listed = http(f"{one}/api/challenges", token=amal)
        assert status == 200 and listed["outgoing"][0]["status"] == "accepted"
        status, refused = http(f"{one}/api/challenges", {"to": {"code": 3}}, token=amal)
        assert status == 422 and refused["field"] == "code"
        assert http(f"{one}/api/challenges/nope", token=amal)[0] == 404
        assert http(f"{one}/api/challenges/{made['id']}/decline", {}, token=badr)[0] == 409


def test_the_expiry_sweep_runs_on_its_own(tmp_path: Any) -> None:
    config = AppConfig(
        database=str(tmp_path / "c.db"),
        service=FAST,
        challenges=ChallengeConfig(expire_after=0.3, sweep_every=0.1),
    )
    with ServerThread(config) as server:
        base = server.url
        amal, badr = new_token(base), new_token(base)
        badr_code = http(f"{base}/api/friends/link", token=badr)[1]["code"]
        made = http(f"{base}/api/challenges", {"to": {"code": badr_code}}, token=amal)[1]
        deadline = time.time() + 10
        while http(f"{base}/api/notifications", token=amal)[1]["items"] == []:
            assert time.time() < deadline
            time.sleep(0.05)
        item = http(f"{base}/api/notifications", token=amal)[1]["items"][0]
        assert item["kind"] == "challenge_expired" and item["data"]["challenge"] == made["id"]


@pytest.mark.services
def test_a_challenge_crosses_two_processes_on_postgresql_and_redis(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
) -> None:
    from websockets.sync.client import connect

    options = ("--redis", redis, "--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        amal, badr = new_token(one), new_token(two)
        badr_code = http(f"{two}/api/friends/link", token=badr)[1]["code"]
        with connect(two.replace("http", "ws") + "/ws/friends", proxy=None) as socket:
            socket.send(json.dumps({"type": "hello", "token": badr}))
            socket.send('{"type": "ping"}')
            assert "pong" in str(socket.recv(timeout=5))
            status, made = http(f"{one}/api/challenges", {"to": {"code": badr_code}}, token=amal)
            assert status == 200, made
            while (seen := json.loads(socket.recv(timeout=10)))["type"] != "challenge":
                pass
            assert seen["challenge"]["id"] == made["id"]
            table = accept_over_http(two, badr, made["id"])["table"]
            assert http(f"{one}/api/tables/{table}")[1]["status"] == "playing"


def test_a_rematch_tap_is_kept_once_shown_to_the_players_and_notified_to_the_others() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal, badr = await person(env, "Amal"), await person(env, "Badr")
        made = await env.challenges.make(amal, {"to": await code(env, badr)})
        table = (await env.challenges.answer(badr, made["id"], "accept"))["table"]
        row = await env.store.tables.load(table)
        assert row is not None
        sockets = {who: socket_of(env, who) for who in (amal, badr)}
        taps = env.store.challenges
        assert await taps.tap(table, amal, 1.0) == {amal}
        assert await taps.tap(table, amal, 2.0) == {amal}  # one tap a person
        await env.challenges.tapped(row, amal, {amal})
        for who in (amal, badr):
            shown = told(sockets[who], "rematch_taps")
            assert shown == [{"type": "rematch_taps", "table": table, "seats": [0]}]
        assert (await kinds(env, badr))[0] == "rematch"
        assert "rematch" not in await kinds(env, amal)
        item = (await env.notifications.listing(badr))["items"][0]
        assert item["data"] == {"table": table, "by": "Amal"} and item["url"] == f"/t/{table}"
        assert await taps.tap(table, badr, 3.0) == {amal, badr}
        # The rematch's seats: each one seat on, partners still partners.
        seats = [replace(s, seat=n) for n, s in enumerate(row.seats)]
        assert [s.identity for s in rotated(seats)] == [badr, amal]
        assert [s.seat for s in rotated(seats)] == [0, 1]
        await env.close()

    asyncio.run(scenario())


def test_the_configuration_file_sets_how_long_challenges_wait() -> None:
    from basra.server.ops.config import ConfigError, parse_config

    config = parse_config("[challenges]\nexpire_after = 120\nsweep_every = 1\n")
    assert config.app.challenges == ChallengeConfig(expire_after=120, sweep_every=1)
    assert parse_config("").app.challenges == ChallengeConfig()
    limits = parse_config("[quotas]\nchallenges_per_identity = { count = 5, per = 60 }\n")
    assert limits.app.service.limits.challenges_per_identity == Rate(5, 60)
    with pytest.raises(ConfigError, match="expire_after"):
        parse_config("[challenges]\nexpire_after = 1\n")


def test_a_table_the_makers_caps_refuse_cancels_the_challenge_in_words() -> None:
    async def scenario() -> None:
        limits = replace(TEST_LIMITS, open_tables_per_identity=0)
        env = await started_env(replace(FAST, limits=limits))
        amal, badr = await person(env, "Amal"), await person(env, "Badr")
        sockets = {who: socket_of(env, who) for who in (amal, badr)}
        made = await env.challenges.make(amal, {"to": await code(env, badr)})
        after = await env.challenges.answer(badr, made["id"], "accept")
        assert after["status"] == "cancelled" and after["table"] is None
        for who in (amal, badr):
            failed = told(sockets[who], "challenge_failed")
            assert failed == [
                {"type": "challenge_failed", "challenge": made["id"], "code": "rate_limited"}
            ]
        assert (await env.challenges.one(amal, made["id"]))["status"] == "cancelled"
        await env.close()

    asyncio.run(scenario())


def test_a_rematch_tapped_on_two_processes_is_one_table_with_seats_rotated() -> None:
    with TwoServers() as (one, two):
        amal_token, badr_token = new_token(one), new_token(two)
        table = create_table(one, amal_token, seats=[{"kind": "person"}] * 2, rules={"target": 1})
        amal = Player(one, table, amal_token, "Amal")
        badr = Player(two, table, badr_token, "Badr")
        badr.wait_type("state")
        badr.send({"type": "join", "seat": 1})
        for player in (amal, badr):
            player.wait(lambda m: m["type"] == "state" and m["view"]["phase"] == "play")
        play_to_end([amal, badr])
        amal.send({"type": "rematch"})  # on process one; shown to Badr's socket on two
        assert badr.wait_type("rematch_taps")["seats"] == [0]
        badr.send({"type": "rematch"})
        again = amal.wait_type("rematch")["table"]
        assert badr.wait_type("rematch")["table"] == again != table
        seats = http(f"{two}/api/tables/{again}")[1]["seats"]
        assert [s["name"] for s in seats] == ["Badr", "Amal"]
        for player in (amal, badr):
            player.close()


def test_one_who_must_wait_before_a_rated_game_can_neither_offer_nor_accept_one() -> None:
    """The playban's one gate (features/reputation) is asked for rated challenges too."""
    from tests.web.test_reputation import given_history

    async def scenario() -> None:
        env = await started_env()
        try:
            amal, badr = await person(env, "Amal"), await person(env, "Badr")
            now = time.time()
            await given_history(
                env, badr, [(now - 60, True, "forfeit"), (now - 90, True, "forfeit")]
            )
            rated = {"variant": "egyptian", "rated": True, "clock": {"move": 30, "reserve": 60}}
            offer = env.challenges.make(badr, {"to": [await code(env, amal)], **rated})
            assert (await refusal(offer)).code == "playban"
            made = await env.challenges.make(amal, {"to": [await code(env, badr)], **rated})
            error = await refusal(env.challenges.answer(badr, made["id"], "accept"))
            assert error.code == "playban" and "minutes" in error.message
            casual = await env.challenges.make(amal, {"to": [await code(env, badr)]})
            assert (await env.challenges.answer(badr, casual["id"], "accept"))["table"]
        finally:
            await env.close()

    asyncio.run(scenario())


def test_a_challenge_may_be_to_a_turn_based_game() -> None:
    """Days a move from a challenge (the page's Pace), as from the table form."""

    async def scenario() -> None:
        env = await started_env()
        try:
            amal, badr = await person(env, "Amal"), await person(env, "Badr")
            made = await env.challenges.make(
                amal, {"to": [await code(env, badr)], "clock": {"days": 3}}
            )
            table = (await env.challenges.answer(badr, made["id"], "accept"))["table"]
            row = await env.store.tables.load(table)
            assert row is not None and row.clock_move == 3 * 86_400 and not row.clock_reserve
            wrong = env.challenges.make(amal, {"to": [await code(env, badr)], "clock": {"days": 5}})
            error = await refusal(wrong)
            assert error.code == "bad_settings" and (error.extra or {}).get("field") == "clock.days"
        finally:
            await env.close()

    asyncio.run(scenario())
