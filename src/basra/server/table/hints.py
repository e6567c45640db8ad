"""Hints: the coach's suggestion for a seat's move, worked out on the bots' workers.

A seated person at a table with hints asks at their turn (``hint`` with the
version); the analysis (:func:`basra.coach.hint`) runs on the fair scheduler
at the hint rank (:mod:`basra.server.runtime.scheduler`), from the seat's own
view, one at a time per seat, within the person's quota. It is sent to the
asking connection only, and dropped if the table moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging

from basra.cards import CARD_NAMES
from basra.server.errors import ProtocolError, error_message
from basra.server.quotas import Quotas
from basra.server.runtime.scheduler import HINT, FairScheduler
from basra.server.runtime.workers import bot_hint
from basra.server.table.live import Client, LiveTable
from basra.server.table.master import TableMaster
from basra.view import View, view_of

__all__ = ["Hints"]

log = logging.getLogger(__name__)


class Hints:
    """Works out hints for the clients of a :class:`TableMaster`'s tables."""

    def __init__(
        self, master: TableMaster, scheduler: FairScheduler, quotas: Quotas, samples: int
    ) -> None:
        self.master = master
        self.scheduler = scheduler
        self.quotas = quotas
        self.samples = samples
        """Deals a hint's analysis plays out."""

    async def ask(self, client: Client, version: int) -> None:
        """Start working out a hint for the client's seat (one at a time per seat)."""
        live = self.master.live_of(client)
        if not live.row.hints:
            raise ProtocolError("hints_off", "this table was created without hints")
        async with live.lock:
            seat = self.master.check_turn(live, client.seat, version)
            if seat in live.hinting:
                raise ProtocolError("hint_pending", "a hint for this seat is being worked out")
            if client.identity is not None:
                limits = self.quotas.limits
                self.quotas.take("hints", client.identity, limits.hints_per_identity, "hints")
            view = view_of(live.state, seat)
            live.hinting.add(seat)
        task = asyncio.create_task(self._work_out(live, client, seat, version, view))
        client.tasks.add(task)
        task.add_done_callback(client.tasks.discard)

    async def _work_out(
        self, live: LiveTable, client: Client, seat: int, version: int, view: View
    ) -> None:
        try:
            suggestion = await self.scheduler.run(live.id, HINT, bot_hint, view, self.samples)
        except asyncio.CancelledError:
            return  # the client left: the scheduler drops the work
        except Exception:
            log.exception("a hint at table %s failed", live.id)
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
