"""The table master: the only writer of a table's log. Check, apply, append, then fan out.

This is the boardgame.io "master" of STYLE.md, and lichess's ``MovePlayer``: a
person's move, a bot's, a stand-in's and a bot program's all go through
:meth:`TableMaster.play`, which applies it to the game, appends it to the
store's log (with the status it leads to, in one transaction), and only then
sends each client here the snapshot of its own seat
(:mod:`basra.server.table.frames`), one value per seat per version.
:meth:`TableMaster.check_turn` is the one check of seat, turn, state version and
forfeit; :meth:`TableMaster.deal` deals the next round.

A table's game lives in memory as a :class:`~basra.state.GameState` replayed
from the log (:mod:`basra.server.table.reducer`), so a restarted process
resumes every game. With several processes each keeps its own copy, kept in step
by notices on the hub (:mod:`basra.server.table.peers`: ``events``, ``meta``,
``presence``); a write that loses the race for a step is refused by the store,
and a copy that cannot catch up or disagrees with the log is replayed from it
(:meth:`TableMaster.rebuild`). Clocks (:mod:`~basra.server.table.clocks`) are
rebuilt from the log's times and sent after each snapshot. Only the table's
owner (:mod:`~basra.server.table.ownership`) plans its automatic actions; the
others store the moves their people send.

The master decides nothing about a table's life: it tells its
:class:`TableListener` (the lifecycle, :mod:`basra.server.table.lifecycle`)
when presence changed and when a play was stored, and its
:class:`~basra.server.table.autopilot.Autopilot` plans the automatic actions
(deals, bots, stand-ins, timeouts).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from basra.moves import Move
from basra.notation import (
    MoveTextError,
    move_error_details,
    parse_move,
)
from basra.server.connection import Frame, Outgoing
from basra.server.errors import ProtocolError
from basra.server.runtime.pubsub import Bus
from basra.server.runtime.scheduler import FairScheduler
from basra.server.store.protocols import LeaseStore, PlayerStore, TableStore
from basra.server.store.rows import SeatKind, TableRow, TableStatus
from basra.server.table.autopilot import Autopilot
from basra.server.table.clocks import ClockState, PauseSource
from basra.server.table.disclosure import may_watch, shows_score, watch_refusal
from basra.server.table.frames import (
    StateFrame,
    describe_table,
    presence_of,
    seat_badges,
    state_frame,
)
from basra.server.table.live import Client, LiveTable, ServiceConfig, TableCounts
from basra.server.table.ownership import Ownership
from basra.server.table.peers import Peers
from basra.server.table.presence import Presence
from basra.server.table.reducer import (
    EventKind,
    apply_event,
    deal_event,
    describe,
    new_game,
    play,
)
from basra.state import PHASE_PLAY, GameError, shuffled_pack

__all__ = ["BadgeSource", "PackSource", "TableListener", "TableMaster", "TurnListener", "YourTurn"]

log = logging.getLogger(__name__)


class TableListener(Protocol):
    """What the master tells about a table's life (the lifecycle listens)."""

    def presence_changed(self, live: LiveTable) -> None:
        """Who is connected changed, or may have (a report from elsewhere ran out)."""

    def played(self, live: LiveTable) -> None:
        """A play was stored: the game may be decided (over, or a rated seat forfeited)."""


@dataclass(frozen=True)
class YourTurn:
    """It became a person's turn at a turn-based table (told to each :data:`TurnListener`)."""

    table_id: str
    identity: str
    seat: int
    version: int
    """The table's version: the move is expected at it."""
    deadline: float | None
    """When their clock runs out (seconds since the epoch)."""


TurnListener = Callable[[YourTurn], Awaitable[None]]
"""Told, once in the process that stored the step, when it becomes a person's turn at a
turn-based table (notifications and Web Push connect here: :meth:`TableMaster.on_turn`)."""


class PackSource(Protocol):
    """Where a table's packs come from when not shuffled by the server."""

    def __call__(self, row: TableRow, round_index: int) -> Sequence[int] | None:
        """The pack (top card first) of round ``round_index`` (0 first) of this table,
        or None: the server shuffles it."""


BadgeSource = Callable[[TableRow], Awaitable[dict[int, dict[str, Any]]]]
"""A feature's addition to what each seat of a table shows: ``{seat: {field: value}}``."""


class TableMaster:
    """The live tables of this process: loading, the log's one writer, and fan-out."""

    def __init__(
        self,
        tables: TableStore,
        players: PlayerStore,
        bus: Bus,
        scheduler: FairScheduler,
        config: ServiceConfig | None = None,
        *,
        origin: str | None = None,
        rng: random.Random | None = None,
        leases: LeaseStore | None = None,
    ) -> None:
        self.tables = tables
        self.players = players
        self.bus = bus
        self.config = config or ServiceConfig()
        self.clock = self.config.clock
        self.scheduler = scheduler
        self.origin = origin or uuid.uuid4().hex[:12]
        self.rng = rng or random.SystemRandom()
        self.ownership = Ownership(
            leases,
            bus,
            self.origin,
            ttl=self.config.owner_ttl,
            every=self.config.owner_renew,
        )
        """Which tables this process drives (all of them without ``leases``)."""
        self.autopilot = Autopilot(self)
        self.rebuilt = 0
        """Copies replayed from the log because they fell behind or disagreed."""
        self.live: dict[str, LiveTable] = {}
        self.moves = 0
        self.pack_sources: list[PackSource] = []
        """Where packs come from, asked in order before the server shuffles one."""
        self.badge_sources: list[BadgeSource] = []
        """Features that add to what each seat shows (reputation's share finished), each
        asked once per table (not once per seat) when the seats' badges are read."""
        self._listener: TableListener | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.peers = Peers(self, bus)
        """The other processes: what they are told of the tables here, what is heard."""
        self.pauses: PauseSource | None = None
        """Where turn-based clocks read their people's vacations (none: clocks never stop)."""
        self.turn_listeners: list[TurnListener] = []
        """Told when it becomes a person's turn at a turn-based table (:meth:`on_turn`)."""

    def on_turn(self, listener: TurnListener) -> None:
        """Tell ``listener`` each time it becomes a person's turn at a turn-based table
        (once per step, in the process that stored it; a failing listener is logged)."""
        self.turn_listeners.append(listener)

    def _tell_turn(self, live: LiveTable) -> None:
        """After a stored step: tell the turn listeners if a person is to move now at a
        turn-based table."""
        clock = live.clock
        if not self.turn_listeners or clock is None or not clock.control.turn_based:
            return
        if clock.turn is None or live.row.status != TableStatus.PLAYING:
            return
        identity = live.row.seats[clock.turn].identity
        if identity is None:
            return
        turn = YourTurn(live.id, identity, clock.turn, live.version, clock.deadline())
        for listener in list(self.turn_listeners):
            self.spawn(self._told(listener, turn))

    @staticmethod
    async def _told(listener: TurnListener, turn: YourTurn) -> None:
        try:
            await listener(turn)
        except Exception:
            log.exception("a turn listener failed for table %s", turn.table_id)

    async def refresh_pauses(self, live: LiveTable) -> None:
        """Read the pauses (vacations) of a turn-based table's people again (lock held)."""
        clock = live.clock
        if clock is None or not clock.control.turn_based or self.pauses is None:
            return
        seats = {s.identity: s.seat for s in live.row.seats if s.identity is not None}
        found = await self.pauses(list(seats)) if seats else {}
        clock.pauses = {seats[who]: spans for who, spans in found.items() if who in seats}

    async def pauses_changed(self, identity: str) -> None:
        """A person's vacation changed: their turn-based tables here read it again, show
        their clocks anew and plan their timeouts again."""
        for live in list(self.live.values()):
            clock = live.clock
            if clock is None or not clock.control.turn_based:
                continue
            if live.row.seat_of(identity) is None:
                continue
            async with live.lock:
                await self.refresh_pauses(live)
                message = Frame(clock.message(live.version, self.clock.now()))
                for client in list(live.clients):
                    client.send(message)
                if live.plan is not None and live.plan[0] == "timeout":
                    live.plan = None
            self.autopilot.schedule(live)

    def listen(self, listener: TableListener) -> None:
        """Tell ``listener`` of presence changes and plays (the lifecycle, once)."""
        self._listener = listener

    def deal_with(self, source: PackSource) -> None:
        """Ask ``source`` for packs before shuffling one (sources are asked in order)."""
        self.pack_sources.append(source)

    def schedule(self, live: LiveTable) -> None:
        """Plan the table's next automatic action (a deal, a bot's move, a stand-in), if
        this process owns the table."""
        self.autopilot.schedule(live)

    def stand_in(self, live: LiveTable, seat: int) -> None:
        """Let a stand-in play ``seat`` from now on, with no grace period (its person left for
        good); call with the table's lock held, then :meth:`schedule` (planned again: a
        stand-in planned after the grace comes sooner now)."""
        live.presence.gone(seat)
        live.plan = None

    def counts(self) -> TableCounts:
        """How many tables this process holds and drives, and the moves made here."""
        return TableCounts(
            len(self.live), len(self.ownership.owned), self.moves, self.autopilot.decisions
        )

    def owns(self, table_id: str) -> bool:
        """Whether this process drives the table's clocks, stand-ins and bots."""
        return self.ownership.owns(table_id)

    def stop_driving(self, live: LiveTable) -> None:
        """Cancel the table's planned automatic action and its abandon timer here (another
        process owns it now; call with its lock held, so no play is half stored)."""
        current = asyncio.current_task()
        for task in (live.timer, live.reaper):
            if task is not None and task is not current:
                task.cancel()
        live.timer = live.reaper = None
        live.plan = None

    # ---------------------------------------------------------------- life

    def start(self) -> None:
        """Start the presence heartbeat (the hub is started)."""
        self.peers.start()

    async def close(self) -> None:
        """Stop timers and tasks, and close every client's connection."""
        await self.ownership.close()
        self.peers.stop()
        for live in self.live.values():
            for task in (live.timer, live.reaper):
                if task is not None:
                    task.cancel()
            for client in list(live.clients):
                client.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a task of the tables (cancelled when the master closes)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def presence_changed(self, live: LiveTable) -> None:
        """Pass a change of presence on to the listener."""
        if self._listener is not None:
            self._listener.presence_changed(live)

    # ---------------------------------------------------------------- loading

    async def get(self, table_id: str, row: TableRow | None = None) -> LiveTable | None:
        """The live table, loaded from the store and replayed on first use (``row``: the
        table just stored, so it is not read back)."""
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
                row = row.copy() if row is not None else await self.tables.load(table_id)
                if row is None:
                    return None
                people = tuple(s.seat for s in row.seats if s.kind != SeatKind.BOT)
                live = LiveTable(row, new_game(row), 0, Presence.of(people, time.monotonic()))
                await self._replay(live, row)
                live.badges = await self._badges(row)
                self.live[table_id] = live
                self.presence_changed(live)
                return live
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)

    async def _replay(self, live: LiveTable, row: TableRow) -> None:
        """Make ``live``'s game, version and clocks anew from ``row`` and its stored log."""
        live.row = row
        live.state = state = new_game(row)
        live.version, live.event = 0, None
        live.clock = ClockState.of(row)
        for event in await self.tables.events(row.id):
            live.event = apply_event(state, event)
            live.version += 1
            self._observe(live, event.kind, event.at, event.auto)
        await self.refresh_pauses(live)
        if live.clock is not None:
            live.clock.resume(self.clock.now())

    async def catch_up(self, live: LiveTable) -> bool:
        """Apply events other processes stored (the table's lock is held); True if any.

        A copy the log's next events do not fit (one fails to apply, or they leave a
        gap) is rebuilt from the log (:meth:`rebuild`)."""
        caught = False
        try:
            for event in await self.tables.events(live.id, since=live.version):
                if event.seq != live.version:
                    raise GameError(f"the log's step {event.seq} is not at {live.version}")
                live.event = apply_event(live.state, event)
                live.version += 1
                self._observe(live, event.kind, event.at, event.auto)
                caught = True
        except (GameError, ValueError) as error:  # ValueError: move text that does not parse
            await self.rebuild(live, f"could not catch up ({type(error).__name__}: {error})")
            return True
        return caught

    async def rebuild(self, live: LiveTable, why: str) -> None:
        """Replace this process's copy of a table (behind the log, or disagreeing with it)
        by one replayed from the log, say so in one log line, and send every client here
        the table as the log has it (the table's lock is held)."""
        before = live.version
        row = await self.tables.load(live.id)
        if row is None:
            return
        await self._replay(live, row)
        self.rebuilt += 1
        log.warning(
            "table %s: this process's copy at version %d %s; rebuilt from the log at version %d",
            live.id,
            before,
            why,
            live.version,
        )
        if self.owns(live.id):
            live.plan = None  # plan again from where the log stands
        self.send_table(live)
        self.broadcast_state(live)

    def drop(self, live: LiveTable) -> None:
        """Let a table go from memory (the store keeps it); call with its lock held."""
        live.dropped = True
        for task in (live.timer, live.reaper):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self.live.get(live.id) is live:
            del self.live[live.id]

    async def reload_row(self, live: LiveTable) -> None:
        """Read the table's row again (another process changed its seats or status)."""
        row = await self.tables.load(live.id)
        if row is not None:
            live.row = row

    # ---------------------------------------------------------------- the log's one writer

    def check_turn(self, live: LiveTable, seat: int | None, version: int) -> int:
        """The seat, if it may act at ``version`` now; else the refusal, in words."""
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot play: take an open seat first")
        if live.row.status != TableStatus.PLAYING or live.state.phase != PHASE_PLAY:
            what = "the game is over" if live.state.is_over else "no round is being played"
            if live.row.status == TableStatus.ABANDONED:
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

    async def play_text(self, live: LiveTable, seat: int | None, text: str, version: int) -> None:
        """A move sent as text by a person or a bot program: checked, then played."""
        async with live.lock:
            checked = self.check_turn(live, seat, version)
            try:
                move = parse_move(live.state, text)
            except MoveTextError as exc:
                raise ProtocolError("bad_move", str(exc), move_error_details(exc)) from None
            except GameError as exc:
                raise ProtocolError("bad_move", str(exc), {"reason": "illegal"}) from None
            await self.play(live, checked, move)

    async def play(self, live: LiveTable, seat: int, move: Move, auto: str | None = None) -> None:
        """Apply, store (with the status it leads to), then send; the table's lock is held.

        ``auto`` says why the server made a person's play (see :mod:`basra.server.table.clocks`).
        """
        state = live.state
        step = play(state, live.version, move, self.clock.now(), auto)
        status = step.status
        try:
            stored = await self.tables.append(live.id, step.event, status)
        except Exception:
            state.pop()
            log.exception("storing a play at table %s failed", live.id)
            raise ProtocolError("storage", "the move could not be stored; try again") from None
        if not stored:
            state.pop()
            if await self.catch_up(live):
                self.broadcast_state(live)
            else:  # the log has this step already, yet nothing newer than this copy
                await self.rebuild(live, "is ahead of the log")
            raise ProtocolError("stale", "another action came first", {"version": live.version})
        live.version += 1
        self.moves += 1
        live.event = step.info
        forfeit = self._observe(live, step.event.kind, step.event.at, auto, seat)
        if status is not None:
            live.row.set_status(status)
        if forfeit is not None or (status is not None and status.status == TableStatus.OVER):
            self.send_table(live)
        self.broadcast_state(live)
        if self._listener is not None:
            self._listener.played(live)
        self._tell_turn(live)
        await self.peers.publish_events(live)
        self.autopilot.schedule(live)

    async def deal(self, live: LiveTable) -> None:
        """Deal the next round (the table's lock is held): a pack source's, or shuffled."""
        state = live.state
        pack: Sequence[int] | None = None
        for source in self.pack_sources:
            pack = source(live.row, state.round_index + 1)  # the round about to be dealt
            if pack is not None:
                break
        if pack is None:
            pack = shuffled_pack(state.rules, random.Random(self.rng.getrandbits(64)))
        event = deal_event(live.version, pack, self.clock.now())
        if not await self.tables.append(live.id, event):
            if await self.catch_up(live):
                self.broadcast_state(live)
            else:
                await self.rebuild(live, "is ahead of the log")
            return
        state.deal(list(pack))
        live.version += 1
        live.event = describe(EventKind.DEAL, state.round_index)
        self._observe(live, event.kind, event.at, None)
        self.broadcast_state(live)
        self._tell_turn(live)
        await self.peers.publish_events(live)

    def _observe(
        self,
        live: LiveTable,
        kind: str,
        at: float | None,
        auto: str | None,
        seat: int | None = None,
    ) -> int | None:
        """Run the table's clocks on an event just applied, and note a play the server made
        for a person (:attr:`LiveTable.autos`); returns a seat that forfeited."""
        state = live.state
        if live.autos_round != state.round_index:
            live.autos, live.autos_round = {}, state.round_index
        if kind == EventKind.PLAY and auto is not None and state.rounds:
            live.autos[len(state.rounds[-1].plays) - 1] = auto
        clock = live.clock
        if clock is None:
            return None
        if kind == EventKind.PLAY and seat is None and live.event is not None:
            seat = live.event.get("seat")
        next_turn = state.turn if state.phase == PHASE_PLAY else None
        when = at if at is not None else self.clock.now()
        return clock.observe(kind, seat if kind == EventKind.PLAY else None, when, auto, next_turn)

    # ---------------------------------------------------------------- clients

    async def connect(self, client: Client) -> LiveTable:
        """Attach a client that said hello; sends it the table and its first snapshot."""
        while True:
            live = await self.get(client.table_id)
            if live is None:
                raise ProtocolError("no_such_table", f"there is no table {client.table_id!r}")
            async with live.lock:
                if live.dropped:  # let go while we waited for the lock: load it again
                    continue
                await self.catch_up(live)
                client.seat = live.row.seat_of(client.identity)
                if not may_watch(live.row, client.seat):  # its cards are a secret still
                    raise watch_refusal(live.row)
                live.clients.add(client)
                live.presence.arrive(client.seat)
                self.presence_changed(live)
                client.send({"type": "table", "table": self.table_json(live, client.seat)})
                client.send(self.snapshot(live, client.seat, fresh=True))
                if live.clock is not None:
                    client.send(live.clock.message(live.version, self.clock.now()))
                if client.seat is not None:
                    self.send_table(live, exclude=client)
                break
        if client.seat is not None:
            await self.peers.publish_presence(live)
            self.autopilot.schedule(live)
        return live

    async def disconnect(self, client: Client) -> None:
        """Detach a client (its connection closed)."""
        client.close()
        live = self.live.get(client.table_id)
        if live is None:
            return
        async with live.lock:
            if client not in live.clients:
                return
            live.clients.discard(client)
            live.presence.leave(client.seat, time.monotonic())
            if not live.clients and (not live.row.status.live or not self.owns(live.id)):
                self.drop(live)  # nothing runs here at a finished table, or one driven elsewhere
                return
            self.presence_changed(live)
            if client.seat is not None:
                self.send_table(live)
        if client.seat is not None:
            await self.peers.publish_presence(live)
            self.autopilot.schedule(live)

    def live_of(self, client: Client) -> LiveTable:
        """The table a client is attached to, or ``no_such_table``."""
        live = self.live.get(client.table_id)
        if live is None or client not in live.clients:
            raise ProtocolError("no_such_table", "this table was closed: connect again")
        return live

    def seat_client(self, live: LiveTable, identity: str, seat: int) -> None:
        """Move the watching connections of ``identity`` here into ``seat`` (it just sat down),
        then send everyone the table and them their seat's snapshot (the lock is held)."""
        for client in live.clients:
            if client.identity == identity and client.seat is None:
                client.seat = seat
                live.presence.move(seat)
        self.send_table(live)
        for client in live.clients:
            if client.identity == identity:
                client.send(self.snapshot(live, seat, fresh=True))

    # ---------------------------------------------------------------- fan-out

    def snapshot(self, live: LiveTable, seat: int | None, *, fresh: bool = False) -> StateFrame:
        """The snapshot of ``seat`` at the table's version (``fresh``: without the event
        that led there, for a client just arrived)."""
        event = None if fresh else live.event
        return state_frame(live.state, live.version, seat, event, live.deadline(), live.autos)

    def broadcast_state(self, live: LiveTable) -> None:
        """Send every client here the snapshot of its own seat (spectators: the public one),
        each seat's made once."""
        made: dict[int | None, StateFrame] = {}
        for client in list(live.clients):
            if client.closed:
                continue
            frame = made.get(client.seat)
            if frame is None:
                frame = made[client.seat] = self.snapshot(live, client.seat)
            client.send(frame)
        if live.clock is not None:
            clock = Frame(live.clock.message(live.version, self.clock.now()))
            for client in list(live.clients):
                client.send(clock)

    def send_table(self, live: LiveTable, exclude: Client | None = None) -> None:
        """Send every client here the table's description (seats, presence, status)."""
        made: dict[int | None, Frame] = {}
        for client in list(live.clients):
            if client is exclude:
                continue
            frame = made.get(client.seat)
            if frame is None:
                table = self.table_json(live, client.seat)
                frame = made[client.seat] = Frame({"type": "table", "table": table})
            client.send(frame)

    def deliver(self, table_id: str, message: Outgoing) -> None:
        """Send a message to every client of a table here (a reaction, say)."""
        live = self.live.get(table_id)
        if live is not None:
            for client in list(live.clients):
                client.send(message)

    def clients_at(self, table_id: str) -> list[Client]:
        """The clients of a table here that are still open (table talk picks its readers)."""
        live = self.live.get(table_id)
        return [c for c in live.clients if not c.closed] if live is not None else []

    def table_json(self, live: LiveTable, you: int | None) -> dict[str, Any]:
        """The table's description as seat ``you`` gets it."""
        out = describe_table(live.row, live.rules)
        grace = math.inf if live.turn_based else self.config.grace  # away is expected there
        present = presence_of(live.row, live.presence, time.monotonic(), grace)
        forfeited = live.clock.forfeited if live.clock is not None else []
        for seat in out["seats"]:
            seat.update(present.get(seat["seat"], {}))
            seat.update(live.badges.get(seat["seat"], {}))
            seat["forfeited"] = seat["seat"] in forfeited
        out["you"] = you
        out["spectators"] = sum(1 for c in live.clients if c.seat is None)
        out["version"] = live.version
        out["rated"] = live.row.rated
        out["daily"] = live.row.daily
        out["private"] = live.row.hidden
        out["owner"] = live.row.owner
        if not shows_score(live.row, you):  # its score says something of a secret deal
            out["scores"], out["winner"] = [], None
        out["clock"] = live.clock.control.to_json() if live.clock is not None else None
        return out

    async def table_info(self, table_id: str) -> dict[str, Any] | None:
        """The public description of a table (no cards), or None."""
        live = await self.get(table_id)
        if live is None:
            return None
        info = self.table_json(live, None)
        if not live.clients and not (live.row.status.live and self.owns(live.id)):
            async with live.lock:  # nothing runs here at it: let it go
                if not live.clients:
                    self.drop(live)
        return info

    async def refresh_badges(self, live: LiveTable) -> None:
        """Read what the seats show again (a name claimed, a game settled)."""
        live.badges = await self._badges(live.row)

    async def _badges(self, row: TableRow) -> dict[int, dict[str, Any]]:
        """What the seats show: :func:`seat_badges`, then each of :attr:`badge_sources`'s."""
        badges = await seat_badges(self.players, row)
        for source in self.badge_sources:
            for seat, more in (await source(row)).items():
                badges.setdefault(seat, {}).update(more)
        return badges
