"""JSON from clients, checked before it is parsed whole: size, depth, shape.

Every socket message is a JSON text frame holding an object with a ``type``,
at most :data:`MAX_MESSAGE` characters and :data:`MAX_DEPTH` levels deep
(:func:`parse_envelope`); request bodies are JSON at most :data:`MAX_DEPTH`
levels deep too (:func:`check_json`). What each type's fields must be is the
business of whoever carries it out.
"""

from __future__ import annotations

import json
from typing import Any

from basra.server.errors import ProtocolError

__all__ = ["MAX_DEPTH", "MAX_MESSAGE", "check_json", "json_depth", "parse_envelope"]

MAX_MESSAGE = 4096
"""Longest client message accepted, in characters."""
MAX_DEPTH = 8
"""Deepest nesting of arrays and objects accepted in any JSON a client sends."""


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (without recursion).

    >>> json_depth({"a": [1, {"b": "[[["}]})
    3
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def check_json(text: str | bytes, limit: int, what: str = "a message") -> Any:
    """Parse client JSON of at most ``limit`` characters and :data:`MAX_DEPTH` levels.

    The length is checked first, so parsing is bounded; bytes must be UTF-8
    (RFC 8259); nesting too deep for the parser itself is refused like nesting
    deeper than the limit.

    >>> check_json(b'{"a": [1]}', 100)
    {'a': [1]}
    >>> check_json(bytes([34, 255, 34]), 100)
    Traceback (most recent call last):
    ...
    basra.server.errors.ProtocolError: bad_message: a message must be JSON text in UTF-8
    """
    if len(text) > limit:
        raise ProtocolError("too_large", f"{what} must be at most {limit} characters")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_message", f"{what} must be JSON text in UTF-8") from None
    too_deep = ProtocolError("too_deep", f"{what} must nest at most {MAX_DEPTH} levels deep")
    try:
        data = json.loads(text)
    except RecursionError:
        raise too_deep from None
    except ValueError:
        raise ProtocolError("bad_message", f"{what} must be JSON") from None
    if json_depth(data) > MAX_DEPTH:
        raise too_deep
    return data


def parse_envelope(frame: str | bytes, types: tuple[str, ...]) -> dict[str, Any]:
    """A socket message: a JSON text frame holding an object whose ``type`` is one of
    ``types``; raises :class:`ProtocolError` saying what is wrong.

    >>> parse_envelope('{"type": "ping"}', ("ping",))
    {'type': 'ping'}
    >>> parse_envelope('[1]', ("ping",))
    Traceback (most recent call last):
    ...
    basra.server.errors.ProtocolError: bad_message: a message must be a JSON object
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
