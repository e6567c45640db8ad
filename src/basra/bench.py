"""Engine speed measurements (``basra bench``, ``benchmarks/engine.py``).

Three loops play random 2-player (or 3-, 4-player) rounds on one core:

- **kernel**: the compiled kernel's own loop, wholly in C (shuffle, deal, move
  generation, the transition, scoring); only with the kernel active;
- **api**: the public Python API, ``GameState.deal`` + ``legal_moves`` + ``push``;
- **selfplay**: ``basra selfplay --bots random,random``'s own code
  (:func:`basra.bots.runner.selfplay`: bots, whole games, records written).

Throughput is measured in short batches and reported two ways: the mean over
the whole run, and the best batch (the least disturbed by other work on a
shared machine). Compare numbers only with a baseline measured in the same run.
"""

from __future__ import annotations

import io
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from basra import kernel
from basra.rules import preset
from basra.state import PHASE_OVER, PHASE_PLAY, GameState

__all__ = [
    "Throughput",
    "api_rounds",
    "kernel_rounds",
    "measure",
    "report",
    "selfplay_rounds",
]


@dataclass(frozen=True)
class Throughput:
    """Rounds and plays per second over a run, and in its best batch."""

    rounds: int
    plays: int
    seconds: float
    best_rounds_per_second: float

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def plays_per_second(self) -> float:
        return self.plays / self.seconds if self.seconds else 0.0

    def line(self, label: str) -> str:
        return (
            f"{label:<30} {self.rounds_per_second:>10,.0f} rounds/s "
            f"{self.plays_per_second:>11,.0f} plays/s  "
            f"(best batch {self.best_rounds_per_second:,.0f} rounds/s)"
        )


Batch = Callable[[random.Random], tuple[int, int]]
"""Plays a batch with the given generator; returns (rounds, plays)."""


def measure(batch: Batch, seconds: float, seed: int = 0) -> Throughput:
    """Run ``batch`` repeatedly for about ``seconds`` and measure its throughput."""
    rng = random.Random(seed)
    batch(rng)  # warm up caches and imports
    rounds = plays = 0
    best = 0.0
    spent = 0.0
    while spent < seconds:
        started = time.perf_counter()
        done, made = batch(rng)
        elapsed = time.perf_counter() - started
        spent += elapsed
        rounds += done
        plays += made
        best = max(best, done / elapsed)
    return Throughput(rounds, plays, spent, best)


def kernel_rounds(variant: str = "egyptian", players: int = 2, rounds: int = 2000) -> Batch:
    """The kernel's own loop (:func:`basra._kernel.random_rounds`); needs the kernel."""
    module = kernel.kernel_module()
    if module is None:
        raise RuntimeError(f"the compiled kernel is not active: {kernel.describe()}")
    rules = preset(variant)

    def batch(rng: random.Random) -> tuple[int, int]:
        return rounds, module.random_rounds(rules, players, rounds, rng.getrandbits(64))

    return batch


def api_rounds(variant: str = "egyptian", players: int = 2, rounds: int = 50) -> Batch:
    """Rounds of uniformly random legal moves through the public API (legal_moves + push)."""

    def batch(rng: random.Random) -> tuple[int, int]:
        state = GameState(variant, players)
        plays = 0
        for _ in range(rounds):
            if state.phase == PHASE_OVER:
                state = GameState(variant, players)
            state.deal(rng=rng)
            while state.phase == PHASE_PLAY:
                moves = state.legal_moves()
                state.push(moves[int(rng.random() * len(moves))])
                plays += 1
        return rounds, plays

    return batch


def selfplay_rounds(variant: str = "egyptian", players: int = 2, games: int = 4) -> Batch:
    """Whole games as ``basra selfplay --bots random,...`` plays them, records written."""
    from basra.bots.runner import selfplay

    def batch(rng: random.Random) -> tuple[int, int]:
        tally = selfplay(
            variant, players, ["random"] * players, games, rng.getrandbits(32), io.StringIO()
        )
        return tally.rounds, tally.plays

    return batch


def report(variant: str, players: int, seconds: float) -> dict[str, Any]:
    """Every measurement as one JSON object (``basra bench --json``)."""
    out: dict[str, Any] = {
        "kernel": kernel.ACTIVE,
        "engine": kernel.describe(),
        "variant": variant,
        "players": players,
        "seconds": seconds,
    }
    loops: list[tuple[str, Batch | None]] = [
        ("kernel", kernel_rounds(variant, players) if kernel.ACTIVE else None),
        ("api", api_rounds(variant, players)),
        ("selfplay", selfplay_rounds(variant, players)),
    ]
    for name, batch in loops:
        if batch is None:
            out[f"{name}_rounds_per_s"] = None
            out[f"{name}_plays_per_s"] = None
            continue
        result = measure(batch, seconds)
        out[f"{name}_rounds_per_s"] = round(result.rounds_per_second, 1)
        out[f"{name}_plays_per_s"] = round(result.plays_per_second, 1)
        out[f"{name}_best_batch_rounds_per_s"] = round(result.best_rounds_per_second, 1)
    return out
