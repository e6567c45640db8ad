"""The analyser: what every legal move of a decision is worth, from what that seat knew.

:func:`analyse` estimates, for each legal move, the **expected round margin** of
the mover's side: its points in the round (card points, majority bonus,
basras, RULES.md A9) less the mean of the other sides' points, once the round
is over, in points and never clipped (however lopsided the round). For each
move it runs the ``expert`` bot's search (information-set MCTS on this seat's
view: hidden cards dealt at random and weighted by how well they explain this
deal's plays, every side searching its own best replies to the end of the
deal, the rest of the round valued as the search values it) starting with
that move, several times independently; the mean of the round margins the
searches back up (kept apart from the rewards the search compares, which are
a bounded function of them) is the move's value and the spread of the
searches its standard error. Choosing the move of highest value is at least
as strong as the ``expert`` itself (measured in docs/BOTS.md).

When nothing is hidden (two players, the stock empty: the other hand is every
unseen card) the rest of the round is solved exactly (stderr 0): every side
playing for its own round margin, by alpha-beta (max^n for three or four
sides) in the compiled kernel, or by its pure-Python mirror
(:mod:`basra.bots.solve`), which gives the same values. The kernel gives up
past 2,000,000 positions a move, the pure engine past
:data:`PURE_NODE_LIMIT` (a hindsight analysis early in a round), and the
values are then estimated.
:func:`analyse_hindsight` is the same with every card seen, the true hands and
the true order of the stock: what was knowable only afterwards, and labelled
so wherever it is shown.

Near the end of a match (when this round can reach the target) each move also
gets its chance of winning the match, from the scores after the round.

Results are deterministic for a seed and a number of samples.

>>> import random
>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState("egyptian")
>>> state.deal(rng=random.Random(4))
>>> analysis = analyse(view_of(state, state.turn), samples=200)
>>> analysis.best.loss, len(analysis.moves) == len(state.legal_moves())
(0.0, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from basra.bots.ismcts import can_end_match, move_searches, state_problem, view_problem
from basra.bots.pure import rollout
from basra.bots.reward import round_margins
from basra.bots.settings import SearchSettings
from basra.bots.solve import SolveAbortedError, nothing_hidden, solve_moves
from basra.kernel import search_module
from basra.moves import Move
from basra.sim import Sampler, Sim
from basra.state import PHASE_PLAY, GameState
from basra.view import View, view_of

__all__ = [
    "DEFAULT_SAMPLES",
    "Analysis",
    "MoveEstimate",
    "analyse",
    "analyse_hindsight",
    "can_end_match",
]

DEFAULT_SAMPLES = 8_000
"""Search iterations per move (in :data:`BATCHES` independent searches): a few tenths of
a second a decision on one core of the development machine."""
BATCHES = 4
"""Independent searches per move: their spread gives the standard error."""
PURE_NODE_LIMIT = 50_000
"""Positions the pure-Python engine searches per move when solving exactly (the kernel:
2,000,000); past it the values are estimated."""


@dataclass(frozen=True)
class MoveEstimate:
    """One legal move's expected round margin for the mover's side."""

    move: Move
    points: float
    """Expected round margin in points: the side's round points less the mean of the other
    sides' (never clipped)."""
    stderr: float
    """Standard error of ``points``."""
    loss: float
    """How many points worse than the best move (0 for the best)."""
    loss_stderr: float
    """Standard error of ``loss`` (paired: both moves met the same deals)."""
    win: float | None
    """The chance of winning the match after this move, when this round can end it."""


@dataclass(frozen=True)
class Analysis:
    """Every legal move of one decision, best first."""

    seat: int
    moves: tuple[MoveEstimate, ...]
    samples: int
    """Search iterations per move (0 when solved exactly)."""
    exact: bool
    """True when nothing was hidden and the round was solved exactly."""
    hindsight: bool
    """True when made with every card seen (:func:`analyse_hindsight`)."""

    @property
    def best(self) -> MoveEstimate:
        """The move worth the most."""
        return self.moves[0]

    def of(self, move: Move) -> MoveEstimate:
        """The estimate of ``move`` (which must be legal here)."""
        for estimate in self.moves:
            if estimate.move == move:
                return estimate
        raise KeyError(f"{move.text()} is not a legal move of this decision")


def analyse(view: View, *, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Analysis:
    """What each of ``view``'s legal moves is worth to its seat (see the module docstring)."""
    if view.phase != PHASE_PLAY or view.turn != view.seat:
        raise ValueError("an analysis needs the view of the seat to move in a round being played")
    rng = random.Random(f"basra-analysis/{seed}/{view.key()}")
    if search_module() is None:
        return _pure_analysis(view, samples, rng, hindsight=False)
    problem = view_problem(view, 0.15, 200, rng.getrandbits(64))
    return _compiled_analysis(problem, view, samples, hindsight=False)


def analyse_hindsight(
    state: GameState, *, samples: int = DEFAULT_SAMPLES, seed: int = 0
) -> Analysis:
    """The same with every card seen: true hands and true stock order (hindsight only)."""
    if state.phase != PHASE_PLAY:
        raise ValueError("an analysis needs a round being played")
    view = view_of(state, state.turn)
    rng = random.Random(f"basra-hindsight/{seed}/{view.key()}")
    if search_module() is None:
        return _pure_analysis(view, samples, rng, hindsight=True, state=state)
    problem = state_problem(state, rng.getrandbits(64), hidden_stock=False)
    return _compiled_analysis(problem, view, samples, hindsight=True)


def _compiled_analysis(problem: Any, view: View, samples: int, *, hindsight: bool) -> Analysis:
    rules = view.rules
    if problem.hidden() == 0:
        solved = problem.exact(1, 0.0, margins=True)
        if solved is not None:
            stats, _ = solved
            values = [(Move(c, t), total) for c, t, _, total in stats]
            return _estimates(view, values, None, 0, exact=True, hindsight=hindsight)
    per_search = max(samples // BATCHES, 1)
    settings = SearchSettings(iterations=per_search, forced=BATCHES, mu=0.0)
    values = []
    stderrs = []
    for move, runs in move_searches(problem, settings).items():
        margins = [margin for _, margin in runs]
        mean = sum(margins) / len(margins)
        spread = sum((m - mean) ** 2 for m in margins) / max(len(margins) - 1, 1)
        values.append((move, mean))
        stderrs.append(math.sqrt(spread / len(margins)))
    wins = None
    if can_end_match(rules, view.scores):
        moves, _, _, win_sums, done = problem.evaluate(1000, 0.1, 2, None)
        by_move = {Move(c, t): w / done for (c, t), w in zip(moves, win_sums, strict=True)}
        wins = [by_move[move] for move, _ in values]
    return _estimates(
        view,
        values,
        stderrs,
        per_search * BATCHES,
        exact=False,
        hindsight=hindsight,
        wins=wins,
    )


def _estimates(
    view: View,
    values: list[tuple[Move, float]],
    stderrs: list[float] | None,
    samples: int,
    *,
    exact: bool,
    hindsight: bool,
    wins: list[float] | None = None,
) -> Analysis:
    order = sorted(range(len(values)), key=lambda i: -values[i][1])
    best = order[0]
    top = values[best][1]
    out = []
    for i in order:
        move, points = values[i]
        error = stderrs[i] if stderrs is not None else 0.0
        best_error = stderrs[best] if stderrs is not None else 0.0
        out.append(
            MoveEstimate(
                move=move,
                points=points,
                stderr=error,
                loss=top - points,
                loss_stderr=math.sqrt(error**2 + best_error**2) if i != best else 0.0,
                win=wins[i] if wins is not None else None,
            )
        )
    return Analysis(view.seat, tuple(out), samples, exact, hindsight)


def _pure_analysis(
    view: View,
    samples: int,
    rng: random.Random,
    *,
    hindsight: bool,
    state: GameState | None = None,
) -> Analysis:
    """The same on the pure-Python engine: solved exactly as the kernel solves when nothing
    is hidden (within :data:`PURE_NODE_LIMIT`), else estimated by playouts of every move
    to the round's end with the quick playout policy (slower)."""
    if state is not None or nothing_hidden(view):
        whole = Sim.from_state(state) if state is not None else Sampler(view).sample(rng)
        try:
            solved = solve_moves(whole, margins=True, node_limit=PURE_NODE_LIMIT)
        except SolveAbortedError:
            pass
        else:
            return _estimates(view, solved, None, 0, exact=True, hindsight=hindsight)
    samples = min(samples, 300)
    moves = view.legal_moves()
    n = len(moves)
    sampler = Sampler(view, 0.15)
    me = view.side
    sums = [0.0] * n
    cross = [[0.0] * n for _ in range(n)]
    done = 0
    for _ in range(samples):
        base = Sim.from_state(state) if state is not None else sampler.sample(rng)
        seed = rng.getrandbits(64)
        margins = []
        for move in moves:
            sim = base.clone(list(base.stock), base.unshuffled, random.Random(seed))
            sim.play(*move)
            rollout(sim, random.Random(seed), 0.1)
            assert sim.result is not None
            margins.append(round_margins([float(p) for p in sim.result.points])[me])
        for i in range(n):
            sums[i] += margins[i]
            for j in range(n):
                cross[i][j] += margins[i] * margins[j]
        done += 1
    means = [total / done for total in sums]
    variances = [max(cross[i][i] / done - means[i] ** 2, 0.0) for i in range(n)]
    stderrs = [math.sqrt(v / max(done - 1, 1)) for v in variances]

    values = list(zip(moves, means, strict=True))
    return _estimates(view, values, stderrs, done, exact=False, hindsight=hindsight)
