"""What a round is worth to the search: :class:`Reward` and :func:`round_margins`.

The bottom of the search (:mod:`basra.bots.solve`, :mod:`basra.bots.pure` and
:mod:`basra.bots.ismcts` above it, and the coach) values a finished or
half-played round with these alone; the compiled search
(``basra._search``) mirrors them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from basra.bots.base import BotError
from basra.rules import Rules

__all__ = ["REWARD_CLIPPED", "REWARD_LINEAR", "Reward", "round_margins"]

REWARD_CLIPPED = 0
"""``reward=0``: the margin's part clipped to [0, 1] at ``scale`` (flat beyond it)."""
REWARD_LINEAR = 1
"""``reward=1`` (the default): linear in the margin, never clipped."""


class Reward:
    """What a finished round is worth to each side, knowing the match score.

    ``mu`` of it is the chance of winning the match from the scores after the
    round: 1 or 0 when the round ends the game, otherwise a normal model in
    which each later round moves the lead by about ``spread`` points (a
    majority bonus and basras) and about ``(target - best score) / pace``
    rounds are left. The rest is a function of the round's point margin
    against the best other side (:meth:`of_margin`): with the default shape
    (``REWARD_LINEAR``) ``0.5 + margin / (2 * scale)``, where ``scale`` (the
    majority bonus, the card points and two basras) is about what a round
    swings. It is strictly increasing and never flattens: a round's margin is
    bounded (by the majority, its carry, the card points and at most one
    basra every other play), so the reward is bounded too, though past ``scale``
    it leaves [0, 1]. Before issue 27 it was clipped to [0, 1] there
    (``REWARD_CLIPPED``), which made every move look alike in a lopsided round
    of the variants where a basra is a big share of the scale (36 points in
    Cypriot and Lebanese play, where three or four basras are not rare).
    """

    def __init__(self, rules: Rules, sides: int, mu: float, shape: int = REWARD_LINEAR) -> None:
        if shape not in (REWARD_CLIPPED, REWARD_LINEAR):
            raise BotError(f"the reward's shape is 0 (clipped) or 1 (linear), not {shape}")
        self.mu = mu
        self.shape = shape
        self.sides = sides
        self.target = rules.target
        card_points = sum(rules.card_points[: rules.pack])
        self.scale = float(max(rules.majority_bonus + card_points + 2 * rules.basra_points, 1))
        self.pace = max((card_points + rules.majority_bonus + rules.basra_points) / sides, 1.0)
        self.spread = math.sqrt(
            (0.8 * rules.majority_bonus) ** 2 + (1.5 * rules.basra_points) ** 2 + 16.0
        )
        self.draw = rules.end_tie == "draw"

    def of_margin(self, margin: float) -> float:
        """The round margin's part of the reward (strictly increasing but for the clipped
        shape of before, flat past ``scale``).

        >>> from basra.rules import preset
        >>> reward = Reward(preset("cypriot_bastra"), 2, mu=0.0)
        >>> reward.scale, reward.of_margin(36.0), round(reward.of_margin(42.0), 4)
        (36.0, 1.0, 1.0833)
        >>> Reward(preset("cypriot_bastra"), 2, 0.0, REWARD_CLIPPED).of_margin(42.0)
        1.0
        """
        value = 0.5 + margin / (2 * self.scale)
        if self.shape == REWARD_CLIPPED:
            value = 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
        return value

    def __call__(self, points: Sequence[float], score: Sequence[float]) -> list[float]:
        """Rewards from each side's points in the round and scores after it."""
        sides = self.sides
        mu = self.mu
        out = []
        best = max(score)
        for side in range(sides):
            others = max(points[s] for s in range(sides) if s != side)
            margin = self.of_margin(points[side] - others)
            if mu:
                lead = score[side] - max(score[s] for s in range(sides) if s != side)
                if best >= self.target:
                    win = 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
                else:
                    rounds = max((self.target - best) / self.pace, 1.0)
                    z = lead / (self.spread * math.sqrt(rounds))
                    win = 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
                out.append(mu * win + (1.0 - mu) * margin)
            else:
                out.append(margin)
        return out


def round_margins(points: Sequence[float]) -> list[float]:
    """Each side's round margin: its points less the mean of the other sides' (the coach's
    measure, in points)."""
    total = sum(points)
    others = len(points) - 1
    return [p - (total - p) / others for p in points]
