"""Reputation: the share of games finished and the playban, from literal histories; quick
play pairing those who leave often with each other first; the one gate before a rated
game, refusing in words; and a real forfeit counted as a game left."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import FAST, started_env
from tests.web.test_service import drain, spec
from tests.web.test_services import postgres  # noqa: F401 (a fixture)

from basra.server.connection import Connection
from basra.server.env import Env
from basra.server.errors import ProtocolError
from basra.server.features.pairing import QuickPlayConfig, plan_tables
from basra.server.features.quickplay_store import SeekRow
from basra.server.features.reputation.rules import (
    PLAYBAN_FORGET_AFTER,
    PLAYBAN_MOST,
    Played,
    leaves_often,
    playban,
    played_of,
    share,
    strikes,
)
from basra.server.identity import Caller
from basra.server.store.sql.schema import results, tables
from basra.server.stores import open_store
from basra.server.table.clocks import FakeClock
from basra.server.table.live import Client

MINUTE = 60.0
HOUR = 3600.0
T0 = 1_000_000.0


def rated(*marks: str, start: float = T0, every: float = 60.0) -> list[Played]:
    """A history, newest first, from marks oldest first: ``L`` a rated game left, ``F`` one
    finished, ``c``/``l`` a casual game finished/left; one game every ``every`` seconds."""
    games = [Played(start + i * every, mark in "LF", mark in "Ll") for i, mark in enumerate(marks)]
    return games[::-1]


# ---------------------------------------------------------------------- the share


def test_the_share_finished_rests_on_the_newest_hundred_and_shows_from_ten_games() -> None:
    assert share([]) is None
    assert share(rated(*"F" * 9)) is None  # a newcomer shows none
    assert share(rated(*"F" * 10)) is not None
    known = share(rated(*"FFFFL", *"cccl", *"FFFFFFFFFFF"))  # 20 games, 2 left
    assert known is not None and (known.finished, known.games, known.percent) == (18, 20, 90)
    assert known.to_json() == {"finished": 18, "games": 20, "percent": 90}
    # 48 games, 4 left: "91% of 48 games" (rounded down: 100% only when every one was)
    known = share(rated(*"L" * 4, *"F" * 44))
    assert known is not None and (known.percent, known.games) == (91, 48)
    # Only the newest 100 count: 50 old games left are forgotten behind 100 finished.
    known = share(rated(*"L" * 50, *"F" * 100))
    assert known is not None and (known.finished, known.games, known.percent) == (100, 100, 100)


def test_leaving_is_a_forfeit_and_nothing_else() -> None:
    outcomes = {o: played_of(o, True, T0).left for o in ("win", "loss", "draw", "forfeit")}
    assert outcomes == {"win": False, "loss": False, "draw": False, "forfeit": True}


def test_leaves_often_is_three_of_the_newest_twenty() -> None:
    assert not leaves_often(rated(*"LL", *"F" * 5))
    assert leaves_often(rated(*"LlL"))  # casual games left count too
    assert leaves_often(rated(*"LLL", *"F" * 17))
    assert not leaves_often(rated(*"LLL", *"F" * 20))  # the three are older than the newest 20


# ---------------------------------------------------------------------- the playban


def test_the_first_rated_game_left_is_free_then_waits_grow_5_10_20_40_minutes() -> None:
    now = T0 + 10 * MINUTE
    assert playban(rated("L"), T0 + 1) is None
    waits = []
    for leaves in range(2, 7):
        history = rated(*"L" * leaves, every=1.0)
        ban = playban(history, history[0].ended_at + 1)
        assert ban is not None and ban.strikes == leaves
        waits.append(ban.wait / MINUTE)
    assert waits == [5, 10, 20, 40, 80]
    # The wait runs from the game left: over once it has passed.
    history = rated("L", "L", start=now - 6 * MINUTE)
    assert playban(history, now - 1 * MINUTE) is not None
    assert playban(history, now) is None
    # Casual games left cost no wait (they lower the share only).
    assert playban(rated(*"llll", every=1.0), T0 + 10) is None
    # At most a day.
    many = rated(*"L" * 20, every=1.0)
    ban = playban(many, many[0].ended_at + 1)
    assert ban is not None and ban.wait == PLAYBAN_MOST


def test_strikes_decay_with_days_without_leaving_and_with_rated_games_finished() -> None:
    three = rated(*"LLL", every=1.0)
    last = three[0].ended_at
    assert strikes(three, last + 1) == 3
    assert strikes(three, last + PLAYBAN_FORGET_AFTER) == 2
    assert strikes(three, last + 3 * PLAYBAN_FORGET_AFTER) == 0
    # A day later the next one left costs 10 minutes, not 20.
    later = [Played(last + PLAYBAN_FORGET_AFTER + 1, True, True), *three]
    ban = playban(later, last + PLAYBAN_FORGET_AFTER + 2)
    assert ban is not None and (ban.strikes, ban.wait) == (3, 10 * MINUTE)
    # Three rated games finished in a row forget one strike; six, two.
    assert strikes(rated(*"LLL", *"FFF", every=1.0), T0 + 10) == 2
    assert strikes(rated(*"LLL", *"FFFFFF", every=1.0), T0 + 10) == 1
    assert strikes(rated(*"LLL", *"FF", "L", every=1.0), T0 + 10) == 4  # not in a row
    # Casual games finished forgive nothing.
    assert strikes(rated(*"LL", *"cccccc", every=1.0), T0 + 10) == 2
    # So a good record after two games left makes the third one free again.
    history = rated(*"LL", *"FFFFFF", "L", every=HOUR)
    assert playban(history, history[0].ended_at + 1) is None


def test_the_playbans_words_say_how_long_and_why() -> None:
    history = rated(*"LLL", every=1.0)
    ban = playban(history, history[0].ended_at + 4 * MINUTE)
    assert ban is not None
    now = history[0].ended_at + 4 * MINUTE
    assert ban.message(now) == (
        "you left 3 rated games lately, so your next rated game waits 10 minutes: 6 minutes to go"
    )
    assert ban.to_json(now) == {
        "leaves": 3,
        "minutes": 10,
        "minutes_left": 6,
        "until": history[0].ended_at + 10 * MINUTE,
    }
    assert ban.minutes_left(ban.until - 1) == 1  # its last seconds still say a minute


# ---------------------------------------------------------------------- quick play


def seek(ticket: str, mu: float, joined: float) -> SeekRow:
    return SeekRow(ticket, ticket, ticket, "egyptian", 2, False, mu, 8.0, joined, None, 0.0)


def groups_of(plan: list[list[SeekRow]]) -> list[list[str]]:
    return [[s.ticket for s in group] for group in plan]


def test_quick_play_pairs_people_who_leave_often_with_each_other_first() -> None:
    config = QuickPlayConfig()
    # Amal waited longest and Badr is nearest her, but Badr leaves often, as Dina does.
    seeks = [
        seek("amal", 25.0, 0.0),
        seek("badr", 25.1, 1.0),
        seek("carl", 26.0, 2.0),
        seek("dina", 26.5, 3.0),
    ]
    assert groups_of(plan_tables(seeks, 4.0, config)) == [["amal", "badr"], ["carl", "dina"]]
    paired = plan_tables(seeks, 4.0, config, leavers={"badr", "dina"})
    assert groups_of(paired) == [["amal", "carl"], ["badr", "dina"]]
    # Out of reach of each other, they are paired with whoever is near, as before.
    far = [seek("amal", 25.0, 3.0), seek("badr", 25.1, 3.0), seek("dina", 40.0, 3.0)]
    assert groups_of(plan_tables(far, 4.0, config, leavers={"badr", "dina"})) == [["amal", "badr"]]
    # In fours: the leavers fill a table with their own kind first, then the others.
    fours = [seek(name, 25.0 + i / 10, float(i)) for i, name in enumerate("abcdefgh")]
    fours = [replace(s, players=4) for s in fours]
    plan = plan_tables(fours, 9.0, config, leavers={"b", "d", "f"})
    assert groups_of(plan) == [["a", "c", "e", "g"], ["b", "d", "f", "h"]]


# ---------------------------------------------------------------------- the gate


async def given_history(env: Env, identity: str, games: list[tuple[float, bool, str]]) -> None:
    """Store settled results of ``identity``: (ended_at, rated, outcome) each."""
    async with env.store.db.engine.begin() as conn:
        for index, (at, is_rated, outcome) in enumerate(games):
            table_id = f"h{index}{identity[:20]}"
            await conn.execute(
                tables.insert().values(
                    id=table_id,
                    created_at=at - 600,
                    updated_at=at,
                    variant="egyptian",
                    players=2,
                    teams=False,
                    first_dealer=0,
                    hints=False,
                    status="over",
                    rated=is_rated,
                    settled_at=at,
                )
            )
            await conn.execute(
                results.insert().values(
                    table_id=table_id,
                    identity_id=identity,
                    seat=0,
                    variant="egyptian",
                    family="egyptian",
                    kind="2p",
                    rated=is_rated,
                    outcome=outcome,
                    place=0 if outcome == "win" else 1,
                    rounds=3,
                    basras=0,
                    score=0,
                    ended_at=at,
                )
            )


async def refused(work: Any) -> ProtocolError:
    try:
        await work
    except ProtocolError as error:
        return error
    raise AssertionError("not refused")


def test_the_gate_refuses_rated_tables_seats_and_quick_play_in_words() -> None:
    async def scenario() -> None:
        clock = FakeClock(T0 + HOUR)
        env = await started_env(replace(FAST, clock=clock))
        try:
            amal = (await env.identities.create("test")).caller
            badr = (await env.identities.create("test")).caller
            now = clock.now()
            # Badr left two rated games in the last three minutes: five minutes' wait.
            await given_history(
                env,
                badr.identity,
                [(now - 3 * MINUTE, True, "forfeit"), (now - 4 * MINUTE, True, "forfeit")]
                + [(now - HOUR + i, False, "win") for i in range(10)],
            )
            # Making a rated table in his seat: refused, saying why and how long.
            error = await refused(
                env.lifecycle.create(badr, "test", "Badr", spec(rated=True, clock={"move": 30}))
            )
            assert error.code == "playban"
            assert error.message == (
                "you left 2 rated games lately, so your next rated game waits 5 minutes: "
                "2 minutes to go"
            )
            assert error.extra == {
                "playban": {"leaves": 2, "minutes": 5, "minutes_left": 2, "until": now + 2 * MINUTE}
            }
            # A casual table is his to make; a seat at Amal's rated table is not.
            await env.lifecycle.create(badr, "test", "Badr", spec())
            two = [{"kind": "person"}, {"kind": "person"}]
            row = await env.lifecycle.create(
                amal, "test", "Amal", spec(rated=True, seats=two, clock={"move": 30})
            )
            client = Client(row.id, badr, "Badr")
            await env.master.connect(client)
            drain(client)
            await env.messages.handle(client, {"type": "join", "seat": 1})
            errors = [m for m in drain(client) if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["playban"]
            assert errors[0]["playban"]["minutes_left"] == 2
            # Nor quick play (its tables are rated).
            seeker = env.quickplay.seeker(Connection(Caller(badr.identity, "d"), "Badr"))
            error = await refused(env.quickplay.handle(seeker, {"type": "seek"}))
            assert error.code == "playban"
            # His own page shows the wait; his share shows to anyone; Amal's shows none yet.
            own = await env.profiles.profile(badr.identity)
            assert own["playban"]["minutes_left"] == 2
            assert own["finished"] == {"finished": 10, "games": 12, "percent": 83}
            public = await env.profiles.profile(badr.identity, own=False)
            assert "playban" not in public and public["finished"]["percent"] == 83
            fresh = await env.profiles.profile(amal.identity)
            assert fresh["finished"] is None and fresh["playban"] is None
            # Once the wait is over, he may sit at the rated table.
            clock.advance(2 * MINUTE + 1)
            assert (await env.profiles.profile(badr.identity))["playban"] is None
            await env.messages.handle(client, {"type": "join", "seat": 1})
            assert not [m for m in drain(client) if m["type"] == "error"]
            live = env.master.live[row.id]
            seats = env.master.table_json(live, 1)["seats"]
            assert seats[1]["finished"] == {"finished": 10, "games": 12, "percent": 83}
            assert seats[0]["finished"] is None  # Amal: a newcomer
        finally:
            await env.close()

    asyncio.run(scenario())


def test_a_rated_game_left_by_timeouts_counts_as_left_in_the_history() -> None:
    from tests.web.test_clocks import table_of, until

    from basra.server.table.clocks import FORFEIT_IN_A_ROW

    async def scenario() -> None:
        clock = FakeClock()
        service, live, callers, clients = await table_of(
            clock, clock={"move": 5, "reserve": 0}, rated=True
        )
        try:
            sleeper, timeouts = 0, 0
            while timeouts < FORFEIT_IN_A_ROW:
                await until(lambda: live.state.phase == "play", "a round in play")
                if live.state.turn == sleeper:
                    version = live.version
                    await until(lambda: clock.sleepers >= 1, "the timer")
                    clock.advance(5)
                    await until(lambda v=version: live.version > v, "the timeout")
                    timeouts += 1
                else:
                    move = live.state.legal_moves()[0].text()
                    await service.messages.handle(
                        clients[1], {"type": "move", "move": move, "version": live.version}
                    )
            await until(lambda: live.row.settled_at is not None, "the settlement")
            found = await service.reputation.histories([c.identity for c in callers])
            assert found[callers[0].identity] == [Played(clock.now(), True, True)]
            assert found[callers[1].identity] == [Played(clock.now(), True, False)]
            # One game left is free: no wait yet, and no share before ten games.
            await service.reputation.check_rated(callers[0].identity)
            assert (await service.profiles.profile(callers[0].identity))["finished"] is None
        finally:
            await service.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("count", [0, 3])
def test_the_histories_of_a_whole_table_come_in_one_query(count: int) -> None:
    async def scenario() -> None:
        env = await started_env()
        try:
            people = [(await env.identities.create("test")).caller.identity for _ in range(3)]
            for n, identity in enumerate(people):
                await given_history(
                    env, identity, [(T0 + i, True, "win") for i in range(count + n)]
                )
            statements: list[str] = []

            def seen(*args: Any) -> None:
                if "row_number" in str(args[2]):  # the histories' query (not a background task's)
                    statements.append(str(args[2]))

            from sqlalchemy import event

            event.listen(env.store.db.engine.sync_engine, "before_cursor_execute", seen)
            found = await env.reputation.histories([*people, "nobody"])
            event.remove(env.store.db.engine.sync_engine, "before_cursor_execute", seen)
            assert len(statements) == 1
            assert [len(found[p]) for p in people] == [count, count + 1, count + 2]
            assert found["nobody"] == []
            assert all(
                [g.ended_at for g in games] == sorted((g.ended_at for g in games), reverse=True)
                for games in found.values()
            )
        finally:
            await env.close()

    asyncio.run(scenario())


def test_a_casual_game_whose_clock_a_person_let_run_out_is_recorded_as_left() -> None:
    from tests.web.test_clocks import table_of, until

    async def scenario() -> None:
        clock = FakeClock()
        service, live, callers, clients = await table_of(
            clock, clock={"move": 5, "reserve": 0}, rules={"target": 1}
        )
        try:
            assert not live.row.forfeit_rule  # casual: nobody forfeits, the game plays on
            sleeper = 0
            for _ in range(2000):
                if live.state.is_over:
                    break
                await until(lambda: live.state.phase == "play" or live.state.is_over, "play")
                if live.state.is_over:
                    break
                if live.state.turn == sleeper:
                    version = live.version
                    await until(lambda: clock.sleepers >= 1, "the timer")
                    clock.advance(5)
                    await until(lambda v=version: live.version > v, "the timeout")
                else:
                    move = live.state.legal_moves()[0].text()
                    await service.messages.handle(
                        clients[1], {"type": "move", "move": move, "version": live.version}
                    )
            assert live.state.is_over
            await until(lambda: live.row.settled_at is not None, "the settlement")
            assert live.clock is not None and live.clock.forfeited == []
            assert live.clock.walked_out() == [sleeper]
            found = {r.identity: r for r in await service.store.players.results_at(live.row.id)}
            amal, badr = found[callers[0].identity], found[callers[1].identity]
            assert amal.outcome in ("win", "loss", "draw") and amal.left and not badr.left
            histories = await service.reputation.histories([c.identity for c in callers])
            assert histories[callers[0].identity] == [Played(amal.ended_at, False, True)]
            assert histories[callers[1].identity] == [Played(badr.ended_at, False, False)]
            # A casual game left lowers the share, never earns a wait.
            await service.reputation.check_rated(callers[0].identity)
        finally:
            await service.close()

    asyncio.run(scenario())


def test_a_rated_rematch_waits_for_whoever_must_wait() -> None:
    from tests.web.test_clocks import table_of, until

    async def scenario() -> None:
        clock = FakeClock()
        service, live, callers, clients = await table_of(
            clock, clock={"move": 30, "reserve": 0}, rated=True, rules={"target": 1}
        )
        try:
            while not live.state.is_over:
                await until(lambda: live.state.phase == "play" or live.state.is_over, "play")
                if live.state.is_over:
                    break
                mover = clients[live.state.turn]
                move = live.state.legal_moves()[0].text()
                await service.messages.handle(
                    mover, {"type": "move", "move": move, "version": live.version}
                )
            now = clock.now()
            badr = callers[1].identity
            await given_history(
                service, badr, [(now - 60, True, "forfeit"), (now - 120, True, "forfeit")]
            )
            for client in clients:
                drain(client)
            # Badr must wait: his tap is refused, in words, and not counted.
            await service.messages.handle(clients[1], {"type": "rematch"})
            assert [m["code"] for m in drain(clients[1]) if m["type"] == "error"] == ["playban"]
            await service.messages.handle(clients[0], {"type": "rematch"})
            assert not [m for m in drain(clients[0]) if m["type"] == "error"]
            assert live.row.rematch_id is None  # one tap of two
            clock.advance(5 * MINUTE)  # his wait is over: his tap makes the rematch
            await service.messages.handle(clients[1], {"type": "rematch"})
            assert not [m for m in drain(clients[1]) if m["type"] == "error"]
            assert live.row.rematch_id is not None
        finally:
            await service.close()

    asyncio.run(scenario())


def test_a_pools_leavers_are_read_once_and_kept_for_the_next_passes() -> None:
    async def scenario() -> None:
        env = await started_env()
        try:
            carl, dina = (
                (await env.identities.create("t")).caller,
                (await env.identities.create("t")).caller,
            )
            await given_history(env, carl.identity, [(T0 + i, True, "forfeit") for i in range(3)])
            await given_history(env, dina.identity, [(T0 + i, True, "win") for i in range(3)])
            statements: list[str] = []

            def seen(*args: Any) -> None:
                if "row_number" in str(args[2]):  # the histories' query (not a background task's)
                    statements.append(str(args[2]))

            from sqlalchemy import event

            engine = env.store.db.engine.sync_engine
            event.listen(engine, "before_cursor_execute", seen)
            pool = [carl.identity, dina.identity]
            assert await env.reputation.leavers(pool) == {carl.identity}
            assert await env.reputation.leavers(pool) == {carl.identity}  # kept
            assert await env.reputation.leavers([*pool, "nobody"]) == {carl.identity}
            event.remove(engine, "before_cursor_execute", seen)
            assert len(statements) == 2  # the pool, then only the newcomer
        finally:
            await env.close()

    asyncio.run(scenario())


@pytest.mark.services
def test_histories_and_the_gate_on_postgresql(postgres: str) -> None:  # noqa: F811
    async def scenario() -> None:
        clock = FakeClock(T0 + HOUR)
        env = await started_env(replace(FAST, clock=clock), store=open_store(postgres))
        try:
            badr = (await env.identities.create("test")).caller
            now = clock.now()
            games = [(now - 60, True, "forfeit"), (now - 120, True, "forfeit")]
            await given_history(
                env, badr.identity, games + [(T0 + i, False, "win") for i in range(9)]
            )
            found = (await env.reputation.histories([badr.identity]))[badr.identity]
            assert [g.left for g in found] == [True, True] + [False] * 9
            error = await refused(env.reputation.check_rated(badr.identity))
            assert error.code == "playban" and error.extra is not None
            assert error.extra["playban"]["minutes_left"] == 4
            profile = await env.profiles.profile(badr.identity, own=False)
            assert profile["finished"] == {"finished": 9, "games": 11, "percent": 81}
        finally:
            await env.close()

    asyncio.run(scenario())
