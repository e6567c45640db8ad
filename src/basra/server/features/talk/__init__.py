"""Table talk: short lines among a table's seated players, over the table's socket.

**Saying.** A seated person sends ``{"type": "say", "text": "..."}`` or a quick phrase,
``{"type": "say", "phrase": "good_game"}`` (one of :data:`PHRASES`: a key, so that each
reader sees it in their own language, ``static/locales``). Every reader gets
``{"type": "talk", "id": ID, "seat": 1, "name": "Badr", "text": "..."}`` (or ``"phrase"``
in place of ``"text"``), the speaker too, in every server process (the bus carries the
line). A line is checked, in this order, and refused with a stable code:

- ``no_such_table`` (the table was let go), ``not_seated`` (a spectator never talks);
- ``talk_closed``: a rated game of a tournament whose settings do not say ``"talk":
  true`` (talk is open at every other table);
- ``silenced``: the operator silenced the person (``basra admin silence PERSON [--hours
  H] --reason ...``; ``until`` says when it ends, null for good);
- ``talk_off``: the person turned talk off themselves (``POST /api/talk/settings``);
- the one words policy (:func:`basra.server.words.check_text` with
  :data:`~basra.server.words.TALK`: 1 to 200 characters, cleaned, the word list applied
  with its look-alike folding, so an insult in Cyrillic letters is refused too):
  ``bad_talk`` or ``talk_not_allowed``, naming the field ``text``; an unknown phrase is
  ``bad_phrase``;
- ``rate_limited``: ``talk_per_identity`` (5 in 10 seconds) and, all of a client
  address's identities together, ``talk_per_address`` (15 in 10 seconds). A refusal
  goes to the speaker alone; the others are never held up (a line is delivered after
  its checks, without the table's lock).

**Reading.** A line goes to the table's clients, except:

- spectators, unless the table's maker let them read (the create-table form's
  ``talk_spectators``, off by default);
- a person who muted the speaker (``POST /api/talk/mute``, kept), or who turned talk off;
- the two sides of a block (:meth:`~basra.server.features.friends.store.FriendStore.blocked_pairs`):
  neither reads the other's lines.

Each process decides for its own clients, with two queries a line made at once (the mutes
and settings of the people at the table, and their blocks); the speaker's process tells
the others on the bus while it does.

**Nothing else.** A line is text a person wrote: it carries no card and nothing of the
game, and it is never written to the table's log, so no record, replay or review holds it.
Each process keeps the last :data:`KEPT` lines it delivered (for an hour at most) so that
a reader can report one (``POST /api/reports`` with ``{"table", "line", "reason"}``:
the report quotes the line, :mod:`basra.server.features.moderation`).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from basra.server import words
from basra.server.connection import Frame
from basra.server.errors import ProtocolError
from basra.server.features.talk.store import SilenceRow, TalkStore
from basra.server.quotas import Quotas, address_key
from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import IdentityStore, TableStore
from basra.server.store.rows import SeatKind, TableRow
from basra.server.table.connections import TableMessages
from basra.server.table.live import Client

__all__ = ["KEPT", "PHRASES", "Line", "Talk", "TalkAudience"]

PHRASES = (
    "hello",
    "good_luck",
    "have_fun",
    "your_turn",
    "well_played",
    "nice_basra",
    "oops",
    "sorry",
    "thanks",
    "one_moment",
    "good_game",
    "rematch",
)
"""The quick phrases, sent as keys (the page has their words in each language)."""
KEPT = 5000
"""Lines each process keeps for reports."""
KEPT_FOR = 3600.0
"""Seconds a line can be reported."""
TOURNAMENT = "tournament:"
"""The owner key's start of a tournament's table."""

Blocks = Callable[[Sequence[str]], Awaitable[set[frozenset[str]]]]
"""The pairs among some identities of which one blocks the other (the friends' store)."""
EventTalk = Callable[[str], Awaitable[bool]]
"""Whether the event a tournament table's owner key names allows talk at its rated games."""


class TalkAudience(Protocol):
    """What talk needs of the tables (the table master is one)."""

    def live_of(self, client: Client) -> Any:
        """The table the client is attached to; ``no_such_table`` when it was let go."""

    def clients_at(self, table_id: str) -> list[Client]:
        """The open clients of a table in this process."""


@dataclass(frozen=True)
class Line:
    """A line said at a table, as kept for a report."""

    table: str
    seat: int
    speaker: str
    name: str
    shown: str
    """The text, or the phrase's key in brackets (``[good_game]``)."""
    at: float


def mute_id(identity: str, muted: str) -> str:
    """The key of a mute in a person's list (no identity is shown to another).

    >>> len(mute_id("a", "b"))
    16
    """
    return hashlib.sha256(f"{identity}:{muted}".encode()).hexdigest()[:16]


class Talk:
    """Carries ``say`` messages at tables, hears other processes' lines, and keeps the
    mutes, settings and silences (see the module's docstring)."""

    def __init__(
        self,
        master: TalkAudience,
        messages: TableMessages,
        store: TalkStore,
        tables: TableStore,
        identities: IdentityStore,
        quotas: Quotas,
        bus: Bus,
        blocks: Blocks,
        event_talk: EventTalk | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.master = master
        self.store = store
        self.tables = tables
        self.identities = identities
        self.quotas = quotas
        self.bus = bus
        self.blocks = blocks
        self.event_talk = event_talk
        self.clock = clock
        self._lines: OrderedDict[str, Line] = OrderedDict()
        self._closed: dict[str, bool] = {}
        """Per table: whether its talk is closed (a rated tournament game), once asked."""
        self._spectators: dict[str, bool] = {}
        messages.on("say", self.say)
        bus.on("talk", self.heard)

    # ---------------------------------------------------------------- saying

    async def say(self, client: Client, message: dict[str, Any]) -> None:
        """Check a seated person's line and send it to its readers in every process."""
        live = self.master.live_of(client)  # ``no_such_table`` when it was let go
        identity, seat = client.identity, client.seat
        if seat is None or identity is None:
            raise ProtocolError("not_seated", "only the players at the table talk")
        row: TableRow = live.row
        if await self.closed_at(row):
            raise ProtocolError(
                "talk_closed", "talk is closed at this rated tournament game (its event says so)"
            )
        now = self.clock()
        silence, off = await self.store.speaker(identity, now)
        if silence is not None:
            raise ProtocolError(
                "silenced",
                f"the operator silenced your talk: {silence.reason}",
                {"until": silence.until},
            )
        if off:
            raise ProtocolError("talk_off", "you turned table talk off: turn it on to talk")
        line: dict[str, Any] = {"type": "talk", "id": secrets.token_hex(8), "seat": seat}
        line["name"] = row.seats[seat].name or ""
        if "phrase" in message:
            phrase = message["phrase"]
            if phrase not in PHRASES:
                raise ProtocolError(
                    "bad_phrase",
                    f"phrase: unknown quick phrase; the phrases are: {', '.join(PHRASES)}",
                    {"field": "phrase", "phrases": list(PHRASES)},
                )
            line["phrase"] = phrase
        else:
            line["text"] = words.check_text("text", message.get("text"), words.TALK)
        limits = self.quotas.limits
        self.quotas.take("talk", identity, limits.talk_per_identity, "lines of talk")
        where = address_key(client.address)
        self.quotas.take("talk", f"@{where}", limits.talk_per_address, "lines of talk per address")
        self._keep(row.id, line, identity, now)
        notice = {"kind": "talk", "table": row.id, "line": line, "speaker": identity}
        await asyncio.gather(self.bus.publish(notice), self._deliver(row.id, line, identity))

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's line: send it to its readers here."""
        table, line, speaker = notice.get("table"), notice.get("line"), notice.get("speaker")
        if not (isinstance(table, str) and isinstance(line, dict) and isinstance(speaker, str)):
            return
        if type(line.get("seat")) is not int or not isinstance(line.get("id"), str):
            return
        self._keep(table, line, speaker, self.clock())
        await self._deliver(table, line, speaker)

    async def closed_at(self, row: TableRow) -> bool:
        """Whether talk is closed at a table: a rated tournament game, unless its event
        allows talk."""
        closed = self._closed.get(row.id)
        if closed is None:
            closed = False
            owner = row.owner or ""
            if row.rated and owner.startswith(TOURNAMENT):
                closed = self.event_talk is None or not await self.event_talk(owner)
            if len(self._closed) > KEPT:
                self._closed.clear()
            self._closed[row.id] = closed
        return closed

    async def spectators_read(self, table_id: str) -> bool:
        """Whether a table's spectators read its talk (its maker's choice, kept)."""
        found = self._spectators.get(table_id)
        if found is None:
            found = await self.store.spectators_read(table_id)
            if len(self._spectators) > KEPT:
                self._spectators.clear()
            self._spectators[table_id] = found
        return found

    async def open_to_spectators(self, table_id: str) -> None:
        """Let a new table's spectators read its talk (the create-table form said so)."""
        await self.store.open_to_spectators(table_id)
        self._spectators[table_id] = True

    async def _deliver(self, table_id: str, line: dict[str, Any], speaker: str) -> None:
        clients = self.master.clients_at(table_id)
        if not clients:
            return
        if any(c.seat is None for c in clients) and not await self.spectators_read(table_id):
            clients = [c for c in clients if c.seat is not None]
        people = sorted({c.identity for c in clients if c.identity and c.identity != speaker})
        deaf: set[str] = set()
        if people:  # the two queries at once
            deaf, pairs = await asyncio.gather(
                self.store.deaf(speaker, people), self.blocks([speaker, *people])
            )
            deaf |= {who for who in people if frozenset((who, speaker)) in pairs}
        frame = Frame(line)
        for client in clients:
            if client.identity is None or client.identity not in deaf:
                client.send(frame)

    def _keep(self, table_id: str, line: dict[str, Any], speaker: str, now: float) -> None:
        shown = str(line.get("text") or f"[{line.get('phrase')}]")
        kept = Line(table_id, int(line["seat"]), speaker, str(line.get("name", "")), shown, now)
        self._lines[str(line["id"])] = kept
        while len(self._lines) > KEPT:
            self._lines.popitem(last=False)

    def line(self, table_id: str, line_id: str) -> Line | None:
        """A line said at a table in the last hour, for a report (None: not known here)."""
        found = self._lines.get(line_id)
        if found is None or found.table != table_id or self.clock() - found.at > KEPT_FOR:
            return None
        return found

    # ---------------------------------------------------------------- a person's choices

    async def _seated(self, body: Any) -> str:
        """The identity in the seat a body names (``{"table", "seat"}``)."""
        if not isinstance(body, dict):
            raise ProtocolError("bad_talk", "send a JSON object", {"field": "table"})
        table_id, seat = body.get("table"), body.get("seat")
        if not isinstance(table_id, str) or type(seat) is not int:
            raise ProtocolError(
                "bad_talk", "name the table and the seat (a number)", {"field": "seat"}
            )
        row = await self.tables.load(table_id[:40])
        if row is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
        if not 0 <= seat < len(row.seats) or row.seats[seat].kind != SeatKind.PERSON:
            raise ProtocolError("bad_talk", "that seat is not a person's", {"field": "seat"})
        who = row.seats[seat].identity
        if who is None:
            raise ProtocolError("bad_talk", "nobody sits in that seat yet", {"field": "seat"})
        return who

    async def mute(self, identity: str, body: Any) -> dict[str, Any]:
        """Stop hearing the person in a seat (kept until unmuted); the caller's settings."""
        muted = await self._seated(body)
        if muted == identity:
            raise ProtocolError("bad_talk", "you cannot mute yourself", {"field": "seat"})
        await self.store.mute(identity, muted, self.clock())
        return await self.settings(identity)

    async def unmute(self, identity: str, body: Any) -> dict[str, Any]:
        """Hear a person again, named by their seat or by their mute's ``id``."""
        if isinstance(body, dict) and isinstance(body.get("id"), str):
            muting = {mute_id(identity, m): m for m in await self.store.muting(identity)}
            muted = muting.get(body["id"])
            if muted is None:
                raise ProtocolError("bad_talk", "id: you do not mute that person", {"field": "id"})
        else:
            muted = await self._seated(body)
        await self.store.unmute(identity, muted)
        return await self.settings(identity)

    async def turn(self, identity: str, body: Any) -> dict[str, Any]:
        """Turn one's table talk off or on (``{"off": bool}``)."""
        off = body.get("off") if isinstance(body, dict) else None
        if not isinstance(off, bool):
            raise ProtocolError("bad_talk", "off: true or false", {"field": "off"})
        await self.store.turn_off(identity, off)
        return await self.settings(identity)

    async def settings(self, identity: str) -> dict[str, Any]:
        """Whether the person turned talk off, whom they mute (names), whether they are
        silenced, and the quick phrases."""
        mutes = []
        for muted in await self.store.muting(identity):
            found = await self.identities.load(muted)
            mutes.append({"id": mute_id(identity, muted), "name": found.name if found else None})
        silence = await self.store.silence_of(identity, self.clock())
        rate = self.quotas.limits.talk_per_identity
        return {
            "off": await self.store.is_off(identity),
            "mutes": mutes,
            "silenced": None if silence is None else {"until": silence.until},
            "phrases": list(PHRASES),
            "max_length": words.TALK.high,
            "limit": {"count": rate.count, "per": rate.per},
        }

    async def at_table(self, table_id: str) -> dict[str, Any]:
        """Whether talk is open at a table, and whether its spectators read it."""
        row = await self.tables.load(table_id[:40])
        if row is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
        return {
            "open": not await self.closed_at(row),
            "spectators": await self.spectators_read(row.id),
        }

    # ---------------------------------------------------------------- the operator

    async def silence(self, identity: str, reason: str, hours: float | None) -> SilenceRow:
        """Silence a person's talk for ``hours`` (None: until lifted)."""
        if hours is not None and not 0 < hours <= 24 * 3650:
            raise ProtocolError("bad_request", "hours: 0 to 87600", {"field": "hours"})
        now = self.clock()
        row = SilenceRow(
            identity,
            reason.strip()[:500] or "the rules of this server",
            now,
            None if hours is None else now + hours * 3600,
        )
        await self.store.silence(row)
        return row

    async def unsilence(self, identity: str) -> bool:
        """Lift a person's silence."""
        return await self.store.unsilence(identity)
