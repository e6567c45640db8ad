"""Clubs (issue 31): how long a club's page and the weekly club leaderboard take.

    PYTHONPATH=src python benchmarks/clubs.py [--members 100] [--clubs 100] [--runs 30]
        [--database PATH]

On a SQLite file (a temporary one unless ``--database`` names one), in one process
without HTTP: a club of ``--members`` people (no games: the page's per-member reads still
run), every member a friend of the viewer (mutual follows); then p50/p95 over
``--runs`` of the club's page as a member sees it (:meth:`Clubs.page`: every member's
rating, presence and newest games) next to the viewer's friends list of the same
people (:meth:`Friends.listing`, the baseline: one list of the same size); and the
weekly leaderboard counted afresh over ``--clubs`` clubs of ten members each.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from basra.server.app import AppConfig
from basra.server.env import Env


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {1000 * statistics.median(ordered):.1f} ms, p95 {1000 * p95:.1f} ms"


async def timed(work: object, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        await work()  # type: ignore[operator]
        samples.append(time.perf_counter() - started)
    return samples


async def main(args: argparse.Namespace) -> None:
    database = args.database or str(Path(tempfile.mkdtemp()) / "clubs.db")
    env = Env(AppConfig(database=database))
    await env.start(resume=False)
    clubs, friends = env.clubs, env.friends
    viewer = (await env.identities.create("127.0.0.1")).caller.identity
    slug = (await clubs.make(viewer, {"name": "Benchmark Club"}))["slug"]
    people = []
    for n in range(args.members):
        who = (await env.identities.create(f"10.0.{n // 250}.{n % 250}")).caller.identity
        people.append(who)
        await clubs.join(who, slug)
        code = (await friends.link(who, "http://site"))["code"]
        await friends.follow(viewer, {"code": code})
        await friends.follow(who, {"code": (await friends.link(viewer, "http://site"))["code"]})
    page = await timed(lambda: clubs.page(slug, viewer), args.runs)
    listing = await timed(lambda: friends.listing(viewer), args.runs)
    print(f"club page, {args.members} members: {percentiles(page)}")
    print(f"friends list, the same {args.members} people (baseline): {percentiles(listing)}")
    for c in range(args.clubs):
        owner = (await env.identities.create(f"10.1.{c // 250}.{c % 250}")).caller.identity
        made = (await clubs.make(owner, {"name": f"Board Club {c}"}, None))["slug"]
        for n in range(9):
            who = (await env.identities.create(f"10.2.{c % 250}.{n}")).caller.identity
            await clubs.join(who, made)
    board = []
    for _ in range(max(3, args.runs // 10)):
        clubs._board = None  # counted afresh each time
        started = time.perf_counter()
        await clubs.weekly()
        board.append(time.perf_counter() - started)
    print(f"weekly board, {args.clubs + 1} clubs: {percentiles(board)} (counted afresh)")
    await env.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--database")
    asyncio.run(main(parser.parse_args()))
