"""The puzzle line (``basra-puzzle/1``, docs/RECORD.md): one puzzle, checked on reading.

A puzzle is a decision of a real game: the game record up to that decision
(every round before it, the round's pack and the plays before it), the seat
to move, the answer, every legal move's value with its standard error, how
the answer was proven (``exact``), its themes and a rating. Reading a line
replays its record through the engine and checks that the values name every
legal move once, the answer first: a line that reads is a puzzle that can be
played.

>>> import json
>>> from basra.puzzles.format import Puzzle, shipped_puzzles
>>> puzzle = shipped_puzzles()[0]
>>> Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
True
>>> puzzle.state().turn == puzzle.seat
True
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from basra.moves import Move
from basra.notation import MoveTextError, parse_move
from basra.puzzles.themes import OTHER, THEMES
from basra.record import Record, RecordError, RoundRecord
from basra.state import PHASE_PLAY, GameState

__all__ = [
    "CLEAR_MARGIN",
    "NOISE_Z",
    "PROOFS",
    "PUZZLE_FORMAT",
    "SHIPPED",
    "MoveValue",
    "Puzzle",
    "PuzzleError",
    "decision_record",
    "read_puzzles",
    "shipped_puzzles",
]

PUZZLE_FORMAT = "basra-puzzle/1"
PROOFS = ("solved", "arrangements", "search")
"""How a puzzle's answer was proven: the one position solved exactly (``exact``);
every arrangement of the hidden cards solved (``exact``); a search (not exact)."""
SHIPPED = "selfplay.jsonl"
"""The puzzle set that ships with the package (in ``basra/puzzles/data``)."""
NOISE_Z = 2.0
"""Standard errors taken off a lead before it counts (as the coach grades losses)."""
CLEAR_MARGIN = 3.0
"""Points of expected round margin by which a puzzle's answer beats every other move, after
standard errors (what the coach calls a mistake: every other move is one)."""


class PuzzleError(ValueError):
    """A puzzle line that is not a valid ``basra-puzzle/1`` puzzle, and why."""

    def __init__(self, reason: str, *, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(reason if line is None else f"line {line}: {reason}")


@dataclass(frozen=True)
class MoveValue:
    """A legal move and its value: the mover's expected round margin, with its error."""

    move: str
    """Canonical move text."""
    points: float
    stderr: float

    def to_json(self) -> dict[str, Any]:
        """``{"move", "points", "stderr"}``."""
        return {"move": self.move, "points": self.points, "stderr": self.stderr}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module docstring and docs/RECORD.md)."""

    record: Record
    """The game up to the decision: the last round's plays stop before it."""
    seat: int
    answer: str
    """The answer, as canonical move text."""
    moves: tuple[MoveValue, ...]
    """Every legal move's value, best (the answer) first."""
    exact: bool
    proof: str
    """One of :data:`PROOFS`."""
    arrangements: int
    """Arrangements of the hidden cards solved (0 for a search)."""
    samples: int
    """Search iterations per move (0 when exact)."""
    themes: tuple[str, ...]
    """The puzzle's themes, main theme first (:mod:`basra.puzzles.themes`)."""
    rating: int
    source: str | None = None
    """Where the game came from, for people (``selfplay egyptian 2p game 12``)."""

    @cached_property
    def id(self) -> str:
        """A short stable name: a hash of the record and the seat (the same decision of
        the same game is the same puzzle, however it was mined)."""
        text = json.dumps([self.record.to_json(), self.seat], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def theme(self) -> str:
        """The main theme."""
        return self.themes[0]

    @property
    def variant(self) -> str:
        """The variant preset of the game."""
        return self.record.variant

    @property
    def round(self) -> int:
        """The round of the decision, counted from 1."""
        return len(self.record.rounds)

    @property
    def play(self) -> int:
        """The play of the round that the decision makes, counted from 1."""
        return len(self.record.rounds[-1].plays) + 1

    @property
    def margin(self) -> float:
        """How far the answer surely beats the best other move, in points of expected round
        margin: the lead less :data:`NOISE_Z` standard errors of the difference (exact
        values have none)."""
        best = self.moves[0]
        return min(
            best.points - other.points - NOISE_Z * math.hypot(best.stderr, other.stderr)
            for other in self.moves[1:]
        )

    def state(self) -> GameState:
        """The position of the decision, replayed through the engine."""
        return self.record.replay()

    def answer_move(self, state: GameState | None = None) -> Move:
        """The answer as a move of the position."""
        return parse_move(state if state is not None else self.state(), self.answer)

    def to_json(self) -> dict[str, Any]:
        """The puzzle line's JSON object."""
        out: dict[str, Any] = {
            "format": PUZZLE_FORMAT,
            "id": self.id,
            "variant": self.record.variant,
            "rules": dict(self.record.rules),
            "players": self.record.players,
            "teams": self.record.teams,
            "seat": self.seat,
            "round": self.round,
            "play": self.play,
            "record": self.record.to_json(),
            "answer": self.answer,
            "moves": [m.to_json() for m in self.moves],
            "margin": round(self.margin, 2),
            "exact": self.exact,
            "proof": self.proof,
            "arrangements": self.arrangements,
            "samples": self.samples,
            "theme": self.theme,
            "themes": list(self.themes),
            "rating": self.rating,
        }
        if self.source is not None:
            out["source"] = self.source
        return out

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """A puzzle from a line's JSON, checked: its record replays to a decision of
        ``seat``, and ``moves`` are that decision's legal moves, the answer first."""
        if not isinstance(data, Mapping):
            raise PuzzleError("a puzzle must be a JSON object")
        if data.get("format") != PUZZLE_FORMAT:
            raise PuzzleError(f"'format' must be {PUZZLE_FORMAT!r}, not {data.get('format')!r}")
        try:
            record = Record.from_json(data.get("record"))
        except RecordError as exc:
            raise PuzzleError(f"'record': {exc}") from None
        for key, mine in (
            ("variant", record.variant),
            ("rules", record.rules),
            ("players", record.players),
            ("teams", record.teams),
        ):
            if key in data and data[key] != mine:
                raise PuzzleError(f"{key!r} is {data[key]!r} but the record's is {mine!r}")
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat < record.players:
            raise PuzzleError(f"'seat' must be a seat from 0 to {record.players - 1}")
        try:
            state = record.replay()
        except RecordError as exc:
            raise PuzzleError(f"'record' does not replay: {exc}") from None
        if state.phase != PHASE_PLAY or state.turn != seat:
            raise PuzzleError(f"the record does not stop where seat {seat} is to play")
        legal = {m.text(): m for m in state.legal_moves()}
        raw_moves = data.get("moves")
        if not isinstance(raw_moves, list) or len(raw_moves) < 2:
            raise PuzzleError("'moves' must list every legal move (two or more)")
        moves = []
        for item in raw_moves:
            if not isinstance(item, Mapping):
                raise PuzzleError("each of 'moves' must be an object with move, points, stderr")
            text, points, stderr = item.get("move"), item.get("points"), item.get("stderr")
            if not isinstance(points, int | float) or not isinstance(stderr, int | float):
                raise PuzzleError(f"move {text!r}: 'points' and 'stderr' must be numbers")
            if not _number(points) or not _number(stderr) or stderr < 0:
                raise PuzzleError(f"move {text!r}: 'points' and 'stderr' must be numbers")
            if not isinstance(text, str):
                raise PuzzleError("each move must be move text")
            try:
                canonical = parse_move(state, text).text()
            except MoveTextError as exc:
                raise PuzzleError(f"move {text!r} is not legal here: {exc}") from None
            moves.append(MoveValue(canonical, float(points), float(stderr)))
        if sorted(m.move for m in moves) != sorted(legal):
            raise PuzzleError("'moves' must name every legal move of the decision once")
        if any(a.points < b.points for a, b in pairwise(moves)):
            raise PuzzleError("'moves' must be ordered best first")
        answer = data.get("answer")
        if not isinstance(answer, str):
            raise PuzzleError("'answer' must be move text")
        try:
            answer = parse_move(state, answer).text()
        except MoveTextError as exc:
            raise PuzzleError(f"'answer' {answer!r} is not legal here: {exc}") from None
        if answer != moves[0].move or moves[1].points >= moves[0].points:
            raise PuzzleError("'answer' must be the one move of the highest value")
        exact, proof = data.get("exact"), data.get("proof")
        if not isinstance(exact, bool) or proof not in PROOFS or exact != (proof != "search"):
            raise PuzzleError(
                "'exact' must be true for proof 'solved' or 'arrangements' and false for 'search'"
            )
        arrangements, samples = data.get("arrangements", 0), data.get("samples", 0)
        if type(arrangements) is not int or type(samples) is not int:
            raise PuzzleError("'arrangements' and 'samples' must be whole numbers")
        themes = data.get("themes")
        if not isinstance(themes, list) or not themes:
            themes = [data.get("theme")]
        if not all(t in THEMES or t == OTHER for t in themes):
            raise PuzzleError(f"'themes' must be among {', '.join([*THEMES, OTHER])}")
        if "theme" in data and data["theme"] != themes[0]:
            raise PuzzleError("'theme' must be the first of 'themes'")
        rating = data.get("rating")
        if type(rating) is not int:
            raise PuzzleError("'rating' must be a whole number")
        source = data.get("source")
        if source is not None and not isinstance(source, str):
            raise PuzzleError("'source' must be text")
        return cls(
            record=record,
            seat=seat,
            answer=answer,
            moves=tuple(moves),
            exact=exact,
            proof=proof,
            arrangements=arrangements,
            samples=samples,
            themes=tuple(themes),
            rating=rating,
            source=source,
        )

    def line(self) -> str:
        """The puzzle as one line of a ``.jsonl`` file (no newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def decision_record(record: Record, round_index: int, play: int) -> Record:
    """``record`` cut just before play ``play`` of round ``round_index`` (both from 0),
    without the players' names."""
    rounds = [RoundRecord(list(r.pack), list(r.plays)) for r in record.rounds[:round_index]]
    current = record.rounds[round_index]
    rounds.append(RoundRecord(list(current.pack), list(current.plays[:play])))
    return Record(
        variant=record.variant,
        players=record.players,
        rounds=rounds,
        rules=dict(record.rules),
        teams=record.teams,
        first_dealer=record.first_dealer,
        names=None,
    )


def read_puzzles(path: str | Path) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles of a ``.jsonl`` file, each a :class:`Puzzle` or the error reading that
    line (lines counted from 1); blank lines are skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PuzzleError(f"cannot read {str(path)!r}: {exc}") from None
    yield from parse_puzzles(text)


def parse_puzzles(text: str) -> Iterator[Puzzle | PuzzleError]:
    """The puzzles of ``.jsonl`` text (see :func:`read_puzzles`)."""
    for number, chunk in enumerate(text.splitlines(), start=1):
        if not chunk.strip():
            continue
        try:
            data = json.loads(chunk)
        except (json.JSONDecodeError, RecursionError) as exc:
            yield PuzzleError(f"not valid JSON: {exc}", line=number)
            continue
        try:
            yield Puzzle.from_json(data)
        except PuzzleError as exc:
            yield PuzzleError(exc.reason, line=number)


@cache
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The puzzles that ship with the package (mined from self-play; see docs/LEARN.md)."""
    text = resources.files("basra.puzzles").joinpath("data", SHIPPED).read_text(encoding="utf-8")
    out = []
    for item in parse_puzzles(text):
        if isinstance(item, PuzzleError):
            raise item
        out.append(item)
    return tuple(out)
