"""Friends (:mod:`basra.server.features.friends`); every route needs a signed-in caller.

- ``GET /api/friends``: ``{"friends": [{name, username, code, status, table}], "following":
  [...], "blocking": [...], "hidden": bool}``; ``status`` one of ``online``, ``playing``,
  ``away``; ``table`` the table to watch, or null.
- ``GET /api/friends/link``: the caller's follow-me ``{"code", "url", "qr"}`` (``qr``: an
  SVG, or null when the server has no ``segno``).
- ``POST /api/friends/relation``, ``/follow``, ``/unfollow``, ``/block``, ``/unblock`` with
  ``{"username": U}``, ``{"code": C}`` or ``{"table": T, "seat": N}``: how the two stand
  after, ``{"person", "following", "follower", "friends", "blocking"}``.
- ``POST /api/friends/presence`` ``{"hidden": bool}``: hide one's presence or show it.

Refusals: ``bad_friend`` (422, naming the ``field``), ``no_such_player``,
``no_such_table``, ``blocked`` (403), ``rate_limited``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from basra.server.features.friends import Friends
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, json_body, provide

__all__ = ["router"]

router = APIRouter()

FriendsDep = Annotated[Friends, Depends(provide(Friends))]
Body = Annotated[Any, Depends(json_body)]
Address = Annotated[str, Depends(address)]


@router.get("/api/friends")
async def friends(me: SignedIn, service: FriendsDep) -> dict[str, Any]:
    """The caller's friends with their presence, whom they follow and block."""
    return await service.listing(me.identity)


@router.get("/api/friends/link")
async def link(me: SignedIn, request: Request, service: FriendsDep) -> dict[str, Any]:
    """The caller's follow-me link and its QR code."""
    return await service.link(me.identity, str(request.base_url))


@router.post("/api/friends/relation")
async def relation(me: SignedIn, body: Body, service: FriendsDep) -> dict[str, Any]:
    """How the caller and a person stand."""
    return await service.relation_to(me.identity, body)


@router.post("/api/friends/follow")
async def follow(me: SignedIn, body: Body, where: Address, service: FriendsDep) -> dict[str, Any]:
    """Follow a person."""
    return await service.follow(me.identity, body, where)


@router.post("/api/friends/unfollow")
async def unfollow(me: SignedIn, body: Body, service: FriendsDep) -> dict[str, Any]:
    """Stop following a person."""
    return await service.unfollow(me.identity, body)


@router.post("/api/friends/block")
async def block(me: SignedIn, body: Body, where: Address, service: FriendsDep) -> dict[str, Any]:
    """Block a person."""
    return await service.block(me.identity, body, where)


@router.post("/api/friends/unblock")
async def unblock(me: SignedIn, body: Body, service: FriendsDep) -> dict[str, Any]:
    """Unblock a person."""
    return await service.unblock(me.identity, body)


@router.post("/api/friends/presence")
async def presence(me: SignedIn, body: Body, service: FriendsDep) -> dict[str, Any]:
    """Hide the caller's presence, or show it."""
    return await service.hide(me.identity, body)
