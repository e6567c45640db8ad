"""Structured logs: one JSON object a line, with the request's or the table's id.

:func:`configure` sends every logger (the app's and uvicorn's) to standard error, as
JSON (python-json-logger) or as text. Each line carries ``request_id`` (an HTTP request
or a WebSocket connection: the proxy's ``X-Request-ID`` when it sends a well-formed one,
else a new one, answered in the response's ``X-Request-ID``) and ``table_id`` (set by the
table socket for everything done on its behalf), so a line of the proxy's access log, of
this server and of another process can be matched::

    {"time": "2026-12-01T10:00:00.123Z", "level": "WARNING", "logger": "basra.server.table.master",
     "message": "...", "request_id": "4f1c0e9a2b7d4c11", "table_id": "AbC123xy", "pid": 4242}

Times are UTC with their zone (``Z``), in both forms. Every line of a start is of the
chosen form (:func:`announce` writes ``basra serve``'s own line, whatever the level), and
uvicorn's ``color_message`` (its message again, with terminal colour codes) is dropped.
Each HTTP request is logged at ``info`` when it is answered (``basra.server.access``:
method, path without its query, status and milliseconds), except a successful health
check or metrics scrape, which the proxy and Prometheus make every few seconds.
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
import time
from contextvars import ContextVar
from datetime import UTC, datetime

from pythonjsonlogger.json import JsonFormatter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["REQUEST_ID", "TABLE_ID", "RequestIds", "announce", "configure", "utc_time"]

REQUEST_ID: ContextVar[str | None] = ContextVar("basra_request_id", default=None)
"""The id of the HTTP request or WebSocket connection being served."""
TABLE_ID: ContextVar[str | None] = ContextVar("basra_table_id", default=None)
"""The table being served (its socket, its automatic actions)."""
GOOD_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
QUIET = frozenset({"/healthz", "/readyz", "/metrics"})
"""Paths not logged when they succeed (the proxy's health checks, Prometheus's scrapes)."""
access = logging.getLogger("basra.server.access")
_form = ["text"]
"""The form :func:`configure` chose last."""


def utc_time(record: logging.LogRecord) -> str:
    """A record's time in UTC, ISO 8601 with its zone: ``2026-12-01T10:00:00.123Z``."""
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _UtcJson(JsonFormatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return utc_time(record)


class _UtcText(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return utc_time(record)


class _Context(logging.Filter):
    """Puts the ids of the current request and table on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.table_id = TABLE_ID.get()
        record.__dict__.pop("color_message", None)  # uvicorn's message with colour codes
        return True


def configure(form: str = "json", level: str = "info") -> None:
    """Log to standard error as JSON lines (``form="json"``) or text, from ``level`` up."""
    _form[0] = form
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_Context())
    if form == "json":
        handler.setFormatter(
            _UtcJson(
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
            _UtcText("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")
        )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    logging.captureWarnings(True)  # Python's warnings are lines of the same form
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True


def announce(text: str) -> None:
    """Write one line of ``basra serve``'s own (such as where it serves): a log record
    whatever the level when the logs are JSON, else the line itself on standard output."""
    if _form[0] != "json":
        print(text, flush=True)
        return
    logger = logging.getLogger("basra.serve")
    record = logger.makeRecord(logger.name, logging.INFO, __file__, 0, text, (), None)
    logger.handle(record)  # handle(), not info(): past the level, through the handlers


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

        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            if scope["type"] == "http":
                _log_request(scope, status, time.perf_counter() - started)
            REQUEST_ID.reset(token)


def _log_request(scope: Scope, status: int, seconds: float) -> None:
    path = str(scope.get("path", ""))
    if (status < 400 and path in QUIET) or not access.isEnabledFor(logging.INFO):
        return
    method = str(scope.get("method", ""))
    ms = round(seconds * 1000, 1)
    access.info(
        "%s %s %d %.1f ms",
        method,
        path,
        status,
        ms,
        extra={"method": method, "path": path, "status": status, "ms": ms},
    )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None
