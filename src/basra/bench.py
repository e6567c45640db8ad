"""Engine speed measurements (``basra bench``, ``benchmarks/engine.py``).

Throughput is measured in short batches and reported two ways: the mean over
the whole run, and the best batch (the least disturbed by other work on a
shared machine). Compare numbers only with a baseline measured in the same run.
"""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from basra.state import PHASE_OVER, PHASE_PLAY, GameState

__all__ = ["Throughput", "measure", "random_rounds", "selfplay_rounds"]


@dataclass(frozen=True)
class Throughput:
    """Rounds and plays per second over a run, and in its best batch."""

    rounds: int
    plays: int
    seconds: float
    best_rounds_per_second: float

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds

    @property
    def plays_per_second(self) -> float:
        return self.plays / self.seconds

    def line(self, label: str) -> str:
        return (
            f"{label:<28} {self.rounds_per_second:>9,.0f} rounds/s "
            f"{self.plays_per_second:>10,.0f} plays/s  "
            f"(best batch {self.best_rounds_per_second:,.0f} rounds/s)"
        )


Batch = Callable[[random.Random, int], int]
"""Plays ``n`` rounds with the given generator and returns the number of plays."""


def measure(batch: Batch, seconds: float, seed: int = 0, rounds_per_batch: int = 50) -> Throughput:
    """Run ``batch`` repeatedly for about ``seconds`` and measure its throughput."""
    rng = random.Random(seed)
    batch(rng, 5)  # warm up caches and imports
    rounds = plays = 0
    best = 0.0
    spent = 0.0
    while spent < seconds:
        started = time.perf_counter()
        plays += batch(rng, rounds_per_batch)
        elapsed = time.perf_counter() - started
        spent += elapsed
        rounds += rounds_per_batch
        best = max(best, rounds_per_batch / elapsed)
    return Throughput(rounds, plays, spent, best)


def random_rounds(variant: str = "egyptian", players: int = 2) -> Batch:
    """Rounds of uniformly random legal moves through the public API (legal_moves + push)."""

    def batch(rng: random.Random, n: int) -> int:
        state = GameState(variant, players)
        plays = 0
        for _ in range(n):
            if state.phase == PHASE_OVER:
                state = GameState(variant, players)
            state.deal(rng=rng)
            while state.phase == PHASE_PLAY:
                moves = state.legal_moves()
                state.push(moves[int(rng.random() * len(moves))])
                plays += 1
        return plays

    return batch


def selfplay_rounds(variant: str = "egyptian", players: int = 2) -> Batch:
    """Whole games as ``basra selfplay`` plays them: random bots on views, records written."""
    from basra.bots import make_bot, play_round
    from basra.record import record_of

    def batch(rng: random.Random, n: int) -> int:
        out = io.StringIO()
        bots = [make_bot("random", seed=rng.getrandbits(32)) for _ in range(players)]
        state = GameState(variant, players)
        plays = 0
        for _ in range(n):
            if state.is_over:
                out.write(json.dumps(record_of(state).to_json(), separators=(",", ":")) + "\n")
                state = GameState(variant, players)
            play_round(state, bots, rng)
            plays += len(state.plays)
        out.write(json.dumps(record_of(state).to_json(), separators=(",", ":")) + "\n")
        return plays

    return batch
