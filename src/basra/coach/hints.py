"""Hints that tell the truth: the move and its reason come from one analysis.

:func:`hint` runs :func:`~basra.coach.analysis.analyse` on the seat's view and
suggests the move worth the most. Its reason is built only from facts of that
move, each from the engine: what it takes (:func:`~basra.kernel.generate_moves`),
its basra (:func:`~basra.transition.play_basra`) and the points it scores at
once (:func:`~basra.transition.immediate_points`), what the floor it leaves
offers the next player (the most any card this seat cannot place could take
there, found the same way), and what the analysis says it is worth against
the next best move::

    7♠ takes 4♥ 3♣ and leaves nothing they can take: +2.1 points from now against 9♦'s +0.4

Points in a hint are counted *from now*, and say so: the expected round margin of the
move (:class:`~basra.coach.analysis.MoveEstimate`) less what the sides have
already banked this round (card points and basras in their piles), so the
numbers say what the rest of the round is expected to bring. A review
(:mod:`basra.coach.review`) grades the same moves by the whole round's expected margin,
what is banked included, and says so too: the two differ by what is banked. The hint sees
only the seat's view; the cards it names as the next player's are cards this
seat cannot place, never the next player's real hand.

:meth:`Hint.facts_json` gives the same facts as codes and card texts, for front
ends that put them into words in other languages (the web page).

>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState.from_position(
...     "egyptian", floor=["4S"], hands=[["6H", "KC"], ["10H", "2D"]], turn=0)
>>> advice = hint(view_of(state, 0), samples=200)
>>> advice.move.text()
'KC'
>>> advice.reason.startswith("K♣ goes on the floor and leaves nothing they can take: ")
True
>>> reply = advice.facts_json()["alternative"]["reply"]   # what trailing 6♥ would leave
>>> reply["rank"], reply["take"], reply["basra"]
('10', ['4S', '6H'], 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from basra.cards import CARD_NAMES, RANK_NAMES, Card, cards_of
from basra.coach.analysis import Analysis, MoveEstimate, analyse
from basra.describe import card_label
from basra.kernel import generate_moves
from basra.moves import Move
from basra.scoring import pile_points
from basra.transition import immediate_points, lone_after, play_basra
from basra.view import View

__all__ = [
    "HINT_SAMPLES",
    "Hint",
    "MoveFacts",
    "Reply",
    "banked_margin",
    "hint",
    "move_facts",
    "reason_text",
]

HINT_SAMPLES = 600
"""Deals a hint's analysis plays out: a few hundredths of a second with the compiled
kernel, well under a second on the pure-Python engine (which caps it at 300)."""


@dataclass(frozen=True)
class Reply:
    """The most the next player could take from the floor a move leaves.

    Found over every card the mover cannot place (and the cards known to be in
    the next player's hand), so it says what *could* happen, never what will.
    It names a rank, never one of those cards: the seat never saw them.
    """

    rank: int
    """The rank of a card that would take the most (0 = ace ... 12 = king)."""
    take: int
    """The cards it would take (a mask: floor cards, all seen)."""
    points: int
    """The points it would score at once: point cards (its own included) and basra."""
    basra: int
    """Its basra points (0: none)."""


@dataclass(frozen=True)
class MoveFacts:
    """What a move does, from the engine: what it takes, scores and leaves."""

    move: Move
    basra: int
    """The basra points it scores (0: none)."""
    card_points: int
    """The points of the point cards it captures (the played card included)."""
    floor_after: int
    """The floor it leaves (a mask)."""
    last: bool
    """True when it is the round's last card (nobody plays after it)."""
    reply: Reply | None
    """The most the next player could take after it; None when nothing can be taken."""
    value: float
    """The analysis's expected points from now (see the module docstring)."""


@dataclass(frozen=True)
class Hint:
    """A suggested move, the facts behind it, and a one-line reason in English."""

    move: Move
    reason: str
    facts: MoveFacts
    alternative: MoveFacts | None
    """The next best move (None when the move is the only one)."""
    exact: bool
    """True when nothing was hidden and the values are exact."""
    analysis: Analysis

    def facts_json(self) -> dict[str, Any]:
        """The facts as JSON values (card text, codes) for a front end to put into words."""
        return {
            **_facts_json(self.facts),
            "alternative": _facts_json(self.alternative) if self.alternative else None,
            "exact": self.exact,
        }


def _facts_json(facts: MoveFacts) -> dict[str, Any]:
    move = facts.move
    reply = facts.reply
    return {
        "move": move.text(),
        "card": CARD_NAMES[move.card],
        "take": [CARD_NAMES[c] for c in move.taken()],
        "basra": facts.basra,
        "card_points": facts.card_points,
        "floor_after": [CARD_NAMES[c] for c in cards_of(facts.floor_after)],
        "last": facts.last,
        "reply": None
        if reply is None
        else {
            "rank": RANK_NAMES[reply.rank],
            "take": [CARD_NAMES[c] for c in cards_of(reply.take)],
            "points": reply.points,
            "basra": reply.basra,
        },
        "value": round(facts.value, 2),
    }


def banked_margin(view: View) -> float:
    """What the mover's side has banked this round less the mean of the other sides':
    the card points in the piles and the basra points (the majority is not yet decided)."""
    rules = view.rules
    banked = [
        pile_points(rules, pile) + basra
        for pile, basra in zip(view.captured, view.basra_points, strict=True)
    ]
    me = view.side
    others = [points for side, points in enumerate(banked) if side != me]
    return banked[me] - sum(others) / len(others)


def move_facts(view: View, move: Move, value: float = 0.0) -> MoveFacts:
    """What ``move`` does in ``view`` (a legal move of the seat to move), from the engine."""
    rules = view.rules
    floor = view.floor
    card, take = move
    last = view.is_last_play
    basra = play_basra(rules, card, take, floor, lone_trail=view.lone_trail, last_play=last)
    scored = immediate_points(rules, card, take, floor, lone_trail=view.lone_trail, last_play=last)
    after = floor ^ take if take else floor | 1 << card
    reply = None if last else _best_reply(view, move, after)
    return MoveFacts(move, basra, scored - basra, after, last, reply, value)


def _best_reply(view: View, move: Move, floor: int) -> Reply | None:
    """The most any card the next player may hold could take from ``floor``."""
    rules = view.rules
    nxt = (view.seat + 1) % view.players
    candidates = view.unseen() | view.known[nxt]
    for card in view.stock_bottom:
        candidates |= 1 << card
    candidates &= ~(1 << move.card) & ~view.hand
    lone = lone_after(view.floor, move.take)
    reply_is_last = view.stock_size == 0 and sum(view.hand_sizes) - 1 == 1
    best: dict[Card, tuple[int, int, int]] = {}
    for card in cards_of(candidates):
        top: tuple[int, int, int] | None = None
        for option in generate_moves(rules, [card], floor):
            if not option.take:
                continue
            points = immediate_points(
                rules, card, option.take, floor, lone_trail=lone, last_play=reply_is_last
            )
            basra = play_basra(
                rules, card, option.take, floor, lone_trail=lone, last_play=reply_is_last
            )
            if top is None or (points, basra) > top[:2]:
                top = (points, basra, option.take)
        if top is not None:
            best[card] = top
    if not best:
        return None
    # The most points, a basra first, then a card that is not a jack (the
    # surprising danger is the numeral), then the lowest.
    card = max(best, key=lambda c: (best[c][0], best[c][1], c >> 2 != 10, -c))
    points, basra, take = best[card]
    return Reply(card >> 2, take, points, basra)


def hint(view: View, *, samples: int = HINT_SAMPLES, seed: int = 0) -> Hint:
    """The move worth the most in ``view`` (the seat to move), and why, from one analysis."""
    if not view.is_my_turn:
        raise ValueError("a hint needs the view of the seat to move")
    analysis = analyse(view, samples=samples, seed=seed)
    banked = banked_margin(view)
    best = analysis.best
    facts = move_facts(view, best.move, best.points - banked)
    alternative = None
    if len(analysis.moves) > 1:
        second = _alternative(analysis.moves)
        alternative = move_facts(view, second.move, second.points - banked)
    reason = reason_text(facts, alternative, exact=analysis.exact)
    return Hint(best.move, reason, facts, alternative, analysis.exact, analysis)


def _alternative(moves: tuple[MoveEstimate, ...]) -> MoveEstimate:
    """The next best move, preferring another card to another set of the same card."""
    others = [m for m in moves[1:] if m.move.card != moves[0].move.card]
    return others[0] if others else moves[1]


# ---------------------------------------------------------------------- English

_RANK_WORDS = {0: "an ace", 7: "an 8", 10: "a jack", 11: "a queen", 12: "a king"}


def _rank_words(rank: int) -> str:
    return _RANK_WORDS.get(rank, f"a {rank + 1}")


def _cards(mask: int) -> str:
    return " ".join(card_label(c) for c in cards_of(mask))


def _head(facts: MoveFacts) -> str:
    move = facts.move
    name = card_label(move.card)
    if not move.take:
        return f"{name} goes on the floor"
    text = f"{name} takes {_cards(move.take)}"
    if facts.basra:
        text += f" for a basra (+{facts.basra})"
    elif facts.card_points:
        text += f" ({facts.card_points} point{'s' * (facts.card_points != 1)} in cards)"
    return text


def _leaves(facts: MoveFacts) -> str:
    if facts.last:
        return ", the round's last card"
    reply = facts.reply
    if not facts.floor_after:
        return " and leaves the floor empty"
    if reply is None:
        return " and leaves nothing they can take"
    who = _rank_words(reply.rank)
    if reply.basra:
        return f", but {who} would clear the floor for a basra (+{reply.basra})"
    if reply.points:
        plural = "s" * (reply.points != 1)
        takes = _cards(reply.take)
        return f" and leaves them at most {reply.points} point{plural} ({who} takes {takes})"
    return " and leaves only cards worth no points"


def _alternative_words(facts: MoveFacts, other: MoveFacts) -> str:
    if other.move.card != facts.move.card:
        return card_label(other.move.card)
    return f"taking {_cards(other.move.take)}" if other.move.take else "laying it down"


def reason_text(facts: MoveFacts, other: MoveFacts | None, *, exact: bool = False) -> str:
    """Why play the move of ``facts`` rather than ``other`` (the next best), in one line
    of English with card symbols."""
    text = _head(facts) + _leaves(facts)
    if other is None:
        text += ": the only move"
    else:
        if f"{other.value:+.1f}" == f"{facts.value:+.1f}":
            text += (
                f": {facts.value:+.1f} points from now, as good as "
                f"{_alternative_words(facts, other)}"
            )
            return text + (" (exact: every card is known)" if exact else "")
        if other.move.card != facts.move.card:
            against = f"{card_label(other.move.card)}'s {other.value:+.1f}"
        elif other.move.take:
            against = f"{other.value:+.1f} taking {_cards(other.move.take)} instead"
        else:
            against = f"{other.value:+.1f} laying it down instead"
        text += f": {facts.value:+.1f} points from now against {against}"
    if exact:
        text += " (exact: every card is known)"
    return text
