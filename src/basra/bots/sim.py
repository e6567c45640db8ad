"""A lean round simulator and hidden-card sampler for the search bots.

Search needs thousands of playouts per decision. :class:`Sim` plays the rest
of one round on plain ints and lists, with no undo log, no play records and no
checks: it calls the engine's own move generator
(:func:`basra.state.generate_moves`), basra rule (:func:`basra.captures.clear_basra`)
and scorer (:func:`basra.scoring.score_round`), and copies only the
bookkeeping of :meth:`basra.state.GameState.push` (``tests/test_sim.py`` plays
it against the engine in every variant and table).

:class:`Sampler` is :func:`basra.view.determinize` for search: it deals the
cards a seat cannot see at random, as ``determinize`` does, straight into a
:class:`Sim`, and it reads hands: an opponent who passed up a basra earlier in
this deal probably did not hold a card that made it, and one who trailed
probably had nothing worth taking: deals are weighted by how likely the hands
they give made the plays seen in this deal (``read``; 0 turns it off).

>>> import random
>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState("egyptian")
>>> state.deal(rng=random.Random(3))
>>> sim = Sampler(view_of(state, state.turn)).sample(random.Random(4))
>>> sim.hands[state.turn] == state.hands[state.turn], sim.floor == state.floor
(True, True)
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from basra.captures import clear_basra
from basra.cards import cards_of
from basra.moves import Move
from basra.rules import Rules
from basra.scoring import RoundScore, score_round
from basra.state import PHASE_PLAY, GameState, generate_moves
from basra.view import View

__all__ = [
    "Decision",
    "Sampler",
    "Sim",
    "deal_decisions",
    "deal_starts",
    "likelihood",
    "policy_value",
]


class Sim:
    """The rest of one round, for playouts: ``play`` until ``result`` is set.

    Fields mirror :class:`~basra.state.GameState` (hands and piles are masks,
    ``cards`` holds each hand in canonical order). ``deals`` counts the later
    deals made since the simulation started, so a search can tell where the
    current deal ends.
    """

    __slots__ = (
        "basra_points",
        "basras",
        "cards",
        "carry",
        "deals",
        "due",
        "first",
        "floor",
        "hands",
        "in_hands",
        "last",
        "lone",
        "piles",
        "players",
        "pos",
        "result",
        "rng",
        "rules",
        "scores",
        "side_of",
        "stock",
        "turn",
        "unshuffled",
    )

    rules: Rules
    players: int
    side_of: tuple[int, ...]
    hands: list[int]
    cards: list[list[int]]
    floor: int
    stock: list[int]
    pos: int
    in_hands: int
    piles: list[int]
    basras: list[int]
    basra_points: list[int]
    last: int | None
    lone: bool
    turn: int
    first: int
    scores: list[int]
    carry: int
    deals: int
    due: bool
    """All hands are empty and the next deal is still to be made."""
    result: RoundScore | None
    unshuffled: int
    """The first cards of ``stock`` are still in canonical order: they are shuffled
    with ``rng`` at the first deal (most playouts end before it, so it is saved)."""
    rng: random.Random | None

    def moves(self) -> list[Move]:
        """The legal moves of the seat to move (dealing first if a deal is due)."""
        if self.due:
            self._deal()
        return generate_moves(self.rules, self.cards[self.turn], self.floor)

    @property
    def is_last_play(self) -> bool:
        """True when the next play is the round's last card."""
        return self.in_hands == 1 and self.pos == len(self.stock)

    def play(self, card: int, take: int) -> int:
        """Make a legal move (unchecked) and return the basra points it scored.

        When all hands are empty the next deal is counted in :attr:`deals` and
        made at the next :meth:`moves` or :meth:`play` (a playout that stops at
        the end of the deal never pays for it); after the round's last play,
        gives the leftovers to the last capturer and sets :attr:`result`.
        """
        if self.due:
            self._deal()
        seat = self.turn
        floor = self.floor
        self.hands[seat] ^= 1 << card
        self.cards[seat].remove(card)
        basra = 0
        if take:
            side = self.side_of[seat]
            if take == floor:
                basra = clear_basra(self.rules, card, floor, self.lone)
            self.floor = floor ^ take
            self.piles[side] |= take | 1 << card
            self.last = side
            self.lone = False
        else:
            self.floor = floor | 1 << card
            self.lone = floor != 0 and not floor & (floor - 1)
        self.in_hands -= 1
        if basra:
            if (
                not self.in_hands
                and self.pos == len(self.stock)
                and not self.rules.basra_on_last_play
            ):
                basra = 0
            else:
                self.basras[side] += 1
                self.basra_points[side] += basra
        self.turn = (seat + 1) % self.players
        if not self.in_hands:
            if self.pos < len(self.stock):
                self.due = True
                self.deals += 1
            else:
                self._finish()
        return basra

    def _deal(self) -> None:
        n = self.players
        stock = self.stock
        if self.unshuffled:
            assert self.rng is not None
            random_ = self.rng.random
            head = stock[: self.unshuffled]
            stock[: self.unshuffled] = sorted(head, key=lambda _: random_())
            self.unshuffled = 0
        pos = self.pos
        each = min(self.rules.hand_size, (len(stock) - pos) // n)
        for i in range(n):
            seat = (self.first + i) % n
            batch = sorted(stock[pos : pos + each])
            mask = 0
            for card in batch:
                mask |= 1 << card
            self.hands[seat] = mask
            self.cards[seat] = batch
            pos += each
        self.pos = pos
        self.in_hands = n * each
        self.due = False

    def _finish(self) -> None:
        last = self.last
        if last is not None:
            self.piles[last] |= self.floor
            self.floor = 0
        self.result = score_round(
            self.rules, self.piles, self.basras, self.basra_points, last, self.scores, self.carry
        )

    @classmethod
    def from_state(cls, state: GameState) -> Sim:
        """The current round of a full state (stock order included), for the cheater."""
        if state.phase != PHASE_PLAY:
            raise ValueError("a simulation starts in a round being played")
        sim = cls.__new__(cls)
        sim.rules = state.rules
        sim.players = state.players
        sim.side_of = state.side_of
        sim.hands = list(state.hands)
        sim.cards = [cards_of(h) for h in state.hands]
        sim.floor = state.floor
        sim.stock = list(state.stock[state.stock_pos :])
        sim.pos = 0
        sim.in_hands = state.in_hands
        sim.piles = list(state.piles)
        sim.basras = list(state.basras)
        sim.basra_points = list(state.basra_points)
        sim.last = state.last_capture_side
        sim.lone = state.lone_trail
        sim.turn = state.turn
        sim.first = state.first_player
        sim.scores = list(state.scores)
        sim.carry = state.carry
        sim.deals = 0
        sim.due = False
        sim.result = None
        sim.unshuffled = 0
        sim.rng = None
        return sim


def deal_starts(rules: Rules, players: int) -> list[int]:
    """How many plays of a round come before each deal (``[0, 8, 16, ...]`` for 2 players)."""
    remaining = rules.pack - players * rules.hand_size - 4 - (rules.pack - 4) % players
    starts = [0]
    plays = players * rules.hand_size
    while remaining > 0:
        starts.append(plays)
        each = min(rules.hand_size, remaining // players)
        plays += players * each
        remaining -= players * each
    return starts


def policy_value(rules: Rules, card: int, take: int, floor: int, lone: bool) -> float:
    """How much the fast playout policy likes a move, in rough points.

    Captures score 10 plus their cards (weighted by the majority bonus), point
    cards and basra; a jack (or sweeping 7♦) spent on a small take loses 4.
    Trails lose their point cards, 8 for a jack and 5 for a lone card left on
    an empty floor, and a low numeral is slightly preferred. The playouts of
    :func:`basra.bots.ismcts.rollout` and the hand reading of :class:`Sampler`
    both use it as their model of how a player chooses.
    """
    points = rules.card_points
    if take:
        value = 10.0 + (0.5 + rules.majority_bonus / 20.0) * (take.bit_count() + 1) + points[card]
        rest = take
        while rest:
            low = rest & -rest
            value += points[low.bit_length() - 1]
            rest ^= low
        if take == floor:
            value += clear_basra(rules, card, floor, lone)
        elif rules.sweepers >> card & 1:
            value -= 4.0
        return value
    value = -1.5 * points[card]
    if rules.sweepers >> card & 1:
        value -= 8.0
    elif not floor:
        value -= 5.0
    elif card < 40:
        value += 0.1 * (9 - (card >> 2))
    return value


class Decision(NamedTuple):
    """A play of another seat earlier in the current deal, as evidence about its hand."""

    seat: int
    floor: int
    lone: bool
    move: Move
    later: int
    """The cards that seat played after this one, in this deal (it held them then)."""


def deal_decisions(view: View) -> list[Decision]:
    """The plays of other seats in the current deal, with the floor each was made on."""
    rules = view.rules
    plays = view.plays
    starts = deal_starts(rules, view.players)
    if len(plays) > starts[-1] + view.players * rules.hand_size:
        return []  # a position set up by hand: no deal history to read
    start = max(s for s in starts if s <= len(plays))
    floors = [0] * len(plays)
    floor = view.floor
    for index in range(len(plays) - 1, -1, -1):
        card, take = plays[index].move
        floor = floor | take if take else floor ^ (1 << card)
        floors[index] = floor
    out: list[Decision] = []
    later = [0] * view.players
    for index in range(len(plays) - 1, start - 1, -1):
        play = plays[index]
        seat = play.seat
        if seat != view.seat:
            previous = plays[index - 1].move if index else None
            before = floors[index - 1] if index else 0
            lone = previous is not None and not previous.take and before != 0
            lone = lone and not before & (before - 1)
            out.append(Decision(seat, floors[index], lone, play.move, later[seat]))
        later[seat] |= 1 << play.move.card
    out.reverse()
    return out


def likelihood(rules: Rules, hand: int, decision: Decision, sharpness: float) -> float:
    """The chance a player holding ``hand`` then made ``decision``'s move.

    A softmax of :func:`policy_value` over the legal moves of that hand with
    ``sharpness`` per point, mixed with a tenth of a uniform choice so that no
    hand is ruled out by one surprising play.
    """
    moves = generate_moves(rules, cards_of(hand), decision.floor)
    values = [
        policy_value(rules, card, take, decision.floor, decision.lone) for card, take in moves
    ]
    top = max(values)
    weights = [math.exp(sharpness * (v - top)) for v in values]
    chosen = weights[moves.index(decision.move)] if decision.move in moves else 0.0
    return 0.98 * chosen / sum(weights) + 0.02 / len(moves)


class Sampler:
    """Deals the cards hidden from a view's seat at random, straight into a :class:`Sim`.

    With ``read`` = 0 this is the distribution of :func:`basra.view.determinize`.
    With ``read`` > 0 it reads hands: a pool of ``pool`` random deals of the
    other hands is drawn once, each weighted by the chance that those hands
    made the plays seen so far in this deal (:func:`likelihood`, with
    sharpness ``read``), and each sample picks a deal from the pool by weight
    and shuffles the rest of the unseen cards into the stock. Only the
    current deal is evidence: earlier hands have all been played face up.
    """

    def __init__(self, view: View, read: float = 0.0, pool: int = 200) -> None:
        if view.phase != PHASE_PLAY:
            raise ValueError("a view of a round being played is needed")
        self.view = view
        self.unseen_mask = view.unseen()
        self.unseen = cards_of(self.unseen_mask)
        self.needs = [
            0 if seat == view.seat else view.hand_sizes[seat] - view.known[seat].bit_count()
            for seat in range(view.players)
        ]
        self.bottom = list(view.stock_bottom)
        if sum(self.needs) + view.stock_size - len(self.bottom) != len(self.unseen):
            raise ValueError("the view is inconsistent: unseen cards do not fill hands and stock")
        self.first = (view.dealer + 1) % view.players
        self.read = read
        self.pool_size = pool
        self.decisions = deal_decisions(view) if read > 0 else []
        self.dealt = sum(self.needs)
        self.pool: list[list[int]] | None = None
        self.cumulative: list[float] = []

    def _deal_hands(self, rng: random.Random) -> list[int]:
        """The other hands: known cards plus unseen ones drawn at random."""
        chosen = rng.sample(self.unseen, self.dealt)
        hands = list(self.view.known)
        pos = 0
        for seat, need in enumerate(self.needs):
            if need:
                mask = hands[seat]
                for card in chosen[pos : pos + need]:
                    mask |= 1 << card
                hands[seat] = mask
                pos += need
        return hands

    def _build_pool(self, rng: random.Random) -> None:
        rules = self.view.rules
        pool = []
        cumulative = []
        total = 0.0
        for _ in range(self.pool_size):
            hands = self._deal_hands(rng)
            weight = 1.0
            for decision in self.decisions:
                held = hands[decision.seat] | decision.later | 1 << decision.move.card
                weight *= likelihood(rules, held, decision, self.read)
            total += weight
            pool.append(hands)
            cumulative.append(total)
        self.pool = pool
        self.cumulative = cumulative

    def weights(self) -> list[float]:
        """The pool's weights (empty when no hand is read), for tests and tuning."""
        cumulative = self.cumulative
        return [b - a for a, b in zip([0.0, *cumulative[:-1]], cumulative, strict=True)]

    def sample(self, rng: random.Random) -> Sim:
        """A new simulation of the rest of the round, hidden cards dealt at random."""
        view = self.view
        if self.decisions:
            if self.pool is None:
                self._build_pool(rng)
            assert self.pool is not None
            hands = list(rng.choices(self.pool, cum_weights=self.cumulative)[0])
        else:
            hands = self._deal_hands(rng)
        dealt = 0
        for seat, hand in enumerate(hands):
            if seat != view.seat:
                dealt |= hand
        stock = [card for card in self.unseen if not dealt >> card & 1]
        sim = Sim.__new__(Sim)
        sim.rules = view.rules
        sim.players = view.players
        sim.side_of = view.side_of
        hands[view.seat] = view.hand
        sim.hands = hands
        sim.cards = [cards_of(h) for h in hands]
        sim.floor = view.floor
        sim.unshuffled = len(stock)
        sim.rng = rng
        sim.stock = stock + self.bottom
        sim.pos = 0
        sim.in_hands = sum(view.hand_sizes)
        sim.piles = list(view.captured)
        sim.basras = list(view.basras)
        sim.basra_points = list(view.basra_points)
        sim.last = view.last_capture_side
        sim.lone = view.lone_trail
        sim.turn = view.turn
        sim.first = self.first
        sim.scores = list(view.scores)
        sim.carry = view.carry
        sim.deals = 0
        sim.due = False
        sim.result = None
        return sim
