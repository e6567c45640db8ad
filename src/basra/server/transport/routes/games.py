"""Games: a person's list, and a finished game's record, replay and review.

- ``GET /api/games`` (auth): the caller's games;
- ``GET /api/games/{id}/record``: the record (RECORD.md) of a finished game;
- ``GET /api/games/{id}/replay``: every step of a finished game;
- ``POST /api/games/{id}/review`` (auth): ask for a finished game's review (a
  background job, :mod:`basra.server.features.reviews`); ``GET
  /api/games/{id}/review``: where it stands (``status``, ``done`` of ``total``
  decisions) and, once done, the ``review`` itself.

Each asks the disclosure policy (:class:`basra.server.table.disclosure.Disclosure`)
whether the caller may see the game's cards: a hidden table's game (a daily deal's, a
duplicate tournament's board still played elsewhere, a private table's) stays hidden
(``play_first``) until it lets the caller see it, and no game is shown before it is
over (``not_over``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from basra.server.features.reviews import ReviewService
from basra.server.identity import Caller
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.queries import Queries
from basra.server.transport.auth import MaybeSignedIn, SignedIn
from basra.server.transport.deps import provide

__all__ = ["router"]

router = APIRouter()

QueriesDep = Annotated[Queries, Depends(provide(Queries))]
ReviewsDep = Annotated[ReviewService, Depends(provide(ReviewService))]


async def may_see(
    table_id: str,
    caller: MaybeSignedIn,
    lifecycle: Annotated[Lifecycle, Depends(provide(Lifecycle))],
) -> Caller | None:
    """Refuse a game's cards to a caller the disclosure policy keeps them from; the caller."""
    await lifecycle.disclosure.check_id(table_id, caller)
    return caller


Seen = Annotated[Caller | None, Depends(may_see)]


@router.get("/api/games")
async def games(me: SignedIn, queries: QueriesDep) -> JSONResponse:
    """The caller's games, newest first."""
    return JSONResponse({"games": await queries.games_of(me.identity)})


@router.get("/api/games/{table_id}/record")
async def record(table_id: str, caller: MaybeSignedIn, queries: QueriesDep) -> JSONResponse:
    """A finished game's record, as a file to download."""
    data = await queries.record(table_id, caller)
    return JSONResponse(
        data, headers={"Content-Disposition": f'attachment; filename="basra-{table_id}.json"'}
    )


@router.get("/api/games/{table_id}/replay")
async def replay(table_id: str, caller: MaybeSignedIn, queries: QueriesDep) -> JSONResponse:
    """Every step of a finished game."""
    return JSONResponse(await queries.replay(table_id, caller))


def _review_answer(status: dict[str, Any], data: str | None, code: int = 200) -> Response:
    """The status, with the stored review spliced in as it is (never parsed again)."""
    text = json.dumps(status)
    if data is not None:
        text = text[:-1] + ', "review": ' + data + "}"
    return Response(text, status_code=code, media_type="application/json")


@router.post("/api/games/{table_id}/review")
async def ask_review(table_id: str, me: SignedIn, _: Seen, reviews: ReviewsDep) -> Response:
    """Ask for a finished game's review (a review shows every hand)."""
    status, data = await reviews.request(me, table_id)
    return _review_answer(status, data, 200 if status["status"] == "done" else 202)


@router.get("/api/games/{table_id}/review")
async def review(table_id: str, _: Seen, reviews: ReviewsDep) -> Response:
    """Where a game's review stands, and the review once done."""
    status, data = await reviews.status(table_id)
    return _review_answer(status, data)
