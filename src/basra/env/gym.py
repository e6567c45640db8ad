"""Basra as a Gymnasium environment: one seat against bots.

The agent plays ``seat`` (or a random seat each episode with ``seat=None``);
every other seat is a bot that sees only its own view (:mod:`basra.bots`).
Bots are named by ``opponents`` and given to the other seats in seat order
after the agent's, cycling through the list (with teams, the agent's partner is
the second of them). Deals and bots are seeded from the environment's seed.
``gymnasium.make("basra/Basra-v0", variant=..., opponents=[...])`` works
once this module is imported (``basra.env.gym_env`` imports it).

Observations are the agent's view in the shared encoding
(:mod:`basra.env.observation`), a ``float32`` Box in [0, 1]. Actions are
``Discrete(52 * slots)`` (:mod:`basra.env.actions`); :meth:`BasraGymEnv.action_masks`
gives the legal ones, as sb3-contrib's MaskablePPO expects, and ``info`` carries
the same mask as ``"action_mask"``. An illegal action ends the episode with
``illegal_reward`` (Gymnasium's checker plays random actions, so it must not
raise). Rewards are those of :mod:`basra.env.table`, for the agent's side;
with ``"dense"`` rewards, what the bots score before the agent's first move
counts in its first step.

>>> env = BasraGymEnv("egyptian", opponents=["greedy"])
>>> observation, info = env.reset(seed=3)
>>> observation.shape, env.action_space
((949,), Discrete(780))
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> terminated, truncated
(False, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from basra.bots import Bot, make_bot
from basra.env.actions import actions_of_moves, num_actions, option_slots
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
    win_rewards,
)
from basra.moves import Move
from basra.rules import Rules
from basra.state import PHASE_PLAY, GameState, SetupError
from basra.view import view_of

__all__ = ["DEFAULT_OPPONENTS", "ENV_ID", "BasraGymEnv"]

ENV_ID = "basra/Basra-v0"
"""The id under which importing this module registers the environment with Gymnasium."""

DEFAULT_OPPONENTS: tuple[str, ...] = ("heuristic",)
"""The bots the agent plays against unless told otherwise."""


class BasraGymEnv(gymnasium.Env[Vector, np.int64]):
    """One seat of a Basra table against bots (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "egyptian",
        players: int = 2,
        teams: bool = False,
        rules: Rules | Mapping[str, Any] | None = None,
        opponents: Sequence[str | Bot] = DEFAULT_OPPONENTS,
        render_mode: str | None = None,
        *,
        seat: int | None = 0,
        episode: str = "game",
        reward: str = "win",
        max_rounds: int = 100,
        illegal_reward: float = -1.0,
    ) -> None:
        self.table = Table.make(variant, players, teams, rules)
        self.episode = check_choice("episode", episode, EPISODES)
        self.reward_kind = check_choice("reward", reward, REWARDS)
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("human", "ansi"))
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < players):
            raise SetupError(f"seat must be a seat from 0 to {players - 1} or None, not {seat!r}")
        if not isinstance(max_rounds, int) or max_rounds < 1:
            raise SetupError(f"max_rounds must be a positive integer, not {max_rounds!r}")
        if isinstance(opponents, str) or not opponents:
            raise SetupError(f"opponents must be a non-empty list of bot names, not {opponents!r}")
        self.opponents = list(opponents)
        for spec in self.opponents:
            if isinstance(spec, str):
                make_bot(spec, seed=0).close()  # an unknown name fails now, listing the bots
        self.render_mode = render_mode
        self.fixed_seat = seat
        self.max_rounds = max_rounds
        self._ledger = PointLedger(self.table)
        self.illegal_reward = float(illegal_reward)
        rules_ = self.table.rules
        self._slots = option_slots(rules_)
        self._n_actions = num_actions(rules_)
        self.encoder = ObservationEncoder(rules_, players, teams)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self._n_actions)
        self._rng = random.Random(0)
        self.seat = 0 if seat is None else seat
        self.game: GameState = self.table.new_game()
        self.bots: list[Bot | None] = [None] * players
        self._own_bots: list[Bot] = []
        self._pending = 0.0
        self._actions: dict[int, Move] = {}
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Start a new episode and let the bots play up to the agent's first turn."""
        super().reset(seed=seed)
        rng = self._rng = random.Random(int(self.np_random.integers(2**63)))
        players = self.table.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(players)
        self._close_own_bots()
        self.bots = [None] * players
        for k in range(1, players):
            spec = self.opponents[(k - 1) % len(self.opponents)]
            seat = (self.seat + k) % players
            if isinstance(spec, str):
                bot = make_bot(spec, seed=rng.getrandbits(32))
                self._own_bots.append(bot)
            else:
                bot = spec
            self.bots[seat] = bot
        self.game = self.table.new_game(first_dealer=rng.randrange(players))
        self.game.deal(rng=rng)
        self._ledger.new_round()
        self._done = False
        # Points the bots score before the agent's first move count in its first step.
        self._pending, _terminated, _truncated = self._play_bots()
        return self._observe(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then let the bots play up to its next turn."""
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        move = self._actions.get(int(action))
        if move is None:
            self._done = True
            self._actions = {}
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        self.game.push(move)
        reward = self._pending + self._dense_reward()
        self._pending = 0.0
        more, terminated, truncated = self._play_bots()
        reward += more
        return self._observe(), reward, terminated, truncated, self._info()

    def _play_bots(self) -> tuple[float, bool, bool]:
        """Bots play (and rounds are dealt) until the agent is to move or the episode ends."""
        game = self.game
        me = self.seat
        reward = 0.0
        while True:
            if game.phase == PHASE_PLAY:
                turn = game.turn
                if turn == me:
                    self._actions = actions_of_moves(game.legal_moves(), self._slots)
                    return reward, False, False
                bot = self.bots[turn]
                assert bot is not None
                game.play(bot.choose(view_of(game, turn)))
                reward += self._dense_reward()
                continue
            result = game.rounds[-1].result
            assert result is not None
            if self.reward_kind == "points":
                reward += points_rewards(self.table, result)[me]
            over = game.is_over or self.episode == "round"
            if not over and len(game.rounds) < self.max_rounds:
                game.deal(rng=self._rng)
                self._ledger.new_round()
                continue
            self._done = True
            self._actions = {}
            if over and self.reward_kind == "win":
                reward += win_rewards(self.table, episode_winner(game, self.episode))[me]
            return reward, over, not over

    def _dense_reward(self) -> float:
        """The agent's ``"dense"`` reward for the play just made (0 for other rewards)."""
        if self.reward_kind != "dense":
            return 0.0
        return self._ledger.rewards(self.game)[self.seat]

    def _observe(self) -> Vector:
        return self.encoder.encode(view_of(self.game, self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent now, as booleans (what MaskablePPO asks for)."""
        mask = np.zeros(self._n_actions, dtype=np.bool_)
        if self._actions:
            mask[list(self._actions)] = True
        return mask

    def move_of(self, action: int) -> Move | None:
        """The move a legal action of the agent stands for, or ``None`` if it is not legal."""
        return self._actions.get(int(action))

    def render(self) -> str | None:
        """The whole table as text (every hand shown: a spectator's picture, not an observation)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode (use 'human' or 'ansi')"
            )
            return None
        names = [
            "agent" if seat == self.seat else (bot.name if bot is not None else f"seat {seat}")
            for seat, bot in enumerate(self.bots)
        ]
        text = render_table(self.game, names)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def _close_own_bots(self) -> None:
        for bot in self._own_bots:
            bot.close()
        self._own_bots = []

    def close(self) -> None:
        """Release what the bots it made hold (bots given as objects are the caller's)."""
        self._close_own_bots()


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="basra.env.gym:BasraGymEnv", disable_env_checker=True)
