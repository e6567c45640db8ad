"""Exact play when every card is placed: the pure-Python mirror of the kernel's solver.

When nothing is hidden (a determinization; a 2-player last deal, where the
other hand is every card this seat has not seen; a hindsight analysis) the
rest of the round is a game of perfect information. :func:`solve_moves` gives
each root move its value under perfect play by every side: alpha-beta between
two sides, max^n between three or four, moves tried best first by the playout
policy (:func:`basra.sim.policy_value`).

The values are either the round **margins** in points (each side's round
points less the mean of the other sides', each side playing for its own
margin: what the coach reports, never clipped) or the search's **rewards**
(:class:`basra.bots.reward.Reward`, what the bots maximize). It is the same
algorithm as ``basra._search`` (``Search.exact``): the same move order, the
same ties, the same node count, so the two engines solve alike and give up
(past ``node_limit`` nodes) at the same positions.

>>> from basra.state import GameState
>>> state = GameState.from_position(
...     "egyptian", floor=["4S"], hands=[["6H", "KC"], ["10H", "2D"]], turn=0)
>>> from basra.sim import Sim
>>> [(move.text(), value) for move, value in solve_moves(Sim.from_state(state), margins=True)]
[('6H', -40.0), ('KC', 0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable

from basra.bots.reward import Reward, round_margins
from basra.kernel import generate_moves as _active_generate_moves
from basra.moves import Move
from basra.rules import Rules
from basra.scoring import RoundScore
from basra.sim import policy_value
from basra.transition import Round
from basra.view import Unseen, View

__all__ = ["DEFAULT_NODE_LIMIT", "SolveAbortedError", "nothing_hidden", "solve_moves"]

DEFAULT_NODE_LIMIT = 2_000_000
"""The kernel's limit: positions searched per root move before a solve gives up."""


def nothing_hidden(view: View) -> bool:
    """True when every card is placed for ``view``'s seat: the unseen cards all lie in
    one other hand (a 2-player last deal), the stock holding only known cards (the
    kernel's ``Search.hidden() == 0``)."""
    unseen = Unseen(view)
    holders = sum(1 for need in unseen.needs if need)
    return len(unseen.cards) == unseen.dealt and holders <= 1


class SolveAbortedError(Exception):
    """A solve needed more than its node limit."""


class _Solving(Round):
    """A round that keeps the score of its end (``Round`` discards it)."""

    __slots__ = ("score",)

    score: RoundScore | None

    def _end_round(self) -> object:
        last = self.last_capture_side
        token = (self.floor, self.piles[last] if last is not None else 0)
        self.score = self.finish()
        return token

    def _reopen_round(self, token: object) -> None:
        self.score = None
        super()._reopen_round(token)


def _round_from(sim: Round) -> _Solving:
    out = _Solving(sim.rules, sim.players, sim.side_of)
    out.load_round(
        hands=list(sim.hands),
        floor=sim.floor,
        stock=list(sim.stock[sim.stock_pos :]),
        first_player=sim.first_player,
        turn=sim.turn,
        piles=list(sim.piles),
        basras=list(sim.basras),
        basra_points=list(sim.basra_points),
        lone_last=sim.lone_last,
        scores=list(sim.scores),
        carry=sim.carry,
        plays=[],
    )
    out.score = None
    return out


def _ordered(rules: Rules, game: _Solving) -> list[Move]:
    """The legal moves, best first by the playout policy (ties in the generator's order)."""
    floor = game.floor
    lone = game.lone_trail
    moves = _active_generate_moves(rules, game.hand_cards[game.turn], floor)
    values = [policy_value(rules, m.card, m.take, floor, lone) for m in moves]
    return [moves[i] for i in sorted(range(len(moves)), key=lambda i: -values[i])]


class _Solver:
    def __init__(
        self,
        rules: Rules,
        value_of: Callable[[RoundScore], list[float]],
        pair: float,
        limit: int,
    ) -> None:
        self.rules = rules
        self.value_of = value_of
        self.pair = pair
        self.limit = limit
        self.nodes = 0

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise SolveAbortedError

    def alphabeta(self, game: _Solving, alpha: float, beta: float) -> float:
        """Side 0's value under perfect play by two sides."""
        if game.score is not None:
            return self.value_of(game.score)[0]
        self._count()
        maximizing = game.side_of[game.turn] == 0
        best = -math.inf if maximizing else math.inf
        for move in _ordered(self.rules, game):
            game.push(move)
            value = self.alphabeta(game, alpha, beta)
            game.pop()
            if maximizing:
                if value > best:
                    best = value
                alpha = max(alpha, best)
            else:
                if value < best:
                    best = value
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def maxn(self, game: _Solving) -> list[float]:
        """Every side's value under max^n play (each side maximizing its own)."""
        if game.score is not None:
            return self.value_of(game.score)
        self._count()
        mover = game.side_of[game.turn]
        out: list[float] | None = None
        for move in _ordered(self.rules, game):
            game.push(move)
            values = self.maxn(game)
            game.pop()
            if out is None or values[mover] > out[mover]:
                out = values
        assert out is not None
        return out

    def value(self, game: _Solving, side: int) -> float:
        if len(game.piles) == 2:
            value = self.alphabeta(game, -math.inf, math.inf)
            return value if side == 0 else self.pair - value
        return self.maxn(game)[side]


def solve_moves(
    sim: Round,
    *,
    margins: bool,
    mu: float = 0.5,
    shape: int = 1,
    node_limit: int = DEFAULT_NODE_LIMIT,
) -> list[tuple[Move, float]]:
    """Every legal move of the seat to move in ``sim`` (every card placed, the stock in
    its true order) with its value under perfect play, in the generator's order.

    ``margins``: the mover's side's round margin in points (each side playing for
    its own); otherwise the search's reward (:class:`~basra.bots.reward.Reward`
    with ``mu`` and ``shape``). Raises :class:`SolveAbortedError` when a root move
    needs more than ``node_limit`` positions.
    """
    rules = sim.rules
    sides = len(sim.piles)
    value_of: Callable[[RoundScore], list[float]]
    if margins:

        def value_of(score: RoundScore) -> list[float]:
            return round_margins([float(p) for p in score.points])

        pair = 0.0
    else:
        reward = Reward(rules, sides, mu, shape)

        def value_of(score: RoundScore) -> list[float]:
            return reward([float(p) for p in score.points], [float(s) for s in score.score])

        pair = 1.0
    game = _round_from(sim)
    me = sim.side_of[sim.turn]
    out = []
    for move in _active_generate_moves(rules, game.hand_cards[game.turn], game.floor):
        solver = _Solver(rules, value_of, pair, node_limit)
        game.push(move)
        value = solver.value(game, me)
        game.pop()
        out.append((move, value))
    return out
