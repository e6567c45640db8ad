"""``GET /api/reactions``: the reaction codes and how many a person may send
(:mod:`basra.server.features.reactions`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from basra.server.features.reactions import CODES, EMOJI, PHRASES
from basra.server.quotas import Quotas
from basra.server.transport.deps import provide

__all__ = ["router"]

router = APIRouter()


@router.get("/api/reactions")
async def reactions(quotas: Annotated[Quotas, Depends(provide(Quotas))]) -> dict[str, Any]:
    """The codes: quick phrases and emoji."""
    rate = quotas.limits.reactions_per_identity
    return {
        "codes": list(CODES),
        "phrases": list(PHRASES),
        "emoji": list(EMOJI),
        "limit": {"count": rate.count, "per": rate.per},
    }
