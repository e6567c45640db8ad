"""Transitions that must not be torn: crashes inside each window, races, automatic actions.

A join that fills the last seat starts the table in the same transaction; the
final play and the finished status are stored together. Fault injection kills
a real ``basra serve`` at each side of those commits (``BASRA_CRASH_AT``, as
kill -9 would) and checks the table resumes correctly after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    Player,
    create_table,
    http,
    new_token,
    play_to_end,
    server_process,
    started_env,
    stored_rows,
)
from tests.web.test_service import drain as frames
from websockets.exceptions import ConnectionClosed

from basra.cards import CARD_NAMES
from basra.server.env import Env
from basra.server.store.rows import Event, Status
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.tables import SqlTables
from basra.server.stores import MEMORY, SqlStore
from basra.server.table.forms import TableForm, check_table_form
from basra.server.table.live import Client, ServiceConfig
from basra.state import GameState, shuffled_pack

OPTIONS = ("--bot-delay", "0", "--round-pause", "0")
TWO_PEOPLE = {"seats": [{"kind": "person"}, {"kind": "person"}], "my_seat": 0}


def seated(player: Player) -> int | None:
    return player.table.get("you") if player.table else None


@pytest.mark.slow
@pytest.mark.parametrize("point", ["join_before_commit", "join_after_commit"])
def test_a_crash_around_the_join_that_starts_the_table(tmp_path: Path, point: str) -> None:
    database = str(tmp_path / "join.db")
    with server_process(database, *OPTIONS, env={"BASRA_CRASH_AT": point}) as (proc, url):
        amal_token, badr_token = new_token(url), new_token(url)
        table = create_table(url, amal_token, "Amal", rules={"target": 20}, **TWO_PEOPLE)
        badr = Player(url, table, badr_token, "Badr")
        badr.wait_type("state")
        badr.send({"type": "join", "seat": 1})
        assert proc.wait(20) == 137, "the server should have crashed at the join"
    with server_process(database, *OPTIONS) as (_, url):
        status = http(f"{url}/api/tables/{table}")[1]["status"]
        amal = Player(url, table, amal_token, "Amal")
        badr = Player(url, table, badr_token, "Badr")
        badr.wait_type("state")
        if point == "join_before_commit":
            # Nothing of the join was kept: the seat is open, the table waits; join again.
            assert status == "open" and badr.table["you"] is None
            badr.send({"type": "join", "seat": 1})
        else:
            # The join and the start were kept together: the table plays at once.
            assert status == "playing" and badr.table["you"] == 1
        for player in (amal, badr):
            if player.view.get("phase") != "play":
                player.wait(lambda m: m["type"] == "state" and m["view"]["phase"] == "play")
        play_to_end([amal, badr])
        assert http(f"{url}/api/tables/{table}")[1]["status"] == "over"


@pytest.mark.slow
@pytest.mark.parametrize("point", ["final_before_commit", "final_after_commit"])
def test_a_crash_at_the_final_play(tmp_path: Path, point: str) -> None:
    database = str(tmp_path / "final.db")
    with server_process(database, *OPTIONS, env={"BASRA_CRASH_AT": point}) as (proc, url):
        tokens = [new_token(url), new_token(url)]
        # Two people (no bot): after the restart nothing moves until one of them does.
        table = create_table(url, tokens[0], "Amal", rules={"target": 1}, **TWO_PEOPLE)
        people = [Player(url, table, tokens[0], "Amal"), Player(url, table, tokens[1], "Badr")]
        people[1].wait_type("state")
        people[1].send({"type": "join", "seat": 1})
        with contextlib.suppress(ConnectionClosed):
            while proc.poll() is None and not any(p.view.get("over") for p in people):
                for player in people:
                    if player.my_turn() and player.state.get("_sent") != player.version:
                        player.state["_sent"] = player.version
                        player.play_first_legal()
                    with contextlib.suppress(TimeoutError):
                        player.recv(0.02)
        assert proc.wait(20) == 137, "the server should have crashed at the final play"
        told = [p.view.get("over", False) for p in people]
    assert not any(told), "nobody may be told of a game over that was not stored"
    with server_process(database, *OPTIONS) as (_, url):
        info = http(f"{url}/api/tables/{table}")[1]
        back = [Player(url, table, token) for token in tokens]
        if point == "final_before_commit":
            # The final play was not kept: the game resumes before it and ends again.
            assert info["status"] == "playing"
            for player in back:
                player.wait_type("state")
            play_to_end(back)
        else:
            # The final play and "over" were kept together: never "playing" forever.
            assert info["status"] == "over"
            assert back[0].wait_type("state")["view"]["over"]
        assert http(f"{url}/api/tables/{table}")[1]["status"] == "over"
        games = http(url + "/api/games", token=tokens[0])[1]["games"]
        assert games[0]["id"] == table and games[0]["status"] == "over"
        assert http(f"{url}/api/games/{table}/record")[0] == 200


# ------------------------------------------------------------------ in one process


def spec(**form: Any) -> Any:
    return check_table_form(TableForm.model_validate({"name": "Amal", **form}))[1]


async def finished_table(service: Env, people: list[Any]) -> str:
    """A two-person table whose whole game is already in the store."""
    row = await service.lifecycle.create(people[0], "test", "Amal", spec(**TWO_PEOPLE))
    await service.store.tables.claim_seat(row.id, 1, people[1].identity, "Badr")
    state = GameState(row.variant, 2, first_dealer=row.first_dealer)
    rng = random.Random(5)
    seq = 0
    while not state.is_over:
        if state.phase == "deal":
            pack = shuffled_pack(state.rules, rng)
            state.deal(pack)
            event = Event(seq, "deal", " ".join(CARD_NAMES[c] for c in pack))
        else:
            move = state.legal_moves()[0]
            state.push(move)
            event = Event(seq, "play", move.text())
        assert await service.store.tables.append(row.id, event)
        seq += 1
    outcome = state.outcome()
    assert outcome is not None
    await service.store.tables.set_status(
        row.id, Status("over", tuple(state.scores), outcome.winner)
    )
    live = service.master.live.pop(row.id)  # as after a restart: loaded again on first use
    live.dropped = True
    return row.id


async def started(config: ServiceConfig | None = None, store: Any = None) -> Env:
    return await started_env(config or FAST, store)


async def person(service: Env) -> Any:
    return (await service.identities.create("test")).caller


def test_a_hello_while_the_last_connection_of_a_waiting_table_closes() -> None:
    async def scenario() -> None:
        service = await started()
        amal, badr, carl = [await person(service) for _ in range(3)]
        row = await service.lifecycle.create(amal, "test", "Amal", spec(**TWO_PEOPLE))
        a, b = Client(row.id, amal), Client(row.id, badr, "Badr")
        await service.master.connect(a)
        live = service.master.live[row.id]
        # Amal's connection closes just as Badr says hello.
        await live.lock.acquire()
        leaving = asyncio.create_task(service.master.disconnect(a))
        arriving = asyncio.create_task(service.master.connect(b))
        await asyncio.sleep(0.01)
        live.lock.release()
        await asyncio.gather(leaving, arriving)
        assert b in service.master.live[row.id].clients
        # Carl takes the last seat: Badr, watching, sees the game start.
        c = Client(row.id, carl, "Carl")
        await service.master.connect(c)
        await service.messages.handle(c, {"type": "join", "seat": 1})
        for _ in range(100):
            await asyncio.sleep(0.01)
            states = [m for m in frames(b) if m["type"] == "state"]
            if states and states[-1]["view"]["phase"] == "play":
                break
        else:
            raise AssertionError("Badr never saw the game start")
        await service.close()

    asyncio.run(scenario())


def test_a_hello_while_a_finished_table_is_let_go_attaches_to_a_live_copy() -> None:
    async def scenario() -> None:
        service = await started()
        amal, badr = await person(service), await person(service)
        table = await finished_table(service, [amal, badr])
        a, b = Client(table, amal), Client(table, badr)
        await service.master.connect(a)
        live = service.master.live[table]
        await live.lock.acquire()
        leaving = asyncio.create_task(service.master.disconnect(a))  # lets the table go
        await asyncio.sleep(0)
        arriving = asyncio.create_task(service.master.connect(b))
        await asyncio.sleep(0.01)
        live.lock.release()
        await asyncio.gather(leaving, arriving)
        assert live.dropped and service.master.live[table] is not live
        assert b in service.master.live[table].clients and b.seat == 1
        assert [m for m in frames(b) if m["type"] == "state"][-1]["view"]["over"]
        await service.close()

    asyncio.run(scenario())


def test_two_players_asking_for_a_rematch_at_once_make_one_table() -> None:
    async def scenario() -> None:
        service = await started()
        amal, badr = await person(service), await person(service)
        table = await finished_table(service, [amal, badr])
        a, b = Client(table, amal), Client(table, badr)
        await service.master.connect(a)
        await service.master.connect(b)
        await asyncio.gather(
            service.messages.handle(a, {"type": "rematch"}),
            service.messages.handle(b, {"type": "rematch"}),
        )
        told = {m["table"] for c in (a, b) for m in frames(c) if m["type"] == "rematch"}
        assert len(told) == 1
        rows = (await stored_rows(service.store, "tables"))["tables"]
        assert [t["id"] for t in rows if t["rematch_of"] == table] == list(told)
        await service.close()

    asyncio.run(scenario())


def test_a_thinking_bot_holds_no_lock_that_others_need() -> None:
    async def scenario() -> None:
        service = await started()
        amal, badr = await person(service), await person(service)
        row = await service.lifecycle.create(
            amal, "test", "Amal", spec(seats=[{"kind": "person"}, {"kind": "bot"}])
        )
        a = Client(row.id, amal)
        await service.master.connect(a)
        thinking, go_on = asyncio.Event(), asyncio.Event()
        real = service.scheduler.run

        async def slow(table: str, rank: int, fn: Any, *args: Any) -> Any:
            thinking.set()
            await go_on.wait()
            return await real(table, rank, fn, *args)

        service.scheduler.run = slow  # type: ignore[method-assign]
        live = service.master.live[row.id]
        for _ in range(200):  # play until the bot is to move and thinking
            if thinking.is_set():
                break
            await asyncio.sleep(0.01)
            if live.state.phase == "play" and live.state.turn == 0:
                legal = live.state.legal_moves()[0].text()
                await service.messages.handle(
                    a, {"type": "move", "move": legal, "version": live.version}
                )
        assert thinking.is_set()
        assert not live.lock.locked()
        watcher = Client(row.id, badr)
        await asyncio.wait_for(service.master.connect(watcher), 1.0)  # not held up by the bot
        go_on.set()
        version = live.version
        for _ in range(200):
            await asyncio.sleep(0.01)
            if live.version > version:
                break
        assert live.version > version, "the bot played once it had thought"
        await service.close()

    asyncio.run(scenario())


class FailingTables(SqlTables):
    """Tables whose deals cannot be written (a full disk, say)."""

    def __init__(self, db: SqlDatabase) -> None:
        super().__init__(db)
        self.tries = 0
        self.times: list[float] = []

    async def append(self, table_id: str, event: Event, status: Status | None = None) -> bool:
        if event.kind == "deal":
            self.tries += 1
            self.times.append(asyncio.get_running_loop().time())
            raise OSError("disk full")
        return await super().append(table_id, event, status)


class FailingStore(SqlStore):
    """An in-memory SQL store on :class:`FailingTables`."""

    def __init__(self) -> None:
        super().__init__(MEMORY)
        self.tables = self.failing = FailingTables(self.db)


def test_a_failing_automatic_action_backs_off_then_stops_visibly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        store = FailingStore()
        config = ServiceConfig(
            **{**FAST.__dict__, "retry_base": 0.02, "retry_limit": 4, "bot_processes": 0}
        )
        service = await started(config, store)
        amal = await person(service)
        row = await service.lifecycle.create(
            amal, "test", "Amal", spec(seats=[{"kind": "person"}, {"kind": "bot"}])
        )
        a = Client(row.id, amal)
        await service.master.connect(a)
        loop = asyncio.get_running_loop()
        start = loop.time()
        while service.master.live[row.id].row.fault is None:
            assert loop.time() - start < 5, "the table was never marked"
            await asyncio.sleep(0.01)
        assert store.failing.tries == 4
        # Pauses of 0.02, 0.04 and 0.08 s came between the four tries.
        times = store.failing.times
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert len(gaps) == 3, gaps
        assert all(
            gap >= pause - 0.001 for gap, pause in zip(gaps, (0.02, 0.04, 0.08), strict=True)
        ), gaps
        await asyncio.sleep(0.3)
        assert store.failing.tries == 4, "a stopped table must not be tried again and again"
        stored = await store.tables.load(row.id)
        assert stored is not None and "disk full" in (stored.fault or "")
        tables = [m["table"] for m in frames(a) if m["type"] == "table"]
        assert tables[-1]["fault"] is True
        await service.close()

    with caplog.at_level(logging.WARNING, logger="basra.server.table.autopilot"):
        asyncio.run(scenario())
    assert any("stopped after 4 failed" in r.getMessage() for r in caplog.records)
