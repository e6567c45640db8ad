"""Tables, seats and event logs in dicts."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from basra.server.store.memory.data import MemoryData
from basra.server.store.rows import (
    LIVE_STATUSES,
    Cap,
    CapReachedError,
    Claim,
    Event,
    GameSummary,
    Status,
    TableRow,
    TableStatus,
    seats_filled,
    summary_of,
)

__all__ = ["MemoryTables", "check_caps"]


class MemoryTables:
    """:class:`~basra.server.store.protocols.TableStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def create(
        self, table: TableRow, caps: Sequence[Cap] = (), events: Sequence[Event] = ()
    ) -> None:
        """Count each cap and insert the table (and its log), with nothing awaited between."""
        check_caps(self.data, caps)
        self.data.add_table(table, list(events))

    async def load(self, table_id: str) -> TableRow | None:
        """A copy of the table, or None."""
        table = self.data.tables.get(table_id)
        return None if table is None else table.copy()

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on."""
        return list(self.data.events.get(table_id, [])[since:])

    async def append(self, table_id: str, event: Event, status: Status | None = None) -> bool:
        """Append when ``event.seq`` is the next step, with the status."""
        log = self.data.events[table_id]
        if event.seq != len(log):
            return False
        log.append(event)
        if status is not None:
            self._set(table_id, status)
        return True

    async def extend(self, table_id: str, events: Sequence[Event], status: Status) -> bool:
        """Append the events when the first is the next step, with the status."""
        log = self.data.events[table_id]
        if not events or events[0].seq != len(log):
            return False
        log.extend(events)
        self._set(table_id, status)
        return True

    def _set(self, table_id: str, status: Status) -> None:
        table = self.data.tables[table_id]
        table.set_status(status)
        table.updated_at = time.time()

    async def claim_seat(self, table_id: str, seat: int, identity: str, name: str) -> Claim:
        """Sit a person if the seat is open; start the table when it is full."""
        table = self.data.tables[table_id]
        row = table.seats[seat]
        if not row.open:
            return Claim(False, False)
        table.seats[seat] = replace(row, identity=identity, name=name)
        started = seats_filled(table.seats) and table.status == TableStatus.OPEN
        if started:
            table.status = TableStatus.PLAYING
            table.updated_at = time.time()
        return Claim(True, started)

    async def rename_seat(self, table_id: str, seat: int, identity: str, name: str) -> None:
        """Rename the person in the seat if the identity matches."""
        table = self.data.tables[table_id]
        row = table.seats[seat]
        if row.identity == identity:
            table.seats[seat] = replace(row, name=name)

    async def set_status(self, table_id: str, status: Status) -> None:
        """Record the status."""
        self._set(table_id, status)

    async def set_fault(self, table_id: str, fault: str | None) -> None:
        """Mark the fault."""
        self.data.tables[table_id].fault = fault

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Link the rematch once."""
        table = self.data.tables[table_id]
        if table.rematch_id is None:
            table.rematch_id = rematch_id
        return table.rematch_id

    async def games_of(self, identity: str, limit: int = 50) -> list[GameSummary]:
        """The person's tables, newest first."""
        out = []
        for table in self.data.tables.values():
            seat = table.seat_of(identity)
            if seat is not None:
                out.append(summary_of(table, seat))
        out.sort(key=lambda g: g.created_at, reverse=True)
        return out[:limit]

    async def find(
        self, statuses: Sequence[TableStatus], limit: int = 50, *, private: bool = True
    ) -> list[TableRow]:
        """Tables by status, newest first."""
        found = [
            t
            for t in self.data.tables.values()
            if t.status in statuses and (private or not t.hidden)
        ]
        found.sort(key=lambda t: t.created_at, reverse=True)
        return [t.copy() for t in found[:limit]]

    async def count(
        self,
        *,
        created_by: str | None = None,
        created_from: str | None = None,
        all_bots: bool | None = None,
        statuses: Sequence[TableStatus] = LIVE_STATUSES,
    ) -> int:
        """Count the matching tables."""
        return _count(self.data, created_by, created_from, all_bots, None, statuses)

    async def rated_in_play(self, identity: str) -> str | None:
        """The newest rated table in play where the identity sits."""
        found = [
            t
            for t in self.data.tables.values()
            if t.rated and t.status == TableStatus.PLAYING and t.seat_of(identity) is not None
        ]
        found.sort(key=lambda t: t.created_at, reverse=True)
        return found[0].id if found else None

    async def unsettled(self, limit: int = 1000) -> list[str]:
        """Finished tables not settled."""
        found = [
            t.id
            for t in self.data.tables.values()
            if t.status == TableStatus.OVER and t.settled_at is None
        ]
        return found[:limit]


def check_caps(data: MemoryData, caps: Sequence[Cap]) -> None:
    """Count each cap (nothing awaited, so the table inserted next is counted by the next
    caller): :class:`CapReachedError` naming the first full one."""
    for cap in caps:
        found = _count(
            data, cap.created_by, cap.created_from, cap.all_bots, cap.owner_prefix, LIVE_STATUSES
        )
        if found >= cap.limit:
            raise CapReachedError(cap)


def _count(
    data: MemoryData,
    created_by: str | None,
    created_from: str | None,
    all_bots: bool | None,
    owner_prefix: str | None,
    statuses: Sequence[TableStatus],
) -> int:
    return sum(
        1
        for t in data.tables.values()
        if t.status in statuses
        and (created_by is None or t.created_by == created_by)
        and (created_from is None or t.created_from == created_from)
        and (all_bots is None or t.all_bots == all_bots)
        and (owner_prefix is None or (t.owner or "").startswith(owner_prefix))
    )
