"""Calibrating the levels: every level on one rating scale (``basra bots --calibrate``).

The levels (``easy`` ... ``expert``) play a round robin of paired deals in the
arena (:func:`basra.bots.arena.run_arena`), and openskill's Plackett-Luce
model (the web app's rating model) rates them from the rounds' rankings. The
scale is anchored so that ``medium`` sits at a newcomer's rating (mu 25): a
person new to the site is taken to be as strong as the ``medium`` bot until
their games say otherwise. The result is a ``basra-bot-ratings/1`` document,
the one file the web app reads its bots' fixed ratings from
(``src/basra/bots/ratings.json``); a calibration for one family and table kind
goes into that document's ``pools``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from basra.bots.arena import ArenaConfig, run_arena, summarize
from basra.bots.levels import LEVELS
from basra.rules import preset

__all__ = ["ANCHOR", "RATINGS_FILE", "calibrate", "merge_ratings"]

ANCHOR = ("medium", 25.0)
"""The level placed at a newcomer's mu (openskill's default, 25)."""
RATINGS_FILE = Path(__file__).with_name("ratings.json")
"""The bots' fixed ratings the web app reads."""
MIN_SIGMA = 1.0
"""A bot never changes, but its rating is an estimate: its sigma is at least this."""


def calibrate(
    variant: str = "egyptian",
    players: int = 2,
    teams: bool = False,
    deals: int = 100,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Rate every level against every other over ``deals`` paired deals.

    Returns ``{"levels": {level: {"mu", "sigma"}}, "arena": results.json}``,
    mu shifted so that :data:`ANCHOR` holds.
    """
    levels = tuple(LEVELS)
    sides = 2 if teams else players
    if sides > len(levels):
        raise ValueError(f"{sides} sides need more than {len(levels)} levels")
    config = ArenaConfig(
        variant, preset(variant), players, teams, levels, deals, seed=seed, jobs=jobs
    )
    games, seconds = run_arena(config, progress)
    results = summarize(config, games, seconds)
    rated = {label: entry.get("rating") for label, entry in results["bots"].items()}
    if any(rating is None for rating in rated.values()):
        raise RuntimeError("calibration needs openskill (pip install 'basra[arena]')")
    shift = ANCHOR[1] - rated[ANCHOR[0]]["mu"]
    out = {
        level: {
            "mu": round(rated[level]["mu"] + shift, 2),
            "sigma": round(max(rated[level]["sigma"], MIN_SIGMA), 2),
        }
        for level in levels
    }
    return {"levels": out, "arena": results}


def merge_ratings(
    calibrated: dict[str, dict[str, float]],
    pool: str | None,
    source: str,
    existing: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``basra-bot-ratings/1`` document with ``calibrated`` as its default (or a pool's)."""
    document: dict[str, Any] = dict(existing or {})
    document["format"] = "basra-bot-ratings/1"
    document.setdefault(
        "model", "openskill PlackettLuce with its defaults: a new person starts at mu 25"
    )
    document.setdefault("pools", {})
    if pool is None:
        document["default"] = calibrated
        document["source"] = source
    else:
        document["pools"] = {**document["pools"], pool: calibrated}
    return document


def read_ratings(path: Path) -> dict[str, Any] | None:
    """An existing ratings document, or ``None`` when there is none."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return data
