"""The match service: tables in play, one action at a time each, stored before sent.

This is the boardgame.io "master" of STYLE.md. The transport hands it parsed
client messages from authenticated callers; it checks the seat, the turn, the
move and the state version, applies the action through the engine, appends it
to the store's event log, and only then sends each client a snapshot built
from that client's seat view (the public view for spectators, see
:func:`~basra.server.protocol.state_frame`).

A table's game lives in memory as a :class:`~basra.state.GameState` rebuilt
from the store's log, so a restarted process resumes every game. With several
processes, each keeps its own copy; a write that loses the race for a step is
refused by the store, and notices on the hub tell the others to catch up.

Automatic actions (dealing a round, a bot's move, a stand-in bot for a person
gone longer than the grace period) are planned for one table version and
dropped if the table moved on before they ran. Bots think outside the table's
lock, on the fair scheduler's workers (:mod:`basra.server.scheduler`); an
automatic action that fails is tried again with growing pauses, then the table
is marked with its fault and left alone (logged, shown to its people). A table
nobody is connected to ends as abandoned after a while.

Clocks (:mod:`~basra.server.clocks`) are rebuilt from the log's times, and
sent to every client after each snapshot; a finished game (or a rated game a
seat forfeited) is settled once: results and ratings
(:mod:`~basra.server.ratings`) in one store transaction, retried at start if a
crash came between.

Around it: :mod:`~basra.server.presence` (who is connected),
:mod:`~basra.server.queries` (lobby and history), :mod:`~basra.server.forms`
(the create-table form), :mod:`~basra.server.quotas`,
:mod:`~basra.server.identity`, :mod:`~basra.server.accounts` and
:mod:`~basra.server.profiles`.
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
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import replace
from typing import Any

from basra.cards import CARD_NAMES
from basra.moves import Move
from basra.notation import (
    AmbiguousMoveError,
    CaptureNotAllowedError,
    InvalidMoveError,
    MoveTextError,
    NotInHandError,
    parse_move,
)
from basra.server import queries
from basra.server.accounts import Accounts
from basra.server.autopilot import Autopilot
from basra.server.clocks import ClockState
from basra.server.forms import TableSpec
from basra.server.identity import Caller, Identities
from basra.server.live import Client, LiveTable, ServiceConfig
from basra.server.presence import Presence
from basra.server.profiles import ReviewAccuracy, seat_badges
from basra.server.protocol import (
    ProtocolError,
    error_message,
    event_json,
    state_frame,
    table_json,
)
from basra.server.pubsub import Hub, Listener
from basra.server.quotas import Quotas, RateLimitError
from basra.server.ratings import Standings, settle, standings
from basra.server.scheduler import HINT, FairScheduler
from basra.server.store import Event, SeatRow, Status, Store, TableRow
from basra.server.workers import bot_hint, make_executor
from basra.state import PHASE_PLAY, GameError, GameState, shuffled_pack
from basra.view import view_of

__all__ = ["Client", "LiveTable", "MatchService", "MessageHandler", "ServiceConfig"]

log = logging.getLogger(__name__)


MessageHandler = Callable[[Client, dict[str, Any]], Awaitable[None]]
"""Carries out a parsed client message of a type the service leaves to another module."""


def _new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def _pack_text(pack: list[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in pack)


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


def _status_of(state: GameState) -> Status:
    """Where the game stands at the end of a round: over, or still playing."""
    outcome = state.outcome()
    if outcome is not None:
        return Status("over", tuple(state.scores), outcome.winner)
    return Status("playing", tuple(state.scores), None)


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
        self.quotas = Quotas(self.config.limits)
        self.identities = Identities(store, self.quotas)
        self.accounts = Accounts(store, self.identities, self.quotas)
        self.clock = self.config.clock
        self.review_accuracy: ReviewAccuracy | None = None
        """Where profiles read review accuracy from (set by the coach; None: no reviews)."""
        processes, threads = self.config.bot_processes, self.config.bot_threads
        self.scheduler = FairScheduler(
            lambda: make_executor(processes, threads), processes or threads
        )
        self.autopilot = Autopilot(self)
        self.live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        self.moves = 0
        self.message_handlers: dict[str, MessageHandler] = {}
        """Client message types carried out elsewhere (``react``: :mod:`basra.server.reactions`)."""
        self.notice_handlers: dict[str, Listener] = {}
        """Hub notice kinds heard elsewhere (quick play, reactions, the bot API)."""

    # ---------------------------------------------------------------- life

    async def start(self, resume: bool = True) -> None:
        """Open the store and the hub, then resume every table waiting or in play."""
        await self.store.start()
        await self.hub.start(self.origin, self._on_notice)
        if resume:
            for row in await self.store.list_tables(["open", "playing"], limit=100_000):
                try:
                    live = await self._get(row.id)
                    if live is not None:
                        await self._repair(live)
                        self._settle_if_due(live)
                        self.autopilot.schedule(live)
                        self.autopilot.watch_empty(live)
                except Exception:
                    log.exception("cannot resume table %s", row.id)
            await self._settle_unsettled()
        self._heartbeat = asyncio.create_task(self._beat())

    async def close(self) -> None:
        """Stop timers, close client connections, the workers, the hub and the store."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for live in self.live.values():
            for task in (live.timer, live.reaper):
                if task is not None:
                    task.cancel()
            for client in list(live.clients):
                client.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.hub.close()
        await self.store.close()
        await asyncio.to_thread(self.scheduler.shutdown)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a task of the service (cancelled when it closes)."""
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
                state = queries.new_game(row)
                people = tuple(s.seat for s in row.seats if s.kind != "bot")
                live = LiveTable(row, state, 0, Presence.of(people, time.monotonic()))
                live.clock = ClockState.of(row)
                for event in await self.store.events(table_id):
                    live.event = queries.apply_event(state, event)
                    live.version += 1
                    self._observe(live, event)
                if live.clock is not None:
                    live.clock.resume(self.clock.now())
                live.badges = await seat_badges(self.store, row)
                self.live[table_id] = live
                self.autopilot.watch_empty(live)
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
            live.event = queries.apply_event(live.state, event)
            live.version += 1
            self._observe(live, event)
            applied.append(live.event)
        return applied

    async def _repair(self, live: LiveTable) -> None:
        """Mend a status an older server left torn by a crash (the log is the truth)."""
        row, state = live.row, live.state
        if row.status == "playing" and state.is_over:
            status = _status_of(state)
            await self.store.set_status(row.id, status)
            row.status, row.scores, row.winner = status.status, list(status.scores), status.winner
        elif row.status == "open" and all(s.kind == "bot" or s.identity for s in row.seats):
            await self.store.set_status(row.id, Status("playing"))
            row.status = "playing"

    def drop(self, live: LiveTable) -> None:
        """Let a table go from memory (the store keeps it); call with its lock held."""
        live.dropped = True
        for task in (live.timer, live.reaper):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self.live.get(live.row.id) is live:
            del self.live[live.row.id]

    # ---------------------------------------------------------------- HTTP side

    async def create_table(
        self,
        caller: Caller,
        address: str,
        name: str,
        spec: TableSpec,
        seated: Mapping[int, SeatRow] | None = None,
    ) -> TableRow:
        """Create a checked table (see :mod:`basra.server.forms`) within the caller's quotas.

        ``seated`` fills seats beyond the creator's (a bot program's, see
        :mod:`basra.server.botapi`).
        """
        limits = self.quotas.limits
        identity = caller.identity
        # The rates first: they cost nothing to check, the counts below ask the store.
        self.quotas.take("tables", identity, limits.tables_per_identity, "tables per person")
        self.quotas.take("tables", address, limits.tables_per_address, "tables per address")
        await self._check_open_tables(identity, address, spec.all_bots)
        seats = {**(seated or {})}
        if spec.my_seat is not None:
            seats[spec.my_seat] = SeatRow(spec.my_seat, "person", None, identity, name)
        row = self.table_row(spec, seats, identity, address)
        await self.store.create_table(row)
        await self.store.name_identity(identity, name)
        await self.open_table(row)
        return row

    def table_row(
        self,
        spec: TableSpec,
        seated: Mapping[int, SeatRow],
        created_by: str | None,
        created_from: str | None,
    ) -> TableRow:
        """A new table's row: ``seated`` where given, the spec's seats elsewhere; it is
        ``playing`` at once when nobody is left to join."""
        seats = [
            seated.get(index) or SeatRow(index, kind, level)
            for index, (kind, level) in enumerate(spec.seats)
        ]
        row = TableRow(
            id=_new_id(),
            variant=spec.variant,
            rules=spec.overrides,
            players=spec.players,
            teams=spec.teams,
            first_dealer=self.rng.randrange(spec.players),
            hints=spec.hints,
            seats=seats,
            created_at=time.time(),
            created_by=created_by,
            created_from=created_from,
            rated=spec.rated,
            clock_move=spec.clock.move if spec.clock else None,
            clock_reserve=spec.clock.reserve if spec.clock else None,
        )
        if all(s.kind == "bot" or s.identity for s in seats):
            row.status = "playing"
        return row

    async def open_table(self, row: TableRow) -> LiveTable | None:
        """Load a table just stored and start its automatic actions (the first deal)."""
        live = await self._get(row.id)
        if live is not None:
            self.autopilot.schedule(live)
            self.autopilot.watch_empty(live)
        return live

    async def _check_open_tables(self, identity: str, address: str, all_bots: bool) -> None:
        limits = self.quotas.limits
        counts: list[tuple[int, int, str]] = [
            (
                await self.store.count_tables(created_by=identity),
                limits.open_tables_per_identity,
                "open tables per person",
            ),
            (
                await self.store.count_tables(created_from=address),
                limits.open_tables_per_address,
                "open tables per address",
            ),
        ]
        if all_bots:
            counts.append(
                (
                    await self.store.count_tables(created_by=identity, all_bots=True),
                    limits.bot_tables_per_identity,
                    "all-bot tables per person",
                )
            )
            counts.append(
                (
                    await self.store.count_tables(all_bots=True),
                    limits.bot_tables,
                    "all-bot tables on this server",
                )
            )
        for count, cap, what in counts:
            if count >= cap:
                raise RateLimitError(
                    "open_tables",
                    limits.cap_retry,
                    f"{what}: at most {cap} waiting or in play (finish or leave one)",
                )

    async def table_info(self, table_id: str) -> dict[str, Any] | None:
        """The public description of a table (no cards), or None."""
        live = await self._get(table_id)
        if live is None:
            return None
        info = self._table_json(live, None)
        if not live.clients and live.row.status not in ("open", "playing"):
            async with live.lock:
                if not live.clients:
                    self.drop(live)
        return info

    async def sign_out(self, device_ids: list[str]) -> None:
        """Close the connections of signed-out devices, here and in the other processes."""
        self._close_devices(set(device_ids))
        await self.hub.publish({"kind": "revoke", "devices": device_ids})

    def _close_devices(self, devices: set[str]) -> None:
        for live in list(self.live.values()):
            for client in list(live.clients):
                if client.caller is not None and client.caller.device in devices:
                    client.send(
                        error_message(ProtocolError("signed_out", "this device was signed out"))
                    )
                    client.close()

    # ---------------------------------------------------------------- connections

    async def connect(self, client: Client) -> None:
        """Attach a client that said hello; sends it the table and its first snapshot."""
        if client.identity is not None:
            limits = self.quotas.limits
            self.quotas.hold(
                "connections",
                client.identity,
                limits.connections_per_identity,
                "connections per person",
            )
        try:
            live = await self._attach(client)
        except BaseException:
            if client.identity is not None:
                self.quotas.release("connections", client.identity)
            raise
        if client.seat is not None:
            await self._publish_presence(live)
            self.autopilot.schedule(live)

    async def _attach(self, client: Client) -> LiveTable:
        while True:
            live = await self._get(client.table_id)
            if live is None:
                raise ProtocolError("no_such_table", f"there is no table {client.table_id!r}")
            async with live.lock:
                if live.dropped:  # let go while we waited for the lock: load it again
                    continue
                await self._catch_up(live)
                client.seat = next(
                    (
                        s.seat
                        for s in live.row.seats
                        if s.identity and s.identity == client.identity
                    ),
                    None,
                )
                if live.row.daily and client.seat is None:  # its cards are the day's secret
                    raise ProtocolError("private_table", "a daily deal attempt cannot be watched")
                live.clients.add(client)
                live.presence.arrive(client.seat)
                self.autopilot.watch_empty(live)
                client.send({"type": "table", "table": self._table_json(live, client.seat)})
                client.send(state_frame(live.state, live.version, client.seat, None))
                if live.clock is not None:
                    client.send(live.clock.message(live.version, self.clock.now()))
                if client.seat is not None:
                    self.send_table(live, exclude=client)
                return live

    async def disconnect(self, client: Client) -> None:
        """Detach a client (its connection closed)."""
        client.close()
        if client.identity is not None:
            self.quotas.release("connections", client.identity)
        live = self.live.get(client.table_id)
        if live is None:
            return
        async with live.lock:
            if client not in live.clients:
                return
            live.clients.discard(client)
            live.presence.leave(client.seat, time.monotonic())
            if not live.clients and live.row.status not in ("open", "playing"):
                self.drop(live)  # nothing runs at a finished table: let it go
                return
            self.autopilot.watch_empty(live)
            if client.seat is not None:
                self.send_table(live)
        if client.seat is not None:
            await self._publish_presence(live)
            self.autopilot.schedule(live)

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
            elif kind in self.message_handlers:
                await self.message_handlers[kind](client, message)
        except ProtocolError as error:
            client.send(error_message(error))

    def _live(self, client: Client) -> LiveTable:
        live = self.live.get(client.table_id)
        if live is None or client not in live.clients:
            raise ProtocolError("no_such_table", "this table was closed: connect again")
        return live

    # ---------------------------------------------------------------- actions

    async def _join(self, client: Client, seat: int, name: str | None) -> None:
        live = self._live(client)
        if client.caller is None:
            raise ProtocolError("signed_out", "sign in (say hello with a token) to take a seat")
        identity = client.caller.identity
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
            if row.identity is not None:
                raise ProtocolError("seat_taken", f"seat {seat} is taken")
            if live.row.status != "open":
                raise ProtocolError("not_open", "this table no longer takes people")
            claim = await self.store.claim_seat(live.row.id, seat, identity, name)
            if not claim.seated:
                await self._reload_row(live)
                raise ProtocolError("seat_taken", f"seat {seat} was just taken")
            live.row.seats[seat] = replace(row, identity=identity, name=name)
            if claim.started:
                live.row.status = "playing"
            live.badges = await seat_badges(self.store, live.row)
            client.name = name
            for other in live.clients:
                if other.identity == identity and other.seat is None:
                    other.seat = seat
                    live.presence.move(seat)
            self.send_table(live)
            for other in live.clients:
                if other.identity == identity:
                    other.send(state_frame(live.state, live.version, seat, None))
        await self.store.name_identity(identity, name)
        await self.hub.publish({"kind": "meta", "table": live.row.id})
        await self._publish_presence(live)
        self.autopilot.schedule(live)

    async def _rename(self, client: Client, name: str) -> None:
        live = self._live(client)
        client.name = name
        if client.seat is None or client.caller is None:
            return
        identity = client.caller.identity
        async with live.lock:
            await self.store.rename(live.row.id, client.seat, identity, name)
            live.row.seats[client.seat] = replace(live.row.seats[client.seat], name=name)
            self.send_table(live)
        await self.store.name_identity(identity, name)
        await self.hub.publish({"kind": "meta", "table": live.row.id})

    def _check_turn(self, live: LiveTable, client: Client, version: int) -> int:
        seat = client.seat
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot play: take an open seat first")
        if live.row.status != "playing" or live.state.phase != PHASE_PLAY:
            what = "the game is over" if live.state.is_over else "no round is being played"
            if live.row.status == "abandoned":
                what = "the table was abandoned"
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
        if live.clock is not None and seat in live.clock.forfeited:
            raise ProtocolError("forfeited", "this seat forfeited the game: a bot plays it")
        return seat

    async def _move(self, client: Client, text: str, version: int) -> None:
        live = self._live(client)
        async with live.lock:
            seat = self._check_turn(live, client, version)
            try:
                move = parse_move(live.state, text)
            except MoveTextError as exc:
                raise ProtocolError("bad_move", str(exc), _move_error_extra(exc)) from None
            except GameError as exc:
                raise ProtocolError("bad_move", str(exc), {"reason": "illegal"}) from None
            await self.commit_play(live, seat, move)

    async def commit_play(
        self, live: LiveTable, seat: int, move: Move, auto: str | None = None
    ) -> None:
        """Apply, store (with the status it leads to), then send; the table's lock is held.

        ``auto`` says why the server made a person's play (see :mod:`basra.server.clocks`).
        """
        state = live.state
        state.push(move)
        play = state.rounds[-1].plays[-1]
        status = _status_of(state) if state.phase != PHASE_PLAY else None
        event = Event(live.version, "play", move.text(), self.clock.now(), auto)
        try:
            stored = await self.store.append_event(live.row.id, event, status)
        except Exception:
            state.pop()
            log.exception("storing a play at table %s failed", live.row.id)
            raise ProtocolError("storage", "the move could not be stored; try again") from None
        if not stored:
            state.pop()
            if await self._catch_up(live):
                self._broadcast_state(live)
            raise ProtocolError("stale", "another action came first", {"version": live.version})
        live.version += 1
        self.moves += 1
        live.event = event_json("play", state.round_index, seat, move.text(), play.basra)
        if auto is not None:
            live.event["auto"] = auto
        forfeit = self._observe(live, event)
        if status is not None:
            row = live.row
            row.status, row.scores, row.winner = status.status, list(status.scores), status.winner
        if forfeit is not None or (status is not None and status.status == "over"):
            self.send_table(live)
        self._broadcast_state(live)
        self._settle_if_due(live)
        await self.hub.publish({"kind": "events", "table": live.row.id, "version": live.version})
        self.autopilot.schedule(live)

    async def deal(self, live: LiveTable) -> None:
        """Deal the next round (the table's lock is held)."""
        state = live.state
        pack = shuffled_pack(state.rules, random.Random(self.rng.getrandbits(64)))
        event = Event(live.version, "deal", _pack_text(pack), self.clock.now())
        if not await self.store.append_event(live.row.id, event):
            if await self._catch_up(live):
                self._broadcast_state(live)
            return
        state.deal(pack)
        live.version += 1
        live.event = event_json("deal", state.round_index)
        self._observe(live, event)
        self._broadcast_state(live)
        await self.hub.publish({"kind": "events", "table": live.row.id, "version": live.version})

    async def _hint(self, client: Client, version: int) -> None:
        """Start working out a hint for the client's seat (one at a time per seat)."""
        live = self._live(client)
        if not live.row.hints:
            raise ProtocolError("hints_off", "this table was created without hints")
        async with live.lock:
            seat = self._check_turn(live, client, version)
            if seat in live.hinting:
                raise ProtocolError("hint_pending", "a hint for this seat is being worked out")
            if client.identity is not None:
                limits = self.quotas.limits
                self.quotas.take("hints", client.identity, limits.hints_per_identity, "hints")
            view = view_of(live.state, seat)
            live.hinting.add(seat)
        task = asyncio.create_task(self._work_out_hint(live, client, seat, version, view))
        client.tasks.add(task)
        task.add_done_callback(client.tasks.discard)

    async def _work_out_hint(
        self, live: LiveTable, client: Client, seat: int, version: int, view: Any
    ) -> None:
        try:
            samples = self.config.hint_samples
            suggestion = await self.scheduler.run(live.row.id, HINT, bot_hint, view, samples)
        except asyncio.CancelledError:
            return  # the client left: the scheduler drops the work
        except Exception:
            log.exception("a hint at table %s failed", live.row.id)
            client.send(error_message(ProtocolError("hint_failed", "no hint this time")))
            return
        finally:
            live.hinting.discard(seat)
        if client.closed or live.version != version:
            return  # too late: nobody can use it
        move = suggestion.move
        client.send(
            {
                "type": "hint",
                "version": version,
                "move": move.text(),
                "card": CARD_NAMES[move.card],
                "take": [CARD_NAMES[c] for c in move.taken()],
                "reason": suggestion.reason,
                "facts": suggestion.facts_json(),
            }
        )

    async def _rematch(self, client: Client) -> None:
        live = self._live(client)
        if client.seat is None:
            raise ProtocolError("not_seated", "only the players can ask for a rematch")
        async with live.lock:
            if not live.state.is_over:
                raise ProtocolError("not_over", "a rematch comes after the game")
            if live.row.daily:
                raise ProtocolError("no_rematch", "the daily deal is played once a day")
            row = live.row
            if row.rematch_id is None:
                new_id = hashlib.sha256(f"rematch:{row.id}".encode()).hexdigest()[:10]
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
                    created_by=client.identity,
                    created_from=client.address,
                    fault=None,
                    settled_at=None,
                )
                with contextlib.suppress(ValueError):  # another process made it first
                    await self.store.create_table(new_row)
                row.rematch_id = await self.store.set_rematch(row.id, new_id)
                created = True
            else:
                created = False
            for other in live.clients:
                other.send({"type": "rematch", "table": row.rematch_id})
            self.send_table(live)
        if created:
            await self.hub.publish({"kind": "meta", "table": row.id})
            rematch = await self._get(row.rematch_id)
            if rematch is not None:
                self.autopilot.schedule(rematch)
                self.autopilot.watch_empty(rematch)

    # ---------------------------------------------------------------- clocks and results

    def _observe(self, live: LiveTable, event: Event) -> int | None:
        """Run the table's clocks on an event just applied (``live.event`` describes it);
        returns a seat that forfeited by it."""
        clock = live.clock
        if clock is None:
            return None
        state = live.state
        seat = live.event.get("seat") if live.event and event.kind == "play" else None
        next_turn = state.turn if state.phase == PHASE_PLAY else None
        at = event.at if event.at is not None else self.clock.now()
        return clock.observe(event.kind, seat, at, event.auto, next_turn)

    def _settle_if_due(self, live: LiveTable) -> asyncio.Task[Any] | None:
        """Start settling a game that ended (or a rated game a seat forfeited), once."""
        row = live.row
        if row.settled_at is not None or live.settling:
            return None
        forfeited = live.clock.forfeited if row.rated and live.clock is not None else []
        if not live.state.is_over and not forfeited:
            return None
        live.settling = True
        return self.spawn(self._settle(live, standings(row, live.state, forfeited)))

    async def _settle(self, live: LiveTable, game: Standings) -> None:
        """Record the results and ratings, then show the new ratings at the table."""
        now = self.clock.now()
        try:
            await self.store.settle_game(
                game.table_id,
                game.family,
                game.kind,
                game.identities,
                now,
                lambda current: settle(game, current, now),
            )
        except Exception:
            live.settling = False  # tried again when the table is next loaded
            log.exception("settling table %s failed", game.table_id)
            return
        async with live.lock:
            live.row.settled_at = live.row.settled_at or now
            live.badges = await seat_badges(self.store, live.row)
            self.send_table(live)
        await self.hub.publish({"kind": "meta", "table": live.row.id})

    async def _settle_unsettled(self) -> None:
        """Settle finished games a crash left unsettled (between the last play and settling)."""
        for table_id in await self.store.unsettled_tables():
            try:
                live = await self._get(table_id)
                task = self._settle_if_due(live) if live is not None else None
                if task is not None:
                    await task
                if live is not None and not live.clients:
                    async with live.lock:
                        if not live.clients:
                            self.drop(live)
            except Exception:
                log.exception("cannot settle table %s", table_id)

    # ---------------------------------------------------------------- fan-out

    def _broadcast_state(self, live: LiveTable) -> None:
        """Send every client here a snapshot from its own seat's view (spectators: public)."""
        cache: dict[int | None, str] = {}
        for client in list(live.clients):
            if client.closed:
                continue
            text = cache.get(client.seat)
            if text is None:
                text = cache[client.seat] = state_frame(
                    live.state, live.version, client.seat, live.event
                )
            client.send(text)
        if live.clock is not None:
            clock = json.dumps(live.clock.message(live.version, self.clock.now()))
            for client in list(live.clients):
                client.send(clock)

    def send_table(self, live: LiveTable, exclude: Client | None = None) -> None:
        """Send every client here the table's description (seats, presence, status)."""
        for client in list(live.clients):
            if client is not exclude:
                client.send({"type": "table", "table": self._table_json(live, client.seat)})

    def _table_json(self, live: LiveTable, you: int | None) -> dict[str, Any]:
        out = table_json(live.row)
        now = time.monotonic()
        presence = live.presence
        for seat in out["seats"]:
            if seat["kind"] != "bot" and not seat["open"]:  # people, and bot programs
                present = presence.present(seat["seat"], now)
                seat["present"] = present
                seat["stand_in"] = (
                    not present
                    and now - presence.absent_since.get(seat["seat"], now) >= self.config.grace
                )
        out["you"] = you
        out["spectators"] = sum(1 for c in live.clients if c.seat is None)
        out["version"] = live.version
        out["rated"] = live.row.rated
        out["daily"] = live.row.daily
        out["clock"] = live.clock.control.to_json() if live.clock is not None else None
        forfeited = live.clock.forfeited if live.clock is not None else []
        for seat in out["seats"]:
            seat.update(live.badges.get(seat["seat"], {}))
            seat["forfeited"] = seat["seat"] in forfeited
        return out

    # ---------------------------------------------------------------- other processes

    async def _publish_presence(self, live: LiveTable) -> None:
        await self.hub.publish({"kind": "presence", "table": live.row.id, **live.presence.report()})

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.config.heartbeat)
            for live in list(self.live.values()):
                if live.clients:
                    with contextlib.suppress(Exception):
                        await self._publish_presence(live)
                # Another process's report may have run out: nobody may be left.
                self.autopilot.watch_empty(live)

    async def _reload_row(self, live: LiveTable) -> None:
        row = await self.store.load_table(live.row.id)
        if row is not None:
            live.row = row

    async def _on_notice(self, notice: dict[str, Any]) -> None:
        """A notice from another process: catch up and tell our clients."""
        handler = self.notice_handlers.get(str(notice.get("kind")))
        if handler is not None:
            await handler(notice)
            return
        if notice.get("kind") == "revoke":
            devices = notice.get("devices")
            if isinstance(devices, list):
                self._close_devices({d for d in devices if isinstance(d, str)})
            return
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
                        self.send_table(live)
                    self._broadcast_state(live)
            self.autopilot.schedule(live)
        elif kind == "meta":
            async with live.lock:
                await self._reload_row(live)
                live.badges = await seat_badges(self.store, live.row)
                for client in live.clients:
                    if client.seat is None and client.identity is not None:
                        mine = next(
                            (s.seat for s in live.row.seats if s.identity == client.identity),
                            None,
                        )
                        if mine is not None:
                            client.seat = mine
                            live.presence.move(mine)
                            client.send(state_frame(live.state, live.version, mine, None))
                if live.row.rematch_id:
                    for client in live.clients:
                        client.send({"type": "rematch", "table": live.row.rematch_id})
                self.send_table(live)
                if live.row.status not in ("open", "playing") and not live.clients:
                    self.drop(live)
            self.autopilot.schedule(live)
        elif kind == "presence":
            counts, total, origin = notice.get("counts"), notice.get("total"), notice.get("origin")
            if not isinstance(counts, dict) or not isinstance(origin, str):
                return
            now = time.monotonic()
            live.presence.hear(
                origin,
                {int(k): int(v) for k, v in counts.items()},
                int(total) if isinstance(total, int) else sum(counts.values()),
                now + self.config.presence_ttl,
                now,
            )
            self.autopilot.watch_empty(live)
            self.send_table(live)
            self.autopilot.schedule(live)
