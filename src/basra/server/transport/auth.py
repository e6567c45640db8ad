"""Who is calling: the one reading of ``Authorization: Bearer <token>``, as dependencies.

``Depends(signed_in)`` is the caller of a route that needs a device token
(401 ``signed_out`` without one, or with one signed out); ``Depends(maybe_signed_in)``
is the caller when a token is sent (None without one; a token signed out is
still 401). Bot tokens sign in only to the bot API (:mod:`basra.server.transport.routes.bots`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from basra.server.errors import ProtocolError
from basra.server.identity import Caller, Identities
from basra.server.transport.deps import provide

__all__ = ["bearer", "maybe_signed_in", "signed_in"]


def bearer(connection: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    header = connection.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


async def maybe_signed_in(
    token: Annotated[str | None, Depends(bearer)],
    identities: Annotated[Identities, Depends(provide(Identities))],
) -> Caller | None:
    """The caller a bearer token speaks for; None without a token."""
    return await identities.authenticate(token)


async def signed_in(caller: Annotated[Caller | None, Depends(maybe_signed_in)]) -> Caller:
    """The caller a bearer token speaks for; ``signed_out`` without one."""
    if caller is None:
        raise ProtocolError("signed_out", "sign in first: POST /api/identity gives a token")
    return caller


SignedIn = Annotated[Caller, Depends(signed_in)]
"""A route parameter: the signed-in caller."""
MaybeSignedIn = Annotated[Caller | None, Depends(maybe_signed_in)]
"""A route parameter: the caller, if a token was sent."""
