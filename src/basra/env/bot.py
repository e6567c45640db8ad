"""A trained policy as a :class:`basra.bots.Bot`, so it can sit at any table.

:class:`PolicyBot` encodes the view it is given exactly as the environments do
(:mod:`basra.env.observation`, :mod:`basra.env.actions`) and asks a function
for an action, so an agent trained in PettingZoo, Gymnasium or OpenSpiel plays
arenas, self-play, the terminal and the web like any other bot.

>>> import random
>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState("egyptian")
>>> state.deal(rng=random.Random(0))
>>> first_legal = lambda observation, mask: int(mask.nonzero()[0][0])
>>> bot = PolicyBot(first_legal, state.rules, players=2, teams=False)
>>> state.is_legal(bot.choose(view_of(state, state.turn)))
True
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from basra.bots import Bot, BotError
from basra.cards import cards_of
from basra.env.actions import action_map, action_text, num_actions
from basra.env.observation import ObservationEncoder, Vector
from basra.moves import Move
from basra.rules import Rules
from basra.view import View

__all__ = ["Policy", "PolicyBot"]

Policy = Callable[[Vector, npt.NDArray[np.bool_]], int]
"""Chooses an action from an observation and the mask of legal actions."""


class PolicyBot(Bot):
    """A bot that plays the actions a policy function chooses (see the module docstring)."""

    name = "policy"

    def __init__(
        self,
        policy: Policy,
        rules: Rules,
        players: int,
        teams: bool,
        name: str = "policy",
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.rules = rules
        self.name = name
        self.encoder = ObservationEncoder(rules, players, teams)
        self._n_actions = num_actions(rules)

    def choose(self, view: View) -> Move:
        """The move of the action the policy picks for this view."""
        actions = action_map(self.rules, cards_of(view.hand), view.floor)
        mask = np.zeros(self._n_actions, dtype=np.bool_)
        mask[list(actions)] = True
        action = int(self.policy(self.encoder.encode(view), mask))
        move = actions.get(action)
        if move is None:
            what = action_text(action) if 0 <= action < self._n_actions else "out of range"
            raise BotError(f"policy {self.name!r} chose an illegal action {action} ({what})")
        return move
