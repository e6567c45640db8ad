"""Basra as a PettingZoo AEC environment, following the classic card-game conventions.

Agents are ``player_0`` ... ``player_{n-1}`` (seat i is ``player_i``; with teams,
seats 0 and 2 are side 0). Each observation is a dict: ``"observation"``, the
seat's view encoded by :class:`basra.env.observation.ObservationEncoder` (a
``float32`` Box in [0, 1]), and ``"action_mask"``, an ``int8`` Box with a 1 for
every legal action of that agent (all zeros when it is not its turn). Actions
are ``Discrete(52 * slots)`` in the encoding of :mod:`basra.env.actions`.
Deals happen inside the environment with its seeded generator, so the only
agents are the players. Rewards are described in :mod:`basra.env.table`;
infos are empty dicts.

:func:`aec_env` wraps :class:`BasraAECEnv` in PettingZoo's standard wrappers for
classic games (an illegal action ends the game with -1 for the agent who made
it; out-of-range actions assert; calls out of order raise).

>>> env = aec_env("lebanese", players=4, teams=True)
>>> env.reset(seed=1)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((949,), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from basra.env.actions import ActionError, action_text, actions_of_moves, num_actions, option_slots
from basra.env.observation import ObservationEncoder, Vector
from basra.env.table import (
    EPISODES,
    REWARDS,
    PointLedger,
    Table,
    check_choice,
    episode_winner,
    points_rewards,
    render_table,
    seed_rng,
    win_rewards,
)
from basra.moves import Move
from basra.rules import Rules
from basra.state import PHASE_PLAY, GameState, SetupError
from basra.view import view_of

__all__ = ["BasraAECEnv", "aec_env"]

RENDER_MODES = ("human", "ansi")

Observation = dict[str, Vector | np.ndarray[Any, np.dtype[np.int8]]]


class BasraAECEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (see the module docstring; use :func:`aec_env`).

    ``episode`` is ``"game"`` (to the target score) or ``"round"``; ``reward``
    is ``"win"``, ``"points"`` or ``"dense"`` (:mod:`basra.env.table`); a game
    still going after ``max_rounds`` rounds is truncated.
    """

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": list(RENDER_MODES),
        "name": "basra_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str = "egyptian",
        players: int = 2,
        teams: bool = False,
        rules: Rules | Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        episode: str = "game",
        reward: str = "win",
        max_rounds: int = 100,
    ) -> None:
        super().__init__()
        self.table = Table.make(variant, players, teams, rules)
        self.episode = check_choice("episode", episode, EPISODES)
        self.reward_kind = check_choice("reward", reward, REWARDS)
        self._dense = reward == "dense"
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        if not isinstance(max_rounds, int) or max_rounds < 1:
            raise SetupError(f"max_rounds must be a positive integer, not {max_rounds!r}")
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self._ledger = PointLedger(self.table)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        rules_ = self.table.rules
        self._slots = option_slots(rules_)
        self._n_actions = num_actions(rules_)
        self.encoder = ObservationEncoder(rules_, players, teams)
        self.action_spaces = {a: spaces.Discrete(self._n_actions) for a in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(self._n_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._rng = seed_rng(None)
        self._seeded = False
        self.game: GameState = self.table.new_game()
        self._actions: dict[int, Move] = {}
        self._moves: list[Move] = []
        self._rewarded = False
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode: a new game, its first dealer drawn and its first round dealt."""
        if seed is not None or not self._seeded:
            self._rng = seed_rng(seed)
            self._seeded = True
        rng = self._rng
        self.game = self.table.new_game(first_dealer=rng.randrange(self.table.players))
        self.game.deal(rng=rng)
        self._ledger.new_round()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._rewarded = False
        self._next_turn()

    def _next_turn(self) -> None:
        game = self.game
        self._moves = game.legal_moves()
        self._actions = actions_of_moves(self._moves, self._slots)
        self.agent_selection = self.possible_agents[game.turn]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now: its encoded view and its action mask."""
        view = view_of(self.game, self._seat[agent])
        mask = np.zeros(self._n_actions, dtype=np.int8)
        moves = None
        if agent == self.agent_selection and self._actions:
            mask[list(self._actions)] = 1
            moves = self._moves
        return {"observation": self.encoder.encode(view, moves=moves), "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to move, in increasing order (empty when over)."""
        return sorted(self._actions)

    def move_of(self, action: int) -> Move:
        """The move a legal action of the agent to move stands for."""
        move = self._actions.get(int(action))
        if move is None:
            what = action_text(int(action)) if 0 <= action < self._n_actions else "out of range"
            legal = ", ".join(f"{a} ({self._actions[a].text()})" for a in sorted(self._actions))
            raise ActionError(
                f"action {action} ({what}) is not legal for {self.agent_selection}; legal: {legal}"
            )
        return move

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move (``None`` for an agent whose episode is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ActionError(f"{agent} is to move: None is only for agents whose episode is over")
        move = self._actions.get(action)
        if move is None:
            move = self.move_of(action)  # an int-like action, or an illegal one (raises)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards are rare (round ends): skip the loops otherwise
            self._clear_rewards()
            self._rewarded = False
        game = self.game
        game.push(move)
        if self._dense:
            names = self.possible_agents
            for seat, value in enumerate(self._ledger.rewards(game)):
                if value:
                    self.rewards[names[seat]] += value
                    self._rewarded = True
        if game.phase == PHASE_PLAY:
            self._next_turn()
        else:
            self._end_round()
            self._rewarded = True
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_round(self) -> None:
        game = self.game
        table = self.table
        result = game.rounds[-1].result
        assert result is not None
        names = self.possible_agents
        if self.reward_kind == "points":
            for seat, value in enumerate(points_rewards(table, result)):
                self.rewards[names[seat]] += value
        over = game.is_over or self.episode == "round"
        if not over and len(game.rounds) < self.max_rounds:
            game.deal(rng=self._rng)
            self._ledger.new_round()
            self._next_turn()
            return
        self._actions = {}
        if over:
            if self.reward_kind == "win":
                winner = episode_winner(game, self.episode)
                for seat, value in enumerate(win_rewards(table, winner)):
                    self.rewards[names[seat]] += value
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.truncations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """The whole table as text (every hand shown: a spectator's picture, not an observation).

        ``render_mode="human"`` prints it, ``"ansi"`` returns it.
        """
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode (use 'human' or 'ansi')"
            )
            return None
        text = render_table(self.game, self.possible_agents)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        """Nothing to release."""


def aec_env(
    variant: str = "egyptian",
    players: int = 2,
    teams: bool = False,
    rules: Rules | Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> Any:
    """A Basra AEC environment wrapped as PettingZoo's classic games are.

    ``options`` go to :class:`BasraAECEnv` (``episode``, ``reward``,
    ``max_rounds``). The wrappers are ``TerminateIllegalWrapper`` (illegal
    reward -1), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``.
    """
    env: Any = BasraAECEnv(variant, players, teams, rules, render_mode, **options)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
