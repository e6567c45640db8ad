"""Mining puzzles from game records: screen every decision, prove the clear ones, theme and rate.

A decision becomes a puzzle when one move beats every other by a **clear
margin**: :data:`CLEAR_MARGIN` points of expected round margin (the coach's
measure: the mover's side's points in the round less the others'), after
standard errors (the lead less 2 of them, as the coach grades a loss). Each
decision goes through three steps:

1. **screen**: the coach's analysis of the decision from what the seat knew
   (:func:`basra.coach.analysis.analyse`, the review's budget), or the values
   of a review already made; a decision goes on when the best other move
   could be :data:`CLEAR_MARGIN` behind.
2. **prove**: with two sides, when the hidden cards allow at most
   :data:`~basra.puzzles.solve.ARRANGEMENT_LIMIT` arrangements (two players
   and the stock empty: exactly one), every arrangement is solved exhaustively
   (:mod:`basra.puzzles.solve`); the puzzle is ``exact`` when the answer is
   best in every one of them and leads on average by the clear margin.
   Otherwise the coach's analysis runs again with ten times the ``expert``
   level's search a move (:func:`proof_samples`, split into
   :data:`PROOF_RUNS` analyses with other seeds whose spread gives the
   standard errors), and every other move must be the clear margin behind
   after standard errors, and :data:`PROOF_Z` standard errors behind.
3. **theme and rate**: :func:`basra.puzzles.themes.themes_of` on the seat's
   view, and a rating from the weakest bot level that finds the answer
   (:data:`RATING_LADDER`).

Only the seat's view is searched; the arrangements are the ways the cards it
could not see might lie (the true hands are one of them).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from basra.bots.base import make_bot
from basra.bots.ismcts import parse_settings
from basra.bots.levels import LEVELS
from basra.coach.analysis import DEFAULT_SAMPLES, analyse
from basra.coach.review import GameReview, Spot, plan
from basra.moves import Move
from basra.notation import MoveTextError, parse_move
from basra.puzzles.format import CLEAR_MARGIN, NOISE_Z, MoveValue, Puzzle, decision_record
from basra.puzzles.solve import ARRANGEMENT_LIMIT, SolveError, arrangement_count, solve_view
from basra.puzzles.themes import themes_of
from basra.record import Record
from basra.state import GameState
from basra.view import View

__all__ = [
    "CLEAR_MARGIN",
    "PROOF_Z",
    "RATING_LADDER",
    "MineSettings",
    "MineStats",
    "Proof",
    "mine_record",
    "mine_spot",
    "proof_samples",
    "prove",
    "rate",
    "review_values",
    "screen_options",
    "searched",
]

PROOF_Z = 4.0
"""Standard errors by which a searched (not exact) answer must beat every other move."""
PROOF_RUNS = 4
"""Independent analyses (other seeds) that a searched proof's budget is split into."""
SCREEN_SLACK = 1.0
"""Points the screen lets a decision fall short of the clear margin and still be proven
(the screen's standard errors, from one analysis, are smaller than its true error)."""
RATING_LADDER: tuple[tuple[str, int], ...] = (
    ("greedy", 1000),
    ("medium", 1300),
    ("hard", 1600),
    ("expert", 1900),
)
"""A puzzle's first rating: that of the weakest bot that plays its answer from the same view
(a greedy one-move player, then the levels); :data:`UNFOUND_RATING` when none does."""
UNFOUND_RATING = 2200


def proof_samples() -> int:
    """Ten times the ``expert`` level's search a move: its iterations times its searches."""
    settings = parse_settings(LEVELS["expert"].partition(":")[2])
    return 10 * (settings.iterations or 0) * max(settings.forced, 1)


@dataclass(frozen=True)
class MineSettings:
    """How hard the miner looks."""

    screen_samples: int = DEFAULT_SAMPLES
    """The screening analysis's budget (the review's)."""
    proof_samples: int = field(default_factory=proof_samples)
    clear_margin: float = CLEAR_MARGIN
    proof_z: float = PROOF_Z
    arrangement_limit: int = ARRANGEMENT_LIMIT
    seed: int = 0
    rate: bool = True
    """Rate each puzzle with the bot ladder (off: every puzzle gets 1500)."""


@dataclass
class MineStats:
    """What a mining run did, and how long each step took (seconds)."""

    games: int = 0
    decisions: int = 0
    """Decisions with more than one legal move."""
    candidates: int = 0
    puzzles: int = 0
    exact: int = 0
    screen_seconds: float = 0.0
    prove_seconds: float = 0.0
    rate_seconds: float = 0.0

    @property
    def seconds(self) -> float:
        """All the time spent."""
        return self.screen_seconds + self.prove_seconds + self.rate_seconds

    def to_json(self) -> dict[str, Any]:
        """The counts and times as JSON values."""
        return {
            "games": self.games,
            "decisions": self.decisions,
            "candidates": self.candidates,
            "puzzles": self.puzzles,
            "exact": self.exact,
            "screen_seconds": round(self.screen_seconds, 3),
            "prove_seconds": round(self.prove_seconds, 3),
            "rate_seconds": round(self.rate_seconds, 3),
        }


@dataclass(frozen=True)
class Proof:
    """The values that prove a puzzle's answer (the answer first)."""

    values: tuple[MoveValue, ...]
    exact: bool
    proof: str
    arrangements: int
    samples: int

    @property
    def answer(self) -> str:
        """The answer's move text."""
        return self.values[0].move


Option = tuple[Move, float, float]
"""A screened move: the move, its expected round margin and its standard error."""


def screen_options(view: View, settings: MineSettings) -> list[Option]:
    """The coach's values of every legal move of ``view``, best first (the screen)."""
    analysis = analyse(view, samples=settings.screen_samples, seed=settings.seed)
    return [(m.move, m.points, m.stderr) for m in analysis.moves]


def _clear(options: Sequence[Option], margin: float, z: float = 0.0) -> bool:
    """Whether the first option beats every other by ``margin`` after :data:`NOISE_Z`
    standard errors (and by ``z`` standard errors)."""
    _, best, best_error = options[0]
    for _, points, error in options[1:]:
        lead = best - points
        spread = math.hypot(best_error, error)
        if lead - NOISE_Z * spread < margin or lead < z * spread:
            return False
    return True


def _could_be_clear(options: Sequence[Option], margin: float) -> bool:
    """Whether the screen leaves room for a clear margin (the lead plus 2 standard errors)."""
    _, best, best_error = options[0]
    return all(
        best - points + NOISE_Z * math.hypot(best_error, error) >= margin - SCREEN_SLACK
        for _, points, error in options[1:]
    )


def _values(options: Sequence[Option]) -> tuple[MoveValue, ...]:
    ordered = sorted(options, key=lambda o: -o[1])
    return tuple(MoveValue(m.text(), round(p, 2), round(e, 2)) for m, p, e in ordered)


def prove(
    view: View, state: GameState, settings: MineSettings, guess: Move | None = None
) -> Proof | None:
    """Prove that one move of ``view``'s decision beats every other by the clear margin.

    ``state`` is the true position behind ``view`` (the arrangements of the
    hidden cards are built from it; only the view decides which they are).
    ``guess`` is the screen's best move (it lets an arrangement that refutes
    it stop the solving early). Returns ``None`` when nothing is proven.
    """
    count = arrangement_count(view) if len(view.scores) == 2 else 0
    if 0 < count <= settings.arrangement_limit:
        try:
            solution = solve_view(
                view, state, limit=settings.arrangement_limit, answer=guess if count > 1 else None
            )
        except SolveError:
            solution = None  # too large for the solver: the search decides
        if solution is not None:
            options = sorted(((m, v, 0.0) for m, v in solution.values.items()), key=lambda o: -o[1])
            if options[0][0] in solution.best_everywhere and _clear(options, settings.clear_margin):
                return Proof(
                    _values(options),
                    True,
                    "solved" if count == 1 else "arrangements",
                    count,
                    0,
                )
            if count == 1:
                return None  # solved: the values are exact, and no move is clear
    found = searched(view, settings)
    if found is None or not _clear(found, settings.clear_margin, settings.proof_z):
        return None
    return Proof(_values(found), False, "search", 0, settings.proof_samples)


def searched(view: View, settings: MineSettings) -> list[Option] | None:
    """Every move's value from :data:`PROOF_RUNS` independent analyses that share the proof's
    budget, and its standard error from their spread (``None`` when an analysis is exact:
    the solver, not the search, proves such decisions).

    One analysis's own standard error comes from searches that share its pool of deals of
    the hidden cards, so it leaves out how that pool was drawn; analyses with other seeds
    draw other pools, and their spread measures the whole error.
    """
    runs = [
        analyse(view, samples=settings.proof_samples // PROOF_RUNS, seed=settings.seed + run)
        for run in range(PROOF_RUNS)
    ]
    if any(run.exact for run in runs):
        return None
    options = []
    for estimate in runs[0].moves:
        values = [run.of(estimate.move).points for run in runs]
        mean = sum(values) / len(values)
        spread = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        options.append((estimate.move, mean, math.sqrt(spread / len(values))))
    options.sort(key=lambda o: -o[1])
    return options


def rate(view: View, answer: Move, seed: int = 0) -> int:
    """A puzzle's first rating: that of the weakest bot of :data:`RATING_LADDER` whose move
    from ``view`` is the answer (:data:`UNFOUND_RATING` when none plays it)."""
    for name, rating in RATING_LADDER:
        bot = make_bot(name, seed=seed)
        try:
            if bot.choose(view) == answer:
                return rating
        finally:
            bot.close()
    return UNFOUND_RATING


ReviewValues = Mapping[tuple[int, int], list[Option]]
"""Screen values taken from a review: (round, play) from 0 -> options, best first."""


def review_values(review: GameReview | Mapping[str, Any], record: Record) -> ReviewValues:
    """The values a review (a :class:`GameReview`, or its ``basra-review/1`` JSON) gives every
    graded decision, to screen with instead of analysing again."""
    out: dict[tuple[int, int], list[Option]] = {}
    if isinstance(review, GameReview):
        for graded in review.decisions:
            if graded.graded:
                spot = graded.spot
                out[spot.round, spot.play] = [(o.move, o.points, o.stderr) for o in graded.options]
        return out
    final = record.new_state()
    moves_at: dict[tuple[int, int], GameState] = {}
    wanted = {
        (d["round"] - 1, d["play"] - 1): d
        for d in review.get("decisions", [])
        if isinstance(d, Mapping) and d.get("label") != "forced" and d.get("options")
    }
    for index, rnd in enumerate(record.rounds):
        final.deal(rnd.pack)
        for number, text in enumerate(rnd.plays):
            if (index, number) in wanted:
                moves_at[index, number] = final.copy()
            final.push(parse_move(final, text))
    for key, decision in wanted.items():
        state = moves_at.get(key)
        if state is None:
            continue
        options = []
        try:
            for option in decision["options"]:
                move = parse_move(state, option["move"])
                options.append((move, float(option["points"]), float(option["stderr"])))
        except (MoveTextError, KeyError, TypeError, ValueError):
            continue  # a review of another game, or damaged: screen afresh
        out[key] = sorted(options, key=lambda o: -o[1])
    return out


Progress = Callable[[int, int], None]
"""Called with (decisions looked at, decisions to look at)."""


def mine_record(
    record: Record,
    *,
    settings: MineSettings | None = None,
    review: GameReview | Mapping[str, Any] | None = None,
    source: str | None = None,
    stats: MineStats | None = None,
    progress: Progress | None = None,
) -> list[Puzzle]:
    """The puzzles of one game record (see the module docstring).

    ``review``: a review of the same game; its values are the screen (the
    server mines reviewed games without analysing them twice). ``stats``
    collects counts and times. Raises :class:`basra.record.RecordError` for a
    record that does not replay.
    """
    settings = settings or MineSettings()
    stats = stats if stats is not None else MineStats()
    the_plan = plan(record, hindsight=True)
    known = review_values(review, record) if review is not None else {}
    spots = [s for s in the_plan.spots if not s.forced]
    stats.games += 1
    puzzles: list[Puzzle] = []
    for done, spot in enumerate(spots):
        if progress is not None:
            progress(done, len(spots))
        stats.decisions += 1
        screened = known.get((spot.round, spot.play))
        puzzle = mine_spot(
            record, spot, settings=settings, screened=screened, stats=stats, source=source
        )
        if puzzle is not None:
            puzzles.append(puzzle)
    if progress is not None:
        progress(len(spots), len(spots))
    return puzzles


def mine_spot(
    record: Record,
    spot: Spot,
    *,
    settings: MineSettings | None = None,
    screened: list[Option] | None = None,
    stats: MineStats | None = None,
    source: str | None = None,
) -> Puzzle | None:
    """The puzzle of one decision of ``record`` (a spot of :func:`basra.coach.review.plan`
    made with ``hindsight=True``), or ``None``: screened (with ``screened``, a review's
    values, when given), proven, themed and rated as :func:`mine_record` does for each.

    The server mines only the decisions it wants (people's mistakes) this way, each as
    a piece of background work.
    """
    settings = settings or MineSettings()
    stats = stats if stats is not None else MineStats()
    started = time.perf_counter()
    if screened is None:
        screened = screen_options(spot.view, settings)
    stats.screen_seconds += time.perf_counter() - started
    if len(screened) < 2 or not _could_be_clear(screened, settings.clear_margin):
        return None
    stats.candidates += 1
    state = spot.state
    assert state is not None  # planned with the positions
    started = time.perf_counter()
    proof = prove(spot.view, state, settings, guess=screened[0][0])
    stats.prove_seconds += time.perf_counter() - started
    if proof is None:
        return None
    answer = parse_move(state, proof.answer)
    rival = parse_move(state, proof.values[1].move)
    started = time.perf_counter()
    themes = themes_of(spot.view, answer, rival)
    rating = rate(spot.view, answer, settings.seed) if settings.rate else 1500
    stats.rate_seconds += time.perf_counter() - started
    stats.puzzles += 1
    stats.exact += proof.exact
    return Puzzle(
        record=decision_record(record, spot.round, spot.play),
        seat=spot.seat,
        answer=proof.answer,
        moves=proof.values,
        exact=proof.exact,
        proof=proof.proof,
        arrangements=proof.arrangements,
        samples=proof.samples,
        themes=themes,
        rating=rating,
        source=source,
    )
