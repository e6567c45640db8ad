"""``basra replay``, ``basra selfplay``, ``basra variants`` and ``basra rules``."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from basra.cli import CliError
from basra.cli.common import add_rules_options, rules_from_args

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
    p.add_argument("--players", "-n", type=int, default=2, choices=(2, 3, 4), help="default 2")
    p.add_argument("--teams", action="store_true", help="4 players as two teams (seats 0+2, 1+3)")
    p.add_argument(
        "--games", "-k", type=int, default=1, metavar="K", help="games to play (default 1)"
    )
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="random seed (default 0)")
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
        help="check rule settings and print them in full",
        description="Resolve a variant and --rules (file or JSON), check every setting and "
        "print the complete settings as JSON.",
    )
    add_rules_options(p)
    p.set_defaults(run=run_rules)


def run_replay(args: argparse.Namespace) -> int:
    from basra.record import RecordError, read_records, result_json

    failed = False
    try:
        games = list(read_records(args.file))
    except RecordError as exc:
        raise CliError(str(exc)) from None
    for index, item in enumerate(games):
        if isinstance(item, RecordError):
            print(f"basra replay: {args.file}: {item}", file=sys.stderr)
            failed = True
            continue
        try:
            state = item.replay()
        except RecordError as exc:
            print(f"basra replay: {args.file}: {exc.located(index)}", file=sys.stderr)
            failed = True
            continue
        result = result_json(state)
        if args.json:
            print(json.dumps(result, separators=(",", ":")))
        else:
            print(_describe(index, item.names, result))
    return 1 if failed else 0


def _describe(index: int, names: list[str] | None, result: dict[str, Any]) -> str:
    def side_name(side: int) -> str:
        seats = result["sides"][side]
        if names:
            return " & ".join(names[s] for s in seats)
        return " & ".join(f"seat {s}" for s in seats)

    sides = range(len(result["sides"]))
    lines = [f"game {index}: {result['variant']}, " + " vs ".join(side_name(s) for s in sides)]
    for number, rnd in enumerate(result["rounds"]):
        if "score" not in rnd:
            lines.append(f"  round {number}: cut short after {len(rnd['plays'])} plays")
            continue
        parts = ", ".join(
            f"{side_name(s)} {rnd['points'][s]} ({rnd['cards'][s]} cards, "
            f"{rnd['basras'][s]} basra{'s' if rnd['basras'][s] != 1 else ''})"
            for s in sides
        )
        lines.append(f"  round {number}: {parts}; score {'-'.join(map(str, rnd['score']))}")
    score = "-".join(map(str, result["score"]))
    if result["finished"]:
        won = "a draw" if result["winner"] is None else f"{side_name(result['winner'])} won"
        lines.append(f"  {won}, {score}")
    else:
        lines.append(f"  not finished, {score}")
    return "\n".join(lines)


def run_selfplay(args: argparse.Namespace) -> int:
    from basra.bots import BotError, make_bot, play_game
    from basra.record import record_of
    from basra.state import GameError, GameState

    variant, _, rules = rules_from_args(args)
    if args.games < 0:
        raise CliError("--games must be 0 or more")
    names = [b.strip() for b in args.bots.split(",")]
    if len(names) > args.players or not all(names):
        raise CliError(
            f"--bots must name one bot per seat ({args.players}), or fewer to go round "
            f"the table, not {args.bots!r}"
        )
    names = [names[seat % len(names)] for seat in range(args.players)]
    try:
        GameState(variant, args.players, teams=args.teams, rules=rules)
        for name in set(names):
            make_bot(name, seed=0).close()
    except (GameError, BotError) as exc:
        raise CliError(str(exc)) from None
    out = sys.stdout if args.out in (None, "-") else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    started = time.perf_counter()
    rounds = plays = 0
    wins = [0] * (2 if args.teams else args.players)
    try:
        for game in range(args.games):
            rng = random.Random(f"basra-selfplay/{args.seed}/{game}")
            bots = [make_bot(name, seed=rng.getrandbits(64)) for name in names]
            state = GameState(
                variant,
                args.players,
                teams=args.teams,
                first_dealer=rng.randrange(args.players),
                rules=rules,
            )
            try:
                play_game(state, bots, rng)
            finally:
                for bot in bots:
                    bot.close()
            outcome = state.outcome()
            if outcome is not None and outcome.winner is not None:
                wins[outcome.winner] += 1
            rounds += len(state.rounds)
            plays += sum(len(r.plays) for r in state.rounds)
            out.write(json.dumps(record_of(state, names).to_json(), separators=(",", ":")) + "\n")
    except BotError as exc:
        raise CliError(str(exc)) from None
    finally:
        if out is not sys.stdout:
            out.close()
    elapsed = time.perf_counter() - started
    if out is not sys.stdout:
        rate = rounds / elapsed if elapsed else 0.0
        print(
            f"{args.games} games, {rounds} rounds, {plays} plays in {elapsed:.2f} s "
            f"({rate:,.0f} rounds/s); wins by side: {wins}; records in {args.out}"
        )
    return 0


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
    print(
        json.dumps({"variant": variant, "overrides": overrides, "rules": rules.to_dict()}, indent=2)
    )
    return 0
