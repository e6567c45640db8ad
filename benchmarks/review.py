"""Review speed: one 2-player Egyptian round reviewed (both seats) on one core.

    python benchmarks/review.py [--rounds 3] [--samples 1500] [--no-pure]

Plays ``--rounds`` seeded rounds (the ``medium`` level against ``easy``),
then reviews each whole round, both seats, as ``basra review`` does, pinned to
one core. Prints the seconds per round (the goal, issue 13: at most 15 s), the
decisions graded, and the mean standard error of the losses (of the moves
played, where they were not the best; and of every option). Same-run
baselines: the ``expert`` level choosing a move at each of the same decisions
(what a review costs, counted in expert moves), the review with the hindsight
analysis as well (``--hindsight``), and the pure-Python analyser
(``BASRA_KERNEL=0``, in a child process; it plays at most 300 deals a decision).
The machine may be shared and noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from basra.bots import make_bot, play_round
from basra.coach.review import GameReview, plan, review_record
from basra.kernel import describe
from basra.record import Record, record_of
from basra.state import GameState


def rounds(count: int) -> list[Record]:
    """Seeded one-round games of ``medium`` against ``easy`` (seats alternating)."""
    records = []
    for index in range(count):
        state = GameState("egyptian", 2, first_dealer=index % 2, rules={"target": 1})
        bots = [make_bot("medium", seed=index), make_bot("easy", seed=index)]
        if index % 2:
            bots.reverse()
        play_round(state, bots, random.Random(1300 + index))
        records.append(record_of(state, [b.name for b in bots]))
    return records


def stderrs(review: GameReview) -> tuple[list[float], list[float]]:
    """The standard errors of the played moves' losses (not the best, not exact) and of
    every option's loss."""
    played = [d.loss_stderr for d in review.decisions if d.graded and not d.exact and d.loss > 0]
    every = [o.loss_stderr for d in review.decisions if not d.exact for o in d.options[1:]]
    return played, every


def measure(records: list[Record], samples: int, hindsight: bool = False) -> dict[str, Any]:
    times: list[float] = []
    decisions = 0
    played: list[float] = []
    every: list[float] = []
    for record in records:
        started = time.perf_counter()
        review = review_record(record, samples=samples, hindsight=hindsight)
        times.append(time.perf_counter() - started)
        decisions += sum(1 for d in review.decisions if d.graded)
        mine, all_options = stderrs(review)
        played += mine
        every += all_options
    return {
        "seconds": times,
        "decisions": decisions,
        "played_stderr": statistics.fmean(played) if played else 0.0,
        "option_stderr": statistics.fmean(every) if every else 0.0,
    }


def expert_baseline(records: list[Record]) -> dict[str, Any]:
    """The expert level choosing a move at every decision the review grades."""
    bot = make_bot("expert", seed=1)
    times = []
    for record in records:
        spots = [s for s in plan(record).spots if not s.forced]
        started = time.perf_counter()
        for spot in spots:
            bot.choose(spot.view)
        times.append(time.perf_counter() - started)
    return {"seconds": times}


def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity here)"


def line(name: str, seconds: list[float], extra: str = "") -> str:
    mean = statistics.fmean(seconds)
    return f"  {name:<34} {mean:7.2f} s a round (max {max(seconds):.2f}){extra}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--samples", type=int, default=1500)
    parser.add_argument("--no-pure", action="store_true", help="skip the pure-Python baseline")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    pinned = pin_one_core()
    records = rounds(args.rounds)
    if args.child:
        print(json.dumps(measure(records, args.samples)))
        return
    print(f"review of one 2-player Egyptian round, both seats; {describe()}; {pinned}")
    review = measure(records, args.samples)
    per_decision = sum(review["seconds"]) / max(review["decisions"], 1)
    goal = "met" if max(review["seconds"]) <= 15 else "NOT met"
    print(
        line(
            f"review, {args.samples} samples",
            review["seconds"],
            f"; {review['decisions'] / len(records):.0f} decisions graded a round, "
            f"{1000 * per_decision:.0f} ms each; goal 15 s {goal}",
        )
    )
    print(
        f"  mean standard error of the losses: {review['played_stderr']:.2f} points "
        f"(moves played that were not the best), {review['option_stderr']:.2f} (every option)"
    )
    print("baselines (same run):")
    expert = expert_baseline(records)
    print(line("expert choosing at each decision", expert["seconds"]))
    hindsight = measure(records, args.samples, hindsight=True)
    print(line("review with the hindsight analysis", hindsight["seconds"]))
    if not args.no_pure:
        child = subprocess.run(
            [
                *(sys.executable, __file__, "--child"),
                *("--rounds", str(args.rounds), "--samples", str(args.samples)),
            ],
            env={**os.environ, "BASRA_KERNEL": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
        pure = json.loads(child.stdout)
        print(
            line(
                "pure-Python review (<= 300 samples)",
                pure["seconds"],
                f"; loss stderr {pure['played_stderr']:.2f} / {pure['option_stderr']:.2f}",
            )
        )


if __name__ == "__main__":
    main()
