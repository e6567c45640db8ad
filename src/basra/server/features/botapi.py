"""Bots as online players: bot accounts, and the HTTP and WebSocket bot API.

In the spirit of lichess's bot accounts: a person makes a *bot account* for
their identity (``POST /api/bots``: a name and a token shown once), names it
in a seat of a table they create (``{"kind": "external", "bot": "NAME"}``),
and a program holding the token plays that seat over ``WS /ws/bot``. The
program is told of each table it sits at (``game``), asked for each of its
moves with its seat's view (``move``, the view exactly as the line protocol
of docs/PROTOCOL.md sends it: :meth:`basra.view.View.to_json`, the one
serializer), and answers with move text. A bot written for ``basra arena``
(a ``cmd:`` program) plays online through ``examples/botapi_client.py``
without a change. The protocol is in docs/WEB.md ("The bot API") and :data:`PROTOCOL`.

A program's seat is kind ``external``: marked as a bot at the table, with a
clock like a person's (a table with one always has a clock, so a program that
stops answering cannot stall it: its moves time out and the stand-in bot plays
them), present while the program is connected, and rated as a bot, at the
fixed rating of the ratings file's ``external`` entry
(:data:`basra.server.table.ratings.EXTERNAL`). A bot only ever receives its own
seat's view (its connection is a client of each of its tables, in that seat).

Limits (:class:`~basra.server.quotas.Limits`): bot accounts per person
(``bot_accounts_per_identity``), accounts made and tokens renewed
(``bot_tokens_per_identity``), tables a bot sits at at once
(``tables_per_bot``), and the message rate of every connection. A bot account
has one connection: a newer one takes over (the older hears ``replaced`` and
is closed with 4009). A bot token is not a device token: it signs in nowhere
but the bot API. A bot account lives as long as its owner: revoking the owner's
identity revokes their bots with it (:mod:`basra.server.revocation`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from basra.server import words
from basra.server.connection import Connection, Outgoing
from basra.server.errors import ProtocolError
from basra.server.features.accounts import username_key
from basra.server.features.botapi_store import BotRow, BotStore
from basra.server.identity import Caller, token_hash
from basra.server.quotas import Quotas, RateLimitError
from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import TableStore
from basra.server.store.rows import LIVE_STATUSES, SeatKind, SeatRow
from basra.server.table.clocks import Clock
from basra.server.table.connections import TableMessages
from basra.server.table.forms import TableSpec
from basra.server.table.frames import StateFrame
from basra.server.table.live import Client
from basra.server.table.master import TableMaster

__all__ = ["PROTOCOL", "PROTOCOL_NAME", "TYPES", "BotApi", "BotConnection", "BotSeat", "bot_json"]

log = logging.getLogger(__name__)

PROTOCOL_NAME = "basra-botapi/1"
PROTOCOL = """\
Program to server (``WS /ws/bot``)::

    {"type": "hello", "token": "bot_..."}                            # first
    {"type": "move", "table": "AbC123xy", "version": 12, "move": "7SxAH,2C"}
    {"type": "ping"}

Server to program::

    {"type": "welcome", "protocol": "basra-botapi/1", "bot": {"id": "...", "name": "..."}}
    {"type": "game", "table": "AbC123xy", "seat": 1, "variant": "egyptian", "players": 2,
     "teams": false, "rated": false, "clock": {"move": 30, "reserve": 60}, "names": [...]}
    {"type": "move", "table": "AbC123xy", "version": 12, "time_limit": 27.5,
     "view": {...}}              # View.to_json(), as in docs/PROTOCOL.md
    {"type": "over", "table": "AbC123xy", "scores": [104, 61], "winner": 0}
    {"type": "error", "table": "AbC123xy", "code": "bad_move", "message": "...", ...}
    {"type": "replaced"}         # another connection of this bot took over (closed: 4009)
    {"type": "pong"}
"""
"""The bot API's WebSocket messages."""
TYPES = ("hello", "move", "ping")
SYNC_EVERY = 5.0
"""Seconds between a connection's looks in the store for tables it was not told of."""
TOKEN_PREFIX = "bot_"


def _bad_name(value: Any) -> str:
    return words.check_text("name", value, words.BOT_NAME)


def bot_json(bot: BotRow) -> dict[str, Any]:
    """What a bot account shows: its id, name and when it was made (never its owner)."""
    return {"id": bot.identity, "name": bot.name, "created_at": bot.created_at}


def _error(error: ProtocolError) -> dict[str, Any]:
    return {"code": error.code, "message": error.message, **(error.extra or {})}


class BotSeat(Client):
    """A bot program's connection as the client of one table, in its seat.

    It never queues the table's messages: snapshots become ``move`` requests
    (with the seat's full view, from the snapshot itself) and ``over``; refusals
    go to the program with the table's id; the rest (presence, clocks,
    reactions) is not its concern.
    """

    def __init__(self, owner: BotConnection, table_id: str) -> None:
        conn = owner.conn
        super().__init__(table_id, conn.caller, owner.bot.name, conn.address)
        self.owner = owner
        self.announced = False
        self.finished = False

    def send(self, message: Outgoing) -> None:
        """Turn a table's message into what the program needs."""
        if self.closed:
            return
        if isinstance(message, StateFrame):
            self.owner.snapshot(self, message)
            return
        body = message if isinstance(message, dict) else message.body
        kind = body.get("type")
        if kind == "table" and not self.announced:
            self.announced = True
            self.owner.announce(self, body["table"])
        elif kind == "error":
            self.owner.conn.send({**body, "table": self.table_id})

    def close(self) -> None:
        """Stop forwarding (the program's connection stays open for its other tables)."""
        self.closed = True
        for task in list(self.tasks):
            task.cancel()


class BotConnection:
    """One program's ``WS /ws/bot`` connection: its tables, requests and answers."""

    def __init__(self, api: BotApi, bot: BotRow, conn: Connection) -> None:
        self.api = api
        self.bot = bot
        self.conn = conn
        self.seats: dict[str, BotSeat] = {}
        self._syncing = asyncio.Lock()
        self._sync_task: asyncio.Task[None] | None = None

    def announce(self, seat: BotSeat, table: dict[str, Any]) -> None:
        """Tell the program of a table it sits at."""
        self.conn.send(
            {
                "type": "game",
                "table": seat.table_id,
                "seat": seat.seat,
                "variant": table["variant"],
                "players": table["players"],
                "teams": table["teams"],
                "rated": table.get("rated", False),
                "clock": table.get("clock"),
                "rules": table["rules"],
                "names": [s["name"] for s in table["seats"]],
            }
        )

    def snapshot(self, seat: BotSeat, frame: StateFrame) -> None:
        """A snapshot of the bot's table: ask for its move, or say the game is over."""
        view = frame.body["view"]
        if frame.over:
            if not seat.finished:
                seat.finished = True
                self.conn.send(
                    {
                        "type": "over",
                        "table": seat.table_id,
                        "scores": view["scores"],
                        "winner": view.get("winner"),
                    }
                )
                self.api.spawn(self.leave(seat.table_id))
            return
        if view.get("phase") != "play" or view.get("turn") != seat.seat or seat.seat is None:
            return
        now = self.api.clock.now()
        deadline = frame.deadline
        limit = None if deadline is None else round(max(0.0, deadline - now), 1)
        self.conn.send(
            {
                "type": "move",
                "table": seat.table_id,
                "version": frame.version,
                "time_limit": limit,
                "view": frame.view.to_json(),
            }
        )

    async def attach(self, table_id: str) -> None:
        """Connect to one of the bot's tables (if not already)."""
        if table_id in self.seats or self.conn.closed:
            return
        seat = BotSeat(self, table_id)
        self.seats[table_id] = seat
        try:
            await self.api.master.connect(seat)
        except ProtocolError as error:
            self.seats.pop(table_id, None)
            self.conn.send({"type": "error", "table": table_id, **_error(error)})

    async def leave(self, table_id: str) -> None:
        """Let go of a table (its game is over)."""
        seat = self.seats.pop(table_id, None)
        if seat is not None:
            await self.api.master.disconnect(seat)

    async def sync(self) -> None:
        """Connect to every table the bot sits at that is waiting or in play."""
        async with self._syncing:
            for game in await self.api.tables.games_of(self.bot.identity, limit=100):
                if game.status in LIVE_STATUSES and game.id not in self.seats:
                    await self.attach(game.id)

    def keep_in_sync(self) -> None:
        """Look for the bot's tables now, then every :data:`SYNC_EVERY` seconds."""

        async def loop() -> None:
            while True:
                try:
                    await self.sync()
                except Exception:
                    log.exception("bot %s: looking for its tables failed", self.bot.identity)
                await asyncio.sleep(SYNC_EVERY)

        self._sync_task = asyncio.create_task(loop())

    async def handle(self, message: dict[str, Any]) -> None:
        """One message of the program."""
        kind = message["type"]
        if kind == "ping":
            self.conn.send({"type": "pong"})
            return
        if kind == "hello":
            raise ProtocolError("bad_message", "hello was already said on this connection")
        table, version, move = message.get("table"), message.get("version"), message.get("move")
        if not isinstance(table, str) or len(table) > 40:
            raise ProtocolError("bad_message", "'table' must be the id of one of your tables")
        if type(version) is not int:
            raise ProtocolError("bad_message", f"'version' must be a whole number, not {version!r}")
        if not isinstance(move, str) or len(move) > 64:
            raise ProtocolError("bad_message", "'move' must be move text (docs/PROTOCOL.md)")
        seat = self.seats.get(table)
        if seat is None:
            raise ProtocolError("not_seated", f"this bot does not sit at table {table!r}")
        await self.api.messages.handle(seat, {"type": "move", "move": move, "version": version})

    async def close(self) -> None:
        """Stop looking for tables and leave every table."""
        if self._sync_task is not None:
            self._sync_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sync_task
        for table_id in list(self.seats):
            await self.leave(table_id)


class BotApi:
    """Bot accounts, and the connections of bot programs to their tables."""

    def __init__(
        self,
        bots: BotStore,
        tables: TableStore,
        master: TableMaster,
        messages: TableMessages,
        quotas: Quotas,
        bus: Bus,
        clock: Clock,
    ) -> None:
        self.bots = bots
        self.clock = clock
        """The tables' clock (a bot's time limit is read on it)."""
        self.tables = tables
        self.master = master
        self.messages = messages
        self.quotas = quotas
        self.bus = bus
        self.connections: dict[str, BotConnection] = {}
        """The programs connected to this process, by bot identity."""
        self._tasks: set[asyncio.Task[Any]] = set()
        bus.on("bot", self.heard)

    def spawn(self, coro: Any) -> None:
        """Run a task of the bot API (cancelled when it closes)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Close every program's connection."""
        for connection in list(self.connections.values()):
            connection.conn.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # ---------------------------------------------------------------- accounts

    async def create(self, caller: Caller, name: Any) -> dict[str, Any]:
        """A new bot account for the caller: its id, name and token (shown once)."""
        quotas, limits = self.quotas, self.quotas.limits
        shown = _bad_name(name)
        if len(await self.bots.of_owner(caller.identity)) >= limits.bot_accounts_per_identity:
            raise RateLimitError(
                "bot_accounts",
                limits.cap_retry,
                f"bot accounts: at most {limits.bot_accounts_per_identity} each (revoke one)",
            )
        quotas.take("bot_tokens", caller.identity, limits.bot_tokens_per_identity, "bot tokens")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        bot = BotRow(
            secrets.token_hex(16), caller.identity, shown, username_key(shown), time.time()
        )
        if not await self.bots.create(bot, token_hash(token)):
            raise ProtocolError(
                "bot_name_taken", f"there is a bot named {shown!r} already", {"field": "name"}
            )
        return {**bot_json(bot), "token": token}

    async def mine(self, caller: Caller) -> list[dict[str, Any]]:
        """The caller's bot accounts (never their tokens)."""
        return [bot_json(b) for b in await self.bots.of_owner(caller.identity)]

    async def _own(self, caller: Caller, bot_id: str) -> BotRow:
        for bot in await self.bots.of_owner(caller.identity):
            if bot.identity == bot_id:
                return bot
        raise ProtocolError("no_such_bot", f"you have no bot account {bot_id[:40]!r}")

    async def renew(self, caller: Caller, bot_id: str) -> dict[str, Any]:
        """A new token for one of the caller's bots; the old one stops working."""
        bot = await self._own(caller, bot_id)
        limits = self.quotas.limits
        self.quotas.take(
            "bot_tokens", caller.identity, limits.bot_tokens_per_identity, "bot tokens"
        )
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        await self.bots.set_token(bot.identity, token_hash(token))
        await self._disconnect(bot.identity)
        return {**bot_json(bot), "token": token}

    async def revoke(self, caller: Caller, bot_id: str) -> None:
        """Revoke one of the caller's bots (its program is disconnected)."""
        bot = await self._own(caller, bot_id)
        await self.bots.revoke(bot.identity, time.time())
        await self._disconnect(bot.identity)

    async def _disconnect(self, bot_id: str) -> None:
        self._drop(bot_id)
        await self.bus.publish({"kind": "bot", "drop": bot_id})

    def _drop(self, bot_id: str, keep: BotConnection | None = None) -> None:
        connection = self.connections.get(bot_id)
        if connection is not None and connection is not keep:
            del self.connections[bot_id]
            connection.conn.send({"type": "replaced"})
            connection.conn.close_with(4009)

    async def authenticate(self, token: str | None) -> BotRow | None:
        """The live bot of a token, or None."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 128:
            return None
        return await self.bots.by_token(token_hash(token))

    async def bot_of(self, token: str | None) -> BotRow:
        """The bot of an ``Authorization: Bearer`` token, or ``signed_out``."""
        bot = await self.authenticate(token)
        if bot is None:
            raise ProtocolError("signed_out", "this route needs a bot token (POST /api/bots)")
        return bot

    async def games(self, bot: BotRow) -> list[dict[str, Any]]:
        """The tables a bot sits at that are waiting or in play."""
        return [
            {
                "table": g.id,
                "seat": g.seat,
                "variant": g.variant,
                "players": g.players,
                "teams": g.teams,
                "status": g.status,
            }
            for g in await self.tables.games_of(bot.identity, limit=100)
            if g.status in LIVE_STATUSES
        ]

    # ---------------------------------------------------------------- seating

    async def seat(self, caller: Caller, spec: TableSpec) -> dict[int, SeatRow]:
        """The seats of a create-table form's bot programs: the caller's own bot accounts,
        each at fewer than ``tables_per_bot`` tables; ``bad_settings`` naming the seat else."""
        seated: dict[int, SeatRow] = {}
        limits = self.quotas.limits
        for index, name in spec.bots.items():
            field = f"seats.{index}.bot"
            bot = await self.bots.by_name(username_key(name.strip()))
            if bot is None or bot.owner != caller.identity:
                raise ProtocolError(
                    "bad_settings",
                    f"seat {index + 1}: you have no bot account named {name[:40]!r} "
                    "(make one on the Bots page)",
                    {"field": field},
                )
            if any(s.identity == bot.identity for s in seated.values()):
                raise ProtocolError(
                    "bad_settings",
                    f"seat {index + 1}: {bot.name} has a seat already",
                    {"field": field},
                )
            if len(await self.games(bot)) >= limits.tables_per_bot:
                raise RateLimitError(
                    "tables_per_bot",
                    limits.cap_retry,
                    f"{bot.name} sits at {limits.tables_per_bot} tables already",
                )
            seated[index] = SeatRow(index, SeatKind.EXTERNAL, None, bot.identity, bot.name)
        return seated

    async def seated(self, table_id: str, seated: dict[int, SeatRow]) -> None:
        """A table with bot programs was made: tell their connections (here and elsewhere)."""
        for seat in seated.values():
            identity = str(seat.identity)
            connection = self.connections.get(identity)
            if connection is not None:
                await connection.attach(table_id)
            await self.bus.publish({"kind": "bot", "bot": identity, "table": table_id})

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process made a table for a bot connected here, or dropped a bot."""
        drop = notice.get("drop")
        if isinstance(drop, str):
            self._drop(drop)
            return
        bot, table = notice.get("bot"), notice.get("table")
        if isinstance(bot, str) and isinstance(table, str):
            connection = self.connections.get(bot)
            if connection is not None:
                await connection.attach(table)
        connected = notice.get("connected")
        if isinstance(connected, str):
            self._drop(connected)

    # ---------------------------------------------------------------- connections

    async def admit(self, token: Any, address: str) -> BotConnection:
        """The connection of a program that said hello with its bot's token."""
        bot = await self.authenticate(token if isinstance(token, str) else None)
        if bot is None:
            raise ProtocolError("signed_out", "say hello with a bot token (POST /api/bots)")
        conn = Connection(Caller(bot.identity, "bot", bot.name), bot.name, address)
        return BotConnection(self, bot, conn)

    async def attach(self, connection: BotConnection) -> None:
        """A program connected: it takes over from an older connection of its bot, is
        welcomed, and is told of its tables."""
        bot = connection.bot
        self._drop(bot.identity)
        self.connections[bot.identity] = connection
        await self.bus.publish({"kind": "bot", "connected": bot.identity})
        connection.conn.send({"type": "welcome", "protocol": PROTOCOL_NAME, "bot": bot_json(bot)})
        connection.keep_in_sync()

    async def detach(self, connection: BotConnection) -> None:
        """A program's connection closed: it leaves its tables."""
        if self.connections.get(connection.bot.identity) is connection:
            del self.connections[connection.bot.identity]
        await connection.close()
