"""Reports: ``POST /api/reports`` (*auth*) reports a player, from a table or a profile
(:mod:`basra.server.features.moderation`).

Body: ``{"table": ID, "seat": N, "reason": R, "note": "..."}``, ``{"username": U,
"reason": R, "note": "..."}``, ``{"code": C, ...}`` (a follow-me code), ``{"challenge": ID,
...}`` (a challenge sent to the reporter, its words quoted), ``{"table": ID, "line": L,
...}`` (a line of table talk, quoted in the report) or ``{"club": SLUG, ...}`` (a club: its
name or description); ``reason`` one of ``abuse``, ``cheating``, ``name``, ``spam``,
``other``. Answer: 201 ``{"report": id}``; ``bad_report`` (422, naming the ``field``),
``no_such_table``, ``no_such_player``, ``no_such_challenge``, ``no_such_line``,
``no_such_club``, ``rate_limited``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from basra.server.errors import ProtocolError
from basra.server.features.moderation import REASONS, Moderation
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, json_body, provide

__all__ = ["router"]

router = APIRouter()


@router.post("/api/reports")
async def report(
    me: SignedIn,
    body: Annotated[Any, Depends(json_body)],
    where: Annotated[str, Depends(address)],
    moderation: Annotated[Moderation, Depends(provide(Moderation))],
) -> JSONResponse:
    """Report a player (the body's fields are the feature's to check)."""
    if not isinstance(body, dict):
        raise ProtocolError("bad_report", f"send {{reason: {'|'.join(REASONS)}, ...}}")
    row = await moderation.report(me.identity, body, where)
    return JSONResponse({"report": row.id}, status_code=201)
