"""``basra bots``: the bots, the levels for people, and a hint for a position."""

from __future__ import annotations

import argparse
import json
from typing import Any

from basra.cli import CliError
from basra.cli.common import check_variant, whole_number

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
    calibration = p.add_argument_group(
        "calibration",
        "--calibrate plays the levels against each other (a round robin of paired deals) and "
        "rates them on the web app's scale (openskill, medium at a newcomer's 25); the "
        "ratings go to stdout as a basra-bot-ratings/1 document, or into --out",
    )
    calibration.add_argument("--calibrate", action="store_true", help="rate the levels")
    calibration.add_argument("--variant", default="egyptian", metavar="V", help="default egyptian")
    calibration.add_argument("--players", type=whole_number, default=2, choices=(2, 3, 4))
    calibration.add_argument("--teams", action="store_true", help="4 players as two teams")
    calibration.add_argument("--deals", type=whole_number, default=100, help="default 100")
    calibration.add_argument("--seed", type=whole_number, default=0, help="default 0")
    calibration.add_argument("--jobs", type=whole_number, default=1, help="processes (default 1)")
    calibration.add_argument(
        "--out",
        metavar="FILE",
        help="write the ratings into FILE (as its default ratings for Egyptian 2 players, "
        "else its pool FAMILY/KIND), keeping what else it holds; the web app reads "
        "src/basra/bots/ratings.json",
    )
    p.set_defaults(run=run_bots)


def run_bots(args: argparse.Namespace) -> int:
    from basra.bots import LEVELS
    from basra.bots.base import BOT_DESCRIPTIONS

    if args.calibrate:
        return run_calibration(args)

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


def run_calibration(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from basra.bots.calibrate import calibrate, merge_ratings, read_ratings
    from basra.cli.arena import Progress
    from basra.pools import pool_of

    check_variant(args.variant)
    if args.teams and args.players != 4:
        raise CliError("--teams needs --players 4")
    if args.deals < 2:
        raise CliError("--deals must be 2 or more (ratings need a spread)")
    if args.jobs < 1:
        raise CliError("--jobs must be 1 or more")
    progress = Progress(sys.stderr, "calibration")
    result = calibrate(
        args.variant, args.players, args.teams, args.deals, args.seed, args.jobs, progress
    )
    levels = result["levels"]
    default = args.variant == "egyptian" and args.players == 2 and not args.teams
    pool = None if default else pool_of(args.variant, args.players, args.teams)
    source = (
        f"basra bots --calibrate --variant {args.variant} --players {args.players}"
        f"{' --teams' if args.teams else ''} --deals {args.deals} --seed {args.seed}"
    )
    existing = read_ratings(Path(args.out)) if args.out else None
    document = merge_ratings(levels, pool, source, existing)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    for level, rating in levels.items():
        print(f"{level:<8} mu {rating['mu']:6.2f}  sigma {rating['sigma']:.2f}", file=sys.stderr)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {args.out!r}: {exc.strerror}") from None
        print(f"ratings written to {args.out} ({pool or 'default'})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
