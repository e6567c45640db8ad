"""The store in Python dicts: for tests and for ``--database memory``.

Every repository reads and writes one :class:`MemoryData` (the "engine": a
dict per kind of row). No method awaits between its reads and its writes, so
each is atomic on the event loop, like a transaction: counting a table's caps
and inserting it, seating a quick-play group with its table, revoking an
identity with its devices and bots. Two stores made on one
:class:`MemoryData` (:meth:`MemoryStore.sharing`) are two server processes on
one database, for tests.
"""

from __future__ import annotations

from basra.server.store.memory.data import MemoryData
from basra.server.store.memory.identities import MemoryIdentities
from basra.server.store.memory.learn import MemoryLessons, MemoryPuzzles
from basra.server.store.memory.moderation import MemoryModeration
from basra.server.store.memory.play import (
    MemoryBots,
    MemoryDaily,
    MemoryLeases,
    MemorySecrets,
    MemorySeeks,
)
from basra.server.store.memory.players import MemoryPlayers
from basra.server.store.memory.reviews import MemoryReviews
from basra.server.store.memory.tables import MemoryTables
from basra.server.store.memory.tournaments import MemoryTournaments

__all__ = ["MemoryData", "MemoryStore"]


class MemoryStore:
    """Every repository of :class:`~basra.server.store.protocols.Store` on one
    :class:`MemoryData`."""

    def __init__(self, data: MemoryData | None = None) -> None:
        self.data = data or MemoryData()
        self.tables = MemoryTables(self.data)
        self.identities = MemoryIdentities(self.data)
        self.players = MemoryPlayers(self.data)
        self.seeks = MemorySeeks(self.data)
        self.leases = MemoryLeases(self.data)
        self.secrets = MemorySecrets(self.data)
        self.daily = MemoryDaily(self.data)
        self.bots = MemoryBots(self.data)
        self.reviews = MemoryReviews(self.data)
        self.tournaments = MemoryTournaments(self.data)
        self.moderation = MemoryModeration(self.data)
        self.lessons = MemoryLessons(self.data)
        self.puzzles = MemoryPuzzles(self.data)

    @classmethod
    def sharing(cls, other: MemoryStore) -> MemoryStore:
        """A second store on the same data (a second server process, in tests)."""
        return cls(other.data)

    async def start(self) -> None:
        """Nothing to connect."""

    async def close(self) -> None:
        """Nothing to release."""
