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
:class:`Sim`, and it tracks cards: an opponent who passed up a basra earlier in
this deal probably did not hold a card that made it, so such deals are made
less likely (``infer``, a likelihood factor; 1 turns it off).

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

import random

from basra.captures import clear_basra
from basra.cards import cards_of
from basra.moves import Move
from basra.rules import Rules
from basra.scoring import RoundScore, score_round
from basra.state import PHASE_PLAY, GameState, generate_moves
from basra.view import View

__all__ = ["Sampler", "Sim", "deal_starts"]


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
        "rules",
        "scores",
        "side_of",
        "stock",
        "turn",
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
    result: RoundScore | None

    def moves(self) -> list[Move]:
        """The legal moves of the seat to move."""
        return generate_moves(self.rules, self.cards[self.turn], self.floor)

    @property
    def is_last_play(self) -> bool:
        """True when the next play is the round's last card."""
        return self.in_hands == 1 and self.pos == len(self.stock)

    def play(self, card: int, take: int) -> int:
        """Make a legal move (unchecked) and return the basra points it scored.

        Deals the next hands when all are empty; after the round's last play,
        gives the leftovers to the last capturer and sets :attr:`result`.
        """
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
                self._deal()
            else:
                self._finish()
        return basra

    def _deal(self) -> None:
        n = self.players
        stock = self.stock
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
        self.deals += 1

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
        sim.result = None
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


class Sampler:
    """Deals the cards hidden from a view's seat at random, straight into a :class:`Sim`.

    The same distribution as :func:`basra.view.determinize` when ``infer`` is 1.
    With ``infer`` < 1, each earlier decision of this deal where another seat
    could have made a basra but did not multiplies the weight of a deal that
    gives that seat a card that made it by ``infer``; samples are accepted with
    probability equal to their weight (up to ``tries`` draws).
    """

    def __init__(self, view: View, infer: float = 1.0, tries: int = 8) -> None:
        if view.phase != PHASE_PLAY:
            raise ValueError("a view of a round being played is needed")
        self.view = view
        self.unseen = cards_of(view.unseen())
        self.needs = [
            0 if seat == view.seat else view.hand_sizes[seat] - view.known[seat].bit_count()
            for seat in range(view.players)
        ]
        self.bottom = list(view.stock_bottom)
        if sum(self.needs) + view.stock_size - len(self.bottom) != len(self.unseen):
            raise ValueError("the view is inconsistent: unseen cards do not fill hands and stock")
        self.first = (view.dealer + 1) % view.players
        self.tries = tries
        self.infer = infer
        self.suspects = suspect_cards(view) if infer < 1.0 else []

    def sample(self, rng: random.Random) -> Sim:
        """A new simulation of the rest of the round, hidden cards dealt at random."""
        view = self.view
        unseen = self.unseen
        hands: list[int] = []
        for attempt in range(self.tries):
            order = sorted(unseen, key=lambda _: rng.random())
            hands = list(view.known)
            pos = 0
            for seat, need in enumerate(self.needs):
                if need:
                    mask = hands[seat]
                    for card in order[pos : pos + need]:
                        mask |= 1 << card
                    hands[seat] = mask
                    pos += need
            if not self.suspects or attempt == self.tries - 1:
                break
            weight = 1.0
            for seat, mask in self.suspects:
                if hands[seat] & mask:
                    weight *= self.infer
            if weight >= 1.0 or rng.random() < weight:
                break
        sim = Sim.__new__(Sim)
        sim.rules = view.rules
        sim.players = view.players
        sim.side_of = view.side_of
        hands[view.seat] = view.hand
        sim.hands = hands
        sim.cards = [cards_of(h) for h in hands]
        sim.floor = view.floor
        sim.stock = order[pos:] + self.bottom
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
        sim.result = None
        return sim


def suspect_cards(view: View) -> list[tuple[int, int]]:
    """Cards other seats probably do not hold: ``(seat, mask)`` pairs.

    For every play of the current deal by another seat that scored no basra
    while some card would have scored one on that floor, the mask holds the
    cards that would have, minus any that seat has played since (it held one
    of them and chose otherwise, so nothing is learned) and minus cards
    whose place is known. Only cards of the current deal matter: a seat's
    earlier hands have all been played face up.
    """
    rules = view.rules
    plays = view.plays
    starts = deal_starts(rules, view.players)
    if len(plays) > starts[-1] + view.players * rules.hand_size:
        return []  # a position set up by hand: no deal history to read
    start = max(s for s in starts if s <= len(plays))
    if start == len(plays):
        return []
    hidden = view.unseen()
    # The floor before each play of the round, rebuilt backwards from now
    # (deals never change the floor), and the lone_trail flag each play saw.
    floors = [0] * len(plays)
    floor = view.floor
    for index in range(len(plays) - 1, -1, -1):
        card, take = plays[index].move
        floor = floor | take if take else floor ^ (1 << card)
        floors[index] = floor
    out: list[tuple[int, int]] = []
    later = [0] * view.players
    for index in range(len(plays) - 1, start - 1, -1):
        play = plays[index]
        seat = play.seat
        if seat != view.seat and not play.basra:
            before = floors[index]
            previous = plays[index - 1].move if index else None
            lone = (
                previous is not None
                and not previous.take
                and floors[index - 1] != 0
                and not floors[index - 1] & (floors[index - 1] - 1)
            )
            mask = 0
            held = cards_of(hidden | later[seat])  # what that seat may have held then
            for card, take in generate_moves(rules, held, before):
                if take == before and clear_basra(rules, card, before, lone) > 0:
                    mask |= 1 << card
            if mask and not later[seat] & mask:
                out.append((seat, mask))
        later[seat] |= 1 << play.move.card
    return out
