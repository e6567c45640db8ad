"""Bots: players that see only their seat's :class:`~basra.view.View`.

Every bot is made by name through :func:`make_bot` (``random``, ``greedy``,
...), is given a seed, and is deterministic for a given seed and budget.
:func:`play_game` plays a whole game between bots.
"""

from basra.bots.base import BOTS, Bot, BotError, OmniscientBot, make_bot, register_bot
from basra.bots.external import ExternalBot
from basra.bots.heuristic import HeuristicBot
from basra.bots.ismcts import CheaterBot, IsmctsBot
from basra.bots.levels import LEVELS
from basra.bots.runner import play_game, play_round
from basra.bots.simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotError",
    "CheaterBot",
    "ExternalBot",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "OmniscientBot",
    "RandomBot",
    "make_bot",
    "play_game",
    "play_round",
    "register_bot",
]
