"""Tables: create, list, describe, and ``WS /ws/{id}`` to play and watch (*auth*: a device
token).

- ``POST /api/tables`` (auth): create a table
  (:class:`~basra.server.table.forms.TableForm`; seats of bot programs through
  :mod:`basra.server.features.botapi`);
- ``GET /api/tables``: tables to join or watch; ``GET /api/tables/{id}``: one;
- ``WS /ws/{id}``: play and watch (:mod:`basra.server.table.connections` has the
  messages), through the socket pump (:mod:`basra.server.transport.socket`).
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket
from fastapi.responses import JSONResponse
from prometheus_client import Histogram

from basra.server.connection import Connection
from basra.server.errors import ProtocolError
from basra.server.features.botapi import BotApi
from basra.server.features.clubs import Clubs
from basra.server.features.talk import Talk
from basra.server.identity import Identities
from basra.server.ops.logs import TABLE_ID
from basra.server.ops.metrics import Metrics
from basra.server.table.connections import CLIENT_TYPES, TableMessages, check_message
from basra.server.table.forms import TableForm, check_table_form
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.live import Client
from basra.server.table.master import TableMaster
from basra.server.table.queries import Queries
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, form, provide
from basra.server.transport.socket import SocketPump

__all__ = ["TableSocket", "router"]

router = APIRouter()


class TableSocket:
    """``WS /ws/{id}``: a client of one table (seated, or watching without a token)."""

    types = CLIENT_TYPES
    hello = "{type: hello, token, name}"

    def __init__(
        self,
        table_id: str,
        identities: Identities,
        master: TableMaster,
        messages: TableMessages,
        acks: Histogram | None = None,
    ) -> None:
        self.table_id = table_id
        self.identities = identities
        self.master = master
        self.messages = messages
        self.acks = acks
        """A person's moves, from frame read to acknowledgement queued (the metrics)."""
        self.client: Client | None = None

    async def admit(self, hello: dict[str, Any], address: str) -> Connection:
        """Who speaks (a device token, or nobody: watching only)."""
        checked = check_message(hello)
        caller = await self.identities.authenticate(checked.get("token"))
        self.client = Client(self.table_id, caller, checked.get("name"), address)
        return self.client

    def _client(self) -> Client:
        if self.client is None:
            raise ProtocolError("bad_message", "say hello first: {type: hello, token, name}")
        return self.client

    async def attach(self, connection: Connection) -> None:
        """Sit the client at its table: it gets the table and its first snapshot."""
        await self.master.connect(self._client())

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """A message at the table."""
        started = time.perf_counter()
        await self.messages.handle(self._client(), check_message(message))
        if self.acks is not None and message.get("type") == "move":
            self.acks.observe(time.perf_counter() - started)

    async def detach(self, connection: Connection) -> None:
        """The client left."""
        if self.client is not None:
            await self.master.disconnect(self.client)


@router.post("/api/tables")
async def create_table(
    me: SignedIn,
    body: Annotated[TableForm, Depends(form(TableForm))],
    lifecycle: Annotated[Lifecycle, Depends(provide(Lifecycle))],
    bots: Annotated[BotApi, Depends(provide(BotApi))],
    clubs: Annotated[Clubs, Depends(provide(Clubs))],
    where: Annotated[str, Depends(address)],
    talk: Annotated[Talk, Depends(provide(Talk))],
) -> JSONResponse:
    """Create a checked table within the caller's quotas."""
    name, spec = check_table_form(body)
    if body.club is not None:  # a club-only table: the creator must be a member
        await clubs.check_member(body.club, me.identity)
    seated = await bots.seat(me, spec) if spec.bots else None
    row = await lifecycle.create(me, where, name, spec, seated)
    if body.club is not None:
        await clubs.keep_table(row.id, body.club)
    if seated:
        await bots.seated(row.id, seated)
    if body.talk_spectators:
        await talk.open_to_spectators(row.id)
    return JSONResponse({"id": row.id, "url": f"/t/{row.id}"}, status_code=201)


@router.get("/api/tables")
async def lobby(queries: Annotated[Queries, Depends(provide(Queries))]) -> dict[str, Any]:
    """Tables waiting for people and in play."""
    return {"tables": await queries.lobby()}


@router.get("/api/tables/{table_id}")
async def table(
    table_id: str, master: Annotated[TableMaster, Depends(provide(TableMaster))]
) -> JSONResponse:
    """A table's public description."""
    info = await master.table_info(table_id)
    if info is None:
        raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
    return JSONResponse(info)


@router.websocket("/ws/{table_id}")
async def play(
    websocket: WebSocket,
    table_id: str,
    identities: Annotated[Identities, Depends(provide(Identities))],
    master: Annotated[TableMaster, Depends(provide(TableMaster))],
    messages: Annotated[TableMessages, Depends(provide(TableMessages))],
    pump: Annotated[SocketPump, Depends(provide(SocketPump))],
    metrics: Annotated[Metrics, Depends(provide(Metrics))],
) -> None:
    """Play and watch one table."""
    TABLE_ID.set(table_id[:40])  # every log line of this socket names its table
    socket = TableSocket(table_id, identities, master, messages, metrics.move_ack)
    await pump.serve(websocket, socket)
