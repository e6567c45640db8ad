"""The one observation encoding of the research API, built from a seat's view only.

:class:`ObservationEncoder` turns a :class:`basra.view.View` (what one seat may
know, nothing more) into a flat ``float32`` vector with every value in
``[0, 1]``. Seats and sides are *relative* to the observer: slot 0 is the
observer (or its side), slot 1 the next seat (side) in turn order, and so on;
slots for seats or sides the table does not have are zero. So one encoding
fits every table size and the same agent can play any seat. The layout is the
same for every variant and table, only the values differ, and
:meth:`ObservationEncoder.blocks` lists it (docs/ENV.md prints the table).

With ``history=True`` the encoder appends the round so far (the information
state, for OpenSpiel's information-state tensor): the first floor, the
re-buried cards, and for every card who played it, when, and which play took
it. The observation is then a prefix of the information state.

>>> import random
>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState("egyptian")
>>> state.deal(rng=random.Random(1))
>>> encoder = ObservationEncoder(state.rules, players=2, teams=False)
>>> vector = encoder.encode(view_of(state, 0))
>>> vector.shape, vector.dtype, float(vector.min()), float(vector.max())
((949,), dtype('float32'), 0.0, 1.0)
>>> int(vector[encoder.slice("hand")].sum()), int(vector[encoder.slice("floor")].sum())
(4, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from basra.cards import cards_of
from basra.kernel import generate_moves
from basra.moves import Move
from basra.rules import Rules
from basra.state import PHASE_DEAL, PHASE_PLAY
from basra.transition import immediate_points, seating
from basra.view import View

__all__ = ["Block", "ObservationEncoder"]

Vector = npt.NDArray[np.float32]

_CARDS = 52
_SEATS = 4
_BIT_BLOCKS: tuple[tuple[str, int, str], ...] = (
    ("hand", 1, "the observer's hand"),
    ("floor", 1, "the floor"),
    ("captured", _SEATS, "cards captured this round, per relative side (own side first)"),
    ("known", _SEATS - 1, "cards known to be in the hands of relative seats 1-3 (re-buried cards)"),
    ("stock_bottom", 1, "re-buried cards still at the bottom of the stock"),
    ("unseen", 1, "cards the observer cannot place (other hands or the stock)"),
    ("last_card", 1, "the card of the round's last play"),
    ("last_take", 1, "the floor cards the round's last play took"),
)
_FLAGS: tuple[tuple[str, int, str], ...] = (
    ("phase", 3, "one-hot: deal (between rounds), play, over"),
    ("turn", _SEATS, "one-hot relative seat to play (during play)"),
    ("my_turn", 1, "1 when the observer is to play"),
    ("dealer", _SEATS, "one-hot relative seat of the dealer"),
    ("last_player", _SEATS, "one-hot relative seat of the round's last play"),
    ("lone_trail", 1, "1 when the floor is a card trailed onto a lone card (C12)"),
    ("last_capture", _SEATS, "one-hot relative side that captured last this round"),
    ("last_play_of_round", 1, "1 when the next play is the round's last card"),
)
_NUMBERS: tuple[tuple[str, int, str], ...] = (
    ("hand_sizes", _SEATS, "cards in hand per relative seat / 6"),
    ("stock_size", 1, "cards left in the stock / 52"),
    ("basras", _SEATS, "basras this round per relative side / 10 (at most 1)"),
    ("basra_points", _SEATS, "basra points this round per relative side / target (at most 1)"),
    ("scores", _SEATS, "game score per relative side / target (at most 1)"),
    ("carry", 1, "majority bonus held in abeyance / target (at most 1)"),
)
_PREVIEW: tuple[tuple[str, int, str], ...] = (
    ("take_size", _CARDS, "per card in hand: floor cards its option 0 takes / 10 (at most 1)"),
    (
        "take_points",
        _CARDS,
        "per card in hand: points its option 0 scores at once / 20 (at most 1)",
    ),
)
_CONSTANTS: tuple[tuple[str, int, str], ...] = (
    ("players", 3, "one-hot table size: 2, 3, 4"),
    ("teams", 1, "1 for two teams of two"),
    ("pack_44", 1, "1 for the 44-card pack"),
    ("hand_size", 3, "one-hot hand size: 4, 5, 6"),
    ("sweeping_seven", 1, "1 when the 7♦ sweeps like a jack"),
    ("seven_diamonds", 5, "one-hot: plain, egyptian, yemeni, ethiopian, no_basra"),
    ("basra_mode", 3, "one-hot: clear, lone_match, lone_match_or_sum"),
    ("any_maximal", 1, "1 for capture_policy any_maximal"),
    ("basra_on_last_play", 1, "1 when a basra on the round's last card counts"),
    ("jack_on_lone_jack", 1, "points for a jack taking a lone jack / 50 (at most 1)"),
    ("majority_bonus", 1, "majority bonus / 30 (at most 1)"),
    ("majority_tie", 3, "one-hot: each, none, abeyance"),
    ("target", 1, "target score / 200 (at most 1)"),
    ("card_points", _CARDS, "points of each card at the end of a round / 5 (at most 1)"),
    ("basra_values", _CARDS, "basra points of a clear by each card / 20 (at most 1)"),
)
_HISTORY: tuple[tuple[str, int, str], ...] = (
    ("initial_floor", _CARDS, "cards first turned up to the floor this round"),
    ("buried", _CARDS, "cards re-buried at this round's deal"),
    ("played_by", _SEATS * _CARDS, "per relative seat, the cards it played this round"),
    ("played_at", _CARDS, "per card, (index of the play that played it + 1) / 64"),
    ("taken_at", _CARDS, "per card, (index of the play that took it + 1) / 64"),
)


class Block(NamedTuple):
    """A named part of the vector: ``vector[start:start + size]``."""

    name: str
    start: int
    size: int
    meaning: str


def _one_hot(size: int, index: int) -> list[float]:
    out = [0.0] * size
    if 0 <= index < size:
        out[index] = 1.0
    return out


class ObservationEncoder:
    """Encodes views of one table (rules, players, teams) as flat vectors.

    Build one per environment and call :meth:`encode` for every observation;
    the constant parts (table and rule settings) are computed once here.
    """

    def __init__(self, rules: Rules, players: int, teams: bool, *, history: bool = False) -> None:
        self.rules = rules
        self.players = players
        self.teams = teams
        self.history = history
        self.sides = 2 if teams else players
        blocks: list[Block] = []
        start = 0
        for group in (_BIT_BLOCKS, _FLAGS):
            for name, count, meaning in group:
                size = count * _CARDS if group is _BIT_BLOCKS else count
                blocks.append(Block(name, start, size, meaning))
                start += size
        self._bits = start
        for group in (_NUMBERS, _PREVIEW, _CONSTANTS):
            if group is _PREVIEW:
                self._numbers_end = start
            if group is _CONSTANTS:
                self._preview_end = start
            for name, size, meaning in group:
                blocks.append(Block(name, start, size, meaning))
                start += size
        self.observation_size = start
        """The length of the observation part (all of it without ``history``)."""
        if history:
            for name, size, meaning in _HISTORY:
                blocks.append(Block(name, start, size, meaning))
                start += size
        self.size = start
        """The length of the vectors :meth:`encode` returns."""
        self._blocks = {block.name: block for block in blocks}
        self._template = np.zeros(self.size, dtype=np.float32)
        self._template[self._preview_end : self.observation_size] = self._constants()
        self._n_bytes = (self._bits + 7) // 8
        at = {block.name: block.start for block in blocks}
        # Relative slot k of each seat and side, seen from each seat.
        self._seat_order = tuple(
            tuple((me + k) % players for k in range(players)) for me in range(players)
        )
        self._side_order = tuple(
            tuple((side + k) % self.sides for k in range(self.sides)) for side in range(self.sides)
        )
        self.side_of_seat = seating(players, teams)[1]
        self._shifts = (
            at["captured"],
            at["known"] - 52,  # relative seat k >= 1 goes to slot k - 1
            at["stock_bottom"],
            at["unseen"],
            at["last_card"],
            at["last_take"],
            at["last_player"],
        )
        phase_play = 1 << (at["phase"] + 1)
        self._flags = tuple(
            phase_play | 1 << (at["turn"] + k) | (1 << at["my_turn"] if k == 0 else 0)
            for k in range(players)
        )
        self._deal_flag = 1 << at["phase"]
        self._over_flag = 1 << (at["phase"] + 2)
        self._last_play_flag = 1 << at["last_play_of_round"]
        self._dealer_flags = tuple(1 << (at["dealer"] + k) for k in range(players))
        self._lone_trail_flag = 1 << at["lone_trail"]
        self._last_capture_flags = tuple(1 << (at["last_capture"] + k) for k in range(self.sides))
        self._table_numbers: dict[tuple[object, ...], Vector] = {}
        self._score_numbers: dict[tuple[object, ...], Vector] = {}

    def blocks(self) -> list[Block]:
        """The named parts of the vector in order (the layout docs/ENV.md shows)."""
        return list(self._blocks.values())

    def slice(self, name: str) -> slice:
        """Where the block ``name`` lies in the vector."""
        block = self._blocks[name]
        return slice(block.start, block.start + block.size)

    def template(self) -> Vector:
        """A fresh copy of what every encoding starts from: the constant part (the table and
        rule settings) in place, zeros elsewhere (the compiled vector environment starts
        from it too)."""
        return self._template.copy()

    def _constants(self) -> list[float]:
        r = self.rules
        values: list[float] = []
        values += _one_hot(3, self.players - 2)
        values.append(float(self.teams))
        values.append(float(r.pack == 44))
        values += _one_hot(3, r.hand_size - 4)
        values.append(float(r.sweeping_seven))
        modes = ("plain", "egyptian", "yemeni", "ethiopian", "no_basra")
        values += _one_hot(5, modes.index(r.seven_diamonds))
        values += _one_hot(3, ("clear", "lone_match", "lone_match_or_sum").index(r.basra_mode))
        values.append(float(r.capture_policy == "any_maximal"))
        values.append(float(r.basra_on_last_play))
        values.append(min(r.jack_on_lone_jack / 50, 1.0))
        values.append(min(r.majority_bonus / 30, 1.0))
        values += _one_hot(3, ("each", "none", "abeyance").index(r.majority_tie))
        values.append(min(r.target / 200, 1.0))
        values += [min(p / 5, 1.0) for p in r.card_points]
        values += [min(v / 20, 1.0) for v in r.basra_values]
        return values

    def encode(
        self, view: View, out: Vector | None = None, moves: Sequence[Move] | None = None
    ) -> Vector:
        """The vector of ``view`` (a new array, or written into ``out``).

        ``moves`` may pass the legal moves of the view's hand on its floor when
        the caller has them already (the seat to move), to save finding them again.
        """
        if out is None:
            out = self._template.copy()
        else:
            out[:] = self._template
        n = self.players
        me = view.seat
        seats = self._seat_order[me]
        sides = self._side_order[view.side_of[me]]
        (captured_at, known_at, bottom_at, unseen_at, card_at, take_at, player_at) = self._shifts
        # Every card mask and flag goes into one big int, unpacked by one numpy call.
        bits = view.hand | view.floor << 52
        captured = view.captured
        for k, side in enumerate(sides):
            bits |= captured[side] << (captured_at + 52 * k)
        known = view.known
        for k in range(1, n):
            bits |= known[seats[k]] << (known_at + 52 * k)
        if view.stock_bottom:
            bottom = 0
            for card in view.stock_bottom:
                bottom |= 1 << card
            bits |= bottom << bottom_at
        bits |= view.unseen() << unseen_at
        plays = view.plays
        if plays:
            seat, (card, take), _basra = plays[-1]
            bits |= 1 << (card_at + card) | take << take_at | 1 << (player_at + (seat - me) % n)
        flags = self._flags
        phase = view.phase
        if phase == PHASE_PLAY:
            turn = (view.turn - me) % n
            bits |= flags[turn]
            if view.is_last_play:
                bits |= self._last_play_flag
        else:
            bits |= self._deal_flag if phase == PHASE_DEAL else self._over_flag
        bits |= self._dealer_flags[(view.dealer - me) % n]
        if view.lone_trail:
            bits |= self._lone_trail_flag
        last_side = view.last_capture_side
        if last_side is not None:
            bits |= self._last_capture_flags[sides.index(last_side)]
        out[: self._bits] = np.unpackbits(
            np.frombuffer(bits.to_bytes(self._n_bytes, "little"), dtype=np.uint8),
            count=self._bits,
            bitorder="little",
        )
        # The numbers change a few times a round: they are looked up, not recomputed.
        table_key = (me, view.hand_sizes, view.stock_size)
        table = self._table_numbers
        numbers = table.get(table_key)
        if numbers is None:
            if len(table) > 4096:
                table.clear()
            numbers = table[table_key] = self._table_numbers_of(*table_key)
        score_key = (me, view.basras, view.basra_points, view.scores, view.carry)
        scores = self._score_numbers
        more = scores.get(score_key)
        if more is None:
            if len(scores) > 4096:
                scores.clear()
            more = scores[score_key] = self._score_numbers_of(*score_key)
        middle = self._bits + _SEATS + 1
        out[self._bits : middle] = numbers
        out[middle : self._numbers_end] = more
        self._preview(view, out, moves)
        if self.history:
            self._encode_history(view, out)
        return out

    def _preview(self, view: View, out: Vector, moves: Sequence[Move] | None) -> None:
        """What each card in hand would take now, and the points it would score at once."""
        rules = self.rules
        floor = view.floor
        sizes = self._numbers_end
        points_at = sizes + _CARDS
        last_play = view.is_last_play
        lone = view.lone_trail
        previous = -1
        if moves is None:
            moves = generate_moves(rules, cards_of(view.hand), floor)
        for card, take in moves:
            if card == previous or not take:  # option 0 only; a trail scores nothing
                previous = card
                continue
            previous = card
            points = immediate_points(
                rules, card, take, floor, lone_trail=lone, last_play=last_play
            )
            out[sizes + card] = min(take.bit_count() / 10, 1.0)
            out[points_at + card] = min(points / 20, 1.0)

    def _table_numbers_of(self, me: int, sizes: tuple[int, ...], stock: int) -> Vector:
        numbers = [sizes[seat] / 6 for seat in self._seat_order[me]]
        numbers += [0.0] * (_SEATS - self.players)
        numbers.append(stock / 52)
        return np.array(numbers, dtype=np.float32)

    def _score_numbers_of(
        self,
        me: int,
        basras: tuple[int, ...],
        basra_points: tuple[int, ...],
        scores: tuple[int, ...],
        carry: int,
    ) -> Vector:
        target = self.rules.target
        sides = self._side_order[self.side_of_seat[me]]
        pad = [0.0] * (_SEATS - self.sides)
        numbers = [min(basras[s] / 10, 1.0) for s in sides] + pad
        numbers += [min(basra_points[s] / target, 1.0) for s in sides] + pad
        numbers += [min(scores[s] / target, 1.0) for s in sides] + pad
        numbers.append(min(carry / target, 1.0))
        return np.array(numbers, dtype=np.float32)

    def _encode_history(self, view: View, out: Vector) -> None:
        n = self.players
        me = view.seat
        start = self.observation_size
        initial = 0
        for card in view.initial_floor:
            initial |= 1 << card
        buried = 0
        for card in view.buried:
            buried |= 1 << card
        played_by = [0] * _SEATS
        played_at = [0.0] * _CARDS
        taken_at = [0.0] * _CARDS
        for index, (seat, (card, take), _basra) in enumerate(view.plays):
            played_by[(seat - me) % n] |= 1 << card
            played_at[card] = (index + 1) / 64
            for taken in cards_of(take):
                taken_at[taken] = (index + 1) / 64
        bits = initial | buried << 52
        for k in range(_SEATS):
            bits |= played_by[k] << (104 + 52 * k)
        count = 6 * _CARDS
        out[start : start + count] = np.unpackbits(
            np.frombuffer(bits.to_bytes(count // 8, "little"), dtype=np.uint8),
            count=count,
            bitorder="little",
        )
        out[start + count : start + count + _CARDS] = played_at
        out[start + count + _CARDS : start + count + 2 * _CARDS] = taken_at
