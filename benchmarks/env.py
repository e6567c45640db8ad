"""Environment speed: steps/s of each adapter next to the raw engine, in the same run.

    python benchmarks/env.py [--seconds 10] [--variant egyptian] [--players 2]

Every measurement plays uniformly random legal moves through whole games
(deals included):

- engine: ``legal_moves`` + ``push`` on a :class:`GameState` (what
  ``benchmarks/engine.py`` calls the engine API);
- AEC raw: :class:`basra.env.aec.BasraAECEnv`, each step being ``last()`` (an
  observation and its mask), a random action from the mask, ``step()``;
- AEC wrapped: the same through ``aec_env()`` and PettingZoo's wrappers;
- Gymnasium: ``reset``/``step`` with ``action_masks()``, ``random`` bots in the
  other seats (their plays are counted in plays/s, not in steps/s);
- OpenSpiel: ``apply_action`` with ``legal_actions()`` and an observation
  tensor per decision, chance nodes included in the time;
- vector_env: ``step()`` of ``--envs`` games at once (256 by default) against
  ``random`` opponents, each action a uniformly random legal one
  (``sample_actions()``, drawn in C), every step writing the observations and
  masks into the preallocated arrays (``copy=False``) and, in a second meter,
  returning copies of them (``copy=True``, the default). NEXT_STEP reset steps
  are not counted. Its pure-Python fallback (``backend="python"``) is a third.

The machine is shared and noisy, so the runs are interleaved in short batches
and two ratios are printed: over the whole run and between the best batches.
The issue's goals: the environment layer costs at most 3x the engine, i.e.
engine plays/s / AEC steps/s <= 3; vector_env makes at least 200,000 steps/s
on one core (2-player Egyptian, 256 environments). ``--vector`` runs only the
engine, Gymnasium and vector meters. Pin it to one core with ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from basra.env import register_openspiel
from basra.env.aec import BasraAECEnv
from basra.env.aec import aec_env as wrapped_aec_env
from basra.env.gym import BasraGymEnv
from basra.env.vector import BasraVectorEnv
from basra.state import PHASE_PLAY, GameState

Batch = Callable[[random.Random, float], tuple[int, int]]
"""Runs for about the given seconds; returns (steps, plays)."""


@dataclass
class Meter:
    """Steps and plays over the whole run, and the best batch's steps/s."""

    name: str
    batch: Batch
    steps: int = 0
    plays: int = 0
    seconds: float = 0.0
    best: float = 0.0
    rates: list[float] = field(default_factory=list)

    def run(self, rng: random.Random, seconds: float) -> None:
        started = time.perf_counter()
        steps, plays = self.batch(rng, seconds)
        elapsed = time.perf_counter() - started
        self.steps += steps
        self.plays += plays
        self.seconds += elapsed
        self.best = max(self.best, steps / elapsed)

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


def engine_batch(variant: str, players: int) -> Batch:
    def batch(rng: random.Random, seconds: float) -> tuple[int, int]:
        deadline = time.perf_counter() + seconds
        plays = 0
        while time.perf_counter() < deadline:
            state = GameState(variant, players, first_dealer=rng.randrange(players))
            while not state.is_over:
                if state.phase != PHASE_PLAY:
                    state.deal(rng=rng)
                    continue
                moves = state.legal_moves()
                state.push(moves[int(rng.random() * len(moves))])
                plays += 1
        return plays, plays

    return batch


def aec_batch(make: Callable[[], Any]) -> Batch:
    env = make()

    def batch(rng: random.Random, seconds: float) -> tuple[int, int]:
        deadline = time.perf_counter() + seconds
        steps = 0
        flatnonzero = np.flatnonzero
        while time.perf_counter() < deadline:
            env.reset(seed=rng.getrandbits(32))
            for _agent in env.agent_iter():
                observation, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = flatnonzero(observation["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
                steps += 1
        return steps, steps

    return batch


def gym_batch(variant: str, players: int) -> Batch:
    env = BasraGymEnv(variant, players, opponents=["random"])

    def batch(rng: random.Random, seconds: float) -> tuple[int, int]:
        deadline = time.perf_counter() + seconds
        steps = plays = 0
        flatnonzero = np.flatnonzero
        while time.perf_counter() < deadline:
            env.reset(seed=rng.getrandbits(32))
            done = False
            while not done:
                legal = flatnonzero(env.action_masks())
                _obs, _reward, terminated, truncated, _info = env.step(
                    int(legal[int(rng.random() * len(legal))])
                )
                steps += 1
                done = terminated or truncated
            plays += sum(len(r.plays) for r in env.game.rounds)
        return steps, plays

    return batch


def vector_batch(variant: str, players: int, envs: int, **options: Any) -> Batch:
    env = BasraVectorEnv(variant, envs, players, opponents=["random"], **options)
    env.reset(seed=0)
    resetting = np.zeros(envs, dtype=np.bool_)

    def batch(rng: random.Random, seconds: float) -> tuple[int, int]:
        nonlocal resetting
        deadline = time.perf_counter() + seconds
        steps = 0
        step, sample = env.step, env.sample_actions
        while time.perf_counter() < deadline:
            for _ in range(8):
                _obs, _rewards, terminations, truncations, _infos = step(sample())
                steps += envs - int(np.count_nonzero(resetting))  # reset steps play nothing
                resetting = terminations | truncations
        return steps, steps

    return batch


def openspiel_batch(variant: str, players: int) -> Batch:
    import pyspiel

    register_openspiel()
    game = pyspiel.load_game("python_basra", {"variant": variant, "players": players})

    def batch(rng: random.Random, seconds: float) -> tuple[int, int]:
        deadline = time.perf_counter() + seconds
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                    continue
                state.observation_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps, steps

    return batch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="total time per meter")
    parser.add_argument("--variant", default="egyptian")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=float, default=0.5, help="seconds per batch")
    parser.add_argument("--envs", type=int, default=256, help="vector_env's environments")
    parser.add_argument("--vector", action="store_true", help="only engine, Gymnasium, vector")
    args = parser.parse_args()
    v, p, n = args.variant, args.players, args.envs
    meters = [
        Meter("engine (legal_moves+push)", engine_batch(v, p)),
        Meter("AEC raw (last+step)", aec_batch(lambda: BasraAECEnv(v, p))),
        Meter("AEC wrapped (aec_env)", aec_batch(lambda: wrapped_aec_env(v, p))),
        Meter("Gymnasium vs random bots", gym_batch(v, p)),
        Meter("OpenSpiel python_basra", openspiel_batch(v, p)),
        Meter(f"vector_env {n} envs, arrays", vector_batch(v, p, n, copy=False)),
        Meter(f"vector_env {n} envs, copies", vector_batch(v, p, n, copy=True)),
        Meter(
            f"vector_env {n} envs, Python",
            vector_batch(v, p, n, copy=False, backend="python"),
        ),
    ]
    if args.vector:
        meters = [m for m in meters if m.name.startswith(("engine", "Gymnasium", "vector"))]
    rng = random.Random(0)
    for meter in meters:
        meter.run(rng, 0.2)  # warm up
        meter.steps = meter.plays = 0
        meter.seconds = meter.best = 0.0
    rounds = max(1, round(args.seconds / args.batch))
    for _ in range(rounds):
        for meter in meters:  # interleaved: each sees the same machine load
            meter.run(rng, args.batch)
    print(f"{v}, {p} players, random legal moves, {rounds} interleaved batches of {args.batch}s")
    engine = meters[0]
    for meter in meters:
        extra = ""
        if meter.plays != meter.steps:
            extra = f"  ({meter.plays / meter.seconds:,.0f} plays/s with the bots' plays)"
        unit = "plays/s" if meter is engine else "steps/s"
        print(
            f"{meter.name:<28} {meter.rate:>9,.0f} {unit}  "
            f"(best batch {meter.best:,.0f}; engine/this {engine.rate / meter.rate:4.1f}x)" + extra
        )
    by_name = {meter.name: meter for meter in meters}
    raw = by_name.get("AEC raw (last+step)")
    if raw is not None:
        ratio, best_ratio = engine.rate / raw.rate, engine.best / raw.best
        print(
            f"env layer cost (engine plays/s / AEC raw steps/s): {ratio:.1f}x "
            f"(best batches {best_ratio:.1f}x); goal <= 3x: {'met' if ratio <= 3 else 'not met'}"
        )
    fast = by_name[f"vector_env {n} envs, arrays"]
    gym = by_name["Gymnasium vs random bots"]
    print(
        f"vector_env: {fast.rate:,.0f} steps/s = {fast.rate / gym.rate:,.0f}x the Gymnasium env, "
        f"{fast.rate / engine.rate:.1f}x the engine's plays/s; goal >= 200,000 steps/s "
        f"({'met' if fast.rate >= 200_000 else 'not met'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
