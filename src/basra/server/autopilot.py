"""Automatic actions: what happens at a table when nobody sends anything.

Dealing a round, a bot's move, a stand-in bot for a person gone longer than
the grace period, a bot's move for a person whose clock ran out (or whose
rated seat forfeited, see :mod:`basra.server.clocks`), and ending a table
nobody is connected to as abandoned. Clock deadlines are waited for on the
service's clock (``ServiceConfig.clock``), so tests can run them out at once. Each
action is planned for one table version and dropped if the table moved on
before it ran. Bots think without the table's lock, on the fair scheduler's
workers (:mod:`basra.server.scheduler`), then their move is checked and
committed like a person's. An action that fails is tried again after
``retry_base`` seconds, doubling each time; after ``retry_limit`` failures in a
row the table is marked with its fault (logged, shown to its people) and left
alone: it never spins.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from basra.moves import Move
from basra.server.live import Client, LiveTable, ServiceConfig
from basra.server.protocol import ProtocolError
from basra.server.pubsub import Hub
from basra.server.scheduler import BACKGROUND, PLAY, FairScheduler
from basra.server.store import Status, Store
from basra.server.workers import bot_move
from basra.state import PHASE_DEAL
from basra.view import view_of

__all__ = ["Autopilot", "Master"]

log = logging.getLogger(__name__)


class Master(Protocol):
    """What the autopilot needs of the match service."""

    config: ServiceConfig
    store: Store
    hub: Hub
    scheduler: FairScheduler

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a task of the service."""

    async def deal(self, live: LiveTable) -> None:
        """Deal the next round (lock held)."""

    async def commit_play(
        self, live: LiveTable, seat: int, move: Move, auto: str | None = None
    ) -> None:
        """Apply, store and send a play (lock held); ``auto``: why the server made it."""

    def send_table(self, live: LiveTable, exclude: Client | None = None) -> None:
        """Send the table's description to its clients."""

    def drop(self, live: LiveTable) -> None:
        """Let the table go from memory (lock held)."""


class Autopilot:
    """Plans and runs each table's automatic actions for a :class:`Master`."""

    def __init__(self, master: Master) -> None:
        self.master = master

    def schedule(self, live: LiveTable) -> None:
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
            live.timer = self.master.spawn(self._run(live, plan, delay))

    def _next_action(self, live: LiveTable) -> tuple[tuple[str, int] | None, float]:
        state = live.state
        if live.dropped or live.row.fault or live.row.status != "playing" or state.is_over:
            return None, 0.0
        if state.phase == PHASE_DEAL:
            delay = 0.0 if live.version == 0 else self.master.config.round_pause
            return ("deal", live.version), delay
        seat = state.turn
        row = live.row.seats[seat]
        config = self.master.config
        if row.kind == "bot":
            return ("bot", live.version), config.bot_delay
        clock = live.clock
        if clock is not None and seat in clock.forfeited:
            return ("forfeited", live.version), config.bot_delay
        plans: list[tuple[float, str]] = []
        now = time.monotonic()
        if not live.presence.present(seat, now):
            since = live.presence.absent_since.get(seat, now)
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
            if live.plan != plan or live.version != version or live.dropped:
                return
            if kind == "deal":
                if live.state.phase == PHASE_DEAL and not live.state.is_over:
                    await self.master.deal(live)
                return
            seat = live.state.turn
            if kind == "stand_in" and live.presence.present(seat, time.monotonic()):
                return
            if kind == "timeout" and not self._timed_out(live):
                return  # the deadline moved (a restart's grace): planned again below
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
        async with live.lock:
            if live.plan != plan or live.version != version or live.dropped:
                return
            if kind == "stand_in":
                if live.presence.present(seat, time.monotonic()):
                    return
                self.master.send_table(live)  # shows that a bot stands in
            auto = None if kind == "bot" else kind
            await self.master.commit_play(live, seat, Move(*choice), auto)

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
            await self.master.store.set_fault(live.row.id, fault)
        self.master.send_table(live)

    def watch_empty(self, live: LiveTable) -> None:
        """Start (or stop) the wait after which a table nobody is connected to is abandoned."""
        now = time.monotonic()
        if live.row.status not in ("open", "playing") or live.presence.anyone(now):
            if live.reaper is not None and live.reaper is not asyncio.current_task():
                live.reaper.cancel()
            live.reaper = None
            return
        if live.reaper is None or live.reaper.done():
            live.reaper = self.master.spawn(self._reap(live))

    async def _reap(self, live: LiveTable) -> None:
        wait = (
            self.master.config.abandon_bots_after
            if live.row.all_bots
            else self.master.config.abandon_after
        )
        while True:
            since = live.presence.empty_since
            now = time.monotonic()
            if since is None:
                since = live.presence.empty_since = now
            if now >= since + wait:
                break
            await asyncio.sleep(since + wait - now)
        async with live.lock:
            if live.dropped or live.presence.anyone(time.monotonic()):
                return
            if live.row.status in ("open", "playing"):
                status = Status("abandoned", tuple(live.row.scores), None)
                await self.master.store.set_status(live.row.id, status)
                live.row.status = "abandoned"
                log.info("table %s abandoned: nobody connected for %.0f s", live.row.id, wait)
            live.reaper = None
            self.master.drop(live)
        await self.master.hub.publish({"kind": "meta", "table": live.row.id})
