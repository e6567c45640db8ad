"""The pure-Python search: the reference of the compiled one (``basra._search``).

:func:`search` is information-set MCTS on the engine's own round (a
:class:`~basra.sim.Sim`), :class:`~basra.bots.reward.Reward` what a round is worth,
:func:`rollout` the playouts. :class:`PureProblem` wraps them behind the same
methods as the compiled ``basra._search.Search`` (``run``, ``exact``,
``evaluate``, ``hidden``, ``remaining``, ``set_belief``), so that
:func:`basra.bots.ismcts.run_problem` plays every option of the search on
either engine: ``forced``, ``trees``, ``depth``, ``policy``, ``flat``,
``solve``, ``exact``, ``floor``, ``belief``. Its random draws come from
Python's generator, the compiled one's from the kernel's: the two make equally
good choices, not the same ones.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from basra.bots.base import BotError
from basra.bots.heuristic import majority_chance
from basra.bots.reward import REWARD_CLIPPED, REWARD_LINEAR, Reward, round_margins
from basra.bots.settings import SearchSettings
from basra.bots.solve import SolveAbortedError, solve_moves
from basra.kernel import generate_moves
from basra.moves import Move
from basra.rules import Rules
from basra.scoring import pile_points
from basra.sim import Sampler, Sim, policy_value
from basra.transition import play_basra

__all__ = [
    "REWARD_CLIPPED",
    "REWARD_LINEAR",
    "Node",
    "PureProblem",
    "Reward",
    "expected_points",
    "floor_correction",
    "lookahead_move",
    "rollout",
    "round_margins",
    "search",
]


def expected_points(sim: Sim) -> list[float]:
    """Each side's expected points for the round from a position in its middle.

    Point cards and basras already taken, plus the majority bonus (and any
    abeyance carry) times the chance of winning the majority
    (:func:`basra.bots.heuristic.majority_chance`).
    """
    rules = sim.rules
    piles = sim.piles
    counts = [p.bit_count() for p in piles]
    remaining = sim.floor.bit_count() + sim.in_hands + sim.stock_size
    bonus = rules.majority_bonus + sim.carry
    out = []
    for side, pile in enumerate(piles):
        value = float(sim.basra_points[side] + pile_points(rules, pile))
        if bonus:
            lead = counts[side] - max(c for s, c in enumerate(counts) if s != side)
            value += bonus * majority_chance(lead, remaining)
        out.append(value)
    return out


def rollout(
    sim: Sim, rng: random.Random, eps: float, horizon: int = 0, tail: int = 0, policy: int = 1
) -> None:
    """Play the simulation on with the fast heuristic policy (:func:`~basra.sim.policy_value`).

    To the end of the round, or with ``horizon`` > 0 until that many new deals
    have been made since the simulation started, and ``tail`` plays more. A
    share ``eps`` of the moves is random. ``policy`` 2 plays greedy's one-reply
    look instead (:func:`lookahead_move`).
    """
    rules = sim.rules
    random_ = rng.random
    stop = horizon if horizon > 0 else 1 << 30
    while sim.result is None:
        if sim.deals >= stop:
            if tail <= 0:
                break
            tail -= 1
        moves = sim.moves()
        if len(moves) == 1:
            card, take = moves[0]
        elif policy == 2:
            card, take = lookahead_move(sim, moves, random_, eps)
        elif random_() < eps:
            card, take = moves[int(random_() * len(moves))]
        else:
            floor = sim.floor
            lone = sim.lone_trail
            best = -1e9
            card = take = -1
            for c, t in moves:
                value = policy_value(rules, c, t, floor, lone) + random_() * 0.01
                if value > best:
                    best = value
                    card, take = c, t
        sim.play(card, take)


def _policy_move(sim: Sim, moves: list[Move], random_: Callable[[], float], eps: float) -> Move:
    """The playout policy's move (a share ``eps`` at random)."""
    if len(moves) == 1:
        return moves[0]
    if random_() < eps:
        return moves[int(random_() * len(moves))]
    rules = sim.rules
    floor = sim.floor
    lone = sim.lone_trail
    return max(moves, key=lambda m: policy_value(rules, m[0], m[1], floor, lone) + random_() * 0.01)


class Node:
    """A node of the search tree: the statistics of the move that leads to it."""

    __slots__ = ("avail", "children", "margin", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        """The rewards backed up (what the search compares)."""
        self.margin = 0.0
        """The side's round margins backed up, in points (what the analysis reports)."""
        self.side = side


def search(
    sample: Callable[[], Sim],
    rules: Rules,
    sides: int,
    settings: SearchSettings,
    rng: random.Random,
    forced: Move | None = None,
) -> tuple[dict[Move, Node], int]:
    """Run ISMCTS from a root whose determinizations ``sample`` makes.

    The tree covers the rest of this deal and ``settings.depth`` - 1 deals more;
    with ``forced`` the root's only move is that one (the analyser's and
    ``forced``'s searches). Returns the root's children by move and the
    iterations run.
    """
    root = Node(-1)
    reward = Reward(rules, sides, settings.mu, settings.reward)
    model = settings.model
    policy = settings.policy
    floor_weight = settings.floor
    depth = max(settings.depth, 1)
    c = settings.c
    eps = settings.eps
    horizon = settings.horizon
    tail = settings.tail
    limit = settings.iterations if settings.iterations is not None else 1 << 62
    deadline = time.perf_counter() + settings.seconds if settings.seconds is not None else None
    log = math.log
    sqrt = math.sqrt
    random_ = rng.random
    iterations = 0
    while iterations < limit:
        if deadline is not None and iterations & 15 == 0 and time.perf_counter() > deadline:
            break
        iterations += 1
        sim = sample()
        side_of = sim.side_of
        me = side_of[sim.turn]
        node = root
        path = []
        while sim.result is None and sim.deals < depth:
            moves = sim.moves()
            if forced is not None and node is root:
                moves = [forced]
            children = node.children
            if model and side_of[sim.turn] != me:
                move = _policy_move(sim, moves, random_, eps)
                child = children.get(move)
                if child is None:
                    child = children[move] = Node(side_of[sim.turn])
                sim.play(*move)
                node = child
                continue
            untried = [m for m in moves if m not in children]
            if untried:
                move = untried[int(random_() * len(untried))]
                child = children[move] = Node(side_of[sim.turn])
                for m in moves:
                    other = children.get(m)
                    if other is not None and other is not child:
                        other.avail += 1
                sim.play(*move)
                path.append(child)
                break
            best_value = -math.inf
            chosen = moves[0]
            for m in moves:
                other = children[m]
                other.avail += 1
                value = other.total / other.visits + c * sqrt(log(other.avail) / other.visits)
                if value > best_value:
                    best_value = value
                    chosen = m
            node = children[chosen]
            sim.play(*chosen)
            path.append(node)
        rollout(sim, rng, eps, horizon, tail, policy)
        result = sim.result
        if result is not None:
            rewards = reward(result.points, result.score)
            margins = round_margins(result.points)
        else:
            points = expected_points(sim)
            floor_correction(sim, floor_weight, points)
            rewards = reward(points, [s + p for s, p in zip(sim.scores, points, strict=True)])
            margins = round_margins(points)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.side]
            visited.margin += margins[visited.side]
    return root.children, iterations


def _gain(rules: Rules, card: int, take: int, floor: int, lone: bool, per_card: float) -> float:
    """What a play takes at once: point cards, basra, cards towards the majority."""
    if not take:
        return 0.0
    points = rules.card_points
    value = points[card] + per_card * (take.bit_count() + 1)
    rest = take
    while rest:
        low = rest & -rest
        value += points[low.bit_length() - 1]
        rest ^= low
    if take == floor:
        value += play_basra(rules, card, take, floor, lone_trail=lone, last_play=False)
    return value


def _best_reply(sim: Sim, seat: int, floor: int, lone: bool, per_card: float) -> float:
    """The most ``seat`` (its hand known in this determinization) can take at once."""
    if not floor or not sim.hands[seat]:
        return 0.0
    rules = sim.rules
    best = 0.0
    for card, take in generate_moves(rules, sim.hand_cards[seat], floor):
        best = max(best, _gain(rules, card, take, floor, lone, per_card))
    return best


def lookahead_move(
    sim: Sim, moves: Sequence[Move], random_: Callable[[], float], eps: float
) -> Move:
    """The one-reply playout policy (``policy=2``): points now less the next player's best
    reply (its hand is known in a determinization), as the greedy bot plays."""
    if len(moves) == 1:
        return moves[0]
    if random_() < eps:
        return moves[int(random_() * len(moves))]
    rules = sim.rules
    per_card = 0.1 + rules.majority_bonus / rules.pack
    floor = sim.floor
    lone = sim.lone_trail
    turn = sim.turn
    nxt = turn + 1 if turn + 1 < sim.players else 0
    last = sim.in_hands == 1 and sim.stock_pos == len(sim.stock)
    best = -math.inf
    chosen = moves[0]
    for move in moves:
        card, take = move
        if take:
            value = _gain(rules, card, take, floor, lone, per_card)
            if last and take == floor and not rules.basra_on_last_play:
                value -= play_basra(rules, card, take, floor, lone_trail=lone, last_play=False)
            if not last:
                value -= _best_reply(sim, nxt, floor ^ take, False, per_card)
        else:
            value = -1.5 * rules.card_points[card]
            if rules.sweepers >> card & 1:
                value -= 4.0
            elif card < 40:
                value += 0.05 * (9 - (card >> 2))
            if not last:
                single = floor != 0 and not floor & (floor - 1)
                value -= _best_reply(sim, nxt, floor | 1 << card, single, per_card)
        value += random_() * 0.01
        if value > best:
            best = value
            chosen = move
    return chosen


def floor_correction(sim: Sim, weight: float, points: list[float]) -> None:
    """At a deal's end, what the floor is worth to the side that plays first in the next
    deal (``floor=W``; 2 sides only; mirror of the compiled ``floor_correction``)."""
    if weight == 0.0 or len(points) != 2 or not sim.due:
        return
    rules = sim.rules
    first = sim.side_of[sim.first_player]
    floor = sim.floor
    delta = 1.5 * floor.bit_count()
    total = 0
    rest = floor
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        delta += 0.45 * rules.card_points[card]
        total += (card >> 2) + 1
    if floor.bit_count() == 1:
        delta += 2.4
    if floor & (0b1111 << 40):
        delta -= 4.8
    if floor and not floor & ~((1 << 40) - 1) and total <= 10:
        delta += 3.1
    last = sim.last_capture_side
    if last is not None:
        delta += 0.86 if last == first else -0.86
    points[first] += weight * delta / 2
    points[1 - first] -= weight * delta / 2


class PureProblem:
    """One decision's search on the pure-Python engine, with the compiled ``Search``'s
    methods (see the module docstring).

    ``sample`` makes a determinization with the generator it is given;
    ``hidden`` counts the cards hidden from the seat (0: every card placed, so one
    determinization is the position itself), ``remaining`` the plays left.
    """

    def __init__(
        self,
        sample: Callable[[random.Random], Sim],
        rules: Rules,
        sides: int,
        rng: random.Random,
        *,
        hidden: int,
        remaining: int,
        sampler: Sampler | None = None,
    ) -> None:
        self._sample = sample
        self.rules = rules
        self.sides = sides
        self.rng = rng
        self._hidden = hidden
        self._remaining = remaining
        self.sampler = sampler

    def sample(self) -> Sim:
        """A determinization."""
        return self._sample(self.rng)

    def hidden(self) -> int:
        """How many cards are hidden from the seat (0: none)."""
        return self._hidden

    def remaining(self) -> int:
        """The plays left in the round."""
        return self._remaining

    def set_belief(
        self, weights: Sequence[Sequence[float]], sweeps: int = 2, burn: int = 20
    ) -> None:
        """Draw the hidden cards from the learned belief (:meth:`Sampler.set_belief`)."""
        if self.sampler is None:
            raise BotError("the learned belief reads a seat's view; this search has none")
        self.sampler.set_belief(weights, sweeps, burn)

    def run(
        self, settings: SearchSettings, forced: Move | None = None
    ) -> tuple[list[tuple[int, int, int, float, float]], int]:
        """One search as ``settings`` say (its root move ``forced`` when given): the root
        moves' ``(card, take, visits, total, margins)`` and the iterations run."""
        children, iterations = search(
            self.sample, self.rules, self.sides, settings, self.rng, forced
        )
        return (
            [(m.card, m.take, n.visits, n.total, n.margin) for m, n in children.items()],
            iterations,
        )

    def exact(
        self,
        samples: int,
        mu: float = 0.5,
        node_limit: int = 2_000_000,
        margins: bool = False,
        shape: int = REWARD_LINEAR,
    ) -> tuple[list[tuple[int, int, int, float]], int] | None:
        """Each root move's value solved exactly in ``samples`` determinizations (one when
        nothing is hidden); ``None`` when a solve needs more than ``node_limit`` positions."""
        if self._hidden == 0:
            samples = 1
        totals: list[float] = []
        moves: list[Move] = []
        for k in range(samples):
            try:
                solved = solve_moves(
                    self.sample(), margins=margins, mu=mu, shape=shape, node_limit=node_limit
                )
            except SolveAbortedError:
                return None
            if not k:
                moves = [move for move, _ in solved]
                totals = [0.0] * len(solved)
            for i, (_, value) in enumerate(solved):
                totals[i] += value
        return [(m.card, m.take, samples, t) for m, t in zip(moves, totals, strict=True)], samples

    def evaluate(
        self, samples: int, eps: float = 0.1, policy: int = 2, seconds: float | None = None
    ) -> tuple[list[tuple[int, int]], list[float], list[float], list[float], int]:
        """Each root move played out to the round's end in ``samples`` determinizations
        (the same random draws for every move), as the compiled ``evaluate``: the moves,
        the sums of the mover's side's margins, their cross products, the sums of the
        chance of winning the match, and the determinizations made."""
        deadline = time.perf_counter() + seconds if seconds is not None else None
        win_reward = Reward(self.rules, self.sides, 1.0)
        rng = self.rng
        base = self.sample()
        moves = base.moves()
        n = len(moves)
        me = base.side_of[base.turn]
        sums = [0.0] * n
        cross = [0.0] * (n * n)
        wins = [0.0] * n
        done = 0
        for k in range(samples):
            if deadline is not None and k and not k & 7 and time.perf_counter() > deadline:
                break
            if k:
                base = self.sample()
            state = rng.getstate()
            margins = []
            for i, (card, take) in enumerate(moves):
                rng.setstate(state)  # common random numbers: the same draws for every move
                child = base.clone(list(base.stock), base.unshuffled, rng)
                child.stock_pos = base.stock_pos
                child.play(card, take)
                rollout(child, rng, eps, 0, 0, policy)
                assert child.result is not None
                value = round_margins([float(p) for p in child.result.points])[me]
                margins.append(value)
                sums[i] += value
                wins[i] += win_reward(child.result.points, child.result.score)[me]
            for i in range(n):
                for j in range(n):
                    cross[i * n + j] += margins[i] * margins[j]
            done += 1
        return [(m.card, m.take) for m in moves], sums, cross, wins, done
