"""``basra bots``: the bots, the levels for people, and a hint for a position."""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "bots",
        help="list the bots and levels that --bots and the front ends accept",
        description="List every bot name (usable in `basra selfplay --bots` and `basra arena "
        "--bots`, with options after a colon) and the levels offered to people. "
        "`cmd:PROGRAM ARGS` runs an external bot (docs/PROTOCOL.md).",
    )
    p.add_argument("--json", action="store_true", help="names, descriptions and levels as JSON")
    p.set_defaults(run=run_bots)


def run_bots(args: argparse.Namespace) -> int:
    from basra.bots import LEVELS
    from basra.bots.base import BOT_DESCRIPTIONS

    bots = {name: text for name, text in BOT_DESCRIPTIONS.items() if name not in LEVELS}
    if args.json:
        print(json.dumps({"bots": bots, "levels": LEVELS}, indent=2))
        return 0
    width = max(len(name) for name in BOT_DESCRIPTIONS)
    print("bots:")
    for name, text in bots.items():
        print(f"  {name:<{width}}  {text}")
    print("levels (for people; the cheater is never one):")
    for name in LEVELS:
        print(f"  {name:<{width}}  {BOT_DESCRIPTIONS[name]}")
    return 0
