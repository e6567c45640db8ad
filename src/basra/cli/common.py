"""Options shared by the commands that start or check a game."""

from __future__ import annotations

import argparse
from typing import Any

from basra.cli import CliError
from basra.rules import VARIANT_NAMES, Rules, RulesError, resolve_rules

__all__ = ["add_rules_options", "rules_from_args"]


def add_rules_options(parser: argparse.ArgumentParser, *, required_variant: bool = False) -> None:
    """``--variant`` and ``--rules`` (a custom rules file, or settings as JSON)."""
    parser.add_argument(
        "--variant",
        "-v",
        metavar="V",
        required=required_variant,
        help="the variant preset (see `basra variants`); default egyptian, "
        "or the variant named in the --rules file",
    )
    parser.add_argument(
        "--rules",
        metavar="FILE_OR_JSON",
        help="rule settings that change the variant: a .toml or .json file, or a "
        "JSON object such as '{\"target\": 121}'",
    )


def rules_from_args(args: argparse.Namespace) -> tuple[str, dict[str, Any], Rules]:
    """The variant name, the overrides and the resolved rules of the options."""
    if args.variant is not None and args.variant not in VARIANT_NAMES:
        raise CliError(
            f"unknown variant {args.variant!r}; the variants are: {', '.join(VARIANT_NAMES)}"
        )
    try:
        return resolve_rules(args.variant, args.rules)
    except RulesError as exc:
        raise CliError(str(exc)) from None
