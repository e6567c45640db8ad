"""Engine speed: random 2-player Egyptian rounds, against a same-run baseline.

    python benchmarks/engine.py [--seconds 5]

Prints rounds/s and plays/s for the compiled kernel's own loop (all in C),
the engine API (``legal_moves`` + ``push``), ``basra selfplay --bots
random,random``'s code (bots, records written), the same API and selfplay on
the pure-Python engine (a child process with ``BASRA_KERNEL=0``), and a
straightforward list-and-itertools engine (``naive_engine.py``), all in the
same run. The machine is shared and noisy, so the ratios to the baselines
are the numbers to compare across runs. The goals (issue 11): kernel loop
100,000 rounds/s, API 10,000, selfplay 8,000.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import naive_engine

from basra.bench import Throughput, api_rounds, kernel_rounds, measure, selfplay_rounds
from basra.kernel import ACTIVE, describe


def naive_batch(rng: random.Random) -> tuple[int, int]:
    return 5, sum(naive_engine.play_random_round(rng) for _ in range(5))


def pure_python(seconds: float) -> dict[str, float]:
    """``basra bench --json`` on the pure-Python engine, in a child process."""
    env = dict(os.environ, BASRA_KERNEL="0")
    out = subprocess.run(
        [sys.executable, "-m", "basra", "bench", "--json", "--seconds", str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"engine: {describe()}")
    rows: list[tuple[str, Throughput]] = []
    if ACTIVE:
        rows.append(("kernel loop (all in C)", measure(kernel_rounds(), args.seconds)))
    rows.append(("API (legal_moves + push)", measure(api_rounds(), args.seconds)))
    rows.append(("selfplay (random bots)", measure(selfplay_rounds(), args.seconds)))
    naive = measure(naive_batch, args.seconds)
    for label, result in rows:
        print(result.line(label))
    pure = pure_python(args.seconds)
    print(
        f"{'pure Python: API':<30} {pure['api_rounds_per_s']:>10,.0f} rounds/s\n"
        f"{'pure Python: selfplay':<30} {pure['selfplay_rounds_per_s']:>10,.0f} rounds/s"
    )
    print(naive.line("baseline: naive engine"))
    goals = {"kernel loop (all in C)": 100_000, "API (legal_moves + push)": 10_000}
    goals["selfplay (random bots)"] = 8_000
    for label, result in rows:
        goal = goals[label]
        verdict = "met" if result.rounds_per_second >= goal else "not met"
        print(
            f"{label}: {result.rounds_per_second / naive.rounds_per_second:,.1f}x the naive "
            f"engine; goal {goal:,} rounds/s: {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
