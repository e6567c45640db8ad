"""``basra bench``: how fast the engine plays on this machine, and which engine runs."""

from __future__ import annotations

import argparse
import json
from typing import Any

from basra.cli import CliError
from basra.cli.common import check_variant, seconds, whole_number

__all__ = ["register"]

_LABELS = {
    "kernel": "kernel loop (all in C)",
    "api": "API (legal_moves + push)",
    "selfplay": "selfplay (random bots)",
}


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "bench",
        help="measure the engine: random rounds per second, and which engine runs",
        description="Play random rounds on one core and print rounds/s and plays/s: the "
        "compiled kernel's own loop (when it is active), the Python API (legal_moves + push), "
        "and `basra selfplay --bots random,...` (whole games, records written). Says whether "
        "the compiled kernel or pure Python runs (BASRA_KERNEL=0 forces pure Python).",
    )
    p.add_argument("--variant", default="egyptian", metavar="V", help="default egyptian")
    p.add_argument("--players", type=whole_number, default=2, choices=(2, 3, 4))
    p.add_argument("--seconds", type=seconds, default=3.0, help="time per measurement (default 3)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    from basra.bench import report

    check_variant(args.variant)
    if args.seconds <= 0:
        raise CliError("--seconds must be more than 0")
    if not args.json:
        print(f"{args.variant}, {args.players} players, one core, {args.seconds:g} s each")
    result = report(args.variant, args.players, args.seconds)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"engine: {result['engine']}")
    for name, label in _LABELS.items():
        rounds = result[f"{name}_rounds_per_s"]
        if rounds is None:
            print(f"{label:<26} (not available: {result['engine']})")
            continue
        print(
            f"{label:<26} {rounds:>10,.0f} rounds/s {result[f'{name}_plays_per_s']:>11,.0f} plays/s"
            f"  (best batch {result[f'{name}_best_batch_rounds_per_s']:,.0f} rounds/s)"
        )
    return 0
