"""Bot levels for people (``easy`` ... ``expert``) and hints.

Front ends (terminal, web) name levels, never bot classes, so that the bots
behind a level can improve without touching them. Until the strong bots land,
the levels map to the simple ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from basra.bots.base import Bot, BotError, make_bot, register_bot
from basra.bots.simple import immediate_points
from basra.moves import Move
from basra.view import View

__all__ = ["LEVELS", "Hint", "hint"]

LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "greedy",
    "expert": "greedy",
}
"""Level name -> bot spec (see :func:`basra.bots.make_bot`)."""


def _level(name: str) -> object:
    def factory(options: str, seed: int | None) -> Bot:
        if options:
            raise BotError(f"level {name!r} takes no options, not {options!r}")
        bot = make_bot(LEVELS[name], seed)
        bot.name = name
        return bot

    return factory


for _name in LEVELS:
    register_bot(_name, _level(_name))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Hint:
    """A suggested move and a one-line reason a person can read."""

    move: Move
    reason: str


def hint(view: View, level: str = "expert", seed: int | None = 0) -> Hint:
    """The move the ``level`` bot would play in this view, and why, in one line."""
    if not view.is_my_turn:
        raise BotError("a hint needs a view of the seat to move")
    move = make_bot(level, seed).choose(view)
    points = immediate_points(view, move)
    if move.take:
        reason = f"takes {len(move.taken())} cards" + (f" for {points} points" if points else "")
    else:
        reason = "nothing to take that is worth it; this card gives away least"
    return Hint(move, reason)
