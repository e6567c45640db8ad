"""Engine speed: random 2-player Egyptian rounds, against a same-run baseline.

    python benchmarks/engine.py [--seconds 5]

Prints rounds/s and plays/s for the engine API (``legal_moves`` + ``push``),
for self-play as ``basra selfplay`` runs it (random bots on per-seat views,
records written), and for a straightforward list-and-itertools engine
(``naive_engine.py``) measured in the same run. The machine is shared and
noisy, so the ratio to the baseline is the number to compare across runs.
The issue's goal is 10,000 rounds/s for the engine.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import naive_engine

from basra.bench import measure, random_rounds, selfplay_rounds


def naive_batch(rng: random.Random, n: int) -> int:
    return sum(naive_engine.play_random_round(rng) for _ in range(n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    engine = measure(random_rounds("egyptian", 2), args.seconds)
    selfplay = measure(selfplay_rounds("egyptian", 2), args.seconds)
    naive = measure(naive_batch, args.seconds, rounds_per_batch=5)
    print(engine.line("engine (legal_moves+push)"))
    print(selfplay.line("selfplay (views, records)"))
    print(naive.line("baseline: naive engine"))
    print(
        f"engine / baseline: {engine.rounds_per_second / naive.rounds_per_second:.1f}x "
        f"(best batches {engine.best_rounds_per_second / naive.best_rounds_per_second:.1f}x); "
        f"goal 10,000 rounds/s: {'met' if engine.best_rounds_per_second >= 10_000 else 'not met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
