"""``GET /readyz``: whether this process can serve (the proxy's and the operator's check).

Ready means: not draining; the database answers and its schema is at the migrations'
head (a process started before an upgrade of another is not ready until it is
restarted on the new code, or after it: a newer schema than its code knows); and, with
Redis, Redis answers ``PING``. Each check has a deadline of :data:`TIMEOUT` seconds.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import text

from basra.server.store.sql.database import migrations_head
from basra.server.stores import Store

__all__ = ["TIMEOUT", "Readiness"]

TIMEOUT = 2.0


class Readiness:
    """The checks of ``/readyz`` for one process's store and Redis."""

    def __init__(self, store: Store, redis_url: str | None) -> None:
        self.store = store
        self.redis_url = redis_url
        self._redis: Any = None

    async def database(self) -> dict[str, Any]:
        """Reachable, and its migration is this code's head."""
        db = getattr(self.store, "db", None)
        if db is None:  # a store without a database (a test's stand-in)
            return {"ok": True}
        engine = db.engine
        started = time.perf_counter()
        async with asyncio.timeout(TIMEOUT), engine.connect() as conn:
            current = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        head = migrations_head()
        return {
            "ok": current == head,
            "migration": current,
            "head": head,
            "ms": round((time.perf_counter() - started) * 1000, 1),
        }

    async def redis(self) -> dict[str, Any] | None:
        """Answers PING (None without Redis)."""
        if self.redis_url is None:
            return None
        if self._redis is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(
                self.redis_url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT
            )
        started = time.perf_counter()
        async with asyncio.timeout(TIMEOUT):
            await self._redis.ping()
        return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}

    async def report(self, draining: bool) -> dict[str, Any]:
        """Every check; ``ready`` only if all pass."""
        checks: dict[str, Any] = {}
        for name, check in (("database", self.database), ("redis", self.redis)):
            try:
                result = await check()
            except Exception as error:  # any failure to reach it is "not ready", said why
                result = {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
            if result is not None:
                checks[name] = result
        ready = not draining and all(c["ok"] for c in checks.values())
        return {"ready": ready, "draining": draining, **checks}

    async def close(self) -> None:
        """Let the Redis client go."""
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None
