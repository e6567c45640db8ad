"""Quick play: ``GET /api/quickplay`` (how many wait, how the pool pairs) and ``WS /ws/play``
(join the pool: :data:`basra.server.features.quickplay.PROTOCOL`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket

from basra.server.connection import Connection
from basra.server.errors import ProtocolError
from basra.server.features.quickplay import TYPES, QuickPlay, Seeker
from basra.server.identity import Identities
from basra.server.table.forms import check_name
from basra.server.transport.deps import provide
from basra.server.transport.socket import SocketPump

__all__ = ["QuickPlaySocket", "router"]

router = APIRouter()

QuickPlayDep = Annotated[QuickPlay, Depends(provide(QuickPlay))]


class QuickPlaySocket:
    """``WS /ws/play``: a signed-in person seeking a table."""

    types = TYPES
    hello = "{type: hello, token}"

    def __init__(self, quickplay: QuickPlay, identities: Identities) -> None:
        self.quickplay = quickplay
        self.identities = identities
        self.seeker: Seeker | None = None

    async def admit(self, hello: dict[str, Any], address: str) -> Connection:
        """A person signed in (a token is needed here), and the name they seek under."""
        token = hello.get("token")
        caller = await self.identities.authenticate(token if isinstance(token, str) else None)
        if caller is None:
            raise ProtocolError("signed_out", "sign in first: POST /api/identity gives a token")
        name = hello.get("name")
        return Connection(caller, check_name(name) if name is not None else caller.name, address)

    async def attach(self, connection: Connection) -> None:
        """Ready to seek."""
        self.seeker = self.quickplay.seeker(connection)

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """A seek, a cancel or a ping."""
        if self.seeker is not None:
            await self.quickplay.handle(self.seeker, message)

    async def detach(self, connection: Connection) -> None:
        """The connection closed: its seek is away a while (or gone, if signed out)."""
        if self.seeker is not None:
            await self.quickplay.gone(self.seeker)


@router.get("/api/quickplay")
async def pools(quickplay: QuickPlayDep) -> dict[str, Any]:
    """How many wait in each pool, and how the pool pairs."""
    config = quickplay.config
    return {
        "pools": await quickplay.counts(),
        "pair_every": config.pair_every,
        "window": {
            "start": config.window_start,
            "growth": config.window_growth,
            "full_after": config.window_full_after,
        },
        "bot_after": list(config.bot_after_bounds),
        "clock": config.control.to_json(),
    }


@router.websocket("/ws/play")
async def play_now(
    websocket: WebSocket,
    quickplay: QuickPlayDep,
    identities: Annotated[Identities, Depends(provide(Identities))],
    pump: Annotated[SocketPump, Depends(provide(SocketPump))],
) -> None:
    """Join the quick-play pool."""
    await pump.serve(websocket, QuickPlaySocket(quickplay, identities))
