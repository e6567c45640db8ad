"""ISMCTS speed: iterations per second on one core, against same-run baselines.

    python benchmarks/ismcts.py [--seconds 5] [--rounds 4] [--variant egyptian] [--players 2]

Searches a fixed set of positions (random 2-player Egyptian rounds, stopped at
every stage of the round) with the ``ismcts`` bot's default settings and
prints iterations per second for the compiled search (``basra._search``) and
for the pure-Python search (``kernel=0``: the search as it was before the
kernel), then both with full-round playouts (``horizon=0``). A third
baseline is the raw engine: ``determinize`` the view and play uniformly
random legal moves to the end of the round. The machine is shared and noisy:
compare the ratios across runs, and read the best batch as the least
disturbed. The goal (issue 11): the compiled search at least 10x the pure one.

It also measures the learned belief (issue 25): the compiled search's
iterations per second when it deals from the belief (``belief=1``), and the
time to encode a view and run the network once per decision, with numpy and
in plain Python.

Then it times the ``expert`` level's decisions over ``--rounds`` whole rounds
against ``heuristic`` (seats alternating), as a person would meet them: the
median and 90th percentile of the decisions with a choice, against the goal
of a median of 0.3 s on one core, next to the ``expert`` of before issue 25
(``--baseline``) timed in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from basra.belief.features import encode
from basra.belief.model import BeliefModel, default_model
from basra.bots import make_bot, play_round
from basra.bots.ismcts import (
    SearchSettings,
    belief_weights,
    kernel_search,
    run_problem,
    search,
    view_problem,
)
from basra.sim import Sampler
from basra.state import PHASE_PLAY, GameState
from basra.view import View, determinize, view_of


def positions(variant: str, players: int, count: int = 24) -> list[View]:
    """Views of the seat to move, at every stage of random rounds (seeded)."""
    rng = random.Random(2012)
    views = []
    while len(views) < count:
        state = GameState(variant, players)
        state.deal(rng=rng)
        stop = len(views) * 2 % 44
        for _ in range(stop):
            if state.phase != PHASE_PLAY:
                break
            state.push(rng.choice(state.legal_moves()))
        if state.phase == PHASE_PLAY and len(state.legal_moves()) > 1:
            views.append(view_of(state, state.turn))
    return views


def measure(
    step: Callable[[View, random.Random], int], views: list[View], seconds: float
) -> tuple[float, float]:
    """(mean, best batch) units per second of ``step`` over the positions."""
    rng = random.Random(1)
    step(views[0], rng)  # warm up caches
    done = 0
    spent = 0.0
    best = 0.0
    while spent < seconds:
        for view in views:
            started = time.perf_counter()
            units = step(view, rng)
            elapsed = time.perf_counter() - started
            spent += elapsed
            done += units
            best = max(best, units / elapsed)
    return done / spent, best


def ismcts_step(settings: SearchSettings) -> Callable[[View, random.Random], int]:
    def step(view: View, rng: random.Random) -> int:
        sampler = Sampler(view, settings.read, settings.pool)
        _, iterations = search(
            lambda: sampler.sample(rng), view.rules, len(view.scores), settings, rng
        )
        return iterations

    return step


def kernel_step(settings: SearchSettings) -> Callable[[View, random.Random], int]:
    def step(view: View, rng: random.Random) -> int:
        _, iterations = kernel_search(view, settings, rng)
        return iterations

    return step


def belief_step(settings: SearchSettings) -> Callable[[View, random.Random], int]:
    def step(view: View, rng: random.Random) -> int:
        problem = view_problem(view, settings.read, settings.pool, rng.getrandbits(64))
        problem.set_belief(belief_weights(view, 1.0))
        _, iterations = run_problem(problem, settings)
        return iterations

    return step


def belief_once(model: BeliefModel) -> Callable[[View, random.Random], int]:
    def step(view: View, rng: random.Random) -> int:
        model.probabilities(encode(view))
        return 1

    return step


def random_playouts(view: View, rng: random.Random) -> int:
    """The baseline: 100 determinize + uniformly random playouts to the round's end."""
    for _ in range(100):
        state = determinize(view, rng)
        while state.phase == PHASE_PLAY:
            moves = state.legal_moves()
            state.push(moves[int(rng.random() * len(moves))])
    return 100


def expert_decisions(variant: str, players: int, rounds: int, expert: str) -> list[float]:
    """Seconds of each ``expert`` decision with a choice, over rounds against ``heuristic``."""
    times: list[float] = []
    rng = random.Random(7)
    for number in range(rounds):
        specs = ["expert" if (seat + number) % 2 == 0 else "heuristic" for seat in range(players)]
        specs = [expert if spec == "expert" else spec for spec in specs]
        bots = [make_bot(spec, seed=rng.getrandbits(32)) for spec in specs]

        def clock(seat: int, seconds: float, choices: int, specs: list[str] = specs) -> None:
            if specs[seat] == expert and choices > 1:
                times.append(seconds)

        play_round(GameState(variant, players), bots, rng, clock=clock)
    return sorted(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=4, help="rounds to time the expert over")
    parser.add_argument("--variant", default="egyptian")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expert", default="expert", help="the bot timed as the expert")
    parser.add_argument(
        "--baseline",
        default="ismcts:iterations=3000,forced=4",
        help="the expert of before, timed in the same run",
    )
    args = parser.parse_args()
    views = positions(args.variant, args.players)
    default = SearchSettings(iterations=1000)
    full = SearchSettings(iterations=300, horizon=0)
    rows = [
        ("compiled (default: horizon=1)", measure(kernel_step(default), views, args.seconds)),
        ("pure (default: horizon=1)", measure(ismcts_step(default), views, args.seconds)),
        ("compiled (horizon=0: whole round)", measure(kernel_step(full), views, args.seconds)),
        ("pure (horizon=0: whole round)", measure(ismcts_step(full), views, args.seconds)),
        ("baseline: determinize+random", measure(random_playouts, views, args.seconds)),
        ("compiled, dealing from the belief", measure(belief_step(default), views, args.seconds)),
    ]
    plain = BeliefModel(default_model().path)
    plain._numpy = None  # the plain-Python inference
    once = [
        ("belief: encode + network (numpy)", measure(belief_once(default_model()), views, 1.0)),
        ("belief: encode + network (plain)", measure(belief_once(plain), views, 1.0)),
    ]
    print(f"{args.variant}, {args.players} players, {len(views)} positions, one core")
    for label, (mean, best) in rows:
        print(f"{label:<34} {mean:>11,.0f} it/s   (best position {best:,.0f} /s)")
    for label, (mean, _) in once:
        print(f"{label:<34} {1000 / mean:>11.1f} ms a decision")
    for compiled, pure, what in ((0, 1, "horizon=1"), (2, 3, "horizon=0")):
        ratio = rows[compiled][1][0] / rows[pure][1][0]
        print(
            f"compiled / pure search ({what}): {ratio:.1f}x; goal 10x: "
            f"{'met' if ratio >= 10 else 'not met'}"
        )
    if args.rounds > 0:
        for name, spec in (("expert", args.expert), ("expert before", args.baseline)):
            times = expert_decisions(args.variant, args.players, args.rounds, spec)
            median = statistics.median(times)
            p90 = times[int(0.9 * (len(times) - 1))]
            print(
                f"{name} ({spec}) decisions: {len(times)} over {args.rounds} rounds vs "
                f"heuristic; median {median:.3f} s, p90 {p90:.3f} s, max {times[-1]:.3f} s"
                + (
                    f"; goal median <= 0.3 s: {'met' if median <= 0.3 else 'not met'}"
                    if name == "expert"
                    else ""
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
