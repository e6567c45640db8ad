"""Automatic actions: what happens at a table when nobody sends anything.

Dealing a round, a bot's move, a stand-in bot for a person gone longer than
the grace period, and a bot's move for a person whose clock ran out (or whose
rated seat forfeited, see :mod:`basra.server.table.clocks`). Clock deadlines
are waited for on the tables' clock (``ServiceConfig.clock``), so tests can run
them out at once. Each action is planned for one table version and dropped if
the table moved on before it ran. Bots think without the table's lock, on the
fair scheduler's workers (:mod:`basra.server.runtime.scheduler`), then their
move is played through the master like a person's. Only the process that owns the
table (:mod:`basra.server.table.ownership`) plans any: each bot decision is made
once, in one process, and no two processes race for a step. An action that fails is
tried again after ``retry_base`` seconds, doubling each time; after
``retry_limit`` failures in a row the table is marked with its fault (logged,
shown to its people) and left alone: it never spins. (A table nobody is
connected to is abandoned by the lifecycle, :mod:`basra.server.table.lifecycle`.)

At a turn-based table (days per move, :attr:`~basra.server.table.clocks.TimeControl.turn_based`)
a person away is expected: no stand-in is planned for absence, only the clock's
timeout. Its deadline is days off, and a server may hold thousands of such tables,
so a deadline further than :data:`FAR` seconds away gets no task of its own: it
waits in one heap, :attr:`Autopilot.far`, watched by a single task sleeping until
the earliest of them comes within :data:`FAR`, when its table is planned as usual
(a timer task for the last hour). Everything in the heap is derived from the
stored log (and the stored pauses), so a restart simply plans every table again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import itertools
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from basra.moves import Move
from basra.server.errors import ProtocolError
from basra.server.runtime.scheduler import BACKGROUND, PLAY, FairScheduler
from basra.server.runtime.workers import bot_move
from basra.server.store.protocols import TableStore
from basra.server.store.rows import SeatKind, TableStatus
from basra.server.table.live import Client, LiveTable, ServiceConfig
from basra.state import PHASE_DEAL
from basra.view import view_of

__all__ = ["FAR", "Autopilot", "Pilot"]

log = logging.getLogger(__name__)

FAR = 3600.0
"""Seconds: a clock's deadline further off than this waits in the autopilot's one heap,
not in a timer task of its own."""


class Pilot(Protocol):
    """What the autopilot needs of the table master."""

    config: ServiceConfig
    tables: TableStore
    scheduler: FairScheduler

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a task of the tables."""

    def owns(self, table_id: str) -> bool:
        """Whether this process drives the table's automatic actions."""

    async def refresh_pauses(self, live: LiveTable) -> None:
        """Read the pauses of the table's clocks again (vacations; lock held)."""

    async def deal(self, live: LiveTable) -> None:
        """Deal the next round (lock held)."""

    async def play(self, live: LiveTable, seat: int, move: Move, auto: str | None = None) -> None:
        """Apply, store and send a play (lock held); ``auto``: why the server made it."""

    def send_table(self, live: LiveTable, exclude: Client | None = None) -> None:
        """Send the table's description to its clients."""


class Autopilot:
    """Plans and runs each table's automatic actions for a :class:`Pilot`."""

    def __init__(self, master: Pilot) -> None:
        self.master = master
        self.decisions = 0
        """Moves the bots (and stand-ins) of this process worked out."""
        self.far: list[tuple[float, int, LiveTable, tuple[str, int]]] = []
        """Timeouts more than :data:`FAR` seconds off: ``(when to plan it, order, table,
        plan)``, earliest first; an entry whose table planned otherwise since is skipped."""
        self._far_plans: dict[str, tuple[LiveTable, tuple[str, int]]] = {}
        """The copy and plan each table waits with in :attr:`far`, by table id."""
        self._order = itertools.count()
        self._sweeper: asyncio.Task[None] | None = None
        self._sweep_at: float | None = None

    def schedule(self, live: LiveTable) -> None:
        """Plan the table's next automatic action, if any (deal, bot, stand-in)."""
        plan, delay = self._next_action(live)
        if plan == live.plan and (
            (live.timer is not None and not live.timer.done()) or self._waits_far(live, plan)
        ):
            return
        current = asyncio.current_task()
        if live.timer is not None and live.timer is not current and not live.timer.done():
            live.timer.cancel()
        live.plan = plan
        live.timer = None
        self._far_plans.pop(live.id, None)
        if plan is not None and plan[0] == "timeout" and delay > FAR:
            self._wait_far(live, plan, self.master.config.clock.now() + delay - FAR)
        elif plan is not None:
            live.timer = self.master.spawn(self._run(live, plan, delay))

    def _waits_far(self, live: LiveTable, plan: tuple[str, int] | None) -> bool:
        """Whether this copy of the table waits in the heap with ``plan``."""
        waiting = self._far_plans.get(live.id)
        return waiting is not None and waiting[0] is live and waiting[1] == plan

    @property
    def waiting_far(self) -> int:
        """Tables whose timeout waits in the heap (no task of their own)."""
        return len(self._far_plans)

    def _wait_far(self, live: LiveTable, plan: tuple[str, int], when: float) -> None:
        """Keep a far timeout in the heap; wake the one sweeper sooner if it is the first."""
        self._far_plans[live.id] = (live, plan)
        heapq.heappush(self.far, (when, next(self._order), live, plan))
        sweeper = self._sweeper
        if sweeper is asyncio.current_task():
            return  # the sweeper itself: its loop looks at the heap again
        if sweeper is None or sweeper.done() or self._sweep_at is None or when < self._sweep_at:
            if sweeper is not None and not sweeper.done():
                sweeper.cancel()
            self._sweeper = self.master.spawn(self._sweep())

    async def _sweep(self) -> None:
        """Plan each far timeout as it comes within :data:`FAR` seconds."""
        clock = self.master.config.clock
        try:
            while self.far:
                when, _, live, plan = self.far[0]
                self._sweep_at = when
                now = clock.now()
                if when > now:
                    await clock.sleep(when - now)
                    continue
                heapq.heappop(self.far)
                if not self._waits_far(live, plan):
                    continue  # planned otherwise since
                del self._far_plans[live.id]
                if live.plan != plan or live.dropped:
                    continue  # let go, or driven elsewhere now
                live.plan = None
                self.schedule(live)
        finally:
            self._sweep_at = None

    def _next_action(self, live: LiveTable) -> tuple[tuple[str, int] | None, float]:
        state = live.state
        if live.dropped or live.row.fault or live.row.status != TableStatus.PLAYING:
            return None, 0.0
        if not self.master.owns(live.row.id):
            return None, 0.0
        if state.is_over:
            return None, 0.0
        if state.phase == PHASE_DEAL:
            delay = 0.0 if live.version == 0 else self.master.config.round_pause
            return ("deal", live.version), delay
        seat = state.turn
        row = live.row.seats[seat]
        config = self.master.config
        if row.kind == SeatKind.BOT:
            return ("bot", live.version), config.bot_delay
        clock = live.clock
        if clock is not None and seat in clock.forfeited:
            return ("forfeited", live.version), config.bot_delay
        plans: list[tuple[float, str]] = []
        now = time.monotonic()
        since = live.presence.absent_since.get(seat, now)
        gone = since == float("-inf")  # left for good (the operator): a stand-in plays now
        if (gone or not live.turn_based) and not live.presence.present(seat, now):
            plans.append((max(since + config.grace - now, config.bot_delay), "stand_in"))
        deadline = clock.deadline() if clock is not None else None
        if deadline is not None:
            plans.append((max(deadline - config.clock.now(), 0.0), "timeout"))
        if not plans:
            return None, 0.0
        wait, kind = min(plans)
        return (kind, live.version), wait

    async def _run(self, live: LiveTable, plan: tuple[str, int], delay: float) -> None:
        try:
            if plan[0] == "timeout":
                await self.master.config.clock.sleep(delay)
            elif delay > 0:
                await asyncio.sleep(delay)
            await self._act(live, plan)
            live.failures = 0
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            log.info("automatic action on %s refused: %s", live.row.id, error)
        except Exception as error:
            live.failures += 1
            if live.failures >= self.master.config.retry_limit:
                await self._mark_fault(live, error)
            else:
                pause = self.master.config.retry_base * 2 ** (live.failures - 1)
                log.warning(
                    "automatic action on table %s failed (%d in a row); again in %.0f s",
                    live.row.id,
                    live.failures,
                    pause,
                    exc_info=True,
                )
                await asyncio.sleep(pause)
        if live.plan == plan:
            live.plan = None
        self.schedule(live)

    async def _act(self, live: LiveTable, plan: tuple[str, int]) -> None:
        """Carry out a planned action if the table is still where it was planned."""
        kind, version = plan
        async with live.lock:
            if not self._current(live, plan):
                return
            if kind == "deal":
                if live.state.phase == PHASE_DEAL and not live.state.is_over:
                    await self.master.deal(live)
                return
            seat = live.state.turn
            if kind == "stand_in" and live.presence.present(seat, time.monotonic()):
                return
            if kind == "timeout":
                await self.master.refresh_pauses(live)  # a vacation taken elsewhere
                if not self._timed_out(live):
                    return  # the deadline moved (a restart's grace, a vacation): planned again
            row = live.row.seats[seat]
            level = row.level if kind == "bot" and row.level else self.master.config.stand_in_level
            key = f"{live.row.id}:{seat}:{version}".encode()
            if live.row.daily:  # duplicate play: the same plays of the deal, the same answer
                plays = " ".join(p.move.text() for p in live.state.rounds[-1].plays)
                key = f"{live.row.daily}:{seat}:{plays}".encode()
            seed = int.from_bytes(hashlib.sha256(key).digest()[:4])
            view = view_of(live.state, seat)
            rank = PLAY if live.presence.seated_here() else BACKGROUND
        # Think without the lock: connect, join and catch-up go on meanwhile.
        choice = await self.master.scheduler.run(live.row.id, rank, bot_move, level, seed, view)
        self.decisions += 1
        async with live.lock:
            if not self._current(live, plan):
                return
            if kind == "stand_in":
                if live.presence.present(seat, time.monotonic()):
                    return
                self.master.send_table(live)  # shows that a bot stands in
            auto = None if kind == "bot" else kind
            await self.master.play(live, seat, Move(*choice), auto)

    def _current(self, live: LiveTable, plan: tuple[str, int]) -> bool:
        """Whether a planned action may still run: the table is where it was planned, and
        this process still owns it (the lock is held)."""
        return (
            live.plan == plan
            and live.version == plan[1]
            and not live.dropped
            and self.master.owns(live.row.id)
        )

    def _timed_out(self, live: LiveTable) -> bool:
        """Whether the running clock of the table has reached zero."""
        deadline = live.clock.deadline() if live.clock is not None else None
        return deadline is not None and self.master.config.clock.now() >= deadline

    async def _mark_fault(self, live: LiveTable, error: BaseException) -> None:
        """Stop a table whose automatic actions keep failing, and say so."""
        fault = f"{type(error).__name__}: {error}"[:500]
        log.error(
            "table %s stopped after %d failed automatic actions: %s",
            live.row.id,
            live.failures,
            fault,
        )
        live.row.fault = fault
        with contextlib.suppress(Exception):
            await self.master.tables.set_fault(live.row.id, fault)
        self.master.send_table(live)
