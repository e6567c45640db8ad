"""Puzzles on the web (``/puzzles``): one decision of a real game, the best move to find.

The puzzles are the core's (:mod:`basra.puzzles`), in two sets:

- the **rated pool**: the puzzles mined on this server from people's reviewed games
  (:mod:`basra.server.features.mistakes`), whose answers nobody has been shown. Only
  a try at one of these is rated.
- **practice**: the set shipped inside the package, for offline and terminal practice
  too. Its answers are public (anyone can read the package), so it is never rated: it
  is served when asked (``practice``), and on a fresh server whose rated pool is empty,
  marked so (``practice: true``, ``rated: false``).

What a person is shown before they answer is
the core's public view alone (:func:`basra.puzzles.public.puzzle_view`: the seat's
view of the position and what each of its cards would take, never the answer, the
values, another hand or the stock); the answer, every move's value, why, and the
whole position come only with the answer to a try (:func:`basra.puzzles.public.solution`),
or later to someone who has tried it. Nothing a puzzle shows leads back to its game: no
record, no table, no source, no name (the disclosure policy mines only games anyone may
see, :mod:`basra.server.table.disclosure`, and the puzzle does not say which).

**Ratings** are openskill's (Plackett-Luce, as the server rates games: the same
library, model and defaults). A try is a game between the person and the puzzle:
solved, the person wins; missed, the puzzle wins. A newcomer starts at mu 25, sigma
25/3; a puzzle starts from its line's first rating (the bot ladder,
:data:`basra.puzzles.mine.RATING_LADDER`) with sigma :data:`PUZZLE_SIGMA`. Ratings are
shown on a puzzle scale, :func:`shown` = 1500 + 60 × (mu − 25) (a newcomer 1500 ±
500, like lichess's puzzle ratings), so a line's rating and a person's read alike.
Only a person's **first** try at a puzzle is rated and counts for **streaks** (puzzles
solved in a row, and the best such run); trying again later shows the answer as
before, unrated. A first try and both ratings it moves are stored in one transaction,
against the rows' versions as read
(:meth:`~basra.server.features.learn_store.PuzzleStore.record_try`).

**Which puzzle.** ``next`` picks, among the rated pool's puzzles the person has not
tried (the newest mined ones, filtered by theme or variant when asked), one of the few
rated nearest their rating (``practice``: any shipped one). The **puzzle of the day** is
the same for everyone on a UTC day, chosen with the server's secret (made once and kept
in the store, as the daily deals' is) among the rated pool's puzzles mined before the
day began (:func:`daily_id`), so nobody can tell it from the date; with none, it is a
shipped one, chosen the same way and unrated. **Your mistakes** are the puzzles mined
from the person's own games (where in the game, not which game).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import os
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from basra.puzzles.format import Puzzle, PuzzleError, read_puzzles, shipped_puzzles
from basra.puzzles.mine import proof_samples
from basra.puzzles.public import THEME_TITLES, attempt, puzzle_view, solution
from basra.rules import PRESETS
from basra.server.errors import ProtocolError
from basra.server.features.learn_store import (
    MinedPuzzleRow,
    PuzzleRatingRow,
    PuzzlerRow,
    PuzzleStore,
    PuzzleTryRow,
)
from basra.server.identity import Caller
from basra.server.store.protocols import SecretStore

__all__ = [
    "MAX_MOVE_TEXT",
    "PUZZLE_SCALE",
    "PUZZLE_SIGMA",
    "PuzzleConfig",
    "Puzzles",
    "daily_id",
    "mu_of",
    "rate_try",
    "shown",
]

PUZZLE_SCALE = 60.0
"""Shown puzzle-rating points per openskill mu point."""
PUZZLE_SIGMA = 25 / 6
"""A new puzzle's sigma: half a newcomer's (the bot ladder's first rating is an estimate)."""
NEAREST = 5
"""``next`` picks at random among this many untried puzzles rated nearest the person."""
MAX_MOVE_TEXT = 48
RETRIES = 5
"""Times a try is stored again when a rating changed meanwhile (another tab's try)."""
SECRET_NAME = "puzzles"
"""The store's name of the secret the puzzle of the day is chosen with."""


def shown(mu: float) -> int:
    """A rating's mu on the puzzle scale.

    >>> shown(25.0), shown(25 + 500 / 60)
    (1500, 2000)
    """
    return round(1500 + (mu - 25.0) * PUZZLE_SCALE)


def mu_of(rating: float) -> float:
    """The mu of a rating on the puzzle scale (a line's first rating).

    >>> mu_of(1500), round(mu_of(2200), 3)
    (25.0, 36.667)
    """
    return 25.0 + (rating - 1500) / PUZZLE_SCALE


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_puzzler() -> tuple[float, float]:
    """A newcomer's mu and sigma (the library's defaults, as for games)."""
    rating = _model().rating()
    return float(rating.mu), float(rating.sigma)


def rate_try(
    person: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The person's and the puzzle's (mu, sigma) after a try: a game the solver wins.

    >>> (p, _), (q, _) = rate_try((25.0, 25 / 3), (25.0, 25 / 6), True)
    >>> p > 25 > q
    True
    """
    model = _model()
    a = model.rating(mu=person[0], sigma=person[1])
    b = model.rating(mu=puzzle[0], sigma=puzzle[1])
    [[a2], [b2]] = model.rate([[a], [b]], ranks=[0, 1] if solved else [1, 0])
    return (float(a2.mu), float(a2.sigma)), (float(b2.mu), float(b2.sigma))


def daily_id(secret: bytes, day: dt.date, puzzle_ids: Iterable[str]) -> str | None:
    """The puzzle of the day among ``puzzle_ids`` (None when there are none): the one whose
    HMAC-SHA256 under the server's secret, over the day and its id, is least. The same all
    day for the same candidates, and nobody without the secret can tell which.

    >>> ids = ["a", "b", "c"]
    >>> daily_id(b"k" * 32, dt.date(2026, 11, 28), ids) in ids
    True
    >>> daily_id(b"k" * 32, dt.date(2026, 11, 28), [])
    """

    def key(puzzle_id: str) -> bytes:
        label = f"basra-puzzle-daily/1|{day.isoformat()}|{puzzle_id}".encode()
        return hmac.new(secret, label, hashlib.sha256).digest()

    return min(puzzle_ids, key=key, default=None)


def rating_words(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as the API shows it: on the puzzle scale, its uncertainty, and mu/sigma."""
    return {
        "rating": shown(mu),
        "deviation": round(sigma * PUZZLE_SCALE),
        "provisional": sigma > 6.0,
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
    }


@dataclass(frozen=True)
class PuzzleConfig:
    """How puzzles are mined and served on this server."""

    proof_samples: int = field(default_factory=proof_samples)
    """The proving search's iterations a move (ten times the ``expert``'s by default)."""
    rate: bool = True
    """Rate each mined puzzle with the bot ladder (off: every one starts at 1500)."""
    seed: int = 0
    concurrency: int = 1
    """Games one process mines at once (their decisions share the workers)."""
    stale: float = 300.0
    """Seconds without progress after which a running mining job may be taken over."""
    pool: int = 500
    """The newest puzzles of the rated pool ``next`` (and the puzzle of the day) choose
    among."""
    rated_sets: tuple[str, ...] = ()
    """Files of puzzles the operator made privately (``basra puzzles make``, never
    published): part of the rated pool beside the puzzles mined here."""
    recheck: float = 600.0
    """Seconds between looks at reviewed games whose deal is not yet revealed to all (their
    mining waits until it is)."""


@dataclass(frozen=True)
class _Choice:
    """A puzzle ``next`` may serve: its id, current rating, themes and variant."""

    id: str
    rating: float
    themes: tuple[str, ...]
    variant: str


class Puzzles:
    """Serves puzzles (views only before a try), rates tries, and keeps streaks."""

    def __init__(
        self,
        store: PuzzleStore,
        config: PuzzleConfig | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        secrets: SecretStore | None = None,
        secret: bytes | None = None,
    ) -> None:
        self.store = store
        self.config = config or PuzzleConfig()
        self.rng = rng or random.Random()
        self.clock = clock
        self.secrets = secrets
        self._secret = secret
        self.shipped = {p.id: p for p in shipped_puzzles()}
        """The practice set (shipped in the package: its answers are public)."""
        self.private = {p.id: p for path in self.config.rated_sets for p in _read_set(path)}
        """The operator's own puzzle sets, made privately (``basra puzzles make``): rated."""
        self._parsed: OrderedDict[str, Puzzle] = OrderedDict()
        self._daily: tuple[dt.date, bytes, str, bool] | None = None
        """Today's puzzle as chosen (the day, the secret, its id, whether rated)."""

    async def start(self) -> None:
        """Read (or make, once) the server secret the puzzle of the day is chosen with."""
        if self._secret is None and self.secrets is not None:
            self._secret = await self.secrets.get_or_make(SECRET_NAME, os.urandom(32))

    def _secret_or_fail(self) -> bytes:
        if self._secret is None:
            raise RuntimeError("the puzzles are not started")
        return self._secret

    # ------------------------------------------------------------ finding

    async def find(self, puzzle_id: str) -> tuple[Puzzle, bool]:
        """A puzzle by id, and whether it is of the rated pool (mined here, or of the
        operator's own sets) rather than practice (shipped); ``no_such_puzzle``."""
        row = await self.store.mined(puzzle_id) if len(puzzle_id) <= 16 else None
        if row is not None:
            return self._parse(row), True
        found = self.private.get(puzzle_id)
        if found is not None:
            return found, True
        found = self.shipped.get(puzzle_id)
        if found is None:
            raise ProtocolError("no_such_puzzle", f"there is no puzzle {puzzle_id[:40]!r}")
        return found, False

    def _parse(self, row: MinedPuzzleRow) -> Puzzle:
        """A mined line read (replayed and checked) once, then kept (the newest 1,024)."""
        found = self._parsed.get(row.puzzle_id)
        if found is None:
            try:
                found = Puzzle.from_json(json.loads(row.line))
            except (PuzzleError, ValueError) as exc:
                raise ProtocolError("no_such_puzzle", f"puzzle {row.puzzle_id} is damaged") from exc
            self._parsed[row.puzzle_id] = found
            if len(self._parsed) > 1024:
                self._parsed.popitem(last=False)
        else:
            self._parsed.move_to_end(row.puzzle_id)
        return found

    async def _rating_of(self, puzzle: Puzzle) -> tuple[float, float, int]:
        """A puzzle's current mu, sigma and rated tries."""
        row = (await self.store.ratings([puzzle.id])).get(puzzle.id)
        if row is None:
            return mu_of(puzzle.rating), PUZZLE_SIGMA, 0
        return row.mu, row.sigma, row.tries

    async def _person(self, identity: str) -> PuzzlerRow:
        row = await self.store.puzzler(identity)
        if row is None:
            mu, sigma = new_puzzler()
            return PuzzlerRow(identity, mu, sigma)
        return row

    # ------------------------------------------------------------ what is shown

    async def _served(
        self, caller: Caller, puzzle: Puzzle, mode: str, rated: bool
    ) -> dict[str, Any]:
        """A puzzle as served before it is tried: the core's public view, the sides of the
        table, its current rating, whether it is practice (not ``rated``: the shipped set)
        and whether the caller's try would be rated. After the caller's first try at a
        rated one, the answer and the solution are added (nothing that names the game it
        comes from)."""
        mu, sigma, tries = await self._rating_of(puzzle)
        practice = not rated
        first = (
            None
            if practice
            else (await self.store.tries(caller.identity, [puzzle.id])).get(puzzle.id)
        )
        out: dict[str, Any] = {
            "mode": mode,
            "puzzle": puzzle_view(puzzle),
            "sides": [list(side) for side in puzzle.state().sides],
            "rating": rating_words(mu, sigma) | {"tries": tries},
            "tried": first is not None,
            "rated": not practice and first is None,
            "practice": practice,
        }
        if first is not None:
            out["try"] = _try_json(first)
            out["solution"] = solution(puzzle)
        return out

    async def _rated_pool(self, before: float | None = None) -> list[_Choice]:
        """The rated pool's puzzles with their first ratings: the newest mined here (mined
        before ``before`` when given), and the operator's own sets."""
        mined = await self.store.mined_pool(self.config.pool, before)
        out = [_Choice(r.puzzle_id, r.rating, (r.theme,), r.variant) for r in mined]
        known = {c.id for c in out}
        out.extend(
            _Choice(p.id, p.rating, p.themes, p.variant)
            for p in self.private.values()
            if p.id not in known
        )
        return out

    def _daily_pick(self, day: dt.date, rated: list[_Choice]) -> tuple[str, bool]:
        """The puzzle of ``day`` and whether it is of the rated pool (else practice)."""
        secret = self._secret_or_fail()
        chosen = daily_id(secret, day, (c.id for c in rated))
        if chosen is not None:
            return chosen, True
        fallback = daily_id(secret, day, self.shipped)
        assert fallback is not None  # the package ships puzzles
        return fallback, False

    async def _today(self) -> tuple[dt.date, str, bool]:
        """Today (UTC), its puzzle, and whether that is of the rated pool: chosen among the
        rated pool's puzzles mined before the day began, so it stays the same all day."""
        now = self.clock()
        today = dt.datetime.fromtimestamp(now, dt.UTC).date()
        secret = self._secret_or_fail()
        kept = self._daily
        if kept is not None and kept[:2] == (today, secret):
            return today, kept[2], kept[3]  # its candidates do not change all day
        start = dt.datetime.combine(today, dt.time(), dt.UTC).timestamp()
        chosen, rated = self._daily_pick(today, await self._rated_pool(before=start))
        self._daily = (today, secret, chosen, rated)
        return today, chosen, rated

    async def summary(self, caller: Caller) -> dict[str, Any]:
        """``GET /api/puzzles``: the caller's rating and streaks, the puzzle of the day,
        the themes and variants there are, and their latest tries."""
        person = await self._person(caller.identity)
        today, daily, rated = await self._today()
        tried_daily = rated and bool(await self.store.tries(caller.identity, [daily]))
        recent = await self.store.recent_tries(caller.identity, 10)
        variants = {p.variant for p in self.shipped.values()}
        return {
            "you": rating_words(person.mu, person.sigma)
            | {
                "tries": person.tries,
                "solved": person.solved,
                "streak": person.streak,
                "best_streak": person.best_streak,
            },
            "daily": {
                "id": daily,
                "date": today.isoformat(),
                "tried": tried_daily,
                "practice": not rated,
            },
            "themes": [{"id": t, "title": title} for t, title in THEME_TITLES.items()],
            "variants": [v for v in PRESETS if v in variants],
            "recent": [_try_json(t) for t in recent],
        }

    async def next(
        self,
        caller: Caller,
        theme: str | None = None,
        variant: str | None = None,
        practice: bool = False,
    ) -> dict[str, Any]:
        """``GET /api/puzzles/next``: an untried puzzle of the rated pool rated near the
        caller (a theme or a variant when asked); one tried before (unrated) when none is
        left. ``practice``, or a rated pool with nothing for the theme and variant: a
        shipped puzzle, unrated (``practice: true``)."""
        if theme is not None and theme not in THEME_TITLES:
            raise ProtocolError(
                "bad_request",
                f"theme: one of {', '.join(THEME_TITLES)}",
                {"field": "theme"},
            )
        if variant is not None and variant not in PRESETS:
            raise ProtocolError(
                "bad_request", f"variant: one of {', '.join(PRESETS)}", {"field": "variant"}
            )

        def fits(choice: _Choice) -> bool:
            return (theme is None or theme in choice.themes) and (
                variant is None or variant == choice.variant
            )

        choices = [] if practice else [c for c in await self._pool() if fits(c)]
        if not choices:
            shipped = [
                p.id
                for p in self.shipped.values()
                if fits(_Choice(p.id, p.rating, p.themes, p.variant))
            ]
            if not shipped:
                raise ProtocolError("no_such_puzzle", "no puzzle has that theme and variant yet")
            puzzle = self.shipped[self.rng.choice(sorted(shipped))]
            return await self._served(caller, puzzle, "practice", False)
        tried = await self.store.tried(caller.identity)
        fresh = [c for c in choices if c.id not in tried]
        if fresh:
            person = await self._person(caller.identity)
            target = shown(person.mu)
            fresh.sort(key=lambda c: (abs(c.rating - target), c.id))
            pick = self.rng.choice(fresh[:NEAREST])
        else:
            pick = self.rng.choice(choices)
        puzzle, rated = await self.find(pick.id)
        return await self._served(caller, puzzle, "rated", rated)

    async def _pool(self) -> list[_Choice]:
        """The rated pool's puzzles, with their current ratings."""
        pool = await self._rated_pool()
        ratings = await self.store.ratings([c.id for c in pool])

        def now(choice: _Choice) -> _Choice:
            row = ratings.get(choice.id)
            return choice if row is None else replace(choice, rating=shown(row.mu))

        return [now(c) for c in pool]

    async def daily(self, caller: Caller) -> dict[str, Any]:
        """``GET /api/puzzles/daily``: today's puzzle (UTC), of the rated pool (a shipped
        one, unrated, while the pool had none when the day began)."""
        _, chosen, _ = await self._today()
        puzzle, rated = await self.find(chosen)
        return await self._served(caller, puzzle, "daily", rated)

    async def show(self, caller: Caller, puzzle_id: str, mode: str = "one") -> dict[str, Any]:
        """``GET /api/puzzles/{id}``: one puzzle (the view; the solution once tried)."""
        puzzle, rated = await self.find(puzzle_id)
        return await self._served(caller, puzzle, mode if rated else "practice", rated)

    async def mistakes(self, caller: Caller) -> list[dict[str, Any]]:
        """The puzzles mined from the caller's games, newest first: where in the game each
        comes from (round and play, not which game: a puzzle never leads back to its game)
        and whether it was tried (no card: the positions are shown only one at a time)."""
        rows = await self.store.mistakes_of(caller.identity)
        tries = await self.store.tries(caller.identity, [r.puzzle_id for r in rows])
        out = []
        for row in rows:
            puzzle = self._parse(row)
            first = tries.get(row.puzzle_id)
            out.append(
                {
                    "id": row.puzzle_id,
                    "variant": row.variant,
                    "round": puzzle.round,
                    "play": puzzle.play,
                    "rating": row.rating,
                    "created_at": row.created_at,
                    "tried": first is not None,
                    "solved": first.correct if first is not None else None,
                }
            )
        return out

    # ------------------------------------------------------------ a try

    async def answer(self, caller: Caller, puzzle_id: str, text: str) -> dict[str, Any]:
        """``POST /api/puzzles/{id}/attempt``: a move for the puzzle.

        Text that is not a move of the position is no try (``attempt.legal`` false, and
        why: nothing is stored, nothing is revealed). A move is the try: the answer
        (right or not), the whole solution, and, for the caller's first try at a puzzle
        of the rated pool, how their rating, the puzzle's and their streak moved. A try
        at a practice puzzle (shipped: its answer is public) is answered the same, and
        neither rated nor stored (``practice: true``).
        """
        if len(text) > MAX_MOVE_TEXT:
            raise ProtocolError(
                "bad_request", f"move: at most {MAX_MOVE_TEXT} characters", {"field": "move"}
            )
        puzzle, rated = await self.find(puzzle_id)
        tried = attempt(puzzle, text)
        if not tried["legal"]:
            return {"attempt": tried, "rated": False}
        out: dict[str, Any] = {
            "attempt": tried,
            "solution": solution(puzzle),
            "rated": False,
            "practice": not rated,
        }
        if not rated:
            return out
        correct = bool(tried["correct"])
        identity = caller.identity
        for _ in range(RETRIES):
            first = (await self.store.tries(identity, [puzzle.id])).get(puzzle.id)
            if first is not None:  # tried before: shown again, unrated
                out["try"] = _try_json(first)
                break
            person_row = await self.store.puzzler(identity)
            rating_row = (await self.store.ratings([puzzle.id])).get(puzzle.id)
            person = person_row or PuzzlerRow(identity, *new_puzzler())
            mu, sigma = (
                (rating_row.mu, rating_row.sigma)
                if rating_row is not None
                else (mu_of(puzzle.rating), PUZZLE_SIGMA)
            )
            (pmu, psigma), (qmu, qsigma) = rate_try((person.mu, person.sigma), (mu, sigma), correct)
            now = self.clock()
            streak = person.streak + 1 if correct else 0
            after = PuzzlerRow(
                identity,
                pmu,
                psigma,
                person.tries + 1,
                person.solved + correct,
                streak,
                max(person.best_streak, streak),
                now,
            )
            moved = PuzzleRatingRow(
                puzzle.id,
                qmu,
                qsigma,
                (rating_row.tries if rating_row else 0) + 1,
                (rating_row.solved if rating_row else 0) + correct,
            )
            first_try = PuzzleTryRow(
                identity,
                puzzle.id,
                str(tried["move"]),
                correct,
                now,
                float(shown(person.mu)),
                float(shown(pmu)),
            )
            stored = await self.store.record_try(
                first_try,
                after,
                moved,
                person_row.tries if person_row is not None else None,
                rating_row.tries if rating_row is not None else None,
            )
            if stored:
                out["rated"] = True
                out["try"] = _try_json(first_try)
                out["you"] = rating_words(pmu, psigma) | {
                    "before": shown(person.mu),
                    "change": shown(pmu) - shown(person.mu),
                    "streak": after.streak,
                    "best_streak": after.best_streak,
                    "solved": after.solved,
                    "tries": after.tries,
                }
                out["puzzle_rating"] = {"before": shown(mu), "after": shown(qmu)}
                break
        return out


def _read_set(path: str) -> list[Puzzle]:
    """An operator's puzzle set, every line checked (a bad one names its file and line)."""
    out = []
    for item in read_puzzles(path):
        if isinstance(item, PuzzleError):
            raise ValueError(f"puzzles: rated set {path}: {item}")
        out.append(item)
    return out


def _try_json(row: PuzzleTryRow) -> dict[str, Any]:
    return {
        "puzzle": row.puzzle_id,
        "move": row.move,
        "correct": row.correct,
        "at": row.at,
        "rating_before": round(row.rating_before),
        "rating_after": round(row.rating_after),
    }
