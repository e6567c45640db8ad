"""Train a small MaskablePPO agent on Basra for a few minutes of CPU, then evaluate it.

    pip install torch==2.13.0            # exactly this: the CPU build
    pip install -e ".[env,train]"        # gymnasium, numpy, sb3-contrib
    nice python examples/train_maskable_ppo.py --minutes 3

The agent plays one seat of a 2-player table against a bot (``--opponent``,
``heuristic`` by default), in a random seat, one
round per episode, rewarded with its points minus the opponent's as they are
scored (``reward="dense"``, scaled by 1/20). It sees only its seat's view, in
the encoding of docs/ENV.md, and picks among legal actions only
(``action_masks()``). The hyperparameters are options; the defaults are a
starting point, not a tuned recipe.

Evaluation is the arena's (``basra.bots.arena``, as ``basra arena``): the
network is registered as the bot ``ppo`` and every deal is played twice with
the same pack, the agent in each seat in turn, against each bot in
``--eval-against`` (``heuristic`` is always added); the margin is the agent's
round points minus the bot's, paired by deal, with a 95% confidence interval.
The untrained network is evaluated on the same deals first, for comparison,
and greedy against random last, for scale.
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
    from stable_baselines3.common.env_util import make_vec_env
except ImportError:  # pragma: no cover - a message for people without the extras
    sys.exit(
        "this example needs PyTorch and sb3-contrib:\n"
        "  pip install torch==2.13.0\n"
        '  pip install -e ".[env,train]"'
    )

import gymnasium

from basra.bots import Bot, register_bot
from basra.bots.arena import ArenaConfig, run_arena, summarize
from basra.env import gym_env
from basra.env.bot import PolicyBot
from basra.env.table import Table
from basra.rules import Rules

REWARD_SCALE = 1 / 20


class TimeBudget(BaseCallback):  # type: ignore[misc]
    """Stops training after ``seconds`` and prints progress now and then."""

    def __init__(self, seconds: float, every: float = 30.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.every = every
        self.started = time.perf_counter()
        self.next_report = self.every

    def _on_step(self) -> bool:
        elapsed = time.perf_counter() - self.started
        if elapsed >= self.next_report:
            self.next_report += self.every
            episodes = list(self.model.ep_info_buffer)
            # Rewards are points minus the mean over both sides: half the margin.
            mean = (
                2 * statistics.fmean(e["r"] for e in episodes) / REWARD_SCALE if episodes else 0.0
            )
            print(
                f"  {elapsed:5.0f}s  {self.num_timesteps:>8,} steps  "
                f"mean round margin (last {len(episodes)} rounds) {mean:+6.2f} points",
                flush=True,
            )
        return elapsed < self.seconds


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
    default_opponent = "heuristic"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="egyptian")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument("--opponent", default=default_opponent, help="the bot to train against")
    parser.add_argument("--eval-against", default="random,greedy", help="bots to evaluate against")
    parser.add_argument("--eval-deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--rollout", type=int, default=2048, help="steps per PPO update")
    parser.add_argument("--batch", type=int, default=256, help="minibatch size")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--epochs", type=int, default=5, help="PPO epochs per rollout")
    parser.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    parser.add_argument("--gamma", type=float, default=0.995, help="discount per step")
    parser.add_argument("--save", default=None, help="save the trained model to this file")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    against = [name for name in args.eval_against.split(",") if name]
    if "heuristic" not in against:
        against.append("heuristic")

    def make_env() -> gymnasium.Env[Any, Any]:
        env = gym_env(
            args.variant, opponents=[args.opponent], seat=None, episode="round", reward="dense"
        )
        return gymnasium.wrappers.TransformReward(env, lambda r: float(r) * REWARD_SCALE)

    # Several environments in step: the network then sees a batch per call, not one view.
    envs = make_vec_env(make_env, n_envs=args.envs, seed=args.seed)
    rules = Table.make(args.variant).rules
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        learning_rate=args.lr,
        n_steps=max(1, args.rollout // args.envs),
        batch_size=args.batch,
        n_epochs=args.epochs,
        gamma=args.gamma,
        ent_coef=args.ent,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    print(
        f"Basra {args.variant}, 2 players; MaskablePPO vs {args.opponent}; "
        f"observation {envs.observation_space.shape[0]}, actions {envs.action_space.n}; "
        f"{args.envs} envs; torch {torch.__version__}, {args.threads} thread(s)"
    )
    evaluate("untrained network", model, rules, args, against)
    print(f"training for {args.minutes:g} minutes against {args.opponent}:", flush=True)
    started = time.perf_counter()
    model.learn(total_timesteps=10**9, callback=TimeBudget(args.minutes * 60))
    seconds = time.perf_counter() - started
    print(
        f"trained {model.num_timesteps:,} steps in {seconds:.0f}s "
        f"({model.num_timesteps / seconds:,.0f} steps/s)",
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
