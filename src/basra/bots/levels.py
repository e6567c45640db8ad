"""Bot levels for people (``easy`` ... ``expert``) and hints.

Front ends (terminal, web) name levels, never bot classes, so that the bots
behind a level can improve without touching them. The measured strength of
each level is in docs/BOTS.md.

- ``easy``: greedy, with a random move a third of the time;
- ``medium``: the heuristic bot (the seed's strategy);
- ``hard``: ISMCTS with 3,000 iterations (the ``expert`` before the compiled
  kernel; a few ms a move with it);
- ``expert``: each legal move valued by four independent searches of 3,000
  iterations that start with it, the best mean played (the coach's analysis; a
  few hundredths of a second a move on one core with the compiled kernel).

The ``cheater`` sees every hand and is never a level.
"""

from __future__ import annotations

from dataclasses import dataclass

from basra.bots.base import Bot, BotError, make_bot, register_bot
from basra.bots.heuristic import MoveValue, evaluate_moves
from basra.cards import CARD_NAMES, format_cards
from basra.moves import Move
from basra.view import View

__all__ = ["LEVELS", "Hint", "explain", "hint"]

LEVELS: dict[str, str] = {
    "easy": "greedy:blunder=0.33",
    "medium": "heuristic",
    "hard": "ismcts:iterations=3000",
    "expert": "ismcts:iterations=3000,forced=4",
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


_LEVEL_TEXT = {
    "easy": "for beginners: takes what it sees, and often plays at random",
    "medium": "plays the seed's strategy: keeps jacks, avoids setting up basras",
    "hard": "searches (ISMCTS, 3000 iterations a move)",
    "expert": "searches every move four times over (4 x 3000 iterations each): the strongest",
}

for _name in LEVELS:
    register_bot(
        _name,
        _level(_name),  # type: ignore[arg-type]
        f"level: {_LEVEL_TEXT[_name]} ({LEVELS[_name]})",
    )


@dataclass(frozen=True)
class Hint:
    """A suggested move and a one-line reason a person can read."""

    move: Move
    reason: str


def hint(view: View, level: str = "expert", seed: int | None = 0) -> Hint:
    """The move the ``level`` bot would play in this view, and why, in one line.

    >>> import random
    >>> from basra.state import GameState
    >>> from basra.view import view_of
    >>> state = GameState("egyptian")
    >>> state.deal(rng=random.Random(2))
    >>> advice = hint(view_of(state, state.turn), "medium")
    >>> advice.move in state.legal_moves() and len(advice.reason) > 10
    True
    """
    if not view.is_my_turn:
        raise BotError("a hint needs a view of the seat to move")
    bot = make_bot(level, seed)
    try:
        move = bot.choose(view)
    finally:
        bot.close()
    return Hint(move, explain(view, move))


def explain(view: View, move: Move) -> str:
    """Why ``move`` is a good play in ``view``, in one line, from the heuristic's terms."""
    values = {v.move: v for v in evaluate_moves(view)}
    value = values[move]
    rules = view.rules
    card, take = move
    name = CARD_NAMES[card]
    captures = [v for v in values.values() if v.move.take]
    if len(values) == 1:
        return f"{name} is the only move" + (f": it takes {format_cards(take)}" if take else "")
    if take:
        count = take.bit_count()
        if value.basra:
            head = f"{name} clears the floor: a basra worth {value.basra}"
        elif rules.sweepers >> card & 1 and take == view.floor:
            head = f"{name} sweeps the floor ({count} card{'s' * (count > 1)})"
        else:
            head = f"{name} takes {format_cards(take)}"
        if value.points:
            head += f" and {value.points} point{'s' * (value.points > 1)} in cards"
    else:
        if not captures:
            head = f"nothing can be taken; {name} is the card to drop"
        else:
            head = f"drop {name}: no capture here is worth what it gives away"
    notes = _notes(view, value, values)
    return head + ("; " + notes if notes else "")


def _notes(view: View, value: MoveValue, values: dict[Move, MoveValue]) -> str:
    card, take = value.move
    rules = view.rules
    riskiest = max(v.reply for v in values.values())
    if value.reply >= 4.0:
        return f"your opponent may still take about {value.reply:.0f} points after it"
    if not take and card >> 2 in (11, 12) and riskiest >= 4.0:
        return "a queen or king cannot be summed, so it spoils their basra"
    if riskiest - value.reply >= 4.0:
        return "it leaves your opponent little to take"
    held = view.hand & rules.sweepers & ~(1 << card)
    if held and any(rules.sweepers >> v.move.card & 1 for v in values.values()):
        return f"it keeps your {CARD_NAMES[(held & -held).bit_length() - 1]} for later"
    if value.follow >= 3.0:
        return "it sets up a capture for your next turn"
    higher = view.hand & ~((2 << card) - 1) & ((1 << 40) - 1)
    if not take and card < 40 and higher:
        return "low numerals go first; higher ones combine later"
    return ""
