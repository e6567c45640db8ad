"""Settling a game: its results and ratings recorded once, then told to whoever listens.

A game is settled when it ends, or, at a rated table, as soon as a seat
forfeits (see :mod:`basra.server.table.clocks`): the sides are placed and the
ratings worked out (:mod:`basra.server.table.ratings`), and results and
ratings are written in one store transaction that marks the table settled
(:meth:`~basra.server.store.protocols.PlayerStore.settle_game`), so a game is
settled once whichever process or restart gets there first. A crash between
the last play and the settlement is mended at the next start
(:meth:`Finisher.settle_unsettled`).

After a settlement the table shows its new ratings, and each subscriber
(:meth:`Finisher.subscribe`) is told, in the process that settled it: once per
game across all processes. A table a feature made (a tournament's) has its
result as :class:`TableFinished` (:func:`table_finished`): the final scores by
side and the seats that forfeited, which the lifecycle gives that feature when
the game is over (a rated game a seat forfeited is settled before its end; its
tournament result waits for the end, when every side's score is final).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from basra.server.store.protocols import PlayerStore, TableStore
from basra.server.store.rows import Settlement
from basra.server.table.clocks import Clock
from basra.server.table.live import LiveTable
from basra.server.table.master import TableMaster
from basra.server.table.ratings import Standings, settle, standings

__all__ = ["Finisher", "ResultListener", "TableFinished", "table_finished"]

log = logging.getLogger(__name__)

ResultListener = Callable[[Standings, Settlement], Awaitable[None]]
"""Told of each game this process settled: its standings (places, outcomes, the table's
id) and what was written (results, new ratings)."""


@dataclass(frozen=True)
class TableFinished:
    """A finished game of a table a feature made, as that feature needs it."""

    table_id: str
    owner: str
    """The key the feature made the table under (``tournament:...``)."""
    scores: tuple[int, ...]
    """Each side's final score (sides as :attr:`basra.state.GameState.sides`)."""
    forfeited_seats: frozenset[int]
    """The seats that forfeited (see :mod:`basra.server.table.clocks`)."""
    forfeited_sides: frozenset[int]
    """The sides with a seat among them (a team's side forfeits when either seat does)."""
    finished_at: float


def table_finished(live: LiveTable, finished_at: float) -> TableFinished:
    """The result of a table whose game is over."""
    state, row = live.state, live.row
    forfeited = (
        frozenset(live.clock.forfeited)
        if live.clock is not None and row.forfeit_rule
        else frozenset()
    )
    sides = frozenset(i for i, side in enumerate(state.sides) if forfeited & set(side))
    return TableFinished(
        row.id, row.owner or "", tuple(state.scores), forfeited, sides, finished_at
    )


class Finisher:
    """Settles the games of a :class:`TableMaster`'s tables, each once."""

    def __init__(
        self, master: TableMaster, tables: TableStore, players: PlayerStore, clock: Clock
    ) -> None:
        self.master = master
        self.tables = tables
        self.players = players
        self.clock = clock
        self._listeners: list[ResultListener] = []

    def subscribe(self, listener: ResultListener) -> None:
        """Tell ``listener`` of every game settled from now on (in this process)."""
        self._listeners.append(listener)

    def settle_if_due(self, live: LiveTable) -> asyncio.Task[Any] | None:
        """Start settling a game that ended (or one a seat forfeited, where seats forfeit),
        once."""
        row = live.row
        if row.settled_at is not None or live.settling:
            return None
        forfeited = live.clock.forfeited if row.forfeit_rule and live.clock is not None else []
        if not live.state.is_over and not forfeited:
            return None
        live.settling = True
        left = live.clock.walked_out() if live.clock is not None else []
        return self.master.spawn(self._settle(live, standings(row, live.state, forfeited, left)))

    async def _settle(self, live: LiveTable, game: Standings) -> None:
        """Record the results and ratings, then show the new ratings at the table."""
        now = self.clock.now()
        try:
            settlement = await self.players.settle_game(
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
            await self.master.refresh_badges(live)
            self.master.send_table(live)
        await self.master.peers.changed(live)
        if settlement is None:
            return  # another process (or an earlier run) settled it and told its listeners
        for listener in list(self._listeners):
            try:
                await listener(game, settlement)
            except Exception:
                log.exception("a result listener failed for table %s", game.table_id)

    async def settle_unsettled(self) -> None:
        """Settle finished games a crash left unsettled (between the last play and settling)."""
        for table_id in await self.tables.unsettled():
            try:
                live = await self.master.get(table_id)
                task = self.settle_if_due(live) if live is not None else None
                if task is not None:
                    await task
                if live is not None and not live.clients:
                    async with live.lock:
                        if not live.clients:
                            self.master.drop(live)
            except Exception:
                log.exception("cannot settle table %s", table_id)
