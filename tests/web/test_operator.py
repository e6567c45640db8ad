"""The operator's verbs on tables: a table closed, a person gone for good, renamed.

Moderation (:mod:`basra.server.features.moderation`) reaches tables only through the
lifecycle's :class:`~basra.server.table.operator.Operator` (:meth:`Operator.close`,
:meth:`Operator.leave_for_good`, :meth:`Operator.rename_seats`); these tests hold each to
what it promises, in one process, with the notices the other processes would hear.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.web.helpers import started_env
from tests.web.test_ownership import processes
from tests.web.test_service import drain

from basra.server.env import Env
from basra.server.errors import ProtocolError
from basra.server.runtime.pubsub import MemoryHub
from basra.server.store.rows import SeatKind, SeatRow, TableStatus
from basra.server.table.admission import Budget
from basra.server.table.forms import TableSpec
from basra.server.table.live import Client
from basra.server.table.reducer import EventKind

PAIRED = Budget(paired=True)


def spec(*seats: tuple[SeatKind, str | None]) -> TableSpec:
    return TableSpec("egyptian", {"target": 150}, 2, False, False, seats, None)


PEOPLE = spec((SeatKind.PERSON, None), (SeatKind.PERSON, None))


def person(seat: int, identity: str, name: str) -> SeatRow:
    return SeatRow(seat, SeatKind.PERSON, None, identity, name)


async def until(predicate: Any, what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting: {what}"
        await asyncio.sleep(0.01)


async def listening() -> tuple[Env, list[dict[str, Any]]]:
    """A started environment, and the notices another process on its hub hears."""
    hub = MemoryHub()
    heard: list[dict[str, Any]] = []

    async def other(notice: dict[str, Any]) -> None:
        heard.append(notice)

    await hub.attach().start("other", other)
    return await started_env(hub=hub), heard


def test_a_closed_table_ends_as_abandoned_and_everyone_is_told() -> None:
    async def scenario() -> None:
        env, heard = await listening()
        row = env.lifecycle.plan(PEOPLE, {0: person(0, "amal", "Amal")}, None, None)
        assert await env.lifecycle.add(row, PAIRED) is not None
        watcher = Client(row.id, None)
        await env.master.connect(watcher)
        drain(watcher)
        assert await env.lifecycle.operator.close(row.id, "a test") == TableStatus.ABANDONED
        told = drain(watcher)
        tables = [m["table"] for m in told if m["type"] == "table"]
        assert tables and tables[-1]["status"] == "abandoned"
        assert any(m["type"] == "state" for m in told)
        stored = await env.store.tables.load(row.id)
        assert stored is not None and stored.status == TableStatus.ABANDONED
        assert {"kind": "meta", "table": row.id} in [
            {k: n[k] for k in ("kind", "table")} for n in heard if n["kind"] == "meta"
        ]
        # Closed again: it stays as it is; a table that is not there is said so.
        assert await env.lifecycle.operator.close(row.id, "again") == TableStatus.ABANDONED
        with pytest.raises(ProtocolError) as missing:
            await env.lifecycle.operator.close("nothere", "a test")
        assert missing.value.code == "no_such_table"
        await env.close()

    asyncio.run(scenario())


def test_a_closed_table_in_play_plays_no_more() -> None:
    async def scenario() -> None:
        env = await started_env()
        bots = spec((SeatKind.BOT, "easy"), (SeatKind.BOT, "easy"))
        live = await env.lifecycle.add(env.lifecycle.plan(bots, {}, None, None), PAIRED)
        assert live is not None
        await until(lambda: live.version > 2, "a few plays")
        assert await env.lifecycle.operator.close(live.id, "a test") == TableStatus.ABANDONED
        version = live.version
        await asyncio.sleep(0.3)
        assert live.version == version and live.timer is None
        await env.close()

    asyncio.run(scenario())


def test_a_person_gone_for_good_is_played_by_the_stand_in_at_once() -> None:
    async def scenario() -> None:
        env = await started_env()  # the grace is a minute: nothing stands in before
        seats = spec((SeatKind.BOT, "easy"), (SeatKind.PERSON, None))
        row = env.lifecycle.plan(seats, {1: person(1, "badr", "Badr")}, None, None)
        live = await env.lifecycle.add(row, PAIRED)
        assert live is not None and live.row.status == TableStatus.PLAYING
        await until(lambda: live.state.phase == "play" and live.state.turn == 1, "Badr's turn")
        await asyncio.sleep(0.2)
        async with live.lock:  # a play is applied, then stored, then counted: read it whole
            version = live.version
        assert live.state.turn == 1 and live.version == version  # waiting out the grace
        assert await env.lifecycle.operator.leave_for_good("badr", "a test") == [row.id]
        await until(lambda: live.version > version, "the stand-in's play")
        events = await env.store.tables.events(row.id)
        assert events[version].kind == EventKind.PLAY and events[version].auto == "stand_in"
        assert live.row.status.live  # a casual game plays on
        await env.close()

    asyncio.run(scenario())


def test_every_process_settles_a_person_gone_for_good_and_only_the_owner_keeps_the_table() -> None:
    async def scenario() -> None:
        _, envs = await processes(2)
        seats = spec((SeatKind.BOT, "easy"), (SeatKind.PERSON, None))
        row = envs[0].lifecycle.plan(seats, {1: person(1, "badr", "Badr")}, None, None)
        assert await envs[0].lifecycle.add(row, PAIRED) is not None
        owner, other = sorted(envs, key=lambda env: not env.master.owns(row.id))
        assert owner.master.owns(row.id) and not other.master.owns(row.id)
        live = await owner.master.get(row.id)
        assert live is not None
        await until(lambda: live.state.phase == "play" and live.state.turn == 1, "Badr's turn")
        async with live.lock:  # a play is applied, then stored, then counted: read it whole
            version = live.version
        # As the sanction's notice has each process do: the owner's stand-in plays at once,
        # and the other process, which held nothing, holds nothing after.
        for env in (other, owner):
            assert await env.lifecycle.operator.leave_for_good("badr", "a test") == [row.id]
        assert row.id not in other.master.live and row.id in owner.master.live
        await until(lambda: live.version > version, "the stand-in's play")
        events = await owner.store.tables.events(row.id)
        assert events[version].auto == "stand_in"
        for env in envs:
            await env.close()

    asyncio.run(scenario())


def test_an_open_table_of_a_person_gone_for_good_ends_and_others_are_left() -> None:
    async def scenario() -> None:
        env = await started_env()
        theirs = env.lifecycle.plan(PEOPLE, {0: person(0, "badr", "Badr")}, None, None)
        other = env.lifecycle.plan(PEOPLE, {0: person(0, "amal", "Amal")}, None, None)
        for row in (theirs, other):
            assert await env.lifecycle.add(row, PAIRED) is not None
        watcher = Client(theirs.id, None)
        await env.master.connect(watcher)
        drain(watcher)
        env.master.drop(env.master.live[other.id])  # held nowhere: loaded to be looked at
        assert await env.lifecycle.operator.leave_for_good("badr", "a test") == [theirs.id]
        assert [m["table"]["status"] for m in drain(watcher) if m["type"] == "table"] == [
            "abandoned"
        ]
        for row, status in ((theirs, TableStatus.ABANDONED), (other, TableStatus.OPEN)):
            stored = await env.store.tables.load(row.id)
            assert stored is not None and stored.status == status
        assert await env.lifecycle.operator.leave_for_good("badr", "again") == []
        await env.close()

    asyncio.run(scenario())


def test_renamed_seats_are_shown_at_once() -> None:
    async def scenario() -> None:
        env, heard = await listening()
        row = env.lifecycle.plan(PEOPLE, {0: person(0, "badr", "Rude")}, None, None)
        assert await env.lifecycle.add(row, PAIRED) is not None
        watcher = Client(row.id, None)
        await env.master.connect(watcher)
        drain(watcher)
        assert await env.lifecycle.operator.rename_seats("badr", "Player 7") == [row.id]
        tables = [m["table"] for m in drain(watcher) if m["type"] == "table"]
        assert tables and tables[-1]["seats"][0]["name"] == "Player 7"
        assert any(n["kind"] == "meta" and n["table"] == row.id for n in heard)
        await env.close()

    asyncio.run(scenario())
