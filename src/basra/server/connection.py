"""Connections as every part of the server sees them: who speaks, and an outbox of messages.

A message is a dict, or a :class:`Frame`: a message built once as a value and
sent to many (a table's snapshot for one seat, say), whose JSON text is made
once, the first time a transport writes it. Parts of the server only queue
values; the transport (:mod:`basra.server.transport.socket`) writes each
outbox in order, serialising at that edge, so a slow client never holds
anything up (past :data:`OUTBOX_LIMIT` queued messages it is dropped).

The process's open connections are kept in a :class:`Connections` registry,
so that signing a device out or revoking an identity closes every socket it
holds, whatever it is connected to (:mod:`basra.server.revocation`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import Any

from basra.server.identity import Caller

__all__ = ["OUTBOX_LIMIT", "Connection", "Connections", "Frame", "Outgoing", "encode"]

OUTBOX_LIMIT = 500
"""Messages queued for one client before it is dropped as too slow."""


class Frame:
    """A message built once and sent to many: its body as a value, its JSON text made once.

    >>> frame = Frame({"type": "pong"})
    >>> frame.text() is frame.text()
    True
    """

    __slots__ = ("_text", "body")

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body
        self._text: str | None = None

    @property
    def type(self) -> str:
        """The message's ``type``."""
        return str(self.body["type"])

    def text(self) -> str:
        """The JSON text (made the first time it is asked for)."""
        if self._text is None:
            self._text = json.dumps(self.body)
        return self._text


Outgoing = Frame | dict[str, Any]
"""What a connection's outbox holds."""


def encode(message: Outgoing) -> str:
    """A message's JSON text, at the transport's edge."""
    return message.text() if isinstance(message, Frame) else json.dumps(message)


class Connection:
    """One client connection: who speaks through it, where from, and its outbox.

    Work done for this connection alone (a hint) runs in :attr:`tasks` and is
    cancelled when it closes.
    """

    def __init__(
        self, caller: Caller | None, name: str | None = None, address: str = "unknown"
    ) -> None:
        self.caller = caller
        self.name = name or (caller.name if caller else None)
        self.address = address
        self.outbox: asyncio.Queue[Outgoing | None] = asyncio.Queue()
        self.closed = False
        self.sent = 0
        self.tasks: set[asyncio.Task[Any]] = set()
        self.close_code = 4008
        """How the transport closes it: 4008 (too slow, or closed by the server), 1008
        (flooding), 4009 (another connection took over), 4001 (signed out)."""
        self.revoked = False
        """Closed because its device was signed out or its identity revoked."""

    @property
    def identity(self) -> str | None:
        """The identity speaking through this connection (None: watching only)."""
        return self.caller.identity if self.caller else None

    @property
    def device(self) -> str | None:
        """The device it speaks from (None: watching only)."""
        return self.caller.device if self.caller else None

    def send(self, message: Outgoing) -> None:
        """Queue a message (a dict or a :class:`Frame`)."""
        if self.closed:
            return
        if self.outbox.qsize() > OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(message)
        self.sent += 1

    def close(self) -> None:
        """Ask the transport to close the connection."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
        for task in list(self.tasks):
            task.cancel()

    def close_with(self, code: int) -> None:
        """Close the connection with ``code``."""
        self.close_code = code
        self.close()


class Connections:
    """The open connections of this process, by the device and identity they speak for."""

    def __init__(self) -> None:
        self._open: set[Connection] = set()
        self._people: dict[str, int] = {}
        self._of: dict[str, set[Connection]] = {}
        self._watchers: list[Callable[[str, bool], None]] = []

    def __len__(self) -> int:
        return len(self._open)

    def watch(self, listener: Callable[[str, bool], None]) -> None:
        """Tell ``listener`` when an identity's first connection here opens (True) and its
        last one closes (False): presence (:mod:`basra.server.features.friends.presence`)."""
        self._watchers.append(listener)

    def add(self, connection: Connection) -> None:
        """A connection said hello."""
        if connection in self._open:
            return
        self._open.add(connection)
        identity = connection.identity
        if identity is not None:
            self._of.setdefault(identity, set()).add(connection)
            count = self._people[identity] = self._people.get(identity, 0) + 1
            if count == 1:
                for listener in self._watchers:
                    listener(identity, True)

    def discard(self, connection: Connection) -> None:
        """A connection closed."""
        if connection not in self._open:
            return
        self._open.discard(connection)
        identity = connection.identity
        if identity is not None:
            held = self._of.get(identity)
            if held is not None:
                held.discard(connection)
                if not held:
                    del self._of[identity]
            count = self._people.get(identity, 1) - 1
            if count > 0:
                self._people[identity] = count
                return
            self._people.pop(identity, None)
            for listener in self._watchers:
                listener(identity, False)

    def of(self, identity: str) -> list[Connection]:
        """The open connections here of one identity (every page and table it has open):
        where a message for that person goes (:mod:`basra.server.features.notifications`)."""
        return list(self._of.get(identity, ()))

    def revoke(
        self,
        devices: Iterable[str],
        identities: Iterable[str],
        farewell: dict[str, Any],
        code: int = 4001,
    ) -> int:
        """Close every connection of those devices or identities, after ``farewell``, with
        ``code``; returns how many closed."""
        devices, identities = set(devices), set(identities)
        closed = 0
        for connection in list(self._open):
            if connection.device in devices or connection.identity in identities:
                connection.revoked = True
                connection.send(farewell)
                connection.close_with(code)
                closed += 1
        return closed
