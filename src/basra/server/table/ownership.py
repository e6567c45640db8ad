"""One owner per live table across processes: who drives its clocks, stand-ins and bots.

Every process may load a table, serve its sockets from the table's events and store
the moves its people send (the store refuses a write that lost the race for a step).
Only the table's *owner* acts on its own: it plans the automatic actions (deals, bots,
stand-ins, timeouts: :mod:`~basra.server.table.autopilot`) and the wait after which an
empty table is abandoned (:mod:`~basra.server.table.lifecycle`). Without an owner
every process would think for every bot and race the others for each of its moves.

Ownership is a lease in the store's leases (the one quick play's pairing and the
tournaments' clock use), named ``table:<id>`` and held by the process's origin. Each
process holds a lease of its own too, ``process:<origin>``, saying it is alive. Every
``every`` seconds a process renews its own lease and every table lease it holds in one
statement (however many tables), then reads the processes' leases (which are alive;
one starting or draining also says so on the bus at once) and the table leases that
expired (the store filters them: a few rows, not every table):

- **placed**: a new table (and one found without a lease when a server starts) goes to
  the process that rendezvous hashing of the table's id picks among those alive, so
  new tables spread over the processes and the bots' work with them. The process that
  made the table writes the lease in the chosen one's name and tells it on the bus
  (``owner``); the chosen one takes it up at once, or once the lease expired if the
  notice was lost. (Now and then the holder of the ``owners`` lease also looks for
  live tables with no lease at all: a crash as one was made.)
- **handed over**: a draining process (SIGTERM, ``basra admin drain``) stops its
  tables' automatic actions (each under the table's lock, so no play is half stored),
  lets its leases go, writes each in the name of another live process and tells it.
  A process that dies (``kill -9``) stops renewing: once its leases expire (``ttl``
  seconds), the process rendezvous picks among the living takes each of its tables at
  its next pass (no notice needed), and any other one pass later if that one did not.
  The taker reads the table from the stored log
  (:meth:`OwnershipHandler.adopt`); every acknowledged move is there, and a step
  already stored is never played twice: the log takes one event per step.
- **alone**: processes whose bus reaches no other process (several on one database
  with no Redis between them) count only themselves alive: each keeps the tables made
  or found there, as a single process does, and none is handed to a process that could
  never tell this one's people of its moves.
- **lost**: a lease not renewed in time (a process stalled past ``ttl``) may have been
  taken: a renewal that finds it gone stops the table's automatic actions here.

A table no longer live (over, abandoned) gives its lease back at the next pass. Without
a lease store (a master made on its own, in tests) this process owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import LeaseStore

__all__ = ["OWNER_NOTICE", "Ownership", "OwnershipHandler", "rendezvous"]

log = logging.getLogger(__name__)

OWNER_NOTICE = "owner"
"""The bus notice telling a process a table's lease was written in its name."""
TABLE_PREFIX = "table:"
PROCESS_PREFIX = "process:"
SWEEPER = "owners"
"""The lease of the one process that now and then looks for live tables with no lease."""


def rendezvous(table_id: str, origins: Iterable[str]) -> str | None:
    """The process among ``origins`` a table goes to: the highest hash of the pair (the
    same answer in every process; a process leaving moves only its own tables).

    >>> rendezvous("t1", ["a", "b"]) == rendezvous("t1", ["b", "a"])
    True
    """
    best: tuple[bytes, str] | None = None
    for origin in origins:
        score = hashlib.blake2b(f"{table_id}|{origin}".encode(), digest_size=8).digest()
        if best is None or score > best[0]:
            best = (score, origin)
    return None if best is None else best[1]


class OwnershipHandler(Protocol):
    """What ownership asks of the tables (the lifecycle answers)."""

    async def adopt(self, table_id: str) -> bool:
        """This process now owns the table: load or catch it up from the log and drive it;
        False when it is no longer live (its lease is then let go)."""

    async def disown(self, table_id: str) -> None:
        """This process no longer owns the table: stop its automatic actions here."""

    def ended(self, table_id: str) -> bool:
        """Whether the table is no longer live here (its lease can go)."""

    async def unowned(self, held: set[str]) -> list[str]:
        """The live tables in the store whose ids are not among ``held`` (rarely asked)."""


class Ownership:
    """The table leases this process holds, renewed while it lives (see the module)."""

    def __init__(
        self,
        leases: LeaseStore | None,
        bus: Bus,
        origin: str,
        *,
        ttl: float = 3.0,
        every: float = 0.75,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.leases = leases
        self.bus = bus
        self.origin = origin
        self.ttl = ttl
        self.every = every
        self.now = now
        self.owned: set[str] = set()
        """The tables this process drives."""
        self.alive: list[str] = [origin]
        """The processes whose own lease was current at the last pass (this one too)."""
        self.handler: OwnershipHandler | None = None
        self.taken = 0
        """Tables taken over from a process that died or drained (counted for tests)."""
        self.draining = False
        self._task: asyncio.Task[None] | None = None
        self._passes = 0
        self._adopting: set[str] = set()
        self._handing: asyncio.Future[list[str]] | None = None
        if leases is not None:
            bus.on(OWNER_NOTICE, self.heard)

    @property
    def me(self) -> str:
        """This process's lease name."""
        return PROCESS_PREFIX + self.origin

    def owns(self, table_id: str) -> bool:
        """Whether this process drives the table (always, without a lease store)."""
        return self.leases is None or table_id in self.owned

    # ---------------------------------------------------------------- life

    async def start(self, handler: OwnershipHandler) -> None:
        """Say this process is alive, read who else is, and start renewing."""
        self.handler = handler
        if self.leases is None:
            return
        await self.leases.take(self.me, self.origin, self.now(), self.ttl)
        await self._read()
        self._task = asyncio.create_task(self._run())
        with contextlib.suppress(Exception):
            await self.bus.publish({"kind": OWNER_NOTICE, "joined": self.origin})

    async def close(self) -> None:
        """Stop renewing (a process that closes without :meth:`hand_over` lets its leases
        expire: the others take its tables over then)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    # ---------------------------------------------------------------- placing

    async def place(self, table_id: str) -> bool:
        """Give a table with no owner one (a new table, one found at start): this process
        if rendezvous picks it, else the picked one, told on the bus. True if this process
        owns the table now. A table another live process holds stays where it is."""
        if self.leases is None:
            return True
        if table_id in self.owned:
            return True
        others = [o for o in self.alive if o != self.origin] if self.draining else self.alive
        target = rendezvous(table_id, others) or self.origin
        if target == self.origin:
            return await self.claim(table_id)
        if await self.leases.take(TABLE_PREFIX + table_id, target, self.now(), self.ttl):
            await self.bus.publish({"kind": OWNER_NOTICE, "table": table_id, "to": target})
        return False

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if it is free, expired or written in this process's name."""
        if self.leases is None:
            return True
        if self.draining:
            return False
        if await self.leases.take(TABLE_PREFIX + table_id, self.origin, self.now(), self.ttl):
            self.owned.add(table_id)
            return True
        return False

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process wrote a table's lease in this one's name: take it up. (Or a
        process started or drains: new tables are placed with it, or no longer.)"""
        joined, left = notice.get("joined"), notice.get("left")
        if isinstance(joined, str) and joined not in self.alive:
            self.alive = sorted({*self.alive, joined})
        if isinstance(left, str) and left != self.origin:
            self.alive = [o for o in self.alive if o != left]
        table_id, to = notice.get("table"), notice.get("to")
        if to != self.origin or not isinstance(table_id, str) or table_id in self.owned:
            return
        if self.draining and self.leases is not None:  # placed here before it heard: pass it on
            await self.leases.release(self.origin, [TABLE_PREFIX + table_id])
            await self.place(table_id)
            return
        await self._adopt(table_id, taken=notice.get("taken") is True)

    async def _adopt(self, table_id: str, *, taken: bool = False) -> None:
        if table_id in self._adopting or not await self.claim(table_id):
            return
        self._adopting.add(table_id)
        try:
            if taken:
                self.taken += 1
                log.info("table %s taken over by %s", table_id, self.origin)
            if self.handler is not None and not await self.handler.adopt(table_id):
                await self.let_go([table_id])
        except Exception:
            log.exception("cannot take table %s over", table_id)
        finally:
            self._adopting.discard(table_id)

    async def let_go(self, table_ids: list[str]) -> None:
        """Give up tables this process owns (no longer live, say)."""
        if self.leases is None or not table_ids:
            return
        for table_id in table_ids:
            self.owned.discard(table_id)
        await self.leases.release(self.origin, [TABLE_PREFIX + t for t in table_ids])

    # ---------------------------------------------------------------- handing over

    async def hand_over(self) -> list[str]:
        """Drain: stop driving every table here, and give each to another live process
        (told on the bus at once). The tables handed over; called again (the drain's
        start, then the process's close), it waits for the first hand-over."""
        if self._handing is None:
            self._handing = asyncio.ensure_future(self._hand_over())
        return await asyncio.shield(self._handing)

    async def _hand_over(self) -> list[str]:
        if self.leases is None:
            return []
        self.draining = True
        await self.close()
        tables = sorted(self.owned)
        for table_id in tables:
            self.owned.discard(table_id)
            if self.handler is not None:
                await self.handler.disown(table_id)
        with contextlib.suppress(Exception):
            await self.leases.release(self.origin, [self.me, SWEEPER])
            await self.bus.publish({"kind": OWNER_NOTICE, "left": self.origin})
            await self._read()
        await self.leases.release(self.origin, [TABLE_PREFIX + t for t in tables])
        others = [o for o in self.alive if o != self.origin]
        now = self.now()
        for table_id in tables:
            target = rendezvous(table_id, others)
            if target is None:
                continue  # nobody else: the next process to start takes it up
            if await self.leases.take(TABLE_PREFIX + table_id, target, now, self.ttl):
                await self.bus.publish({"kind": OWNER_NOTICE, "table": table_id, "to": target})
        if tables:
            log.warning("handed %d tables over to %d processes", len(tables), len(others))
        return tables

    # ---------------------------------------------------------------- renewing

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the table leases failed")

    async def renew(self) -> None:
        """One pass: renew, let finished tables go, take up orphaned tables."""
        leases, handler = self.leases, self.handler
        if leases is None or handler is None or self.draining:
            return
        now = self.now()
        names = [self.me, *(TABLE_PREFIX + t for t in self.owned)]
        kept = await leases.renew(self.origin, names, now, self.ttl)
        if self.me not in kept:
            await leases.take(self.me, self.origin, now, self.ttl)
        for table_id in list(self.owned):
            if TABLE_PREFIX + table_id not in kept and table_id not in self._adopting:
                self.owned.discard(table_id)
                log.warning("table %s: its lease was lost (this process stalled?)", table_id)
                await handler.disown(table_id)
        await self.let_go([t for t in self.owned if handler.ended(t)])
        await self._read()
        expired = await leases.held(TABLE_PREFIX, expired_before=now)
        taking = []
        for name, (holder, until) in expired.items():
            table_id = name[len(TABLE_PREFIX) :]
            if table_id in self.owned:
                continue
            if (
                holder == self.origin  # written in this process's name: the notice was lost
                or rendezvous(table_id, self.alive) == self.origin
                or until < now - self.ttl  # the one rendezvous picks did not take it up
            ):
                taking.append(self._adopt(table_id, taken=holder != self.origin))
        await asyncio.gather(*taking)  # each read from the log at once, not one by one
        self._passes += 1
        if self._passes % 20 == 0 and await leases.take(SWEEPER, self.origin, now, 60.0):
            # A table stored with no lease at all (a crash as it was made): one process
            # looks for them now and then.
            held = await leases.held(TABLE_PREFIX)
            for table_id in await handler.unowned({n[len(TABLE_PREFIX) :] for n in held}):
                await self._adopt(table_id, taken=True)

    async def _read(self) -> dict[str, tuple[str, float]]:
        """Read the processes' leases: note those alive."""
        if self.leases is None:
            return {}
        held = await self.leases.held(PROCESS_PREFIX)
        now = self.now()
        # Processes on one database with no hub between them (no Redis) hear none of each
        # other's notices, so a table placed on another would be driven where the people
        # at it are never told of its moves: then each counts only itself alive.
        alive = {
            name[len(PROCESS_PREFIX) :]
            for name, (_, until) in held.items()
            if name.startswith(PROCESS_PREFIX) and until >= now and self.bus.reaches_others
        }
        if not self.draining:
            alive.add(self.origin)
        self.alive = sorted(alive)
        return held
