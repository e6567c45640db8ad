"""``basra replay``, ``basra selfplay``, ``basra variants`` and ``basra rules``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from basra.cli import CliError
from basra.cli.common import (
    add_rules_options,
    existing_file,
    rules_from_args,
    rules_name_from_args,
    whole_number,
)

if TYPE_CHECKING:
    from basra.record import RecordError

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the commands of this module."""
    p = subparsers.add_parser(
        "replay",
        help="check a game record play by play and print the results",
        description="Replay the games of a record file (.json: one game; .jsonl: one per "
        "line), checking every play against the rules.",
    )
    p.add_argument("file", metavar="FILE", help="a .json or .jsonl record file")
    p.add_argument("--json", action="store_true", help="print basra-result/1 JSON, one game a line")
    p.set_defaults(run=run_replay)

    p = subparsers.add_parser(
        "selfplay",
        help="play games between bots and write their records",
        description="Play whole games between bots and write their records as JSON lines. "
        "The same seed gives the same records.",
    )
    add_rules_options(p)
    p.add_argument(
        "--players", "-n", type=whole_number, default=2, choices=(2, 3, 4), help="default 2"
    )
    p.add_argument("--teams", action="store_true", help="4 players as two teams (seats 1+3, 2+4)")
    p.add_argument(
        "--games", "-k", type=whole_number, default=1, metavar="K", help="games to play (default 1)"
    )
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument(
        "--seed", "-s", type=whole_number, default=0, metavar="S", help="random seed (default 0)"
    )
    p.add_argument(
        "--bots",
        default="random",
        metavar="B1,B2,...",
        help="one bot per seat in seat order; fewer names go round the table (one name "
        "for all seats; with --teams, two names give one bot per side). Default random; "
        "see `basra bots`",
    )
    p.add_argument(
        "--out", "-o", metavar="FILE.jsonl", help="where to write the records (- for stdout)"
    )
    p.set_defaults(run=run_selfplay)

    p = subparsers.add_parser("variants", help="list the variant presets")
    p.add_argument("--json", action="store_true", help="every preset's settings as JSON")
    p.set_defaults(run=run_variants)

    p = subparsers.add_parser(
        "rules",
        help="the rules of a variant in words, with every setting checked",
        description="Resolve a variant and --rules (file or JSON), check every setting and "
        "print the rules in words, written from the settings (the text of the web app's "
        "rules page), then every setting. --json prints the settings as JSON instead.",
    )
    add_rules_options(p)
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"variant": ..., "overrides": {...}, "rules": {...}} as JSON',
    )
    p.set_defaults(run=run_rules)


def run_replay(args: argparse.Namespace) -> int:
    from basra.record import RecordError, read_records, result_json

    existing_file(args.file, "record file")
    failed = False
    try:
        games = list(read_records(args.file))
    except RecordError as exc:
        raise CliError(str(exc)) from None
    if not games:
        raise CliError(f"{args.file!r} holds no game")
    for index, item in enumerate(games):
        try:
            if isinstance(item, RecordError):
                raise item
            state = item.replay()
        except RecordError as exc:
            where = error_text(exc.located(index), from_one=not args.json)
            print(f"basra replay: error: {args.file}: {where}", file=sys.stderr)
            failed = True
            continue
        result = result_json(state)
        if args.json:
            print(json.dumps(result, separators=(",", ":")))
        else:
            print(describe_result(index, item.names, result))
    return 1 if failed else 0


def error_text(error: RecordError, *, from_one: bool) -> str:
    """A record's error with where it is: counted from 0 as RECORD.md has it for
    ``--json``, or from 1 for people, as the summaries count.

    >>> from basra.record import RecordError
    >>> error = RecordError("no such card", game=0, round=2, play=5)
    >>> error_text(error, from_one=False), error_text(error, from_one=True)
    ('game 0, round 2, play 5: no such card', 'game 1, round 3, play 6: no such card')
    """
    return error.for_people() if from_one else str(error)


def describe_result(index: int, names: list[str] | None, result: dict[str, Any]) -> str:
    """A replayed game in words for people: games, rounds and seats counted from 1.

    ``result`` is the game's ``basra-result/1`` object; ``names`` the record's.
    The final line puts the winner's score first.
    """
    labels = side_labels(names, result["sides"])

    def side_name(side: int) -> str:
        return labels[side]

    sides = range(len(result["sides"]))
    lines = [f"game {index + 1}: {result['variant']}, " + " vs ".join(side_name(s) for s in sides)]
    for number, rnd in enumerate(result["rounds"], start=1):
        if "score" not in rnd:
            plays = len(rnd["plays"])
            lines.append(f"  round {number}: cut short after {plays} play{'s' * (plays != 1)}")
            continue
        parts = ", ".join(
            f"{side_name(s)} {rnd['points'][s]} ({rnd['cards'][s]} cards, "
            f"{rnd['basras'][s]} basra{'s' if rnd['basras'][s] != 1 else ''})"
            for s in sides
        )
        lines.append(f"  round {number}: {parts}; score {'-'.join(map(str, rnd['score']))}")
    score: list[int] = result["score"]
    if result["finished"] and result["winner"] is not None:
        winner: int = result["winner"]
        others = sorted((s for s in sides if s != winner), key=lambda s: -score[s])
        if len(others) == 1:
            lines.append(f"  {side_name(winner)} won, {score[winner]}-{score[others[0]]}")
        else:
            behind = ", ".join(f"{side_name(s)} {score[s]}" for s in others)
            lines.append(f"  {side_name(winner)} won with {score[winner]}; {behind}")
    elif result["finished"]:
        lines.append(f"  a draw, {'-'.join(map(str, score))}")
    else:
        lines.append(f"  not finished, {'-'.join(map(str, score))}")
    return "\n".join(lines)


def run_selfplay(args: argparse.Namespace) -> int:
    from basra.bots import BotError, make_bot
    from basra.bots.base import split_bot_list
    from basra.bots.runner import selfplay
    from basra.state import GameError, GameState

    variant, _, rules = rules_from_args(args)
    if args.games < 1:
        raise CliError("--games must be 1 or more")
    names = split_bot_list(args.bots)
    if len(names) > args.players or not all(names):
        raise CliError(
            f"--bots must name one bot per seat ({args.players}), or fewer to go round "
            f"the table, not {args.bots!r}"
        )
    names = [names[seat % len(names)] for seat in range(args.players)]
    try:
        sides = GameState(variant, args.players, teams=args.teams, rules=rules).sides
        for name in set(names):
            make_bot(name, seed=0).close()
    except (GameError, BotError) as exc:
        raise CliError(str(exc)) from None
    if args.out not in (None, "-") and Path(args.out).exists() and not args.force:
        raise CliError(f"{args.out!r} exists: give a new file name, or --force to replace it")
    try:
        out = sys.stdout if args.out in (None, "-") else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise CliError(f"cannot write the records to {args.out!r}: {exc.strerror}") from None
    started = time.perf_counter()
    try:
        tally = selfplay(
            variant, args.players, names, args.games, args.seed, out, teams=args.teams, rules=rules
        )
    except BotError as exc:
        raise CliError(str(exc)) from None
    finally:
        if out is not sys.stdout:
            out.close()
    elapsed = time.perf_counter() - started
    if out is not sys.stdout:
        rate = tally.rounds / elapsed if elapsed else 0.0
        print(
            f"{args.games} game{'s' * (args.games != 1)}, {tally.rounds} rounds, "
            f"{tally.plays} plays in {elapsed:.2f} s "
            f"({rate:,.0f} rounds/s); records in {args.out}"
        )
        print("wins: " + wins_text(names, sides, tally.wins or [0] * len(sides), tally.draws))
    return 0


def side_labels(names: Sequence[str] | None, sides: Sequence[Sequence[int]]) -> list[str]:
    """Each side in words: its seats' names, and its seats (counted from 1) when names repeat.

    >>> side_labels(["random", "greedy", "random", "greedy"], [(0, 2), (1, 3)])
    ['random & random', 'greedy & greedy']
    >>> side_labels(["random", "random"], [(0,), (1,)])
    ['random (seat 1)', 'random (seat 2)']
    >>> side_labels(None, [(0,), (1,)])
    ['seat 1', 'seat 2']
    """
    if not names:
        return [seats_text(seats) for seats in sides]
    labels = [" & ".join(names[seat] for seat in seats) for seats in sides]
    if len(set(labels)) == len(labels):
        return labels
    return [f"{label} ({seats_text(seats)})" for label, seats in zip(labels, sides, strict=True)]


def seats_text(seats: Sequence[int]) -> str:
    """Seats for people, counted from 1: ``seat 2``, ``seats 1+3``."""
    return ("seats " if len(seats) > 1 else "seat ") + "+".join(str(s + 1) for s in seats)


def wins_text(
    names: Sequence[str], sides: Sequence[Sequence[int]], wins: Sequence[int], draws: int
) -> str:
    """Who won how many games, each side named by its bots and its seats (counted from 1).

    >>> wins_text(["random", "greedy"], [(0,), (1,)], [3, 7], 0)
    'random (seat 1) 3, greedy (seat 2) 7'
    >>> wins_text(["a", "b", "a", "b"], [(0, 2), (1, 3)], [4, 5], 1)
    'a & a (seats 1+3) 4, b & b (seats 2+4) 5, draws 1'
    """
    parts = [
        f"{' & '.join(names[seat] for seat in seats)} ({seats_text(seats)}) {wins[side]}"
        for side, seats in enumerate(sides)
    ]
    if draws:
        parts.append(f"draws {draws}")
    return ", ".join(parts)


def run_variants(args: argparse.Namespace) -> int:
    from basra.rules import PRESETS, VARIANT_DESCRIPTIONS

    if args.json:
        print(json.dumps({name: rules.to_dict() for name, rules in PRESETS.items()}, indent=2))
        return 0
    width = max(map(len, PRESETS))
    for name in PRESETS:
        print(f"{name:<{width}}  {VARIANT_DESCRIPTIONS[name]}")
    return 0


def run_rules(args: argparse.Namespace) -> int:
    variant, overrides, rules = rules_from_args(args)
    if args.json:
        settings = {"variant": variant, "overrides": overrides, "rules": rules.to_dict()}
        print(json.dumps(settings, indent=2))
        return 0
    import shutil

    from basra.describe import rules_text

    width = min(shutil.get_terminal_size().columns, 100) - 2
    print(rules_text(variant, rules, name=rules_name_from_args(args), width=max(width, 40)))
    return 0
