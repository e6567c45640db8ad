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
- ``WS /ws/friends``: the socket a page holds while it is open outside a table (the home
  page): ``{"type": "hello", "token": T}``, then ``ping`` (answered ``pong``). Like every
  socket, it makes its person present (:mod:`basra.server.features.friends.presence`).

Refusals: ``bad_friend`` (422, naming the ``field``), ``no_such_player``,
``no_such_table``, ``blocked`` (403), ``rate_limited``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket

from basra.server.connection import Connection
from basra.server.errors import ProtocolError
from basra.server.features.friends import Friends
from basra.server.identity import Identities
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, json_body, provide
from basra.server.transport.socket import SocketPump

__all__ = ["PresenceSocket", "router"]

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


class PresenceSocket:
    """``WS /ws/friends``: a signed-in person on the site, outside a table."""

    types = ("hello", "ping")
    hello = "{type: hello, token}"

    def __init__(self, identities: Identities) -> None:
        self.identities = identities

    async def admit(self, hello: dict[str, Any], address: str) -> Connection:
        """A person signed in (a token is needed here)."""
        token = hello.get("token")
        caller = await self.identities.authenticate(token if isinstance(token, str) else None)
        if caller is None:
            raise ProtocolError("signed_out", "sign in first: POST /api/identity gives a token")
        return Connection(caller, caller.name, address)

    async def attach(self, connection: Connection) -> None:
        """Nothing to send: being connected is the point."""

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """A ping."""
        connection.send({"type": "pong"})

    async def detach(self, connection: Connection) -> None:
        """Nothing to undo (presence hears of it from the registry)."""


@router.websocket("/ws/friends")
async def present(
    websocket: WebSocket,
    identities: Annotated[Identities, Depends(provide(Identities))],
    pump: Annotated[SocketPump, Depends(provide(SocketPump))],
) -> None:
    """Be present while the page is open."""
    await pump.serve(websocket, PresenceSocket(identities))
