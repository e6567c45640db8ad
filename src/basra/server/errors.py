"""The one kind of refusal: a stable code, a message in words, and extra fields.

Every part of the server refuses by raising :class:`ProtocolError`; the
transport turns it into an HTTP answer (:mod:`basra.server.transport.errors`:
``{"error": code, "message": ..., ...}`` with its status) or a socket's
``error`` message (:func:`error_message`). Codes are stable (the page
translates them); the English message is for people reading logs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ProtocolError", "error_message"]


@dataclass
class ProtocolError(Exception):
    """A refused message: a stable ``code``, a message, and extra fields for the client."""

    code: str
    message: str
    extra: dict[str, Any] | None = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def error_message(error: ProtocolError) -> dict[str, Any]:
    """The socket's ``error`` message for a refused action.

    >>> error_message(ProtocolError("stale", "another action came first", {"version": 3}))
    {'type': 'error', 'code': 'stale', 'message': 'another action came first', 'version': 3}
    """
    out: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
    if error.extra:
        out.update(error.extra)
    return out
