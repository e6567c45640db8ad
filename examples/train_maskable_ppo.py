"""Train a small MaskablePPO agent on Basra for a few minutes of CPU, then evaluate it.

    pip install torch==2.13.0            # exactly this: the CPU build
    pip install -e ".[env,train]"        # gymnasium, numpy, sb3-contrib
    nice python examples/train_maskable_ppo.py --minutes 3

The agent plays one seat of a 2-player table against a bot (``--opponent``,
the ``heuristic`` bot when it exists, else ``greedy``), in a random seat, one
round per episode, rewarded with its points minus the opponent's as they are
scored (``reward="dense"``, scaled by 1/20). It sees only its seat's view, in
the encoding of docs/ENV.md, and picks among legal actions only
(``action_masks()``). The hyperparameters are options; the defaults are a
starting point, not a tuned recipe.

Evaluation uses paired deals: every deal is played twice with the same pack,
the agent in each seat in turn, against each bot in ``--eval-against``; the
margin is the agent's round points minus the bot's, averaged over the pair,
with a 95% confidence interval over the pairs (``heuristic`` joins the list
when it exists). The untrained network is evaluated on the same deals first,
for comparison, and greedy against random last, for scale. This is a small paired
evaluation of its own (the bots work adds an arena with a library API; this
example does not depend on it).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
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

from basra.bots import BOTS, Bot, make_bot
from basra.env import gym_env
from basra.env.bot import PolicyBot
from basra.env.table import Table
from basra.rules import Rules
from basra.state import PHASE_PLAY, GameState, shuffled_pack
from basra.view import view_of

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


def play_round(state: GameState, bots: Sequence[Bot]) -> None:
    """Play the dealt round to its end."""
    while state.phase == PHASE_PLAY:
        seat = state.turn
        state.play(bots[seat].choose(view_of(state, seat)))


def paired_margins(
    variant: str, rules: Rules, agent: Bot, opponent: Callable[[int], Bot], deals: int, seed: int
) -> list[float]:
    """The agent's round margin on each deal, averaged over both seatings of the deal."""
    margins = []
    for deal in range(deals):
        pack = shuffled_pack(rules, random.Random(seed * 1_000_003 + deal))
        pair = []
        for agent_seat in (0, 1):
            bots = [agent, opponent(deal)] if agent_seat == 0 else [opponent(deal), agent]
            state = GameState(variant, 2, first_dealer=deal % 2, rules=rules)
            state.deal(pack)
            play_round(state, bots)
            result = state.rounds[-1].result
            assert result is not None
            pair.append(result.points[agent_seat] - result.points[1 - agent_seat])
        margins.append(statistics.fmean(pair))
    return margins


def summary(margins: list[float]) -> str:
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    wins = sum(m > 0 for m in margins) / len(margins)
    return f"{mean:+6.2f} ± {half:4.2f} points/round  (agent ahead on {wins:4.0%} of pairs)"


def evaluate(
    label: str, model: Any, rules: Rules, args: argparse.Namespace, against: Sequence[str]
) -> None:
    def predict(observation: Any, mask: Any) -> int:
        action, _state = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    agent = PolicyBot(predict, rules, players=2, teams=False, name="ppo")
    print(f"{label} ({args.eval_deals} paired deals, {args.variant}):")
    for name in against:
        margins = paired_margins(
            args.variant,
            rules,
            agent,
            lambda deal, name=name: make_bot(name, seed=deal),
            args.eval_deals,
            args.seed + 1,
        )
        print(f"  vs {name:<10} {summary(margins)}", flush=True)


def main() -> int:
    default_opponent = "heuristic" if "heuristic" in BOTS else "greedy"
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
    if "heuristic" in BOTS and "heuristic" not in against:
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
    reference = paired_margins(
        args.variant,
        rules,
        make_bot("greedy", seed=1),
        lambda d: make_bot("random", seed=d),
        args.eval_deals,
        args.seed + 1,
    )
    print(f"reference: greedy vs random {summary(reference)}")
    return 0


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    sys.exit(main())
