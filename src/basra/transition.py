"""What a play does to a round: the one definition (RULES.md A3-A10, B5).

A round is a handful of plain fields: each hand and each side's pile as a card
mask, the floor, the stock, the lone-card history (C12), basras and scores.
:class:`Round` holds them and :meth:`Round.apply` is *the* transition: the
cards taken, the basra with its lone-card and last-play rules, the new
lone-card state and the next seat. Beside it, as pure functions: the legal
moves (:func:`generate_moves`), a move's basra (:func:`play_basra`), the deal
schedule (:func:`deal_schedule`) and the seating (:func:`seating`).

Everything that plays a round calls these and nothing else:
:class:`basra.state.GameState` (a whole game: deals, history, records) is a
:class:`Round`, the search's simulator (:class:`basra.sim.Sim`) is one,
and the bots' immediate terms, the environments' move preview and the
terminal ask :func:`play_basra`. The optional compiled kernel
(:mod:`basra.kernel`) mirrors this module field for field and is tested
against it; this module stays the readable reference.

>>> from basra.cards import parse_card, mask_of, parse_cards
>>> from basra.rules import preset
>>> rules = preset("egyptian")
>>> floor = mask_of(parse_cards("3S 4H"))
>>> play_basra(rules, parse_card("7C"), floor, floor, lone_trail=False, last_play=False)
10
>>> deal_schedule(preset("palestinian"), 3)
DealSchedule(players=3, floor=5, hands=(4, 4, 4, 1))
>>> seating(4, teams=True)
(((0, 2), (1, 3)), (0, 1, 0, 1))
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from basra.captures import capture_options, clear_basra
from basra.cards import SEVEN_DIAMONDS, Card, cards_of
from basra.moves import Move, Play
from basra.rules import Rules
from basra.scoring import RoundScore, pile_points, score_round

__all__ = [
    "DealSchedule",
    "Round",
    "deal_schedule",
    "generate_moves",
    "immediate_points",
    "intern_move",
    "lone_after",
    "next_deal_size",
    "pack_lone_last",
    "play_basra",
    "seating",
]

_SEVEN_BIT = 1 << SEVEN_DIAMONDS
_CAPTURE_CACHE_LIMIT = 1 << 17
_MOVES: dict[int, Move] = {}
_new_tuple = tuple.__new__


# ----------------------------------------------------------------- the table


def seating(players: int, teams: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The sides (the seats of each) and the side of each seat (A1).

    Seats are numbered in turn order from 0. With teams (4 players) partners
    sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1; otherwise
    side i is seat i.
    """
    if teams:
        return ((0, 2), (1, 3)), (0, 1, 0, 1)
    return tuple((seat,) for seat in range(players)), tuple(range(players))


@dataclass(frozen=True)
class DealSchedule:
    """How a round's pack is dealt to ``players`` (A3, C4, C5)."""

    players: int
    floor: int
    """Cards turned up to the floor after the first deal: 4, plus what does not divide."""
    hands: tuple[int, ...]
    """Cards each player gets, deal by deal."""

    @property
    def starts(self) -> tuple[int, ...]:
        """How many plays of the round come before each deal (``(0, 8, 16, ...)``)."""
        out = []
        plays = 0
        for each in self.hands:
            out.append(plays)
            plays += each * self.players
        return tuple(out)


def next_deal_size(rules: Rules, players: int, remaining: int) -> int:
    """Cards each player gets from ``remaining`` undealt cards: a full hand while enough remain."""
    return min(rules.hand_size, remaining // players)


def deal_schedule(rules: Rules, players: int) -> DealSchedule:
    """The deals of a round of ``rules`` for ``players`` (A3: the remainder goes to the floor)."""
    floor = 4 + (rules.pack - 4) % players
    remaining = rules.pack - floor
    hands = []
    while remaining > 0:
        each = next_deal_size(rules, players, remaining)
        hands.append(each)
        remaining -= each * players
    return DealSchedule(players, floor, tuple(hands))


# ---------------------------------------------------------------- the moves


def intern_move(card: Card, take: int) -> Move:
    """The shared :class:`~basra.moves.Move` value for ``card`` taking ``take``.

    Legal move lists are built very often; interning makes them cheap and lets
    moves be compared by identity first.
    """
    key = take << 6 | card
    move = _MOVES.get(key)
    if move is None:
        if len(_MOVES) > 1 << 20:
            _MOVES.clear()
        move = _MOVES[key] = Move(card, take)
    return move


def generate_moves(rules: Rules, cards: Iterable[Card], floor: int) -> list[Move]:
    """The legal moves of a hand (cards in canonical order) on a floor (A4-A6).

    The one move generator: rounds, views and bots all call it. It gives the
    same moves as :func:`basra.captures.capture_options`, faster: most cards
    have no more than one floor card within reach, and the sum search is
    cached on the cards in reach, which repeat far more often than whole floors.
    """
    if rules.lone_seven and floor == _SEVEN_BIT:
        return [
            intern_move(card, take)
            for card in cards
            for take in capture_options(rules, card, floor)
        ]
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
        append(get_move(take << 6 | card) or intern_move(card, take))
    return out


def _cache_captures(rules: Rules, card: Card, near: int, key: int) -> tuple[Move, ...]:
    """Compute and cache the capture moves of ``card`` with the floor cards ``near`` in reach."""
    cache = rules.capture_cache
    if len(cache) >= _CAPTURE_CACHE_LIMIT:
        cache.clear()
    moves = cache[key] = tuple(
        intern_move(card, take) for take in capture_options(rules, card, near)
    )
    return moves


# ------------------------------------------------------- what a play scores


def play_basra(
    rules: Rules, card: Card, take: int, floor: int, *, lone_trail: bool, last_play: bool
) -> int:
    """The basra points of ``card`` taking ``take`` from ``floor`` (0: no basra).

    Only a capture of the whole non-empty floor can be a basra (A7, C11-C13,
    :func:`basra.captures.clear_basra`); ``lone_trail`` says the floor is a
    card trailed onto a lone card (C12); on the round's last card
    (``last_play``) a basra counts only with ``basra_on_last_play`` (B5.6).
    """
    if not take or take != floor or (last_play and not rules.basra_on_last_play):
        return 0
    return clear_basra(rules, card, floor, lone_trail)


def immediate_points(
    rules: Rules, card: Card, take: int, floor: int, *, lone_trail: bool, last_play: bool
) -> int:
    """The points a play scores at once: its basra and the point cards it captures
    (the played card included); 0 for a trail."""
    if not take:
        return 0
    return pile_points(rules, take | 1 << card) + play_basra(
        rules, card, take, floor, lone_trail=lone_trail, last_play=last_play
    )


def lone_after(floor: int, take: int) -> bool:
    """Whether the floor is lone_plus_trail(X, Y) after a play on ``floor`` (C12).

    It is when the play trails a card onto a floor of exactly one card; any
    capture, or a trail onto any other floor, ends it.
    """
    return not take and floor != 0 and not floor & (floor - 1)


def pack_lone_last(lone_trail: bool, last_capture_side: int | None) -> int:
    """The packed lone-card state and last capturer of :attr:`Round.lone_last`."""
    return (0 if last_capture_side is None else last_capture_side + 1 << 1) | lone_trail


# ---------------------------------------------------------------- the round


class Round:
    """One round being played, on plain fields, with the transition and its undo.

    Hands and piles are card masks (``hand_cards`` holds each hand's cards in
    canonical order too, for the move generator); ``stock`` is every card
    after the first floor, top first, of which ``stock[stock_pos:]`` are
    still to deal. ``lone_last`` packs the lone-card history and the last
    capturer: bit 0 is set when the floor is lone_plus_trail(X, Y), and
    ``lone_last >> 1`` is the last capturing side + 1 (0: nobody yet).

    :meth:`apply` is the transition; :meth:`push` and :meth:`pop` add the
    round's history (plays, and an undo log) and deal or end the round when
    the hands run out. What ending a round means for a whole game is
    :meth:`_end_round`'s concern (:class:`basra.state.GameState` overrides it).
    The fields are public for reading and change only through these methods.
    """

    __slots__ = (
        "basra_points",
        "basras",
        "carry",
        "first_player",
        "floor",
        "hand_cards",
        "hands",
        "in_hands",
        "lone_last",
        "piles",
        "players",
        "plays",
        "rules",
        "scores",
        "side_of",
        "stock",
        "stock_pos",
        "turn",
        "undo_log",
    )

    rules: Rules
    players: int
    side_of: tuple[int, ...]
    hands: list[int]
    hand_cards: list[list[Card]]
    floor: int
    stock: list[Card]
    stock_pos: int
    in_hands: int
    """Cards in all hands together."""
    piles: list[int]
    basras: list[int]
    basra_points: list[int]
    lone_last: int
    turn: int
    first_player: int
    scores: list[int]
    carry: int
    """The majority bonus held in abeyance by earlier tied rounds."""
    plays: list[Play]
    """The plays of the round so far (:meth:`push` appends; the list object is kept)."""
    undo_log: list[Any]
    """One entry per pushed play: the lone/last field before it, with the deal or
    round end it caused."""

    def __init__(self, rules: Rules, players: int, side_of: tuple[int, ...]) -> None:
        self.rules = rules
        self.players = players
        self.side_of = side_of
        sides = max(side_of) + 1
        self.hands = [0] * players
        self.hand_cards = [[] for _ in range(players)]
        self.floor = 0
        self.stock = []
        self.stock_pos = 0
        self.in_hands = 0
        self.piles = [0] * sides
        self.basras = [0] * sides
        self.basra_points = [0] * sides
        self.lone_last = 0
        self.turn = 0
        self.first_player = 0
        self.scores = [0] * sides
        self.carry = 0
        self.plays = []
        self.undo_log = []

    # ------------------------------------------------------------ loading

    def start_round(
        self, hands: list[int], floor: int, stock: list[Card], first_player: int, plays: list[Play]
    ) -> None:
        """Begin a round just dealt: ``first_player`` to move, piles and basras empty.

        ``stock`` is every card after the first floor, top first; ``plays`` is
        the list the round's plays are appended to (the round log's).
        """
        sides = len(self.piles)
        self.hands = list(hands)
        self.hand_cards = [cards_of(hand) for hand in hands]
        self.floor = floor
        self.stock = stock
        self.stock_pos = 0
        self.in_hands = sum(hand.bit_count() for hand in hands)
        self.piles = [0] * sides
        self.basras = [0] * sides
        self.basra_points = [0] * sides
        self.lone_last = 0
        self.first_player = self.turn = first_player
        self.plays = plays
        self.undo_log = []

    def load_round(
        self,
        *,
        hands: list[int],
        floor: int,
        stock: list[Card],
        first_player: int,
        turn: int,
        piles: list[int],
        basras: list[int],
        basra_points: list[int],
        lone_last: int,
        scores: list[int],
        carry: int,
        plays: list[Play],
    ) -> None:
        """Set every field of a round in progress (``stock``: the cards still to deal, top first).

        The undo log starts empty: :meth:`pop` cannot go back before this point.
        """
        self.start_round(hands, floor, stock, first_player, plays)
        self.turn = turn
        self.piles = list(piles)
        self.basras = list(basras)
        self.basra_points = list(basra_points)
        self.lone_last = lone_last
        self.scores = list(scores)
        self.carry = carry

    def round_fields(self) -> dict[str, Any]:
        """Every field of the round, undo log included, as plain values (fresh lists).

        With :meth:`set_round_fields` this copies and pickles rounds; the
        compiled kernel gives and takes exactly the same values.
        """
        return {
            "hands": list(self.hands),
            "floor": self.floor,
            "stock": list(self.stock),
            "stock_pos": self.stock_pos,
            "piles": list(self.piles),
            "basras": list(self.basras),
            "basra_points": list(self.basra_points),
            "lone_last": self.lone_last,
            "turn": self.turn,
            "first_player": self.first_player,
            "scores": list(self.scores),
            "carry": self.carry,
            "plays": self.plays,
            "undo_log": list(self.undo_log),
        }

    def set_round_fields(self, fields: dict[str, Any]) -> None:
        """Set every field from :meth:`round_fields`' values (the lists are kept, not copied)."""
        self.hands = fields["hands"]
        self.hand_cards = [cards_of(hand) for hand in self.hands]
        self.floor = fields["floor"]
        self.stock = fields["stock"]
        self.stock_pos = fields["stock_pos"]
        self.in_hands = sum(hand.bit_count() for hand in self.hands)
        self.piles = fields["piles"]
        self.basras = fields["basras"]
        self.basra_points = fields["basra_points"]
        self.lone_last = fields["lone_last"]
        self.turn = fields["turn"]
        self.first_player = fields["first_player"]
        self.scores = fields["scores"]
        self.carry = fields["carry"]
        self.plays = fields["plays"]
        self.undo_log = fields["undo_log"]

    # ------------------------------------------------------------ reading

    @property
    def lone_trail(self) -> bool:
        """True when the floor is lone_plus_trail(X, Y): a card trailed onto a lone card (C12)."""
        return bool(self.lone_last & 1)

    @property
    def last_capture_side(self) -> int | None:
        """The side that made the round's last capture so far (``None``: nobody yet)."""
        return (self.lone_last >> 1) - 1 if self.lone_last > 1 else None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.stock) - self.stock_pos

    @property
    def is_last_play(self) -> bool:
        """True when the next play is the round's last card."""
        return self.in_hands == 1 and self.stock_pos == len(self.stock)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, by card in canonical order."""
        return generate_moves(self.rules, self.hand_cards[self.turn], self.floor)

    # --------------------------------------------------------- the transition

    def apply(self, card: Card, take: int) -> int:
        """The seat to move plays ``card`` taking ``take`` (unchecked); returns its basra points.

        The played card and the cards taken go to the side's pile (A4); a
        trail stays on the floor. The basra follows :func:`play_basra`; the
        lone-card state follows :func:`lone_after`; a capture makes the side
        the last capturer. The turn passes on. When the hands run out the
        caller deals (:meth:`deal_next`) or ends the round (:meth:`finish`).
        """
        seat = self.turn
        floor = self.floor
        self.hands[seat] ^= 1 << card
        self.hand_cards[seat].remove(card)
        in_hands = self.in_hands = self.in_hands - 1
        lone_last = self.lone_last
        basra = 0
        if take:
            side = self.side_of[seat]
            if take == floor:
                basra = play_basra(
                    self.rules,
                    card,
                    take,
                    floor,
                    lone_trail=bool(lone_last & 1),
                    last_play=not in_hands and self.stock_pos == len(self.stock),
                )
                if basra:
                    self.basras[side] += 1
                    self.basra_points[side] += basra
            self.floor = floor ^ take
            self.piles[side] |= take | 1 << card
            self.lone_last = side + 1 << 1
        else:
            self.floor = floor | 1 << card
            self.lone_last = lone_last & ~1 | lone_after(floor, take)
        self.turn = seat + 1 if seat + 1 < self.players else 0
        return basra

    def unapply(self, seat: int, card: Card, take: int, basra: int, lone_last: int) -> None:
        """Undo :meth:`apply` of ``seat``'s play, which scored ``basra``, to ``lone_last``."""
        side = self.side_of[seat]
        bit = 1 << card
        self.hands[seat] |= bit
        insort(self.hand_cards[seat], card)
        if take:
            self.floor |= take
            self.piles[side] ^= take | bit
        else:
            self.floor ^= bit
        if basra:
            self.basras[side] -= 1
            self.basra_points[side] -= basra
        self.lone_last = lone_last
        self.in_hands += 1
        self.turn = seat

    def deal_next(self) -> int:
        """A later deal from the stock (A3): returns the cards each player got.

        Batches go round from the first player; the floor gets nothing.
        """
        n = self.players
        stock = self.stock
        pos = self.stock_pos
        each = next_deal_size(self.rules, n, len(stock) - pos)
        first = self.first_player
        for i in range(n):
            batch = sorted(stock[pos : pos + each])
            seat = (first + i) % n
            mask = 0
            for card in batch:
                mask |= 1 << card
            self.hands[seat] = mask
            self.hand_cards[seat] = batch
            pos += each
        self.stock_pos = pos
        self.in_hands = n * each
        return each

    def finish(self) -> RoundScore:
        """After the last play: the leftovers go to the last capturer (never a basra, A8),
        then the round is scored (A9). Changes the piles and floor, not ``scores``."""
        last = self.last_capture_side
        if last is not None:
            self.piles[last] |= self.floor
            self.floor = 0
        return score_round(
            self.rules, self.piles, self.basras, self.basra_points, last, self.scores, self.carry
        )

    # ------------------------------------------------------------ history

    def push(self, move: Move) -> None:
        """Make a legal move (unchecked) and record it; deal or end the round when hands run out."""
        card, take = move
        seat = self.turn
        lone_last = self.lone_last
        basra = self.apply(card, take)
        self.plays.append(_new_tuple(Play, (seat, move, basra)))
        if self.in_hands:
            self.undo_log.append(lone_last)
        elif self.stock_pos < len(self.stock):
            self.undo_log.append((lone_last, self.deal_next()))
        else:
            self.undo_log.append((lone_last, self._end_round()))

    def pop(self) -> Move:
        """Undo the last pushed play of the round and return its move."""
        if not self.undo_log:
            raise IndexError("no play of this round to undo")
        entry = self.undo_log.pop()
        if type(entry) is int:
            lone_last = entry
        else:
            lone_last, event = entry
            if type(event) is int:  # a deal: the cards go back to the stock
                self.hands = [0] * self.players
                self.hand_cards = [[] for _ in range(self.players)]
                self.stock_pos -= event * self.players
                self.in_hands = 0
            else:
                self._reopen_round(event)
        seat, move, basra = self.plays.pop()
        self.unapply(seat, move.card, move.take, basra, lone_last)
        return move

    def _end_round(self) -> object:
        """Called after the round's last play: :meth:`finish`; returns what
        :meth:`_reopen_round` needs to undo it (a game overrides both)."""
        last = self.last_capture_side
        token = (self.floor, self.piles[last] if last is not None else 0)
        self.finish()
        return token

    def _reopen_round(self, token: object) -> None:
        """Undo :meth:`_end_round`, given what it returned."""
        assert isinstance(token, tuple)
        self.restore_leftovers(*token)

    def restore_leftovers(self, floor: int, pile: int) -> None:
        """Put the leftovers back on the floor: the last capturer's pile was ``pile``."""
        self.floor = floor
        last = self.last_capture_side
        if last is not None:
            self.piles[last] = pile
