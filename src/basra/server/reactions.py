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

import json
from typing import Any

from basra.server.live import Client
from basra.server.protocol import ProtocolError
from basra.server.service import MatchService

__all__ = ["CODES", "EMOJI", "PHRASES", "Reactions"]

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


class Reactions:
    """Carries ``react`` messages for a :class:`MatchService` (and hears other processes')."""

    def __init__(self, match: MatchService) -> None:
        self.match = match
        match.message_handlers["react"] = self.react
        match.notice_handlers["reaction"] = self.heard

    async def react(self, client: Client, message: dict[str, Any]) -> None:
        """Check and send a seated person's reaction to everyone at the table."""
        code = message["code"]
        if code not in CODES:
            raise ProtocolError(
                "bad_reaction",
                f"unknown reaction {code[:32]!r}; the reactions are: {', '.join(CODES)}",
                {"codes": list(CODES)},
            )
        live = self.match.live.get(client.table_id)
        if live is None or client not in live.clients:
            raise ProtocolError("no_such_table", "this table was closed: connect again")
        if client.seat is None or client.identity is None:
            raise ProtocolError("not_seated", "only the players at the table can react")
        limits = self.match.quotas.limits
        self.match.quotas.take(
            "reactions", client.identity, limits.reactions_per_identity, "reactions"
        )
        self._deliver(client.table_id, client.seat, code)
        await self.match.hub.publish(
            {"kind": "reaction", "table": client.table_id, "seat": client.seat, "code": code}
        )

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's reaction: send it to the table's clients here."""
        table, seat, code = notice.get("table"), notice.get("seat"), notice.get("code")
        if isinstance(table, str) and type(seat) is int and code in CODES:
            self._deliver(table, seat, str(code))

    def _deliver(self, table_id: str, seat: int, code: str) -> None:
        live = self.match.live.get(table_id)
        if live is None:
            return
        text = json.dumps({"type": "reaction", "seat": seat, "code": code})
        for client in list(live.clients):
            client.send(text)
