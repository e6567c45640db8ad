"""``basra puzzles``: make puzzles from game records, play them, list and check them."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from basra.cli import CliError
from basra.cli.common import (
    add_spread_options,
    existing_file,
    spread_from_args,
    whole_number,
)
from basra.locales import default_language, languages

if TYPE_CHECKING:
    from basra.puzzles.format import Puzzle
    from basra.puzzles.mine import MineSettings, MineStats, Progress
    from basra.record import Record, RecordError

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "puzzles",
        help="puzzles from real games: make them, play them, list and check them",
        description="Puzzles are decisions of real games where one move beats every other by "
        "a clear margin, proven exactly where nothing hidden can change the answer. "
        "docs/LEARN.md explains them; docs/RECORD.md gives the basra-puzzle/1 line.",
    )
    commands = p.add_subparsers(dest="puzzles_command", metavar="COMMAND")
    p.set_defaults(run=lambda args: _missing(p))

    make = commands.add_parser(
        "make",
        help="mine puzzles from game records",
        description="Screen every decision of the games (the coach's analysis, or the values "
        "of reviews given with --reviews), prove the clear ones (exhaustively when the hidden "
        "cards allow, else by a search ten times the expert's), theme and rate them, and "
        "write one basra-puzzle/1 line per puzzle. Thousands of games are many CPU hours: "
        "--jobs or --ray share the games out, with the same puzzles in the same order.",
        epilog="Example: basra puzzles make games.jsonl --out puzzles.jsonl --jobs 8; "
        "basra puzzles make games.jsonl --out puzzles.jsonl --ray HEAD:6379 (docs/LEARN.md).",
    )
    make.add_argument("files", nargs="+", metavar="FILE", help=".json or .jsonl record files")
    make.add_argument("--out", "-o", required=True, metavar="FILE.jsonl", help="the puzzles")
    make.add_argument(
        "--reviews",
        metavar="FILE.jsonl",
        help="`basra review --json` of the same games (one file, games in the same order): "
        "their values are the screen",
    )
    make.add_argument(
        "--samples", type=whole_number, metavar="K", help="the screen's budget (the review's)"
    )
    make.add_argument(
        "--proof-samples",
        type=whole_number,
        metavar="K",
        help="iterations a move of the search that proves a puzzle no solver can (default "
        "ten times the expert's: 120000)",
    )
    make.add_argument("--seed", type=whole_number, default=0, metavar="S", help="default 0")
    make.add_argument("--no-rate", action="store_true", help="rate every puzzle 1500 (faster)")
    add_spread_options(make, "games")
    make.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    make.set_defaults(run=run_make)

    play = commands.add_parser(
        "play",
        help="solve puzzles in the terminal",
        description="Solve puzzles one after another: find the move that beats every other. "
        "Keys: 1-6 or arrows pick a card (what it would take is shown), Enter plays it, "
        "n the next puzzle, l switches language, q quits.",
    )
    _select_options(play)
    play.add_argument(
        "--lang",
        choices=tuple(languages()),
        default=default_language(),
        help="language (default: the terminal's locale, else en)",
    )
    play.add_argument(
        "--seed", type=whole_number, metavar="S", help="shuffle the puzzles (default: in order)"
    )
    play.set_defaults(run=run_play)

    show = commands.add_parser(
        "list",
        help="list puzzles: id, variant, theme, rating, exact",
        description="List the puzzles of a file (default: the set that ships with basra).",
    )
    _select_options(show)
    show.add_argument("--json", action="store_true", help="the puzzles' public views as JSON")
    show.set_defaults(run=run_list)

    check = commands.add_parser(
        "check",
        help="read every puzzle of a file and prove its exact ones again",
        description="Read every line (each record replays, each move is legal, the answer "
        "first) and solve every exact puzzle again, every arrangement of its hidden cards.",
    )
    check.add_argument("file", nargs="?", metavar="FILE", help="default: the shipped set")
    check.set_defaults(run=run_check)


def _missing(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _select_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", metavar="FILE", help="default: the shipped set")
    p.add_argument(
        "--theme",
        metavar="T",
        help="only puzzles of this theme, their topic such as deny_basra (see docs/LEARN.md; "
        "the colours of `basra play` are its --colours)",
    )
    p.add_argument("--variant", "-v", metavar="V", help="only this variant")
    p.add_argument("--exact", action="store_true", help="only exact puzzles")
    p.add_argument("--min-rating", type=whole_number, metavar="R")
    p.add_argument("--max-rating", type=whole_number, metavar="R")


def _load(path: str | None) -> list[Puzzle]:
    from basra.puzzles.format import PuzzleError, read_puzzles, shipped_puzzles

    if path is None:
        return list(shipped_puzzles())
    existing_file(path, "puzzle file")
    puzzles = []
    try:
        for item in read_puzzles(path):
            if isinstance(item, PuzzleError):
                raise CliError(f"{path}: {item}")
            puzzles.append(item)
    except PuzzleError as exc:
        raise CliError(str(exc)) from None
    return puzzles


def _selected(args: argparse.Namespace) -> list[Puzzle]:
    from basra.cli.common import check_variant
    from basra.puzzles.themes import OTHER, THEMES

    if args.theme is not None and args.theme not in (*THEMES, OTHER):
        raise CliError(
            f"unknown theme {args.theme!r}; the themes are: {', '.join([*THEMES, OTHER])}"
        )
    if args.variant is not None:
        check_variant(args.variant)
    chosen = [
        p
        for p in _load(args.file)
        if (args.theme is None or args.theme in p.themes)
        and (args.variant is None or p.variant == args.variant)
        and (not args.exact or p.exact)
        and (args.min_rating is None or p.rating >= args.min_rating)
        and (args.max_rating is None or p.rating <= args.max_rating)
    ]
    if not chosen:
        raise CliError("no puzzle matches these options")
    return chosen


Piece = tuple[str, int, "Record | RecordError", "dict[str, Any] | None"]
"""One game to mine: its file, its index there, the record (or why it does not read), and
its review when given."""


def mine_game(
    settings: MineSettings, piece: Piece, progress: Progress | None = None
) -> tuple[list[str], MineStats, str | None]:
    """One game's puzzle lines, what mining it did, and what was wrong with it (runs in a
    worker process or a Ray task: seeded from the run's seed and the game alone)."""
    from basra.puzzles.mine import MineStats, mine_record
    from basra.record import RecordError

    name, index, item, review = piece
    stats = MineStats()
    if isinstance(item, RecordError):
        return [], stats, str(item)
    try:
        found = mine_record(
            item,
            settings=settings,
            review=review,
            source=f"{Path(name).name} game {index + 1}",
            stats=stats,
            progress=progress,
        )
    except RecordError as exc:
        return [], stats, str(exc.located(index))
    return [puzzle.line() for puzzle in found], stats, None


def run_make(args: argparse.Namespace) -> int:
    from basra.cli.arena import Progress
    from basra.coach.analysis import DEFAULT_SAMPLES
    from basra.puzzles.mine import MineSettings, MineStats
    from basra.record import RecordError, read_records
    from basra.spread import ClusterError, spread

    for name in args.files:
        existing_file(name, "record file")
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    if samples < 1:
        raise CliError("--samples must be 1 or more")
    if args.proof_samples is not None and args.proof_samples < 4:
        raise CliError("--proof-samples must be 4 or more (four searches share them)")
    jobs, ray = spread_from_args(args, "games")
    reviews: list[dict[str, Any]] = []
    if args.reviews is not None:
        existing_file(args.reviews, "review file")
        try:
            reviews = [
                json.loads(line)
                for line in Path(args.reviews).read_text(encoding="utf-8").splitlines()
                if line.strip()
            ]
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CliError(f"cannot read the reviews in {args.reviews!r}: {exc}") from None
        if not all(isinstance(r, dict) and r.get("format") == "basra-review/1" for r in reviews):
            raise CliError(f"{args.reviews!r} must hold `basra review --json` lines")
    games = []
    for name in args.files:
        try:
            for index, item in enumerate(read_records(name)):
                games.append((name, index, item))
        except RecordError as exc:
            raise CliError(str(exc)) from None
    if reviews and len(reviews) != len(games):
        raise CliError(
            f"--reviews holds {len(reviews)} reviews for {len(games)} games: one a game, in order"
        )
    pieces: list[Piece] = []
    for position, (name, index, item) in enumerate(games):
        review = reviews[position] if reviews else None
        variant = None if isinstance(item, RecordError) else item.variant
        if review is not None and variant is not None and review.get("variant") != variant:
            raise CliError(f"review {position + 1} is of a {review.get('variant')} game")
        pieces.append((name, index, item, review))
    try:
        out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise CliError(f"cannot write the puzzles to {args.out!r}: {exc.strerror}") from None
    settings = MineSettings(screen_samples=samples, seed=args.seed, rate=not args.no_rate)
    if args.proof_samples is not None:
        settings = replace(settings, proof_samples=args.proof_samples)
    stats = MineStats()
    failed = False
    started = time.perf_counter()
    if jobs == 1 and ray is None:

        def work(settings: MineSettings, piece: Piece) -> tuple[list[str], MineStats, str | None]:
            # In this process: a progress bar over each game's decisions, as ever.
            name, index = piece[0], piece[1]
            bar = None if args.quiet else Progress(sys.stderr, f"{name} game {index + 1}")
            return mine_game(settings, piece, bar)

        bar = None
    else:
        work = mine_game
        bar = None if args.quiet else Progress(sys.stderr, "puzzles make: games")
    with out:
        try:
            for (name, _, _, _), (lines, mined, error) in zip(
                pieces,
                spread(work, settings, pieces, jobs=jobs, ray=ray, progress=bar),
                strict=True,
            ):
                _add(stats, mined)
                if error is not None:
                    print(f"basra puzzles make: {name}: {error}", file=sys.stderr)
                    failed = True
                for line in lines:
                    out.write(line + "\n")
                out.flush()
        except ClusterError as exc:
            raise CliError(f"--ray: {exc}") from None
    elapsed = time.perf_counter() - started
    print(
        f"{stats.games} games, {stats.decisions} decisions, {stats.candidates} screened in, "
        f"{stats.puzzles} puzzles ({stats.exact} exact) in {elapsed:.1f} s; written to {args.out}"
    )
    return 1 if failed else 0


def _add(total: MineStats, more: MineStats) -> None:
    """Add one game's counts and times to the run's."""
    from dataclasses import fields

    for field in fields(total):
        setattr(total, field.name, getattr(total, field.name) + getattr(more, field.name))


def run_play(args: argparse.Namespace) -> int:
    import random

    puzzles = _selected(args)
    if args.seed is not None:
        random.Random(args.seed).shuffle(puzzles)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError(
            "puzzles are played in a terminal (its input or output is redirected); "
            "`basra puzzles list --json` prints them instead"
        )
    try:
        from basra.tui.puzzles import PuzzleApp
    except ImportError:
        raise CliError("playing puzzles needs Textual: pip install 'basra[tui]'") from None
    app = PuzzleApp(puzzles, lang=args.lang)
    app.run()
    print(app.tally_text())
    return 0


def run_list(args: argparse.Namespace) -> int:
    from basra.puzzles.public import puzzle_view

    for puzzle in _selected(args):
        if args.json:
            print(json.dumps(puzzle_view(puzzle), ensure_ascii=False))
        else:
            kind = f"exact ({puzzle.proof})" if puzzle.exact else "searched"
            print(
                f"{puzzle.id}  {puzzle.variant:<20} {puzzle.record.players}p  "
                f"{puzzle.theme:<15} {puzzle.rating:>5}  {kind}"
            )
    return 0


def run_check(args: argparse.Namespace) -> int:
    from basra.puzzles.solve import solve_view
    from basra.view import view_of

    puzzles = _load(args.file)
    wrong = 0
    exact = 0
    for puzzle in puzzles:
        if not puzzle.exact:
            continue
        exact += 1
        state = puzzle.state()
        solution = solve_view(view_of(state, puzzle.seat), state, limit=max(puzzle.arrangements, 1))
        assert solution is not None
        values = {m.text(): v for m, v in solution.values.items()}
        answer_best = any(m.text() == puzzle.answer for m in solution.best_everywhere)
        same = solution.arrangements == puzzle.arrangements and all(
            abs(values[m.move] - m.points) <= 0.01 for m in puzzle.moves
        )
        if not (same and answer_best):
            wrong += 1
            print(f"{puzzle.id}: the solve does not give the puzzle's values or answer")
    print(
        f"{len(puzzles)} puzzles read; {exact} exact, {exact - wrong} of them proven again"
        + (f"; {wrong} NOT" if wrong else "")
    )
    return 1 if wrong else 0
