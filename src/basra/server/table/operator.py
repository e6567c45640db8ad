"""The operator's verbs on tables: close one, settle a person's for good, rename seats.

Moderation (:mod:`basra.server.features.moderation`) carries out what the operator
decides; what that does to tables is here and nowhere else, beside the lifecycle
(:mod:`basra.server.table.lifecycle`), which makes the :class:`Operator` and lends it
its one way of ending a table (:meth:`~basra.server.table.lifecycle.Lifecycle.abandon`):

- **closed**: :meth:`Operator.close` ends a table waiting or in play as abandoned at
  once (it keeps its log and is not rated);
- **left for good**: :meth:`Operator.leave_for_good` settles the tables of a person shut
  out as the rules for a person who leaves settle them, without the wait: a table still
  waiting for people ends as abandoned, and at a table in play a stand-in plays their
  seat at once (:meth:`~basra.server.table.master.TableMaster.stand_in`);
- **renamed**: :meth:`Operator.rename_seats` gives their seats a new name at every
  table they sat at, finished games included.

Each takes the table's lock, changes it, shows its clients here, plans its automatic
action (only the table's owner plans any) and tells the other processes, which show it
too.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from basra.server.errors import ProtocolError
from basra.server.store.protocols import TableStore
from basra.server.store.rows import TableStatus
from basra.server.table.live import LiveTable
from basra.server.table.master import TableMaster

__all__ = ["Operator"]

log = logging.getLogger(__name__)


class Operator:
    """The operator's verbs on the tables of a master."""

    def __init__(
        self,
        master: TableMaster,
        tables: TableStore,
        abandon: Callable[[LiveTable], Awaitable[None]],
    ) -> None:
        self.master = master
        self.tables = tables
        self.abandon = abandon
        """Ends a live table as abandoned, its lock held (the lifecycle's)."""

    async def close(self, table_id: str, reason: str) -> TableStatus:
        """End a table waiting or in play as abandoned (kept, not rated) for ``reason``: the
        operator closed it. Its clients see it at once, in every process. Its status after
        (a game over stays over); ``no_such_table``."""
        live = await self.master.get(table_id[:40])
        if live is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
        async with live.lock:
            await self._end(live, reason)
        await self._tell(live)
        return live.row.status

    async def leave_for_good(self, identity: str, reason: str) -> list[str]:
        """Settle the tables ``identity`` sits at, waiting or in play, as the rules for a
        person who leaves settle them, without the wait (the operator shut it out, for
        ``reason``): a table still waiting for people ends as abandoned, and at a table in
        play a stand-in plays its seat at once (so a rated seat forfeits by the forfeit
        rule, and a casual game plays on to its end). Tables nobody holds here are loaded
        first (and let go again after, unless this process drives them). The ids of the
        tables settled (a failure at one is logged, and the others are settled still)."""
        settled = []
        for game in await self.tables.games_of(identity, limit=200):
            if not game.status.live:
                continue
            try:
                live = await self.master.get(game.id)
                if live is None:
                    continue
                async with live.lock:
                    seat = live.row.seat_of(identity)
                    if seat is None or not live.row.status.live:
                        continue
                    if live.row.status == TableStatus.OPEN:
                        await self._end(live, reason)
                    else:
                        self.master.stand_in(live, seat)
                await self._tell(live)
                settled.append(live.id)
                if not live.clients and not self.master.owns(live.id):
                    async with live.lock:  # driven elsewhere, watched by nobody here
                        if not live.clients:
                            self.master.drop(live)
            except Exception:
                log.exception("cannot settle table %s of %s, who left for good", game.id, identity)
        return settled

    async def rename_seats(self, identity: str, name: str) -> list[str]:
        """Give ``identity``'s seats the (checked) ``name`` at every table it sat at,
        finished games included (their records show it); every process shows it at once.
        The tables renamed."""
        renamed = []
        for game in await self.tables.games_of(identity, limit=10_000):
            await self.tables.rename_seat(game.id, game.seat, identity, name)
            renamed.append(game.id)
        for table_id in renamed:
            await self.master.peers.reread(table_id)
        return renamed

    async def _end(self, live: LiveTable, reason: str) -> None:
        """End a live table as abandoned for ``reason`` and show its clients here (the
        table's lock is held)."""
        if live.row.status.live:
            await self.abandon(live)
            log.warning("table %s closed: %s", live.id, reason)
        self.master.send_table(live)
        self.master.broadcast_state(live)

    async def _tell(self, live: LiveTable) -> None:
        """After an operator's change (the table's lock released): plan the table's next
        automatic action, and tell the other processes its row changed."""
        self.master.schedule(live)
        await self.master.peers.changed(live)
