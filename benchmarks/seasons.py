"""Seasons: how long the season page's standings and a season's close take on a big season.

    nice -n 15 python benchmarks/seasons.py [--people 5000] [--games 100000] [--repeat 20]

Fills a SQLite file with ``--games`` rated results of ``--people`` people in one family
and one season (written straight into ``results``, as the table master's settlement
writes them), and arena placings for a tenth of them; then times, in one process:
``Seasons.standing`` (``GET /api/seasons``: the whole season's entries read and ordered,
one division's lines named) with the ``results`` index by family and time that migration
``0013_seasons`` adds, and the same with that index dropped (the baseline: what the query
costs on the schema before); then the season's close (the final table worked out and
written in one transaction). Prints p50 and p95 in milliseconds, and the same page when
the process reuses the standings it read (``fresh``, 10 seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sqlalchemy import text  # noqa: E402

from basra.server.features.seasons import ArenaPlacing, SeasonConfig, Seasons  # noqa: E402
from basra.server.store.sql import schema  # noqa: E402
from basra.server.stores import SqlStore  # noqa: E402

FIRST = 1_800_000_000.0


async def fill(store: SqlStore, people: int, games: int, rng: random.Random) -> list[str]:
    """People, their tables and results (two people a game), and arena placings."""
    ids = [f"p{index:06d}" for index in range(people)]
    tables, results = [], []
    for game in range(games // 2):
        a, b = rng.sample(ids, 2)
        at = FIRST + rng.uniform(0, 80 * 86400)
        table_id = f"t{game:08d}"
        tables.append(
            {
                "id": table_id,
                "variant": "egyptian",
                "players": 2,
                "teams": False,
                "status": "over",
                "created_at": at,
                "updated_at": at,
                "rules": "{}",
                "first_dealer": 0,
                "hints": False,
                "rated": True,
            }
        )
        win = rng.random()
        for seat, (who, outcome) in enumerate(
            ((a, "win" if win < 0.45 else "draw" if win < 0.55 else "loss"),
             (b, "loss" if win < 0.45 else "draw" if win < 0.55 else "win"))
        ):  # fmt: skip
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
                    "place": 0 if outcome == "win" else 1,
                    "rounds": 3,
                    "basras": 1,
                    "score": 11,
                    "ended_at": at,
                }
            )
    columns = {c.name for c in schema.tables.columns}
    async with store.db.engine.begin() as conn:
        await conn.execute(text("PRAGMA foreign_keys=OFF"))
        await conn.execute(
            schema.tables.insert(), [{k: v for k, v in t.items() if k in columns} for t in tables]
        )
        await conn.execute(schema.results.insert(), results)
    for event in range(people // 100):
        placings = [ArenaPlacing(who, place, 3) for place, who in enumerate(rng.sample(ids, 10))]
        await store.seasons.record_arena(f"e{event}", "egyptian", placings, FIRST + event * 60)
    return ids


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{name:<44} p50 {statistics.median(ms):8.1f} ms   p95 {p95:8.1f} ms"


async def main(people: int, games: int, repeat: int) -> None:
    folder = tempfile.mkdtemp(prefix="basra-seasons-")
    store = SqlStore(os.path.join(folder, "basra.db"))
    await store.start()
    rng = random.Random(7)
    config = SeasonConfig(first=FIRST, fresh=0.0)  # every request reads: the worst case
    seasons = Seasons(config, store.seasons, store.leases, store.players, store.identities, "b")
    cached = Seasons(
        SeasonConfig(first=FIRST), store.seasons, store.leases, store.players, store.identities, "c"
    )
    started = time.perf_counter()
    ids = await fill(store, people, games, rng)
    print(f"{people} people, {games} results, {people // 100 * 10} arena placings: "
          f"filled in {time.perf_counter() - started:.1f} s")  # fmt: skip
    now = FIRST + 85 * 86400

    async def timed(service: Seasons = seasons) -> list[float]:
        out = []
        for index in range(repeat):
            start = time.perf_counter()
            await service.standing("egyptian", ids[index], None, now)
            out.append(time.perf_counter() - start)
        return out

    with_index = await timed()
    reused = await timed(cached)
    async with store.db.engine.begin() as conn:
        await conn.execute(text("DROP INDEX ix_results_family_ended_at"))
    without = await timed()
    print(summary("standing (GET /api/seasons), with the index", with_index))
    print(summary("standing, baseline: without it", without))
    print(summary("standing, reused for 10 s (the default)", reused))
    start = time.perf_counter()
    closed = await seasons.close_season("egyptian", 1, config.calendar.end(1) + 60)
    print(f"{'close (final table of ' + str(closed) + ' written)':<44} "
          f"{(time.perf_counter() - start) * 1000:8.1f} ms")  # fmt: skip
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=5000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    asyncio.run(main(options.people, options.games, options.repeat))
