"""The WebSocket protocol: what clients may send, and the messages built for them.

Every message is a JSON object with a ``type``. A client first says who it is,
then acts; the server answers with snapshots built from that seat's view (a
spectator's view for people watching), never from the game state itself.

Client to server::

    {"type": "hello", "secret": "<the browser's random secret>", "name": "Amal"}
    {"type": "join", "seat": 1}               # sit in an open seat
    {"type": "move", "move": "7Sx2C,AH", "version": 12}
    {"type": "hint", "version": 12}           # when the table allows hints
    {"type": "rematch"}                       # after the game: same table again
    {"type": "rename", "name": "Amal"}
    {"type": "ping"}

Server to client::

    {"type": "table", "table": {...}}         # seats, names, presence, status
    {"type": "state", "version": 13, "view": {...}, "event": {...} | null}
    {"type": "hint", "version": 12, "move": "7Sx2C,AH", "takes": 2, "points": 2, "reason": "..."}
    {"type": "error", "code": "not_your_turn", "message": "...", ...}
    {"type": "rematch", "table": "<id>"}
    {"type": "pong"}

Error codes are stable (the page translates them); the English message is for
people reading logs. ``version`` counts the table's events (deals and plays):
a move or hint for another version is refused as ``stale``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from basra.cards import CARD_NAMES, cards_of
from basra.state import PHASE_PLAY, GameState
from basra.view import View, view_of

__all__ = [
    "CLIENT_TYPES",
    "MAX_MESSAGE",
    "MAX_NAME",
    "ProtocolError",
    "check_name",
    "error_message",
    "parse_client_message",
    "seat_view_json",
    "spectator_view_json",
]

MAX_MESSAGE = 4096
"""Longest client message accepted, in characters."""
MAX_NAME = 24
"""Longest name, in characters."""

CLIENT_TYPES = ("hello", "join", "move", "hint", "rematch", "rename", "ping")


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


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Check a client message's shape; raises :class:`ProtocolError` saying what is wrong.

    >>> parse_client_message('{"type": "move", "move": "7S", "version": 3}')["move"]
    '7S'
    >>> parse_client_message('{"type": "move"}')
    Traceback (most recent call last):
    ...
    basra.server.protocol.ProtocolError: bad_message: 'move' must be text, not None
    """
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "messages must be JSON text, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"messages must be at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("bad_message", "a message must be a JSON object") from None
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
        secret = _text(data, "secret", 128)
        if len(secret) < 16:
            raise ProtocolError("bad_message", "'secret' must be at least 16 characters")
        out["secret"] = secret
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
    return out


RECENT_PLAYS = 12
"""How many of the round's latest plays a snapshot carries (for the play log)."""


def _texts(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def view_json(view: View, *, spectator: bool = False) -> dict[str, Any]:
    """A snapshot for the page, built from one seat's :class:`~basra.view.View` only.

    It is a subset of :meth:`View.to_json`: the rules travel once in the table
    message, piles travel as sizes, and only the latest plays of the round are
    listed (``plays_from`` is the index of the first one).
    """
    plays = view.plays[-RECENT_PLAYS:]
    return {
        "variant": view.variant,
        "players": view.players,
        "teams": view.teams,
        "seat": None if spectator else view.seat,
        "side": None if spectator else view.side,
        "phase": view.phase,
        "round": view.round_index,
        "dealer": view.dealer,
        "turn": view.turn if view.phase == PHASE_PLAY else None,
        "hand": [] if spectator else _texts(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "known": [_texts(m) for m in view.known],
        "floor": _texts(view.floor),
        "stock": view.stock_size,
        "plays_from": len(view.plays) - len(plays),
        "plays": [{"seat": p.seat, "move": p.move.text(), "basra": p.basra} for p in plays],
        "pile_sizes": [m.bit_count() for m in view.captured],
        "basras": list(view.basras),
        "basra_points": list(view.basra_points),
        "last_capture_side": view.last_capture_side,
        "scores": list(view.scores),
        "carry": view.carry,
        "past_rounds": [r.to_json() for r in view.past_rounds],
        "legal": [] if spectator else [m.text() for m in view.legal_moves()],
    }


def seat_view_json(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees: its :func:`basra.view.view_of`, plus the outcome."""
    out = view_json(view_of(state, seat))
    _add_outcome(out, state)
    return out


def spectator_view_json(state: GameState) -> dict[str, Any]:
    """What a spectator sees: no hand at all, only what every seat knows.

    Built from the seats' views: the public part of seat 0's view, and for each
    seat the cards every other seat knows it holds (re-buried cards dealt to
    it), taken from the next seat's view.
    """
    n = state.players
    views = [view_of(state, seat) for seat in range(n)]
    out = view_json(views[0], spectator=True)
    out["known"] = [_texts(views[(seat + 1) % n].known[seat]) for seat in range(n)]
    _add_outcome(out, state)
    return out


def _add_outcome(out: dict[str, Any], state: GameState) -> None:
    outcome = state.outcome()
    out["sides"] = [list(side) for side in state.sides]
    out["winner"] = outcome.winner if outcome is not None else None
    out["over"] = outcome is not None


def event_json(
    kind: str, round_index: int, seat: int | None = None, move: str = "", basra: int = 0
) -> dict[str, Any]:
    """The public description of the last event, for animating it."""
    if kind == "play":
        return {"kind": "play", "round": round_index, "seat": seat, "move": move, "basra": basra}
    return {"kind": kind, "round": round_index}


def names_of(names: Sequence[str | None]) -> list[str]:
    """Seat names for a record, with a stand-in for empty seats."""
    return [name or f"seat {i}" for i, name in enumerate(names)]
