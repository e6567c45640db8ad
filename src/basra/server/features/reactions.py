"""Reactions at the table: quick phrases and emoji from a fixed list, never free text.

A seated person sends ``{"type": "react", "code": "well_played"}``; everyone
at the table (people and spectators, in every server process) gets
``{"type": "reaction", "seat": 1, "code": "well_played"}``. Codes travel, not
words: the page says them in English or Arabic (``static/reactions.js``), and
a person can mute them (remembered by their browser). A code not in
:data:`CODES` is ``bad_reaction``, a spectator's is ``not_seated``, and each
person may send :attr:`~basra.server.quotas.Limits.reactions_per_identity`
(5 in 10 seconds by default; more is ``rate_limited`` with ``retry_after``).
"""

from __future__ import annotations

from typing import Any, Protocol

from basra.server.connection import Frame, Outgoing
from basra.server.errors import ProtocolError
from basra.server.quotas import Quotas
from basra.server.runtime.pubsub import Bus
from basra.server.table.connections import TableMessages
from basra.server.table.live import Client

__all__ = ["CODES", "EMOJI", "PHRASES", "Reactions", "TableAudience"]

PHRASES = (
    "hello",
    "good_luck",
    "well_played",
    "nice_basra",
    "thanks",
    "sorry",
    "oops",
    "thinking",
    "hurry",
    "good_game",
    "rematch",
)
"""Quick phrases (the page has their English and Arabic words)."""
EMOJI = ("smile", "laugh", "clap", "wow", "sad", "fire", "heart", "cool")
"""Emoji reactions, by name (the page draws them)."""
CODES = PHRASES + EMOJI
"""Every reaction a person may send."""


class TableAudience(Protocol):
    """What reactions need of the tables (the table master is one)."""

    def live_of(self, client: Client) -> object:
        """The table the client is attached to; ``no_such_table`` when it was let go."""

    def deliver(self, table_id: str, message: Outgoing) -> None:
        """Send a message to every client of a table in this process."""


class Reactions:
    """Carries ``react`` messages at tables (and hears other processes')."""

    def __init__(
        self,
        master: TableAudience,
        messages: TableMessages,
        quotas: Quotas,
        bus: Bus,
    ) -> None:
        self.master = master
        self.quotas = quotas
        self.bus = bus
        messages.on("react", self.react)
        bus.on("reaction", self.heard)

    async def react(self, client: Client, message: dict[str, Any]) -> None:
        """Check and send a seated person's reaction to everyone at the table."""
        code = message["code"]
        if code not in CODES:
            raise ProtocolError(
                "bad_reaction",
                f"unknown reaction {code[:32]!r}; the reactions are: {', '.join(CODES)}",
                {"codes": list(CODES)},
            )
        self.master.live_of(client)  # ``no_such_table`` when it was let go
        if client.seat is None or client.identity is None:
            raise ProtocolError("not_seated", "only the players at the table can react")
        limits = self.quotas.limits
        self.quotas.take("reactions", client.identity, limits.reactions_per_identity, "reactions")
        self._deliver(client.table_id, client.seat, code)
        await self.bus.publish(
            {"kind": "reaction", "table": client.table_id, "seat": client.seat, "code": code}
        )

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's reaction: send it to the table's clients here."""
        table, seat, code = notice.get("table"), notice.get("seat"), notice.get("code")
        if isinstance(table, str) and type(seat) is int and code in CODES:
            self._deliver(table, seat, str(code))

    def _deliver(self, table_id: str, seat: int, code: str) -> None:
        self.master.deliver(table_id, Frame({"type": "reaction", "seat": seat, "code": code}))
