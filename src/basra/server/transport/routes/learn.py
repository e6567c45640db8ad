"""Lessons and puzzles.

- ``GET /api/lessons``: every preset's course (variant, title, steps' ids and titles),
  with the caller's steps done (``done``) when a token is sent;
- ``GET /api/lessons/{variant}?rules=JSON``: one course with every step's position
  (the learner's view, and what each card would take), for a preset or custom rules;
- ``POST /api/lessons/{variant}/{step}`` (auth) ``{"move", "rules"?}``: play a move in a
  step: ``correct`` (only the taught move is), the words saying why, and the steps
  done (kept for the caller's identity);
- ``GET /api/puzzles`` (auth): the caller's puzzle rating, streaks, the puzzle of the
  day, the themes;
- ``GET /api/puzzles/next?theme=&variant=&practice=`` (auth): a puzzle to solve, **view
  only**: the seat's view of the position, never the answer or a card the seat could not
  see. From the rated pool (puzzles mined on this server); ``practice=1`` (or an empty
  rated pool): from the set shipped in the package, whose answers are public, so never
  rated (``practice: true``);
- ``GET /api/puzzles/daily`` (auth): the puzzle of the day (the same view), chosen with
  the server's secret;
- ``GET /api/puzzles/mistakes`` (auth): the puzzles mined from the caller's own
  reviewed games (and how many of their games are being mined);
- ``GET /api/puzzles/{id}`` (auth): one puzzle's view (with the solution once the caller
  has tried it);
- ``POST /api/puzzles/{id}/attempt`` (auth) ``{"move"}``: the try: right or not, the
  solution (the answer, every move's value, why, the whole position) and the rating
  changes of a first try. Text that is not a move of the position is no try
  (``attempt.legal`` false, with why).

The pages ``/learn``, ``/learn/{variant}``, ``/puzzles`` and ``/puzzles/{id}`` are the
page (:data:`~basra.server.transport.routes.pages.INDEX`), as every page route.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict

from basra.server.errors import ProtocolError
from basra.server.features.lessons import Lessons
from basra.server.features.mistakes import MistakeMiner
from basra.server.features.puzzles import Puzzles
from basra.server.transport.auth import MaybeSignedIn, SignedIn
from basra.server.transport.deps import form, provide
from basra.server.transport.messages import check_json
from basra.server.transport.routes.pages import page

__all__ = ["PAGES", "LessonMove", "PuzzleMove", "router"]

router = APIRouter()

PAGES = ("/learn", "/learn/{variant}", "/puzzles", "/puzzles/{puzzle_id}")
"""The addresses of the lessons' and puzzles' pages."""
for _route in PAGES:
    router.add_api_route(_route, page, methods=["GET"], include_in_schema=False)

LessonsDep = Annotated[Lessons, Depends(provide(Lessons))]
PuzzlesDep = Annotated[Puzzles, Depends(provide(Puzzles))]
MinerDep = Annotated[MistakeMiner, Depends(provide(MistakeMiner))]
MAX_RULES_TEXT = 2_000


class LessonMove(BaseModel):
    """``POST /api/lessons/{variant}/{step}``: a move, and the custom settings (if any)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    move: str
    rules: dict[str, Any] | None = None


class PuzzleMove(BaseModel):
    """``POST /api/puzzles/{id}/attempt``: a move."""

    model_config = ConfigDict(extra="forbid", strict=True)
    move: str


def _rules_query(text: str | None) -> Any:
    """``?rules=`` as JSON (custom settings), checked for size and depth."""
    if not text:
        return None
    data = check_json(text.encode(), MAX_RULES_TEXT, "rules")
    if not isinstance(data, dict):
        raise ProtocolError(
            "bad_settings", "'rules' must be an object of settings", {"field": "rules"}
        )
    return data


@router.get("/api/lessons")
async def lessons(caller: MaybeSignedIn, service: LessonsDep) -> dict[str, Any]:
    """Every preset's course, listed."""
    return await service.listing(caller)


@router.get("/api/lessons/{variant}")
async def course(
    variant: str,
    caller: MaybeSignedIn,
    service: LessonsDep,
    rules: Annotated[str | None, Query(max_length=MAX_RULES_TEXT)] = None,
) -> dict[str, Any]:
    """One course with its steps' positions."""
    return await service.course(caller, variant, _rules_query(rules))


@router.post("/api/lessons/{variant}/{step}")
async def check(
    variant: str,
    step: str,
    me: SignedIn,
    body: Annotated[LessonMove, Depends(form(LessonMove))],
    service: LessonsDep,
) -> dict[str, Any]:
    """A move played in a step."""
    return await service.check(me, variant, body.rules, step, body.move)


@router.get("/api/puzzles")
async def puzzles(me: SignedIn, service: PuzzlesDep) -> dict[str, Any]:
    """The caller's puzzle rating, streaks and the puzzle of the day."""
    return await service.summary(me)


@router.get("/api/puzzles/next")
async def next_puzzle(
    me: SignedIn,
    service: PuzzlesDep,
    theme: Annotated[str | None, Query(max_length=40)] = None,
    variant: Annotated[str | None, Query(max_length=40)] = None,
    practice: bool = False,
) -> dict[str, Any]:
    """A puzzle to solve (view only): rated, or practice (unrated) when asked."""
    return await service.next(me, theme or None, variant or None, practice)


@router.get("/api/puzzles/daily")
async def daily_puzzle(me: SignedIn, service: PuzzlesDep) -> dict[str, Any]:
    """The puzzle of the day (view only)."""
    return await service.daily(me)


@router.get("/api/puzzles/mistakes")
async def mistakes(me: SignedIn, service: PuzzlesDep, miner: MinerDep) -> dict[str, Any]:
    """The puzzles from the caller's own games."""
    pending = await miner.catch_up(me.identity)
    return {"puzzles": await service.mistakes(me), "mining": pending}


@router.get("/api/puzzles/{puzzle_id}")
async def one_puzzle(puzzle_id: str, me: SignedIn, service: PuzzlesDep) -> dict[str, Any]:
    """One puzzle (view only until the caller has tried it)."""
    return await service.show(me, puzzle_id)


@router.post("/api/puzzles/{puzzle_id}/attempt")
async def answer(
    puzzle_id: str,
    me: SignedIn,
    body: Annotated[PuzzleMove, Depends(form(PuzzleMove))],
    service: PuzzlesDep,
) -> dict[str, Any]:
    """A try at a puzzle."""
    return await service.answer(me, puzzle_id, body.move)
