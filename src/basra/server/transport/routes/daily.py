"""The daily deal.

- ``GET /api/daily``: today's deals, without their cards (and the caller's
  attempts, with a token);
- ``GET /api/daily/{deal}``: a deal's leaderboard by margin (with the attempts'
  tables for a caller who played it);
- ``POST /api/daily/{deal}`` (auth) ``{"name"}``: start or resume the caller's one
  attempt (201 when new).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from basra.server.features.daily import Daily
from basra.server.transport.auth import MaybeSignedIn, SignedIn
from basra.server.transport.deps import form, provide

__all__ = ["DailyForm", "router"]

router = APIRouter()

DailyDep = Annotated[Daily, Depends(provide(Daily))]


class DailyForm(BaseModel):
    """``POST /api/daily/{deal}``: the name to play under (the identity's by default)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = None


@router.get("/api/daily")
async def today(caller: MaybeSignedIn, daily: DailyDep) -> dict[str, Any]:
    """Today's deals."""
    return await daily.today_json(caller)


@router.get("/api/daily/{deal_id}")
async def board(deal_id: str, caller: MaybeSignedIn, daily: DailyDep) -> dict[str, Any]:
    """A deal's leaderboard."""
    return await daily.board(deal_id, caller)


@router.post("/api/daily/{deal_id}")
async def play(
    deal_id: str,
    me: SignedIn,
    body: Annotated[DailyForm, Depends(form(DailyForm))],
    daily: DailyDep,
) -> JSONResponse:
    """Start (201) or resume (200) the caller's attempt."""
    new, attempt = await daily.play(me, deal_id, body.name)
    return JSONResponse(
        {"table": attempt.table_id, "url": f"/t/{attempt.table_id}", "status": attempt.status},
        status_code=201 if new else 200,
    )
