"""What everyone at the table sees, what one seat may know, and full states consistent with it.

:func:`public_view_of` is the one place the public view is built: what every
person at the table (and every spectator) sees: the floor, every play of the
round, the cards turned up at the deal and those re-buried (they were face up,
so their place at the bottom of the stock, and later the hand they were dealt
to, is known to all), pile contents (every capture is public), hand sizes, the
stock size, basras and scores. Nothing else: no hand, no stock order.

:func:`view_of` builds a seat's view from it by adding only what that seat
alone knows: its own hand. :meth:`PublicView.to_json` is the one serializer of
views (the bot protocol, the web server's seat and spectator frames).

:func:`determinize` turns a seat's view back into a full :class:`GameState` by
dealing the unseen cards at random, so that a bot can search it.

>>> import random
>>> from basra.state import GameState
>>> state = GameState("egyptian")
>>> state.deal(rng=random.Random(1))
>>> view = view_of(state, 0)
>>> view.hand == state.hands[0], view.hand_sizes
(True, (4, 4))
>>> "hand" in public_view_of(state).to_json()
False
>>> sample = determinize(view, random.Random(2))
>>> sample.hands[0] == state.hands[0] and sample.floor == state.floor
True
"""

from __future__ import annotations

import random
from typing import Any

from basra.cards import CARD_NAMES, Card, cards_of, pack_mask
from basra.kernel import generate_moves
from basra.moves import Move, Play
from basra.rules import Rules
from basra.scoring import RoundScore
from basra.state import PHASE_PLAY, GameState, RoundLog

__all__ = [
    "RECENT_PLAYS",
    "PublicView",
    "Unseen",
    "View",
    "determinize",
    "public_view_of",
    "shuffle_cards",
    "view_of",
]

RECENT_PLAYS = 12
"""How many of the round's latest plays a brief view carries (see :meth:`PublicView.to_json`)."""


def texts_of(mask: int) -> list[str]:
    """Card texts of a mask in canonical order."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


class PublicView:
    """A snapshot of the game as everyone at the table sees it (no hand, no stock order).

    Every field is an int, a card mask, a tuple or the frozen rules. Masks are
    card bit masks (see :mod:`basra.cards`); per-side tuples are indexed by
    side, per-seat tuples by seat.
    """

    __slots__ = (
        "basra_points",
        "basras",
        "buried",
        "captured",
        "carry",
        "dealer",
        "floor",
        "gone",
        "hand_sizes",
        "initial_floor",
        "known",
        "last_capture_side",
        "lone_trail",
        "past_rounds",
        "phase",
        "players",
        "plays",
        "round_index",
        "rules",
        "scores",
        "side_of",
        "stock_bottom",
        "stock_size",
        "teams",
        "turn",
        "variant",
    )

    variant: str
    rules: Rules
    players: int
    teams: bool
    side_of: tuple[int, ...]
    phase: str
    round_index: int
    dealer: int
    turn: int
    """The seat to move (meaningful while ``phase`` is ``"play"``)."""
    hand_sizes: tuple[int, ...]
    known: tuple[int, ...]
    """Per seat, the cards known to be in that hand: in a public view, re-buried
    cards dealt to it and not yet played; in a seat's :class:`View`, also that
    seat's whole hand."""
    floor: int
    stock_size: int
    stock_bottom: tuple[Card, ...]
    """Re-buried cards still in the stock: its last cards, in this order."""
    initial_floor: tuple[Card, ...]
    buried: tuple[Card, ...]
    plays: tuple[Play, ...]
    captured: tuple[int, ...]
    basras: tuple[int, ...]
    basra_points: tuple[int, ...]
    last_capture_side: int | None
    lone_trail: bool
    scores: tuple[int, ...]
    carry: int
    past_rounds: tuple[RoundScore, ...]
    gone: int
    """Cards out of play (only in positions built with ``from_position``)."""

    @property
    def is_last_play(self) -> bool:
        """True when the next play is the round's last card."""
        return self.stock_size == 0 and sum(self.hand_sizes) == 1

    def to_json(self, *, brief: bool = False) -> dict[str, Any]:
        """The view as JSON values with card text: the one serializer of views.

        A seat's :class:`View` adds ``seat``, ``side``, ``hand`` and ``legal``;
        a public view has no such keys at all. ``brief`` is the form of
        frequent snapshots (the web page): no rules (they travel once, with the
        table), piles as sizes only, and only the round's last
        :data:`RECENT_PLAYS` plays, ``plays_from`` being the index of the first.
        """
        plays = self.plays[-RECENT_PLAYS:] if brief else self.plays
        out: dict[str, Any] = {"variant": self.variant}
        if not brief:
            out["rules"] = self.rules.to_dict()
        out.update(
            {
                "players": self.players,
                "teams": self.teams,
                "phase": self.phase,
                "round": self.round_index,
                "dealer": self.dealer,
                "turn": self.turn if self.phase == PHASE_PLAY else None,
                "hand_sizes": list(self.hand_sizes),
                "known": [texts_of(m) for m in self.known],
                "floor": texts_of(self.floor),
                "stock": self.stock_size,
                "stock_bottom": [CARD_NAMES[c] for c in self.stock_bottom],
                "initial_floor": [CARD_NAMES[c] for c in self.initial_floor],
                "buried": [CARD_NAMES[c] for c in self.buried],
                "plays": [{"seat": p.seat, "move": p.move.text(), "basra": p.basra} for p in plays],
            }
        )
        if brief:
            out["plays_from"] = len(self.plays) - len(plays)
        else:
            out["captured"] = [texts_of(m) for m in self.captured]
        out.update(
            {
                "pile_sizes": [m.bit_count() for m in self.captured],
                "basras": list(self.basras),
                "basra_points": list(self.basra_points),
                "last_capture_side": self.last_capture_side,
                "scores": list(self.scores),
                "carry": self.carry,
                "past_rounds": [r.to_json() for r in self.past_rounds],
            }
        )
        return out

    def __repr__(self) -> str:
        return (
            f"<PublicView round {self.round_index} {self.phase}: "
            f"floor [{' '.join(texts_of(self.floor))}]>"
        )


class View(PublicView):
    """A snapshot of the game as one seat sees it: the public view plus the seat's hand.

    Every field is an int, a card mask, a tuple or the frozen rules, so a view
    can be handed to a bot without giving it any way into the game.
    """

    __slots__ = ("hand", "seat")

    seat: int
    hand: int

    @property
    def side(self) -> int:
        """The side this seat plays for."""
        return self.side_of[self.seat]

    @property
    def is_my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.phase == PHASE_PLAY and self.turn == self.seat

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves when it is to move, else an empty list."""
        if self.phase != PHASE_PLAY or self.turn != self.seat:
            return []
        return generate_moves(self.rules, cards_of(self.hand), self.floor)

    def unseen(self) -> int:
        """The cards this seat cannot place: in other hands or the stock, where unknown."""
        located = self.floor | self.gone
        for mask in self.known:
            located |= mask
        for mask in self.captured:
            located |= mask
        for card in self.stock_bottom:
            located |= 1 << card
        return pack_mask(self.rules.pack) & ~located

    def key(self) -> tuple[object, ...]:
        """An information-state key: equal exactly when the seat knows the same things."""
        return (
            self.seat,
            self.round_index,
            self.scores,
            self.carry,
            self.hand,
            self.initial_floor,
            self.buried,
            tuple((p.seat, p.move.card, p.move.take) for p in self.plays),
        )

    def to_json(self, *, brief: bool = False) -> dict[str, Any]:
        """The public view's JSON (:meth:`PublicView.to_json`) plus this seat's own fields."""
        out = super().to_json(brief=brief)
        out["seat"] = self.seat
        out["side"] = self.side
        out["hand"] = texts_of(self.hand)
        out["legal"] = [m.text() for m in self.legal_moves()]
        return out

    def __repr__(self) -> str:
        return (
            f"<View seat {self.seat} round {self.round_index} {self.phase}: "
            f"hand [{' '.join(texts_of(self.hand))}] floor [{' '.join(texts_of(self.floor))}]>"
        )


def _fill_public(view: PublicView, state: GameState) -> None:
    """Set every public field of ``view`` from ``state`` (the one place they are read)."""
    hands = state.hands
    view.variant = state.variant
    view.rules = state.rules
    view.players = state.players
    view.teams = state.teams
    view.side_of = state.side_of
    view.phase = state.phase
    view.round_index = len(state.rounds) - 1
    view.dealer = state.dealer
    view.turn = state.turn
    view.hand_sizes = tuple([h.bit_count() for h in hands])
    view.floor = state.floor
    view.stock_size = len(state.stock) - state.stock_pos
    view.captured = tuple(state.piles)
    view.basras = tuple(state.basras)
    view.basra_points = tuple(state.basra_points)
    view.last_capture_side = state.last_capture_side
    view.lone_trail = state.lone_trail
    view.scores = tuple(state.scores)
    view.carry = state.carry
    if state.rounds:
        current = state.rounds[-1]
        view.initial_floor = current.initial_floor
        view.buried = current.buried
        view.plays = tuple(current.plays)
        view.past_rounds = tuple([r.result for r in state.rounds if r.result is not None])
    else:
        view.initial_floor = view.buried = view.plays = view.past_rounds = ()
    known = [0] * state.players
    bottom: list[Card] = []
    if view.buried:
        in_stock = set(state.stock[state.stock_pos :])
        for card in view.buried:
            if card in in_stock:
                bottom.append(card)
                continue
            for other in range(state.players):
                if hands[other] >> card & 1:
                    known[other] |= 1 << card
    view.known = tuple(known)
    view.stock_bottom = tuple(bottom)
    view.gone = state.out_of_play


def public_view_of(state: GameState) -> PublicView:
    """What everyone at the table may know of ``state`` (see the module docstring)."""
    view = PublicView.__new__(PublicView)
    _fill_public(view, state)
    return view


def view_of(state: GameState, seat: int) -> View:
    """What ``seat`` may know of ``state``: the public view plus its own hand."""
    if not 0 <= seat < state.players:
        raise ValueError(f"seat must be from 0 to {state.players - 1}, not {seat!r}")
    view = View.__new__(View)
    _fill_public(view, state)
    view.seat = seat
    view.hand = state.hands[seat]
    known = list(view.known)
    known[seat] = view.hand
    view.known = tuple(known)
    return view


class Unseen:
    """How the cards a view's seat cannot see may lie: the one place hidden cards are dealt.

    Every other seat holds the cards known to be in its hand (re-buried cards
    dealt to it) plus unseen cards up to its hand size; the stock is the rest
    of the unseen cards, in random order, above the re-buried cards still at
    its bottom. :func:`determinize` and the search's sampler
    (:class:`basra.sim.Sampler`) both deal through this class.
    """

    __slots__ = ("bottom", "cards", "dealt", "needs", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        self.cards = cards_of(view.unseen())
        """The unseen cards in canonical order."""
        self.needs = [
            0 if seat == view.seat else view.hand_sizes[seat] - view.known[seat].bit_count()
            for seat in range(view.players)
        ]
        """Per seat, how many unseen cards its hand holds."""
        self.dealt = sum(self.needs)
        self.bottom = list(view.stock_bottom)
        if self.dealt + view.stock_size - len(self.bottom) != len(self.cards):
            raise ValueError(
                "the view is inconsistent: unseen cards do not fill the hands and stock"
            )

    def hands(self, rng: random.Random) -> list[int]:
        """Every hand: this seat's own, the others' known cards plus unseen ones at random."""
        chosen = rng.sample(self.cards, self.dealt)
        view = self.view
        hands = list(view.known)
        hands[view.seat] = view.hand
        pos = 0
        for seat, need in enumerate(self.needs):
            if need:
                mask = hands[seat]
                for card in chosen[pos : pos + need]:
                    mask |= 1 << card
                hands[seat] = mask
                pos += need
        return hands

    def stock(self, hands: list[int], rng: random.Random | None) -> list[Card]:
        """The stock, top first, given the hands: the unseen cards in no hand, shuffled by
        ``rng`` (``None``: left in canonical order for the caller to shuffle), then the
        re-buried cards at the bottom."""
        held = 0
        for seat, hand in enumerate(hands):
            if seat != self.view.seat:
                held |= hand
        rest = [card for card in self.cards if not held >> card & 1]
        if rng is not None:
            shuffle_cards(rest, rng)
        return rest + self.bottom


def shuffle_cards(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place, uniformly (sorting by random keys; see
    :func:`basra.state.shuffled_pack`)."""
    random_ = rng.random
    cards.sort(key=lambda _: random_())


def determinize(view: View, rng: random.Random) -> GameState:
    """A full state consistent with ``view``: unseen cards dealt uniformly at random.

    Other seats get their known cards plus random unseen ones up to their hand
    sizes; the stock is the remaining unseen cards in random order above the
    re-buried cards still at its bottom (:class:`Unseen`). The state's current
    round carries the view's plays, but :meth:`GameState.pop` cannot go back
    before this point.
    """
    unseen = Unseen(view)
    hands = unseen.hands(rng)
    stock = unseen.stock(hands, rng)
    n = view.players
    first_dealer = (view.dealer - view.round_index) % n
    rounds = [
        RoundLog((first_dealer + i) % n, None, (), (), [], result)
        for i, result in enumerate(view.past_rounds)
    ]
    if view.round_index >= len(rounds):
        rounds.append(
            RoundLog(view.dealer, None, view.initial_floor, view.buried, list(view.plays))
        )
    elif rounds:
        rounds[-1] = RoundLog(
            view.dealer, None, view.initial_floor, view.buried, list(view.plays), rounds[-1].result
        )
    return GameState.assemble(
        variant=view.variant,
        rules=view.rules,
        players=n,
        teams=view.teams,
        first_dealer=first_dealer,
        phase=view.phase,
        rounds=rounds,
        turn=view.turn,
        hands=hands,
        floor=view.floor,
        stock=stock,
        piles=list(view.captured),
        basras=list(view.basras),
        basra_points=list(view.basra_points),
        last_capture_side=view.last_capture_side,
        lone_trail=view.lone_trail,
        scores=list(view.scores),
        carry=view.carry,
        out_of_play=view.gone,
    )
