"""Turn-based play (:mod:`basra.server.features.turns`); every route needs a signed-in caller.

- ``GET /api/turns``: ``{"turns": [{table, variant, players, teams, rated, days, status,
  seat, turn, your_turn, left, paused, opponents, scores, version}], "count": N,
  "vacation": {...}}``: the caller's turn-based games, those waiting for their move first
  (``count`` of them), ``left`` the seconds left on the running clock.
- ``GET /api/vacation``: ``{"days_per_month", "used", "left", "until"}``.
- ``POST /api/vacation`` ``{"days": N}``: take N whole days of vacation from now (the
  clocks of every turn-based game stop); answers as ``GET``.
- ``POST /api/vacation/end``: end it now; answers as ``GET``.

Refusals: ``bad_request`` (422, naming the field ``days``), ``on_vacation``,
``not_on_vacation``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from basra.server.features.turns import Turns
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import json_body, provide

__all__ = ["router"]

router = APIRouter()

TurnsDep = Annotated[Turns, Depends(provide(Turns))]
Body = Annotated[Any, Depends(json_body)]


@router.get("/api/turns")
async def turns(me: SignedIn, service: TurnsDep) -> dict[str, Any]:
    """The caller's turn-based games and vacation."""
    return await service.listing(me.identity)


@router.get("/api/vacation")
async def vacation(me: SignedIn, service: TurnsDep) -> dict[str, Any]:
    """The caller's vacation days this month."""
    return await service.vacation(me.identity)


@router.post("/api/vacation")
async def take(me: SignedIn, body: Body, service: TurnsDep) -> dict[str, Any]:
    """Take days of vacation from now."""
    return await service.take(me.identity, body)


@router.post("/api/vacation/end")
async def end(me: SignedIn, service: TurnsDep) -> dict[str, Any]:
    """End the vacation now."""
    return await service.end(me.identity)
