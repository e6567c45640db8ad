"""Identities, devices and transfer codes in dicts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from basra.server.store.memory.data import MemoryData, Transfer
from basra.server.store.rows import DeviceRow, IdentityRow, Revoked

__all__ = ["MemoryIdentities"]


class MemoryIdentities:
    """:class:`~basra.server.store.protocols.IdentityStore` on a :class:`MemoryData`."""

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def create(self, identity: IdentityRow) -> None:
        """Store the identity."""
        if identity.id in self.data.identities:
            raise ValueError(f"identity {identity.id!r} exists")
        self.data.identities[identity.id] = identity

    async def load(self, identity_id: str) -> IdentityRow | None:
        """The identity, or None."""
        return self.data.identities.get(identity_id)

    async def claim_legacy(self, identity_id: str) -> bool:
        """Clear the legacy mark once."""
        row = self.data.identities.get(identity_id)
        if row is None or not row.legacy or row.revoked_at is not None:
            return False
        self.data.identities[identity_id] = replace(row, legacy=False)
        return True

    async def name(self, identity_id: str, name: str) -> None:
        """Remember the name."""
        row = self.data.identities.get(identity_id)
        if row is not None:
            self.data.identities[identity_id] = replace(row, name=name)

    async def add_device(self, device: DeviceRow, token_hash: str) -> None:
        """Store the device under its token hash."""
        self.data.devices[device.id] = device
        self.data.tokens[token_hash] = device.id

    async def device_by_token(self, token_hash: str) -> tuple[DeviceRow, IdentityRow] | None:
        """The live device and its live identity."""
        device = self.data.devices.get(self.data.tokens.get(token_hash, ""))
        if device is None or device.revoked_at is not None:
            return None
        identity = self.data.identities.get(device.identity)
        if identity is None or identity.revoked_at is not None:
            return None
        return device, identity

    async def touch_device(self, device_id: str, now: float) -> None:
        """Note the time."""
        device = self.data.devices.get(device_id)
        if device is not None:
            self.data.devices[device_id] = replace(device, last_seen_at=now)

    async def devices_of(self, identity_id: str) -> list[DeviceRow]:
        """Signed-in devices, newest first."""
        found = [
            d
            for d in self.data.devices.values()
            if d.identity == identity_id and d.revoked_at is None
        ]
        return sorted(found, key=lambda d: d.created_at, reverse=True)

    async def revoke_devices(
        self, identity_id: str, device_ids: Sequence[str], now: float
    ) -> list[str]:
        """Revoke the identity's devices named, and the transfer codes they made."""
        out = []
        for device_id in device_ids:
            device = self.data.devices.get(device_id)
            if device and device.identity == identity_id and device.revoked_at is None:
                self.data.devices[device_id] = replace(device, revoked_at=now)
                out.append(device_id)
        for transfer in self.data.transfers.values():
            if transfer.device in out and transfer.used_at is None:
                transfer.used_at = now
        return out

    async def revoke(self, identity_id: str, now: float) -> Revoked:
        """Revoke the identity, its devices and codes, and the bots it owns."""
        row = self.data.identities.get(identity_id)
        if row is not None and row.revoked_at is None:
            self.data.identities[identity_id] = replace(row, revoked_at=now)
        live = [d.id for d in await self.devices_of(identity_id)]
        devices = await self.revoke_devices(identity_id, live, now)
        for transfer in self.data.transfers.values():
            if transfer.identity == identity_id and transfer.used_at is None:
                transfer.used_at = now
        bots = []
        for bot in list(self.data.bots.values()):
            if bot.owner == identity_id and bot.revoked_at is None:
                self.data.bots[bot.identity] = replace(bot, revoked_at=now)
                found = self.data.identities.get(bot.identity)
                if found is not None and found.revoked_at is None:
                    self.data.identities[bot.identity] = replace(found, revoked_at=now)
                bots.append(bot.identity)
        return Revoked(devices, bots)

    async def add_transfer(
        self, code_hash: str, identity_id: str, device_id: str, now: float, expires_at: float
    ) -> None:
        """Store the code."""
        self.data.transfers[code_hash] = Transfer(identity_id, device_id, expires_at)

    async def find_transfer(self, code_hash: str, now: float) -> str | None:
        """The code's identity while it is unused, unexpired, and its device signed in."""
        found = self.data.transfers.get(code_hash)
        if found is None or found.used_at is not None or found.expires_at <= now:
            return None
        device = self.data.devices.get(found.device)
        if device is None or device.revoked_at is not None:
            return None
        return found.identity

    async def use_transfer(self, code_hash: str, now: float) -> str | None:
        """Mark the code used."""
        identity = await self.find_transfer(code_hash, now)
        if identity is not None:
            self.data.transfers[code_hash].used_at = now
        return identity
