"""Notifications (:mod:`basra.server.features.notifications`); every route needs a signed-in
caller.

- ``GET /api/notifications?before=T&limit=N``: ``{"items": [{id, kind, data, url, at,
  read}], "unread": N, "next": T}``, newest first (``next``: the ``before`` of the next
  page, or null).
- ``GET /api/notifications/unread``: ``{"unread": N}``.
- ``POST /api/notifications/read`` ``{"ids": [...]}`` or ``{"all": true}``: ``{"unread": N}``.

Every socket the person holds is sent ``{"type": "notification", "item", "unread"}`` when an
item is kept, and ``{"type": "unread", "unread"}`` when some are marked read. Refusals:
``bad_notification`` (422, naming the ``field``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from basra.server.features.notifications import PAGE, Notifications
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import json_body, provide

__all__ = ["router"]

router = APIRouter()

NotificationsDep = Annotated[Notifications, Depends(provide(Notifications))]
Body = Annotated[Any, Depends(json_body)]


@router.get("/api/notifications")
async def listing(
    me: SignedIn, service: NotificationsDep, before: float | None = None, limit: int = PAGE
) -> dict[str, Any]:
    """The caller's notifications, newest first."""
    return await service.listing(me.identity, before, limit)


@router.get("/api/notifications/unread")
async def unread(me: SignedIn, service: NotificationsDep) -> dict[str, Any]:
    """How many are unread."""
    return await service.unread(me.identity)


@router.post("/api/notifications/read")
async def mark_read(me: SignedIn, body: Body, service: NotificationsDep) -> dict[str, Any]:
    """Mark some or all read."""
    return await service.mark_read(me.identity, body)
