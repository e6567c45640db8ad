"""Refusals at the transport's edge: one error body, one status per code, one close code.

Every refused HTTP request is ``{"error": code, "message": ..., ...}`` with the
status of :data:`STATUS_OF` (400 for any other code): 401 ``signed_out``, 404,
409 ``not_over``, 413 ``too_large``, 422 ``bad_request`` naming the ``field``
of the wrong JSON type, 429 ``rate_limited`` with ``Retry-After``; a request no
route took, 404 ``not_found`` (405 ``method_not_allowed``); a bad
username or password at sign-in is 401 ``bad_login`` either way. A socket's
refused hello is answered with the ``error`` message, then closed with the code
of :data:`CLOSE_CODES` (4000 for any other).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from basra.server.errors import ProtocolError
from basra.server.quotas import RateLimitError

__all__ = ["CLOSE_CODES", "HTTP_REFUSALS", "STATUS_OF", "error_body", "install", "refusal"]

STATUS_OF = {
    "rate_limited": 429,
    "signed_out": 401,
    "playban": 403,
    "rematch_playban": 403,
    "no_such_table": 404,
    "bad_code": 404,
    "no_such_device": 404,
    "no_such_player": 404,
    "bad_login": 401,
    "has_account": 409,
    "username_taken": 409,
    "bad_username": 422,
    "bad_password": 422,
    "not_over": 409,
    "too_large": 413,
    "bad_request": 422,
    "play_first": 403,
    "already_played": 409,
    "not_today": 409,
    "no_such_deal": 404,
    "bot_name_taken": 409,
    "bad_bot_name": 422,
    "no_such_bot": 404,
    "no_such_event": 404,
    "account_needed": 403,
    "not_organiser": 403,
    "already_entered": 409,
    "full": 409,
    "too_late": 409,
    "bad_team_code": 404,
    "name_not_allowed": 422,
    "refused_word": 422,
    "suspended": 403,
    "not_allowed": 403,
    "no_such_report": 404,
    "bad_report": 422,
    "bad_friend": 422,
    "blocked": 403,
    "bad_club": 422,
    "club_taken": 409,
    "no_such_club": 404,
    "not_club_leader": 403,
    "not_club_member": 403,
    "bad_notification": 422,
    "bad_challenge": 422,
    "no_such_challenge": 404,
    "challenge_over": 409,
    "no_such_puzzle": 404,
    "no_such_step": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "bad_push": 422,
    "push_off": 503,
    "no_such_season": 404,
    # table talk
    "bad_talk": 422,
    "no_such_line": 404,
}
"""HTTP status of each refusal code (400 for any other)."""

CLOSE_CODES = {
    "no_such_table": 4004,
    "no_such_event": 4004,
    "signed_out": 4001,
    "suspended": 4003,
    "rate_limited": 1013,
}
"""WebSocket close codes after a refused hello (4000 for any other)."""


def error_body(error: ProtocolError) -> dict[str, Any]:
    """The JSON body of a refused request."""
    return {"error": error.code, "message": error.message, **(error.extra or {})}


def refusal(error: ProtocolError, headers: dict[str, str] | None = None) -> JSONResponse:
    """The HTTP answer to a refused request."""
    extra = dict(headers or {})
    if isinstance(error, RateLimitError):
        extra["Retry-After"] = str(error.retry_after)
    return JSONResponse(error_body(error), STATUS_OF.get(error.code, 400), extra)


HTTP_REFUSALS = {
    404: ProtocolError("not_found", "there is no such address"),
    405: ProtocolError("method_not_allowed", "this address does not take that method"),
}
"""The refusal of a request no route took (a file missing under ``/static``, say)."""


def install(app: FastAPI, on_error: Callable[[str], None] | None = None) -> None:
    """Answer every :class:`ProtocolError` a route raises as its refusal (and tell
    ``on_error`` its code: the metrics), and a request no route took in the same body
    (never FastAPI's ``{"detail": ...}``)."""

    async def refused(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ProtocolError)
        if on_error is not None:
            on_error(error.code)
        return refusal(error)

    async def unrouted(request: Request, error: Exception) -> Response:
        assert isinstance(error, StarletteHTTPException)
        known = HTTP_REFUSALS.get(error.status_code)
        if known is None:
            return await http_exception_handler(request, error)
        return JSONResponse(error_body(known), error.status_code, error.headers)

    app.add_exception_handler(ProtocolError, refused)
    app.add_exception_handler(StarletteHTTPException, unrouted)
