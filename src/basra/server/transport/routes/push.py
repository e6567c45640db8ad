"""Web Push (:mod:`basra.server.features.push`); every route but ``renew`` needs a
signed-in caller.

- ``GET /settings/notifications``: the page (``static/push.js``).

- ``GET /api/push``: ``{"enabled", "public_key", "kinds", "chosen", "subscriptions"}``:
  whether the server sends push notifications (it has VAPID keys), the key a page
  subscribes with (null when off), every kind, those the caller opted into, and how
  many browsers of theirs are subscribed.
- ``POST /api/push/subscribe`` with the PushManager's subscription ``{"endpoint",
  "keys": {"p256dh", "auth"}}`` and the page's ``lang`` (what this browser's
  notifications are worded in; ``en`` when not given): ``{"subscribed": true,
  "subscriptions": N}``.
- ``POST /api/push/renew`` ``{"old": {endpoint, keys}, "subscription": {endpoint, keys}}``
  (and ``lang``, else the old one's)
  (no token: the service worker's, when the browser replaced its subscription; the old
  one's auth secret shows whose it is): ``{"renewed": true}``.
- ``POST /api/push/unsubscribe`` ``{"endpoint"}``: ``{"unsubscribed": bool, ...}``.
- ``POST /api/push/kinds`` ``{"kinds": [...]}``: the kinds opted into (every other kind
  is opted out of): ``{"chosen": [...]}``.

Refusals: ``bad_push`` (422, naming the ``field``), ``push_off`` (503: the server has
no VAPID keys).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from basra.server.features.push import Push
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import json_body, provide
from basra.server.transport.routes.pages import page

__all__ = ["router"]

router = APIRouter()
router.add_api_route("/settings/notifications", page, methods=["GET"], include_in_schema=False)

PushDep = Annotated[Push, Depends(provide(Push))]
Body = Annotated[Any, Depends(json_body)]


@router.get("/api/push")
async def settings(me: SignedIn, push: PushDep) -> dict[str, Any]:
    """Whether push is on, its public key, the kinds and the caller's choice."""
    return await push.settings(me.identity)


@router.post("/api/push/subscribe")
async def subscribe(me: SignedIn, body: Body, push: PushDep) -> dict[str, Any]:
    """Keep this browser's subscription."""
    return await push.subscribe(me.identity, body)


@router.post("/api/push/renew")
async def renew(body: Body, push: PushDep) -> dict[str, Any]:
    """A browser's new subscription in place of its old one."""
    return await push.renew(body)


@router.post("/api/push/unsubscribe")
async def unsubscribe(me: SignedIn, body: Body, push: PushDep) -> dict[str, Any]:
    """Drop a subscription of the caller's."""
    return await push.unsubscribe(me.identity, body)


@router.post("/api/push/kinds")
async def kinds(me: SignedIn, body: Body, push: PushDep) -> dict[str, Any]:
    """Opt into these kinds, out of the others."""
    return await push.choose(me.identity, body)
