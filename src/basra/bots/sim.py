"""The simulator's names where the bots once kept it: :mod:`basra.sim`.

The round simulator, the hidden-card sampler and the playout policy are below
the bots (the learned belief, :mod:`basra.belief`, reads plays with them, and
the search reads the belief), so they live in :mod:`basra.sim`; this module
hands the same names on to code that imports them from here.
"""

from basra.sim import (
    Decision,
    Sampler,
    Sim,
    deal_decisions,
    deal_starts,
    likelihood,
    policy_value,
)

__all__ = [
    "Decision",
    "Sampler",
    "Sim",
    "deal_decisions",
    "deal_starts",
    "likelihood",
    "policy_value",
]
