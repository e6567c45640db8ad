"""Presence: who is connected to a table, in this server process and in the others.

Each process counts its own connections per seat (and its watchers) and
reports them on the hub (:mod:`basra.server.runtime.pubsub`) when they change and on a
heartbeat; a report from another process holds until it expires. From that the
table master knows whether a person is at their seat (else, after the grace
period, a stand-in bot plays for them), whether their table is urgent work for
the bots (:mod:`basra.server.runtime.scheduler`), and whether anyone at all is left
(else, after a while, the table ends as abandoned).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Presence"]


@dataclass
class Presence:
    """The connections to one table: here by seat, elsewhere by report."""

    people: tuple[int, ...]
    """The seats of people (bots are never absent)."""
    local: dict[int, int] = field(default_factory=dict)
    """Connections here per seat."""
    watchers: int = 0
    """Connections here that sit nowhere."""
    remote: dict[str, tuple[dict[int, int], int, float]] = field(default_factory=dict)
    """Per other process: its connections per seat, its total, and when the report expires."""
    absent_since: dict[int, float] = field(default_factory=dict)
    """When each person's seat was last left empty (everywhere)."""
    empty_since: float | None = None
    """When the last connection of all left (None while anyone is connected)."""

    @classmethod
    def of(cls, people: tuple[int, ...], now: float) -> Presence:
        """Nobody connected yet, since ``now``."""
        return cls(people, absent_since=dict.fromkeys(people, now), empty_since=now)

    def present(self, seat: int, now: float) -> bool:
        """Whether the person in ``seat`` is connected here or in a live process."""
        if self.local.get(seat, 0) > 0:
            return True
        return any(c.get(seat, 0) > 0 and expires > now for c, _, expires in self.remote.values())

    def anyone(self, now: float) -> bool:
        """Whether any connection at all is open to the table, anywhere."""
        if self.watchers or any(self.local.values()):
            return True
        return any(total > 0 and expires > now for _, total, expires in self.remote.values())

    def seated_here(self) -> bool:
        """Whether a seated person is connected to this process."""
        return any(self.local.values())

    def arrive(self, seat: int | None) -> None:
        """A connection opened (sitting in ``seat``, or watching)."""
        if seat is None:
            self.watchers += 1
        else:
            self.local[seat] = self.local.get(seat, 0) + 1
        self.empty_since = None

    def move(self, seat: int) -> None:
        """A watching connection took ``seat``."""
        self.watchers = max(self.watchers - 1, 0)
        self.local[seat] = self.local.get(seat, 0) + 1

    def leave(self, seat: int | None, now: float) -> None:
        """A connection closed."""
        if seat is None:
            self.watchers = max(self.watchers - 1, 0)
        else:
            self.local[seat] = max(self.local.get(seat, 0) - 1, 0)
            if not self.present(seat, now):
                self.absent_since[seat] = now
        if not self.anyone(now):
            self.empty_since = now

    def gone(self, seat: int) -> None:
        """The person in ``seat`` left for good (shut out by the operator): absent since
        ever, so a stand-in plays for them at once, with no grace period."""
        self.absent_since[seat] = float("-inf")

    def report(self) -> dict[str, Any]:
        """This process's counts, for a ``presence`` notice."""
        counts = {str(seat): n for seat, n in self.local.items() if n > 0}
        return {"counts": counts, "total": self.watchers + sum(self.local.values())}

    def hear(
        self, origin: str, counts: dict[int, int], total: int, expires: float, now: float
    ) -> None:
        """Another process's report: note who left there and whether anyone is left."""
        before = {seat: self.present(seat, now) for seat in self.people}
        self.remote[origin] = (counts, total, expires)
        for seat, was in before.items():
            if was and not self.present(seat, now):
                self.absent_since[seat] = now
        if self.anyone(now):
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = now
