"""Identities, devices and transfer codes in SQL.

Revoking an identity ends, in one transaction, its devices, its transfer codes, and
what the features own in its name: each :data:`Cascade` given (the bot API's bot
accounts, :func:`basra.server.features.botapi_store.revoke_owned`) revokes its own rows
and names the identities it ended, which are revoked with it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.rows import DeviceRow, IdentityRow, Revoked
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["Cascade", "SqlIdentities"]

IDS, DEV, XFR = schema.identities, schema.devices, schema.transfers

Cascade = Callable[[AsyncConnection, str, float], Awaitable[list[str]]]
"""A step of revoking an identity, in its transaction: ``(connection, identity, now)``
revokes what the identity owns and returns the identities that ended with it."""


class SqlIdentities:
    """:class:`~basra.server.store.protocols.IdentityStore` in SQL."""

    def __init__(self, db: SqlDatabase, cascades: Sequence[Cascade] = ()) -> None:
        self.db = db
        self.cascades = tuple(cascades)

    async def create(self, identity: IdentityRow) -> None:
        """Insert the identity."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                IDS.insert().values(
                    id=identity.id,
                    created_at=identity.created_at,
                    name=identity.name,
                    revoked_at=identity.revoked_at,
                    legacy=identity.legacy,
                )
            )

    async def load(self, identity_id: str) -> IdentityRow | None:
        """The identity, or None."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(IDS).where(IDS.c.id == identity_id))).first()
        return None if row is None else _identity(row)

    async def load_many(self, identity_ids: Sequence[str]) -> dict[str, IdentityRow]:
        """One query."""
        wanted = sorted(set(identity_ids))
        if not wanted:
            return {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(IDS).where(IDS.c.id.in_(wanted)))
            return {row.id: _identity(row) for row in rows}

    async def claim_legacy(self, identity_id: str) -> bool:
        """Clear the legacy mark in one UPDATE (one caller wins)."""
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                update(IDS)
                .where(IDS.c.id == identity_id, IDS.c.legacy.is_(True), IDS.c.revoked_at.is_(None))
                .values(legacy=False)
            )
        return bool(result.rowcount)

    async def name(self, identity_id: str, name: str) -> None:
        """Store the name."""
        async with self.db.engine.begin() as conn:
            await conn.execute(update(IDS).where(IDS.c.id == identity_id).values(name=name))

    async def add_device(self, device: DeviceRow, token_hash: str) -> None:
        """Insert the device."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                DEV.insert().values(
                    id=device.id,
                    identity_id=device.identity,
                    token_hash=token_hash,
                    created_at=device.created_at,
                    last_seen_at=device.last_seen_at,
                    user_agent=device.user_agent,
                )
            )

    async def device_by_token(self, token_hash: str) -> tuple[DeviceRow, IdentityRow] | None:
        """One indexed lookup of the device and its identity, both live."""
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(DEV, IDS.c.created_at.label("i_created_at"), IDS.c.name, IDS.c.legacy)
                    .join(IDS, IDS.c.id == DEV.c.identity_id)
                    .where(DEV.c.token_hash == token_hash)
                    .where(DEV.c.revoked_at.is_(None), IDS.c.revoked_at.is_(None))
                )
            ).first()
        if row is None:
            return None
        identity = IdentityRow(row.identity_id, row.i_created_at, row.name, None, bool(row.legacy))
        return _device(row), identity

    async def touch_device(self, device_id: str, now: float) -> None:
        """Update ``last_seen_at`` (at most once a minute)."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(DEV)
                .where(DEV.c.id == device_id, DEV.c.last_seen_at < now - 60)
                .values(last_seen_at=now)
            )

    async def devices_of(self, identity_id: str) -> list[DeviceRow]:
        """Signed-in devices, newest first."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(DEV)
                    .where(DEV.c.identity_id == identity_id, DEV.c.revoked_at.is_(None))
                    .order_by(DEV.c.created_at.desc())
                )
            ).all()
        return [_device(r) for r in rows]

    async def revoke_devices(
        self, identity_id: str, device_ids: Sequence[str], now: float
    ) -> list[str]:
        """Revoke those devices (of this identity only) and their codes, in one transaction."""
        if not device_ids:
            return []
        async with self.db.engine.begin() as conn:
            return await _revoke_devices(conn, identity_id, device_ids, now)

    async def revoke(self, identity_id: str, now: float) -> Revoked:
        """Revoke the identity, every device, code and bot account of it, in one transaction."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(IDS)
                .where(IDS.c.id == identity_id, IDS.c.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            live = (
                await conn.execute(
                    select(DEV.c.id).where(
                        DEV.c.identity_id == identity_id, DEV.c.revoked_at.is_(None)
                    )
                )
            ).scalars()
            devices = await _revoke_devices(conn, identity_id, list(live), now)
            await conn.execute(
                update(XFR)
                .where(XFR.c.identity_id == identity_id, XFR.c.used_at.is_(None))
                .values(used_at=now)
            )
            bots = [b for cascade in self.cascades for b in await cascade(conn, identity_id, now)]
            if bots:
                await conn.execute(
                    update(IDS)
                    .where(IDS.c.id.in_(bots), IDS.c.revoked_at.is_(None))
                    .values(revoked_at=now)
                )
        return Revoked(devices, bots)

    async def add_transfer(
        self, code_hash: str, identity_id: str, device_id: str, now: float, expires_at: float
    ) -> None:
        """Insert the code."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                XFR.insert().values(
                    code_hash=code_hash,
                    identity_id=identity_id,
                    device_id=device_id,
                    created_at=now,
                    expires_at=expires_at,
                )
            )

    async def find_transfer(self, code_hash: str, now: float) -> str | None:
        """The code's identity while unused, unexpired, and its device signed in."""
        async with self.db.engine.connect() as conn:
            found = (await conn.execute(_valid_code(code_hash, now))).scalar_one_or_none()
        return None if found is None else str(found)

    async def use_transfer(self, code_hash: str, now: float) -> str | None:
        """Mark the valid code used in one UPDATE (one caller wins)."""
        async with self.db.engine.begin() as conn:
            found = (await conn.execute(_valid_code(code_hash, now))).scalar_one_or_none()
            if found is None:
                return None
            result = await conn.execute(
                update(XFR)
                .where(XFR.c.code_hash == code_hash, XFR.c.used_at.is_(None))
                .values(used_at=now)
            )
            if not result.rowcount:
                return None
        return str(found)


def _valid_code(code_hash: str, now: float) -> Any:
    """The identity of a code unused, unexpired, and made on a device still signed in."""
    return (
        select(XFR.c.identity_id)
        .join(DEV, DEV.c.id == XFR.c.device_id)
        .where(XFR.c.code_hash == code_hash, XFR.c.used_at.is_(None), XFR.c.expires_at > now)
        .where(DEV.c.revoked_at.is_(None))
    )


async def _revoke_devices(
    conn: AsyncConnection, identity_id: str, device_ids: Sequence[str], now: float
) -> list[str]:
    found = (
        await conn.execute(
            select(DEV.c.id).where(
                DEV.c.identity_id == identity_id,
                DEV.c.id.in_(list(device_ids)),
                DEV.c.revoked_at.is_(None),
            )
        )
    ).scalars()
    ids = [str(i) for i in found]
    if ids:
        await conn.execute(update(DEV).where(DEV.c.id.in_(ids)).values(revoked_at=now))
        await conn.execute(
            update(XFR).where(XFR.c.device_id.in_(ids), XFR.c.used_at.is_(None)).values(used_at=now)
        )
    return ids


def _identity(row: Any) -> IdentityRow:
    return IdentityRow(row.id, row.created_at, row.name, row.revoked_at, bool(row.legacy))


def _device(row: Any) -> DeviceRow:
    return DeviceRow(
        id=row.id,
        identity=row.identity_id,
        created_at=row.created_at,
        last_seen_at=row.last_seen_at,
        revoked_at=row.revoked_at,
        user_agent=row.user_agent,
    )
