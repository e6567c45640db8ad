"""Reputation's costs: reading histories for a table and for a quick-play pool, and a
pairing pass with and without the leavers rule.

    python benchmarks/reputation.py [--people 1000] [--games 100] [--database URL]

Seeds ``--people`` identities with ``--games`` settled results each (one in ten left)
in a store (SQLite in memory unless ``--database`` names one), then times:

- ``table``: :meth:`Reputation.seat_badges`' one query for a table of four people
  (what a table load, a seat taken and a settlement add), p50 and p95 over 200 reads;
- ``pool``: :meth:`Reputation.leavers` for the whole pool (what one pairing pass adds):
  the first pass, which reads everyone, and the next, from the answers kept;
- ``plan``: :func:`~basra.server.features.pairing.plan_tables` over the pool as 2-player
  seeks, without leavers (the baseline) and with the tenth who leave often (the best of
  seven runs each).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

from basra.server.features.pairing import QuickPlayConfig, plan_tables
from basra.server.features.quickplay_store import SeekRow
from basra.server.features.reputation import Reputation
from basra.server.store.sql.schema import results, tables
from basra.server.stores import open_store


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
    }


async def main(people: int, games: int, database: str | None) -> dict[str, object]:
    store = open_store(database)
    await store.start()
    rng = random.Random(7)
    ids = [f"person{n:05d}" for n in range(people)]
    now = time.time()
    async with store.db.engine.begin() as conn:
        table_rows, result_rows = [], []
        for n, identity in enumerate(ids):
            leaver = n % 10 == 0
            for g in range(games):
                table_id = f"b{n}x{g}"
                at = now - g * 600
                table_rows.append(
                    {
                        "id": table_id,
                        "created_at": at - 600,
                        "updated_at": at,
                        "variant": "egyptian",
                        "players": 2,
                        "teams": False,
                        "first_dealer": 0,
                        "hints": False,
                        "status": "over",
                        "rated": True,
                        "settled_at": at,
                    }
                )
                left = leaver and rng.random() < 0.3
                result_rows.append(
                    {
                        "table_id": table_id,
                        "identity_id": identity,
                        "seat": 0,
                        "variant": "egyptian",
                        "family": "egyptian",
                        "kind": "2p",
                        "rated": True,
                        "outcome": "forfeit" if left else "win",
                        "place": 0,
                        "rounds": 3,
                        "basras": 0,
                        "score": 0,
                        "ended_at": at,
                    }
                )
        await conn.execute(tables.insert(), table_rows)
        await conn.execute(results.insert(), result_rows)
    reputation = Reputation(store.reputation)
    table_times = []
    for _ in range(200):
        four = rng.sample(ids, 4)
        started = time.perf_counter()
        await reputation.histories(four)
        table_times.append(time.perf_counter() - started)
    started = time.perf_counter()
    leavers = await reputation.leavers(ids)
    pool = time.perf_counter() - started
    started = time.perf_counter()
    assert await reputation.leavers(ids) == leavers
    pool_kept = time.perf_counter() - started
    seeks = [
        SeekRow(i, i, i, "egyptian", 2, False, 25.0 + rng.random() * 10, 8.0, 0.0, None, 0.0)
        for i in ids
    ]
    config = QuickPlayConfig()
    plans: dict[str, float] = {}
    for name, marked in (("without", set()), ("with", leavers)):
        runs = []
        for _ in range(7):
            started = time.perf_counter()
            plan_tables(seeks, 60.0, config, (), marked)
            runs.append(time.perf_counter() - started)
        plans[name] = round(min(runs) * 1000, 3)
    await store.close()
    return {
        "people": people,
        "games_each": games,
        "table_of_4": _ms(table_times),
        "pool_leavers_ms": round(pool * 1000, 3),
        "pool_leavers_kept_ms": round(pool_kept * 1000, 3),
        "leavers": len(leavers),
        "plan_tables_ms": plans,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.people, args.games, args.database)), indent=1))
