"""The research API: Basra in PettingZoo, Gymnasium and OpenSpiel (``pip install basra[env]``).

- :func:`aec_env`: a PettingZoo AEC environment, every seat an agent.
- :func:`gym_env`: a Gymnasium environment for one seat against bots, with
  ``action_masks()`` for sb3-contrib's MaskablePPO.
- :func:`vector_env`: a Gymnasium ``VectorEnv`` of many such games stepped at
  once in the compiled kernel, against opponents that play in C.
- :func:`register_openspiel`: registers ``python_basra`` with OpenSpiel
  (``pip install basra[openspiel]``).

All of them share one action encoding (:mod:`basra.env.actions`) and one
observation encoding built from a seat's view only
(:mod:`basra.env.observation`); docs/ENV.md describes both. The core package
never imports this one, and the adapters import their framework only when
they are called.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from basra.env.actions import (
    ActionError,
    action_map,
    action_of,
    action_text,
    move_of,
    num_actions,
    option_slots,
)
from basra.env.observation import ObservationEncoder
from basra.env.table import Table
from basra.rules import Rules

if TYPE_CHECKING:
    from basra.env.gym import BasraGymEnv
    from basra.env.vector import BasraVectorEnv

__all__ = [
    "ActionError",
    "ObservationEncoder",
    "Table",
    "action_map",
    "action_of",
    "action_text",
    "aec_env",
    "gym_env",
    "move_of",
    "num_actions",
    "option_slots",
    "register_openspiel",
    "vector_env",
]


def aec_env(
    variant: str = "egyptian",
    players: int = 2,
    teams: bool = False,
    rules: Rules | Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> Any:
    """A PettingZoo AEC environment with the standard wrappers (see :mod:`basra.env.aec`)."""
    from basra.env.aec import aec_env as make

    return make(variant, players, teams, rules, render_mode, **options)


def gym_env(
    variant: str = "egyptian",
    players: int = 2,
    teams: bool = False,
    rules: Rules | Mapping[str, Any] | None = None,
    opponents: Sequence[str] = ("heuristic",),
    render_mode: str | None = None,
    **options: Any,
) -> BasraGymEnv:
    """A Gymnasium environment for one seat against bots (see :mod:`basra.env.gym`)."""
    from basra.env.gym import BasraGymEnv

    return BasraGymEnv(variant, players, teams, rules, opponents, render_mode, **options)


def vector_env(
    variant: str = "egyptian",
    num_envs: int = 8,
    players: int = 2,
    teams: bool = False,
    rules: Rules | Mapping[str, Any] | None = None,
    opponents: Sequence[str] = ("policy",),
    **options: Any,
) -> BasraVectorEnv:
    """A Gymnasium ``VectorEnv`` of ``num_envs`` games stepped in the kernel against
    ``random`` or ``policy`` opponents (see :mod:`basra.env.vector`)."""
    from basra.env.vector import BasraVectorEnv

    return BasraVectorEnv(variant, num_envs, players, teams, rules, opponents, **options)


def register_openspiel() -> None:
    """Register ``python_basra`` with OpenSpiel (safe to call again; :mod:`basra.env.openspiel`)."""
    from basra.env.openspiel import register

    register()
