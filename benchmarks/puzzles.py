"""Puzzles mined from self-play: how many per variant and theme, how long mining takes,
and how many exact puzzles an independent exhaustive search confirms.

    nice -n 15 python benchmarks/puzzles.py [--games 12] [--workers 2] [--out mined.jsonl]
    python benchmarks/puzzles.py --summary mined.log     # the summary of a finished run

For every table (each preset with 2 players, and a few tables of 3 and 4) it
plays ``--games`` whole games between ``hard`` bots on the compiled kernel,
then, game by game and in the same process: reviews the game as ``basra
review`` does (the baseline: the coach's analysis of every decision at the
review's budget), mines it with that review as the screen (``basra puzzles
make`` on a reviewed game, as the server will), and on every ``--alone``-th
game mines it again from nothing (``basra puzzles make`` on a bare record).
Each exact puzzle is then re-solved by ``tests/reference/refsolve.py`` (an
exhaustive minimax on the reference engine, written from the rules alone) and
compared move by move. Prints counts per table and per theme, seconds per
game, and what 10,000 games would give and cost at the same rates. The
machine may be shared: the times are per process, next to the review's
measured in the same process on the same games.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from basra.bots import make_bot, play_game  # noqa: E402
from basra.coach.analysis import DEFAULT_SAMPLES  # noqa: E402
from basra.coach.review import review_record  # noqa: E402
from basra.kernel import describe  # noqa: E402
from basra.puzzles.mine import MineStats, mine_record  # noqa: E402
from basra.record import record_of  # noqa: E402
from basra.rules import VARIANT_NAMES  # noqa: E402
from basra.state import GameState  # noqa: E402

TABLES = [f"{name}:2" for name in VARIANT_NAMES] + [
    "egyptian:3",
    "egyptian:4:teams",
    "lebanese:4:teams",
]
TARGET_GAMES = 10_000


def parse_table(text: str) -> tuple[str, int, bool]:
    parts = text.split(":")
    return parts[0], int(parts[1]), len(parts) > 2 and parts[2] == "teams"


def one_game(task: tuple[str, int, int, bool]) -> dict[str, Any]:
    """Play, review and mine one game; returns its counts, times and puzzle lines."""
    table, index, seed, alone = task
    variant, players, teams = parse_table(table)
    rng = random.Random(f"basra-puzzles-bench/{seed}/{table}/{index}")
    started = time.process_time()
    state = GameState(variant, players, teams=teams, first_dealer=rng.randrange(players))
    bots = [make_bot("hard", seed=rng.getrandbits(32)) for _ in range(players)]
    play_game(state, bots, rng)
    record = record_of(state)
    selfplay = time.process_time() - started

    started = time.process_time()
    review = review_record(record, samples=DEFAULT_SAMPLES)
    review_seconds = time.process_time() - started

    source = f"selfplay {table} seed {seed} game {index + 1}"
    stats = MineStats()
    started = time.process_time()
    puzzles = mine_record(record, review=review, source=source, stats=stats)
    mine_seconds = time.process_time() - started

    alone_seconds = None
    if alone:
        started = time.process_time()
        again = mine_record(record, source=source)
        alone_seconds = time.process_time() - started
        if [p.line() for p in again] != [p.line() for p in puzzles]:
            raise AssertionError(f"{source}: mining alone and from the review differ")
    return {
        "table": table,
        "game": index,
        "rounds": len(state.rounds),
        "selfplay_seconds": selfplay,
        "review_seconds": review_seconds,
        "mine_seconds": mine_seconds,
        "alone_seconds": alone_seconds,
        "stats": stats.to_json(),
        "puzzles": [p.line() for p in puzzles],
    }


def confirm_one(line: str) -> tuple[str, bool, float]:
    """Re-solve one exact puzzle with the independent solver: (id, agreed, CPU seconds)."""
    from tests.reference.refsolve import solve_record

    data = json.loads(line)
    started = time.process_time()
    values, everywhere, count = solve_record(data["record"])
    seconds = time.process_time() - started
    mine = {m["move"]: m["points"] for m in data["moves"]}
    same = (
        count == data["arrangements"]
        and data["answer"] in everywhere
        and set(values) == set(mine)
        and all(abs(values[m] - mine[m]) <= 0.01 for m in mine)
    )
    return data["id"], same, seconds


def confirm(lines: list[str], workers: int = 1) -> dict[str, Any]:
    """Re-solve every exact puzzle with the independent solver; count agreements."""
    exact = [line for line in lines if json.loads(line)["exact"]]
    checked = agreed = 0
    seconds = 0.0
    disagreements = []
    with multiprocessing.Pool(workers) as pool:
        for puzzle_id, same, spent in pool.imap_unordered(confirm_one, exact):
            checked += 1
            agreed += same
            seconds += spent
            if not same:
                disagreements.append(puzzle_id)
            print(f"\rconfirmed {agreed} of {checked}/{len(exact)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return {
        "checked": checked,
        "agreed": agreed,
        "seconds": seconds,
        "disagreements": disagreements,
    }


def summarize(results: list[dict[str, Any]], check: dict[str, Any] | None) -> None:
    by_table: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, Counter[str]] = defaultdict(Counter)
    themes: Counter[str] = Counter()
    themes_exact: Counter[str] = Counter()
    themes_any: Counter[str] = Counter()
    ratings: Counter[int] = Counter()
    table_themes: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        t = r["table"]
        c = by_table[t]
        c["games"] += 1
        c["rounds"] += r["rounds"]
        for key in ("decisions", "candidates", "puzzles", "exact"):
            c[key] += r["stats"][key]
        for key in ("selfplay_seconds", "review_seconds", "mine_seconds"):
            times[t][key] += r[key]
        if r["alone_seconds"] is not None:
            times[t]["alone_seconds"] += r["alone_seconds"]
            times[t]["alone_games"] += 1
        for line in r["puzzles"]:
            data = json.loads(line)
            themes[data["theme"]] += 1
            themes_any.update(data["themes"])
            ratings[data["rating"]] += 1
            table_themes[t][data["theme"]] += 1
            if data["exact"]:
                themes_exact[data["theme"]] += 1
    print(f"puzzles from self-play ({describe()}; hard bots; review budget {DEFAULT_SAMPLES})")
    head = (
        f"{'table':<26}{'games':>6}{'rounds':>7}{'decis.':>7}{'cand.':>6}{'puzzles':>8}"
        f"{'exact':>6}{'/game':>7}{'review s':>9}{'mine s':>8}{'alone s':>8}"
    )
    print(head)
    total: Counter[str] = Counter()
    total_times: Counter[str] = Counter()
    for t in sorted(by_table, key=lambda t: (t.split(":")[1], t)):
        c, s = by_table[t], times[t]
        games = c["games"]
        alone = s["alone_seconds"] / s["alone_games"] if s["alone_games"] else float("nan")
        print(
            f"{t:<26}{games:>6}{c['rounds']:>7}{c['decisions']:>7}{c['candidates']:>6}"
            f"{c['puzzles']:>8}{c['exact']:>6}{c['puzzles'] / games:>7.1f}"
            f"{s['review_seconds'] / games:>9.1f}{s['mine_seconds'] / games:>8.1f}{alone:>8.1f}"
        )
        total += c
        total_times += s
    games = total["games"]
    print(
        f"{'all':<26}{games:>6}{total['rounds']:>7}{total['decisions']:>7}"
        f"{total['candidates']:>6}{total['puzzles']:>8}{total['exact']:>6}"
        f"{total['puzzles'] / games:>7.1f}{total_times['review_seconds'] / games:>9.1f}"
        f"{total_times['mine_seconds'] / games:>8.1f}"
        f"{total_times['alone_seconds'] / max(total_times['alone_games'], 1):>8.1f}"
    )
    print(
        "seconds a game (CPU of one process): review = the baseline (every decision analysed "
        "at the review's budget); mine = mining a reviewed game (its values are the screen); "
        "alone = mining a bare record (screen included), on every --alone-th game"
    )
    print("\nby theme: puzzles whose main theme it is, of which exact; puzzles with the theme")
    for name, count in themes.most_common():
        print(f"  {name:<16}{count:>6}{themes_exact[name]:>7}{themes_any[name]:>7}")
    print("first ratings: " + ", ".join(f"{r}: {n}" for r, n in sorted(ratings.items())))
    print("\nby table and theme:")
    for t in sorted(table_themes):
        print(f"  {t:<24}" + ", ".join(f"{k} {v}" for k, v in table_themes[t].most_common()))
    scale = TARGET_GAMES / games
    cpu = (total_times["review_seconds"] + total_times["mine_seconds"]) * scale
    print(
        f"\nextrapolated to {TARGET_GAMES:,} games in the same mix of tables: about "
        f"{total['puzzles'] * scale:,.0f} puzzles ({total['exact'] * scale:,.0f} exact), "
        f"{cpu / 3600:,.0f} CPU hours to review and mine "
        f"({total_times['mine_seconds'] * scale / 3600:,.0f} of them mining)"
    )
    if check is not None:
        print(
            f"\nindependent exhaustive search (tests/reference/refsolve.py): {check['agreed']} of "
            f"{check['checked']} exact puzzles confirmed move by move "
            f"({check['seconds']:.0f} CPU s); disagreements: {check['disagreements'] or 'none'}"
        )


def select_shipped(lines: list[str], per_table: int) -> list[str]:
    """A set to ship: up to ``per_table`` puzzles from each table, spread over the themes
    (the rarest first); puzzles a greedy player gets wrong first, then short records
    (early rounds: the file stays small), then exact ones."""
    by_table: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        data = json.loads(line)
        by_table[data["source"].split()[1]].append(data)
    overall = Counter(data["theme"] for group in by_table.values() for data in group)
    chosen: list[dict[str, Any]] = []
    for table in sorted(by_table):
        pool = sorted(
            by_table[table],
            key=lambda d: (d["rating"] <= 1000, len(d["record"]["rounds"]), -d["exact"], d["id"]),
        )
        picked: list[dict[str, Any]] = []
        taken: Counter[str] = Counter()
        while pool and len(picked) < per_table:
            themes = sorted({d["theme"] for d in pool}, key=lambda t: (taken[t], overall[t], t))
            best = next(d for d in pool if d["theme"] == themes[0])
            pool.remove(best)
            picked.append(best)
            taken[best["theme"]] += 1
        chosen += picked
    return [json.dumps(d, ensure_ascii=False, separators=(",", ":")) for d in chosen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per table")
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--alone", type=int, default=6, help="mine every N-th game alone too")
    parser.add_argument("--out", default="mined.jsonl", help="the puzzles found")
    parser.add_argument("--log", default=None, help="per-game results (default OUT.log)")
    parser.add_argument("--summary", metavar="LOG", help="only summarize a finished run's log")
    parser.add_argument("--no-confirm", action="store_true")
    parser.add_argument("--ship", metavar="FILE", help="also write a set to ship (--summary)")
    parser.add_argument("--per-table", type=int, default=8, help="puzzles a table in --ship")
    args = parser.parse_args()
    if args.summary:
        results = [json.loads(line) for line in Path(args.summary).read_text().splitlines()]
        lines = [line for r in results for line in r["puzzles"]]
        summarize(results, None if args.no_confirm else confirm(lines, args.workers))
        if args.ship:
            shipped = select_shipped(lines, args.per_table)
            Path(args.ship).write_text("".join(line + "\n" for line in shipped))
            print(f"\n{len(shipped)} puzzles written to {args.ship}")
        return
    log = Path(args.log or f"{args.out}.log")
    done = set()
    results = []
    if log.exists():
        for line in log.read_text().splitlines():
            r = json.loads(line)
            done.add((r["table"], r["game"]))
            results.append(r)
    tasks = [
        (table, index, args.seed, index % args.alone == 0)
        for index in range(args.games)
        for table in args.tables.split(",")
        if (table, index) not in done
    ]
    started = time.monotonic()
    with log.open("a") as out, multiprocessing.Pool(args.workers) as pool:
        for n, result in enumerate(pool.imap_unordered(one_game, tasks), start=1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            results.append(result)
            print(
                f"\r{n}/{len(tasks)} games, {time.monotonic() - started:.0f} s",
                end="",
                file=sys.stderr,
            )
    print(file=sys.stderr)
    lines = [line for r in results for line in r["puzzles"]]
    Path(args.out).write_text("".join(line + "\n" for line in lines))
    summarize(results, None if args.no_confirm else confirm(lines, args.workers))


if __name__ == "__main__":
    main()
