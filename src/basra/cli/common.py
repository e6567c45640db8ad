"""Options shared by the commands, and the checks every command makes alike."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from basra.cli import CliError
from basra.rules import VARIANT_NAMES, Rules, RulesError, resolve_rules, rules_file_name

__all__ = [
    "add_rules_options",
    "add_spread_options",
    "check_variant",
    "existing_file",
    "rules_from_args",
    "rules_name_from_args",
    "seconds",
    "spread_from_args",
    "whole_number",
]


def whole_number(text: str) -> int:
    """An ``argparse`` type: a whole number, or an error saying that it must be one."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def seconds(text: str) -> float:
    """An ``argparse`` type: a number of seconds such as ``0.5``."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds (such as 1 or 0.5)"
        ) from None


def add_spread_options(parser: argparse.ArgumentParser, pieces: str) -> None:
    """``--jobs`` and ``--ray``, as every command that spreads its ``pieces`` (deals,
    games) over processes or a Ray cluster takes them (:mod:`basra.spread`)."""
    parser.add_argument(
        "--jobs",
        "-j",
        type=whole_number,
        metavar="J",
        help=f"processes on this machine (default 1); the {pieces} are shared out among "
        "them, with the same results",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help=f"run the {pieces} on a Ray cluster instead: its address as ray.init takes it "
        "(HEAD:6379, ray://HEAD:10001, or auto for the cluster this machine is in), or "
        "local to start Ray on this machine for the run; same results as --jobs "
        "(needs the ray extra: pip install 'basra[ray]')",
    )


def spread_from_args(args: argparse.Namespace, pieces: str) -> tuple[int, str | None]:
    """The processes and the Ray address that :func:`add_spread_options` read, checked."""
    if args.jobs is not None and args.jobs < 1:
        raise CliError("--jobs must be 1 or more")
    if args.ray is None:
        return args.jobs or 1, None
    if not args.ray.strip():
        raise CliError("--ray needs an address, or local to start Ray on this machine")
    if args.jobs is not None:
        raise CliError(
            f"--jobs counts processes on this machine; with --ray the {pieces} run on "
            "every CPU of the Ray cluster, so leave --jobs out"
        )
    return 1, args.ray.strip()


def existing_file(path: str, what: str, hint: str = "") -> Path:
    """``path`` if it names a file; otherwise a :class:`CliError` in the words of ``what``.

    Every command that reads a file says the same thing when it is not there:
    ``no saved game at 'x.json'``, ``no record file at 'x.jsonl'``; ``hint``
    (such as ``; --rules takes ...``) may follow.
    """
    file = Path(path)
    if file.is_dir():
        raise CliError(f"{path!r} is a folder, not a {what}{hint}")
    if not file.exists():
        raise CliError(f"no {what} at {path!r}{hint}")
    return file


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


def _rules_file(args: argparse.Namespace) -> str | None:
    """The ``--rules`` argument when it names a file (not inline JSON)."""
    text: str | None = args.rules
    if text is None or not text.strip() or text.lstrip().startswith("{"):
        return None
    if not Path(text).exists():
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        else:
            raise CliError(
                f"--rules {text!r} is JSON but not an object: give settings such as "
                f"'{{\"target\": 121}}', not a {_json_kind(value)}"
            )
    existing_file(
        text,
        "rules file",
        "; --rules takes a .toml or .json file, or settings as JSON such as '{\"target\": 121}'",
    )
    return text


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words: ``a list``, ``a number`` ..."""
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "number"


def check_variant(name: str) -> None:
    """A :class:`CliError` naming the variants unless ``name`` is one."""
    if name not in VARIANT_NAMES:
        raise CliError(f"unknown variant {name!r}; the variants are: {', '.join(VARIANT_NAMES)}")


def rules_from_args(args: argparse.Namespace) -> tuple[str, dict[str, Any], Rules]:
    """The variant name, the overrides and the resolved rules of the options."""
    if args.variant is not None:
        check_variant(args.variant)
    _rules_file(args)
    try:
        return resolve_rules(args.variant, args.rules)
    except RulesError as exc:
        raise CliError(str(exc)) from None


def rules_name_from_args(args: argparse.Namespace) -> str | None:
    """The ``name`` of the custom rules file given with ``--rules``, if it has one."""
    path = _rules_file(args)
    if path is None:
        return None
    try:
        return rules_file_name(path)
    except RulesError as exc:
        raise CliError(str(exc)) from None
