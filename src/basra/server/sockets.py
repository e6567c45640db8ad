"""WebSocket plumbing shared by the quick-play and bot API endpoints.

Both speak JSON text frames like the table endpoint (:mod:`basra.server.app`):
a ``hello`` first, within :data:`HELLO_TIMEOUT` seconds, then messages checked
by :func:`parse_object` (text, at most :data:`~basra.server.protocol.MAX_MESSAGE`
characters and :data:`~basra.server.protocol.MAX_DEPTH` levels, an object with
a ``type``) at the connection's message rate
(:class:`~basra.server.quotas.Allowance`). What goes out is queued on a
:class:`~basra.server.live.Client`'s outbox and written by one task, so a slow
client never holds anything up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from basra.server.live import Client
from basra.server.protocol import MAX_MESSAGE, ProtocolError, check_json, error_message
from basra.server.quotas import Allowance, RateLimitError

__all__ = [
    "FLUSH_TIMEOUT",
    "HELLO_TIMEOUT",
    "Connection",
    "parse_object",
    "pump",
    "read_hello",
    "refuse",
]

HELLO_TIMEOUT = 15.0
"""Seconds a new connection has to say hello."""
FLUSH_TIMEOUT = 5.0
"""Seconds a flooding connection's refusals may take to go out before it is closed."""


class Connection(Client):
    """A connection that is not at one table (quick play, a bot program): its outbox,
    who it speaks for, and the code it is closed with once its outbox says so."""

    def __init__(self, where: str, caller: Any, name: str | None, address: str) -> None:
        super().__init__(where, caller, name, address)
        self.close_code = 4008
        """4008: too slow or closed by the server; 4009: another connection took over."""

    def close_with(self, code: int) -> None:
        """Close the connection with ``code``."""
        self.close_code = code
        self.close()


def parse_object(frame: str | bytes, types: tuple[str, ...]) -> dict[str, Any]:
    """A client message: a JSON text frame holding an object whose ``type`` is one of ``types``.

    >>> parse_object('{"type": "ping"}', ("ping",))
    {'type': 'ping'}
    """
    if not isinstance(frame, str):
        raise ProtocolError("bad_message", "messages must be JSON text frames, not binary frames")
    data = check_json(frame, MAX_MESSAGE)
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if kind not in types:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r}; the types are: {', '.join(types)}"
        )
    return data


def _frame(message: MutableMapping[str, Any]) -> str | bytes:
    text = message.get("text")
    return text if isinstance(text, str) else bytes(message.get("bytes") or b"")


async def read_hello(websocket: WebSocket, types: tuple[str, ...]) -> dict[str, Any]:
    """The first message, which must be a ``hello`` (raises TimeoutError or ProtocolError)."""
    message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data = parse_object(_frame(message), types)
    if data["type"] != "hello":
        raise ProtocolError("bad_message", "say hello first: {type: hello, token}")
    return data


async def refuse(websocket: WebSocket, error: ProtocolError, code: int) -> None:
    """Say why, then close the connection."""
    with contextlib.suppress(Exception):
        await websocket.send_json(error_message(error))
        await websocket.close(code=code)


async def pump(
    websocket: WebSocket,
    client: Connection,
    allowance: Allowance,
    types: tuple[str, ...],
    handle: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """Write the client's outbox and hand each allowed, well-formed message to ``handle``
    until the connection closes (refusals go back as ``error`` messages)."""

    async def writer() -> None:
        while True:
            text = await client.outbox.get()
            if text is None:
                await websocket.close(code=client.close_code)
                return
            await websocket.send_text(text)

    sending = asyncio.create_task(writer())
    try:
        while not sending.done():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            wait = allowance.take()
            if wait is not None:
                if allowance.deaf:  # it does not listen: stop hearing it, once told why
                    client.close_with(1008)  # after the refusals already queued
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(asyncio.shield(sending), FLUSH_TIMEOUT)
                    break
                client.send(
                    error_message(RateLimitError("messages", wait, "messages per connection"))
                )
                continue
            try:
                await handle(parse_object(_frame(message), types))
            except ProtocolError as error:
                client.send(error_message(error))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        client.close()
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending
