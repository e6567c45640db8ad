"""What a client says at a table, and what it is sent: the table's socket protocol.

Every message is a JSON text frame holding an object with a ``type`` (the
transport checks the frame: :mod:`basra.server.transport.socket`). A client
first says who it is (the token of a device signed in as an identity, see
:mod:`basra.server.identity`), then acts; the server answers with snapshots
built from that seat's :class:`~basra.view.View` (the table's
:class:`~basra.view.PublicView` for people watching), never from the game
state itself (:mod:`basra.server.table.frames`).

Client to server::

    {"type": "hello", "token": "<the device token>", "name": "Amal"}   # no token: watch only
    {"type": "join", "seat": 1}               # sit in an open seat
    {"type": "move", "move": "7Sx2C,AH", "version": 12}
    {"type": "hint", "version": 12}           # when the table allows hints
    {"type": "rematch"}                       # after the game: same table again
    {"type": "rename", "name": "Amal"}
    {"type": "react", "code": "well_played"}   # a quick phrase or emoji (features/reactions.py)
    {"type": "say", "text": "..."} | {"type": "say", "phrase": "good_game"}   # table talk
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
    {"type": "talk", "id": "...", "seat": 1, "name": "Badr", "text": "..." | "phrase": "..."}
    {"type": "pong"}

Error codes are stable (the page translates them); the English message is for
people reading logs. ``rate_limited`` names the ``limit`` that was reached and
says in ``retry_after`` how many seconds to wait. ``version`` counts the
table's events (deals and plays): a move or hint for another version is
refused as ``stale``. A play the server made for a person carries ``auto`` in
its event (``timeout``, ``stand_in`` or ``forfeited``, see
:mod:`basra.server.table.clocks`); a move from a seat that forfeited is
refused as ``forfeited``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from basra.server.errors import ProtocolError, error_message
from basra.server.store.protocols import IdentityStore, TableStore
from basra.server.table.forms import check_name
from basra.server.table.hints import Hints
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.live import Client
from basra.server.table.master import TableMaster

__all__ = ["CLIENT_TYPES", "MAX_TOKEN", "MessageHandler", "TableMessages", "check_message"]

CLIENT_TYPES = ("hello", "join", "move", "hint", "rematch", "rename", "react", "say", "ping")
"""The types of message a client may send at a table."""
MAX_TOKEN = 128
"""Longest device token accepted."""

MessageHandler = Callable[[Client, dict[str, Any]], Awaitable[None]]
"""Carries out a checked client message of a type a feature added (``react``)."""


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


def check_message(data: dict[str, Any]) -> dict[str, Any]:
    """The fields of a table message (its type already checked), or ``bad_message``.

    >>> check_message({"type": "move", "move": "7S", "version": 3})["move"]
    '7S'
    >>> check_message({"type": "move"})
    Traceback (most recent call last):
    ...
    basra.server.errors.ProtocolError: bad_message: 'move' must be text, not None
    """
    kind = data["type"]
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
    elif kind == "say":  # the text is checked by the words policy (features/talk)
        if data.get("phrase") is not None:
            out["phrase"] = _text(data, "phrase", 32)
        else:
            out["text"] = data.get("text")
    return out


class TableMessages:
    """Carries out what a table's clients say: through the master, the lifecycle and hints,
    or a handler a feature added (:meth:`on`)."""

    def __init__(
        self,
        master: TableMaster,
        lifecycle: Lifecycle,
        hints: Hints,
        tables: TableStore,
        identities: IdentityStore,
    ) -> None:
        self.master = master
        self.lifecycle = lifecycle
        self.hints = hints
        self.tables = tables
        self.identities = identities
        self._handlers: dict[str, MessageHandler] = {}

    def on(self, kind: str, handler: MessageHandler) -> None:
        """Carry out messages of ``kind`` (one of :data:`CLIENT_TYPES`) with ``handler``."""
        if kind not in CLIENT_TYPES or kind in self._handlers:
            raise ValueError(f"table messages of type {kind!r} cannot be handled here")
        self._handlers[kind] = handler

    async def handle(self, client: Client, message: dict[str, Any]) -> None:
        """Carry out one checked message; a refusal goes back as an ``error`` message."""
        try:
            await self._carry_out(client, message)
        except ProtocolError as error:
            client.send(error_message(error))

    async def _carry_out(self, client: Client, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            client.send({"type": "pong"})
        elif kind == "move":
            live = self.master.live_of(client)
            await self.master.play_text(live, client.seat, message["move"], message["version"])
        elif kind == "join":
            await self.lifecycle.join(client, message["seat"], message.get("name"))
        elif kind == "hint":
            await self.hints.ask(client, message["version"])
        elif kind == "rematch":
            await self.lifecycle.rematch(client)
        elif kind == "rename":
            await self._rename(client, message["name"])
        elif kind == "hello":
            raise ProtocolError("bad_message", "hello was already said on this connection")
        elif kind in self._handlers:
            await self._handlers[kind](client, message)

    async def _rename(self, client: Client, name: str) -> None:
        live = self.master.live_of(client)
        client.name = name
        if client.seat is None or client.caller is None:
            return
        identity = client.caller.identity
        async with live.lock:
            await self.tables.rename_seat(live.id, client.seat, identity, name)
            live.row.seats[client.seat] = replace(live.row.seats[client.seat], name=name)
            self.master.send_table(live)
        await self.identities.name(identity, name)
        await self.master.peers.changed(live)
