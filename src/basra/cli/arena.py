"""``basra arena``: measure bots against each other on paired deals."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import IO, Any

from basra.cli import CliError
from basra.cli.common import (
    add_rules_options,
    add_spread_options,
    rules_from_args,
    spread_from_args,
)

__all__ = ["Progress", "duration", "register", "report", "write_chart"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "arena",
        help="measure bots on paired deals: points per round, win rates, ratings",
        description="Play bots against each other. Every deal is played again with the bots "
        "rotated around the table (paired, duplicate deals), so the luck of the cards "
        "cancels. With more bots than sides, every lineup plays (a round robin). Prints "
        "points per round and win rates with 95% confidence intervals and ratings; --out "
        "writes results.json and results.png.",
        epilog="Bots: see `basra bots`; `cmd:PROGRAM ARGS` runs an external bot "
        "(docs/PROTOCOL.md). Examples: basra arena --bots ismcts,heuristic --deals 200 --jobs 2; "
        "basra arena --bots expert,heuristic --deals 2000 --ray HEAD:6379 (docs/BOTS.md).",
    )
    add_rules_options(p)
    p.add_argument("--players", "-n", type=int, default=2, choices=(2, 3, 4), help="default 2")
    p.add_argument("--teams", action="store_true", help="4 players as two teams (seats 1+3, 2+4)")
    p.add_argument(
        "--bots",
        required=True,
        metavar="A,B[,C...]",
        help="the bots, one per side; more bots than sides make a round robin",
    )
    p.add_argument("--deals", "-k", type=int, default=100, metavar="K", help="default 100")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="default 0")
    add_spread_options(p, "deals")
    p.add_argument(
        "--matches",
        action="store_true",
        help="play whole matches to the target instead of single rounds",
    )
    p.add_argument("--out", "-o", metavar="DIR", help="write results.json and results.png here")
    p.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="seconds an external bot may take per move (default 10)",
    )
    p.add_argument("--json", action="store_true", help="print results.json to stdout")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(run=run_arena_command)


class Progress:
    """A one-line progress bar with an ETA on a terminal; a line per 10% otherwise."""

    def __init__(self, stream: IO[str], label: str, width: int = 28) -> None:
        self.stream = stream
        self.label = label
        self.width = width
        self.started = time.monotonic()
        self.tty = stream.isatty()
        self.last_tenth = -1
        self.last_draw = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done == 0:
            self.started = now  # the clock starts with the deals (after Ray is up, with --ray)
        elapsed = now - self.started
        fraction = done / total if total else 1.0
        if self.tty:
            if done < total and now - self.last_draw < 0.1:
                return
            self.last_draw = now
            filled = int(self.width * fraction)
            bar = "#" * filled + "." * (self.width - filled)
            line = (
                f"\r{self.label} [{bar}] {done}/{total} {100 * fraction:3.0f}% "
                f"{_clock(elapsed)} elapsed, ETA {self.eta(done, total, elapsed)}  "
            )
            self.stream.write(line)
            if done == total:
                self.stream.write("\n")
            self.stream.flush()
            return
        tenth = int(10 * fraction)
        if tenth > self.last_tenth:
            self.last_tenth = tenth
            self.stream.write(
                f"{self.label}: {done}/{total} ({100 * fraction:.0f}%), {_clock(elapsed)} "
                f"elapsed, ETA {self.eta(done, total, elapsed)}\n"
            )
            self.stream.flush()

    @staticmethod
    def eta(done: int, total: int, elapsed: float) -> str:
        """Time left at the pace so far (``--:--`` before the first deal is done)."""
        if done == 0:
            return "--:--"
        return _clock(elapsed / done * (total - done))


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def run_arena_command(args: argparse.Namespace) -> int:
    from basra.bots import BotError, make_bot
    from basra.bots.arena import ArenaConfig, ClusterError, run_arena, summarize, tables_for
    from basra.bots.base import split_bot_list
    from basra.state import GameError, GameState

    variant, _, rules = rules_from_args(args)
    if args.deals < 1:
        raise CliError("--deals must be 1 or more")
    jobs, ray = spread_from_args(args, "deals")
    if args.time_limit is not None:
        if not args.time_limit > 0:
            raise CliError("--time-limit must be a positive number of seconds")
        os.environ["BASRA_BOT_TIME_LIMIT"] = str(args.time_limit)  # read by cmd: bots
    names = [b for b in split_bot_list(args.bots) if b]
    if len(names) < 2:
        raise CliError("--bots needs at least two bots (the same one twice is allowed)")
    sides = 2 if args.teams else args.players
    try:
        GameState(variant, args.players, teams=args.teams, rules=rules)
        tables_for(len(names), sides)
        for name in dict.fromkeys(names):
            make_bot(name, seed=0).close()
    except (GameError, BotError) as exc:
        raise CliError(str(exc)) from None
    except ValueError as exc:
        raise CliError(f"--bots: {exc}") from None
    config = ArenaConfig(
        variant=variant,
        rules=rules,
        players=args.players,
        teams=args.teams,
        bots=tuple(names),
        deals=args.deals,
        seed=args.seed,
        matches=args.matches,
        jobs=jobs,
        ray=ray,
    )
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"--out: cannot make {out_dir}: {exc}") from None
    progress = None if args.quiet else Progress(sys.stderr, "arena")
    try:
        games, seconds = run_arena(config, progress)
    except (BotError, ClusterError) as exc:
        if progress is not None and progress.tty:
            sys.stderr.write("\n")
        raise CliError(f"--ray: {exc}" if isinstance(exc, ClusterError) else str(exc)) from None
    summary = summarize(config, games, seconds)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(report(summary))
    if out_dir is not None:
        (out_dir / "results.json").write_text(json.dumps(summary, indent=2) + "\n")
        try:
            write_chart(summary, out_dir / "results.png")
            chart = " and results.png"
        except ImportError:
            chart = " (no chart: install the arena extra for matplotlib)"
        if not args.json:
            print(f"results.json{chart} written to {out_dir}")
    return 0


def report(summary: dict[str, Any]) -> str:
    """The text report of a results.json document."""
    deals = summary["deals"]
    intervals = deals >= 2
    rate = "match_win_rate" if summary["matches"] else "round_win_rate"
    wins = "match wins" if summary["matches"] else "round wins"
    ci = " [95% CI]" if intervals else ""
    width = max(12, *(len(name) for name in summary["bots"]))
    points_width = 24 if intervals else 12
    rate_width = 23 if intervals else 10
    lines = [
        _setting_line(summary),
        _run_line(summary),
        f"{'bot':<{width}} {'rounds':>7}  {'points/round' + ci:<{points_width}}  "
        f"{wins + ci:<{rate_width}}  {'elo':>5}  {'median time':>11}",
    ]
    for name, entry in summary["bots"].items():
        points = _interval(entry["points_per_round"], intervals, "{:.2f}")
        wins_text = _interval(entry[rate], intervals, "{:.1%}")
        times = entry["decision_seconds"]
        median = duration(times["median"]) if "median" in times else "-"
        lines.append(
            f"{name:<{width}} {entry['rounds']:>7}  {points:<{points_width}}  "
            f"{wins_text:<{rate_width}}  {entry['elo']:>+5.0f}  {median:>11}"
        )
    margins = [summary["margin"]] if "margin" in summary else summary.get("pairs", [])
    for margin in margins:
        lines.append(
            f"margin {margin['first']} - {margin['second']}: "
            f"{_interval(margin, intervals, '{:+.2f}')} points per round, paired over "
            f"{_plural(margin['deals'], 'deal')}"
        )
    if not intervals:
        lines.append("No 95% intervals: an interval needs at least 2 deals (--deals 2 or more).")
    lines.append("median time: a bot's median time per decision with more than one legal move")
    return "\n".join(lines)


def _interval(interval: dict[str, float | None], show: bool, form: str) -> str:
    """``31.50 [28.12, 34.88]``; the mean alone when not ``show`` or a bound is missing."""
    mean, low, high = interval["mean"], interval["low"], interval["high"]
    if mean is None:
        return "-"
    text = form.format(mean)
    if show and low is not None and high is not None:
        text += f" [{form.format(low)}, {form.format(high)}]"
    return text


def _setting_line(summary: dict[str, Any]) -> str:
    """``Egyptian rules, 2 players, single rounds, seed 0``."""
    from basra.rules import preset

    variant = summary["variant"]
    rules_text = f"{variant.capitalize()} rules"
    base = preset(variant).to_dict()
    changed = {k: v for k, v in summary["rules"].items() if base.get(k) != v}
    if changed:
        shown = [f"{k}={v}" if isinstance(v, (int, str)) else k for k, v in changed.items()]
        rules_text += f" (changed: {', '.join(shown)})"
    players = f"{summary['players']} players"
    if summary["teams"]:
        players += " in two teams (seats 1+3 against 2+4)"
    if summary["matches"]:
        unit = f"whole matches to {summary['rules']['target']}"
    else:
        unit = "single rounds"
    return f"{rules_text}, {players}, {unit}, seed {summary['seed']}"


def _run_line(summary: dict[str, Any]) -> str:
    """``100 deals, each played twice with the seats swapped: 200 rounds in 1.3 s``."""
    deals, rotations, lineups = summary["deals"], summary["rotations"], len(summary["tables"])
    swapped = "the teams swapped" if summary["teams"] else "the seats swapped"
    if rotations == 2:
        played = f"twice with {swapped}"
    else:
        played = f"{rotations} times, the bots moving one seat round each time"
    every = "each" if deals > 1 else ""
    if lineups > 1:
        every = "every deal"
    text = f"{_plural(deals, 'deal')}, {every + ' ' if every else ''}played {played}"
    if lineups > 1:
        text = f"{lineups} lineups (a round robin) on the same {text}"
    games = deals * rotations * lineups
    unit = "match" if summary["matches"] else "round"
    took = duration(summary["seconds"]) if summary["seconds"] >= 0.01 else "under 10 ms"
    return f"{text}: {_plural(games, unit)} in {took}"


def _plural(count: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{count:,} {noun if count == 1 else plural}"


def _digits(value: float) -> str:
    """Three significant digits of a value below 1000, trailing zeros kept: 4.00, 12.1, 184."""
    if value <= 0:
        return "0"
    places = max(0, 2 - math.floor(math.log10(value)))
    text = f"{value:.{places}f}"
    if float(text) >= 1000:  # 999.7 rounds up: one more digit is still honest
        return f"{value:.0f}"
    return text


def duration(seconds: float) -> str:
    """Seconds for people: three significant digits in µs, ms or s; minutes and hours past 60 s.

    >>> duration(0.0000382), duration(0.000004), duration(0.00123), duration(0.2334)
    ('38.2 µs', '4.00 µs', '1.23 ms', '233 ms')
    >>> duration(1.25), duration(125), duration(3725)
    ('1.25 s', '2 min 5 s', '1 h 2 min')
    """
    if seconds < 1e-3:
        return f"{_digits(seconds * 1e6)} µs"
    if seconds < 1:
        return f"{_digits(seconds * 1e3)} ms"
    if seconds < 60:
        return f"{_digits(seconds)} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def write_chart(summary: dict[str, Any], path: Path) -> None:
    """A PNG of points per round and win rates with their 95% intervals (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(summary["bots"])
    rate = "match_win_rate" if summary["matches"] else "round_win_rate"
    fig, axes = plt.subplots(1, 2, figsize=(max(8.0, 1.6 * len(names) + 4), 4.2))
    for ax, key, title, scale in (
        (axes[0], "points_per_round", "points per round", 1.0),
        (axes[1], rate, rate.replace("_", " ") + " (%)", 100.0),
    ):
        # No bar around a mean whose interval does not exist (a single deal).
        intervals = [summary["bots"][n][key] for n in names]
        means = [scale * (i["mean"] or 0.0) for i in intervals]
        lows = [scale * i["low"] if i["low"] is not None else scale * i["mean"] for i in intervals]
        highs = [
            scale * i["high"] if i["high"] is not None else scale * i["mean"] for i in intervals
        ]
        errors = [
            [max(m - lo, 0.0) for m, lo in zip(means, lows, strict=True)],
            [max(h - m, 0.0) for m, h in zip(means, highs, strict=True)],
        ]
        ax.bar(names, means, yerr=errors, capsize=6, color="#4c72b0")
        ax.set_title(f"{title}, 95% CI")
        ax.tick_params(axis="x", labelrotation=20)
        ax.grid(axis="y", alpha=0.3)
    teams = ", teams" if summary["teams"] else ""
    fig.suptitle(
        f"basra arena: {summary['variant']}, {summary['players']} players{teams}, "
        f"{summary['deals']} paired deals"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
