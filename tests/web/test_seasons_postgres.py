"""Seasons on a real PostgreSQL: two processes' stores closing the same seasons at the same
moment write each final table once (the advisory lock and the close row's key), and the
grouped totals PostgreSQL adds up give the table the rule gives from the rows themselves."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from tests.web.test_services import postgres

from basra.server.features.seasons import SeasonConfig, Seasons
from basra.server.features.seasons.rules import GAME_POINTS, Entry, table_of, totals_of
from basra.server.store.sql import schema
from basra.server.stores import SqlStore

pytestmark = pytest.mark.services
__all__ = ["postgres"]  # the module's PostgreSQL cluster

FIRST = 1_800_000_000.0


def rows_of(rng: random.Random, people: list[str], games: int, config: SeasonConfig) -> Any:
    """Tables and their results, two people a game, spread over seasons 1 to 3."""
    tables, results = [], []
    for game in range(games):
        a, b = rng.sample(people, 2)
        at = FIRST + rng.uniform(0, config.calendar.end(3) - FIRST)
        table_id = f"t{game:06d}"
        tables.append(
            {
                "id": table_id,
                "created_at": at,
                "updated_at": at,
                "variant": "egyptian",
                "players": 2,
                "teams": False,
                "first_dealer": 0,
                "hints": False,
                "status": "over",
                "rated": True,
            }
        )
        first = rng.choice(("win", "draw", "loss"))
        other = {"win": "loss", "loss": "win", "draw": "draw"}[first]
        for seat, (who, outcome) in enumerate(((a, first), (b, other))):
            results.append(
                {
                    "table_id": table_id,
                    "identity_id": who,
                    "seat": seat,
                    "variant": "egyptian",
                    "family": "egyptian",
                    "kind": "2p",
                    "rated": True,
                    "outcome": outcome,
                    "place": 0 if outcome != "loss" else 1,
                    "rounds": 2,
                    "basras": 0,
                    "score": 11,
                    "ended_at": at,
                }
            )
    return tables, results


def test_two_processes_close_each_season_once_on_postgresql(postgres: str) -> None:
    async def scenario() -> None:
        config = SeasonConfig(length="1 days", first=FIRST, promoted=2, relegated=2)
        stores = [SqlStore(postgres), SqlStore(postgres)]
        for store in stores:
            await store.start()
        services = [
            Seasons(config, s.seasons, s.leases, s.players, s.identities, f"p{i}")
            for i, s in enumerate(stores)
        ]
        rng = random.Random(5)
        people = [f"person{i:02d}" for i in range(24)]
        tables, results = rows_of(rng, people, 300, config)
        async with stores[0].db.engine.begin() as conn:
            await conn.execute(schema.tables.insert(), tables)
            await conn.execute(schema.results.insert(), results)
        starts: dict[str, int] = {}
        for season in (1, 2, 3):
            start, end = config.calendar.start(season), config.calendar.end(season)
            in_season = [r for r in results if start <= r["ended_at"] < end]
            closed = await asyncio.gather(
                *(s.close_season("egyptian", season, end + 60) for s in services for _ in range(3))
            )
            people_in = len({r["identity_id"] for r in in_season})
            assert sorted(closed, key=lambda c: c is None) == [people_in] + [None] * 5
            # The final table is the rule's, from the rows as they are.
            entries = [
                Entry(
                    r["identity_id"],
                    GAME_POINTS[r["outcome"]],
                    r["outcome"] == "win",
                    r["ended_at"],
                )
                for r in in_season
            ]
            expected = table_of(totals_of(entries), starts, 5, 2, 2)
            final = await stores[1].seasons.final("egyptian", season)
            assert sorted(final, key=lambda x: x.identity) == sorted(
                expected, key=lambda x: x.identity
            )
            starts.update({line.identity: line.next_division for line in final})
        assert {line.division for line in await stores[0].seasons.final("egyptian", 3)} == {
            0,
            1,
            2,
        }  # three seasons: people have climbed to Gold
        for store in stores:
            await store.close()

    asyncio.run(scenario())
