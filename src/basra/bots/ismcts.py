"""The ``ismcts`` bot and the ``cheater`` measuring stick.

``ismcts`` is single-observer information-set Monte Carlo tree search
(Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2)). Each iteration:

1. **determinizes**: deals the cards this seat has not seen at random
   (:class:`basra.sim.Sampler`, the fast form of
   :func:`basra.view.determinize`: every card played, captured, turned up or
   re-buried is tracked), weighting the deals of the other hands by how
   likely they made the plays seen in this deal (hand reading, ``read``);
2. **selects** down one tree keyed by moves, shared by every determinization:
   only the moves legal in this determinization compete, by UCB1 with
   availability counts (``c``), each seat maximizing its own side's reward;
   the tree stops at the end of the current deal (new hands are a chance event
   with too many outcomes to branch on);
3. **expands** one untried move and **plays out** the rest of the round with a
   fast heuristic policy (take basras and point cards, take many cards when
   the majority is worth a lot, keep jacks, do not leave a lone card or a small
   floor; a share ``eps`` of moves at random);
4. **backs up** a reward that knows the match score (:class:`Reward`): a blend
   of the round's point margin and the chance of winning the match from the
   scores after the round, so near the target the points that cross it count
   most.

The move played is the root move visited most. The budget is a number of
iterations or of seconds (a time budget makes the bot depend on the
machine's speed); for a given seed and iteration budget the bot is
deterministic, and its choice depends only on the view.

With the compiled kernel active the search runs in C (:mod:`basra._search`,
:func:`kernel_search`: the same sampler, hand reading, playout policy, tree and
reward, some forty times faster, with the kernel's random generator); the
pure-Python search (:mod:`basra.bots.pure`) is its reference and the fallback,
and honours every option. :func:`run_problem` plays the options measured in
docs/BOTS.md on either engine: ``forced=K`` (value each root move by K
searches that start with it: the ``expert`` level and the coach's analysis),
``trees``, ``depth``, ``policy``, ``flat``, ``solve``, ``exact``, ``floor``,
``belief`` (deal the hidden cards from the learned belief, :mod:`basra.belief`)
and ``near`` (the weight of the match near its end).

``cheater`` runs the same search on the true hands (only the order of the
stock is sampled). It sees what no player may see: it is a measuring stick for
how much hidden information costs, never an opponent.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from typing import Any

from basra.bots.base import Bot, BotError, OmniscientBot, register_bot
from basra.bots.pure import Node as _Node
from basra.bots.pure import PureProblem, expected_points, rollout, search
from basra.bots.reward import REWARD_CLIPPED, REWARD_LINEAR, Reward, round_margins
from basra.bots.settings import SearchSettings, parse_settings
from basra.bots.solve import nothing_hidden
from basra.kernel import search_module
from basra.moves import Move
from basra.rules import Rules
from basra.sim import Sampler, Sim, deal_decisions
from basra.state import GameState
from basra.transition import pack_lone_last
from basra.view import Unseen, View

__all__ = [
    "REWARD_CLIPPED",
    "REWARD_LINEAR",
    "CheaterBot",
    "IsmctsBot",
    "Reward",
    "SearchSettings",
    "can_end_match",
    "expected_points",
    "parse_settings",
    "rollout",
    "round_margins",
    "run_problem",
    "search",
]


def _best(children: dict[Move, _Node], moves: list[Move]) -> Move:
    """The most visited legal root move (then the best mean, then the first)."""
    best = moves[0]
    key = (-1, -1.0)
    for move in moves:
        node = children.get(move)
        if node is None:
            continue
        score = (node.visits, node.total / node.visits if node.visits else 0.0)
        if score > key:
            key = score
            best = move
    return best


def stable_seed(*parts: object) -> int:
    """A 64-bit seed from ints, bools, None and tuples of them, the same on every platform.

    ``hash()`` of a tuple is as wide as the platform's ``Py_hash_t``: 32 bits in
    WebAssembly (Pyodide), 64 natively; the text of the parts is the same everywhere.

    >>> stable_seed(7, (0, 1, (2, 3)))
    10097681347505485641
    """
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class IsmctsBot(Bot):
    """Information-set MCTS on the seat's view (see the module docstring)."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, settings: SearchSettings | None = None) -> None:
        super().__init__(seed)
        self.seed = seed
        self.settings = settings if settings is not None else SearchSettings()
        self.last_iterations = 0
        self.iteration_log: list[int] = []

    def decision_rng(self, view: View) -> random.Random:
        """The generator of one decision: from the seed and the view alone, the same on
        every platform (:func:`stable_seed`), so the page's search (WebAssembly) and the
        server's make the same decision."""
        if self.seed is None:
            return random.Random(self.rng.getrandbits(64))
        return random.Random(stable_seed(self.seed, view.key()))

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        rng = self.decision_rng(view)
        settings = self.settings
        if settings.kernel and search_module() is not None:
            problem = view_problem(view, settings.read, settings.pool, rng.getrandbits(64))
        else:
            problem = pure_view_problem(view, settings, rng)
        if settings.belief:
            problem.set_belief(belief_weights(view, settings.belief))
        children, iterations = run_problem(problem, settings_for(settings, view))
        self.last_iterations = iterations
        return _best(children, moves)


def can_end_match(rules: Rules, scores: Sequence[int]) -> bool:
    """Whether a good round (the majority, every point card, a basra) brings a side to the
    target: near the end of a match (``near``; the coach's chances of winning it)."""
    most_in_a_round = (
        rules.majority_bonus
        + sum(rules.card_points[: rules.pack])
        + max(rules.basra_points, rules.jack_on_lone_jack)
    )
    return max(scores) + most_in_a_round >= rules.target


def settings_for(settings: SearchSettings, view: View) -> SearchSettings:
    """The settings of one decision: with ``near``, the match's weight raised when this
    round can end the match."""
    if not settings.near or not can_end_match(view.rules, view.scores):
        return settings
    out = SearchSettings()
    for name in SearchSettings.__slots__:
        setattr(out, name, getattr(settings, name))
    out.mu = settings.near
    return out


def belief_weights(view: View, power: float) -> list[list[float]]:
    """The sampler's log weights of each card's places (seats 0-3, then 4 the stock) from
    the learned belief (:mod:`basra.belief`), raised to ``power``."""
    # Imported here, not for a cycle (the belief imports nothing of the bots) but because
    # the offline page does not get the belief (``LAZY_IMPORTS``, offline_files.py).
    from basra.belief.features import CARDS, LOCATIONS
    from basra.belief.model import default_model

    encoded, probabilities = default_model().of_view(view)
    out = [[0.0] * 5 for _ in range(CARDS)]
    for card in range(CARDS):
        if not encoded.unseen >> card & 1:
            continue
        row = probabilities[card]
        for location in range(LOCATIONS):
            place = 4 if location == 0 else encoded.seats[location]
            if place >= 0:
                out[card][place] = power * math.log(max(row[location], 1e-9))
    return out


def pure_view_problem(view: View, settings: SearchSettings, rng: random.Random) -> PureProblem:
    """The pure-Python search problem of ``view``'s seat (:class:`basra.bots.pure.PureProblem`)."""
    sampler = Sampler(view, settings.read, settings.pool)
    return PureProblem(
        sampler.sample,
        view.rules,
        len(view.scores),
        rng,
        hidden=0 if nothing_hidden(view) else view.unseen().bit_count(),
        remaining=sum(view.hand_sizes) + view.stock_size,
        sampler=sampler,
    )


def view_problem(view: View, read: float, pool: int, seed: int) -> Any:
    """A compiled search problem (``basra._search.Search``) for ``view``'s seat.

    What the seat knows and the cards hidden from it (:class:`basra.view.Unseen`),
    with this deal's plays as evidence for hand reading when ``read`` > 0.
    Needs the compiled modules (built), even where ``BASRA_KERNEL=0`` keeps
    them out of play.
    """
    import basra._search as module

    unseen = Unseen(view)
    hands = [0 if seat == view.seat else known for seat, known in enumerate(view.known)]
    hands[view.seat] = view.hand
    decisions = (
        [(d.seat, d.floor, d.lone, d.move.card, d.move.take, d.later) for d in deal_decisions(view)]
        if read > 0
        else []
    )
    return module.Search(
        _krules(view.rules),
        view.players,
        view.side_of,
        view.seat,
        hands,
        view.floor,
        unseen.cards,
        unseen.needs,
        unseen.bottom,
        list(view.captured),
        list(view.basras),
        list(view.basra_points),
        pack_lone_last(view.lone_trail, view.last_capture_side),
        view.turn,
        (view.dealer + 1) % view.players,
        list(view.scores),
        view.carry,
        decisions,
        read,
        pool,
        seed,
    )


def state_problem(state: GameState, seed: int, hidden_stock: bool = True) -> Any:
    """A compiled search problem on the true hands of ``state`` (the cheater; hindsight).

    With ``hidden_stock`` the order of the cards still to deal is sampled (but
    for re-buried cards, whose place is known); without, the true order is used
    and nothing at all is hidden.
    """
    import basra._search as module

    stock = state.stock[state.stock_pos :]
    bottom = 0
    if hidden_stock:
        buried = set(state.rounds[-1].buried) if state.rounds else set()
        while bottom < len(stock) and stock[len(stock) - 1 - bottom] in buried:
            bottom += 1
    hidden = stock[: len(stock) - bottom] if hidden_stock else []
    fixed = stock[len(stock) - bottom :] if hidden_stock else stock
    return module.Search(
        _krules(state.rules),
        state.players,
        state.side_of,
        state.turn,
        list(state.hands),
        state.floor,
        hidden,
        [0] * state.players,
        fixed,
        list(state.piles),
        list(state.basras),
        list(state.basra_points),
        state.lone_last,
        state.turn,
        state.first_player,
        list(state.scores),
        state.carry,
        [],
        0.0,
        0,
        seed,
    )


def kernel_search(
    view: View, settings: SearchSettings, rng: random.Random
) -> tuple[dict[Move, _Node], int]:
    """:func:`search` from ``view`` in the compiled kernel (``basra._search``).

    The same algorithm on the same sampler, playout policy and hand reading,
    with the kernel's random generator seeded from ``rng``.
    """
    problem = view_problem(view, settings.read, settings.pool, rng.getrandbits(64))
    return run_problem(problem, settings)


def move_searches(problem: Any, settings: SearchSettings) -> dict[Move, list[tuple[float, float]]]:
    """Each root move's value, by ``settings.forced`` searches that all start with it: each
    search's ``(mean reward, mean round margin)`` for the mover's side.

    Every search runs ``settings.iterations`` iterations from the position
    after the move, both sides searching as in :func:`search` (the spread of
    the values is the estimate's error). The margin (the mover's side's round
    points less the mean of the other sides', at the search's horizon the
    expected ones) is in points and never clipped, whatever the reward's
    shape: what the coach reports.
    """
    moves, _, _, _, _ = problem.evaluate(0)
    out: dict[Move, list[tuple[float, float]]] = {}
    for card, take in moves:
        batches = out[Move(card, take)] = []
        for _ in range(settings.forced):
            stats, _ = _search(problem, settings, card, take)
            (_, _, visits, total, margins) = stats[0]
            batches.append((total / visits, margins / visits))
    return out


def run_problem(problem: Any, settings: SearchSettings) -> tuple[dict[Move, _Node], int]:
    """Search a problem (compiled ``basra._search.Search`` or :class:`PureProblem`) as
    ``settings`` say: every option on either engine; the root moves' statistics."""
    if settings.solve and problem.hidden() == 0:
        solved = problem.exact(1, settings.mu, shape=settings.reward)
        if solved is not None:
            return _children(solved)
    if settings.exact and problem.remaining() <= settings.exact:
        solved = problem.exact(settings.samples, settings.mu, shape=settings.reward)
        if solved is not None:
            return _children(solved)
    children: dict[Move, _Node] = {}
    if settings.forced:
        for move, batches in move_searches(problem, settings).items():
            node = children[move] = _Node(-1)
            node.visits = len(batches)
            node.total = sum(r for r, _ in batches)
            node.margin = sum(m for _, m in batches)
        return children, settings.forced
    if settings.flat:
        moves, sums, _, _, done = problem.evaluate(
            settings.flat, settings.eps, settings.policy, settings.seconds
        )
        for (card, take), total in zip(moves, sums, strict=True):
            node = children[Move(card, take)] = _Node(-1)
            node.visits = done
            node.total = total
            node.margin = total
        return children, done
    total = 0
    for _ in range(max(settings.trees, 1)):
        found, iterations = _run(problem, settings)
        total += iterations
        for move, node in found.items():
            mine = children.setdefault(move, _Node(-1))
            mine.visits += node.visits
            mine.total += node.total
            mine.margin += node.margin
    return children, total


def _krules(rules: Rules) -> object:
    import basra._kernel

    return basra._kernel.krules(rules)


def _search(
    problem: Any, settings: SearchSettings, card: int = -1, take: int = 0
) -> tuple[list[tuple[int, int, int, float, float]], int]:
    """One search as ``settings`` say (its root move forced when ``card`` >= 0)."""
    if isinstance(problem, PureProblem):
        return problem.run(settings, Move(card, take) if card >= 0 else None)
    stats: tuple[list[tuple[int, int, int, float, float]], int] = problem.run(
        settings.iterations,
        settings.seconds,
        settings.c,
        settings.eps,
        settings.mu,
        settings.horizon,
        settings.tail,
        settings.model,
        settings.policy,
        settings.floor,
        card,
        take,
        settings.depth,
        settings.reward,
    )
    return stats


def _run(problem: object, settings: SearchSettings) -> tuple[dict[Move, _Node], int]:
    return _children(_search(problem, settings))


def _children(
    result: tuple[Sequence[tuple[Any, ...]], int],
) -> tuple[dict[Move, _Node], int]:
    """Root statistics ``(card, take, visits, total[, margins])`` as nodes by move."""
    stats, iterations = result
    children: dict[Move, _Node] = {}
    for card, take, visits, total, *margins in stats:
        node = _Node(-1)
        node.visits = visits
        node.total = total
        node.margin = margins[0] if margins else 0.0
        children[Move(card, take)] = node
    return children, iterations


class CheaterBot(OmniscientBot):
    """The same search on the true hands: **a measuring stick that sees every hand**.

    Only the order of the stock, which nobody knows, is sampled. Never offered
    as an opponent (it is not behind any level).
    """

    name = "cheater"

    def __init__(self, seed: int | None = None, settings: SearchSettings | None = None) -> None:
        super().__init__(seed)
        self.seed = seed
        self.settings = settings if settings is not None else SearchSettings()

    def choose_with_state(self, state: GameState, view: View) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if self.seed is None:
            rng = random.Random(self.rng.getrandbits(64))
        else:
            rng = random.Random(hash((self.seed, view.key(), tuple(state.hands))))
        settings = settings_for(self.settings, view)
        if settings.belief:
            raise BotError("the cheater sees every hand: it has no use for the belief")
        if settings.kernel and search_module() is not None:
            problem: Any = state_problem(state, rng.getrandbits(64))
        else:
            base = Sim.from_state(state)
            bottom = len(view.stock_bottom)
            hidden_stock = base.stock[: len(base.stock) - bottom]
            fixed = base.stock[len(base.stock) - bottom :]

            def sample(generator: random.Random) -> Sim:
                return base.clone(hidden_stock + fixed, len(hidden_stock), generator)

            problem = PureProblem(
                sample,
                state.rules,
                len(state.scores),
                rng,
                hidden=len(hidden_stock),
                remaining=state.in_hands + state.stock_size,
            )
        children, _ = run_problem(problem, settings)
        return _best(children, moves)


def _ismcts(options: str, seed: int | None) -> Bot:
    return IsmctsBot(seed, parse_settings(options))


def _cheater(options: str, seed: int | None) -> Bot:
    return CheaterBot(seed, parse_settings(options))


register_bot(
    "ismcts",
    _ismcts,
    "information-set Monte Carlo tree search on the seat's view; options: "
    "iterations=N or seconds=S, c, eps, read, pool, mu, near, reward, horizon, tail, model, "
    "forced, trees, depth, policy, flat, solve, exact, samples, floor, belief, kernel",
)
register_bot(
    "cheater",
    _cheater,
    "MEASURING STICK ONLY: the same search seeing every hand; never an opponent",
)
