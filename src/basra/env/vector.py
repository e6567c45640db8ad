"""Many Basra games at once: a Gymnasium ``VectorEnv`` stepped in the compiled kernel.

``vector_env("egyptian", num_envs=256, opponents=["policy"])`` is
``num_envs`` copies of :func:`basra.env.gym_env`'s game, one learning seat
each, stepped together. Every sub-environment means exactly what a
:class:`basra.env.gym.BasraGymEnv` with the same options means: the same
observation (949 values, docs/ENV.md) and action encoding (``Discrete(780)``,
1976 under ``any_maximal``), the same rewards, episodes, truncation and
illegal-action rule; ``tests/test_env_vector.py`` replays its games through
the single environment and compares every observation, mask, reward and flag.

What differs is the speed, and what makes it possible:

- **Opponents play in C.** ``random`` plays a uniformly random legal move;
  ``policy`` is the search's playout policy (``policy_value`` of
  :mod:`basra.sim`: take basras, point cards and many cards, trail low),
  ties broken at random, with ``policy:eps=0.1`` playing that share of moves at
  random. Other bots are Python and would cost more than the whole step: ask
  for them and the error names the two that exist here (use
  :func:`basra.env.gym_env` for any bot).
- **Preallocated arrays.** Observations, action masks, rewards and flags are
  written in place into arrays made once. With ``copy=True`` (the default, as
  Gymnasium's ``SyncVectorEnv``) ``reset`` and ``step`` return copies; with
  ``copy=False`` they return the arrays themselves, which the next call
  overwrites.
- **Autoreset.** ``autoreset_mode`` is Gymnasium's: ``NEXT_STEP`` (the
  default: the step after an episode ends resets that env, ignoring its action,
  with reward 0), ``SAME_STEP`` (the env is reset in the step that ends its
  episode; ``infos["final_obs"]`` and ``infos["final_info"]`` hold what that
  step ended on) or ``DISABLED`` (reset ended envs with
  ``reset(options={"reset_mask": mask})``). ``metadata["autoreset_mode"]``
  says which.
- **Masks.** :meth:`BasraVectorEnv.action_masks` returns a ``(num_envs,
  actions)`` bool array, as sb3-contrib's MaskablePPO asks for; ``infos
  ["action_mask"]`` holds the same as ``int8``, as in ``gym_env``.
- **Seeding.** ``reset(seed=s)`` seeds env ``i`` with ``s + i`` (or takes one
  seed per env from a list); later resets go on from there, so the same seed
  and the same actions give the same games. :meth:`sample_actions` draws a
  uniformly random legal action per env from a generator of its own (seeded
  with the env), so sampling never changes the games.
- ``gymnasium.make_vec("basra/BasraVector-v0", num_envs=..., ...)`` makes one
  once this module is imported (``basra.env.vector_env`` imports it).
- :meth:`BasraVectorEnv.game` rebuilds env ``i``'s episode as a
  :class:`basra.state.GameState` (from its packs and plays), for records,
  ``render()`` and tests.

**Without the compiled kernel** (not built, or ``BASRA_KERNEL=0``) the same
class runs every sub-environment as a ``BasraGymEnv`` with the same two
opponents written in Python: the same API, spaces and meaning, the arrays
still preallocated, but about a hundred times slower, and a given seed deals
other games than on the kernel. :attr:`BasraVectorEnv.backend` says which;
``backend="python"`` asks for the fallback (to compare), ``backend="kernel"``
for the kernel or an error.

>>> env = BasraVectorEnv("egyptian", num_envs=4, opponents=["random"])
>>> observations, infos = env.reset(seed=0)
>>> observations.shape, observations.dtype, env.action_masks().shape
((4, 949), dtype('float32'), (4, 780))
>>> observations, rewards, terminations, truncations, infos = env.step(env.sample_actions())
>>> rewards.shape, terminations.dtype, sorted(infos)
((4,), dtype('bool'), ['_action_mask', '_seat', 'action_mask', 'seat'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from basra import kernel
from basra.bots import Bot, RandomBot
from basra.env.actions import num_actions
from basra.env.gym import BasraGymEnv
from basra.env.observation import ObservationEncoder
from basra.env.table import EPISODES, REWARDS, Table, check_choice, render_table
from basra.moves import Move
from basra.rules import Rules
from basra.sim import policy_value
from basra.state import PHASE_DEAL, GameState, SetupError
from basra.view import View

__all__ = [
    "BACKENDS",
    "OPPONENTS",
    "VECTOR_ENV_ID",
    "BasraVectorEnv",
    "PlayoutPolicyBot",
    "parse_opponent",
]

VECTOR_ENV_ID = "basra/BasraVector-v0"
"""The id under which importing this module registers the vector environment with Gymnasium
(``gymnasium.make_vec(VECTOR_ENV_ID, num_envs=256, opponents=["policy"])``)."""

OPPONENTS: tuple[str, ...] = ("random", "policy")
"""The opponents the vector environment has (they play in the compiled kernel)."""

BACKENDS: tuple[str, ...] = ("kernel", "python")
"""The engines that can step the games: the compiled kernel, or the pure-Python fallback."""

RULE_INTEGER_LIMIT = 2**31
"""Rule integers (points, bonus, target) must stay below this in the vector environment:
its C scores are 64-bit and its observation divides them as doubles, exactly as Python
does only while they stay small."""

Observations = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]
Array = npt.NDArray[Any]


def parse_opponent(spec: object) -> tuple[str, float]:
    """``"random"``, ``"policy"`` or ``"policy:eps=0.1"`` as (name, share of random moves)."""
    if not isinstance(spec, str):
        raise SetupError(
            f"the vector environment's opponents are named, not objects: {spec!r}; "
            f"it has {', '.join(OPPONENTS)} (use gym_env for any bot)"
        )
    name, _, options = spec.strip().partition(":")
    if name not in OPPONENTS:
        raise SetupError(
            f"the vector environment's opponents play in the compiled kernel: it has "
            f"{', '.join(OPPONENTS)}, not {name!r} (use gym_env for any other bot)"
        )
    eps = 0.0
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        try:
            if name != "policy" or key.strip() != "eps":
                raise ValueError
            eps = float(value)
            if not 0.0 <= eps <= 1.0:
                raise ValueError
        except ValueError:
            raise SetupError(
                f"bad opponent option {option!r} in {spec!r}: only policy takes one, "
                "eps=<share of random moves from 0 to 1>"
            ) from None
    return name, eps


class PlayoutPolicyBot(Bot):
    """The search's playout policy as a Python bot (the vector environment's ``policy``
    opponent when the kernel is off): the legal move :func:`basra.sim.policy_value`
    likes best, ties broken at random, a share ``eps`` of the moves at random."""

    name = "policy"

    def __init__(self, seed: int | None = None, eps: float = 0.0) -> None:
        super().__init__(seed)
        self.eps = eps

    def choose(self, view: View) -> Move:
        """The playout policy's move (as :func:`basra.bots.ismcts.rollout` plays it)."""
        moves = view.legal_moves()
        random_ = self.rng.random
        if len(moves) == 1:
            return moves[0]
        if self.eps and random_() < self.eps:
            return moves[int(random_() * len(moves))]
        rules, floor, lone = view.rules, view.floor, view.lone_trail
        return max(
            moves, key=lambda m: policy_value(rules, m.card, m.take, floor, lone) + random_() * 0.01
        )


class _Core(Protocol):
    """What the environment needs of an engine (the compiled ``VecCore`` or :class:`_PyCore`)."""

    def seed(self, i: int, seed: int) -> None: ...
    def reset(self, which: npt.NDArray[np.uint8]) -> None: ...
    def step(self, actions: Actions) -> tuple[int, int]: ...
    def sample_actions(self, out: Actions) -> None: ...
    def is_done(self, i: int) -> bool: ...


class BasraVectorEnv(VectorEnv[Observations, Actions, Array]):
    """``num_envs`` Basra games stepped together (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - replaced per instance
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        variant: str = "egyptian",
        num_envs: int = 8,
        players: int = 2,
        teams: bool = False,
        rules: Rules | Mapping[str, Any] | None = None,
        opponents: Sequence[str] = ("policy",),
        *,
        seat: int | None = 0,
        episode: str = "game",
        reward: str = "win",
        max_rounds: int = 100,
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        render_mode: str | None = None,
        backend: str | None = None,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise SetupError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.table = Table.make(variant, players, teams, rules)
        self.episode = check_choice("episode", episode, EPISODES)
        self.reward_kind = check_choice("reward", reward, REWARDS)
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise SetupError(f"seat must be a seat from 0 to {players - 1} or None, not {seat!r}")
        if not isinstance(max_rounds, int) or not 1 <= max_rounds < 2**31:
            raise SetupError(f"max_rounds must be a positive integer, not {max_rounds!r}")
        if isinstance(opponents, str) or not opponents:
            raise SetupError(
                f"opponents must be a non-empty list of {' or '.join(OPPONENTS)}, not {opponents!r}"
            )
        self.opponents = [parse_opponent(spec) for spec in opponents]
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("ansi",))
        if backend is not None:
            check_choice("backend", backend, BACKENDS)
        rules_ = self.table.rules
        _check_rule_integers(rules_)
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = render_mode
        self.fixed_seat = seat
        self.max_rounds = max_rounds
        self.illegal_reward = float(illegal_reward)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": ["ansi"]}
        self.encoder = ObservationEncoder(rules_, players, teams)
        size = self.encoder.size
        self._n_actions = num_actions(rules_)
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self._n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # The arrays every step writes into.
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._final_obs = np.zeros((num_envs, size), dtype=np.float32)
        self._mask = np.zeros((num_envs, self._n_actions), dtype=np.bool_)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._sampled = np.zeros(num_envs, dtype=np.int64)
        self._all = np.ones(num_envs, dtype=np.bool_)
        self._all.flags.writeable = False
        self.backend: str = backend or ("kernel" if _compiled() is not None else "python")
        """Which engine steps the games: ``"kernel"`` (C) or ``"python"`` (the fallback)."""
        self._core = self._make_core()
        entropy = np.random.SeedSequence().generate_state(num_envs, dtype=np.uint64)
        for i in range(num_envs):
            self._core.seed(i, int(entropy[i]))
        self._started = False

    def _make_core(self) -> _Core:
        table = self.table
        if self.backend == "python":
            return _PyCore(self)
        module = _compiled()
        if module is None:
            raise SetupError(
                "backend 'kernel' needs the compiled vector environment (basra._vector), but "
                f"the engine is {kernel.describe()}"
                + ("" if kernel.ACTIVE else "; leave backend unset for the pure-Python one")
            )
        layout = {name: self.encoder.slice(name).start for name in module.LAYOUT_BLOCKS}
        layout["size"] = self.encoder.size
        core = module.VecCore(
            table.rules,
            self.num_envs,
            table.players,
            table.teams,
            seat=self.fixed_seat,
            opponents=self.opponents,
            episode_round=self.episode == "round",
            reward=self.reward_kind,
            max_rounds=self.max_rounds,
            illegal_reward=self.illegal_reward,
            autoreset=self.autoreset_mode.value,
            layout=layout,
            template=self.encoder.template(),
            obs=self._obs,
            final_obs=self._final_obs,
            mask=self._mask.view(np.uint8),
            rewards=self._rewards,
            terminations=self._terminations.view(np.uint8),
            truncations=self._truncations.view(np.uint8),
            illegal=self._illegal.view(np.uint8),
            seats=self._seats,
        )
        return core  # type: ignore[no-any-return]

    # ------------------------------------------------------------- the API

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Start new episodes: in every env, or in those of ``options["reset_mask"]``.

        ``seed``: an int seeds env ``i`` with ``seed + i``; a list gives one seed
        (or ``None``: go on unseeded) per env; ``None`` goes on from the
        current generators.
        """
        which = self._reset_mask(options)
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int):
            super().reset(seed=seed)
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"seed must be an int or a list of num_envs={self.num_envs} seeds, "
                    f"not a list of {len(seeds)}"
                )
        for i, value in enumerate(seeds):
            if value is not None and which[i]:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise TypeError(f"seeds must be ints or None, not {value!r}")
                self._core.seed(i, value % 2**64)
        if which.all():
            self._started = True
        elif not self._started:
            raise gymnasium.error.ResetNeeded("the first reset must reset every env")
        self._core.reset(which.view(np.uint8))
        return self._out(self._obs), self._infos()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observations, Array, Array, Array, dict[str, Any]]:
        """Play one action per env (``action_space`` shaped ints; see the autoreset modes)."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers (shape ({self.num_envs},)), "
                f"not {array.dtype} of shape {array.shape}"
            )
        ended, illegal = self._core.step(np.ascontiguousarray(array, dtype=np.int64))
        infos = self._infos()
        if illegal:
            infos["illegal_action"] = self._out(self._illegal)
            infos["_illegal_action"] = self._illegal.copy()
        if ended and self.autoreset_mode == AutoresetMode.SAME_STEP:
            self._final_infos(infos)
        return (
            self._out(self._obs),
            self._out(self._rewards),
            self._out(self._terminations),
            self._out(self._truncations),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every env's learning seat now, ``(num_envs, actions)`` bools."""
        return self._out(self._mask)

    def sample_actions(self) -> Actions:
        """A uniformly random legal action per env (0 where the episode has ended)."""
        self._core.sample_actions(self._sampled)
        return self._out(self._sampled)

    @property
    def seats(self) -> Actions:
        """The learning seat of each env in its current episode."""
        return self._seats.copy()

    def game(self, i: int) -> GameState:
        """Env ``i``'s episode so far as a :class:`GameState` (every hand, the stock order:
        the whole game, not an observation). After the step that ends an episode it is
        that episode until the env is reset (so not under ``SAME_STEP``)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"env index must be from 0 to {self.num_envs - 1}, not {i}")
        if isinstance(self._core, _PyCore):
            return self._core.envs[i].game.copy()
        first_dealer, packs, plays = self._core.record(i)  # type: ignore[attr-defined]
        state = self.table.new_game(first_dealer)
        dealt = 0
        for card, take in plays:
            if state.phase == PHASE_DEAL:
                state.deal(packs[dealt])
                dealt += 1
            state.play(Move(card, take))
        if dealt < len(packs) and state.phase == PHASE_DEAL:
            state.deal(packs[dealt])
        return state

    def render(self) -> tuple[str, ...] | None:
        """Every env's table as text (``render_mode="ansi"``; every hand shown)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi')")
            return None
        frames = []
        for i in range(self.num_envs):
            names = self._names(int(self._seats[i]))
            frames.append(render_table(self.game(i), names))
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Release the games."""
        self._core = _Closed()

    # ------------------------------------------------------------- helpers

    def _names(self, seat: int) -> list[str]:
        players = self.table.players
        names = ["agent"] * players
        for k in range(1, players):
            name, eps = self.opponents[(k - 1) % len(self.opponents)]
            names[(seat + k) % players] = f"{name}:eps={eps:g}" if eps else name
        return names

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        mask = self._mask.view(np.int8)
        return {
            "action_mask": mask.copy() if self.copy else mask,
            "_action_mask": self._all,
            "seat": self._seats.copy(),
            "_seat": self._all,
        }

    def _final_infos(self, infos: dict[str, Any]) -> None:
        """SAME_STEP: what the episodes that ended in this step ended on."""
        ended = self._terminations | self._truncations
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(ended):
            final_obs[i] = self._final_obs[i].copy()
        final_info: dict[str, Any] = {
            "action_mask": np.zeros((self.num_envs, self._n_actions), dtype=np.int8),
            "_action_mask": ended.copy(),
        }
        if "illegal_action" in infos:
            final_info["illegal_action"] = infos.pop("illegal_action")
            final_info["_illegal_action"] = infos.pop("_illegal_action")
        infos["final_obs"] = final_obs
        infos["_final_obs"] = ended.copy()
        infos["final_info"] = final_info
        infos["_final_info"] = ended

    def _reset_mask(self, options: dict[str, Any] | None) -> npt.NDArray[np.bool_]:
        if not options or "reset_mask" not in options:
            return np.ones(self.num_envs, dtype=np.bool_)
        mask = options["reset_mask"]
        if (
            not isinstance(mask, np.ndarray)
            or mask.dtype != np.bool_
            or mask.shape != (self.num_envs,)
        ):
            raise ValueError(
                f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)"
            )
        if not mask.any():
            raise ValueError("options['reset_mask'] must reset at least one env")
        return np.ascontiguousarray(mask)


def _autoreset_mode(value: AutoresetMode | str) -> AutoresetMode:
    """An ``AutoresetMode`` from itself, its value (``"SameStep"``) or name (``"same_step"``)."""
    try:
        return AutoresetMode(value)
    except ValueError:
        mode = AutoresetMode.__members__.get(str(value).upper())
    if mode is None:
        modes = ", ".join(mode.name for mode in AutoresetMode)
        raise SetupError(f"autoreset_mode must be an AutoresetMode ({modes}), not {value!r}")
    return mode


def _check_rule_integers(rules: Rules) -> None:
    values = {
        "target": rules.target,
        "majority_bonus": rules.majority_bonus,
        "jack_on_lone_jack": rules.jack_on_lone_jack,
        "a card's points": max(rules.card_points),
        "a basra's points": max(rules.basra_values),
    }
    for name, value in values.items():
        if value >= RULE_INTEGER_LIMIT:
            raise SetupError(
                f"{name} is {value}: the vector environment needs rule integers below 2**31 "
                "(use gym_env for larger ones)"
            )


def _compiled() -> Any:
    """The compiled vector module when the kernel is active and it was built, else None."""
    if kernel.kernel_module() is None:
        return None
    try:
        import basra._vector as module
    except ImportError:
        return None
    return module


class _Closed:
    """Stands in for the engine once the environment is closed."""

    def __getattr__(self, name: str) -> Any:
        raise gymnasium.error.ClosedEnvironmentError("the vector environment is closed")


class _PyCore:
    """The vector environment's engine without the kernel: one :class:`BasraGymEnv` per env
    with the same opponents in Python, writing into the same arrays."""

    def __init__(self, env: BasraVectorEnv) -> None:
        table = env.table
        self.owner = env
        self.autoreset = env.autoreset_mode
        self.rngs = [random.Random(0) for _ in range(env.num_envs)]
        self.samplers = [random.Random(0) for _ in range(env.num_envs)]
        self.bots: list[list[Bot]] = []
        self.envs: list[BasraGymEnv] = []
        for _ in range(env.num_envs):
            bots: list[Bot] = []
            for k in range(table.players - 1):
                name, eps = env.opponents[k % len(env.opponents)]
                bots.append(RandomBot() if name == "random" else PlayoutPolicyBot(eps=eps))
            self.bots.append(bots)
            self.envs.append(
                BasraGymEnv(
                    table.variant,
                    table.players,
                    table.teams,
                    table.rules,
                    bots,
                    seat=env.fixed_seat,
                    episode=env.episode,
                    reward=env.reward_kind,
                    max_rounds=env.max_rounds,
                    illegal_reward=env.illegal_reward,
                )
            )
        self.done = [True] * env.num_envs

    def seed(self, i: int, seed: int) -> None:
        self.rngs[i].seed(seed)
        self.samplers[i].seed(seed ^ 0xA5A5A5A5DEADBEEF)

    def _reset_env(self, i: int) -> None:
        rng = self.rngs[i]
        for bot in self.bots[i]:
            bot.rng.seed(rng.getrandbits(64))
        obs, _info = self.envs[i].reset(seed=rng.getrandbits(63))
        self.done[i] = False
        self._write(i, obs)

    def _write(self, i: int, obs: npt.NDArray[np.float32]) -> None:
        env = self.owner
        env._obs[i] = obs
        env._mask[i] = self.envs[i].action_masks()
        env._seats[i] = self.envs[i].seat

    def reset(self, which: npt.NDArray[np.uint8]) -> None:
        env = self.owner
        for i in np.flatnonzero(which):
            self._reset_env(int(i))
            env._rewards[i] = 0.0
            env._terminations[i] = env._truncations[i] = env._illegal[i] = False

    def step(self, actions: Actions) -> tuple[int, int]:
        env = self.owner
        ended = illegal = 0
        if self.autoreset == AutoresetMode.DISABLED and any(self.done):
            i = self.done.index(True)
            raise RuntimeError(
                f"env {i}'s episode is over: reset it first (reset(options={{'reset_mask': ...}}))"
            )
        for i, action in enumerate(actions.tolist()):
            env._illegal[i] = False
            if self.done[i]:
                self._reset_env(i)
                env._rewards[i] = 0.0
                env._terminations[i] = env._truncations[i] = False
                continue
            obs, reward, terminated, truncated, info = self.envs[i].step(action)
            env._rewards[i] = float(reward)
            env._terminations[i] = terminated
            env._truncations[i] = truncated
            if info.get("illegal_action"):
                env._illegal[i] = True
                illegal += 1
            self._write(i, obs)
            if terminated or truncated:
                ended += 1
                self.done[i] = True
                if self.autoreset == AutoresetMode.SAME_STEP:
                    env._final_obs[i] = obs
                    self._reset_env(i)
        return ended, illegal

    def sample_actions(self, out: Actions) -> None:
        for i, env in enumerate(self.envs):
            legal = np.flatnonzero(env.action_masks()) if not self.done[i] else ()
            out[i] = int(legal[int(self.samplers[i].random() * len(legal))]) if len(legal) else 0

    def is_done(self, i: int) -> bool:
        return self.done[i]


if VECTOR_ENV_ID not in gymnasium.registry:
    gymnasium.register(VECTOR_ENV_ID, vector_entry_point="basra.env.vector:BasraVectorEnv")
