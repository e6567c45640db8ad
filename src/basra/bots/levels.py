"""Bot levels for people (``easy`` ... ``expert``).

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

The ``cheater`` sees every hand and is never a level. Hints come from the coach
(:func:`basra.coach.hints.hint`): the move and its reason from one analysis.
"""

from __future__ import annotations

from basra.bots.base import Bot, BotError, make_bot, register_bot

__all__ = ["LEVELS"]

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
