"""What a seat knows, as numbers for the belief model (standard library only).

:func:`encode` turns a seat's :class:`~basra.view.View` into the model's input:
only what that seat may know (its hand, the floor, every card seen this
round, the other seats' plays in this deal, the hand sizes, the stock, the
rules), never another hand. The target of a training example
(:func:`locations`) is where each unseen card really was.

**Locations** are counted from the seat: 0 is the stock, 1 the next seat to
play, 2 the one after, 3 the one after that. Only the current deal's plays
are evidence about the other hands (earlier hands were all played face up).

**Evidence** of one play by another seat, for every card ``c`` it might have
held (:func:`play_evidence`): what the best move with ``c`` would have been
worth to the playout policy (:func:`basra.sim.policy_value`) less what
the move made was worth (the *gain* of holding ``c``), whether ``c`` would have
captured when the seat trailed, and whether it would have made a basra that
the seat did not make. For each other seat and card the input sums the
positive gains over the seat's plays in this deal, takes their largest, and
counts the declined captures and basras.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from basra.kernel import generate_moves
from basra.moves import Move
from basra.rules import Rules
from basra.sim import deal_decisions, deal_starts, policy_value
from basra.state import PHASE_PLAY
from basra.transition import play_basra
from basra.view import Unseen, View

__all__ = [
    "CARDS",
    "FEATURES",
    "LOCATIONS",
    "Encoded",
    "encode",
    "locations",
    "play_evidence",
]

CARDS = 52
LOCATIONS = 4
"""0 the stock, 1-3 the seats after this one in the order of play."""

_SEVEN_DIAMONDS = ("plain", "egyptian", "yemeni", "ethiopian", "no_basra")
_BASRA_MODES = ("clear", "lone_match", "lone_match_or_sum")
GLOBALS = 36
"""Numbers about the table, the rules and the round."""
STATUS = 4
"""Per card: unseen, in this seat's hand, on the floor, seen elsewhere (or out of play)."""
EVIDENCE = 4
"""Per other seat and card: sum and largest gain of holding it, declined captures, basras."""
FEATURES = GLOBALS + CARDS * STATUS + (LOCATIONS - 1) * CARDS * EVIDENCE
"""The length of an encoded input."""

Evidence = tuple[tuple[float, bool, bool], ...]
"""Per card 0-51: (gain of holding it, it would have captured when the play was a
trail, it would have made a basra the play did not make)."""


@lru_cache(maxsize=8192)
def play_evidence(rules: Rules, floor: int, lone: bool, move: Move) -> Evidence:
    """What one play on ``floor`` says about each card the player might have held (kept:
    a deal's plays come back in every later decision's view)."""
    card, take = move
    chosen = policy_value(rules, card, take, floor, lone)
    chose_basra = (
        bool(take)
        and take == floor
        and play_basra(rules, card, take, floor, lone_trail=lone, last_play=False) > 0
    )
    out = []
    for other in range(CARDS):
        best = -math.inf
        captures = basra = False
        for c, t in generate_moves(rules, [other], floor):
            value = policy_value(rules, c, t, floor, lone)
            best = max(best, value)
            if t:
                captures = True
                if t == floor and play_basra(rules, c, t, floor, lone_trail=lone, last_play=False):
                    basra = True
        gain = best - chosen if best > -math.inf else 0.0
        out.append((gain, captures and not take, basra and not chose_basra))
    return tuple(out)


class Encoded:
    """One seat's input to the model, with what the sampler needs to read its output."""

    __slots__ = ("counts", "features", "seats", "unseen")

    def __init__(
        self, features: list[float], unseen: int, counts: list[int], seats: list[int]
    ) -> None:
        self.features = features
        """:data:`FEATURES` numbers."""
        self.unseen = unseen
        """The mask of the cards the seat cannot place (the ones the model places)."""
        self.counts = counts
        """Per location, how many unseen cards it holds (0: none, or no such seat)."""
        self.seats = seats
        """Per location 1-3, the seat it is (-1: no such seat); location 0 is the stock."""


EvidenceCache = dict[tuple[int, bool, Move], Evidence]
"""Evidence of plays already worked out, by (floor, lone, move) (a game's plays repeat
in the examples of every later decision of the same deal)."""


def encode(view: View, cache: EvidenceCache | None = None) -> Encoded:
    """The model's input for ``view``'s seat (see the module docstring)."""
    if view.phase != PHASE_PLAY:
        raise ValueError("the belief model reads a round being played")
    rules = view.rules
    players = view.players
    me = view.seat
    unseen = Unseen(view)
    unseen_mask = view.unseen()
    n_unseen = len(unseen.cards)
    seats = [-1] * LOCATIONS
    counts = [0] * LOCATIONS
    counts[0] = n_unseen - unseen.dealt
    for location in range(1, players):
        seat = (me + location) % players
        seats[location] = seat
        counts[location] = unseen.needs[seat]
    per_hand = rules.hand_size * players
    plays_in_deal = 0
    decisions = deal_decisions(view)
    played = [0] * LOCATIONS
    evidence = [[0.0] * (CARDS * EVIDENCE) for _ in range(LOCATIONS - 1)]
    for decision in decisions:
        location = (decision.seat - me) % players
        played[location] += 1
        key = (decision.floor, decision.lone, decision.move)
        found = cache.get(key) if cache is not None else None
        if found is None:
            found = play_evidence(rules, decision.floor, decision.lone, decision.move)
            if cache is not None:
                cache[key] = found
        row = evidence[location - 1]
        for card, (gain, captured, basra) in enumerate(found):
            base = card * EVIDENCE
            if gain > 0:
                row[base] += gain / 10.0
                row[base + 1] = max(row[base + 1], gain / 10.0)
            if captured:
                row[base + 2] += 1 / 3
            if basra:
                row[base + 3] += 1 / 3
    if view.plays:
        starts = [s for s in deal_starts(rules, players) if s <= len(view.plays)]
        plays_in_deal = len(view.plays) - starts[-1]
    out = [
        float(players == 2),
        float(players == 3),
        float(players == 4),
        float(view.teams),
        rules.hand_size / 6,
        min(rules.majority_bonus, 60) / 30,
        *(float(rules.basra_mode == mode) for mode in _BASRA_MODES),
        float(rules.basra_value != "flat"),
        *(float(rules.seven_diamonds == kind) for kind in _SEVEN_DIAMONDS),
        min(rules.jack_on_lone_jack, 100) / 50,
        float(rules.pack == 44),
        view.stock_size / 48,
        n_unseen / 48,
        plays_in_deal / per_hand,
        view.floor.bit_count() / 10,
        float(view.lone_trail),
        counts[0] / 48,
    ]
    for location in range(1, LOCATIONS):
        seat = seats[location]
        present = seat >= 0
        out += [
            float(present),
            float(present and view.side_of[seat] == view.side_of[me]),
            counts[location] / 6,
            played[location] / 6,
        ]
    out += [0.0] * (GLOBALS - len(out))
    floor = view.floor
    hand = view.hand
    for card in range(CARDS):
        bit = 1 << card
        if unseen_mask & bit:
            out += (1.0, 0.0, 0.0, 0.0)
        elif hand & bit:
            out += (0.0, 1.0, 0.0, 0.0)
        elif floor & bit:
            out += (0.0, 0.0, 1.0, 0.0)
        else:
            out += (0.0, 0.0, 0.0, 1.0)
    for row in evidence:
        out += row
    assert len(out) == FEATURES
    return Encoded(out, unseen_mask, counts, seats)


def locations(encoded: Encoded, hands: Sequence[int]) -> list[int]:
    """Where each card really is, for training: per card 0-51 its location (-1: not an
    unseen card), from the true ``hands`` of every seat."""
    out = [-1] * CARDS
    unseen = encoded.unseen
    for card in range(CARDS):
        if not unseen >> card & 1:
            continue
        out[card] = 0
        for location in range(1, LOCATIONS):
            seat = encoded.seats[location]
            if seat >= 0 and hands[seat] >> card & 1:
                out[card] = location
    return out


# ------------------------------------------------ per card and hand: the factored model
#
# The factored network reads, for every card and every other hand, the same few
# numbers: the evidence of that hand's plays about that card, what the card is, the
# hand's own numbers and the table's. One small network scores each (card, hand)
# pair; the stock scores 0. It shares what it learns across cards and hands.

_STATUS_AT = GLOBALS
_EVIDENCE_AT = GLOBALS + CARDS * STATUS
_HAND_AT = 23
"""Where the globals hold the numbers of location 1 (four a location)."""
_STANDARD_POINTS = {0: 1, 10: 1}
"""Points by rank (aces and jacks); 2♣ and 10♦ are added below."""


def _identity() -> list[list[float]]:
    rows = []
    for card in range(CARDS):
        rank, suit = card >> 2, card & 3
        points = _STANDARD_POINTS.get(rank, 0)
        if card == 7:  # 2♣
            points = 2
        elif card == 38:  # 10♦
            points = 3
        row = [0.0] * 13 + [0.0] * 4 + [points / 3, float(rank == 10), float(card == 26)]
        row[rank] = 1.0
        row[13 + suit] = 1.0
        rows.append(row)
    return rows


IDENTITY = _identity()
"""Per card: its rank and suit (one-hot), its points (standard), jack, 7♦."""
CARD_INPUTS = 4 + len(IDENTITY[0]) + 4 + GLOBALS + 3
"""The inputs of one (card, hand) pair: evidence, identity, the hand's numbers, the
globals, and the card's rank-mates in this seat's hand, on the floor and unseen."""


def expand(features: Sequence[float]) -> list[list[list[float]]]:
    """The factored model's inputs from an encoded view: per card 0-51, per other hand
    (locations 1-3), :data:`CARD_INPUTS` numbers (plain Python; :func:`expand_batch` is
    the same with numpy)."""
    globals_ = list(features[:GLOBALS])
    status = features[_STATUS_AT:_EVIDENCE_AT]
    mates = [[0.0, 0.0, 0.0] for _ in range(13)]
    for card in range(CARDS):
        base = card * STATUS
        rank = card >> 2
        mates[rank][0] += status[base + 1] / 4  # in this seat's hand
        mates[rank][1] += status[base + 2] / 4  # on the floor
        mates[rank][2] += status[base] / 4  # unseen
    out = []
    for card in range(CARDS):
        rows = []
        for location in range(1, LOCATIONS):
            at = _EVIDENCE_AT + ((location - 1) * CARDS + card) * EVIDENCE
            hand = _HAND_AT + 4 * (location - 1)
            rows.append(
                list(features[at : at + EVIDENCE])
                + IDENTITY[card]
                + globals_[hand : hand + 4]
                + globals_
                + mates[card >> 2]
            )
        out.append(rows)
    return out


def expand_batch(features: object) -> object:
    """:func:`expand` of many encoded views at once (numpy): (n, :data:`FEATURES`) to
    (n, 52, 3, :data:`CARD_INPUTS`) float32."""
    import numpy

    x = numpy.asarray(features, dtype=numpy.float32)
    n = len(x)
    globals_ = x[:, :GLOBALS]
    status = x[:, _STATUS_AT:_EVIDENCE_AT].reshape(n, CARDS, STATUS)
    by_rank = status.reshape(n, 13, 4, STATUS).sum(axis=2) / 4  # (n, 13, status)
    mates = by_rank[:, :, [1, 2, 0]]  # hand, floor, unseen
    mates = numpy.repeat(mates, 4, axis=1)  # (n, 52, 3)
    evidence = x[:, _EVIDENCE_AT:].reshape(n, LOCATIONS - 1, CARDS, EVIDENCE)
    evidence = evidence.transpose(0, 2, 1, 3)  # (n, 52, 3, 4)
    identity = numpy.asarray(IDENTITY, dtype=numpy.float32)  # (52, 19)
    hands = globals_[:, _HAND_AT : _HAND_AT + 12].reshape(n, 1, LOCATIONS - 1, 4)
    parts = [
        evidence,
        numpy.broadcast_to(identity[None, :, None, :], (n, CARDS, LOCATIONS - 1, len(IDENTITY[0]))),
        numpy.broadcast_to(hands, (n, CARDS, LOCATIONS - 1, 4)),
        numpy.broadcast_to(globals_[:, None, None, :], (n, CARDS, LOCATIONS - 1, GLOBALS)),
        numpy.broadcast_to(mates[:, :, None, :], (n, CARDS, LOCATIONS - 1, 3)),
    ]
    return numpy.concatenate(parts, axis=3).astype(numpy.float32)
