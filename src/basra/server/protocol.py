"""The WebSocket protocol: what clients may send, and the messages built for them.

Every message is a JSON text frame holding an object with a ``type``, at most
:data:`MAX_MESSAGE` characters and :data:`MAX_DEPTH` levels deep. A client
first says who it is (the token of a device signed in as an identity, see
:mod:`basra.server.identity`), then acts; the server answers with snapshots
built from that seat's :class:`~basra.view.View` (the table's
:class:`~basra.view.PublicView` for people watching), never from the game
state itself.

Client to server::

    {"type": "hello", "token": "<the device token>", "name": "Amal"}   # no token: watch only
    {"type": "join", "seat": 1}               # sit in an open seat
    {"type": "move", "move": "7Sx2C,AH", "version": 12}
    {"type": "hint", "version": 12}           # when the table allows hints
    {"type": "rematch"}                       # after the game: same table again
    {"type": "rename", "name": "Amal"}
    {"type": "react", "code": "well_played"}   # a quick phrase or emoji (reactions.py)
    {"type": "ping"}

Server to client::

    {"type": "table", "table": {...}}         # seats, names, presence, status
    {"type": "state", "version": 13, "view": {...}, "event": {...} | null}
    {"type": "hint", "version": 12, "move": "7Sx2C,AH", "card": "7S", "take": ["2C", "AH"],
     "reason": "...", "facts": {...}}     # facts: basra.coach.hints.Hint.facts_json
    {"type": "error", "code": "not_your_turn", "message": "...", ...}
    {"type": "error", "code": "rate_limited", "limit": "hints", "retry_after": 3, ...}
    {"type": "rematch", "table": "<id>"}
    {"type": "clock", "version": 13, "control": {"move": 30, "reserve": 60}, "turn": 0,
     "move_left": 27.5, "reserves": [60.0, null], "timeouts": [0, 0], "missed": [0, 0],
     "in_a_row": [0, 0], "forfeited": []}    # after each snapshot, at clocked tables
    {"type": "reaction", "seat": 1, "code": "well_played"}   # a seat's reaction
    {"type": "pong"}

Error codes are stable (the page translates them); the English message is for
people reading logs. ``rate_limited`` names the ``limit`` that was reached and
says in ``retry_after`` how many seconds to wait. ``version`` counts the
table's events (deals and plays): a move or hint for another version is
refused as ``stale``. A play the server made for a person carries ``auto`` in its
event (``timeout``, ``stand_in`` or ``forfeited``, see :mod:`basra.server.clocks`);
a move from a seat that forfeited is refused as ``forfeited``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from basra.rules import preset
from basra.state import GameState
from basra.view import public_view_of, view_of

__all__ = [
    "CLIENT_TYPES",
    "MAX_DEPTH",
    "MAX_MESSAGE",
    "MAX_NAME",
    "ProtocolError",
    "check_name",
    "error_message",
    "event_json",
    "json_depth",
    "parse_client_message",
    "seat_names",
    "state_frame",
    "table_json",
]

MAX_MESSAGE = 4096
"""Longest client message accepted, in characters."""
MAX_DEPTH = 8
"""Deepest nesting of arrays and objects accepted in any JSON a client sends."""
MAX_NAME = 24
"""Longest name, in characters."""
MAX_TOKEN = 128
"""Longest device token accepted."""

CLIENT_TYPES = ("hello", "join", "move", "hint", "rematch", "rename", "react", "ping")


@dataclass
class ProtocolError(Exception):
    """A refused message: a stable ``code``, a message, and extra fields for the client."""

    code: str
    message: str
    extra: dict[str, Any] | None = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def error_message(error: ProtocolError) -> dict[str, Any]:
    """The ``error`` message for a refused action."""
    out: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
    if error.extra:
        out.update(error.extra)
    return out


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise ProtocolError("bad_message", f"'{key}' must be a whole number, not {value!r}")
    return value


def _text(data: dict[str, Any], key: str, limit: int) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f"'{key}' must be text, not {value!r}")
    if len(value) > limit:
        raise ProtocolError("bad_message", f"'{key}' is longer than {limit} characters")
    return value


def check_name(value: Any) -> str:
    """A person's name: 1 to 24 printable characters, spaces trimmed."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "a name must be text")
    name = " ".join(value.split())
    if not name:
        raise ProtocolError("bad_name", "a name must not be empty")
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_name", f"a name must be at most {MAX_NAME} characters")
    if any(not ch.isprintable() for ch in name):
        raise ProtocolError("bad_name", "a name must not hold control characters")
    return name


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

    The length is checked first, so parsing is bounded; nesting too deep for
    the parser itself is refused like nesting deeper than the limit.
    """
    if len(text) > limit:
        raise ProtocolError("too_large", f"{what} must be at most {limit} characters")
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


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Check a client message's shape; raises :class:`ProtocolError` saying what is wrong.

    >>> parse_client_message('{"type": "move", "move": "7S", "version": 3}')["move"]
    '7S'
    >>> parse_client_message('{"type": "move"}')
    Traceback (most recent call last):
    ...
    basra.server.protocol.ProtocolError: bad_message: 'move' must be text, not None
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "messages must be JSON text frames, not binary frames")
    data = check_json(text, MAX_MESSAGE)
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind!r}; the types are: {', '.join(CLIENT_TYPES)}",
        )
    out: dict[str, Any] = {"type": kind}
    if kind == "hello":
        if data.get("token") is not None:
            out["token"] = _text(data, "token", MAX_TOKEN)
        if data.get("name") is not None:
            out["name"] = check_name(data["name"])
    elif kind == "join":
        out["seat"] = _int(data, "seat")
        if data.get("name") is not None:
            out["name"] = check_name(data["name"])
    elif kind == "move":
        out["move"] = _text(data, "move", 64)
        out["version"] = _int(data, "version")
    elif kind == "hint":
        out["version"] = _int(data, "version")
    elif kind == "rename":
        out["name"] = check_name(data.get("name"))
    elif kind == "react":
        out["code"] = _text(data, "code", 32)
    return out


def state_frame(
    state: GameState, version: int, seat: int | None, event: dict[str, Any] | None
) -> str:
    """The ``state`` message for a seat (its :func:`~basra.view.view_of`) or a spectator.

    A spectator's snapshot is the table's :func:`~basra.view.public_view_of`:
    it has no hand, no legal moves and no seat at all, by construction. Both
    are the brief form of :meth:`~basra.view.PublicView.to_json`, plus the
    outcome once the game is over.
    """
    view = view_of(state, seat) if seat is not None else public_view_of(state)
    data = view.to_json(brief=True)
    outcome = state.outcome()
    data["sides"] = [list(side) for side in state.sides]
    data["winner"] = outcome.winner if outcome is not None else None
    data["over"] = outcome is not None
    return json.dumps({"type": "state", "version": version, "view": data, "event": event})


def table_json(row: Any) -> dict[str, Any]:
    """The public description of a table row (a :class:`~basra.server.store.TableRow`).

    Names, kinds and levels of the seats, never who sits there: identities
    stay on the server.
    """
    rules = preset(row.variant).with_overrides(row.rules)
    return {
        "id": row.id,
        "variant": row.variant,
        "rules": rules.to_dict(),
        "overrides": row.rules,
        "players": row.players,
        "teams": row.teams,
        "hints": row.hints,
        "status": row.status,
        "scores": row.scores,
        "winner": row.winner,
        "rematch": row.rematch_id,
        "rematch_of": row.rematch_of,
        "fault": row.fault is not None,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "open": s.kind == "person" and s.identity is None,
            }
            for s in row.seats
        ],
    }


def event_json(
    kind: str, round_index: int, seat: int | None = None, move: str = "", basra: int = 0
) -> dict[str, Any]:
    """The public description of the last event, for animating it."""
    if kind == "play":
        return {"kind": "play", "round": round_index, "seat": seat, "move": move, "basra": basra}
    return {"kind": kind, "round": round_index}


def seat_names(seats: Sequence[Any]) -> list[str]:
    """The names people saw at a table, for its record: a person's name, a bot as
    ``Bot 2 (expert)`` (seats counted from 1, as the page counts them).

    ``seats`` are :class:`~basra.server.store.SeatRow` objects (``seat``, ``kind``,
    ``level``, ``name``); a seat nobody ever took is ``Seat 3``.

    >>> from basra.server.store import SeatRow
    >>> seat_names([SeatRow(0, "person", name="Amal"), SeatRow(1, "bot", "expert")])
    ['Amal', 'Bot 2 (expert)']
    """
    out = []
    for index, seat in enumerate(seats):
        if seat.kind == "bot":
            level = f" ({seat.level})" if seat.level else ""
            out.append(f"Bot {index + 1}{level}")
        else:
            out.append(seat.name or f"Seat {index + 1}")
    return out
