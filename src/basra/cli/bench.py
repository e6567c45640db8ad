"""``basra bench``: how fast the engine plays on this machine."""

from __future__ import annotations

import argparse
from typing import Any

from basra.cli import CliError
from basra.cli.common import check_variant, seconds, whole_number

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "bench",
        help="measure the engine: random rounds and self-play per second",
        description="Play random rounds on one core and print rounds/s and plays/s, through "
        "the engine API and as `basra selfplay` does (bots on views, records written).",
    )
    p.add_argument("--variant", default="egyptian", metavar="V", help="default egyptian")
    p.add_argument("--players", type=whole_number, default=2, choices=(2, 3, 4))
    p.add_argument("--seconds", type=seconds, default=3.0, help="time per measurement (default 3)")
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    from basra.bench import measure, random_rounds, selfplay_rounds

    check_variant(args.variant)
    if args.seconds <= 0:
        raise CliError("--seconds must be more than 0")

    print(f"{args.variant}, {args.players} players, one core, {args.seconds:g} s each")
    print(
        measure(random_rounds(args.variant, args.players), args.seconds).line(
            "engine (legal_moves+push)"
        )
    )
    print(
        measure(selfplay_rounds(args.variant, args.players), args.seconds).line(
            "selfplay (views, records)"
        )
    )
    return 0
