"""``basra review``: every decision of a recorded game graded by the analyser."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from basra.cli import CliError
from basra.cli.common import add_spread_options, existing_file, spread_from_args, whole_number

if TYPE_CHECKING:
    from basra.coach.review import GameReview
    from basra.record import Record, RecordError

__all__ = ["plot_figure", "register", "write_plot"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "review",
        help="grade every decision of a recorded game: best moves, losses, accuracy",
        description="Review the games of a record file (.json: one game; .jsonl: one per "
        "line). For every play the analyser estimates, from what the mover's seat knew "
        "then, every legal move's expected round margin; the review gives the move played, "
        "the best move, the loss and a label (best, good, inaccuracy, mistake, blunder), and "
        "per seat the mean loss, an accuracy and the basras given away and missed. Plays "
        "with one legal move are not graded. Rounds, plays, games and seats are counted from "
        "1 in words and in these options; --json numbers seats from 0 as RECORD.md does. "
        "docs/COACH.md explains the labels and the accuracy. Many games: --jobs or --ray "
        "share them out, with the same reviews in the same order.",
    )
    p.add_argument("file", metavar="FILE", help="a .json or .jsonl record file")
    p.add_argument(
        "--game", type=whole_number, metavar="N", help="review only game N (counted from 1)"
    )
    p.add_argument(
        "--seat", type=whole_number, metavar="S", help="review only seat S (counted from 1)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON review a line per game")
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw the expected round margin through each round (needs matplotlib)",
    )
    p.add_argument(
        "--samples",
        type=whole_number,
        metavar="K",
        help="deals played out per decision (default 8000, basra.coach.analysis's; fewer "
        "is quicker and less steady)",
    )
    p.add_argument(
        "--seed", type=whole_number, default=0, metavar="S", help="analysis seed (default 0)"
    )
    p.add_argument(
        "--hindsight",
        action="store_true",
        help="also analyse every decision with all cards seen (knowable only afterwards; slower)",
    )
    add_spread_options(p, "games")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(run=run_review)


class _Delayed:
    """The arena's progress bar, shown only once a review has run for a second."""

    def __init__(self, label: str) -> None:
        from basra.cli.arena import Progress

        self.bar = Progress(sys.stderr, label)
        self.started = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.shown and time.monotonic() - self.started < 1.0 and done < total:
            return
        if not self.shown:
            self.shown = True
            self.bar.started = self.started
        self.bar(done, total)


Settings = tuple[int, int, bool, "int | None", bool]
"""A run's samples, seed, hindsight, seat (from 0) and whether errors count from 1."""
Piece = tuple[int, "Record | RecordError"]
"""A game to review: its index in the file, and its record (or why it does not read)."""


def review_game(
    settings: Settings, piece: Piece, progress: Any = None
) -> tuple[GameReview | None, str | None]:
    """One game's review, or what is wrong with its record (runs in a worker process or a
    Ray task: seeded from the run's seed alone)."""
    from basra.cli.records import error_text
    from basra.coach.review import review_record
    from basra.record import RecordError

    samples, seed, hindsight, seat, from_one = settings
    index, item = piece
    try:
        if isinstance(item, RecordError):
            raise item
        review = review_record(
            item,
            seat=seat,
            samples=samples,
            seed=seed,
            hindsight=hindsight,
            game=index,
            progress=progress,
        )
    except RecordError as exc:
        return None, error_text(exc.located(index), from_one=from_one)
    return review, None


def run_review(args: argparse.Namespace) -> int:
    from basra.cli.arena import Progress
    from basra.coach.analysis import DEFAULT_SAMPLES
    from basra.coach.review import review_text
    from basra.record import RecordError, read_records
    from basra.spread import ClusterError, spread

    existing_file(args.file, "record file")
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    if samples < 1:
        raise CliError("--samples must be 1 or more")
    if args.game is not None and args.game < 1:
        raise CliError("--game counts games from 1")
    if args.seat is not None and args.seat < 1:
        raise CliError("--seat counts seats from 1")
    if args.seed < 0:
        raise CliError("--seed must be 0 or more")
    jobs, ray = spread_from_args(args, "games")
    plot_path = Path(args.plot) if args.plot else None
    if plot_path is not None:
        _check_plot(plot_path)
    try:
        games = list(read_records(args.file))
    except RecordError as exc:
        raise CliError(str(exc)) from None
    if not games:
        raise CliError(f"{args.file!r} holds no game")
    chosen = range(len(games))
    if args.game is not None:
        if args.game > len(games):
            count = f"{len(games)} game{'s' * (len(games) != 1)}"
            raise CliError(f"--game {args.game}: {args.file!r} holds {count} (1 to {len(games)})")
        chosen = range(args.game - 1, args.game)
    # A game with fewer seats than --seat ends the run there, after the games before it.
    pieces: list[Piece] = []
    too_few: CliError | None = None
    for index in chosen:
        item = games[index]
        players = None if isinstance(item, RecordError) else item.players
        if args.seat is not None and players is not None and args.seat > players:
            too_few = CliError(
                f"--seat {args.seat}: game {index + 1} has {players} seats (1 to {players})"
            )
            break
        pieces.append((index, item))
    seat = None if args.seat is None else args.seat - 1
    settings: Settings = (samples, args.seed, args.hindsight, seat, not args.json)
    if jobs == 1 and ray is None:

        def work(settings: Settings, piece: Piece) -> tuple[GameReview | None, str | None]:
            # In this process: the delayed progress bar over each game's decisions, as ever.
            bar = None if args.quiet else _Delayed(f"review game {piece[0] + 1}")
            return review_game(settings, piece, bar)

        bar = None
    else:
        work = review_game
        bar = None if args.quiet else Progress(sys.stderr, "review: games")
    failed = False
    reviews = []
    try:
        for review, error in spread(work, settings, pieces, jobs=jobs, ray=ray, progress=bar):
            if review is None:
                print(f"basra review: error: {args.file}: {error}", file=sys.stderr)
                failed = True
                continue
            reviews.append(review)
            if args.json:
                print(json.dumps(review.to_json(), ensure_ascii=False, separators=(",", ":")))
            else:
                print(review_text(review))
            sys.stdout.flush()
    except ClusterError as exc:
        raise CliError(f"--ray: {exc}") from None
    if too_few is not None:
        raise too_few
    if plot_path is not None and reviews:
        write_plot(reviews, plot_path)
        print(f"the graph is in {plot_path}", file=sys.stderr)
    return 1 if failed else 0


def _check_plot(path: Path) -> None:
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise CliError(f"--plot {str(path)!r}: the file must end in .png, .svg or .pdf")
    if path.is_dir():
        raise CliError(f"--plot {str(path)!r} is a folder, not a file")
    if not path.parent.exists():
        raise CliError(f"--plot {str(path)!r}: there is no folder {str(path.parent)!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CliError("--plot needs matplotlib: pip install 'basra[arena]'") from None


LABEL_COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#c00020"}


def write_plot(reviews: list[GameReview], path: Path) -> None:
    """Draw each game's expected round margin through each round, one game a row."""
    import matplotlib.pyplot as plt

    figure = plot_figure(reviews)
    try:
        figure.savefig(path, dpi=110)
    except OSError as exc:
        raise CliError(f"--plot: cannot write {str(path)!r}: {exc.strerror}") from None
    finally:
        plt.close(figure)


def plot_figure(reviews: list[GameReview]) -> Any:
    """The figure of :func:`write_plot`: a row per game, its key naming every line and dot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from basra.coach.review import curves, side_words

    figure, axes = plt.subplots(
        len(reviews), 1, figsize=(11, 3.6 * len(reviews)), squeeze=False, constrained_layout=True
    )
    for row, review in zip(axes, reviews, strict=True):
        ax = row[0]
        drawn = curves(review)
        for number, (side, segments) in enumerate(drawn.lines.items()):
            colour = f"C{number}"
            for index, points in enumerate(segments):
                ax.plot(
                    [p[0] for p in points],
                    [p[1] for p in points],
                    marker=".",
                    linewidth=1.4,
                    color=colour,
                    label=side_words(review, side) if index == 0 else None,
                )
        keyed: set[str] = set()
        for x, y, label, side in drawn.marks:
            # The key names each kind of dot once: what the analyser called that play, and
            # whose it was (filled: the side of the line; hollow: the other side's, drawn
            # on this line as the opposite of its margin).
            key = f"{label} by {side_words(review, side)}"
            own = side in drawn.lines
            colour = LABEL_COLOURS[label]
            ax.scatter([x], [y], s=46, zorder=3, color=colour if own else "none",
                       edgecolors=colour, linewidths=1.6,
                       label=key if key not in keyed else None)  # fmt: skip
            keyed.add(key)
        for x in drawn.round_starts[1:]:
            ax.axvline(x - 0.5, color="#999999", linestyle=":", linewidth=1)
        for number, x in enumerate(drawn.round_starts, start=1):
            ax.annotate(f"round {number}", (x, 1), xycoords=("data", "axes fraction"),
                        va="top", fontsize=8, color="#555555")  # fmt: skip
        ax.axhline(0, color="#444444", linewidth=0.6)
        ax.set_ylabel("expected round margin")
        ax.set_xlabel("plays reviewed (each round ends at its real margin)")
        ax.set_title(f"game {review.game + 1}: {review.record.variant}", loc="left", fontsize=10)
        ax.legend(fontsize=8, loc="lower left")
    return figure
