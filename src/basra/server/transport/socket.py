"""The one socket pump: every WebSocket route (tables, quick play, the bot API) goes through it.

:meth:`SocketPump.serve` does what all of them share, in this order:

1. **admission**: at most ``connections_per_address`` connections per client
   address (else ``rate_limited``, closed 1013);
2. **hello**: the first frame, within :data:`HELLO_TIMEOUT` seconds, must be a
   ``hello`` (:func:`~basra.server.transport.messages.parse_envelope`); the
   route authenticates it (:meth:`SocketRoute.admit`); a refusal is answered,
   then the connection is closed with its code
   (:data:`~basra.server.transport.errors.CLOSE_CODES`: 4001 ``signed_out``,
   4004 ``no_such_table``, 1013 ``rate_limited``, else 4000);
3. at most ``connections_per_identity`` connections per identity (1013), then the
   route attaches the connection (:meth:`SocketRoute.attach`) and it joins the
   process's :class:`~basra.server.connection.Connections` (so that signing its
   device out closes it);
4. **the pump**: one task writes the connection's outbox (each message's text
   made there, :func:`~basra.server.connection.encode`) and closes it with its
   close code; the reader checks each frame's rate (``messages_per_connection``:
   a refusal says when to try again; a connection that keeps on after twice its
   burst of refusals is closed, 1008), its shape, and hands it to the route
   (:meth:`SocketRoute.handle`), whose refusals go back as ``error`` messages;
5. on close, the route detaches it and every count is released.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, Protocol

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from basra.server.connection import Connection, Connections, encode
from basra.server.errors import ProtocolError, error_message
from basra.server.quotas import Allowance, Quotas, RateLimitError, address_key
from basra.server.transport.errors import CLOSE_CODES
from basra.server.transport.messages import parse_envelope

__all__ = ["FLUSH_TIMEOUT", "HELLO_TIMEOUT", "SocketPump", "SocketRoute", "refuse"]

HELLO_TIMEOUT = 15.0
"""Seconds a new connection has to say hello."""
FLUSH_TIMEOUT = 5.0
"""Seconds a flooding connection's refusals may take to go out before it is closed."""


class SocketRoute(Protocol):
    """What one WebSocket endpoint does with its connection, between hello and close."""

    @property
    def types(self) -> tuple[str, ...]:
        """Every message type a client may send (``hello`` among them)."""

    @property
    def hello(self) -> str:
        """What a hello looks like, for the refusal of another first message."""

    async def admit(self, hello: dict[str, Any], address: str) -> Connection:
        """Check the hello and who it speaks for; the connection to attach (or a refusal)."""

    async def attach(self, connection: Connection) -> None:
        """Start serving the connection (its first messages); a refusal closes it."""

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """Carry out one message of a well-formed type; a refusal raises ProtocolError."""

    async def detach(self, connection: Connection) -> None:
        """The connection closed (also after a refused :meth:`attach`)."""


async def refuse(websocket: WebSocket, error: ProtocolError, code: int) -> None:
    """Say why, then close the connection."""
    with contextlib.suppress(Exception):
        await websocket.send_json(error_message(error))
        await websocket.close(code=code)


def _frame(message: MutableMapping[str, Any]) -> str | bytes:
    """A received frame's text, or its bytes for a binary frame."""
    text = message.get("text")
    return text if isinstance(text, str) else bytes(message.get("bytes") or b"")


class SocketPump:
    """Serves every WebSocket route of the app: admission, hello, the pump, the counts."""

    def __init__(
        self,
        quotas: Quotas,
        connections: Connections,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.quotas = quotas
        self.connections = connections
        self.on_error = on_error or (lambda _: None)
        """Told the code of every refusal sent (the metrics' errors by kind)."""

    @contextlib.contextmanager
    def _held(self, key: str, cap: int, what: str) -> Iterator[None]:
        """Hold one of ``key``'s connections while the block runs (``rate_limited`` at cap)."""
        self.quotas.hold("connections", key, cap, what)
        try:
            yield
        finally:
            self.quotas.release("connections", key)

    async def serve(self, websocket: WebSocket, route: SocketRoute) -> None:
        """Serve one WebSocket connection on ``route``, from accept to close."""
        limits = self.quotas.limits
        address = address_key(websocket.client.host if websocket.client else None)
        await websocket.accept()
        connection: Connection | None = None
        with contextlib.ExitStack() as held:
            try:
                per_address = limits.connections_per_address
                held.enter_context(self._held(address, per_address, "connections per address"))
                connection = await self._hello(websocket, route, address)
                if connection.identity is not None:
                    per_person = limits.connections_per_identity
                    held.enter_context(
                        self._held(connection.identity, per_person, "connections per person")
                    )
                await route.attach(connection)
                self.connections.add(connection)
                await _pump(
                    websocket,
                    connection,
                    route,
                    Allowance(limits.messages_per_connection),
                    self.on_error,
                )
            except (TimeoutError, WebSocketDisconnect, RuntimeError):
                with contextlib.suppress(Exception):
                    await websocket.close(code=4000)
            except ProtocolError as error:
                self.on_error(error.code)
                await refuse(websocket, error, CLOSE_CODES.get(error.code, 4000))
            finally:
                if connection is not None:
                    self.connections.discard(connection)
                    connection.close()
                    await route.detach(connection)

    @staticmethod
    async def _hello(websocket: WebSocket, route: SocketRoute, address: str) -> Connection:
        """The first frame must be a ``hello`` the route admits."""
        message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        hello = parse_envelope(_frame(message), route.types)
        if hello["type"] != "hello":
            raise ProtocolError("bad_message", f"say hello first: {route.hello}")
        return await route.admit(hello, address)


async def _pump(
    websocket: WebSocket,
    connection: Connection,
    route: SocketRoute,
    allowance: Allowance,
    on_error: Callable[[str], None],
) -> None:
    """Write the outbox and hand each allowed, well-formed message to the route until the
    connection closes (refusals go back as ``error`` messages)."""

    async def writer() -> None:
        while True:
            message = await connection.outbox.get()
            if message is None:
                await websocket.close(code=connection.close_code)
                return
            await websocket.send_text(encode(message))

    sending = asyncio.create_task(writer())
    try:
        while not sending.done():
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            wait = allowance.take()
            if wait is not None:
                if allowance.deaf:  # it does not listen: stop hearing it, once told why
                    connection.close_with(1008)  # after the refusals already queued
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(asyncio.shield(sending), FLUSH_TIMEOUT)
                    break
                on_error("rate_limited")
                connection.send(
                    error_message(RateLimitError("messages", wait, "messages per connection"))
                )
                continue
            try:
                await route.handle(connection, parse_envelope(_frame(received), route.types))
            except ProtocolError as error:
                on_error(error.code)
                connection.send(error_message(error))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending
