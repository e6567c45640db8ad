"""The store in Python dicts: for tests and for ``--database memory``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from basra.server.store import (
    LIVE_STATUSES,
    Claim,
    DeviceRow,
    Event,
    GameSummary,
    IdentityRow,
    Status,
    TableRow,
    summary_of,
)
from basra.server.store.play_memory import MemoryPlay
from basra.server.store.players_memory import MemoryPlayers

__all__ = ["MemoryStore"]


class MemoryStore(MemoryPlayers, MemoryPlay):
    """Every :class:`~basra.server.store.Store` method on dicts (each call is atomic)."""

    def __init__(self) -> None:
        self._tables: dict[str, TableRow] = {}
        self._events: dict[str, list[Event]] = {}
        self._identities: dict[str, IdentityRow] = {}
        self._devices: dict[str, DeviceRow] = {}
        self._tokens: dict[str, str] = {}
        self._transfers: dict[str, tuple[str, float, float | None]] = {}

    async def start(self) -> None:
        """Nothing to connect."""

    async def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------ tables

    async def create_table(self, table: TableRow) -> None:
        """Store a copy of the table."""
        if table.id in self._tables:
            raise ValueError(f"table {table.id!r} exists")
        self._tables[table.id] = table.copy()
        self._events[table.id] = []

    async def load_table(self, table_id: str) -> TableRow | None:
        """A copy of the table, or None."""
        table = self._tables.get(table_id)
        return None if table is None else table.copy()

    async def events(self, table_id: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on."""
        return list(self._events.get(table_id, [])[since:])

    async def append_event(self, table_id: str, event: Event, status: Status | None = None) -> bool:
        """Append when ``event.seq`` is the next step, with the status."""
        log = self._events[table_id]
        if event.seq != len(log):
            return False
        log.append(event)
        if status is not None:
            self._set(table_id, status)
        return True

    def _set(self, table_id: str, status: Status) -> None:
        table = self._tables[table_id]
        table.status, table.scores, table.winner = status.status, list(status.scores), status.winner
        table.updated_at = time.time()

    async def claim_seat(self, table_id: str, seat: int, identity: str, name: str) -> Claim:
        """Sit a person if the seat is open; start the table when it is full."""
        table = self._tables[table_id]
        row = table.seats[seat]
        if row.kind != "person" or row.identity is not None:
            return Claim(False, False)
        table.seats[seat] = replace(row, identity=identity, name=name)
        full = all(s.kind == "bot" or s.identity for s in table.seats)
        started = full and table.status == "open"
        if started:
            table.status = "playing"
            table.updated_at = time.time()
        return Claim(True, started)

    async def rename(self, table_id: str, seat: int, identity: str, name: str) -> None:
        """Rename the person in the seat if the identity matches."""
        table = self._tables[table_id]
        row = table.seats[seat]
        if row.identity == identity:
            table.seats[seat] = replace(row, name=name)

    async def set_status(self, table_id: str, status: Status) -> None:
        """Record the status."""
        self._set(table_id, status)

    async def set_fault(self, table_id: str, fault: str | None) -> None:
        """Mark the fault."""
        self._tables[table_id].fault = fault

    async def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Link the rematch once."""
        table = self._tables[table_id]
        if table.rematch_id is None:
            table.rematch_id = rematch_id
        return table.rematch_id

    async def games_of(self, identity: str, limit: int = 50) -> list[GameSummary]:
        """The person's tables, newest first."""
        out = []
        for table in self._tables.values():
            for row in table.seats:
                if row.identity == identity:
                    out.append(summary_of(table, row.seat))
                    break
        out.sort(key=lambda g: g.created_at, reverse=True)
        return out[:limit]

    async def list_tables(
        self, statuses: Sequence[str], limit: int = 50, *, daily: bool = True
    ) -> list[TableRow]:
        """Tables by status, newest first."""
        found = [
            t for t in self._tables.values() if t.status in statuses and (daily or not t.daily)
        ]
        found.sort(key=lambda t: t.created_at, reverse=True)
        return [t.copy() for t in found[:limit]]

    async def count_tables(
        self,
        *,
        created_by: str | None = None,
        created_from: str | None = None,
        all_bots: bool | None = None,
        statuses: Sequence[str] = LIVE_STATUSES,
    ) -> int:
        """Count the matching tables."""
        return sum(
            1
            for t in self._tables.values()
            if t.status in statuses
            and (created_by is None or t.created_by == created_by)
            and (created_from is None or t.created_from == created_from)
            and (all_bots is None or t.all_bots == all_bots)
        )

    # ------------------------------------------------------------ identities

    async def create_identity(self, identity: IdentityRow) -> None:
        """Store the identity."""
        if identity.id in self._identities:
            raise ValueError(f"identity {identity.id!r} exists")
        self._identities[identity.id] = identity

    async def load_identity(self, identity_id: str) -> IdentityRow | None:
        """The identity, or None."""
        return self._identities.get(identity_id)

    async def claim_legacy(self, identity_id: str) -> bool:
        """Clear the legacy mark once."""
        row = self._identities.get(identity_id)
        if row is None or not row.legacy or row.revoked_at is not None:
            return False
        self._identities[identity_id] = replace(row, legacy=False)
        return True

    async def name_identity(self, identity_id: str, name: str) -> None:
        """Remember the name."""
        row = self._identities.get(identity_id)
        if row is not None:
            self._identities[identity_id] = replace(row, name=name)

    async def add_device(self, device: DeviceRow, token_hash: str) -> None:
        """Store the device under its token hash."""
        self._devices[device.id] = device
        self._tokens[token_hash] = device.id

    async def device_by_token(self, token_hash: str) -> tuple[DeviceRow, IdentityRow] | None:
        """The live device and its live identity."""
        device = self._devices.get(self._tokens.get(token_hash, ""))
        if device is None or device.revoked_at is not None:
            return None
        identity = self._identities.get(device.identity)
        if identity is None or identity.revoked_at is not None:
            return None
        return device, identity

    async def touch_device(self, device_id: str, now: float) -> None:
        """Note the time."""
        device = self._devices.get(device_id)
        if device is not None:
            self._devices[device_id] = replace(device, last_seen_at=now)

    async def devices_of(self, identity_id: str) -> list[DeviceRow]:
        """Signed-in devices, newest first."""
        found = [
            d for d in self._devices.values() if d.identity == identity_id and d.revoked_at is None
        ]
        return sorted(found, key=lambda d: d.created_at, reverse=True)

    async def revoke_devices(
        self, identity_id: str, device_ids: Sequence[str], now: float
    ) -> list[str]:
        """Revoke the identity's devices named."""
        out = []
        for device_id in device_ids:
            device = self._devices.get(device_id)
            if device and device.identity == identity_id and device.revoked_at is None:
                self._devices[device_id] = replace(device, revoked_at=now)
                out.append(device_id)
        return out

    async def revoke_identity(self, identity_id: str, now: float) -> list[str]:
        """Revoke the identity and its devices."""
        row = self._identities.get(identity_id)
        if row is not None and row.revoked_at is None:
            self._identities[identity_id] = replace(row, revoked_at=now)
        live = [d.id for d in await self.devices_of(identity_id)]
        return await self.revoke_devices(identity_id, live, now)

    async def add_transfer(
        self, code_hash: str, identity_id: str, device_id: str, now: float, expires_at: float
    ) -> None:
        """Store the code."""
        self._transfers[code_hash] = (identity_id, expires_at, None)

    async def find_transfer(self, code_hash: str, now: float) -> str | None:
        """The code's identity while it is unused and unexpired."""
        found = self._transfers.get(code_hash)
        if found is None or found[2] is not None or found[1] <= now:
            return None
        return found[0]

    async def use_transfer(self, code_hash: str, now: float) -> str | None:
        """Mark the code used."""
        identity = await self.find_transfer(code_hash, now)
        if identity is not None:
            found = self._transfers[code_hash]
            self._transfers[code_hash] = (found[0], found[1], now)
        return identity
