"""Tournaments across processes and restarts.

Every ``basra serve`` process is killed mid-round (at the very moment a game's
final play is stored, before its result reaches the event), then restarted: the
event goes on and ends with every game played once and every result recorded.
Two processes on one store pair one at a time (a lease), never seating an entrant
at two tables at once; so do two ``basra serve`` processes on PostgreSQL and
Redis, where people watching the event on either process are told of their games.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import file_store, server_process, sharing
from tests.web.test_services import postgres, redis  # noqa: F401 (fixtures)
from tests.web.tourney import QUICK, SERVICE, Entrant, detail, join, make_event, organiser, wait_for

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.tournaments.runner import bot_entrant, new_event_id
from basra.server.features.tournaments.store import TournamentRow
from basra.server.runtime.pubsub import MemoryHub
from basra.tournaments import EventSettings

OPTIONS = ("--round-pause", "0", "--tournaments", "none", "--bot-processes", "0")


def no_entrant_at_two_tables(games: list[dict[str, Any]]) -> None:
    """Each entrant's games, in the order they were paired, each ended before the next."""
    by_entrant: dict[str, list[dict[str, Any]]] = {}
    for game in games:
        for side in game["sides"]:
            by_entrant.setdefault(side, []).append(game)
    for entrant, mine in by_entrant.items():
        mine.sort(key=lambda g: g["paired_at"])
        for one, two in itertools.pairwise(mine):
            assert one["over"], (entrant, one, two)
            assert one["finished_at"] <= two["paired_at"] + 1e-6, (entrant, one, two)


@pytest.mark.slow
def test_an_event_survives_every_process_killed_mid_round(tmp_path: Path) -> None:
    database = str(tmp_path / "restart.db")
    options = (*OPTIONS, "--bot-delay", "0.05")
    crash = {"BASRA_CRASH_AT": "final_after_commit"}
    with server_process(database, *options, env=crash) as (proc, url):
        amal = organiser(url)
        event = make_event(
            url, amal, format="swiss", rounds=2, bots=True, starts_at=time.time() + 1.5
        )["id"]
        join(url, event, amal, bot="easy", count=4)
        # The first game to end kills the server as its final play is stored: the other
        # table of the round waits for room (bots only: one at a time, the maker's), and
        # the event has not heard of either.
        assert proc.wait(120) == 137, "the server should have crashed at a final play"
    with server_process(database, *options) as (_, url):
        final = wait_for(
            lambda: (d := detail(url, event))["status"] == "finished" and d, "the end", 180
        )
    assert final["ended"] == "done"
    assert [len(p["tables"]) for p in final["pairings"]] == [2, 2]
    games = [g for p in final["pairings"] for t in p["tables"] for g in t["games"]]
    assert len(games) == 4 and all(g["over"] and not g["late"] for g in games)
    assert len({g["table"] for g in games}) == 4
    assert sorted(s["games"] for s in final["standings"]) == [2, 2, 2, 2]


def test_two_processes_on_one_store_pair_one_at_a_time() -> None:
    async def scenario() -> None:
        store, hub = file_store(), MemoryHub()
        config = AppConfig(service=SERVICE, tournaments=QUICK)
        envs = [
            Env(config, store=store, hub=hub, origin="one"),
            Env(config, store=sharing(store), hub=hub.attach(), origin="two"),
        ]
        for env in envs:
            await env.start(resume=False)
        now = time.time()
        settings = EventSettings.from_json(
            {"format": "arena", "minutes": 5, "bots": True, "rules": {"target": 1}}
        )
        bots = [bot_entrant(level, i + 1, 20.0, i, now) for i, level in enumerate(["easy"] * 9)]
        row = TournamentRow(
            new_event_id(), "Arena", settings.to_json(), "created", now, now, ends_at=now + 300
        )
        await store.tournaments.create(
            row, bots, [(f"bot:{b.entrant_id}", b.entrant_id) for b in bots]
        )
        holders: list[tuple[bool, bool]] = []
        deadline = time.time() + 60
        while True:
            holders.append(tuple(e.tournaments.runner.holding for e in envs))  # type: ignore[arg-type]
            held = await envs[1].tournaments.events.get(row.id)
            assert held is not None
            if sum(1 for g in held.games.values() if g.result is not None) >= 12:
                break
            assert time.time() < deadline, "the arena did not play a dozen games"
            await asyncio.sleep(0.05)
        assert not any(one and two for one, two in holders), "both processes held the lease"
        assert sum(e.tournaments.runner.passes for e in envs) > 0
        games = [
            {
                "sides": list(g.sides),
                "paired_at": g.created_at,
                "finished_at": g.finished_at,
                "over": g.result is not None,
            }
            for g in held.games.values()
        ]
        done = [g for g in games if g["over"]]
        no_entrant_at_two_tables(done)
        open_sides = [s for g in games if not g["over"] for s in g["sides"]]
        assert len(open_sides) == len(set(open_sides)), "an entrant at two open tables"
        for env in envs:
            await env.close()

    asyncio.run(scenario())


@pytest.mark.services
def test_two_processes_on_postgresql_and_redis_run_an_arena(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
) -> None:
    options = (*OPTIONS, "--redis", redis, "--bot-delay", "0.02")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        amal = organiser(one)
        event = make_event(
            one, amal, format="arena", minutes=5, bots=True, starts_at=time.time() + 2
        )["id"]
        join(one, event, amal, bot="easy", count=4)
        people = []
        for index, url in enumerate((one, two)):
            token = organiser(url, f"p{index}")
            join(url, event, token, name=f"P{index}")
            people.append(Entrant(url, event, token, f"P{index}"))
        deadline = time.time() + 120
        while not all(len(p.played) >= 2 and p.player is None for p in people):
            assert time.time() < deadline, [p.played for p in people]
            for person in people:
                if len(person.played) >= 2 and person.player is None:
                    continue  # done: takes no new table (the autopilot sits in for them)
                person.step()
        shown = [detail(url, event) for url in (one, two)]
        games = detail(two, event)["finished"]
        no_entrant_at_two_tables(games)
        entrants = {e["name"]: e["id"] for e in shown[0]["entrants"]}
        for index, person in enumerate(people):
            mine = [g for g in games if entrants[f"P{index}"] in g["sides"]]
            assert {g["table"] for g in mine} >= set(person.played[:1])
        for person in people:
            person.close()
