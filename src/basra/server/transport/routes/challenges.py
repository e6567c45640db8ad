"""Challenges (:mod:`basra.server.features.challenges`); every route needs a signed-in caller.

- ``POST /api/challenges`` ``{"to": [{"username": U} or {"code": C}], "players", "variant",
  "rules", "teams", "hints", "rated", "clock", "level", "text"}``: the challenge made (the
  table's settings as ``POST /api/tables`` takes them; ``level`` the bots' for the seats
  nobody takes).
- ``GET /api/challenges``: ``{"incoming": [...], "outgoing": [...]}`` of the last hour;
  ``GET /api/challenges/{id}``: one. Each ``{id, mine, from, to: [{name, answer}], you,
  settings, text, at, expires_at, status, table}``; ``status`` one of ``waiting``,
  ``accepted`` (``table`` is where to go), ``declined``, ``expired``, ``cancelled``.
- ``POST /api/challenges/{id}/accept``, ``/decline`` (an invitee), ``/cancel`` (its maker):
  the challenge after.

Every socket of everyone in a challenge is sent ``{"type": "challenge", "challenge"}`` at
each change. Refusals: ``bad_challenge`` and ``bad_settings`` (422, naming the ``field``),
``no_such_player``, ``no_such_challenge`` (404), ``blocked``, ``not_allowed`` (403),
``challenge_over`` (409), ``rate_limited``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from basra.server.features.challenges import Challenges
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, json_body, provide

__all__ = ["router"]

router = APIRouter()

ChallengesDep = Annotated[Challenges, Depends(provide(Challenges))]
Body = Annotated[Any, Depends(json_body)]
Address = Annotated[str, Depends(address)]


@router.post("/api/challenges")
async def make(me: SignedIn, body: Body, where: Address, service: ChallengesDep) -> dict[str, Any]:
    """Challenge people to a table."""
    return await service.make(me.identity, body, where)


@router.get("/api/challenges")
async def listing(me: SignedIn, service: ChallengesDep) -> dict[str, Any]:
    """The caller's challenges, sent and received."""
    return await service.listing(me.identity)


@router.get("/api/challenges/{challenge_id}")
async def one(me: SignedIn, challenge_id: str, service: ChallengesDep) -> dict[str, Any]:
    """One challenge."""
    return await service.one(me.identity, challenge_id)


@router.post("/api/challenges/{challenge_id}/accept")
async def accept(me: SignedIn, challenge_id: str, service: ChallengesDep) -> dict[str, Any]:
    """Accept a challenge."""
    return await service.answer(me.identity, challenge_id, "accept")


@router.post("/api/challenges/{challenge_id}/decline")
async def decline(me: SignedIn, challenge_id: str, service: ChallengesDep) -> dict[str, Any]:
    """Decline a challenge."""
    return await service.answer(me.identity, challenge_id, "decline")


@router.post("/api/challenges/{challenge_id}/cancel")
async def cancel(me: SignedIn, challenge_id: str, service: ChallengesDep) -> dict[str, Any]:
    """Cancel a challenge one made."""
    return await service.answer(me.identity, challenge_id, "cancel")
