"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING

from basra.moves import Move
from basra.view import View

if TYPE_CHECKING:
    from basra.state import GameState

__all__ = [
    "BOTS",
    "BOT_DESCRIPTIONS",
    "Bot",
    "BotError",
    "BotFactory",
    "OmniscientBot",
    "make_bot",
    "register_bot",
    "split_bot_list",
]


class BotError(ValueError):
    """An unknown bot name, a bad bot option, or a bot that failed to answer."""


class Bot(ABC):
    """A player that chooses a move from its seat's view, and nothing else.

    Subclasses implement :meth:`choose`. ``seed`` makes a bot deterministic:
    the same seed, budget and sequence of views give the same moves.
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: View) -> Move:
        """The move to play; ``view.is_my_turn`` is true and a legal move exists."""

    def close(self) -> None:  # noqa: B027 - most bots hold nothing
        """Release what the bot holds (a process, a file). Safe to call twice."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class OmniscientBot(Bot):
    """A bot that sees the whole game: **a measuring stick, never an opponent**.

    It breaks the rule every other bot keeps (a bot sees only its seat's view),
    so it is never behind a level and front ends must not offer it. The runner
    (:func:`basra.bots.play_round`) hands it the full state.
    """

    @abstractmethod
    def choose_with_state(self, state: GameState, view: View) -> Move:
        """The move to play, knowing every hand (``state`` must not be changed)."""

    def choose(self, view: View) -> Move:
        raise BotError(
            f"{self.name!r} sees every hand and cannot play from a view alone; "
            "it is a measuring stick for basra arena, not an opponent"
        )


BotFactory = Callable[[str, "int | None"], Bot]
"""Makes a bot from the option text after ``name:`` (may be empty) and a seed."""

BOTS: dict[str, BotFactory] = {}
BOT_DESCRIPTIONS: dict[str, str] = {}
"""A line on each registered bot, for ``basra bots``."""


def register_bot(name: str, factory: BotFactory, description: str = "") -> None:
    """Make a bot available by name to :func:`make_bot` (and so to every command)."""
    BOTS[name] = factory
    BOT_DESCRIPTIONS[name] = description


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from its name, optionally with options: ``greedy``, ``ismcts:iterations=500``.

    >>> make_bot("random", seed=1).name
    'random'
    """
    name, _, options = spec.strip().partition(":")
    factory = BOTS.get(name)
    if factory is None:
        raise BotError(f"unknown bot {name!r}; the bots are: {', '.join(sorted(BOTS))}")
    return factory(options, seed)


def split_bot_list(text: str) -> list[str]:
    """Bot specs from a comma-separated list whose specs may have options with commas.

    A piece like ``horizon=0`` (an option, no bot name before a colon) belongs
    to the bot before it, so options need no quoting:

    >>> split_bot_list("ismcts:iterations=3000,horizon=0,greedy")
    ['ismcts:iterations=3000,horizon=0', 'greedy']
    >>> split_bot_list("random, random")
    ['random', 'random']
    """
    specs: list[str] = []
    for piece in text.split(","):
        name, equals, _ = piece.partition("=")
        if equals and ":" not in name and specs and ":" in specs[-1]:
            specs[-1] += "," + piece.strip()
        else:
            specs.append(piece.strip())
    return specs
