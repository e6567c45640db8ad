"""A lean round simulator and hidden-card sampler for the search bots and the belief.

Search needs thousands of playouts per decision. :class:`Sim` plays the rest
of one round with no undo log, no play records and no checks: it is a
:class:`basra.transition.Round`, so a play is the engine's one transition
(:meth:`~basra.transition.Round.apply`), dealt and scored as the engine does.

:class:`Sampler` is :func:`basra.view.determinize` for search: it deals the
cards a seat cannot see through the same :class:`basra.view.Unseen`,
straight into a :class:`Sim`, and it reads hands: an opponent who passed up a basra earlier in
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
from collections.abc import Sequence
from typing import NamedTuple

from basra.cards import cards_of
from basra.kernel import generate_moves
from basra.moves import Move
from basra.rules import Rules
from basra.scoring import RoundScore
from basra.state import PHASE_PLAY, GameState
from basra.transition import Round, deal_schedule, pack_lone_last, play_basra
from basra.view import Unseen, View, shuffle_cards

__all__ = [
    "Decision",
    "Sampler",
    "Sim",
    "deal_decisions",
    "deal_starts",
    "likelihood",
    "policy_value",
]


class Sim(Round):
    """The rest of one round, for playouts: ``play`` until ``result`` is set.

    A :class:`~basra.transition.Round` with no history: :meth:`play` is the
    one transition, with the next deal made lazily (a playout that stops at
    the end of a deal never pays for it) and the round scored after its last
    play. ``deals`` counts the later deals since the simulation started, so a
    search can tell where the current deal ends.
    """

    __slots__ = ("deals", "due", "result", "rng", "unshuffled")

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
        return generate_moves(self.rules, self.hand_cards[self.turn], self.floor)

    def play(self, card: int, take: int) -> int:
        """Make a legal move (unchecked) and return the basra points it scored.

        When all hands are empty the next deal is counted in :attr:`deals` and
        made at the next :meth:`moves` or :meth:`play`; after the round's last
        play, gives the leftovers to the last capturer and sets :attr:`result`.
        """
        if self.due:
            self._deal()
        basra = self.apply(card, take)
        if not self.in_hands:
            if self.stock_pos < len(self.stock):
                self.due = True
                self.deals += 1
            else:
                self.result = self.finish()
        return basra

    def _deal(self) -> None:
        if self.unshuffled:
            assert self.rng is not None
            head = self.stock[: self.unshuffled]
            shuffle_cards(head, self.rng)
            self.stock[: self.unshuffled] = head
            self.unshuffled = 0
        self.deal_next()
        self.due = False

    @classmethod
    def start(
        cls,
        rules: Rules,
        players: int,
        side_of: tuple[int, ...],
        *,
        hands: list[int],
        floor: int,
        stock: list[int],
        first_player: int,
        turn: int,
        piles: Sequence[int],
        basras: Sequence[int],
        basra_points: Sequence[int],
        lone_last: int,
        scores: Sequence[int],
        carry: int,
        rng: random.Random | None = None,
        unshuffled: int = 0,
    ) -> Sim:
        """A simulation from a round's fields (``stock``: the cards still to deal, top first;
        its first ``unshuffled`` cards are shuffled with ``rng`` at the first deal)."""
        sim = cls.__new__(cls)
        sim.rules = rules
        sim.players = players
        sim.side_of = side_of
        sim.hands = hands
        sim.hand_cards = [cards_of(h) for h in hands]
        sim.floor = floor
        sim.stock = stock
        sim.stock_pos = 0
        sim.in_hands = sum(h.bit_count() for h in hands)
        sim.piles = list(piles)
        sim.basras = list(basras)
        sim.basra_points = list(basra_points)
        sim.lone_last = lone_last
        sim.turn = turn
        sim.first_player = first_player
        sim.scores = list(scores)
        sim.carry = carry
        sim.deals = 0
        sim.due = False
        sim.result = None
        sim.unshuffled = unshuffled
        sim.rng = rng
        return sim

    @classmethod
    def from_state(cls, state: GameState) -> Sim:
        """The current round of a full state (stock order included), for the cheater."""
        if state.phase != PHASE_PLAY:
            raise ValueError("a simulation starts in a round being played")
        return cls.start(
            state.rules,
            state.players,
            state.side_of,
            hands=list(state.hands),
            floor=state.floor,
            stock=list(state.stock[state.stock_pos :]),
            first_player=state.first_player,
            turn=state.turn,
            piles=state.piles,
            basras=state.basras,
            basra_points=state.basra_points,
            lone_last=state.lone_last,
            scores=state.scores,
            carry=state.carry,
        )

    def clone(self, stock: list[int], unshuffled: int, rng: random.Random) -> Sim:
        """A copy with another stock (the cheater samples only the stock's order)."""
        return Sim.start(
            self.rules,
            self.players,
            self.side_of,
            hands=list(self.hands),
            floor=self.floor,
            stock=stock,
            first_player=self.first_player,
            turn=self.turn,
            piles=self.piles,
            basras=self.basras,
            basra_points=self.basra_points,
            lone_last=self.lone_last,
            scores=self.scores,
            carry=self.carry,
            rng=rng,
            unshuffled=unshuffled,
        )


def deal_starts(rules: Rules, players: int) -> list[int]:
    """How many plays of a round come before each deal (``[0, 8, 16, ...]`` for 2 players)."""
    return list(deal_schedule(rules, players).starts)


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
            value += play_basra(rules, card, take, floor, lone_trail=lone, last_play=False)
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

    With ``read`` = 0 this is the distribution of :func:`basra.view.determinize`
    (both deal through :class:`basra.view.Unseen`). With ``read`` > 0 it reads
    hands: a pool of ``pool`` random deals of the other hands is drawn once,
    each weighted by the chance that those hands made the plays seen so far in
    this deal (:func:`likelihood`, with sharpness ``read``), and each sample
    picks a deal from the pool by weight and shuffles the rest of the unseen
    cards into the stock. Only the current deal is evidence: earlier hands
    have all been played face up.
    """

    def __init__(self, view: View, read: float = 0.0, pool: int = 200) -> None:
        if view.phase != PHASE_PLAY:
            raise ValueError("a view of a round being played is needed")
        self.view = view
        self.unseen = Unseen(view)
        self.first = (view.dealer + 1) % view.players
        self.read = read
        self.pool_size = pool
        self.decisions = deal_decisions(view) if read > 0 else []
        self.pool: list[list[int]] | None = None
        self.cumulative: list[float] = []
        self.belief: list[list[float]] | None = None
        self.sweeps = 2
        self.burn = 20
        self.places: list[int] = []

    def set_belief(
        self, weights: Sequence[Sequence[float]], sweeps: int = 2, burn: int = 50
    ) -> None:
        """Draw the hidden cards from the learned belief from now on.

        ``weights[c]`` gives card ``c``'s log weight for each place (seats 0-3, then 4
        the stock). Deals are drawn from the distribution proportional to the
        product of the weights of where each unseen card lies (hand sizes fixed),
        by a Metropolis chain: a sweep proposes, as many times as the hands hold
        unseen cards, to swap a card in a hand (drawn at random) with a card
        elsewhere (drawn at random), a symmetric proposal; ``sweeps`` sweeps between
        two draws, ``burn`` from a random deal (made at the first draw). The
        compiled sampler (``Search.set_belief``) is the same chain.
        """
        self.belief = [list(weights[card]) for card in self.unseen.cards]
        self.sweeps = sweeps
        self.burn = burn
        self.places = []

    def _walk(self, rng: random.Random, sweeps: int) -> None:
        places = self.places
        weights = self.belief
        assert weights is not None
        n = len(places)
        if len(set(places)) < 2:
            return  # every unseen card lies in one place
        held = [i for i in range(n) if places[i] != 4]
        slot_of = {card: slot for slot, card in enumerate(held)}
        random_ = rng.random
        for _ in range(sweeps * len(held)):
            i = held[int(random_() * len(held))]
            a = places[i]
            j = int(random_() * n)
            while places[j] == a:
                j = int(random_() * n)
            b = places[j]
            delta = weights[i][b] + weights[j][a] - weights[i][a] - weights[j][b]
            if delta >= 0.0 or random_() < math.exp(delta):
                places[i] = b
                places[j] = a
                si = slot_of.pop(i)
                sj = slot_of.pop(j, None)
                held[si] = j
                slot_of[j] = si
                if sj is not None:
                    held[sj] = i
                    slot_of[i] = sj

    def _belief_hands(self, rng: random.Random) -> list[int]:
        unseen = self.unseen
        n = len(unseen.cards)
        if not self.places:
            order = list(range(n))
            rng.shuffle(order)
            places = [4] * n
            pos = 0
            for seat, need in enumerate(unseen.needs):
                for _ in range(need):
                    places[order[pos]] = seat
                    pos += 1
            self.places = places
            self._walk(rng, self.burn)
        self._walk(rng, self.sweeps)
        view = self.view
        hands = list(view.known)
        hands[view.seat] = view.hand
        for card, place in zip(unseen.cards, self.places, strict=True):
            if place < 4:
                hands[place] |= 1 << card
        return hands

    def _build_pool(self, rng: random.Random) -> None:
        rules = self.view.rules
        pool = []
        cumulative = []
        total = 0.0
        for _ in range(self.pool_size):
            hands = self.unseen.hands(rng)
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
        if self.belief is not None:
            hands = self._belief_hands(rng)
        elif self.decisions:
            if self.pool is None:
                self._build_pool(rng)
            assert self.pool is not None
            hands = list(rng.choices(self.pool, cum_weights=self.cumulative)[0])
        else:
            hands = self.unseen.hands(rng)
        stock = self.unseen.stock(hands, None)
        return Sim.start(
            view.rules,
            view.players,
            view.side_of,
            hands=hands,
            floor=view.floor,
            stock=stock,
            first_player=self.first,
            turn=view.turn,
            piles=view.captured,
            basras=view.basras,
            basra_points=view.basra_points,
            lone_last=pack_lone_last(view.lone_trail, view.last_capture_side),
            scores=view.scores,
            carry=view.carry,
            rng=rng,
            unshuffled=len(stock) - len(self.unseen.bottom),
        )
