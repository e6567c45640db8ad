"""Turn-based play: the list of a person's turn-based games, and their vacations.

A turn-based table is an ordinary table whose clock is days per move
(:attr:`~basra.server.table.clocks.TimeControl.turn_based`: 1, 2, 3 or 7 days, from the
table form's ``clock.days``); the table master, the lifecycle and the autopilot run it
like any other, from its log, so it survives restarts, deploys and process moves. What
is its own lives here:

- **The your-turn list** (:meth:`Turns.listing`, ``GET /api/turns``): every turn-based
  table a person sits at, waiting or in play, with whose turn it is and the time left on
  that clock; the games where it is theirs come first, soonest deadline first. The home
  page and the menu show it with a count.
- **Vacations** (:meth:`Turns.take`, :meth:`Turns.end`): a person may stop their clocks
  at every turn-based table for up to ``vacation_days`` days a calendar month (UTC;
  ``ServiceConfig.vacation_days``, 7 by default), taken from now in whole days and ended
  early when they like (the days not begun are given back). The spans are stored
  (:mod:`basra.server.features.turns.store`) and read by the master as its *pause
  source* (:meth:`Turns.pauses`): a clock counts only the time outside them, so a
  deadline moves by exactly the vacation that falls before it. The process where a
  vacation is taken updates its tables at once and tells the others (a ``vacation``
  notice on the hub, :data:`NOTICE`), which do the same; and an owner reads the spans
  again before it times a move out, so no move is lost to a notice that went astray.

Being told when it becomes a person's turn (notifications, Web Push) is the master's
:meth:`~basra.server.table.master.TableMaster.on_turn`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.features.turns.store import VacationStore
from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import TableStore
from basra.server.store.rows import TableStatus
from basra.server.table.clocks import DAY, Clock
from basra.server.table.master import TableMaster

__all__ = ["NOTICE", "PAUSES_BACK", "Turns", "month_start"]

NOTICE = "vacation"
"""The hub notice ``{"kind": "vacation", "identity": ...}``: a person's vacation changed."""

PAUSES_BACK = 60 * DAY
"""How far back a clock looks for its person's vacations (a move began at most this long ago)."""


def month_start(now: float) -> float:
    """The start of the calendar month (UTC) of ``now``.

    >>> month_start(1_764_300_000.0)  # 2025-11-28
    1761955200.0
    """
    day = datetime.fromtimestamp(now, UTC)
    return day.replace(day=1, hour=0, minute=0, second=0, microsecond=0).timestamp()


def _days(start: float, end: float) -> int:
    """Whole days a span counts for (a day begun counts)."""
    return max(0, math.ceil((end - start) / DAY - 1e-9))


class Turns:
    """A person's turn-based games and vacations."""

    def __init__(
        self,
        master: TableMaster,
        tables: TableStore,
        vacations: VacationStore,
        clock: Clock,
        bus: Bus,
        days_per_month: int = 7,
    ) -> None:
        self.master = master
        self.tables = tables
        self.vacations = vacations
        self.clock = clock
        self.bus = bus
        self.days_per_month = days_per_month
        bus.on(NOTICE, self.heard)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process changed a person's vacation: their tables here read it again."""
        identity = notice.get("identity")
        if isinstance(identity, str):
            await self.master.pauses_changed(identity)

    async def _changed(self, identity: str) -> None:
        """A vacation changed here: the tables here, then the other processes, hear of it."""
        await self.master.pauses_changed(identity)
        await self.bus.publish({"kind": NOTICE, "identity": identity})

    # ---------------------------------------------------------------- the pause source

    async def pauses(self, identities: Sequence[str]) -> dict[str, tuple[tuple[float, float], ...]]:
        """Each identity's vacations that may still stop a clock (the master's pause source)."""
        found = await self.vacations.spans(identities, self.clock.now() - PAUSES_BACK)
        return {who: tuple(spans) for who, spans in found.items()}

    # ---------------------------------------------------------------- the your-turn list

    async def listing(self, identity: str) -> dict[str, Any]:
        """``{"turns": [...], "count": N, "vacation": {...}}``: the person's turn-based
        games (``count`` of them waiting for their move) and their vacation."""
        now = self.clock.now()
        games = []
        for row in await self.tables.clocked_of(identity, DAY):
            game = await self._game(row.id, identity, now)
            if game is not None:
                games.append(game)
        games.sort(key=lambda g: (not g["your_turn"], g["left"] is None, g["left"] or 0.0))
        count = sum(1 for g in games if g["your_turn"])
        return {"turns": games, "count": count, "vacation": await self.vacation(identity)}

    async def _game(self, table_id: str, identity: str, now: float) -> dict[str, Any] | None:
        """One game of the list, read from the table as the master holds it."""
        master = self.master
        live = await master.get(table_id)
        if live is None or live.clock is None:
            return None
        row = live.row
        seat = row.seat_of(identity)
        if seat is None:
            return None
        clock = live.clock
        playing = row.status == TableStatus.PLAYING and not live.state.is_over
        turn = clock.turn if playing else None
        left, _ = clock.left(now)
        game = {
            "table": row.id,
            "variant": row.variant,
            "players": row.players,
            "teams": row.teams,
            "rated": row.rated,
            "days": clock.control.move // DAY,
            "status": row.status.value,
            "seat": seat,
            "turn": turn,
            "your_turn": turn is not None and turn == seat,
            "left": left if turn is not None else None,
            "paused": clock.paused(now),
            "opponents": [s.name for s in row.seats if s.seat != seat],
            "scores": list(row.scores),
            "version": live.version,
        }
        if not live.clients and not master.owns(row.id):
            async with live.lock:  # nothing runs here at it: let it go
                if not live.clients and not live.dropped:
                    master.drop(live)
        return game

    # ---------------------------------------------------------------- vacations

    async def vacation(self, identity: str) -> dict[str, Any]:
        """``{"days_per_month", "used", "left", "until"}``: this month's vacation days
        used and left, and when the running vacation ends (null when none runs)."""
        now = self.clock.now()
        start = month_start(now)
        spans = (await self.vacations.spans([identity], start)).get(identity, [])
        used = sum(_days(a, b) for a, b in spans if a >= start)
        until = next((b for a, b in spans if a <= now < b), None)
        return {
            "days_per_month": self.days_per_month,
            "used": used,
            "left": max(0, self.days_per_month - used),
            "until": until,
        }

    async def take(self, identity: str, body: Any) -> dict[str, Any]:
        """Start a vacation of ``{"days": N}`` whole days from now, within this month's
        days left; every turn-based clock of the person stops at once."""
        days = body.get("days") if isinstance(body, dict) else None
        state = await self.vacation(identity)
        if state["until"] is not None:
            raise ProtocolError(
                "on_vacation", "you are on vacation already: end it before taking another"
            )
        left = state["left"]
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= left:
            if left == 0:
                message = "you have no vacation days left this month"
            else:
                message = f"days must be a whole number from 1 to {left} (the days left this month)"
            raise ProtocolError("bad_request", message, {"field": "days"})
        now = self.clock.now()
        await self.vacations.add(identity, now, now + days * DAY)
        await self._changed(identity)
        return await self.vacation(identity)

    async def end(self, identity: str) -> dict[str, Any]:
        """End the running vacation now (its days not begun are given back); the clocks
        run again."""
        if not await self.vacations.end(identity, self.clock.now()):
            raise ProtocolError("not_on_vacation", "you are not on vacation")
        await self._changed(identity)
        return await self.vacation(identity)
