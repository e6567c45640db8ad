"""Who is calling: the one reading of ``Authorization: Bearer <token>``, as dependencies.

``Depends(signed_in)`` is the caller of a route that needs a device token
(401 ``signed_out`` without one, or with one signed out); ``Depends(maybe_signed_in)``
is the caller when a token is sent (None without one; a token signed out is
still 401). A bot program's token (``bot_...``) is not a device token: it signs in
only to the bot API (``Depends(bot_signed_in)``, :mod:`basra.server.transport.routes.bots`)
and to the routes open to people and programs alike (``Depends(person_or_program)``:
entering a tournament, :mod:`basra.server.transport.routes.tournaments`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from basra.server.errors import ProtocolError
from basra.server.features.botapi import TOKEN_PREFIX, BotApi
from basra.server.features.botapi_store import BotRow
from basra.server.identity import Caller, Identities
from basra.server.transport.deps import provide

__all__ = [
    "BotSignedIn",
    "MaybeSignedIn",
    "PersonOrProgram",
    "SignedIn",
    "bearer",
    "bot_signed_in",
    "maybe_signed_in",
    "person_or_program",
    "signed_in",
]


def bearer(connection: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    header = connection.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


Token = Annotated[str | None, Depends(bearer)]
IdentitiesDep = Annotated[Identities, Depends(provide(Identities))]
BotsDep = Annotated[BotApi, Depends(provide(BotApi))]


async def maybe_signed_in(token: Token, identities: IdentitiesDep) -> Caller | None:
    """The caller a bearer token speaks for; None without a token."""
    return await identities.authenticate(token)


async def signed_in(caller: Annotated[Caller | None, Depends(maybe_signed_in)]) -> Caller:
    """The caller a bearer token speaks for; ``signed_out`` without one."""
    if caller is None:
        raise ProtocolError("signed_out", "sign in first: POST /api/identity gives a token")
    return caller


async def bot_signed_in(token: Token, bots: BotsDep) -> BotRow:
    """The bot program a ``bot_...`` bearer token speaks for; ``signed_out`` else."""
    return await bots.bot_of(token)


async def person_or_program(
    token: Token, identities: IdentitiesDep, bots: BotsDep
) -> Caller | BotRow:
    """The bot program a ``bot_...`` bearer token speaks for, else the person a device
    token does; ``signed_out`` without a token, or with one signed out or not valid."""
    if token is not None and token.startswith(TOKEN_PREFIX):
        bot = await bots.authenticate(token)
        if bot is None:
            raise ProtocolError("signed_out", "this bot token is not valid (POST /api/bots)")
        return bot
    return await signed_in(await identities.authenticate(token))


SignedIn = Annotated[Caller, Depends(signed_in)]
"""A route parameter: the signed-in caller."""
MaybeSignedIn = Annotated[Caller | None, Depends(maybe_signed_in)]
"""A route parameter: the caller, if a token was sent."""
BotSignedIn = Annotated[BotRow, Depends(bot_signed_in)]
"""A route parameter: the bot program signed in with its token."""
PersonOrProgram = Annotated[Caller | BotRow, Depends(person_or_program)]
"""A route parameter: a person signed in with a device token, or a bot program with its."""
