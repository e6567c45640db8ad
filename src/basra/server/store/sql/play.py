"""Leases and server secrets in SQL."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlLeases", "SqlSecrets"]

LEASE, SECRET = schema.leases, schema.secrets


class SqlLeases:
    """:class:`~basra.server.store.protocols.LeaseStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def take(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Renew or take over an expired lease in one UPDATE; else insert it if there is none."""
        async with self.db.engine.begin() as conn:
            taken = await conn.execute(
                update(LEASE)
                .where(LEASE.c.name == name, or_(LEASE.c.holder == holder, LEASE.c.until < now))
                .values(holder=holder, until=now + ttl)
            )
        if taken.rowcount:
            return True
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(LEASE.insert().values(name=name, holder=holder, until=now + ttl))
        except IntegrityError:  # someone else holds it
            return False
        return True

    async def renew(self, holder: str, names: Sequence[str], now: float, ttl: float) -> set[str]:
        """One UPDATE for them all, and one SELECT of those the holder has (RETURNING is
        not in every SQLite a server may run on)."""
        if not names:
            return set()
        wanted = list(dict.fromkeys(names))
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(LEASE)
                .where(LEASE.c.holder == holder, LEASE.c.name.in_(wanted))
                .values(until=now + ttl)
            )
            rows = await conn.execute(
                select(LEASE.c.name).where(LEASE.c.holder == holder, LEASE.c.name.in_(wanted))
            )
            return {str(r[0]) for r in rows}

    async def release(self, holder: str, names: Sequence[str]) -> None:
        """One DELETE of those the holder has."""
        if not names:
            return
        async with self.db.engine.begin() as conn:
            await conn.execute(
                delete(LEASE).where(LEASE.c.holder == holder, LEASE.c.name.in_(list(names)))
            )

    async def held(
        self, prefix: str, expired_before: float | None = None
    ) -> dict[str, tuple[str, float]]:
        """The leases whose names start with ``prefix`` (expired before a time, if given:
        the database filters them, so a read of the few expired ones sends no others)."""
        query = select(LEASE.c.name, LEASE.c.holder, LEASE.c.until).where(
            LEASE.c.name.startswith(prefix, autoescape=True)
        )
        if expired_before is not None:
            query = query.where(LEASE.c.until < expired_before)
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {str(r[0]): (str(r[1]), float(r[2])) for r in rows if str(r[0]).startswith(prefix)}


class SqlSecrets:
    """:class:`~basra.server.store.protocols.SecretStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def get_or_make(self, name: str, fresh: bytes) -> bytes:
        """Read it; store ``fresh`` if there is none (the first writer wins), and read again."""
        query = select(SECRET.c.value).where(SECRET.c.name == name)
        async with self.db.engine.connect() as conn:
            found = (await conn.execute(query)).scalar_one_or_none()
        if found is None:
            try:
                async with self.db.engine.begin() as conn:
                    await conn.execute(SECRET.insert().values(name=name, value=fresh.hex()))
            except IntegrityError:
                pass
            async with self.db.engine.connect() as conn:
                found = (await conn.execute(query)).scalar_one()
        return bytes.fromhex(str(found))
