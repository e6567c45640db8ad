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
(:data:`basra.server.ratings.EXTERNAL`). A bot only ever receives its own
seat's view (its connection is a client of each of its tables, in that seat).

Limits (:class:`~basra.server.quotas.Limits`): bot accounts per person
(``bot_accounts_per_identity``), accounts made and tokens renewed
(``bot_tokens_per_identity``), tables a bot sits at at once
(``tables_per_bot``), and the message rate of every connection. A bot account
has one connection: a newer one takes over (the older hears ``replaced`` and
is closed with 4009). A bot token is not a device token: it signs in nowhere
but the bot API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from basra.server.accounts import check_username, username_key
from basra.server.forms import TableSpec
from basra.server.identity import Caller, token_hash
from basra.server.live import Client
from basra.server.protocol import ProtocolError
from basra.server.quotas import Allowance, RateLimitError
from basra.server.ratings import EXTERNAL
from basra.server.service import MatchService
from basra.server.sockets import Connection, pump, read_hello, refuse
from basra.server.store import SeatRow
from basra.server.store.play import BotRow
from basra.view import view_of

__all__ = ["PROTOCOL", "PROTOCOL_NAME", "BotApi", "BotSeat", "bot_json"]

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
    try:
        return check_username(value)
    except ProtocolError as error:
        raise ProtocolError(
            "bad_bot_name",
            error.message.replace("username", "bot name"),
            {"field": "name"},
        ) from None


def bot_json(bot: BotRow) -> dict[str, Any]:
    """What a bot account shows: its id, name and when it was made (never its owner)."""
    return {"id": bot.identity, "name": bot.name, "created_at": bot.created_at}


class BotSeat(Client):
    """A bot program's connection as the client of one table, in its seat.

    It never queues the table's frames: snapshots become ``move`` requests
    (with the seat's full view, built while the table's lock is held, so it is
    the snapshot's own version) and ``over``; refusals go to the program with
    the table's id; the rest (presence, clocks, reactions) is not its concern.
    """

    def __init__(self, owner: BotConnection, table_id: str) -> None:
        caller = owner.conn.caller
        super().__init__(table_id, caller, owner.bot.name, owner.conn.address)
        self.owner = owner
        self.announced = False
        self.finished = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Turn a table's message into what the program needs."""
        if self.closed:
            return
        data = json.loads(message) if isinstance(message, str) else message
        kind = data.get("type")
        if kind == "table" and not self.announced:
            self.announced = True
            self.owner.announce(self, data["table"])
        elif kind == "state":
            self.owner.snapshot(self, data)
        elif kind == "error":
            self.owner.conn.send({**data, "table": self.table_id})

    def close(self) -> None:
        """Stop forwarding (the program's connection stays open for its other tables)."""
        self.closed = True
        for task in list(self.tasks):
            task.cancel()


class BotConnection:
    """One program's ``WS /ws/bot`` connection: its tables, requests and answers."""

    def __init__(self, api: BotApi, bot: BotRow, address: str) -> None:
        self.api = api
        self.bot = bot
        self.conn = Connection("/ws/bot", Caller(bot.identity, "bot", bot.name), bot.name, address)
        self.seats: dict[str, BotSeat] = {}
        self._syncing = asyncio.Lock()

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

    def snapshot(self, seat: BotSeat, data: dict[str, Any]) -> None:
        """A snapshot of the bot's table: ask for its move, or say the game is over."""
        view, version = data["view"], data["version"]
        match = self.api.match
        if view.get("over"):
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
                match.spawn(self.leave(seat.table_id))
            return
        if view.get("phase") != "play" or view.get("turn") != seat.seat or seat.seat is None:
            return
        live = match.live.get(seat.table_id)
        if live is None or live.version != version:
            return  # a newer snapshot follows
        deadline = live.clock.deadline() if live.clock is not None else None
        limit = None if deadline is None else round(max(0.0, deadline - match.clock.now()), 1)
        self.conn.send(
            {
                "type": "move",
                "table": seat.table_id,
                "version": version,
                "time_limit": limit,
                "view": view_of(live.state, seat.seat).to_json(),
            }
        )

    async def attach(self, table_id: str) -> None:
        """Connect to one of the bot's tables (if not already)."""
        if table_id in self.seats or self.conn.closed:
            return
        seat = BotSeat(self, table_id)
        self.seats[table_id] = seat
        try:
            await self.api.match.connect(seat)
        except (ProtocolError, RateLimitError) as error:
            self.seats.pop(table_id, None)
            self.conn.send({"type": "error", "table": table_id, **_error(error)})

    async def leave(self, table_id: str) -> None:
        """Let go of a table (its game is over)."""
        seat = self.seats.pop(table_id, None)
        if seat is not None:
            await self.api.match.disconnect(seat)

    async def sync(self) -> None:
        """Connect to every table the bot sits at that is waiting or in play."""
        async with self._syncing:
            for game in await self.api.match.store.games_of(self.bot.identity, limit=100):
                if game.status in ("open", "playing") and game.id not in self.seats:
                    await self.attach(game.id)

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
        await self.api.match.handle(seat, {"type": "move", "move": move, "version": version})

    async def close(self) -> None:
        """Leave every table."""
        for table_id in list(self.seats):
            await self.leave(table_id)


def _error(error: ProtocolError) -> dict[str, Any]:
    return {"code": error.code, "message": error.message, **(error.extra or {})}


class BotApi:
    """Bot accounts and the connections of bot programs for a :class:`MatchService`."""

    def __init__(self, match: MatchService) -> None:
        self.match = match
        self.connections: dict[str, BotConnection] = {}
        """The programs connected to this process, by bot identity."""
        match.notice_handlers["bot"] = self.heard

    async def close(self) -> None:
        """Close every program's connection."""
        for connection in list(self.connections.values()):
            connection.conn.close()

    # ---------------------------------------------------------------- accounts

    async def create(self, caller: Caller, name: Any) -> dict[str, Any]:
        """A new bot account for the caller: its id, name and token (shown once)."""
        quotas, limits, store = self.match.quotas, self.match.quotas.limits, self.match.store
        shown = _bad_name(name)
        if len(await store.bots_of(caller.identity)) >= limits.bot_accounts_per_identity:
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
        if not await store.create_bot(bot, token_hash(token)):
            raise ProtocolError(
                "bot_name_taken", f"there is a bot named {shown!r} already", {"field": "name"}
            )
        return {**bot_json(bot), "token": token}

    async def mine(self, caller: Caller) -> list[dict[str, Any]]:
        """The caller's bot accounts (never their tokens)."""
        return [bot_json(b) for b in await self.match.store.bots_of(caller.identity)]

    async def _own(self, caller: Caller, bot_id: str) -> BotRow:
        for bot in await self.match.store.bots_of(caller.identity):
            if bot.identity == bot_id:
                return bot
        raise ProtocolError("no_such_bot", f"you have no bot account {bot_id[:40]!r}")

    async def renew(self, caller: Caller, bot_id: str) -> dict[str, Any]:
        """A new token for one of the caller's bots; the old one stops working."""
        bot = await self._own(caller, bot_id)
        limits = self.match.quotas.limits
        self.match.quotas.take(
            "bot_tokens", caller.identity, limits.bot_tokens_per_identity, "bot tokens"
        )
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        await self.match.store.set_bot_token(bot.identity, token_hash(token))
        await self._disconnect(bot.identity)
        return {**bot_json(bot), "token": token}

    async def revoke(self, caller: Caller, bot_id: str) -> None:
        """Revoke one of the caller's bots (its program is disconnected)."""
        bot = await self._own(caller, bot_id)
        await self.match.store.revoke_bot(bot.identity, time.time())
        await self._disconnect(bot.identity)

    async def _disconnect(self, bot_id: str) -> None:
        self._drop(bot_id)
        await self.match.hub.publish({"kind": "bot", "drop": bot_id})

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
        return await self.match.store.bot_by_token(token_hash(token))

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
            for g in await self.match.store.games_of(bot.identity, limit=100)
            if g.status in ("open", "playing")
        ]

    # ---------------------------------------------------------------- seating

    async def seat(self, caller: Caller, spec: TableSpec) -> dict[int, SeatRow]:
        """The seats of a create-table form's bot programs: the caller's own bot accounts,
        each at fewer than ``tables_per_bot`` tables; ``bad_settings`` naming the seat else."""
        seated: dict[int, SeatRow] = {}
        limits = self.match.quotas.limits
        for index, name in spec.bots.items():
            field = f"seats.{index}.bot"
            bot = await self.match.store.bot_by_name(username_key(name.strip()))
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
            seated[index] = SeatRow(index, EXTERNAL, None, bot.identity, bot.name)
        return seated

    async def seated(self, table_id: str, seated: dict[int, SeatRow]) -> None:
        """A table with bot programs was made: tell their connections (here and elsewhere)."""
        for seat in seated.values():
            identity = str(seat.identity)
            connection = self.connections.get(identity)
            if connection is not None:
                await connection.attach(table_id)
            await self.match.hub.publish({"kind": "bot", "bot": identity, "table": table_id})

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

    # ---------------------------------------------------------------- the endpoint

    async def serve(self, websocket: WebSocket, address: str) -> None:
        """One ``WS /ws/bot`` connection (accepted), from hello to close."""
        try:
            hello = await read_hello(websocket, TYPES)
            token = hello.get("token")
            bot = await self.authenticate(token if isinstance(token, str) else None)
            if bot is None:
                raise ProtocolError("signed_out", "say hello with a bot token (POST /api/bots)")
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await websocket.close(code=4000)
            return
        except ProtocolError as error:
            await refuse(websocket, error, 4001 if error.code == "signed_out" else 4000)
            return
        connection = BotConnection(self, bot, address)
        self._drop(bot.identity)
        self.connections[bot.identity] = connection
        await self.match.hub.publish({"kind": "bot", "connected": bot.identity})
        connection.conn.send({"type": "welcome", "protocol": PROTOCOL_NAME, "bot": bot_json(bot)})

        async def keep_in_sync() -> None:
            while True:
                try:
                    await connection.sync()
                except Exception:
                    log.exception("bot %s: looking for its tables failed", bot.identity)
                await asyncio.sleep(SYNC_EVERY)

        syncing = asyncio.create_task(keep_in_sync())
        try:
            await pump(
                websocket,
                connection.conn,
                Allowance(self.match.quotas.limits.messages_per_connection),
                TYPES,
                connection.handle,
            )
        finally:
            syncing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await syncing
            if self.connections.get(bot.identity) is connection:
                del self.connections[bot.identity]
            await connection.close()
