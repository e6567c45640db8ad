"""Tournaments in dicts: events, their entrants, rounds and games, and waiting teams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from basra.server.store.memory.data import MemoryData, TournamentData
from basra.server.store.rows import (
    CapReachedError,
    EnteredError,
    EntrantRow,
    EventCap,
    TeamRow,
    TournamentChanges,
    TournamentGameRow,
    TournamentRow,
    TournamentWrite,
)

__all__ = ["MemoryTournaments"]


class _RefusedError(Exception):
    """A claim or a result was refused: the write is dropped whole."""


class MemoryTournaments:
    """:class:`~basra.server.store.protocols.TournamentStore` on a :class:`MemoryData`.

    No method awaits between its reads and its writes: each is atomic on the event loop.
    """

    def __init__(self, data: MemoryData) -> None:
        self.data = data

    @property
    def _events(self) -> dict[str, TournamentData]:
        return self.data.tournaments

    async def create(
        self,
        event: TournamentRow,
        entrants: Sequence[EntrantRow] = (),
        members: Sequence[tuple[str, str]] = (),
        caps: Sequence[EventCap] = (),
    ) -> TournamentRow:
        """Count the caps and insert it (or return the one of its schedule key)."""
        if event.schedule_key is not None:
            for held in self._events.values():
                if held.row.schedule_key == event.schedule_key:
                    return held.row
        if event.id in self._events:
            raise ValueError(f"event {event.id!r} exists")
        for cap in caps:
            found = sum(
                1
                for held in self._events.values()
                if (
                    held.row.status in ("created", "running")
                    if cap.since is None
                    else held.row.created_at >= cap.since
                )
                and cap.created_by in (None, held.row.created_by)
                and cap.created_from in (None, held.row.created_from)
            )
            if found >= cap.limit:
                raise CapReachedError(cap)
        held = TournamentData(replace(event, version=1))
        for entrant in entrants:
            held.entrants[entrant.entrant_id] = (1, entrant)
        held.members.update(dict(members))
        self._events[event.id] = held
        return held.row

    async def load(self, event_id: str) -> TournamentRow | None:
        """The row."""
        held = self._events.get(event_id)
        return None if held is None else held.row

    async def changes(self, event_id: str, since: int) -> TournamentChanges | None:
        """The rows stamped after ``since``."""
        held = self._events.get(event_id)
        if held is None:
            return None
        return TournamentChanges(
            held.row,
            [e for stamp, e in held.entrants.values() if stamp > since],
            [r for stamp, r in held.rounds.values() if stamp > since],
            [g for stamp, g in held.games.values() if stamp > since],
        )

    async def write(
        self, event_id: str, change: TournamentWrite, expect: int | None = None
    ) -> int | None:
        """Check everything first, then write everything."""
        held = self._events.get(event_id)
        if held is None or (expect is not None and held.row.version != expect):
            return None
        for key, member_of in change.members:
            if held.members.get(key, member_of) != member_of:
                raise EnteredError(key)
        try:
            claims = self._claims(held, change)
            result = self._result(held, change)
        except _RefusedError:
            return None
        version = held.row.version + 1
        row = held.row
        for name in ("status", "started_at", "finished_at", "ended", "name"):
            value = getattr(change, name)
            if value is not None:
                row = replace(row, **{name: value})
        held.row = replace(row, version=version)
        for key in change.released_members:
            held.members.pop(key, None)
        held.members.update(dict(change.members))
        for entrant in change.entrants:
            held.entrants[entrant.entrant_id] = (version, entrant)
        for paired in change.rounds:
            held.rounds[int(paired["number"])] = (version, paired)
        for game in change.games:
            held.games.setdefault(game.table_id, (version, game))
        for entrant_id, table_id in claims:
            _, claimed = held.entrants[entrant_id]
            held.entrants[entrant_id] = (version, replace(claimed, playing=table_id))
        if result is not None:
            table_id, game = result
            held.games[table_id] = (version, game)
            for entrant_id, (_, seated) in list(held.entrants.items()):
                if seated.playing == table_id:
                    held.entrants[entrant_id] = (version, replace(seated, playing=None))
        return version

    def _claims(self, held: TournamentData, change: TournamentWrite) -> list[tuple[str, str]]:
        if change.claims and any(g.table_id in held.games for g in change.games):
            raise _RefusedError  # an arena pass's game numbers were taken meanwhile
        seen: set[str] = set()
        for entrant_id, _ in change.claims:
            found = held.entrants.get(entrant_id)
            if found is None or found[1].playing is not None or entrant_id in seen:
                raise _RefusedError
            seen.add(entrant_id)
        return list(change.claims)

    def _result(
        self, held: TournamentData, change: TournamentWrite
    ) -> tuple[str, TournamentGameRow] | None:
        if change.result is None:
            return None
        table_id, result, finished_at = change.result
        found = held.games.get(table_id)
        if found is None or found[1].result is not None:
            raise _RefusedError
        return table_id, replace(found[1], result=result, finished_at=finished_at)

    async def listing(
        self,
        statuses: Sequence[str],
        limit: int = 50,
        *,
        public: bool | None = True,
        created_by: str | None = None,
    ) -> list[TournamentRow]:
        """Filter and sort the rows."""
        found = [
            held.row
            for held in self._events.values()
            if held.row.status in statuses
            and (public is None or held.row.public == public)
            and (created_by is None or held.row.created_by == created_by)
        ]
        found.sort(key=lambda r: -(r.finished_at or 0.0) if r.status == "finished" else r.starts_at)
        return found[:limit]

    async def entered(self, keys: Sequence[str]) -> list[tuple[str, str]]:
        """Scan the members."""
        wanted = set(keys)
        return [
            (event_id, entrant)
            for event_id, held in self._events.items()
            for key, entrant in held.members.items()
            if key in wanted
        ]

    async def put_team(self, team: TeamRow) -> None:
        """Replace the maker's earlier team at that event."""
        teams = self.data.teams
        for code, other in list(teams.items()):
            if other.event_id == team.event_id and other.identity == team.identity:
                del teams[code]
        teams[team.code_hash] = team

    async def team(self, code_hash: str) -> TeamRow | None:
        """One lookup."""
        return self.data.teams.get(code_hash)

    async def team_of(self, event_id: str, identity: str) -> TeamRow | None:
        """Scan the teams."""
        return next(
            (
                t
                for t in self.data.teams.values()
                if t.event_id == event_id and t.identity == identity
            ),
            None,
        )

    async def drop_team(self, code_hash: str) -> None:
        """Remove it."""
        self.data.teams.pop(code_hash, None)
