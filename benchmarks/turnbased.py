"""Turn-based tables (issue 32): what a server holds for thousands of deadlines days off.

    python benchmarks/turnbased.py [--games 1000]

Makes ``--games`` turn-based tables (two days a move) of a person against an easy bot
in one server (in-process, the tables' clock a ``FakeClock``, SQLite in memory), waits
until every one is at the person's turn, then counts the asyncio tasks and the clock's
sleepers the deadlines hold, the memory traced, and the time ``GET /api/turns``'s
listing takes. It runs twice in the same process: with the autopilot's far heap (a
deadline more than ``autopilot.FAR`` seconds off waits in one heap watched by one task)
and, as the baseline, with ``FAR`` set to infinity (every deadline a sleeping task of
its own, as a live table's is).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.helpers import FAST, started_env
from tests.web.test_service import spec

from basra.server.table import autopilot
from basra.server.table.clocks import FakeClock


async def run(far: float, games: int) -> str:
    """One run: the counts with ``FAR`` at ``far``, as one line."""
    autopilot.FAR = far
    fake = FakeClock()
    service = await started_env(replace(FAST, clock=fake))
    amal = (await service.identities.create("bench")).caller
    form = spec(seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], clock={"days": 2})
    tracemalloc.start()
    before = len(asyncio.all_tasks())
    for _ in range(games):
        await service.lifecycle.create(amal, "bench", "Amal", form)
    live = service.master.live.values()
    while sum(1 for t in live if t.clock is not None and t.clock.turn is not None) < games:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    tasks = len(asyncio.all_tasks()) - before
    traced = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    started = time.perf_counter()
    listed = await service.turns.listing(amal.identity)
    took = time.perf_counter() - started
    line = (
        f"FAR={far:g} s: {games} games; tasks {tasks}, clock sleepers {fake.sleepers}, "
        f"in the far heap {service.master.autopilot.waiting_far}; traced {traced / 1e6:.1f} MB; "
        f"/api/turns of {len(listed['turns'])} games in {took * 1000:.0f} ms"
    )
    await service.close()
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    for far in (autopilot.FAR, float("inf")):
        print(asyncio.run(run(far, args.games)), flush=True)


if __name__ == "__main__":
    main()
