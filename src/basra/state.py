"""The game state: deals, plays, push/pop, round scoring and the end of the game.

A :class:`GameState` holds a whole game: the rule settings, the table (players,
teams, first dealer) and every round so far. Dealing is an explicit event
(:meth:`GameState.deal` with a recorded or shuffled pack, RECORD.md's canonical
procedure); plays mutate the state with :meth:`GameState.push` and are undone
with :meth:`GameState.pop`, which makes search cheap.

>>> import random
>>> state = GameState("egyptian", players=2)
>>> state.deal(rng=random.Random(7))
>>> state.phase, state.turn, len(state.legal_moves()) > 0
('play', 1, True)
>>> move = state.legal_moves()[0]
>>> state.push(move)
>>> state.pop() == move
True
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from basra.captures import capture_options, clear_basra
from basra.cards import (
    CARD_NAMES,
    RANK_MASKS,
    SEVEN_DIAMONDS,
    Card,
    CardError,
    cards_of,
    format_cards,
    pack_mask,
    parse_card,
)
from basra.moves import Move, Play
from basra.rules import DEFAULT_VARIANT, Rules, RulesError, preset
from basra.scoring import RoundScore, score_round

__all__ = [
    "PHASE_DEAL",
    "PHASE_OVER",
    "PHASE_PLAY",
    "DealError",
    "GameError",
    "GameState",
    "IllegalMoveError",
    "Outcome",
    "RoundLog",
    "SetupError",
    "generate_moves",
    "shuffled_pack",
]

PHASE_DEAL = "deal"
"""Waiting for the next round's pack (at the start and between rounds)."""
PHASE_PLAY = "play"
"""A round is being played: ``turn`` is the seat to move."""
PHASE_OVER = "over"
"""The game has ended: see :meth:`GameState.outcome`."""


class GameError(Exception):
    """Base class of the engine's errors."""


class SetupError(GameError, ValueError):
    """A table that cannot be played: bad player count, teams, first dealer or variant."""


class DealError(GameError, ValueError):
    """A pack that is not the effective pack of the rules, or a deal at the wrong time."""


class IllegalMoveError(GameError, ValueError):
    """A move that the rules do not allow in this position."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning side, or ``None`` for a draw."""

    winner: int | None
    score: tuple[int, ...]

    @property
    def is_draw(self) -> bool:
        """True when the game ended tied (``end_tie: draw``)."""
        return self.winner is None


@dataclass(slots=True)
class RoundLog:
    """What happened in one round: the pack, the first floor, the plays and the score."""

    dealer: int
    pack: tuple[Card, ...] | None
    """The shuffled pack, top card first (``None`` in a determinized state)."""
    initial_floor: tuple[Card, ...]
    """The cards first turned up to the floor, in order, before any burying."""
    buried: tuple[Card, ...]
    """Cards re-buried from the floor to the bottom of the stock, in order."""
    plays: list[Play] = field(default_factory=list)
    result: RoundScore | None = None


_MOVES: dict[int, Move] = {}
_CAPTURE_CACHE_LIMIT = 1 << 17
_SEVEN_BIT = 1 << SEVEN_DIAMONDS
_PACK = (1 << 52) - 1
_SAME_RANK = tuple(RANK_MASKS[c >> 2] for c in range(52))
# The numerals worth less than each numeral: the cards it could take by summing.
_BELOW_CARD = tuple((1 << (c & ~3)) - 1 if c < 40 else 0 for c in range(52))
_new_tuple = tuple.__new__
_BIT = tuple(1 << card for card in range(52))


def _move(card: Card, take: int) -> Move:
    """Interned :class:`Move` values: legal move lists are built very often."""
    key = take << 6 | card
    move = _MOVES.get(key)
    if move is None:
        if len(_MOVES) > 1 << 20:
            _MOVES.clear()
        move = _MOVES[key] = Move(card, take)
    return move


def generate_moves(rules: Rules, cards: Iterable[Card], floor: int) -> list[Move]:
    """The legal moves of a hand (cards in canonical order) on a floor.

    The one move generator: :meth:`GameState.legal_moves` and
    :meth:`basra.view.View.legal_moves` both call it. It gives the same moves as
    :func:`basra.captures.capture_options`, faster: most cards have no more than
    one floor card within reach, and the sum search is cached on the cards in
    reach, which repeat far more often than whole floors.
    """
    if rules.lone_seven and floor == _SEVEN_BIT:
        return [_move(card, take) for card in cards for take in capture_options(rules, card, floor)]
    reach = rules.reach
    grab = rules.grab
    get_move = _MOVES.get
    out: list[Move] = []
    append = out.append
    for card in cards:
        near = floor & reach[card]
        if near & (near - 1):  # two or more floor cards within reach
            if rules.combiners >> card & 1:
                key = near << 6 | card
                moves = rules.capture_cache.get(key)
                if moves is None:
                    moves = _cache_captures(rules, card, near, key)
                out += moves
            else:  # a sweep, or a picture pairing two or more of its rank
                append(_new_tuple(Move, (card, near)))
            continue
        # No card or one card within reach: a numeral takes it only if it has its rank.
        take = near & grab[card]
        append(get_move(take << 6 | card) or _move(card, take))
    return out


def _cache_captures(rules: Rules, card: Card, near: int, key: int) -> tuple[Move, ...]:
    """Compute and cache the capture moves of ``card`` with the floor cards ``near`` in reach."""
    cache = rules.capture_cache
    if len(cache) >= _CAPTURE_CACHE_LIMIT:
        cache.clear()
    moves = cache[key] = tuple(_move(card, take) for take in capture_options(rules, card, near))
    return moves


class _RoundEnd:
    """What :meth:`GameState.pop` needs to undo the end of a round."""

    __slots__ = ("carry", "floor", "pile", "scores")

    def __init__(self, floor: int, pile: int, scores: list[int], carry: int) -> None:
        self.floor = floor
        self.pile = pile
        self.scores = scores
        self.carry = carry


def shuffled_pack(rules: Rules, rng: random.Random) -> list[Card]:
    """A uniformly shuffled effective pack (52 or 44 cards), top card first.

    Sorting by random keys is a uniform shuffle (ties have probability about
    2**-43) and ten times faster than ``random.shuffle`` in pure Python.
    """
    keys = [rng.random() for _ in range(rules.pack)]
    return sorted(range(rules.pack), key=keys.__getitem__)


class GameState:
    """A game of Basra in progress.

    ``variant`` is a preset name (RULES.md B4); ``rules`` either overrides some
    of its settings (a mapping, checked) or replaces them all (a :class:`Rules`).
    Seats are ``0 .. players-1`` in turn order; with ``teams`` (4 players only)
    seats 0 and 2 are side 0 and seats 1 and 3 are side 1, otherwise side i is
    seat i.

    Mutable fields are public for reading (``floor``, ``hands``, ``turn`` ...)
    and must only be changed through :meth:`deal`, :meth:`push`, :meth:`pop`.
    """

    __slots__ = (
        "_hand_cards",
        "_lone_last",
        "_next_seat",
        "_outcome",
        "_plays",
        "_undo",
        "basra_points",
        "basras",
        "carry",
        "dealer",
        "first_dealer",
        "first_player",
        "floor",
        "hands",
        "in_hands",
        "out_of_play",
        "phase",
        "piles",
        "players",
        "rounds",
        "rules",
        "scores",
        "side_of",
        "sides",
        "stock",
        "stock_pos",
        "teams",
        "turn",
        "variant",
    )

    variant: str
    rules: Rules
    players: int
    teams: bool
    first_dealer: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    phase: str
    rounds: list[RoundLog]
    dealer: int
    first_player: int
    turn: int
    hands: list[int]
    _hand_cards: list[list[Card]]
    floor: int
    stock: list[Card]
    stock_pos: int
    in_hands: int
    piles: list[int]
    basras: list[int]
    basra_points: list[int]
    _lone_last: int
    scores: list[int]
    carry: int
    out_of_play: int
    """Cards in no hand, pile, floor or stock (only in positions built by hand)."""
    _undo: list[object]
    _plays: list[Play]
    _next_seat: tuple[int, ...]
    _outcome: Outcome | None

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        players: int = 2,
        *,
        teams: bool = False,
        first_dealer: int = 0,
        rules: Rules | Mapping[str, Any] | None = None,
    ) -> None:
        try:
            base = preset(variant)
            full = rules if isinstance(rules, Rules) else base.with_overrides(rules)
        except RulesError as exc:
            raise SetupError(str(exc)) from None
        if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
            raise SetupError(f"players must be 2, 3 or 4, not {players!r}")
        if not isinstance(teams, bool):
            raise SetupError(f"teams must be true or false, not {teams!r}")
        if teams and players != 4:
            raise SetupError(f"teams need 4 players, not {players}")
        if (
            not isinstance(first_dealer, int)
            or isinstance(first_dealer, bool)
            or not 0 <= first_dealer < players
        ):
            raise SetupError(
                f"first_dealer must be a seat from 0 to {players - 1}, not {first_dealer!r}"
            )
        self.variant = variant
        self.rules = full
        self.players = players
        self.teams = teams
        self.first_dealer = first_dealer
        if teams:
            self.sides = ((0, 2), (1, 3))
            self.side_of = (0, 1, 0, 1)
        else:
            self.sides = tuple((seat,) for seat in range(players))
            self.side_of = tuple(range(players))
        n_sides = len(self.sides)
        self.phase = PHASE_DEAL
        self.rounds = []
        self.dealer = first_dealer
        self.first_player = (first_dealer + 1) % players
        self.turn = self.first_player
        self.hands = [0] * players
        self._hand_cards = [[] for _ in range(players)]
        self.floor = 0
        self.stock = []
        self.stock_pos = 0
        self.in_hands = 0
        self.piles = [0] * n_sides
        self.basras = [0] * n_sides
        self.basra_points = [0] * n_sides
        self._lone_last = 0
        self.scores = [0] * n_sides
        self.carry = 0
        self.out_of_play = 0
        self._undo = []
        self._plays = []
        self._next_seat = tuple((seat + 1) % players for seat in range(players))
        self._outcome = None

    # ------------------------------------------------------------------ dealing

    def deal(
        self, pack: Sequence[Card | str] | None = None, *, rng: random.Random | None = None
    ) -> None:
        """Start the next round from ``pack`` (top card first) or a pack shuffled by ``rng``.

        Follows RECORD.md's canonical procedure: a batch of ``hand_size`` cards
        to each player from the first player on, ``4 + r`` cards to the floor,
        buried ranks replaced from the top of the stock while any remain.
        Cards may be ints or card text. Raises :class:`DealError`.
        """
        if self.phase != PHASE_DEAL:
            what = "the game is over" if self.phase == PHASE_OVER else "a round is being played"
            raise DealError(f"cannot deal now: {what}")
        rules = self.rules
        if pack is None:
            cards = shuffled_pack(rules, rng if rng is not None else random.Random())
        else:
            cards = _check_pack(rules, pack)
        n = self.players
        self.dealer = (self.first_dealer + len(self.rounds)) % n
        self.first_player = first = (self.dealer + 1) % n
        size = len(cards)
        extra = (size - 4) % n
        hand = rules.hand_size
        hands = [0] * n
        hand_cards: list[list[Card]] = [[] for _ in range(n)]
        bit = _BIT.__getitem__
        for i in range(n):
            batch = sorted(cards[i * hand : (i + 1) * hand])
            seat = (first + i) % n
            hands[seat] = sum(map(bit, batch))
            hand_cards[seat] = batch
        pos = n * hand
        floor = cards[pos : pos + 4 + extra]
        initial_floor = tuple(floor)
        stock = cards[pos + 4 + extra :]
        buried: list[Card] = []
        bury = rules.bury_mask
        floor_mask = sum(map(bit, floor))
        if floor_mask & bury:
            # Each re-buried card goes to the bottom of the stock and the top card
            # of the stock takes its place, until no buried rank is left (A3).
            index = 0
            while index < len(floor):
                card = floor[index]
                if bury >> card & 1:
                    buried.append(card)
                    stock.append(card)
                    floor[index] = stock.pop(0)
                    index = 0
                else:
                    index += 1
            floor_mask = sum(map(bit, floor))
        self.hands = hands
        self._hand_cards = hand_cards
        self.floor = floor_mask
        self.stock = stock
        self.stock_pos = 0
        self.in_hands = n * hand
        n_sides = len(self.sides)
        self.piles = [0] * n_sides
        self.basras = [0] * n_sides
        self.basra_points = [0] * n_sides
        self._lone_last = 0
        self.turn = first
        self.phase = PHASE_PLAY
        self._undo = []
        log = RoundLog(self.dealer, tuple(cards), initial_floor, tuple(buried))
        self.rounds.append(log)
        self._plays = log.plays

    def _deal_next(self) -> int:
        """A later deal from the stock; returns the cards each player got."""
        n = self.players
        stock = self.stock
        pos = self.stock_pos
        each = min(self.rules.hand_size, (len(stock) - pos) // n)
        hands = self.hands
        hand_cards = self._hand_cards
        first = self.first_player
        bit = _BIT.__getitem__
        for i in range(n):
            batch = sorted(stock[pos : pos + each])
            seat = (first + i) % n
            hands[seat] = sum(map(bit, batch))
            hand_cards[seat] = batch
            pos += each
        self.stock_pos = pos
        self.in_hands = n * each
        return each

    # ------------------------------------------------------------------- moves

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, by card in canonical order.

        A card that can capture appears only with its allowed capture sets (A4,
        A6); a card that cannot appears once as a trail. Empty unless a round
        is being played.
        """
        if self.phase != PHASE_PLAY:
            return []
        return generate_moves(self.rules, self._hand_cards[self.turn], self.floor)

    def moves_for(self, card: Card) -> list[Move]:
        """The legal moves that play ``card`` (empty when it is not in the mover's hand)."""
        if self.phase != PHASE_PLAY or not self.hands[self.turn] >> card & 1:
            return []
        return generate_moves(self.rules, (card,), self.floor)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the player to move."""
        try:
            card, take = move
        except (TypeError, ValueError):
            return False
        if not isinstance(card, int) or not isinstance(take, int) or not 0 <= card < 52:
            return False
        return (card, take) in self.moves_for(card)

    def play(self, move: Move) -> Play:
        """Check and make a move; returns the :class:`Play` (with its basra points)."""
        if not self.is_legal(move):
            raise IllegalMoveError(self._illegal_reason(move))
        self.push(move)
        return self.rounds[-1].plays[-1]

    def _illegal_reason(self, move: Move) -> str:
        if self.phase != PHASE_PLAY:
            return "no round is being played" if self.phase == PHASE_DEAL else "the game is over"
        card, take = move
        if not isinstance(card, int) or not 0 <= card < 52:
            return f"{card!r} is not a card"
        if not self.hands[self.turn] >> card & 1:
            return (
                f"{CARD_NAMES[card]} is not in seat {self.turn}'s hand "
                f"({format_cards(self.hands[self.turn])})"
            )
        allowed = " or ".join(
            _move(card, t).text() for t in capture_options(self.rules, card, self.floor)
        )
        floor = format_cards(self.floor)
        return f"{Move(card, take).text()} is not allowed on floor {floor}: play {allowed}"

    def push(self, move: Move) -> None:
        """Make a legal move (unchecked: use :meth:`play` for moves from outside).

        Deals the next hands when all hands are empty, and scores the round
        (leftovers to the last capturer) after its last play.
        """
        card, take = move
        seat = self.turn
        floor = self.floor
        self.hands[seat] ^= 1 << card
        self._hand_cards[seat].remove(card)
        lone_last = self._lone_last
        basra = 0
        if take:
            side = self.side_of[seat]
            if take == floor:
                basra = clear_basra(self.rules, card, floor, lone_last & 1)
            self.floor = floor ^ take
            self.piles[side] |= take | 1 << card
            self._lone_last = side + 1 << 1  # the last capturer; no lone trail
        else:
            self.floor = floor | 1 << card
            # C12: a card trailed onto a lone card makes lone_plus_trail(X, Y).
            self._lone_last = lone_last & ~1 | (floor != 0 and not floor & (floor - 1))
        in_hands = self.in_hands = self.in_hands - 1
        if basra:
            last_play = not in_hands and self.stock_pos == len(self.stock)
            if last_play and not self.rules.basra_on_last_play:
                basra = 0
            else:
                self.basras[side] += 1
                self.basra_points[side] += basra
        self._plays.append(_new_tuple(Play, (seat, move, basra)))
        self.turn = self._next_seat[seat]
        # The undo entry is the packed lone-trail flag and last capturer, with
        # what a deal or the end of the round changed when there was one.
        if in_hands:
            self._undo.append(lone_last)
        elif self.stock_pos < len(self.stock):
            self._undo.append((lone_last, self._deal_next()))
        else:
            self._undo.append((lone_last, self._end_round()))

    def pop(self) -> Move:
        """Undo the last play of the current round and return its move."""
        if not self._undo:
            raise IndexError("no play of this round to undo")
        entry = self._undo.pop()
        if type(entry) is int:
            lone_last = entry
        else:
            assert isinstance(entry, tuple)
            lone_last, event = entry
            if isinstance(event, int):
                self.hands = [0] * self.players
                self._hand_cards = [[] for _ in range(self.players)]
                self.stock_pos -= event * self.players
                self.in_hands = 0
            else:
                assert isinstance(event, _RoundEnd)
                self.floor = event.floor
                if self.last_capture_side is not None:
                    self.piles[self.last_capture_side] = event.pile
                self.scores = event.scores
                self.carry = event.carry
                self.phase = PHASE_PLAY
                self._outcome = None
                self.rounds[-1].result = None
        seat, move, basra = self._plays.pop()
        card, take = move
        side = self.side_of[seat]
        bit = 1 << card
        self.hands[seat] |= bit
        insort(self._hand_cards[seat], card)
        if take:
            self.floor |= take
            self.piles[side] ^= take | bit
        else:
            self.floor ^= bit
        if basra:
            self.basras[side] -= 1
            self.basra_points[side] -= basra
        self._lone_last = lone_last
        self.in_hands += 1
        self.turn = seat
        return move

    def _end_round(self) -> _RoundEnd:
        """Leftovers to the last capturer (never a basra), then score (A8, A9, A10)."""
        last = self.last_capture_side
        undo = _RoundEnd(
            self.floor, self.piles[last] if last is not None else 0, self.scores, self.carry
        )
        if last is not None:
            self.piles[last] |= self.floor
            self.floor = 0
        result = score_round(
            self.rules, self.piles, self.basras, self.basra_points, last, self.scores, self.carry
        )
        self.rounds[-1].result = result
        self.scores = list(result.score)
        self.carry = result.carry
        self.phase = PHASE_DEAL
        top = max(self.scores)
        if top >= self.rules.target:
            leaders = [side for side, s in enumerate(self.scores) if s == top]
            if len(leaders) == 1:
                self._outcome = Outcome(leaders[0], result.score)
            elif self.rules.end_tie == "draw":
                self._outcome = Outcome(None, result.score)
            if self._outcome is not None:
                self.phase = PHASE_OVER
        return undo

    # ------------------------------------------------------------------ queries

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == PHASE_OVER

    @property
    def round_index(self) -> int:
        """The index of the current (or last dealt) round, -1 before the first deal."""
        return len(self.rounds) - 1

    @property
    def plays(self) -> list[Play]:
        """The plays of the current (or last) round so far. Do not modify."""
        return self.rounds[-1].plays if self.rounds else []

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.stock) - self.stock_pos

    @property
    def is_last_play(self) -> bool:
        """True when the next play is the round's last card."""
        return self.in_hands == 1 and self.stock_pos == len(self.stock)

    @property
    def lone_trail(self) -> bool:
        """True when the floor is lone_plus_trail(X, Y): a card trailed onto a lone card (C12)."""
        return bool(self._lone_last & 1)

    @property
    def last_capture_side(self) -> int | None:
        """The side that made the round's last capture so far (``None``: nobody yet)."""
        return (self._lone_last >> 1) - 1 if self._lone_last > 1 else None

    def side(self, seat: int) -> int:
        """The side a seat plays for."""
        return self.side_of[seat]

    def copy(self) -> GameState:
        """An independent copy (plays of past rounds are shared: they never change)."""
        other = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other._hand_cards = [list(cards) for cards in self._hand_cards]
        other.piles = list(self.piles)
        other.basras = list(self.basras)
        other.basra_points = list(self.basra_points)
        other.scores = list(self.scores)
        other._undo = list(self._undo)
        other.rounds = list(self.rounds)
        if self.rounds:
            current = self.rounds[-1]
            other.rounds[-1] = RoundLog(
                current.dealer,
                current.pack,
                current.initial_floor,
                current.buried,
                list(current.plays),
                current.result,
            )
            other._plays = other.rounds[-1].plays
        return other

    def fingerprint(self) -> tuple[object, ...]:
        """Everything that makes this state what it is, as a comparable value."""
        return (
            self.variant,
            self.rules,
            self.players,
            self.teams,
            self.first_dealer,
            self.phase,
            self.dealer,
            self.first_player,
            self.turn,
            tuple(self.hands),
            self.floor,
            tuple(self.stock[self.stock_pos :]),
            self.in_hands,
            tuple(self.piles),
            tuple(self.basras),
            tuple(self.basra_points),
            self._lone_last,
            tuple(self.scores),
            self.carry,
            self.out_of_play,
            tuple(
                (r.dealer, r.pack, r.initial_floor, r.buried, tuple(r.plays), r.result)
                for r in self.rounds
            ),
            self._outcome,
        )

    def __repr__(self) -> str:
        if self.phase != PHASE_PLAY:
            return f"<GameState {self.variant} {self.players}p {self.phase} score={self.scores}>"
        return (
            f"<GameState {self.variant} {self.players}p round {self.round_index} "
            f"seat {self.turn} to play; floor [{format_cards(self.floor)}] score={self.scores}>"
        )

    # ----------------------------------------------------------- construction

    @classmethod
    def assemble(
        cls,
        *,
        variant: str,
        rules: Rules,
        players: int,
        teams: bool,
        first_dealer: int,
        phase: str,
        rounds: list[RoundLog],
        turn: int,
        hands: list[int],
        floor: int,
        stock: list[Card],
        piles: list[int],
        basras: list[int],
        basra_points: list[int],
        last_capture_side: int | None,
        lone_trail: bool,
        scores: list[int],
        carry: int,
        outcome: Outcome | None = None,
        out_of_play: int = 0,
    ) -> GameState:
        """A state from its parts, unchecked (for determinization and restoring).

        ``rounds[-1]`` is the current round; ``stock`` holds the cards still to
        deal, top first. The current round cannot be popped past this point.
        """
        state = cls.__new__(cls)
        state.variant = variant
        state.rules = rules
        state.players = players
        state.teams = teams
        state.first_dealer = first_dealer
        state.side_of = (0, 1, 0, 1) if teams else tuple(range(players))
        state.sides = ((0, 2), (1, 3)) if teams else tuple((s,) for s in range(players))
        state.phase = phase
        state.rounds = rounds
        state.dealer = (first_dealer + max(len(rounds) - 1, 0)) % players
        state.first_player = (state.dealer + 1) % players
        state.turn = turn
        state.hands = hands
        state._hand_cards = [cards_of(h) for h in hands]
        state.floor = floor
        state.stock = stock
        state.stock_pos = 0
        state.in_hands = sum(h.bit_count() for h in hands)
        state.piles = piles
        state.basras = basras
        state.basra_points = basra_points
        state._lone_last = _pack_lone_last(lone_trail, last_capture_side)
        state.scores = scores
        state.carry = carry
        state.out_of_play = out_of_play
        state._undo = []
        state._plays = rounds[-1].plays if rounds else []
        state._next_seat = tuple((seat + 1) % players for seat in range(players))
        state._outcome = outcome
        return state

    @classmethod
    def from_position(
        cls,
        variant: str = DEFAULT_VARIANT,
        players: int = 2,
        *,
        floor: Iterable[Card | str],
        hands: Sequence[Iterable[Card | str]],
        stock: Iterable[Card | str] = (),
        turn: int = 0,
        teams: bool = False,
        rules: Rules | Mapping[str, Any] | None = None,
        lone_trail: bool = False,
        captured: Sequence[Iterable[Card | str]] | None = None,
        last_capture_side: int | None = None,
        scores: Sequence[int] | None = None,
        carry: int = 0,
        dealer: int | None = None,
    ) -> GameState:
        """A state in the middle of a round, for tests, analysis and search.

        ``stock`` is listed top card first. Cards that appear nowhere are taken to
        be out of play (as if captured long ago); every card may appear once.
        The dealer defaults to the seat before ``turn``. The round's history
        (``plays``) starts empty, so :meth:`pop` cannot go before this position.
        """
        n_sides = 2 if teams else players
        state = cls(variant, players, teams=teams, rules=rules)
        seen: set[Card] = set()

        def to_cards(items: Iterable[Card | str], what: str) -> list[Card]:
            out = []
            for item in items:
                card = _to_card(item)
                if card >> 2 >= 11 and state.rules.pack == 44:
                    raise SetupError(f"{CARD_NAMES[card]} in {what} is not in the 44-card pack")
                if card in seen:
                    raise SetupError(f"{CARD_NAMES[card]} appears twice (again in {what})")
                seen.add(card)
                out.append(card)
            return out

        if len(hands) != players:
            raise SetupError(f"hands must list {players} hands, not {len(hands)}")
        if not 0 <= turn < players:
            raise SetupError(f"turn must be a seat from 0 to {players - 1}")
        state.hands = [sum(1 << c for c in to_cards(h, f"hand {i}")) for i, h in enumerate(hands)]
        state._hand_cards = [cards_of(h) for h in state.hands]
        state.floor = sum(1 << c for c in to_cards(floor, "the floor"))
        state.stock = to_cards(stock, "the stock")
        piles = [0] * n_sides
        for i, pile in enumerate(captured or ()):
            piles[i] = sum(1 << c for c in to_cards(pile, f"captured pile {i}"))
        state.piles = piles
        state.in_hands = sum(h.bit_count() for h in state.hands)
        state.turn = turn
        state.dealer = (turn - 1) % players if dealer is None else dealer
        state.first_player = (state.dealer + 1) % players
        state._lone_last = _pack_lone_last(lone_trail, last_capture_side)
        if scores is not None:
            state.scores = list(scores)
        state.carry = carry
        state.out_of_play = pack_mask(state.rules.pack) & ~sum(1 << c for c in seen)
        state.phase = PHASE_PLAY
        state.rounds.append(RoundLog(state.dealer, None, (), ()))
        state._plays = state.rounds[-1].plays
        if state.in_hands == 0:
            raise SetupError("every hand is empty: nobody can play")
        return state


def _pack_lone_last(lone_trail: bool, last_capture_side: int | None) -> int:
    """The state's packed lone-trail flag and last capturer (see ``GameState.push``)."""
    return (0 if last_capture_side is None else last_capture_side + 1 << 1) | lone_trail


def _to_card(item: Card | str) -> Card:
    if isinstance(item, str):
        return parse_card(item)
    if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 52:
        return item
    raise CardError(f"{item!r} is not a card")


def _check_pack(rules: Rules, pack: Sequence[Card | str]) -> list[Card]:
    """The pack as card ints, if it is exactly the effective pack of ``rules``."""
    if isinstance(pack, (str, bytes)) or not isinstance(pack, Sequence):
        raise DealError("a pack must be a list of cards")
    cards: list[Card]
    if all(type(item) is int and 0 <= item < 52 for item in pack):
        cards = [item for item in pack if isinstance(item, int)]
        if len(cards) == rules.pack and sum(map(_BIT.__getitem__, cards)) == pack_mask(rules.pack):
            return cards  # the effective pack, each card once
    else:
        try:
            cards = [_to_card(item) for item in pack]
        except CardError as exc:
            raise DealError(f"the pack has a bad card: {exc}") from None
    expected = pack_mask(rules.pack)
    seen = 0
    for card in cards:
        if not expected >> card & 1:
            raise DealError(
                f"the pack holds {CARD_NAMES[card]}, which is not in the {rules.pack}-card pack"
            )
        if seen >> card & 1:
            raise DealError(f"the pack holds {CARD_NAMES[card]} twice")
        seen |= 1 << card
    if seen != expected:
        missing = format_cards(expected & ~seen)
        raise DealError(f"the pack has {len(cards)} cards, not {rules.pack}: missing {missing}")
    return cards
