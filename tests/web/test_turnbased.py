"""Turn-based tables: days per move, many games at once, vacations, and restarts.

Every test runs the tables on a :class:`~basra.server.table.clocks.FakeClock`, so
days pass by moving the time on, never by sleeping.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    Player,
    ServerThread,
    create_table,
    eventually,
    file_store,
    http,
    new_token,
    sharing,
    started_env,
)
from tests.web.test_quickplay import QUICK, Seeker
from tests.web.test_service import drain as messages
from tests.web.test_service import spec

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.errors import ProtocolError
from basra.server.identity import Caller
from basra.server.runtime.pubsub import MemoryHub
from basra.server.table.autopilot import FAR
from basra.server.table.clocks import DAY, FakeClock, TimeControl, check_control
from basra.server.table.live import Client, LiveTable, ServiceConfig
from basra.server.table.master import YourTurn

TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}]
HOUR = 3600.0


async def until(predicate: Any, what: str, timeout: float = 10.0) -> None:
    """Wait (in real time, for the service's tasks) until ``predicate()`` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting: {what}"
        await asyncio.sleep(0.005)


def config_on(fake: FakeClock, **more: Any) -> ServiceConfig:
    return replace(FAST, clock=fake, **more)


async def seated(
    service: Env, table_id: str, callers: list[Caller]
) -> tuple[LiveTable, list[Client]]:
    """Both people connected to the table (seat 0 the creator's, seat 1 the other's)."""
    clients = [Client(table_id, callers[0]), Client(table_id, callers[1], "Badr")]
    for client in clients:
        await service.master.connect(client)
    live = service.master.live[table_id]
    return live, clients


async def two_people(service: Env, **form: Any) -> tuple[LiveTable, list[Caller], list[Client]]:
    """A turn-based table of two people (2 days a move unless told), both seated."""
    amal = (await service.identities.create("test")).caller
    badr = (await service.identities.create("test")).caller
    form.setdefault("clock", {"days": 2})
    row = await service.lifecycle.create(amal, "test", "Amal", spec(seats=TWO_PEOPLE, **form))
    live, clients = await seated(service, row.id, [amal, badr])
    await service.messages.handle(clients[1], {"type": "join", "seat": 1})
    await until(lambda: live.state.phase == "play", "the first deal")
    return live, [amal, badr], clients


async def move(service: Env, live: LiveTable, clients: list[Client]) -> None:
    """The person to move plays their first legal move."""
    seat = live.state.turn
    text = live.state.legal_moves()[0].text()
    version = live.version
    await service.messages.handle(clients[seat], {"type": "move", "move": text, "version": version})
    await until(lambda: live.version > version, "the move stored")


def test_the_form_takes_days_per_move_and_names_a_wrong_field() -> None:
    control = check_control({"days": 7, "move": None, "reserve": 0})
    assert control == TimeControl(7 * DAY, 0) and control.turn_based
    assert control.to_json() == {"move": 7 * DAY, "reserve": 0, "days": 7}
    assert control.forfeit_in_a_row == 1
    assert not TimeControl(30, 60).turn_based
    made = spec(seats=TWO_PEOPLE, clock={"days": 3}, rated=True)
    assert made.clock == TimeControl.days(3) and made.rated
    with_bots = spec(players=4, teams=True, clock={"days": 1})
    assert with_bots.clock is not None and with_bots.clock.turn_based
    for clock, field in (
        ({"days": 5}, "clock.days"),
        ({"days": 2, "move": 30}, "clock.days"),
        ({"reserve": 30}, "clock.move"),
    ):
        with pytest.raises(ProtocolError) as refused:
            spec(seats=TWO_PEOPLE, clock=clock)
        assert refused.value.extra == {"field": field}, clock


def test_a_turn_based_game_over_days_with_a_restart_to_its_end() -> None:
    async def scenario() -> None:
        fake = FakeClock()
        store = file_store()
        service = await started_env(config_on(fake), store)
        told: list[YourTurn] = []

        async def listen(turn: YourTurn) -> None:
            told.append(turn)

        service.master.on_turn(listen)
        live, callers, clients = await two_people(service, rules={"target": 1})
        table_id = live.id
        assert live.clock is not None and live.clock.control.turn_based
        # The first mover's clock: two days, shown in the clock message.
        shown = [m for m in messages(clients[live.state.turn]) if m["type"] == "clock"][-1]
        assert shown["control"]["days"] == 2 and shown["move_left"] == 2 * DAY
        await until(lambda: len(told) == 1, "told of the first turn")
        assert told[0].identity == callers[live.state.turn].identity
        assert told[0].deadline == pytest.approx(fake.now() + 2 * DAY)
        # No task waits days for the deadline: it waits in the autopilot's one heap.
        await until(lambda: service.master.autopilot.waiting_far == 1, "the far deadline kept")
        assert fake.sleepers == 1, "one sleeper (the heap's) for every far deadline"
        played = 0
        for _ in range(6):  # six moves over three days
            fake.advance(12 * HOUR)
            await move(service, live, clients)
            played += 1
        await until(lambda: len(told) == 1 + played, "told of every turn")
        assert [t.identity for t in told[1:]] == [
            callers[t.seat].identity for t in told[1:]
        ] and told[-1].seat == live.state.turn
        version = live.version
        await service.close()

        # The server restarts (a deploy) a day later; the game goes on from its log.
        fake.advance(DAY)
        again = Env(AppConfig(service=config_on(fake)), store=sharing(store))
        await again.start()
        live = again.master.live[table_id]
        assert live.version == version and live.clock is not None
        deadline = live.clock.deadline()
        assert deadline == pytest.approx(fake.now() + DAY), "a day spent, a day left"
        await until(lambda: again.master.autopilot.waiting_far == 1, "planned again")
        live, clients = await seated(again, table_id, callers)
        while not live.state.is_over:
            fake.advance(20 * HOUR)  # within the two days, every time
            await move(again, live, clients)
        events = await again.store.tables.events(table_id)
        assert all(e.auto is None for e in events), "nobody timed out, no bot played"
        assert events[-1].at - events[0].at > 3 * DAY
        row = await again.store.tables.load(table_id)
        assert row is not None and row.status == "over"
        await again.close()

    asyncio.run(scenario())


def test_a_move_timed_out_is_a_rated_game_lost_and_a_casual_move_played() -> None:
    async def scenario() -> None:
        fake = FakeClock()
        service = await started_env(config_on(fake))
        rated, _, _ = await two_people(service, clock={"days": 1}, rated=True)
        casual, _, _ = await two_people(service, clock={"days": 1})
        late = rated.state.turn
        late_casual = casual.state.turn
        before = casual.version
        fake.advance(DAY - FAR + 1)  # within the hour: a timer of its own now
        await until(lambda: service.master.autopilot.waiting_far == 0, "the timers planned")
        assert rated.version == 1 and casual.version == before, "not yet"
        fake.advance(FAR)
        await until(lambda: rated.clock is not None and rated.clock.forfeited, "the forfeit")
        assert rated.clock is not None and rated.clock.forfeited == [late]
        events = await service.store.tables.events(rated.id)
        assert events[1].auto == "timeout"
        await until(lambda: casual.version > before, "the casual move played")
        events = await service.store.tables.events(casual.id)
        assert events[before].auto == "timeout"
        assert casual.state.rounds[-1].plays[0].seat == late_casual
        assert casual.clock is not None and casual.clock.forfeited == []
        await service.close()

    asyncio.run(scenario())


def test_far_deadlines_wait_in_one_heap_and_each_comes_in_its_order() -> None:
    async def scenario() -> None:
        fake = FakeClock()
        service = await started_env(config_on(fake))
        tables = {}
        for days in (7, 1, 3):  # the first deadline made last but one: the sweeper wakes sooner
            live, _, _ = await two_people(service, clock={"days": days})
            tables[days] = (live, live.version)
        autopilot = service.master.autopilot
        await until(lambda: autopilot.waiting_far == 3, "three far deadlines")
        assert fake.sleepers == 1, "one sleeper for all of them"

        def timed_out() -> list[int]:
            return sorted(d for d, (live, version) in tables.items() if live.version > version)

        fake.advance(DAY - FAR / 2)  # the one-day deadline within the hour: a timer now
        await until(lambda: autopilot.waiting_far == 2, "the nearest one planned")
        fake.advance(FAR)
        await until(lambda: timed_out() == [1], "the one-day move timed out")
        fake.advance(2 * DAY)
        await until(lambda: timed_out() == [1, 3], "then the three-day one")
        await asyncio.sleep(0.05)
        assert timed_out() == [1, 3] and tables[7][0].version == tables[7][1]
        fake.advance(4 * DAY)
        await until(lambda: timed_out() == [1, 3, 7], "then the week")
        await service.close()

    asyncio.run(scenario())


def test_a_person_away_gets_no_stand_in_and_the_table_is_not_abandoned() -> None:
    async def scenario() -> None:
        fake = FakeClock()
        config = config_on(fake, grace=0.05, abandon_after=0.1)
        service = await started_env(config)
        live, _, clients = await two_people(service)
        version = live.version
        for client in clients:
            await service.master.disconnect(client)
        await asyncio.sleep(0.5)
        assert live.version == version, "a person away for the day is expected"
        seats = service.master.table_json(live, None)["seats"]
        assert [(s["present"], s["stand_in"]) for s in seats] == [(False, False)] * 2
        assert live.row.status == "playing"
        assert live.reaper is None
        await service.close()

    asyncio.run(scenario())


def test_a_vacation_stops_the_clock_for_its_days_and_counts_against_the_month() -> None:
    async def scenario() -> None:
        fake = FakeClock(1_764_547_200.0)  # 2025-12-01 00:00 UTC: a month of 31 days ahead
        store = file_store()
        service = await started_env(config_on(fake), store)
        live, callers, clients = await two_people(service, clock={"days": 1})
        mover = live.state.turn
        who = callers[mover].identity
        version = live.version
        assert live.clock is not None
        deadline = live.clock.deadline()
        assert deadline == pytest.approx(fake.now() + DAY)
        fake.advance(12 * HOUR)
        turns = service.turns
        assert (await turns.vacation(who))["left"] == 7
        taken = await turns.take(who, {"days": 2})
        assert taken == {
            "days_per_month": 7,
            "used": 2,
            "left": 5,
            "until": pytest.approx(fake.now() + 2 * DAY),
        }
        assert live.clock.deadline() == pytest.approx(deadline + 2 * DAY), "two days later"
        shown = [m for m in messages(clients[mover]) if m["type"] == "clock"][-1]
        assert shown["paused"] is True and shown["move_left"] == pytest.approx(12 * HOUR)
        with pytest.raises(ProtocolError) as refused:
            await turns.take(who, {"days": 1})
        assert refused.value.code == "on_vacation"
        other = callers[1 - mover].identity
        with pytest.raises(ProtocolError) as refused:
            await turns.take(other, {"days": 8})
        assert refused.value.extra == {"field": "days"}
        assert "from 1 to 7" in str(refused.value)

        # The server restarts during the vacation: the clock still stands still.
        fake.advance(DAY)
        await service.close()
        service = Env(AppConfig(service=config_on(fake)), store=sharing(store))
        await service.start()
        live = service.master.live[live.id]
        assert live.clock is not None
        assert live.clock.deadline() == pytest.approx(deadline + 2 * DAY)
        fake.advance(DAY + 11 * HOUR)  # the vacation over, 23 hours of the day spent
        await asyncio.sleep(0.1)
        assert live.version == version, "the vacation's days were not counted"
        left, _ = live.clock.left(fake.now())
        assert left == pytest.approx(HOUR)
        fake.advance(HOUR + 1)
        await until(lambda: live.version == version + 1, "the timeout after the vacation")
        events = await service.store.tables.events(live.id)
        assert events[-1].auto == "timeout"

        # Ended early, a vacation gives its days not begun back.
        await service.turns.take(other, {"days": 5})
        fake.advance(HOUR)
        ended = await service.turns.end(other)
        assert ended["used"] == 1 and ended["left"] == 6 and ended["until"] is None
        with pytest.raises(ProtocolError) as refused:
            await service.turns.end(other)
        assert refused.value.code == "not_on_vacation"
        await service.turns.take(other, {"days": 6})
        assert (await service.turns.vacation(other))["left"] == 0
        fake.advance(6 * DAY)
        with pytest.raises(ProtocolError) as refused:
            await service.turns.take(other, {"days": 1})
        assert "no vacation days left this month" in str(refused.value)
        fake.advance(31 * DAY)  # a new month
        assert (await service.turns.vacation(other))["left"] == 7
        await service.close()

    asyncio.run(scenario())


def test_a_vacation_taken_on_another_process_reaches_the_table() -> None:
    async def scenario() -> None:
        fake = FakeClock()
        store, hub = file_store(), MemoryHub()
        one = await started_env(config_on(fake), store, hub, origin="one")
        two = await started_env(config_on(fake), sharing(store), hub.attach(), origin="two")
        live, callers, _ = await two_people(one, clock={"days": 3})
        assert live.clock is not None
        deadline = live.clock.deadline()
        assert deadline is not None
        who = callers[live.state.turn].identity
        await two.turns.take(who, {"days": 2})
        await until(
            lambda: live.clock is not None and live.clock.deadline() == deadline + 2 * DAY,
            "the other process heard of the vacation",
        )
        await two.close()
        await one.close()

    asyncio.run(scenario())


def test_the_your_turn_list_over_http() -> None:
    with ServerThread(AppConfig(service=FAST)) as server:
        url = server.url
        amal, badr = new_token(url), new_token(url)
        assert http(f"{url}/api/turns")[0] == 401
        table = create_table(url, amal, seats=TWO_PEOPLE, clock={"days": 3})
        bots = create_table(url, amal, clock={"days": 1})  # against a medium bot
        create_table(url, amal, seats=TWO_PEOPLE, clock={"move": 30})  # a live table: not listed
        players = [Player(url, table, amal), Player(url, table, badr, "Badr")]
        players[1].wait_type("table")
        players[1].send({"type": "join", "seat": 1})
        players[0].wait(lambda m: m["type"] == "state" and m["view"]["phase"] == "play")
        lists: dict[str, Any] = {}

        def listed() -> None:
            for name, token in (("amal", amal), ("badr", badr)):
                status, body = http(f"{url}/api/turns", token=token)
                assert status == 200, body
                lists[name] = body
            assert len(lists["amal"]["turns"]) == 2 and len(lists["badr"]["turns"]) == 1
            assert lists["amal"]["count"] + lists["badr"]["count"] == 2  # bots answer in seconds

        eventually(listed)
        turn = next(g for g in lists["badr"]["turns"] if g["table"] == table)["turn"]
        mine = lists["amal"] if turn == 0 else lists["badr"]
        first = mine["turns"][0]
        assert first["your_turn"] and first["days"] in (1, 3)
        at_table = next(g for g in mine["turns"] if g["table"] == table)
        assert at_table["left"] == pytest.approx(3 * DAY, abs=60)
        assert at_table["opponents"] == ["Badr" if turn == 0 else "Amal"]
        bot_game = next(g for g in lists["amal"]["turns"] if g["table"] == bots)
        assert bot_game["your_turn"] and bot_game["days"] == 1
        assert lists["amal"]["vacation"]["left"] == 7
        # The one to move plays: the turn and the counts pass to the other.
        players[turn].drain()
        players[turn].play_first_legal()

        def passed() -> None:
            status, body = http(f"{url}/api/turns", token=badr if turn == 0 else amal)
            assert status == 200
            game = next(g for g in body["turns"] if g["table"] == table)
            assert game["your_turn"] and game["turn"] == 1 - turn

        eventually(passed)
        status, body = http(f"{url}/api/vacation", {"days": 2}, token=badr)
        assert status == 200 and body["left"] == 5
        status, body = http(f"{url}/api/vacation", {"days": "two"}, token=amal)
        assert status == 422 and body["field"] == "days"
        status, body = http(f"{url}/api/vacation/end", {}, token=badr)
        assert status == 200 and body["until"] is None and body["left"] == 6  # a day begun
        for player in players:
            player.close()


def test_quick_play_has_its_own_pool_of_turn_based_games() -> None:
    config = AppConfig(service=FAST, quickplay=QUICK)
    with ServerThread(config) as server:
        url = server.url
        amal, badr, live = Seeker(url, name="Amal"), Seeker(url, name="Badr"), Seeker(url)
        # Amal is at a rated live table in play: a turn-based game keeps nobody out of
        # another, and a rated live game does not keep her from a turn-based one.
        status, made = http(f"{url}/api/tables", {"name": "Amal", "rated": True}, token=amal.token)
        assert status == 201
        first = amal.seek(variant="egyptian", players=2, days=2)
        assert first["type"] == "seeking" and first["days"] == 2
        assert live.seek(variant="egyptian", players=2)["type"] == "seeking"  # a live pool
        assert badr.seek(variant="egyptian", players=2, days=7)["type"] == "seeking"

        def counted() -> None:
            pools = http(f"{url}/api/quickplay")[1]["pools"]
            assert {p.get("days") for p in pools} == {None, 2, 7}, pools

        eventually(counted)
        assert badr.seek(variant="egyptian", players=2, days=2)["type"] == "seeking"
        one, two = amal.wait("matched"), badr.wait("matched")
        assert one["table"] == two["table"] != made["id"]
        status, table = http(f"{url}/api/tables/{one['table']}")
        assert status == 200 and table["rated"]
        assert table["clock"] == {"move": 2 * DAY, "reserve": 0, "days": 2}
        status, body = http(f"{url}/api/turns", token=amal.token)
        assert [g["table"] for g in body["turns"]] == [one["table"]]
        refused = Seeker(url).seek(variant="egyptian", days=5)
        assert refused["code"] == "bad_seek" and refused["field"] == "days"
        for seeker in (amal, badr, live):
            seeker.close()
