"""Train a MaskablePPO agent on Basra with the vector environment, then evaluate it.

    pip install torch==2.13.0            # exactly this: the CPU build
    pip install -e ".[env,train]"        # gymnasium, numpy, sb3-contrib
    nice taskset -c 0 python examples/train_maskable_ppo.py --minutes 20

The agent plays one seat of a 2-player table, a random seat every episode,
one round per episode, rewarded with its points minus the opponent's as they
are scored (``reward="dense"``, scaled by 1/20). It sees only its seat's view,
in the encoding of docs/ENV.md, and picks among legal actions only. Its games
are ``basra.env.vector_env``: ``--envs`` games stepped together in the
compiled kernel against ``--opponent`` (``policy``, the search's playout
policy, by default; or ``random``), so the network, not the game, takes the
time. ``--minutes`` is a budget of this process's CPU time; PyTorch runs on
``--threads`` threads (1 by default). The hyperparameters are options; the
defaults are a starting point, not a tuned recipe.

Stable-Baselines3 steps a ``VecEnv`` of its own kind: :class:`SB3VecEnv` below
is the small adapter (SAME_STEP autoreset, the last observation of an episode
in ``infos[i]["terminal_observation"]``, the masks through ``env_method``).

Evaluation is the arena's (``basra.bots.arena``, as ``basra arena``): the
network is registered as the bot ``ppo`` and every deal is played twice with
the same pack, the agent in each seat in turn, against each bot in
``--eval-against``; the margin is the agent's round points minus the bot's,
paired by deal, with a 95% confidence interval. The untrained network is
evaluated on the same deals first, for comparison, and greedy against random
last, for scale.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor
except ImportError:  # pragma: no cover - a message for people without the extras
    sys.exit(
        "this example needs PyTorch and sb3-contrib:\n"
        "  pip install torch==2.13.0\n"
        '  pip install -e ".[env,train]"'
    )

from gymnasium.vector import AutoresetMode

from basra.bots import Bot, register_bot
from basra.bots.arena import ArenaConfig, run_arena, summarize
from basra.env import vector_env
from basra.env.bot import PolicyBot
from basra.env.vector import BasraVectorEnv
from basra.rules import Rules

REWARD_SCALE = 1 / 20


class SB3VecEnv(VecEnv):  # type: ignore[misc]
    """``vector_env`` as Stable-Baselines3's ``VecEnv`` (it must autoreset in SAME_STEP mode)."""

    def __init__(self, env: BasraVectorEnv, reward_scale: float = 1.0) -> None:
        if env.autoreset_mode != AutoresetMode.SAME_STEP or not env.copy:
            raise ValueError("SB3 needs autoreset_mode=SAME_STEP and copy=True")
        self.env = env
        self.reward_scale = reward_scale
        self._actions = np.zeros(env.num_envs, dtype=np.int64)
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> Any:
        seeds = None if all(s is None for s in self._seeds) else self._seeds
        observations, _infos = self.env.reset(seed=seeds)
        self._reset_seeds()
        return observations

    def step_async(self, actions: Any) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> Any:
        observations, rewards, terminations, truncations, infos = self.env.step(self._actions)
        dones = terminations | truncations
        listed: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            listed[i]["terminal_observation"] = infos["final_obs"][i]
            listed[i]["TimeLimit.truncated"] = bool(truncations[i] and not terminations[i])
        return observations, (rewards * self.reward_scale).astype(np.float32), dones, listed

    def close(self) -> None:
        self.env.close()

    def _count(self, indices: Any) -> int:
        return len(list(self._get_indices(indices)))

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.env, attr_name)] * self._count(indices)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"cannot set {attr_name!r} on one game of a vector environment")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the vector environment has no per-game {method_name!r}")
        masks = self.env.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * self._count(indices)


class CpuBudget(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` of this process's CPU time; prints progress."""

    def __init__(self, seconds: float, every: float = 60.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.every = every
        self.started = time.process_time()
        self.next_report = self.every

    def _on_step(self) -> bool:
        cpu = time.process_time() - self.started
        if cpu >= self.next_report:
            self.next_report += self.every
            episodes = list(self.model.ep_info_buffer)
            # Rewards are points minus the mean over both sides: half the margin.
            mean = (
                2 * statistics.fmean(e["r"] for e in episodes) / REWARD_SCALE if episodes else 0.0
            )
            print(
                f"  {cpu:5.0f}s CPU  {self.num_timesteps:>10,} steps  "
                f"mean round margin (last {len(episodes)} rounds) {mean:+6.2f} points",
                flush=True,
            )
        return cpu < self.seconds


def arena_margin(
    variant: str, rules: Rules, first: str, second: str, deals: int, seed: int
) -> dict[str, Any]:
    """``first``'s points per round minus ``second``'s over paired deals, from the arena."""
    config = ArenaConfig(variant, rules, 2, False, (first, second), deals, seed)
    games, seconds = run_arena(config)
    margin: dict[str, Any] = summarize(config, games, seconds)["margin"]
    return margin


def summary(margin: dict[str, Any]) -> str:
    half = (margin["high"] - margin["low"]) / 2
    return f"{margin['mean']:+6.2f} ± {half:4.2f} points/round over {margin['deals']} paired deals"


def evaluate(
    label: str, model: Any, rules: Rules, args: argparse.Namespace, against: Sequence[str]
) -> None:
    """Register the network as the bot ``ppo`` and measure it in the arena."""

    def predict(observation: Any, mask: Any) -> int:
        action, _state = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    def factory(options: str, seed: int | None) -> Bot:
        return PolicyBot(predict, rules, players=2, teams=False, name="ppo")

    register_bot("ppo", factory, "the network being trained (this example only)")
    print(f"{label} ({args.eval_deals} paired deals, {args.variant}):")
    for name in against:
        margin = arena_margin(args.variant, rules, "ppo", name, args.eval_deals, args.seed + 1)
        print(f"  vs {name:<10} {summary(margin)}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="egyptian")
    parser.add_argument("--minutes", type=float, default=3.0, help="training budget, CPU minutes")
    parser.add_argument("--opponent", default="policy", help="random, policy or policy:eps=X")
    parser.add_argument("--eval-against", default="random,greedy", help="bots to evaluate against")
    parser.add_argument("--eval-deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--rollout", type=int, default=4096, help="steps per PPO update")
    parser.add_argument("--batch", type=int, default=512, help="minibatch size")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    parser.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    parser.add_argument("--gamma", type=float, default=0.99, help="discount per step")
    parser.add_argument("--net", default="256,256", help="hidden layer sizes")
    parser.add_argument("--save", default=None, help="save the trained model to this file")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    against = [name for name in args.eval_against.split(",") if name]

    games = vector_env(
        args.variant,
        args.envs,
        opponents=[args.opponent],
        seat=None,
        episode="round",
        reward="dense",
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    games.reset(seed=args.seed)
    envs = VecMonitor(SB3VecEnv(games, REWARD_SCALE))
    rules = games.table.rules
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        learning_rate=args.lr,
        n_steps=max(1, args.rollout // args.envs),
        batch_size=args.batch,
        n_epochs=args.epochs,
        gamma=args.gamma,
        ent_coef=args.ent,
        policy_kwargs={"net_arch": [int(size) for size in args.net.split(",")]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    print(
        f"Basra {args.variant}, 2 players; MaskablePPO vs {args.opponent} on vector_env "
        f"({games.backend}); observation {games.single_observation_space.shape[0]}, "
        f"actions {games.single_action_space.n}; {args.envs} envs; "
        f"torch {torch.__version__}, {args.threads} thread(s)"
    )
    evaluate("untrained network", model, rules, args, against)
    print(f"training for {args.minutes:g} CPU minutes against {args.opponent}:", flush=True)
    started, cpu_started = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=10**12, callback=CpuBudget(args.minutes * 60))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(
        f"trained {model.num_timesteps:,} steps in {cpu:.0f}s of CPU ({seconds:.0f}s wall; "
        f"{model.num_timesteps / cpu:,.0f} steps per CPU second)",
        flush=True,
    )
    evaluate("trained agent", model, rules, args, against)
    if args.save:
        model.save(args.save)
        print(f"saved to {args.save}")
    reference = arena_margin(
        args.variant, rules, "greedy", "random", args.eval_deals, args.seed + 1
    )
    print(f"reference: greedy vs random {summary(reference)}")
    return 0


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    sys.exit(main())
