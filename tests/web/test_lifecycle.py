"""What later features build on: tables the server makes, with given packs, and results told.

A tournament makes its tables with :meth:`Lifecycle.plan` and :meth:`Lifecycle.add`
(admitted against a :class:`Budget`),
gives their packs with :meth:`Lifecycle.deal_with`, and hears each settled game with
:meth:`Finisher.subscribe`, once per game across processes.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import FAST, TEST_LIMITS, file_store, sharing, started_env

from basra.rules import preset
from basra.server.errors import ProtocolError
from basra.server.store.rows import SeatKind, SeatRow, Settlement, TableRow
from basra.server.table.admission import Budget
from basra.server.table.forms import TableSpec
from basra.server.table.ratings import Standings
from basra.server.table.reducer import EventKind, deal_event
from basra.state import shuffled_pack

BOTS = ((SeatKind.BOT, "easy"), (SeatKind.BOT, "easy"))
PAIRED = Budget(paired=True)
"""A table the server pairs (its all-bot tables count against the server's cap)."""


def spec(**rules: Any) -> TableSpec:
    return TableSpec("egyptian", dict(rules), 2, False, False, BOTS, None)


async def until(predicate: Any, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting: {what}"
        await asyncio.sleep(0.01)


def test_a_table_the_server_makes_deals_the_packs_it_is_given() -> None:
    async def scenario() -> None:
        env = await started_env()
        rules = preset("egyptian").with_overrides({"target": 150})
        packs = [shuffled_pack(rules, random.Random(seed)) for seed in range(40)]
        given: dict[str, list[list[int]]] = {}

        def tournament(row: TableRow, round_index: int) -> Sequence[int] | None:
            return given[row.id][round_index] if row.id in given else None

        env.lifecycle.deal_with(tournament)
        row = env.lifecycle.plan(spec(target=150), {}, None, "tournament")
        given[row.id] = packs
        live = await env.lifecycle.add(row, PAIRED)
        assert live is not None and live.row.status == "playing"
        await until(lambda: live.state.is_over, "the game's end")
        deals = [e for e in await env.store.tables.events(row.id) if e.kind == EventKind.DEAL]
        assert len(deals) > 1
        assert [e.data for e in deals] == [deal_event(0, p).data for p in packs[: len(deals)]]
        # Another table, not the tournament's, is shuffled by the server.
        other = await env.lifecycle.add(
            env.lifecycle.plan(spec(target=150), {}, None, None), PAIRED
        )
        assert other is not None
        await until(lambda: other.version > 0, "the other table's deal")
        first = (await env.store.tables.events(other.id))[0]
        assert first.data != deal_event(0, packs[0]).data
        await env.close()

    asyncio.run(scenario())


def test_an_all_bot_table_the_server_pairs_counts_against_its_event_and_maker() -> None:
    async def scenario() -> None:
        limits = replace(TEST_LIMITS, bot_tables_per_identity=2, bot_tables_per_event=1)
        env = await started_env(replace(FAST, limits=limits))
        event = Budget("maker", "192.0.2.7", "tournament:e1:", paired=True)
        plan = env.lifecycle.plan

        def owned(key: str) -> TableRow:
            return plan(spec(), {}, None, "tournament", owner=f"tournament:{key}")

        first = owned("e1:1:0:0")
        assert await env.lifecycle.add_once(first, event) is not None
        assert (first.created_by, first.created_from) == ("maker", "192.0.2.7")
        # Made again (a pairing re-applied): opened, though its own count fills the cap.
        assert await env.lifecycle.add_once(first, event) is not None
        with pytest.raises(ProtocolError) as refused:
            await env.lifecycle.add_once(owned("e1:1:1:0"), event)
        assert refused.value.code == "rate_limited"
        assert "all-bot tables per event: at most 1" in refused.value.message
        # The maker's own all-bot tables share the maker's two with the event's.
        assert await env.lifecycle.add(plan(spec(), {}, "maker", None), Budget("maker"))
        with pytest.raises(ProtocolError) as refused:
            await env.lifecycle.add(plan(spec(), {}, "maker", None), Budget("maker"))
        assert "all-bot tables per person: at most 2" in refused.value.message
        # Another event's table with a person seated is made, and counts against nobody.
        person = SeatRow(0, SeatKind.PERSON, None, "someone", "Amal")
        people = plan(spec(), {0: person}, None, "tournament", owner="tournament:e2:1:0:0")
        assert await env.lifecycle.add_once(people, event) is not None
        assert people.created_by is None
        await env.close()

    asyncio.run(scenario())


def test_each_settled_game_is_told_once_across_processes() -> None:
    async def scenario() -> None:
        store = file_store()
        one = await started_env(store=store, origin="one")
        two = await started_env(store=sharing(store), origin="two")
        heard: list[tuple[str, str, Standings, Settlement]] = []
        for name, env in (("one", one), ("two", two)):

            async def listener(game: Standings, done: Settlement, name: str = name) -> None:
                heard.append((name, game.table_id, game, done))

            env.finisher.subscribe(listener)
        row = one.lifecycle.plan(spec(target=1), {}, None, "tournament")
        live = await one.lifecycle.add(row, PAIRED)
        assert live is not None
        await until(lambda: len(heard) == 1, "the settlement")
        # The other process had the table loaded before it was settled, and settles it too:
        # the store settles it once, and nobody there is told again.
        again = await two.master.get(row.id)
        assert again is not None and again.state.is_over
        again.row.settled_at = None
        task = two.finisher.settle_if_due(again)
        assert task is not None
        await task
        assert [(name, table) for name, table, _, _ in heard] == [("one", row.id)]
        game = heard[0][2]
        assert game.table_id == row.id and not game.rated and len(game.places) == 2
        await one.close()
        await two.close()

    asyncio.run(scenario())
