"""The simplest bots: ``random``, and ``greedy`` (the sensible one-move player)."""

from __future__ import annotations

from basra import transition
from basra.bots.base import Bot, BotError, register_bot
from basra.cards import cards_of
from basra.kernel import generate_moves
from basra.moves import Move
from basra.rules import Rules
from basra.view import View

__all__ = ["GreedyBot", "RandomBot", "immediate_points"]


class RandomBot(Bot):
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        return moves[int(self.rng.random() * len(moves))]


def immediate_points(view: View, move: Move) -> int:
    """The basra points and point-card points a move scores at once."""
    return transition.immediate_points(
        view.rules,
        move.card,
        move.take,
        view.floor,
        lone_trail=view.lone_trail,
        last_play=view.is_last_play,
    )


class GreedyBot(Bot):
    """The sensible one-move player: points now, less what the next player can take.

    Each legal move is worth what it scores at once (its basra and the point
    cards it takes, each card taken a tenth of a point towards the majority),
    less the next player's likely best immediate take from the floor it
    leaves: every card that player may hold (the unseen cards and the ones it
    is known to hold) counted by the chance it holds one, the best first.
    Among trails that give away alike it keeps point cards and jacks, and
    drops low numerals before pictures. Ties are broken at random by its seed.
    With ``blunder`` (option ``greedy:blunder=0.3``) it plays a random legal
    move that share of the time: the ``easy`` level.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, blunder: float = 0.0) -> None:
        super().__init__(seed)
        self.blunder = blunder

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if self.blunder and self.rng.random() < self.blunder:
            return moves[int(self.rng.random() * len(moves))]
        reply = _Reply(view)
        values = [_greedy_value(view, move, reply) for move in moves]
        best = max(values)
        choices = [m for m, v in zip(moves, values, strict=True) if v >= best - 1e-9]
        return choices[int(self.rng.random() * len(choices))]


def card_value(rules: Rules) -> float:
    """What one more card in the pile is roughly worth towards the majority bonus."""
    return 0.1 + rules.majority_bonus / rules.pack


class _Reply:
    """What the next player may hold, for :class:`GreedyBot`'s look one reply ahead."""

    def __init__(self, view: View) -> None:
        rules = view.rules
        nxt = (view.seat + 1) % view.players
        known = view.known[nxt]
        in_hand = view.hand_sizes[nxt]
        if in_hand == 0 and view.stock_size:  # we play the deal's last card: a new hand
            in_hand = min(rules.hand_size, view.stock_size // view.players)
        unseen = view.unseen()
        hidden = unseen.bit_count()
        need = max(in_hand - known.bit_count(), 0)
        self.sure = cards_of(known)
        self.maybe = cards_of(unseen)
        self.chance = min(need / hidden, 1.0) if hidden else 0.0
        self.plays = in_hand > 0 and not view.is_last_play
        self.per_card = card_value(rules)

    def expected_best(self, view: View, floor: int, lone_trail: bool) -> float:
        """The next player's likely best immediate take from ``floor``."""
        if not self.plays or not floor:
            return 0.0
        rules = view.rules

        per_card = self.per_card

        def best_of(card: int) -> float:
            return max(
                transition.immediate_points(
                    rules, card, take, floor, lone_trail=lone_trail, last_play=False
                )
                + (per_card * (take.bit_count() + 1) if take else 0.0)
                for _, take in generate_moves(rules, (card,), floor)
            )

        sure = max((best_of(card) for card in self.sure), default=0.0)
        gains = sorted((best_of(card) for card in self.maybe), reverse=True)
        expected = 0.0
        miss = 1.0
        for gain in gains:
            if gain <= 0:
                break
            expected += gain * self.chance * miss
            miss *= 1.0 - self.chance
        return max(sure, expected)


def _greedy_value(view: View, move: Move, reply: _Reply) -> float:
    rules = view.rules
    card, take = move
    floor = view.floor
    if take:
        value = immediate_points(view, move) + reply.per_card * (take.bit_count() + 1)
        after, lone = floor ^ take, False
    else:
        value = -1.5 * rules.card_points[card]
        if rules.sweepers >> card & 1:
            value -= 4.0
        elif card < 40:
            value += 0.05 * (9 - (card >> 2))  # low numerals go first
        after, lone = floor | 1 << card, transition.lone_after(floor, take)
    return value - reply.expected_best(view, after, lone)


def _no_options(kind: type[Bot]) -> object:
    def factory(options: str, seed: int | None) -> Bot:
        if options:
            raise BotError(f"bot {kind.name!r} takes no options, not {options!r}")
        return kind(seed)

    return factory


register_bot(
    "random",
    _no_options(RandomBot),  # type: ignore[arg-type]
    "a uniformly random legal move",
)


def _greedy(options: str, seed: int | None) -> Bot:
    if not options:
        return GreedyBot(seed)
    name, sep, value = options.partition("=")
    try:
        blunder = float(value) if sep and name.strip() == "blunder" else -1.0
    except ValueError:
        blunder = -1.0
    if not 0.0 <= blunder <= 1.0:
        raise BotError(f"greedy takes one option, blunder=P with P from 0 to 1, not {options!r}")
    return GreedyBot(seed, blunder)


register_bot(
    "greedy",
    _greedy,
    "the most points now (basras, point cards, cards) less what the next player can "
    "likely take from the floor it leaves; low numerals are dropped first",
)
