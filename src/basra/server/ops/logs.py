"""Structured logs: one JSON object a line, with the request's or the table's id.

:func:`configure` sends every logger (the app's and uvicorn's) to standard error, as
JSON (python-json-logger) or as text. Each line carries ``request_id`` (an HTTP request
or a WebSocket connection: the proxy's ``X-Request-ID`` when it sends a well-formed one,
else a new one, answered in the response's ``X-Request-ID``) and ``table_id`` (set by the
table socket for everything done on its behalf), so a line of the proxy's access log, of
this server and of another process can be matched::

    {"time": "2026-12-01T10:00:00", "level": "WARNING", "logger": "basra.server.table.master",
     "message": "...", "request_id": "4f1c0e9a2b7d4c11", "table_id": "AbC123xy", "pid": 4242}
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["REQUEST_ID", "TABLE_ID", "RequestIds", "configure"]

REQUEST_ID: ContextVar[str | None] = ContextVar("basra_request_id", default=None)
"""The id of the HTTP request or WebSocket connection being served."""
TABLE_ID: ContextVar[str | None] = ContextVar("basra_table_id", default=None)
"""The table being served (its socket, its automatic actions)."""
GOOD_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class _Context(logging.Filter):
    """Puts the ids of the current request and table on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.table_id = TABLE_ID.get()
        return True


def configure(form: str = "json", level: str = "info") -> None:
    """Log to standard error as JSON lines (``form="json"``) or text, from ``level`` up."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_Context())
    if form == "json":
        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s %(process)d",
                rename_fields={
                    "asctime": "time",
                    "levelname": "level",
                    "name": "logger",
                    "process": "pid",
                },
            )
        )
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")
        )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True


class RequestIds:
    """ASGI middleware: each request and socket gets its id (and answers it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = _header(scope, b"x-request-id")
        request_id = given if given and GOOD_ID.fullmatch(given) else secrets.token_hex(8)
        token = REQUEST_ID.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            REQUEST_ID.reset(token)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None
