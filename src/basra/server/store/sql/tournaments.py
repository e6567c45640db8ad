"""Tournaments in SQL: events, entrants, members, rounds, games and waiting teams.

Every change of an event is one transaction that first bumps the event's
``version`` (an UPDATE, so on PostgreSQL it holds the event's row lock until it
commits: the changes of one event are written one at a time, in every process)
and stamps each row it writes with the new version. Reading what changed since
a version is then a few indexed queries (:meth:`SqlTournaments.changes`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

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
from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase

__all__ = ["SqlTournaments"]

EV, EN, MB = schema.tournaments, schema.tournament_entrants, schema.tournament_members
RD, GM, TM = schema.tournament_rounds, schema.tournament_games, schema.tournament_teams


class _RefusedError(Exception):
    """The version moved, a claim found its entrant seated, or a result was in: roll back."""


class SqlTournaments:
    """:class:`~basra.server.store.protocols.TournamentStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def create(
        self,
        event: TournamentRow,
        entrants: Sequence[EntrantRow] = (),
        members: Sequence[tuple[str, str]] = (),
        caps: Sequence[EventCap] = (),
    ) -> TournamentRow:
        """Lock the caps' keys and count them, insert the event, its entrants and members;
        the stored one of its schedule key."""
        try:
            async with self.db.engine.begin() as conn:
                if caps:
                    await self.db.lock(conn, [_lock_key(cap) for cap in caps])
                for cap in caps:
                    if await _count(conn, cap) >= cap.limit:
                        raise CapReachedError(cap)
                await conn.execute(EV.insert().values(**_event_values(event), version=1))
                for entrant in entrants:
                    await conn.execute(EN.insert().values(**_entrant_values(event.id, entrant, 1)))
                for key, entrant_id in members:
                    await conn.execute(
                        MB.insert().values(event_id=event.id, member=key, entrant_id=entrant_id)
                    )
        except IntegrityError:
            if event.schedule_key is None:
                raise ValueError(f"event {event.id!r} exists") from None
            async with self.db.engine.connect() as conn:
                row = (
                    await conn.execute(select(EV).where(EV.c.schedule_key == event.schedule_key))
                ).first()
            if row is None:
                raise
            return _event(row)
        stored = await self.load(event.id)
        assert stored is not None
        return stored

    async def load(self, event_id: str) -> TournamentRow | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(EV).where(EV.c.id == event_id))).first()
        return None if row is None else _event(row)

    async def changes(self, event_id: str, since: int) -> TournamentChanges | None:
        """The row first, then every row stamped after ``since`` (a write committed between
        the two is read again next time: readers merge rows by their keys)."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(EV).where(EV.c.id == event_id))).first()
            if row is None:
                return None
            event = _event(row)
            if event.version <= since:
                return TournamentChanges(event, [], [], [])
            entrants = (
                await conn.execute(select(EN).where(EN.c.event_id == event_id, EN.c.stamp > since))
            ).all()
            rounds = (
                await conn.execute(
                    select(RD.c.data).where(RD.c.event_id == event_id, RD.c.stamp > since)
                )
            ).all()
            games = (
                await conn.execute(select(GM).where(GM.c.event_id == event_id, GM.c.stamp > since))
            ).all()
        return TournamentChanges(
            event,
            [_entrant(r) for r in entrants],
            [json.loads(r.data) for r in rounds],
            [_game(r) for r in games],
        )

    async def write(
        self, event_id: str, change: TournamentWrite, expect: int | None = None
    ) -> int | None:
        """Bump the version (under ``expect``), then write every part; roll back on a refusal."""
        try:
            async with self.db.engine.begin() as conn:
                return await self._write(conn, event_id, change, expect)
        except _RefusedError:
            return None
        except IntegrityError:
            if change.members:  # a player entered meanwhile, from another request
                raise EnteredError(change.members[0][0]) from None
            raise

    async def _write(
        self, conn: AsyncConnection, event_id: str, change: TournamentWrite, expect: int | None
    ) -> int:
        bump = update(EV).where(EV.c.id == event_id)
        if expect is not None:
            bump = bump.where(EV.c.version == expect)
        values: dict[str, Any] = {"version": EV.c.version + 1}
        for name in ("status", "started_at", "finished_at", "ended", "name"):
            value = getattr(change, name)
            if value is not None:
                values[name] = value
        if not (await conn.execute(bump.values(**values))).rowcount:
            raise _RefusedError
        version = int(
            (await conn.execute(select(EV.c.version).where(EV.c.id == event_id))).scalar_one()
        )
        for key, entrant_id in change.members:
            held = (
                await conn.execute(
                    select(MB.c.entrant_id).where(MB.c.event_id == event_id, MB.c.member == key)
                )
            ).scalar_one_or_none()
            if held is not None and held != entrant_id:
                raise EnteredError(key)
            if held is None:
                await conn.execute(
                    MB.insert().values(event_id=event_id, member=key, entrant_id=entrant_id)
                )
        if change.released_members:
            await conn.execute(
                delete(MB).where(
                    MB.c.event_id == event_id, MB.c.member.in_(list(change.released_members))
                )
            )
        if change.entrants:
            ids = [e.entrant_id for e in change.entrants]
            stored = set(
                (
                    await conn.execute(
                        select(EN.c.entrant_id).where(
                            EN.c.event_id == event_id, EN.c.entrant_id.in_(ids)
                        )
                    )
                ).scalars()
            )
            for entrant in change.entrants:
                values = _entrant_values(event_id, entrant, version)
                if entrant.entrant_id in stored:
                    await conn.execute(
                        update(EN)
                        .where(EN.c.event_id == event_id, EN.c.entrant_id == entrant.entrant_id)
                        .values(**values)
                    )
                else:
                    await conn.execute(EN.insert().values(**values))
        for paired in change.rounds:
            await conn.execute(
                RD.insert().values(
                    event_id=event_id,
                    number=int(paired["number"]),
                    data=json.dumps(paired),
                    stamp=version,
                )
            )
        if change.games:
            ids = [g.table_id for g in change.games]
            made = set(
                (await conn.execute(select(GM.c.table_id).where(GM.c.table_id.in_(ids)))).scalars()
            )
            if made and change.claims:  # an arena pass's game numbers were taken meanwhile
                raise _RefusedError
            for game in change.games:
                if game.table_id not in made:
                    await conn.execute(GM.insert().values(**_game_values(event_id, game, version)))
        for entrant_id, table_id in change.claims:
            claimed = await conn.execute(
                update(EN)
                .where(
                    EN.c.event_id == event_id,
                    EN.c.entrant_id == entrant_id,
                    EN.c.playing.is_(None),
                )
                .values(playing=table_id, stamp=version)
            )
            if claimed.rowcount != 1:
                raise _RefusedError
        if change.result is not None:
            table_id, result, finished_at = change.result
            recorded = await conn.execute(
                update(GM)
                .where(GM.c.table_id == table_id, GM.c.event_id == event_id, GM.c.result.is_(None))
                .values(result=json.dumps(result), finished_at=finished_at, stamp=version)
            )
            if recorded.rowcount != 1:
                raise _RefusedError
            await conn.execute(
                update(EN)
                .where(EN.c.event_id == event_id, EN.c.playing == table_id)
                .values(playing=None, stamp=version)
            )
        return version

    async def listing(
        self,
        statuses: Sequence[str],
        limit: int = 50,
        *,
        public: bool | None = True,
        created_by: str | None = None,
    ) -> list[TournamentRow]:
        """One query (finished ones by their end, newest first; the others by their start)."""
        query = select(EV).where(EV.c.status.in_(list(statuses)))
        if public is not None:
            query = query.where(EV.c.public.is_(public))
        if created_by is not None:
            query = query.where(EV.c.created_by == created_by)
        if list(statuses) == ["finished"]:
            query = query.order_by(EV.c.finished_at.desc())
        else:
            query = query.order_by(EV.c.starts_at)
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(query.limit(limit))).all()
        found = [_event(r) for r in rows]
        found.sort(key=lambda r: -(r.finished_at or 0.0) if r.status == "finished" else r.starts_at)
        return found

    async def entered(self, keys: Sequence[str]) -> list[tuple[str, str]]:
        """One indexed query."""
        if not keys:
            return []
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(MB.c.event_id, MB.c.entrant_id).where(MB.c.member.in_(list(keys)))
                )
            ).all()
        return [(r.event_id, r.entrant_id) for r in rows]

    async def put_team(self, team: TeamRow) -> None:
        """Delete the maker's earlier team at the event, insert this one."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                delete(TM).where(TM.c.event_id == team.event_id, TM.c.identity_id == team.identity)
            )
            await conn.execute(
                TM.insert().values(
                    code_hash=team.code_hash,
                    event_id=team.event_id,
                    identity_id=team.identity,
                    name=team.name,
                    created_at=team.created_at,
                )
            )

    async def team(self, code_hash: str) -> TeamRow | None:
        """One lookup."""
        return await self._team(TM.c.code_hash == code_hash)

    async def team_of(self, event_id: str, identity: str) -> TeamRow | None:
        """One indexed lookup."""
        return await self._team(TM.c.event_id == event_id, TM.c.identity_id == identity)

    async def _team(self, *where: Any) -> TeamRow | None:
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(TM).where(*where))).first()
        if row is None:
            return None
        return TeamRow(row.code_hash, row.event_id, row.identity_id, row.name, row.created_at)

    async def drop_team(self, code_hash: str) -> None:
        """One DELETE."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(TM).where(TM.c.code_hash == code_hash))


def _lock_key(cap: EventCap) -> str:
    """The lock an event cap's count is taken under: its identity, or its address."""
    if cap.created_by is not None:
        return f"events:identity:{cap.created_by}"
    return f"events:address:{cap.created_from}"


async def _count(conn: AsyncConnection, cap: EventCap) -> int:
    query = select(func.count()).select_from(EV)
    if cap.since is None:
        query = query.where(EV.c.status.in_(["created", "running"]))
    else:
        query = query.where(EV.c.created_at >= cap.since)
    if cap.created_by is not None:
        query = query.where(EV.c.created_by == cap.created_by)
    if cap.created_from is not None:
        query = query.where(EV.c.created_from == cap.created_from)
    return int((await conn.execute(query)).scalar_one())


def _event_values(event: TournamentRow) -> dict[str, Any]:
    return {
        "id": event.id,
        "name": event.name,
        "status": event.status,
        "settings": json.dumps(event.settings),
        "starts_at": event.starts_at,
        "ends_at": event.ends_at,
        "created_at": event.created_at,
        "created_by": event.created_by,
        "created_from": event.created_from,
        "public": event.public,
        "invite": event.invite,
        "schedule_key": event.schedule_key,
        "started_at": event.started_at,
        "finished_at": event.finished_at,
        "ended": event.ended,
    }


def _event(row: Any) -> TournamentRow:
    return TournamentRow(
        id=row.id,
        name=row.name,
        settings=json.loads(row.settings),
        status=row.status,
        starts_at=row.starts_at,
        created_at=row.created_at,
        ends_at=row.ends_at,
        created_by=row.created_by,
        created_from=row.created_from,
        public=bool(row.public),
        invite=row.invite,
        schedule_key=row.schedule_key,
        started_at=row.started_at,
        finished_at=row.finished_at,
        ended=row.ended,
        version=int(row.version),
    )


def _entrant_values(event_id: str, entrant: EntrantRow, stamp: int) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "entrant_id": entrant.entrant_id,
        "position": entrant.position,
        "data": json.dumps(entrant.data),
        "ready_at": entrant.ready_at,
        "playing": entrant.playing,
        "gone": entrant.gone,
        "stamp": stamp,
    }


def _entrant(row: Any) -> EntrantRow:
    return EntrantRow(
        row.entrant_id,
        int(row.position),
        json.loads(row.data),
        float(row.ready_at),
        row.playing,
        bool(row.gone),
    )


def _game_values(event_id: str, game: TournamentGameRow, stamp: int) -> dict[str, Any]:
    return {
        "table_id": game.table_id,
        "event_id": event_id,
        "round": game.round,
        "table_no": game.table,
        "board": game.board,
        "sides": json.dumps(list(game.sides)),
        "created_at": game.created_at,
        "result": None if game.result is None else json.dumps(game.result),
        "finished_at": game.finished_at,
        "stamp": stamp,
    }


def _game(row: Any) -> TournamentGameRow:
    return TournamentGameRow(
        table_id=row.table_id,
        round=int(row.round),
        table=int(row.table_no),
        board=int(row.board),
        sides=tuple(json.loads(row.sides)),
        created_at=float(row.created_at),
        result=None if row.result is None else json.loads(row.result),
        finished_at=row.finished_at,
    )
