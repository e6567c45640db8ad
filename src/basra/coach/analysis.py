"""The analyser: what every legal move of a decision is worth, from what that seat knew.

:func:`analyse` estimates, for each legal move, the **expected round margin** of
the mover's side: its points in the round (card points, majority bonus,
basras, RULES.md A9) less the mean of the other sides' points, once the round
is over. It deals the cards the seat could not see at random, weighted by how
well each deal explains the plays seen in this deal (the search's hand
reading), plays every move in each deal and plays the round out with the
one-reply playout policy (each player takes the most points now less what the
next player can take back), and averages. Every move meets the same deals and
the same playout draws, so the *differences* between moves, which is what a
review grades, are measured far more precisely than the values themselves:
each estimate comes with its standard error, and each loss with the standard
error of that paired difference.

When nothing is hidden (two players, the stock empty: the other hand is every
unseen card) the rest of the round is solved exactly (stderr 0).
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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from basra.kernel import search_module
from basra.moves import Move
from basra.rules import Rules
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

DEFAULT_SAMPLES = 1500
"""Deals per decision: about 0.1 s on one core of the development machine."""


@dataclass(frozen=True)
class MoveEstimate:
    """One legal move's expected round margin for the mover's side."""

    move: Move
    points: float
    """Expected round margin: the side's round points less the mean of the other sides'."""
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
    """Deals played out (1 when solved exactly)."""
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


def can_end_match(rules: Rules, scores: Sequence[int]) -> bool:
    """Whether a good round (the majority, every point card, a basra) brings a side to the
    target: near the end of a match, where the analysis shows chances of winning it."""
    most_in_a_round = (
        rules.majority_bonus
        + sum(rules.card_points[: rules.pack])
        + max(rules.basra_points, rules.jack_on_lone_jack)
    )
    return max(scores) + most_in_a_round >= rules.target


def analyse(view: View, *, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Analysis:
    """What each of ``view``'s legal moves is worth to its seat (see the module docstring)."""
    if view.phase != PHASE_PLAY or view.turn != view.seat:
        raise ValueError("an analysis needs the view of the seat to move in a round being played")
    rng = random.Random(f"basra-analysis/{seed}/{view.key()}")
    if search_module() is None:
        return _pure_analysis(view, samples, rng, hindsight=False)
    from basra.bots.ismcts import view_problem

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
    from basra.bots.ismcts import state_problem

    problem = state_problem(state, rng.getrandbits(64), hidden_stock=False)
    return _compiled_analysis(problem, view, samples, hindsight=True)


def _compiled_analysis(problem: Any, view: View, samples: int, *, hindsight: bool) -> Analysis:
    rules = view.rules
    two_sides = len(view.scores) == 2
    if two_sides and problem.hidden() == 0:
        solved = problem.exact(1, 0.0)
        if solved is not None:
            # With mu 0 the solver's reward is 0.5 + margin / (2 * scale): a margin.
            scale = float(
                rules.majority_bonus + sum(rules.card_points[: rules.pack]) + 2 * rules.basra_points
            )
            stats, _ = solved
            values = [(Move(c, t), (total - 0.5) * 2 * scale) for c, t, _, total in stats]
            return _estimates(view, values, None, None, 1, exact=True, hindsight=hindsight)
    moves, sums, cross, wins, done = problem.evaluate(samples, 0.1, 2, None)
    n = len(moves)
    means = [total / done for total in sums]
    variances = [max(cross[i * n + i] / done - means[i] ** 2, 0.0) for i in range(n)]
    values = [(Move(c, t), mean) for (c, t), mean in zip(moves, means, strict=True)]
    stderrs = [math.sqrt(v / max(done - 1, 1)) for v in variances]

    def paired(i: int, j: int) -> float:
        cov = cross[i * n + j] / done - means[i] * means[j]
        var = variances[i] + variances[j] - 2 * cov
        return math.sqrt(max(var, 0.0) / max(done - 1, 1))

    win_chances = [w / done for w in wins] if can_end_match(rules, view.scores) else None
    return _estimates(
        view, values, stderrs, paired, done, exact=False, hindsight=hindsight, wins=win_chances
    )


def _estimates(
    view: View,
    values: list[tuple[Move, float]],
    stderrs: list[float] | None,
    paired: Any,
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
        out.append(
            MoveEstimate(
                move=move,
                points=points,
                stderr=stderrs[i] if stderrs is not None else 0.0,
                loss=top - points,
                loss_stderr=paired(best, i) if paired is not None and i != best else 0.0,
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
    """The same estimate on the pure-Python engine (the quick playout policy; slower)."""
    from basra.bots.ismcts import rollout
    from basra.bots.sim import Sampler, Sim

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
            points = sim.result.points
            others = sum(p for side, p in enumerate(points) if side != me) / (len(points) - 1)
            margins.append(points[me] - others)
        for i in range(n):
            sums[i] += margins[i]
            for j in range(n):
                cross[i][j] += margins[i] * margins[j]
        done += 1
    means = [total / done for total in sums]
    variances = [max(cross[i][i] / done - means[i] ** 2, 0.0) for i in range(n)]
    stderrs = [math.sqrt(v / max(done - 1, 1)) for v in variances]

    def paired(i: int, j: int) -> float:
        cov = cross[i][j] / done - means[i] * means[j]
        return math.sqrt(max(variances[i] + variances[j] - 2 * cov, 0.0) / max(done - 1, 1))

    values = list(zip(moves, means, strict=True))
    return _estimates(view, values, stderrs, paired, done, exact=False, hindsight=hindsight)
