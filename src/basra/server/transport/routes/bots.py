"""Bot accounts (*auth*: the owner's device token) and the bot API (a bot's token).

- ``POST /api/bots`` (auth) ``{"name"}``: a bot account and its token;
  ``GET /api/bots`` (auth): the caller's bots; ``POST /api/bots/{id}/token``
  (auth): a new token; ``DELETE /api/bots/{id}`` (auth): revoke.
- ``GET /api/bot/account``, ``GET /api/bot/games`` (``Authorization: Bearer bot_...``):
  the bot and its tables; ``WS /ws/bot``: play
  (:data:`basra.server.features.botapi.PROTOCOL`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from basra.server.connection import Connection
from basra.server.errors import ProtocolError
from basra.server.features.botapi import PROTOCOL_NAME, TYPES, BotApi, BotConnection, bot_json
from basra.server.features.botapi_store import BotRow
from basra.server.transport.auth import SignedIn, bearer
from basra.server.transport.deps import form, provide
from basra.server.transport.socket import SocketPump

__all__ = ["BotForm", "BotSocket", "router"]

router = APIRouter()

BotsDep = Annotated[BotApi, Depends(provide(BotApi))]


class BotForm(BaseModel):
    """``POST /api/bots``: the bot account's name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str


async def bot_signed_in(token: Annotated[str | None, Depends(bearer)], bots: BotsDep) -> BotRow:
    """The bot a bearer token speaks for, or ``signed_out``."""
    return await bots.bot_of(token)


class BotSocket:
    """``WS /ws/bot``: a bot program, playing every table its bot sits at."""

    types = TYPES
    hello = "{type: hello, token}"

    def __init__(self, bots: BotApi) -> None:
        self.bots = bots
        self.program: BotConnection | None = None

    async def admit(self, hello: dict[str, Any], address: str) -> Connection:
        """A live bot's token."""
        self.program = await self.bots.admit(hello.get("token"), address)
        return self.program.conn

    def _program(self) -> BotConnection:
        if self.program is None:
            raise ProtocolError("bad_message", "say hello first: {type: hello, token}")
        return self.program

    async def attach(self, connection: Connection) -> None:
        """Welcome it, and tell it of its tables."""
        await self.bots.attach(self._program())

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """A move (or a ping)."""
        await self._program().handle(message)

    async def detach(self, connection: Connection) -> None:
        """It leaves its tables."""
        if self.program is not None:
            await self.bots.detach(self.program)


@router.post("/api/bots")
async def make_bot(
    me: SignedIn, body: Annotated[BotForm, Depends(form(BotForm))], bots: BotsDep
) -> JSONResponse:
    """A new bot account and its token (shown once)."""
    return JSONResponse(await bots.create(me, body.name), status_code=201)


@router.get("/api/bots")
async def my_bots(me: SignedIn, bots: BotsDep) -> dict[str, Any]:
    """The caller's bot accounts."""
    return {"bots": await bots.mine(me)}


@router.post("/api/bots/{bot_id}/token")
async def renew_bot(bot_id: str, me: SignedIn, bots: BotsDep) -> JSONResponse:
    """A new token for one of the caller's bots."""
    return JSONResponse(await bots.renew(me, bot_id), status_code=201)


@router.delete("/api/bots/{bot_id}")
async def revoke_bot(bot_id: str, me: SignedIn, bots: BotsDep) -> dict[str, Any]:
    """Revoke one of the caller's bots."""
    await bots.revoke(me, bot_id)
    return {"revoked": True}


@router.get("/api/bot/account")
async def bot_account(bot: Annotated[BotRow, Depends(bot_signed_in)]) -> dict[str, Any]:
    """The bot of the token."""
    return {**bot_json(bot), "protocol": PROTOCOL_NAME}


@router.get("/api/bot/games")
async def bot_games(
    bot: Annotated[BotRow, Depends(bot_signed_in)], bots: BotsDep
) -> dict[str, Any]:
    """The tables the bot sits at, waiting or in play."""
    return {"games": await bots.games(bot)}


@router.websocket("/ws/bot")
async def bot_socket(
    websocket: WebSocket,
    bots: BotsDep,
    pump: Annotated[SocketPump, Depends(provide(SocketPump))],
) -> None:
    """A bot program's connection."""
    await pump.serve(websocket, BotSocket(bots))
