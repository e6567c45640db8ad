"""Clocks: a move that runs out of time is played by a bot; repeated timeouts forfeit.

The tables run on a :class:`~basra.server.table.clocks.FakeClock`, so a test runs
a clock out by moving the time on, never by sleeping. A real server killed
with SIGKILL keeps its clocks: the deadline comes from the stored log.
"""

from __future__ import annotations

import asyncio
import signal
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from tests.web.helpers import FAST, Player, create_table, new_token, server_process, started_env
from tests.web.test_service import drain as messages
from tests.web.test_service import spec

from basra.server.env import Env
from basra.server.identity import Caller
from basra.server.store.rows import SeatRow, TableRow
from basra.server.table.clocks import (
    FORFEIT_IN_A_ROW,
    RESUME_GRACE,
    ClockState,
    FakeClock,
    TimeControl,
)
from basra.server.table.live import Client, LiveTable
from basra.server.table.ratings import table_kind

TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}]


async def until(predicate: Any, what: str, timeout: float = 10.0) -> None:
    """Wait (in real time, for the service's tasks) until ``predicate()`` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting: {what}"
        await asyncio.sleep(0.005)


async def table_of(
    fake: FakeClock, **form: Any
) -> tuple[Env, LiveTable, list[Caller], list[Client]]:
    """A started server on the fake clock, a table of two people, both connected."""
    service = await started_env(replace(FAST, clock=fake))
    amal = (await service.identities.create("test")).caller
    badr = (await service.identities.create("test")).caller
    row = await service.lifecycle.create(amal, "test", "Amal", spec(seats=TWO_PEOPLE, **form))
    a, b = Client(row.id, amal), Client(row.id, badr, "Badr")
    await service.master.connect(a)
    await service.master.connect(b)
    await service.messages.handle(b, {"type": "join", "seat": 1})
    live = service.master.live[row.id]
    await until(lambda: live.state.phase == "play", "the first deal")
    return service, live, [amal, badr], [a, b]


def test_a_clock_runs_out_and_a_bot_plays_the_move() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        service, live, _, clients = await table_of(clock, clock={"move": 10, "reserve": 5})
        mover = live.state.turn
        version = live.version
        shown = [m for m in messages(clients[mover]) if m["type"] == "clock"][-1]
        assert shown["control"] == {"move": 10, "reserve": 5}
        assert shown["turn"] == mover and shown["move_left"] == 10.0
        assert shown["reserves"] == [5.0, 5.0]
        await until(lambda: clock.sleepers == 1, "the timer to be set")
        clock.advance(14.5)  # the move's 10 s and most of the reserve
        await asyncio.sleep(0.05)
        assert live.version == version, "nobody may play before the clock is at zero"
        shown = [m for m in messages(clients[mover]) if m["type"] == "clock"]
        assert not shown, "no move, no new clock message"
        clock.advance(0.6)
        await until(lambda: live.version == version + 1, "the bot's move for the seat")
        events = await service.store.tables.events(live.row.id)
        assert events[-1].kind == "play" and events[-1].auto == "timeout"
        assert live.state.rounds[-1].plays[-1].seat == mover
        received = messages(clients[mover])
        state = [m for m in received if m["type"] == "state"][-1]
        assert state["event"]["auto"] == "timeout" and state["event"]["seat"] == mover
        after = [m for m in received if m["type"] == "clock"][-1]
        assert after["timeouts"][mover] == 1 and after["reserves"][mover] == 0.0
        assert after["forfeited"] == [], "casual tables never forfeit"
        # The other person's clock runs now, from the time of that move.
        assert after["turn"] == live.state.turn != mover and after["move_left"] == 10.0
        await service.close()

    asyncio.run(scenario())


def test_the_reserve_runs_down_only_past_the_moves_time() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        service, live, _, clients = await table_of(clock, clock={"move": 10, "reserve": 30})
        mover = live.state.turn
        clock.advance(16)  # six seconds of reserve spent
        move = live.state.legal_moves()[0].text()
        message = {"type": "move", "move": move, "version": live.version}
        await service.messages.handle(clients[mover], message)
        assert live.clock is not None
        assert live.clock.reserves[mover] == pytest.approx(24.0)
        assert (await service.store.tables.events(live.row.id))[-1].auto is None
        await service.close()

    asyncio.run(scenario())


def test_repeated_timeouts_forfeit_a_rated_game_and_rate_it() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        control = {"move": 5, "reserve": 0}
        service, live, callers, clients = await table_of(clock, clock=control, rated=True)
        assert live.row.rated and live.row.hints is False
        sleeper = 0  # seat 0 never moves; seat 1 plays its first legal move
        timeouts = 0
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
        assert live.clock is not None and live.clock.forfeited == [sleeper]
        await until(lambda: live.row.settled_at is not None, "the settlement")
        async with live.lock:  # the settlement shows the new ratings under the table's lock
            pass
        kind = table_kind(2, False)
        family = "egyptian"
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 0])
        ratings = await service.store.players.ratings_in(
            family, kind, [c.identity for c in callers]
        )
        loser, winner = ratings[callers[0].identity], ratings[callers[1].identity]
        assert loser.mu == pytest.approx(expected[0][0].mu)
        assert loser.sigma == pytest.approx(expected[0][0].sigma)
        assert winner.mu == pytest.approx(expected[1][0].mu)
        assert winner.games == loser.games == 1
        results = {r.identity: r for r in await service.store.players.results_at(live.row.id)}
        assert results[callers[0].identity].outcome == "forfeit"
        assert results[callers[1].identity].outcome == "win"
        table = service.master.table_json(live, 0)
        assert table["seats"][0]["forfeited"] and table["rated"]
        assert table["seats"][0]["change"] == pytest.approx(expected[0][0].mu - 25.0, abs=1e-3)
        # The seat is a bot's now: its person cannot move, and its turns go by without them.
        await until(lambda: live.state.phase == "play", "a round in play")
        if live.state.turn != sleeper:
            move = live.state.legal_moves()[0].text()
            message = {"type": "move", "move": move, "version": live.version}
            await service.messages.handle(clients[1], message)
        messages(clients[0])
        await service.messages.handle(
            clients[0], {"type": "move", "move": "2C", "version": live.version}
        )
        refused = [m for m in messages(clients[0]) if m["type"] == "error"]
        assert refused and refused[0]["code"] in ("forfeited", "stale")
        await until(
            lambda: live.state.rounds[-1].plays and live.state.rounds[-1].plays[-1].seat == sleeper,
            "the bot to play the forfeited seat",
        )
        assert (await service.store.tables.events(live.row.id))[-1].auto == "forfeited"
        await service.close()

    asyncio.run(scenario())


def test_a_clock_is_rebuilt_from_the_log_and_a_past_deadline_gets_a_grace() -> None:
    row = TableRow(
        "t", "egyptian", {}, 2, False, 0, False, [SeatRow(0, "person"), SeatRow(1, "person")]
    )
    row.rated, row.clock_move, row.clock_reserve = True, 10, 20
    state = ClockState.of(row)
    assert state is not None and state.control == TimeControl(10, 20)
    state.observe("deal", None, 100.0, None, 0)
    state.observe("play", 0, 125.0, None, 1)  # 15 s past the move's time: 5 s of reserve
    state.observe("play", 1, 126.0, None, 0)
    assert state.reserves == [5.0, 20.0]
    assert state.deadline() == 126.0 + 10 + 5
    state.resume(130.0)  # back before the deadline: nothing changes
    assert state.deadline() == 141.0
    state.resume(200.0)  # the server was down past the deadline
    assert state.deadline() == 200.0 + RESUME_GRACE
    state.observe("play", 0, 205.0, "stand_in", 1)
    assert state.in_a_row == [1, 0] and state.extra == 0.0


@pytest.mark.slow
def test_clocks_survive_a_kill_9_restart(tmp_path: Path) -> None:
    database = str(tmp_path / "clock.db")
    options = ("--bot-delay", "0", "--round-pause", "0", "--grace", "600")
    with server_process(database, *options) as (proc, url):
        token = new_token(url)
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        table = create_table(url, token, seats=seats, clock={"move": 5, "reserve": 15})
        amal = Player(url, table, token)
        amal.wait(lambda m: m["type"] == "clock" and m["turn"] == 0, 20)
        version = amal.version
        time.sleep(6.5)  # past the move's 5 s: the reserve runs
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with server_process(database, *options) as (_, url):
        back = Player(url, table, token)
        shown = back.wait(lambda m: m["type"] == "clock", 20)
        assert shown["turn"] == 0 and back.version == version
        # Time went on while the server was down: the reserve was not given back (unless
        # the restart took so long that the deadline passed: then a short grace is left).
        assert shown["move_left"] == 0.0
        assert shown["reserves"][0] <= 13.5
        played = back.wait(lambda m: m["type"] == "state" and m["version"] > version, 30)
        assert played["event"]["seat"] == 0 and played["event"]["auto"] == "timeout"
