"""Reviews: every decision of a game graded by the analyser, as people count them.

A review replays a game record and, for every play, asks the analyser
(:func:`~basra.coach.analysis.analyse`, from what the mover's seat knew at
that moment) what every legal move was worth. Each decision gets the move
played, the best move, the expected points of each option, the loss (how many
points of expected round margin the move played gave away against the best)
and a label; each seat gets its mean loss, an accuracy percentage, its labels
counted, and the basras it gave away and missed. docs/COACH.md explains them.

**Labels.** The loss is an estimate, with a standard error (both moves met the
same deals, so the error of their difference is small). A decision is graded
on the loss it *surely* had: the loss less :data:`NOISE_Z` standard errors, so
noise is never called a mistake. With that sure loss ``s`` (points of expected
round margin):

===========  ==========================================================
best         ``s`` is 0: no worse than the best, as far as can be told
good         0 < ``s`` < 1
inaccuracy   1 <= ``s`` < 3
mistake      3 <= ``s`` < 6
blunder      ``s`` >= 6 (a basra given away costs about 10)
===========  ==========================================================

A play with one legal move is not a decision: it is listed as ``forced`` and
not graded.

**Accuracy** is the mean, over a seat's graded decisions, of
``100 * exp(-loss / ACCURACY_SCALE)``: 100% for the best move, 82% for a loss
of 1 point, 37% for 5, 14% for 10.

A review is deterministic for a record, a seed and a number of samples. It
shows cards that were hidden during the game (each mover's hand), so front ends
offer it only once those cards are public: after the game (the web app), or
after the round (the terminal, where everything dealt in a round is played
by its end).

>>> import random
>>> from basra.record import record_of
>>> from basra.state import GameState
>>> state = GameState("egyptian", rules={"target": 1})
>>> state.deal(rng=random.Random(5))
>>> while not state.is_over:
...     state.push(state.legal_moves()[0])
>>> review = review_record(record_of(state), samples=20)
>>> len(review.decisions) == len(state.rounds[0].plays)
True
>>> sorted(review.to_json())[:4]
['decisions', 'finished', 'format', 'game']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from basra.cards import CARD_NAMES, cards_of
from basra.coach.analysis import DEFAULT_SAMPLES, Analysis, MoveEstimate, analyse, analyse_hindsight
from basra.describe import card_label
from basra.moves import Move
from basra.record import Record, RecordError
from basra.state import GameState
from basra.transition import play_basra
from basra.view import View, view_of

__all__ = [
    "ACCURACY_SCALE",
    "FORCED",
    "LABELS",
    "LABEL_NOUNS",
    "MARGIN_WORDS",
    "NOISE_Z",
    "REVIEW_FORMAT",
    "THRESHOLDS",
    "Curves",
    "Decision",
    "GameReview",
    "Hindsight",
    "SeatSummary",
    "Spot",
    "accuracy_of",
    "analyse_spot",
    "assemble",
    "curves",
    "grade",
    "grade_move",
    "hindsight_words",
    "label_count",
    "label_of",
    "plan",
    "review_record",
    "review_text",
    "side_words",
]

REVIEW_FORMAT = "basra-review/1"

MARGIN_WORDS = (
    "points: a move's expected round margin (its side's points this round less the "
    "others', what is banked included; a hint counts from now)"
)
"""What the review's numbers are, said with them (a hint's numbers are from now)."""
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The grades of a decision, best first."""
FORCED = "forced"
"""The label of a play with one legal move (not graded)."""
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 6.0),
    ("mistake", 3.0),
    ("inaccuracy", 1.0),
)
"""The smallest sure loss (points of expected round margin) of each bad label."""
NOISE_Z = 2.0
"""Standard errors taken off a loss before it is graded (noise is not a mistake)."""
TIE = 0.05
"""A loss this small is a tie with the best (exact values compare to rounding)."""
ACCURACY_SCALE = 5.0
"""The loss (points) at which a decision's accuracy falls to 1/e, about 37%."""


def label_of(loss: float, loss_stderr: float) -> str:
    """The label of a decision that lost ``loss`` points (standard error ``loss_stderr``).

    >>> label_of(0.0, 0.0), label_of(0.8, 0.5), label_of(2.0, 0.2), label_of(12.0, 0.5)
    ('best', 'best', 'inaccuracy', 'blunder')
    """
    sure = loss - NOISE_Z * loss_stderr
    if loss <= TIE or sure <= 0:
        return "best"
    for name, threshold in THRESHOLDS:
        if sure >= threshold:
            return name
    return "good"


def accuracy_of(losses: Sequence[float]) -> float | None:
    """The accuracy (percent) of decisions with these losses; None for none.

    >>> round(accuracy_of([0.0, 5.0]), 1)
    68.4
    """
    if not losses:
        return None
    return 100.0 * sum(math.exp(-loss / ACCURACY_SCALE) for loss in losses) / len(losses)


# --------------------------------------------------------------------- plan


@dataclass(frozen=True)
class Spot:
    """One play of a game, as the mover saw it before playing (what a review grades)."""

    round: int
    """The round, counted from 0."""
    play: int
    """The play within the round, counted from 0."""
    seat: int
    side: int
    view: View
    """What the mover knew."""
    played: Move
    moves: tuple[Move, ...]
    """Every legal move (one: a forced play, not graded)."""
    basra: int
    """The basra points the play scored."""
    basra_missed: bool
    """A legal move would have made a basra, and the play made none."""
    basra_given: bool
    """The next play, by another side, cleared the floor this play left for a basra."""
    state: GameState | None = None
    """The whole game at that moment: only for the hindsight analysis."""

    @property
    def forced(self) -> bool:
        """True when there was one legal move (nothing to decide)."""
        return len(self.moves) == 1


@dataclass(frozen=True)
class Plan:
    """The plays of a game to review, and the game they come from."""

    record: Record
    final: GameState
    """The game after its last play."""
    spots: tuple[Spot, ...]


def plan(
    record: Record,
    *,
    seat: int | None = None,
    rounds: Collection[int] | None = None,
    hindsight: bool = False,
) -> Plan:
    """Every play of ``record`` to review: only ``seat``'s (counted from 0) when given, only
    the ``rounds`` (counted from 0) given. Raises :class:`RecordError` for a bad record."""
    final = record.replay()  # checks every play first: the walk below can trust them
    if seat is not None and not 0 <= seat < record.players:
        raise RecordError(f"the game has {record.players} seats (0 to {record.players - 1})")
    state = record.new_state()
    spots: list[Spot] = []
    for index, log in enumerate(final.rounds):
        state.deal(record.rounds[index].pack)
        plays = log.plays
        for number, play in enumerate(plays):
            mover = state.turn
            wanted = (seat is None or mover == seat) and (rounds is None or index in rounds)
            if wanted:
                spots.append(_spot(state, index, number, play.move, plays, hindsight))
            state.push(play.move)
    return Plan(record, final, tuple(spots))


def _spot(
    state: GameState, index: int, number: int, move: Move, plays: Sequence[Any], hindsight: bool
) -> Spot:
    rules = state.rules
    seat = state.turn
    side = state.side_of[seat]
    moves = tuple(state.legal_moves())
    last = state.is_last_play

    def basra_of(m: Move) -> int:
        return play_basra(
            rules, m.card, m.take, state.floor, lone_trail=state.lone_trail, last_play=last
        )

    scored = basra_of(move)
    missed = not scored and any(basra_of(m) for m in moves)
    following = plays[number + 1] if number + 1 < len(plays) else None
    given = following is not None and following.basra > 0 and state.side_of[following.seat] != side
    return Spot(
        round=index,
        play=number,
        seat=seat,
        side=side,
        view=view_of(state, seat),
        played=move,
        moves=moves,
        basra=scored,
        basra_missed=missed,
        basra_given=given,
        state=state.copy() if hindsight else None,
    )


def analyse_spot(
    spot: Spot, samples: int = DEFAULT_SAMPLES, seed: int = 0
) -> tuple[Analysis | None, Analysis | None]:
    """The analysis of a spot (None for a forced play) and, when the spot carries the
    game's state, its hindsight analysis. Runs in worker processes (picklable)."""
    if spot.forced:
        return None, None
    analysis = analyse(spot.view, samples=samples, seed=seed)
    hindsight = None
    if spot.state is not None:
        hindsight = analyse_hindsight(spot.state, samples=samples, seed=seed)
    return analysis, hindsight


# --------------------------------------------------------------------- grading


@dataclass(frozen=True)
class Hindsight:
    """What was best with every card seen (knowable only after the game)."""

    best: Move
    best_points: float
    points: float
    """The expected margin of the move played, with every card seen."""
    loss: float
    exact: bool


@dataclass(frozen=True)
class Decision:
    """One play, graded (or ``forced``)."""

    spot: Spot
    label: str
    """One of :data:`LABELS`, or :data:`FORCED`."""
    best: Move
    points: float | None
    """Expected round margin of the move played (None for a forced play)."""
    best_points: float | None
    loss: float
    loss_stderr: float
    options: tuple[MoveEstimate, ...]
    """Every legal move's estimate, best first (empty for a forced play)."""
    exact: bool
    hindsight: Hindsight | None = None

    @property
    def graded(self) -> bool:
        """False for a forced play."""
        return self.label != FORCED

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON values: rounds and plays from 1, seats from 0."""
        spot = self.spot
        view = spot.view
        out: dict[str, Any] = {
            "round": spot.round + 1,
            "play": spot.play + 1,
            "seat": spot.seat,
            "side": spot.side,
            "move": spot.played.text(),
            "best": self.best.text(),
            "points": _round(self.points),
            "best_points": _round(self.best_points),
            "loss": round(self.loss, 2),
            "loss_stderr": round(self.loss_stderr, 2),
            "label": self.label,
            "exact": self.exact,
            "basra": spot.basra,
            "basra_missed": spot.basra_missed,
            "basra_given": spot.basra_given,
            "floor": [CARD_NAMES[c] for c in cards_of(view.floor)],
            "hand": [CARD_NAMES[c] for c in cards_of(view.hand)],
            "options": [
                {"move": o.move.text(), "points": round(o.points, 2), "stderr": round(o.stderr, 2)}
                for o in self.options
            ]
            if self.options
            else [{"move": spot.played.text(), "points": None, "stderr": None}],
        }
        if self.hindsight is not None:
            h = self.hindsight
            out["hindsight"] = {
                "best": h.best.text(),
                "best_points": round(h.best_points, 2),
                "points": round(h.points, 2),
                "loss": round(h.loss, 2),
                "exact": h.exact,
            }
        return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def grade(spot: Spot, analysis: Analysis | None, hindsight: Analysis | None = None) -> Decision:
    """The decision of ``spot`` graded by its analysis (None: a forced play)."""
    if analysis is None:
        return Decision(spot, FORCED, spot.played, None, None, 0.0, 0.0, (), exact=False)
    played = analysis.of(spot.played)
    best = analysis.best
    note = None
    if hindsight is not None:
        seen = hindsight.of(spot.played)
        note = Hindsight(
            hindsight.best.move, hindsight.best.points, seen.points, seen.loss, hindsight.exact
        )
    return Decision(
        spot=spot,
        label=label_of(played.loss, played.loss_stderr),
        best=best.move,
        points=played.points,
        best_points=best.points,
        loss=played.loss,
        loss_stderr=played.loss_stderr,
        options=analysis.moves,
        exact=analysis.exact,
        hindsight=note,
    )


def grade_move(
    state: GameState, move: Move, *, samples: int = DEFAULT_SAMPLES, seed: int = 0
) -> Decision:
    """``move`` by the seat to move in ``state`` (a position), graded like a review's play.

    >>> state = GameState.from_position(
    ...     "egyptian", floor=["4S"], hands=[["6H", "KC"], ["10H", "2D"]], turn=0)
    >>> [grade_move(state, m, samples=100).label for m in state.legal_moves()]
    ['blunder', 'best']
    """
    if not state.is_legal(move):
        raise ValueError(f"{move.text()} is not a legal move here")
    spot = _spot(state, len(state.rounds) - 1, len(state.plays), move, (), hindsight=False)
    analysis, _ = analyse_spot(spot, samples, seed)
    return grade(spot, analysis)


# --------------------------------------------------------------------- the review


@dataclass(frozen=True)
class SeatSummary:
    """How one seat played: its graded decisions summed up."""

    seat: int
    name: str | None
    decisions: int
    """Graded decisions (forced plays are not counted)."""
    forced: int
    mean_loss: float | None
    accuracy: float | None
    labels: dict[str, int]
    basras_given: int
    basras_missed: int

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON values (seat counted from 0)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "decisions": self.decisions,
            "forced": self.forced,
            "mean_loss": _round(self.mean_loss),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "labels": dict(self.labels),
            "basras_given": self.basras_given,
            "basras_missed": self.basras_missed,
        }


@dataclass(frozen=True)
class RoundNote:
    """A reviewed round's real outcome: each side's points and margin."""

    round: int
    points: tuple[int, ...] | None
    """Each side's points in the round (None for a round cut short)."""

    @property
    def margins(self) -> tuple[float, ...] | None:
        """Each side's round points less the mean of the other sides' (the analysis's measure)."""
        if self.points is None:
            return None
        n = len(self.points)
        total = sum(self.points)
        return tuple((p - (total - p) / (n - 1)) for p in self.points)


@dataclass(frozen=True)
class GameReview:
    """Every reviewed decision of one game, per-seat summaries and the key moments."""

    game: int
    """The game's index in its file, counted from 0."""
    record: Record
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    rounds: tuple[RoundNote, ...]
    key_moments: tuple[Decision, ...]
    samples: int
    seed: int
    finished: bool
    sides: tuple[tuple[int, ...], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The review as JSON values (``basra review --json``, the web app's stored review)."""
        record = self.record
        return {
            "format": REVIEW_FORMAT,
            "game": self.game + 1,
            "variant": record.variant,
            "rules": dict(record.rules),
            "players": record.players,
            "teams": record.teams,
            "names": record.names,
            "sides": [list(s) for s in self.sides],
            "samples": self.samples,
            "seed": self.seed,
            "finished": self.finished,
            "seats": [s.to_json() for s in self.seats],
            "rounds": [
                {
                    "round": r.round + 1,
                    "points": None if r.points is None else list(r.points),
                    "margins": None if r.margins is None else [round(m, 2) for m in r.margins],
                }
                for r in self.rounds
            ],
            "key_moments": [_where(d) for d in self.key_moments],
            "decisions": [d.to_json() for d in self.decisions],
        }


def _where(decision: Decision) -> dict[str, Any]:
    spot = decision.spot
    return {"round": spot.round + 1, "play": spot.play + 1, "seat": spot.seat}


KEY_MOMENTS = 5
"""At most this many key moments: the costliest decisions labelled inaccuracy or worse."""


def key_moments(decisions: Sequence[Decision]) -> tuple[Decision, ...]:
    """The costliest graded decisions labelled inaccuracy or worse (most first), or that
    gave a basra away, at most :data:`KEY_MOMENTS`."""
    bad = [
        d
        for d in decisions
        if d.graded and (d.label in LABELS[2:] or (d.spot.basra_given and d.label != "best"))
    ]
    bad.sort(key=lambda d: (-d.loss, d.spot.round, d.spot.play))
    return tuple(bad[:KEY_MOMENTS])


def assemble(
    the_plan: Plan,
    decisions: Sequence[Decision],
    *,
    samples: int,
    seed: int,
    game: int = 0,
    seat: int | None = None,
) -> GameReview:
    """A review from a plan's graded decisions (in the plan's order)."""
    record = the_plan.record
    final = the_plan.final
    names = record.names
    seats = []
    for s in range(record.players):
        if seat is not None and s != seat:
            continue
        mine = [d for d in decisions if d.spot.seat == s]
        graded = [d for d in mine if d.graded]
        losses = [d.loss for d in graded]
        labels = {name: sum(1 for d in graded if d.label == name) for name in LABELS}
        seats.append(
            SeatSummary(
                seat=s,
                name=names[s] if names else None,
                decisions=len(graded),
                forced=len(mine) - len(graded),
                mean_loss=sum(losses) / len(losses) if losses else None,
                accuracy=accuracy_of(losses),
                labels=labels,
                basras_given=sum(1 for d in mine if d.spot.basra_given),
                basras_missed=sum(1 for d in mine if d.spot.basra_missed),
            )
        )
    reviewed = sorted({d.spot.round for d in decisions})
    rounds = tuple(
        RoundNote(
            r,
            None if final.rounds[r].result is None else tuple(final.rounds[r].result.points),  # type: ignore[union-attr]
        )
        for r in reviewed
    )
    return GameReview(
        game=game,
        record=record,
        decisions=tuple(decisions),
        seats=tuple(seats),
        rounds=rounds,
        key_moments=key_moments(decisions),
        samples=samples,
        seed=seed,
        finished=final.is_over,
        sides=tuple(tuple(s) for s in final.sides),
    )


Progress = Callable[[int, int], None]
"""Called with (decisions analysed, decisions to analyse)."""


def review_record(
    record: Record,
    *,
    seat: int | None = None,
    rounds: Collection[int] | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    hindsight: bool = False,
    game: int = 0,
    progress: Progress | None = None,
) -> GameReview:
    """Review a game record here, decision after decision (see the module docstring)."""
    the_plan = plan(record, seat=seat, rounds=rounds, hindsight=hindsight)
    decisions = list(_graded(the_plan.spots, samples, seed, progress))
    return assemble(the_plan, decisions, samples=samples, seed=seed, game=game, seat=seat)


def _graded(
    spots: Sequence[Spot], samples: int, seed: int, progress: Progress | None
) -> Iterator[Decision]:
    total = sum(1 for s in spots if not s.forced)
    done = 0
    if progress is not None:
        progress(0, total)
    for spot in spots:
        analysis, hindsight = analyse_spot(spot, samples, seed)
        yield grade(spot, analysis, hindsight)
        if analysis is not None:
            done += 1
            if progress is not None:
                progress(done, total)


# --------------------------------------------------------------------- in words


def _move_words(move: Move) -> str:
    if not move.take:
        return card_label(move.card)
    return f"{card_label(move.card)}×{' '.join(card_label(c) for c in move.taken())}"


def seat_words(review: GameReview, seat: int) -> str:
    """A seat for people: ``seat 1 (Amal)``, counted from 1."""
    names = review.record.names
    return f"seat {seat + 1}" + (f" ({names[seat]})" if names else "")


def moment_words(review: GameReview, decision: Decision) -> str:
    """A key moment in one line: where, who, what was played and what was best."""
    spot = decision.spot
    text = (
        f"round {spot.round + 1}, play {spot.play + 1}: {seat_words(review, spot.seat)} "
        f"played {_move_words(spot.played)}, best {_move_words(decision.best)} "
        f"(loss {decision.loss:.1f}, {decision.label})"
    )
    if spot.basra_given:
        text += "; the next player made a basra"
    if spot.basra_missed:
        text += "; a basra was there to take"
    return text


def side_words(review: GameReview, side: int) -> str:
    """A side for people: its seats' names, or ``seat 1``, ``seats 1+3``."""
    seats = review.sides[side]
    names = review.record.names
    if names:
        return " & ".join(names[s] for s in seats)
    return ("seats " if len(seats) > 1 else "seat ") + "+".join(str(s + 1) for s in seats)


@dataclass(frozen=True)
class Curves:
    """The expected-margin graph of a review: a line per side through each round."""

    lines: dict[int, list[list[tuple[float, float]]]]
    """Per side, a line per round of points (x, expected round margin): after each graded
    play, then the real margin at the round's end. With two sides, one side's lines (the
    other's margins are the opposite)."""
    marks: list[tuple[float, float, str, int]]
    """Decisions labelled inaccuracy or worse: (x, y, label, side). ``y`` is on the line
    drawn (with two sides, the one side's: the other side's mistake shows as the opposite
    of its margin), ``side`` the side that made it, so that a plot can say whose it is."""
    round_starts: list[int]
    """The x of each round's first play (x counts the reviewed plays from 0)."""


def curves(review: GameReview) -> Curves:
    """The points of the expected-margin graph (``--plot``; the web page draws the same)."""
    two = len(review.sides) == 2
    focus = 0
    if two and len(review.seats) == 1:
        focus = review.decisions[0].spot.side if review.decisions else 0
    sides = [focus] if two else list(range(len(review.sides)))
    lines: dict[int, list[list[tuple[float, float]]]] = {side: [] for side in sides}
    marks: list[tuple[float, float, str, int]] = []
    starts: list[int] = []
    notes = {note.round: note for note in review.rounds}
    decisions = review.decisions
    for x, decision in enumerate(decisions):
        spot = decision.spot
        if x == 0 or decisions[x - 1].spot.round != spot.round:
            starts.append(x)
            for side in sides:
                lines[side].append([])
        if decision.points is not None:
            side, value = spot.side, decision.points
            if two and side != focus:
                side, value = focus, -value
            lines[side][-1].append((float(x), value))
            if decision.label in LABELS[2:]:
                marks.append((float(x), value, decision.label, spot.side))
        ends = x + 1 == len(decisions) or decisions[x + 1].spot.round != spot.round
        margins = notes[spot.round].margins
        if ends and margins is not None:
            for side in sides:
                lines[side][-1].append((x + 0.5, margins[side]))
    return Curves(lines, marks, starts)


LABEL_NOUNS = {
    "best": ("best move", "best moves"),
    "good": ("good move", "good moves"),
    "inaccuracy": ("inaccuracy", "inaccuracies"),
    "mistake": ("mistake", "mistakes"),
    "blunder": ("blunder", "blunders"),
}
"""Each label as a counted noun, one and many."""


def label_count(label: str, count: int) -> str:
    """How many plays got a label, in words.

    >>> label_count("blunder", 2), label_count("inaccuracy", 1), label_count("best", 0)
    ('2 blunders', '1 inaccuracy', '0 best moves')
    """
    one, many = LABEL_NOUNS.get(label, (label, label))
    return f"{count} {one if count == 1 else many}"


def review_text(review: GameReview) -> str:
    """The review in words for people: games, rounds, plays and seats counted from 1."""
    record = review.record
    lines = [
        f"game {review.game + 1}: {record.variant}, "
        + " vs ".join(seat_words(review, s) for s in range(record.players))
        + f" ({review.samples} samples a decision, seed {review.seed})",
        f"  {MARGIN_WORDS}",
    ]
    for summary in review.seats:
        who = seat_words(review, summary.seat)
        if not summary.decisions:
            lines.append(f"  {who}: no decisions to grade ({summary.forced} forced)")
            continue
        counts = ", ".join(label_count(name, n) for name, n in summary.labels.items())
        lines.append(
            f"  {who}: {summary.decisions} decisions, mean loss {summary.mean_loss:.2f}, "
            f"accuracy {summary.accuracy:.0f}%; {counts}; basras given away "
            f"{summary.basras_given}, missed {summary.basras_missed}; "
            f"{summary.forced} forced plays (one legal move) not graded"
        )
    if review.key_moments:
        lines.append("  key moments:")
        lines.extend(f"    {moment_words(review, d)}" for d in review.key_moments)
    else:
        lines.append("  key moments: none (no inaccuracy or worse)")
    current = -1
    for decision in review.decisions:
        spot = decision.spot
        if spot.round != current:
            current = spot.round
            note = next(r for r in review.rounds if r.round == current)
            result = "" if note.points is None else f": points {'-'.join(map(str, note.points))}"
            lines.append(f"  round {current + 1}{result}")
        played = _move_words(spot.played)
        if not decision.graded:
            lines.append(f"    {spot.play + 1:>3}  seat {spot.seat + 1}  {played:<18} forced")
            continue
        line = (
            f"    {spot.play + 1:>3}  seat {spot.seat + 1}  {played:<18} {decision.points:+7.1f}"
            f"  {decision.label}"
        )
        if decision.label != "best":
            line += (
                f"  best {_move_words(decision.best)} {decision.best_points:+.1f}, "
                f"loss {decision.loss:.1f} ± {decision.loss_stderr:.1f}"
            )
        lines.append(line)
        if decision.hindsight is not None:
            lines.append(f"{'':>11}{hindsight_words(decision.hindsight)}")
    return "\n".join(line.rstrip() for line in lines)


def hindsight_words(seen: Hindsight) -> str:
    """A decision's hindsight analysis in words, labelled as knowable only afterwards.

    >>> from basra.cards import parse_card
    >>> hindsight_words(Hindsight(Move(parse_card("7S"), 0), 3.0, -7.0, 10.0, exact=True))
    'with all cards seen (knowable only afterwards): best 7♠ +3.0, the move played -7.0 (exact)'
    """
    exact = " (exact)" if seen.exact else ""
    head = "with all cards seen (knowable only afterwards): "
    if seen.loss <= TIE:
        return f"{head}the move played was best too, {seen.points:+.1f}{exact}"
    return (
        f"{head}best {_move_words(seen.best)} {seen.best_points:+.1f}, "
        f"the move played {seen.points:+.1f}{exact}"
    )
