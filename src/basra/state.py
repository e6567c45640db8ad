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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from basra.captures import capture_options
from basra.cards import (
    CARD_NAMES,
    Card,
    CardError,
    format_cards,
    pack_mask,
    parse_card,
)
from basra.kernel import Round, generate_moves
from basra.moves import Move, Play
from basra.rules import DEFAULT_VARIANT, Rules, RulesError, preset
from basra.scoring import RoundScore
from basra.transition import deal_schedule, intern_move, pack_lone_last, seating

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


_BIT = tuple(1 << card for card in range(52))


def shuffled_pack(rules: Rules, rng: random.Random) -> list[Card]:
    """A uniformly shuffled effective pack (52 or 44 cards), top card first.

    Sorting by random keys is a uniform shuffle (ties have probability about
    2**-43) and ten times faster than ``random.shuffle`` in pure Python.
    """
    keys = [rng.random() for _ in range(rules.pack)]
    return sorted(range(rules.pack), key=keys.__getitem__)


class GameState(Round):
    """A game of Basra in progress.

    ``variant`` is a preset name (RULES.md B4); ``rules`` either overrides some
    of its settings (a mapping, checked) or replaces them all (a :class:`Rules`).
    Seats are ``0 .. players-1`` in turn order; with ``teams`` (4 players only)
    seats 0 and 2 are side 0 and seats 1 and 3 are side 1, otherwise side i is
    seat i (:func:`basra.transition.seating`).

    A game is a :class:`basra.transition.Round` (the current round's fields and
    the one transition, with :meth:`push` and :meth:`pop`) plus the game around
    it: the deals, every round's log and result, the scores and the outcome.
    Fields are public for reading (``floor``, ``hands``, ``turn`` ...) and
    change only through :meth:`deal`, :meth:`push`, :meth:`pop`.
    """

    __slots__ = (
        "_outcome",
        "dealer",
        "first_dealer",
        "out_of_play",
        "phase",
        "rounds",
        "sides",
        "teams",
        "variant",
    )

    variant: str
    teams: bool
    first_dealer: int
    sides: tuple[tuple[int, ...], ...]
    phase: str
    rounds: list[RoundLog]
    dealer: int
    out_of_play: int
    """Cards in no hand, pile, floor or stock (only in positions built by hand)."""
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
        self.sides, side_of = seating(players, teams)
        super().__init__(full, players, side_of)
        self.variant = variant
        self.teams = teams
        self.first_dealer = first_dealer
        self.phase = PHASE_DEAL
        self.rounds = []
        self.dealer = first_dealer
        self.first_player = (first_dealer + 1) % players
        self.turn = self.first_player
        self.out_of_play = 0
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
        first = (self.dealer + 1) % n
        hand = rules.hand_size
        hands = [0] * n
        bit = _BIT.__getitem__
        for i in range(n):
            hands[(first + i) % n] = sum(map(bit, cards[i * hand : (i + 1) * hand]))
        pos = n * hand
        floor = cards[pos : pos + deal_schedule(rules, n).floor]
        initial_floor = tuple(floor)
        stock = cards[pos + len(floor) :]
        buried: list[Card] = []
        bury = rules.bury_mask
        if sum(map(bit, floor)) & bury:
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
        log = RoundLog(self.dealer, tuple(cards), initial_floor, tuple(buried))
        self.rounds.append(log)
        self.phase = PHASE_PLAY
        self.start_round(hands, sum(map(bit, floor)), stock, first, log.plays)

    # ------------------------------------------------------------------- moves

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, by card in canonical order.

        A card that can capture appears only with its allowed capture sets (A4,
        A6); a card that cannot appears once as a trail. Empty unless a round
        is being played.
        """
        if self.phase != PHASE_PLAY:
            return []
        return super().legal_moves()

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
        hand = self.hands[self.turn]
        if not hand >> card & 1:
            return f"{CARD_NAMES[card]} is not in seat {self.turn}'s hand ({format_cards(hand)})"
        allowed = " or ".join(
            intern_move(card, t).text() for t in capture_options(self.rules, card, self.floor)
        )
        floor = format_cards(self.floor)
        return f"{Move(card, take).text()} is not allowed on floor {floor}: play {allowed}"

    def _end_round(self) -> object:
        """Leftovers to the last capturer (never a basra), then score (A8, A9, A10)."""
        floor, scores, carry = self.floor, self.scores, self.carry
        last = self.last_capture_side
        pile = self.piles[last] if last is not None else 0
        result = self.finish()
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
        return (floor, pile, scores, carry)

    def _reopen_round(self, token: object) -> None:
        assert isinstance(token, tuple)
        floor, pile, scores, carry = token
        self.restore_leftovers(floor, pile)
        self.scores = scores
        self.carry = carry
        self.phase = PHASE_PLAY
        self._outcome = None
        self.rounds[-1].result = None

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

    def side(self, seat: int) -> int:
        """The side a seat plays for."""
        return self.side_of[seat]

    def copy(self) -> GameState:
        """An independent copy (plays of past rounds are shared: they never change)."""
        other = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.rounds = list(self.rounds)
        plays: list[Play] = []
        if self.rounds:
            current = self.rounds[-1]
            plays = list(current.plays)
            other.rounds[-1] = RoundLog(
                current.dealer,
                current.pack,
                current.initial_floor,
                current.buried,
                plays,
                current.result,
            )
        Round.__init__(other, self.rules, self.players, self.side_of)
        fields = self.round_fields()
        fields["plays"] = plays
        other.set_round_fields(fields)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        game = {name: getattr(self, name) for name in GameState.__slots__}
        return (_restore, (type(self), self.rules, self.players, game, self.round_fields()))

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
            self.lone_last,
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
        state.sides, side_of = seating(players, teams)
        Round.__init__(state, rules, players, side_of)
        state.variant = variant
        state.teams = teams
        state.first_dealer = first_dealer
        state.phase = phase
        state.rounds = rounds
        state.dealer = (first_dealer + max(len(rounds) - 1, 0)) % players
        state.out_of_play = out_of_play
        state._outcome = outcome
        state.load_round(
            hands=hands,
            floor=floor,
            stock=stock,
            first_player=(state.dealer + 1) % players,
            turn=turn,
            piles=piles,
            basras=basras,
            basra_points=basra_points,
            lone_last=pack_lone_last(lone_trail, last_capture_side),
            scores=scores,
            carry=carry,
            plays=rounds[-1].plays if rounds else [],
        )
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
        hand_masks = [sum(1 << c for c in to_cards(h, f"hand {i}")) for i, h in enumerate(hands)]
        floor_mask = sum(1 << c for c in to_cards(floor, "the floor"))
        stock_cards = to_cards(stock, "the stock")
        piles = [0] * n_sides
        for i, pile in enumerate(captured or ()):
            piles[i] = sum(1 << c for c in to_cards(pile, f"captured pile {i}"))
        if not any(hand_masks):
            raise SetupError("every hand is empty: nobody can play")
        state.dealer = (turn - 1) % players if dealer is None else dealer
        state.out_of_play = pack_mask(state.rules.pack) & ~sum(1 << c for c in seen)
        state.phase = PHASE_PLAY
        log = RoundLog(state.dealer, None, (), ())
        state.rounds.append(log)
        state.load_round(
            hands=hand_masks,
            floor=floor_mask,
            stock=stock_cards,
            first_player=(state.dealer + 1) % players,
            turn=turn,
            piles=piles,
            basras=[0] * n_sides,
            basra_points=[0] * n_sides,
            lone_last=pack_lone_last(lone_trail, last_capture_side),
            scores=list(scores) if scores is not None else [0] * n_sides,
            carry=carry,
            plays=log.plays,
        )
        return state


def _restore(
    cls: type[GameState],
    rules: Rules,
    players: int,
    game: dict[str, Any],
    fields: dict[str, Any],
) -> GameState:
    """Unpickle a :class:`GameState` (whichever engine pickled it)."""
    state = cls.__new__(cls)
    for name, value in game.items():
        setattr(state, name, value)
    Round.__init__(state, rules, players, seating(players, state.teams)[1])
    state.set_round_fields(fields)
    return state


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
