"""Exact values: the rest of a round solved exhaustively, over every way the hidden cards lie.

:func:`solve_round` gives every legal move of the seat to move its **round
margin** under perfect play by both sides: the mover's side's points in the
round (RULES.md A9) less the other side's, once the round is over. The values
are the coach's: its analysis with every card seen
(:func:`basra.coach.analysis.analyse_hindsight`) solves a position in which
nothing is hidden exactly, on the compiled kernel or its pure-Python mirror
(:mod:`basra.bots.solve`); one place computes values. Two sides only (2
players, or 4 in two teams): with three sides "perfect play" has no single
meaning.

:func:`arrangements` lists every full position a seat's view allows: the
hidden cards in the other hands and, when a deal is still to come, every way
the stock deals them. :func:`solve_view` solves each one and says, per move,
its mean value and whether it is best in every arrangement: when one move is,
nothing hidden can change the answer. With two players and the stock empty
there is exactly one arrangement: the other hand is every card not seen.

>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState.from_position(
...     "egyptian", floor=["4S"], hands=[["6H", "KC"], ["10H", "2D"]], turn=0)
>>> solved = solve_view(view_of(state, 0), state)
>>> assert solved is not None
>>> [(m.text(), v) for m, v in solved.values.items()], solved.arrangements
([('6H', -40.0), ('KC', 0.0)], 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import factorial

from basra.cards import Card
from basra.coach.analysis import analyse_hindsight
from basra.moves import Move
from basra.state import PHASE_PLAY, GameState
from basra.transition import next_deal_size
from basra.view import Unseen, View

__all__ = [
    "ARRANGEMENT_LIMIT",
    "SolveError",
    "ViewSolution",
    "arrangement_count",
    "arrangements",
    "solve_round",
    "solve_view",
]

ARRANGEMENT_LIMIT = 2000
"""The most arrangements of the hidden cards :func:`solve_view` solves by default."""


class SolveError(ValueError):
    """A position that cannot be solved exactly (three sides, no round, too many arrangements,
    or too many positions for the solver)."""


def _check(state: GameState) -> None:
    if state.phase != PHASE_PLAY:
        raise SolveError("there is no round being played to solve")
    if len(state.sides) != 2:
        raise SolveError(
            f"an exact solve needs two sides (2 players, or 4 in teams), not {len(state.sides)}"
        )


def solve_round(state: GameState) -> dict[Move, float]:
    """Every legal move's round margin for the mover's side, under perfect play by both sides.

    Exact for the position as it stands: every hand and the order of the stock
    as ``state`` holds them (nothing is sampled). ``state`` is not changed.
    Raises :class:`SolveError` unless two sides are playing a round, or when the
    solver gives up (more positions than its limit).
    """
    _check(state)
    analysis = analyse_hindsight(state)
    if not analysis.exact:
        raise SolveError("the rest of this round is too large to solve exactly")
    values = {estimate.move: estimate.points for estimate in analysis.moves}
    return {move: values[move] for move in state.legal_moves()}


# ------------------------------------------------------------------ arrangements


def _future_deals(view: View) -> list[int]:
    """How many cards each player gets in each deal still to come from the stock."""
    deals = []
    remaining = view.stock_size
    while remaining > 0:
        each = next_deal_size(view.rules, view.players, remaining)
        deals.append(each)
        remaining -= each * view.players
    return deals


def _shape(view: View) -> tuple[Unseen, list[int], list[int]]:
    """The unseen cards, then how many of them each hand holds and each batch still to be
    dealt from the stock takes (a batch: one player's cards of one deal, in dealing order)."""
    unseen = Unseen(view)
    batches = []
    unknown = view.stock_size - len(unseen.bottom)  # the top part; the known bottom comes last
    for each in _future_deals(view):
        for _ in range(view.players):
            part = min(each, unknown)
            unknown -= part
            batches.append(each)
            batches.append(part)
    return unseen, list(unseen.needs), batches


def arrangement_count(view: View) -> int:
    """How many distinct full positions ``view`` allows (the hidden cards' arrangements).

    A later deal hands out its batches in a fixed order and each hand is a
    set, so what matters is which unseen cards each hand holds now and which
    each player gets in each deal to come: a multinomial count. Re-buried cards
    still in the stock are at its bottom, in a known order, and dealt last.

    >>> from basra.state import GameState
    >>> from basra.view import view_of
    >>> state = GameState.from_position("egyptian", floor=["4S"],
    ...     hands=[["6H", "KC"], ["10H"]], stock=["2D", "3D", "5D", "8D"], turn=0)
    >>> arrangement_count(view_of(state, 0))   # 10H or one of four in the hand, then 2 of 4
    30
    """
    unseen, needs, batches = _shape(view)
    parts = [n for n in needs if n] + [part for part in batches[1::2] if part]
    count = factorial(len(unseen.cards))
    for part in parts:
        count //= factorial(part)
    return count


def arrangements(view: View, state: GameState) -> Iterator[GameState]:
    """Every full position ``view``'s seat cannot tell apart from the one it is in.

    ``state`` is the true position (the engine's fields are copied from it);
    the positions differ only in the cards the seat has not seen: the other
    hands and the stock still to deal. The true position is one of them.
    """
    unseen, needs, batches = _shape(view)
    hand_seats = [seat for seat in range(view.players) if needs[seat]]
    sizes = [needs[seat] for seat in hand_seats] + batches[1::2]

    def split(cards: list[Card], sizes: list[int]) -> Iterator[list[tuple[Card, ...]]]:
        if not sizes:
            yield []
            return
        for chosen in combinations(cards, sizes[0]):
            left = [c for c in cards if c not in chosen]
            for tail in split(left, sizes[1:]):
                yield [chosen, *tail]

    for parts in split(list(unseen.cards), sizes):
        hands = list(view.known)
        hands[view.seat] = view.hand
        for seat, cards in zip(hand_seats, parts, strict=False):
            for card in cards:
                hands[seat] |= 1 << card
        stock: list[Card] = []
        bottom = list(unseen.bottom)
        for size, unknown in zip(batches[0::2], parts[len(hand_seats) :], strict=True):
            batch = list(unknown)
            while len(batch) < size:
                batch.append(bottom.pop(0))
            stock.extend(batch)
        position = state.copy()
        fields = position.round_fields()
        fields["hands"] = hands
        fields["stock"] = fields["stock"][: fields["stock_pos"]] + stock
        fields["undo_log"] = []
        position.set_round_fields(fields)
        yield position


@dataclass(frozen=True)
class ViewSolution:
    """Every legal move solved in every arrangement a seat's view allows."""

    values: dict[Move, float]
    """Each move's round margin for the mover's side, averaged over the arrangements."""
    best_everywhere: tuple[Move, ...]
    """The moves that are best (ties included) in every single arrangement."""
    arrangements: int


def solve_view(
    view: View, state: GameState, *, limit: int = ARRANGEMENT_LIMIT, answer: Move | None = None
) -> ViewSolution | None:
    """Solve ``view``'s decision in every arrangement of the cards its seat has not seen.

    ``state`` is the true position behind the view (see :func:`arrangements`).
    With ``answer``, stop and return ``None`` at the first arrangement in which
    that move is not best (it is then not proven). Raises :class:`SolveError`
    when more than ``limit`` arrangements exist.
    """
    _check(state)
    count = arrangement_count(view)
    if count > limit:
        raise SolveError(f"{count} arrangements of the hidden cards (the limit is {limit})")
    moves = state.legal_moves()
    totals = dict.fromkeys(moves, 0.0)
    everywhere = set(moves)
    seen = 0
    for position in arrangements(view, state):
        values = solve_round(position)
        top = max(values.values())
        for move, value in values.items():
            totals[move] += value
            if value < top:
                everywhere.discard(move)
        seen += 1
        if answer is not None and answer not in everywhere:
            return None
    if seen != count:
        raise AssertionError(f"counted {count} arrangements but made {seen}")
    return ViewSolution(
        {move: totals[move] / seen for move in moves},
        tuple(m for m in moves if m in everywhere),
        seen,
    )
