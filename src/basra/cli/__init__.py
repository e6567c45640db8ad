"""The ``basra`` command (also ``python -m basra``).

Each subcommand lives in its own module with ``register(subparsers)``; modules
import heavy optional dependencies only when their command runs, so ``basra
replay`` starts fast and works without the extras installed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

__all__ = ["CliError", "Parser", "main"]

# Command modules in the order `basra --help` lists them. Optional front ends
# (terminal play, web server, arena ...) register here too.
COMMAND_MODULES = (
    "basra.cli.records",
    "basra.cli.review",
    "basra.cli.learn",
    "basra.cli.puzzles",
    "basra.cli.query",
    "basra.cli.bench",
    "basra.cli.play",
    "basra.cli.arena",
    "basra.cli.serve",
    "basra.cli.admin",
    "basra.cli.bots",
    "basra.cli.train",
)


class CliError(Exception):
    """A user error: printed as ``basra CMD: error: MESSAGE`` with exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error of ``basra``.

    argparse prints the whole usage before a mistake in an option; the one line
    here says what was wrong and where the options are listed instead. The
    subcommands' parsers are of this class too (``add_subparsers`` uses it).
    """

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE`` and where to read the options, then exit with 2."""
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    from basra import __version__

    parser = Parser(
        prog="basra",
        description="Basra, the fishing card game, in every regional variant.",
    )
    parser.add_argument("--version", action="version", version=f"basra {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # a front end that is not part of this installation
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``basra`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status: int = args.run(args)
    except CliError as exc:
        print(f"basra {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"basra {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status
