"""``basra play``: play Basra in the terminal against bots or friends."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from basra.cli import CliError
from basra.cli.common import (
    add_rules_options,
    existing_file,
    rules_from_args,
    rules_name_from_args,
    seconds,
    whole_number,
)

__all__ = ["register"]

THEMES = {"dark": "textual-dark", "light": "textual-light"}


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "play",
        help="play in the terminal against bots, or with friends at one keyboard",
        description="Play Basra in the terminal. Plain `basra play` is a 2-player Egyptian "
        "game against a medium bot. Keys: 1-6 or arrows pick a card, Enter plays it, "
        "h gives a hint, s saves, ? shows help, q or Ctrl+C leaves (offering to save).",
        epilog="examples:\n"
        "  basra play --variant lebanese --players 4 --teams --level hard\n"
        "  basra play --players 3 --seats you,easy,expert --target 61\n"
        "  basra play --seats you,you          # two people take turns at one keyboard\n"
        "  basra play --resume basra-20250101-120000.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_options(p)
    p.add_argument(
        "--players",
        "-n",
        type=whole_number,
        choices=(2, 3, 4),
        help="2, 3 or 4 players (default 2)",
    )
    p.add_argument("--teams", action="store_true", help="4 players as two teams (seats 1+3, 2+4)")
    p.add_argument(
        "--seats",
        metavar="S1,S2,...",
        help="who plays each seat in turn order: 'you' for a person, a bot level "
        "(easy, medium, hard, expert), or any bot of `basra bots` with its options, "
        "an external one included (cmd:PROGRAM ARGS); several 'you' share the keyboard. "
        "Default: you, then bots",
    )
    p.add_argument(
        "--level",
        default="medium",
        metavar="LEVEL",
        help="the level of every bot when --seats is not given (default medium)",
    )
    p.add_argument("--names", metavar="N1,N2,...", help="a name for each seat")
    p.add_argument(
        "--target",
        type=whole_number,
        metavar="POINTS",
        help="points to win (default: the variant's)",
    )
    p.add_argument(
        "--seed",
        type=whole_number,
        metavar="S",
        help="seed of the deals and bots (default: random)",
    )
    p.add_argument(
        "--pace",
        type=seconds,
        default=1.0,
        metavar="SECONDS",
        help="how long each bot move takes to show (default 1; 0 for at once)",
    )
    p.add_argument(
        "--save", metavar="FILE", help="where to save the game (default basra-DATE.json)"
    )
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (or any game record)")
    p.add_argument("--colours", choices=sorted(THEMES), help="dark or light colours")
    # The old name, still taken (a puzzle's --theme is its topic: not this).
    p.add_argument("--theme", dest="colours", choices=sorted(THEMES), help=argparse.SUPPRESS)
    p.set_defaults(run=run_play)


def make_session(args: argparse.Namespace) -> Any:
    """The :class:`~basra.tui.session.Session` the options describe (new or resumed)."""
    from basra.bots import LEVELS
    from basra.tui.session import Session, SessionError, parse_seats

    names = args.names.split(",") if args.names else None
    if args.pace < 0:
        raise CliError("--pace must be 0 or more seconds")
    try:
        if args.resume:
            given = [
                flag
                for flag, value in (
                    ("--variant", args.variant),
                    ("--rules", args.rules),
                    ("--players", args.players),
                    ("--teams", args.teams or None),
                    ("--target", args.target),
                    ("--seed", args.seed),
                )
                if value is not None
            ]
            if given:
                raise CliError(
                    f"{', '.join(given)} cannot change a saved game; --resume takes the "
                    "table, rules and seed from the file"
                )
            existing_file(args.resume, "saved game")
            session = Session.load(args.resume, names=names)
            if args.seats:
                seats = parse_seats(args.seats, session.state.players)
                session = Session.load(args.resume, seats=seats, names=names)
            return session
        variant, overrides, _ = rules_from_args(args)
        if args.target is not None:
            if args.target < 1:
                raise CliError("--target must be 1 or more points")
            overrides = {**overrides, "target": args.target}
        players = args.players
        if args.teams and players is None:
            players = 4
        if args.seats:
            seats = parse_seats(args.seats, players or len(args.seats.split(",")))
        else:
            if args.level not in LEVELS:
                raise CliError(f"unknown level {args.level!r}; the levels are: {', '.join(LEVELS)}")
            seats = ["person"] + [args.level] * ((players or 2) - 1)
        return Session.new(
            variant,
            overrides,
            players=players or len(seats),
            teams=args.teams,
            seats=seats,
            names=names,
            seed=args.seed,
            rules_name=rules_name_from_args(args),
        )
    except SessionError as exc:
        raise CliError(str(exc)) from None


def run_play(args: argparse.Namespace) -> int:
    """Play until the person leaves; print where the game was saved, if it was."""
    session = make_session(args)
    try:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise CliError(
                "a terminal is needed to draw the table and read keys: run it in a "
                "terminal window, without redirecting its input or output (to play games "
                "between bots without a screen, use basra selfplay)"
            )
        try:
            import textual  # noqa: F401
        except ModuleNotFoundError:
            raise CliError(
                "terminal play needs Textual: install it with pip install 'basra[tui]'"
            ) from None
    except CliError:
        session.close()
        raise
    from basra.tui import run

    message = run(
        session,
        pace=args.pace,
        save_path=Path(args.save or args.resume) if (args.save or args.resume) else None,
        resumed_from=Path(args.resume) if args.resume else None,
        theme_name=THEMES[args.colours] if args.colours else None,
    )
    if message:
        print(message)
    return 0
