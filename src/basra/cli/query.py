"""``basra captures``: the capture sets of one card on a floor."""

from __future__ import annotations

import argparse
import json
from typing import Any

from basra.cli import CliError
from basra.cli.common import add_rules_options, rules_from_args

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "captures",
        help="the capture sets a card may take from a floor, with their basra points",
        description="List the options of playing --card on --floor, after the --before "
        "plays are made from that floor (so that lone-card states can be reached).",
    )
    add_rules_options(p)
    p.add_argument("--floor", required=True, metavar="CARDS", help='the floor, e.g. "2C AH 5S 4D"')
    p.add_argument("--before", default="", metavar="MOVES", help='plays made first, e.g. "3C 4D"')
    p.add_argument("--card", required=True, metavar="C", help="the card played")
    p.add_argument("--json", action="store_true", help='print [{"take": [...], "basra": n}, ...]')
    p.set_defaults(run=run_captures)


def run_captures(args: argparse.Namespace) -> int:
    from basra.query import QueryError, capture_query

    variant, _, rules = rules_from_args(args)
    try:
        options = capture_query(variant, rules, args.floor.split(), args.before.split(), args.card)
    except QueryError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(options))
        return 0
    for option in options:
        take = " ".join(option["take"]) or "nothing (trailed)"
        basra = f"  basra {option['basra']}" if option["basra"] else ""
        print(f"takes {take}{basra}")
    return 0
