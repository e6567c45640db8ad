"""The match service: tables in play, one action at a time each, stored before sent.

This is the boardgame.io "master" of STYLE.md. The transport hands it parsed
client messages; it checks the seat, the turn, the move and the state version,
applies the action through the engine, appends it to the store's event log,
and only then sends each client a snapshot built from that client's view (or a
spectator's view). Bots get views too, and think on a worker thread so the
event loop keeps serving other tables.

A table's game lives in memory as a :class:`~basra.state.GameState` rebuilt
from the store's log, so a restarted process resumes every game. With several
processes, each keeps its own copy; a write that loses the race for a step is
refused by the store, and notices on the hub tell the others to catch up.

Automatic actions (dealing a round, a bot's move, a stand-in bot for a person
gone longer than the grace period) are planned for one table version and
dropped if the table moved on before they ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from basra.bots import LEVELS
from basra.cards import CARD_NAMES, cards_of
from basra.moves import Move
from basra.notation import (
    AmbiguousMoveError,
    CaptureNotAllowedError,
    InvalidMoveError,
    MoveTextError,
    NotInHandError,
    parse_move,
)
from basra.record import record_of, result_json
from basra.rules import PRESETS, RulesError, preset
from basra.server.protocol import (
    ProtocolError,
    check_name,
    error_message,
    event_json,
    names_of,
    seat_view_json,
    spectator_view_json,
)
from basra.server.pubsub import Hub
from basra.server.store import Event, SeatRow, Store, TableRow
from basra.server.workers import bot_hint, bot_move, make_executor
from basra.state import PHASE_DEAL, PHASE_PLAY, GameError, GameState, shuffled_pack
from basra.view import view_of

__all__ = ["Client", "LiveTable", "MatchService", "ServiceConfig", "player_key"]

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 500
"""Messages queued for one client before it is dropped as too slow."""


def player_key(secret: str) -> str:
    """The stored identity of a browser: SHA-256 of its secret (the secret is never stored).

    >>> len(player_key("0123456789abcdef"))
    64
    """
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass
class ServiceConfig:
    """Timing and capacity settings of the match service."""

    grace: float = 60.0
    """Seconds a person may be gone before a stand-in bot plays their turns."""
    bot_delay: float = 0.9
    """Seconds a bot waits before playing, so people can follow the game."""
    round_pause: float = 6.0
    """Seconds between the end of a round (its score sheet) and the next deal."""
    stand_in_level: str = "medium"
    """The bot level that plays for a person who is gone."""
    hint_level: str = "expert"
    bot_threads: int = 2
    bot_processes: int = 0
    """Worker processes for bots and hints (0: threads in the server process)."""
    message_rate: float = 20.0
    """Messages a connection may send per second on average (more are refused)..."""
    message_burst: int = 60
    """...and at once."""
    presence_ttl: float = 30.0
    """Seconds another process's presence report stays valid without a heartbeat."""
    heartbeat: float = 10.0


class Client:
    """One connection as the service sees it: who it is, where it sits, and its outbox.

    The transport drains :attr:`outbox`; the service only queues text, so a
    slow client never holds up a table.
    """

    def __init__(self, table_id: str, secret: str, name: str | None = None) -> None:
        self.table_id = table_id
        self.key = player_key(secret)
        self.name = name
        self.seat: int | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.sent = 0

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict is serialised here)."""
        if self.closed:
            return
        if self.outbox.qsize() > OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))
        self.sent += 1

    def close(self) -> None:
        """Ask the transport to close the connection."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


@dataclass
class LiveTable:
    """A table held in memory: its settings, its game and who is connected here."""

    row: TableRow
    state: GameState
    version: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    local: dict[int, int] = field(default_factory=dict)
    remote: dict[str, tuple[dict[int, int], float]] = field(default_factory=dict)
    absent_since: dict[int, float] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None
    plan: tuple[str, int] | None = None
    event: dict[str, Any] | None = None

    def present(self, seat: int, now: float) -> bool:
        """Whether the person in ``seat`` has a connection here or in another live process."""
        if self.local.get(seat, 0) > 0:
            return True
        return any(
            counts.get(seat, 0) > 0 and expires > now for counts, expires in self.remote.values()
        )


def _new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def _apply(state: GameState, event: Event) -> dict[str, Any]:
    """Apply a stored event to the engine; returns its public description."""
    if event.kind == "deal":
        state.deal(event.data.split())
        return event_json("deal", state.round_index)
    move = parse_move(state, event.data)
    seat = state.turn
    state.push(move)
    play = state.rounds[-1].plays[-1]
    return event_json("play", state.round_index, seat, move.text(), play.basra)


def _new_game(row: TableRow) -> GameState:
    return GameState(
        row.variant, row.players, teams=row.teams, first_dealer=row.first_dealer, rules=row.rules
    )


def _pack_text(pack: list[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in pack)


class MatchService:
    """Tables, seats, moves, bots and fan-out over a :class:`Store` and a :class:`Hub`."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        config: ServiceConfig | None = None,
        *,
        origin: str | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.config = config or ServiceConfig()
        self.origin = origin or uuid.uuid4().hex[:12]
        self.rng = rng or random.SystemRandom()
        self.live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._executor = make_executor(self.config.bot_processes, self.config.bot_threads)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        self.moves = 0

    # ---------------------------------------------------------------- life

    async def start(self, resume: bool = True) -> None:
        """Open the store and the hub, then resume every game in play."""
        await self.store.start()
        await self.hub.start(self.origin, self._on_notice)
        if resume:
            for row in await self.store.list_tables(["playing"], limit=100_000):
                try:
                    live = await self._get(row.id)
                except Exception:
                    log.exception("cannot resume table %s", row.id)
                    continue
                if live is not None:
                    self._schedule(live)
        self._heartbeat = asyncio.create_task(self._beat())

    async def close(self) -> None:
        """Stop timers, close client connections, the hub and the store."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for live in self.live.values():
            if live.timer is not None:
                live.timer.cancel()
            for client in list(live.clients):
                client.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.hub.close()
        await self.store.close()
        await asyncio.to_thread(self._executor.shutdown, wait=True, cancel_futures=True)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ---------------------------------------------------------------- loading

    async def _get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded from the store and replayed on first use."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 32:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                live = self.live.get(table_id)
                if live is not None:
                    return live
                row = await self.store.load_table(table_id)
                if row is None:
                    return None
                state = _new_game(row)
                live = LiveTable(row=row, state=state, version=0)
                now = time.monotonic()
                live.absent_since = {s.seat: now for s in row.seats if s.kind == "person"}
                for event in await self.store.events(table_id):
                    live.event = _apply(state, event)
                    live.version += 1
                self.live[table_id] = live
                return live
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)

    async def _catch_up(self, live: LiveTable) -> list[dict[str, Any]]:
        """Apply events other processes stored (call with the table's lock held)."""
        applied = []
        for event in await self.store.events(live.row.id, since=live.version):
            if event.seq != live.version:
                break
            live.event = _apply(live.state, event)
            live.version += 1
            applied.append(live.event)
        return applied

    # ---------------------------------------------------------------- HTTP side

    async def create_table(self, secret: str, name: str, spec: dict[str, Any]) -> TableRow:
        """Create a table from the create-table form (see :func:`table_spec`)."""
        name = check_name(name)
        variant, overrides, players, teams, hints, seats_spec, my_seat = table_spec(spec)
        key = player_key(secret)
        seats = []
        for index, (kind, level) in enumerate(seats_spec):
            if index == my_seat:
                seats.append(SeatRow(index, "person", None, key, name))
            else:
                seats.append(SeatRow(index, kind, level))
        row = TableRow(
            id=_new_id(),
            variant=variant,
            rules=overrides,
            players=players,
            teams=teams,
            first_dealer=self.rng.randrange(players),
            hints=hints,
            seats=seats,
            created_at=time.time(),
        )
        if all(s.kind == "bot" or s.player_key for s in seats):
            row.status = "playing"
        await self.store.create_table(row)
        if row.status == "playing":
            live = await self._get(row.id)
            if live is not None:
                self._schedule(live)
        return row

    async def table_info(self, table_id: str) -> dict[str, Any] | None:
        """The public description of a table (no cards), or None."""
        live = await self._get(table_id)
        if live is None:
            return None
        return self._table_json(live, None)

    async def lobby(self) -> list[dict[str, Any]]:
        """Tables waiting for people and tables in play (to join or watch)."""
        out = []
        for row in await self.store.list_tables(["open", "playing"], limit=40):
            out.append(
                {
                    "id": row.id,
                    "variant": row.variant,
                    "players": row.players,
                    "teams": row.teams,
                    "status": row.status,
                    "names": [s.name for s in row.seats],
                    "kinds": [s.kind for s in row.seats],
                    "levels": [s.level for s in row.seats],
                    "open": sum(1 for s in row.seats if s.kind == "person" and not s.player_key),
                    "scores": row.scores,
                    "created_at": row.created_at,
                }
            )
        return out

    async def games_of(self, secret: str) -> list[dict[str, Any]]:
        """A person's tables, newest first."""
        out = []
        for game in await self.store.games_of(player_key(secret)):
            out.append(
                {
                    "id": game.id,
                    "variant": game.variant,
                    "players": game.players,
                    "teams": game.teams,
                    "status": game.status,
                    "seat": game.seat,
                    "names": game.names,
                    "scores": game.scores,
                    "winner": game.winner,
                    "created_at": game.created_at,
                    "updated_at": game.updated_at,
                }
            )
        return out

    async def _finished(self, table_id: str) -> tuple[TableRow, GameState, list[Event]]:
        row = await self.store.load_table(table_id)
        if row is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id!r}")
        events = await self.store.events(table_id)
        state = _new_game(row)
        for event in events:
            _apply(state, event)
        if not state.is_over:
            raise ProtocolError(
                "not_over",
                "the game is not over: its record holds cards that are still hidden",
            )
        return row, state, events

    async def record(self, table_id: str) -> dict[str, Any]:
        """The game's record (RECORD.md) once it is over."""
        row, state, _ = await self._finished(table_id)
        return record_of(state, names_of([s.name for s in row.seats])).to_json()

    async def replay(self, table_id: str) -> dict[str, Any]:
        """Every step of a finished game, all hands shown, for the replay page."""
        row, final, events = await self._finished(table_id)
        state = _new_game(row)
        frames = []
        for event in events:
            described = _apply(state, event)
            frames.append(
                {
                    "event": described,
                    "dealer": state.dealer,
                    "turn": state.turn if state.phase == PHASE_PLAY else None,
                    "floor": [CARD_NAMES[c] for c in cards_of(state.floor)],
                    "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in state.hands],
                    "piles": [p.bit_count() for p in state.piles],
                    "basras": list(state.basras),
                    "scores": list(state.scores),
                    "stock": state.stock_size,
                    "round_over": state.phase != PHASE_PLAY,
                }
            )
        return {
            "table": self._table_json_row(row),
            "names": names_of([s.name for s in row.seats]),
            "sides": [list(side) for side in final.sides],
            "result": result_json(final),
            "frames": frames,
        }

    # ---------------------------------------------------------------- connections

    async def connect(self, client: Client) -> None:
        """Attach a client that said hello; sends it the table and its first snapshot."""
        live = await self._get(client.table_id)
        if live is None:
            raise ProtocolError("no_such_table", f"there is no table {client.table_id!r}")
        async with live.lock:
            await self._catch_up(live)
            client.seat = next((s.seat for s in live.row.seats if s.player_key == client.key), None)
            live.clients.add(client)
            if client.seat is not None:
                self._arrive(live, client.seat)
            client.send({"type": "table", "table": self._table_json(live, client.seat)})
            client.send(self._state_message(live, client.seat, None))
            if client.seat is not None:
                self._send_table(live, exclude=client)
        if client.seat is not None:
            await self._publish_presence(live)
            self._schedule(live)

    async def disconnect(self, client: Client) -> None:
        """Detach a client (its connection closed)."""
        client.closed = True
        live = self.live.get(client.table_id)
        if live is None or client not in live.clients:
            return
        live.clients.discard(client)
        if not live.clients and (live.state.is_over or live.row.status == "open"):
            # Nothing runs at an idle table: let it go (the store keeps it).
            if live.timer is None or live.timer.done():
                self.live.pop(live.row.id, None)
            return
        if client.seat is not None:
            count = live.local.get(client.seat, 0) - 1
            live.local[client.seat] = max(count, 0)
            if not live.present(client.seat, time.monotonic()):
                live.absent_since[client.seat] = time.monotonic()
            self._send_table(live)
            await self._publish_presence(live)
            self._schedule(live)

    def _arrive(self, live: LiveTable, seat: int) -> None:
        live.local[seat] = live.local.get(seat, 0) + 1

    async def handle(self, client: Client, message: dict[str, Any]) -> None:
        """Carry out one parsed client message; refusals go back as ``error`` messages."""
        try:
            kind = message["type"]
            if kind == "ping":
                client.send({"type": "pong"})
            elif kind == "move":
                await self._move(client, message["move"], message["version"])
            elif kind == "join":
                await self._join(client, message["seat"], message.get("name"))
            elif kind == "hint":
                await self._hint(client, message["version"])
            elif kind == "rematch":
                await self._rematch(client)
            elif kind == "rename":
                await self._rename(client, message["name"])
            elif kind == "hello":
                raise ProtocolError("bad_message", "hello was already said on this connection")
        except ProtocolError as error:
            client.send(error_message(error))

    # ---------------------------------------------------------------- actions

    async def _join(self, client: Client, seat: int, name: str | None) -> None:
        live = self.live[client.table_id]
        name = name or client.name
        if name is None:
            raise ProtocolError("bad_name", "say your name to take a seat")
        async with live.lock:
            if client.seat is not None:
                raise ProtocolError("already_seated", f"you already sit in seat {client.seat}")
            if not 0 <= seat < live.row.players:
                raise ProtocolError(
                    "no_such_seat", f"seats are numbered 0 to {live.row.players - 1}"
                )
            row = live.row.seats[seat]
            if row.kind != "person":
                raise ProtocolError("seat_not_open", f"seat {seat} is played by a bot")
            if row.player_key is not None:
                raise ProtocolError("seat_taken", f"seat {seat} is taken")
            if not await self.store.claim_seat(live.row.id, seat, client.key, name):
                await self._reload_row(live)
                raise ProtocolError("seat_taken", f"seat {seat} was just taken")
            live.row.seats[seat] = replace(row, player_key=client.key, name=name)
            client.name = name
            for other in live.clients:
                if other.key == client.key:
                    other.seat = seat
                    self._arrive(live, seat)
            if live.row.status == "open" and all(
                s.kind == "bot" or s.player_key for s in live.row.seats
            ):
                live.row.status = "playing"
                await self.store.set_status(live.row.id, "playing", [], None)
            self._send_table(live)
            for other in live.clients:
                if other.key == client.key:
                    other.send(self._state_message(live, seat, None))
        await self.hub.publish({"kind": "meta", "table": live.row.id})
        await self._publish_presence(live)
        self._schedule(live)

    async def _rename(self, client: Client, name: str) -> None:
        live = self.live[client.table_id]
        client.name = name
        if client.seat is None:
            return
        async with live.lock:
            await self.store.rename(live.row.id, client.seat, client.key, name)
            live.row.seats[client.seat] = replace(live.row.seats[client.seat], name=name)
            self._send_table(live)
        await self.hub.publish({"kind": "meta", "table": live.row.id})

    def _check_turn(self, live: LiveTable, client: Client, version: int) -> int:
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot play: take an open seat first")
        if live.row.status != "playing" or live.state.phase != PHASE_PLAY:
            what = "the game is over" if live.state.is_over else "no round is being played"
            raise ProtocolError("not_playing", what)
        if version != live.version:
            raise ProtocolError(
                "stale",
                f"the table is at version {live.version}, not {version}",
                {"version": live.version},
            )
        if live.state.turn != seat:
            raise ProtocolError(
                "not_your_turn", f"it is seat {live.state.turn}'s turn", {"turn": live.state.turn}
            )
        return seat

    async def _move(self, client: Client, text: str, version: int) -> None:
        live = self.live[client.table_id]
        async with live.lock:
            seat = self._check_turn(live, client, version)
            try:
                move = parse_move(live.state, text)
            except MoveTextError as exc:
                raise ProtocolError("bad_move", str(exc), _move_error_extra(exc)) from None
            except GameError as exc:
                raise ProtocolError("bad_move", str(exc), {"reason": "illegal"}) from None
            await self._commit_play(live, seat, move)

    async def _commit_play(self, live: LiveTable, seat: int, move: Move) -> None:
        """Apply, store, then send (the table's lock is held)."""
        state = live.state
        state.push(move)
        play = state.rounds[-1].plays[-1]
        try:
            stored = await self.store.append_event(
                live.row.id, Event(live.version, "play", move.text())
            )
        except Exception:
            state.pop()
            log.exception("storing a play failed")
            raise ProtocolError("storage", "the move could not be stored; try again") from None
        if not stored:
            state.pop()
            applied = await self._catch_up(live)
            if applied:
                self._broadcast_state(live)
            raise ProtocolError("stale", "another action came first", {"version": live.version})
        live.version += 1
        self.moves += 1
        live.event = event_json("play", state.round_index, seat, move.text(), play.basra)
        if state.phase != PHASE_PLAY:
            await self._round_over(live)
        self._broadcast_state(live)
        await self.hub.publish({"kind": "events", "table": live.row.id, "version": live.version})
        self._schedule(live)

    async def _round_over(self, live: LiveTable) -> None:
        state = live.state
        outcome = state.outcome()
        status = "over" if outcome is not None else "playing"
        live.row.status = status
        live.row.scores = list(state.scores)
        live.row.winner = outcome.winner if outcome is not None else None
        await self.store.set_status(live.row.id, status, state.scores, live.row.winner)
        if outcome is not None:
            self._send_table(live)

    async def _deal(self, live: LiveTable) -> None:
        state = live.state
        pack = shuffled_pack(state.rules, random.Random(self.rng.getrandbits(64)))
        event = Event(live.version, "deal", _pack_text(pack))
        if not await self.store.append_event(live.row.id, event):
            if await self._catch_up(live):
                self._broadcast_state(live)
            return
        state.deal(pack)
        live.version += 1
        live.event = event_json("deal", state.round_index)
        self._broadcast_state(live)
        await self.hub.publish({"kind": "events", "table": live.row.id, "version": live.version})

    async def _hint(self, client: Client, version: int) -> None:
        live = self.live[client.table_id]
        if not live.row.hints:
            raise ProtocolError("hints_off", "this table was created without hints")
        async with live.lock:
            seat = self._check_turn(live, client, version)
            view = view_of(live.state, seat)
        level = self.config.hint_level
        loop = asyncio.get_running_loop()
        suggestion = await loop.run_in_executor(self._executor, bot_hint, level, view)
        move = suggestion.move
        client.send(
            {
                "type": "hint",
                "version": version,
                "move": move.text(),
                "card": CARD_NAMES[move.card],
                "take": [CARD_NAMES[c] for c in move.taken()],
                "reason": suggestion.reason,
            }
        )

    async def _rematch(self, client: Client) -> None:
        live = self.live[client.table_id]
        if client.seat is None:
            raise ProtocolError("not_seated", "only the players can ask for a rematch")
        if not live.state.is_over:
            raise ProtocolError("not_over", "a rematch comes after the game")
        row = live.row
        new_id = hashlib.sha256(f"rematch:{row.id}".encode()).hexdigest()[:10]
        if row.rematch_id is None:
            new_row = replace(
                row,
                id=new_id,
                seats=list(row.seats),
                first_dealer=(row.first_dealer + 1) % row.players,
                status="playing",
                scores=[],
                winner=None,
                rematch_of=row.id,
                rematch_id=None,
                created_at=time.time(),
            )
            with contextlib.suppress(Exception):  # another process made it first
                await self.store.create_table(new_row)
            row.rematch_id = await self.store.set_rematch(row.id, new_id)
            await self.hub.publish({"kind": "meta", "table": row.id})
            rematch = await self._get(row.rematch_id)
            if rematch is not None:
                self._schedule(rematch)
        for other in live.clients:
            other.send({"type": "rematch", "table": row.rematch_id})
        self._send_table(live)

    # ---------------------------------------------------------------- automatic actions

    def _schedule(self, live: LiveTable) -> None:
        """Plan the table's next automatic action, if any (deal, bot, stand-in)."""
        plan, delay = self._next_action(live)
        if plan == live.plan and live.timer is not None and not live.timer.done():
            return
        current = asyncio.current_task()
        if live.timer is not None and live.timer is not current and not live.timer.done():
            live.timer.cancel()
        live.plan = plan
        live.timer = None
        if plan is not None:
            live.timer = self._spawn(self._run_plan(live, plan, delay))

    def _next_action(self, live: LiveTable) -> tuple[tuple[str, int] | None, float]:
        state = live.state
        if live.row.status != "playing" or state.is_over:
            return None, 0.0
        if state.phase == PHASE_DEAL:
            delay = 0.0 if live.version == 0 else self.config.round_pause
            return ("deal", live.version), delay
        seat = state.turn
        row = live.row.seats[seat]
        if row.kind == "bot":
            return ("bot", live.version), self.config.bot_delay
        now = time.monotonic()
        if live.present(seat, now):
            return None, 0.0
        since = live.absent_since.get(seat, now)
        wait = max(since + self.config.grace - now, self.config.bot_delay)
        return ("stand_in", live.version), wait

    async def _run_plan(self, live: LiveTable, plan: tuple[str, int], delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            async with live.lock:
                if live.plan != plan or live.version != plan[1]:
                    return
                kind = plan[0]
                if kind == "deal":
                    if live.state.phase == PHASE_DEAL and not live.state.is_over:
                        await self._deal(live)
                else:
                    seat = live.state.turn
                    if kind == "stand_in" and live.present(seat, time.monotonic()):
                        return
                    move = await self._bot_move(live, seat, kind)
                    if kind == "stand_in":
                        self._send_table(live)  # shows that a bot stands in
                    await self._commit_play(live, seat, move)
            if live.plan == plan:
                live.plan = None
            self._schedule(live)
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            log.info("automatic action on %s refused: %s", live.row.id, error)
            if live.plan == plan:
                live.plan = None
            self._schedule(live)
        except Exception:
            log.exception("automatic action on table %s failed; trying again", live.row.id)
            if live.plan == plan:
                live.plan = None
            await asyncio.sleep(1.0)
            self._schedule(live)

    async def _bot_move(self, live: LiveTable, seat: int, kind: str) -> Move:
        row = live.row.seats[seat]
        level = row.level if kind == "bot" and row.level else self.config.stand_in_level
        key = f"{live.row.id}:{seat}:{live.version}".encode()
        seed = int.from_bytes(hashlib.sha256(key).digest()[:4])
        view = view_of(live.state, seat)
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(self._executor, bot_move, level, seed, view)
        return Move(*move)

    # ---------------------------------------------------------------- fan-out

    def _state_message(
        self, live: LiveTable, seat: int | None, event: dict[str, Any] | None
    ) -> str:
        view = (
            seat_view_json(live.state, seat)
            if seat is not None
            else spectator_view_json(live.state)
        )
        return json.dumps({"type": "state", "version": live.version, "view": view, "event": event})

    def _broadcast_state(self, live: LiveTable) -> None:
        """Send every client here a snapshot from its own seat's view."""
        cache: dict[int | None, str] = {}
        for client in list(live.clients):
            if client.closed:
                continue
            text = cache.get(client.seat)
            if text is None:
                text = cache[client.seat] = self._state_message(live, client.seat, live.event)
            client.send(text)

    def _send_table(self, live: LiveTable, exclude: Client | None = None) -> None:
        for client in list(live.clients):
            if client is not exclude:
                client.send({"type": "table", "table": self._table_json(live, client.seat)})

    def _table_json_row(self, row: TableRow) -> dict[str, Any]:
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
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "open": s.kind == "person" and s.player_key is None,
                }
                for s in row.seats
            ],
        }

    def _table_json(self, live: LiveTable, you: int | None) -> dict[str, Any]:
        out = self._table_json_row(live.row)
        now = time.monotonic()
        for seat in out["seats"]:
            if seat["kind"] == "person" and not seat["open"]:
                present = live.present(seat["seat"], now)
                seat["present"] = present
                seat["stand_in"] = (
                    not present
                    and now - live.absent_since.get(seat["seat"], now) >= self.config.grace
                )
        out["you"] = you
        out["spectators"] = sum(1 for c in live.clients if c.seat is None)
        out["version"] = live.version
        return out

    # ---------------------------------------------------------------- other processes

    async def _publish_presence(self, live: LiveTable) -> None:
        counts = {str(seat): n for seat, n in live.local.items() if n > 0}
        await self.hub.publish({"kind": "presence", "table": live.row.id, "counts": counts})

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.config.heartbeat)
            for live in list(self.live.values()):
                if any(live.local.values()):
                    with contextlib.suppress(Exception):
                        await self._publish_presence(live)

    async def _reload_row(self, live: LiveTable) -> None:
        row = await self.store.load_table(live.row.id)
        if row is not None:
            live.row = row

    async def _on_notice(self, notice: dict[str, Any]) -> None:
        """A notice from another process: catch up and tell our clients."""
        table_id = notice.get("table")
        if not isinstance(table_id, str):
            return
        live = self.live.get(table_id)
        if live is None:
            return
        kind = notice.get("kind")
        if kind == "events":
            async with live.lock:
                if await self._catch_up(live):
                    if live.state.phase != PHASE_PLAY:
                        await self._reload_row(live)
                        self._send_table(live)
                    self._broadcast_state(live)
            self._schedule(live)
        elif kind == "meta":
            async with live.lock:
                await self._reload_row(live)
                for client in live.clients:
                    if client.seat is None:
                        mine = next(
                            (s.seat for s in live.row.seats if s.player_key == client.key), None
                        )
                        if mine is not None:
                            client.seat = mine
                            self._arrive(live, mine)
                            client.send(self._state_message(live, mine, None))
                if live.row.rematch_id:
                    for client in live.clients:
                        client.send({"type": "rematch", "table": live.row.rematch_id})
                self._send_table(live)
            self._schedule(live)
        elif kind == "presence":
            counts = notice.get("counts")
            origin = notice.get("origin")
            if not isinstance(counts, dict) or not isinstance(origin, str):
                return
            now = time.monotonic()
            before = {s: live.present(s, now) for s in live.absent_since}
            live.remote[origin] = (
                {int(k): int(v) for k, v in counts.items()},
                now + self.config.presence_ttl,
            )
            for seat, was in before.items():
                if was and not live.present(seat, now):
                    live.absent_since[seat] = now
            self._send_table(live)
            self._schedule(live)


def _move_error_extra(exc: MoveTextError) -> dict[str, Any]:
    if isinstance(exc, AmbiguousMoveError):
        return {"reason": "ambiguous", "options": [m.text() for m in exc.options]}
    if isinstance(exc, CaptureNotAllowedError):
        return {"reason": "capture_not_allowed", "options": [m.text() for m in exc.legal]}
    if isinstance(exc, NotInHandError):
        return {"reason": "not_in_hand"}
    if isinstance(exc, InvalidMoveError):
        return {"reason": "invalid"}
    return {"reason": "illegal"}


SEAT_KINDS = ("person", "bot")


def table_spec(
    spec: Any,
) -> tuple[str, dict[str, Any], int, bool, bool, list[tuple[str, str | None]], int | None]:
    """Check a create-table form; returns its parts or raises ``bad_settings``.

    The form is ``{"variant", "rules": {overrides}, "players", "teams", "hints",
    "seats": [{"kind": "person"|"bot", "level": "easy"...}], "my_seat": n|null}``.
    """

    def bad(message: str) -> ProtocolError:
        return ProtocolError("bad_settings", message)

    if not isinstance(spec, dict):
        raise bad("the table settings must be an object")
    variant = spec.get("variant", "egyptian")
    if variant not in PRESETS:
        raise bad(f"unknown variant {variant!r}; the variants are: {', '.join(PRESETS)}")
    overrides = spec.get("rules") or {}
    if not isinstance(overrides, dict):
        raise bad("'rules' must be an object of settings")
    try:
        rules = preset(variant).with_overrides(overrides)
    except RulesError as exc:
        raise bad(str(exc)) from None
    overrides = rules.overrides_from(preset(variant))
    players = spec.get("players", 2)
    if type(players) is not int or players not in (2, 3, 4):
        raise bad(f"players must be 2, 3 or 4, not {players!r}")
    teams = spec.get("teams", False)
    if not isinstance(teams, bool) or (teams and players != 4):
        raise bad("teams must be true or false, and teams need 4 players")
    hints = spec.get("hints", True)
    if not isinstance(hints, bool):
        raise bad("hints must be true or false")
    raw_seats = spec.get("seats")
    if raw_seats is None:
        raw_seats = [{"kind": "person"}] + [{"kind": "bot", "level": "medium"}] * (players - 1)
    if not isinstance(raw_seats, list) or len(raw_seats) != players:
        raise bad(f"'seats' must list {players} seats")
    seats: list[tuple[str, str | None]] = []
    for index, raw in enumerate(raw_seats):
        if not isinstance(raw, dict) or raw.get("kind") not in SEAT_KINDS:
            raise bad(f"seat {index} must be {{'kind': 'person'}} or {{'kind': 'bot', 'level': L}}")
        if raw["kind"] == "bot":
            level = raw.get("level", "medium")
            if level not in LEVELS:
                raise bad(f"seat {index}: bot level must be one of {', '.join(LEVELS)}")
            seats.append(("bot", level))
        else:
            seats.append(("person", None))
    my_seat = spec.get("my_seat", 0 if seats[0][0] == "person" else None)
    if my_seat is not None and (
        type(my_seat) is not int or not 0 <= my_seat < players or seats[my_seat][0] != "person"
    ):
        raise bad("'my_seat' must be a seat open for a person, or null to watch")
    return variant, overrides, players, teams, hints, seats, my_seat
