"""The HTTP guard: a rate per client address on the API, and every request body, on
every route, read by the one bounded parser before any route sees it.

Every HTTP request's body (``/api/``, ``/admin/``, any address and method) is
read here, at most a limit of bytes, then, when it is not empty, parsed by
:func:`~basra.server.transport.messages.check_json` (UTF-8 JSON at most
:data:`~basra.server.transport.messages.MAX_DEPTH` levels deep): a body that
does not parse is refused here (400 ``bad_message`` or ``too_deep``, 413
``too_large``), whatever the route, so no route can meet one. What parsed is
left in the request's scope (:data:`PARSED`), where the routes' one reader
(:func:`basra.server.transport.deps.json_body`, and ``form`` through it) takes
it; the body is handed on as it came. So a route added later cannot parse a
body any other way: there is no unchecked body left to parse.

A body is refused (413 ``too_large``) as soon as it passes the limit, declared
or streamed, and is never kept whole: the answer goes out at once (a client that
reads while it writes stops there), with ``Connection: close``. It is also
readable by a client that writes its whole body before it reads (most do, and
Python's ``urllib`` asks the server to close after the answer): the connection is
closed only once what is left of the body was read and thrown away, up to
:data:`DRAIN_LIMIT` bytes or :data:`DRAIN_SECONDS` (closing with the body unread
would leave such a client a reset instead of the 413). A client that asked to
be told before it sends its body (``Expect: 100-continue``) gets the 413 alone.
Each refusal is logged as one throttled line (:mod:`basra.server.transport.logs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.quotas import Quotas, RateLimitError, address_key
from basra.server.transport.errors import refusal
from basra.server.transport.logs import throttled
from basra.server.transport.messages import check_json

__all__ = ["DRAIN_LIMIT", "DRAIN_SECONDS", "PARSED", "BodyGuard", "parse_body"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

DRAIN_LIMIT = 16 << 20
"""Bytes of a refused body read and thrown away so that its client sees the 413."""
DRAIN_SECONDS = 10.0
"""Seconds spent at most reading a refused body."""
PARSED = "basra.json_body"
"""The key of the request's scope holding its body as :func:`parse_body` read it."""


def parse_body(body: bytes, limit: int) -> Any:
    """A request body as routes get it: its JSON (``{}`` when it is empty), or
    :class:`ProtocolError` saying why it is refused."""
    return check_json(body, limit, "the request body") if body else {}


class BodyGuard:
    """ASGI middleware: a rate per client address for ``/api/``, and for every request
    its body refused while it streams in, once past ``limit`` bytes (never read whole
    first), then parsed once, or refused, before any route."""

    def __init__(self, app: Callable[..., Awaitable[None]], quotas: Quotas, limit: int) -> None:
        self.app = app
        self.quotas = quotas
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then hand it on with its body parsed and replayed."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = address_key(client[0] if client else None)
        if scope["path"].startswith("/api/"):
            try:
                limits = self.quotas.limits
                self.quotas.take("http", address, limits.http_per_address, "requests per address")
            except RateLimitError as error:
                await refusal(error)(scope, receive, send)
                return
        declared = None
        expects_continue = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                declared = int(value) if value.isdigit() else -1
            elif name == b"expect":
                expects_continue = value.lower() == b"100-continue"
        if declared is not None and (declared < 0 or declared > self.limit):
            drain = not expects_continue and declared <= DRAIN_LIMIT
            await self._refuse(scope, receive, send, address, declared, drain)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                more = bool(message.get("more_body", False))
                await self._refuse(scope, receive, send, address, size, more)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            scope[PARSED] = parse_body(body, self.limit)
        except ProtocolError as error:
            throttled(
                error.code,
                f"refused a request body ({error.code}) of {len(body)} bytes from {address} "
                f"to {scope.get('path', '')[:80]}",
            )
            await refusal(error)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        address: str,
        size: int,
        drain: bool,
    ) -> None:
        """Answer 413 at once; close only once the rest of the body is read (``drain``)."""
        throttled(
            "too_large",
            f"refused a request body of {size if size >= 0 else 'unknown'} bytes "
            f"(over {self.limit}) from {address} to {scope.get('path', '')[:80]}",
        )
        error = ProtocolError("too_large", f"request bodies must be at most {self.limit} bytes")
        answer = refusal(error, {"Connection": "close"})
        await send({"type": "http.response.start", "status": 413, "headers": answer.raw_headers})
        await send({"type": "http.response.body", "body": answer.body, "more_body": drain})
        if drain:
            await _drain(receive, DRAIN_LIMIT, time.monotonic() + DRAIN_SECONDS)
            with contextlib.suppress(Exception):  # the client may have gone meanwhile
                await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _drain(receive: Receive, limit: int, until: float) -> None:
    """Read the rest of a request body and throw it away, up to ``limit`` bytes or ``until``."""
    read = 0
    while read <= limit:
        left = until - time.monotonic()
        if left <= 0:
            return
        try:
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            return
        if message["type"] != "http.request":
            return
        read += len(message.get("body", b""))
        if not message.get("more_body", False):
            return
