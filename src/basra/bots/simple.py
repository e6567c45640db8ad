"""The simplest bots: ``random`` and ``greedy`` (best immediate points)."""

from __future__ import annotations

from basra import transition
from basra.bots.base import Bot, BotError, register_bot
from basra.moves import Move
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
    """Takes the most immediate points (basras, point cards), then the most cards.

    When nothing can be taken it trails the card that gives away least: no
    point card, and a low numeral before a picture card. Ties are broken at
    random by its seed. With ``blunder`` (option ``greedy:blunder=0.3``) it
    plays a random legal move that share of the time: the ``easy`` level.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, blunder: float = 0.0) -> None:
        super().__init__(seed)
        self.blunder = blunder

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        rules = view.rules
        if self.blunder and self.rng.random() < self.blunder:
            return moves[int(self.rng.random() * len(moves))]

        def score(move: Move) -> float:
            card, take = move
            if take:
                return 1000 + 10 * immediate_points(view, move) + take.bit_count()
            return -10 * rules.card_points[card] - (card >> 2 == 10) * 50

        best = max(score(m) for m in moves)
        choices = [m for m in moves if score(m) == best]
        return choices[int(self.rng.random() * len(choices))]


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
    "the most immediate points (basras, point cards), then the most cards; "
    "trails the card that gives away least",
)
