"""The tournaments' data: their rows, their repository's protocol, their tables and the
repository in SQL, all in this one module (the feature owns its data).

A tournament is a ``tournaments`` row (its settings as JSON, when it starts and
ends, who made it and from which client address (for quotas), listed or by
invitation, a ``version`` bumped by every change) with its
``tournament_entrants`` (each entry's JSON, and the table it sits at now),
``tournament_members`` (one row per player entered: a player
enters once), ``tournament_rounds`` (a Swiss's or duplicate's rounds as paired)
and ``tournament_games`` (every game paired, keyed by its table, with its
result once over); each of these rows has the ``stamp`` of the version that
wrote it, so a process reads only what changed. ``tournament_teams`` holds a
team waiting for its second member. The tables are declared on the store's one
:data:`~basra.server.store.sql.schema.metadata` (migration ``v0007_tournaments``).

Every change of an event is one transaction that first bumps the event's
``version`` (an UPDATE, so on PostgreSQL it holds the event's row lock until it
commits: the changes of one event are written one at a time, in every process)
and stamps each row it writes with the new version. Reading what changed since
a version is then a few indexed queries (:meth:`SqlTournaments.changes`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.rows import CapReachedError, EventCap
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = [
    "EnteredError",
    "EntrantRow",
    "SqlTournaments",
    "TeamRow",
    "TournamentChanges",
    "TournamentGameRow",
    "TournamentRow",
    "TournamentStore",
    "TournamentWrite",
]

# ---------------------------------------------------------------------- rows


@dataclass(frozen=True)
class TournamentRow:
    """An event (:mod:`basra.server.features.tournaments`): what it plays, when, who made it,
    and where it stands. ``version`` counts its changes: every write bumps it and stamps
    the rows it writes with the new value, so a process reads only what changed."""

    id: str
    name: str
    settings: dict[str, Any]
    """:meth:`basra.tournaments.EventSettings.to_json`."""
    status: str
    """``created``, ``running`` or ``finished`` (:data:`basra.tournaments.STATUSES`)."""
    starts_at: float
    created_at: float
    ends_at: float | None = None
    """An arena's end (its start and minutes); None for rounds."""
    created_by: str | None = None
    """The identity that made it (never shown); None: the server's schedule."""
    created_from: str | None = None
    """The client address it was made from (for quotas; never shown)."""
    public: bool = True
    """Listed; else reached only through its invitation link."""
    invite: str | None = None
    """The invitation code of an event that is not public."""
    schedule_key: str | None = None
    """``name|start`` of an event the server's schedule made (made once)."""
    started_at: float | None = None
    finished_at: float | None = None
    ended: str | None = None
    """Why it ended: ``done`` (its rounds or its time), ``too_few`` (entrants),
    ``cancelled`` (by the operator)."""
    version: int = 0


@dataclass(frozen=True)
class EntrantRow:
    """One entrant of an event: :meth:`basra.tournaments.Entrant.to_json` and what the server
    adds (where it stands at the event's tables)."""

    entrant_id: str
    position: int
    """Entry order (ties of seed and standings keep it)."""
    data: dict[str, Any]
    ready_at: float = 0.0
    """When it entered or came back (an arena's wait counts from then, or its last game)."""
    playing: str | None = None
    """The table it is seated at now (an arena pairs only those at none)."""
    gone: bool = False
    """Withdrawn before the start: the entry is no more."""


@dataclass(frozen=True)
class TournamentGameRow:
    """A game an event paired: its table, its place in the pairing, and once over its
    result (:meth:`basra.tournaments.GameResult.to_json`)."""

    table_id: str
    round: int
    table: int
    board: int
    sides: tuple[str, ...]
    created_at: float
    result: dict[str, Any] | None = None
    finished_at: float | None = None


@dataclass(frozen=True)
class TeamRow:
    """A team waiting for its second member: who made it, under a code (kept as its hash)."""

    code_hash: str
    event_id: str
    identity: str
    name: str
    created_at: float


class EnteredError(Exception):
    """A player is entered in the event already (each identity enters once)."""


@dataclass(frozen=True)
class TournamentWrite:
    """One change to an event, written in one transaction that bumps its version.

    Everything given is written, or nothing: ``claims`` seat entrants at a table only
    where they sit at none (else the write is refused), and ``result`` is recorded
    once (a second is refused), releasing the entrants seated at its table.
    """

    status: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    ended: str | None = None
    name: str | None = None
    """A new title (the operator's ``basra admin rename-event``)."""
    entrants: tuple[EntrantRow, ...] = ()
    """Entrants added or changed (their data, ready time, ``gone``)."""
    members: tuple[tuple[str, str], ...] = ()
    """``(player key, entrant id)`` taken: a player key (``person:ID``) enters once."""
    released_members: tuple[str, ...] = ()
    """Player keys given back (an entry withdrawn before the start)."""
    rounds: tuple[dict[str, Any], ...] = ()
    """Rounds paired (:meth:`basra.tournaments.Round.to_json`)."""
    games: tuple[TournamentGameRow, ...] = ()
    """Games paired (a table id already stored is left as it is; with ``claims``, the
    write is refused: an arena pass's game numbers were taken meanwhile)."""
    claims: tuple[tuple[str, str], ...] = ()
    """``(entrant id, table id)``: seat an entrant free of any table."""
    result: tuple[str, dict[str, Any], float] | None = None
    """``(table id, result, finished at)``: a game's result, once."""


@dataclass(frozen=True)
class TournamentChanges:
    """What changed in an event since a version: its row, and the rows stamped later."""

    event: TournamentRow
    entrants: list[EntrantRow]
    rounds: list[dict[str, Any]]
    games: list[TournamentGameRow]


# ---------------------------------------------------------------------- repository


class TournamentStore(Protocol):
    """Tournaments: events with their entrants, rounds and games, and teams waiting for a
    partner. Every change of an event is one :meth:`write` (one transaction) that bumps
    its version; a process keeps the event in memory and reads only what changed since
    the version it has (:meth:`changes`)."""

    async def create(
        self,
        event: TournamentRow,
        entrants: Sequence[EntrantRow] = (),
        members: Sequence[tuple[str, str]] = (),
        caps: Sequence[EventCap] = (),
    ) -> TournamentRow:
        """Store a new event with its first entrants (bots its maker adds) if each of its
        caps has room (counted under a lock per identity and per address), in one
        transaction: :class:`~basra.server.store.rows.CapReachedError` naming the full one
        else; if an event of the same ``schedule_key`` is stored, nothing is written and
        that one is returned."""

    async def load(self, event_id: str) -> TournamentRow | None:
        """An event's row, or None."""

    async def changes(self, event_id: str, since: int) -> TournamentChanges | None:
        """The event's row, and its entrants, rounds and games written after version
        ``since`` (all of them from 0); None if there is no such event."""

    async def write(
        self, event_id: str, change: TournamentWrite, expect: int | None = None
    ) -> int | None:
        """Apply one change in one transaction: the new version, or None (nothing written)
        when ``expect`` is given and is not the version, a claim finds its entrant at a
        table, or the result was recorded already. Raises
        :class:`EnteredError` when a member key is taken."""

    async def listing(
        self,
        statuses: Sequence[str],
        limit: int = 50,
        *,
        public: bool | None = True,
        created_by: str | None = None,
    ) -> list[TournamentRow]:
        """Events in those statuses, soonest start first for those not finished, latest
        finish first for finished ones (``public``: only listed ones, or only unlisted; None:
        both; ``created_by``: one maker's)."""

    async def entered(self, keys: Sequence[str]) -> list[tuple[str, str]]:
        """``(event id, entrant id)`` of every entry of those player keys."""

    async def put_team(self, team: TeamRow) -> None:
        """Store a team waiting for its partner (its maker's earlier one at that event goes)."""

    async def team(self, code_hash: str) -> TeamRow | None:
        """The waiting team of a code's hash, or None."""

    async def team_of(self, event_id: str, identity: str) -> TeamRow | None:
        """An identity's waiting team at an event, or None."""

    async def drop_team(self, code_hash: str) -> None:
        """A waiting team is complete, or given up."""


# ---------------------------------------------------------------------- tables


tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("status", String(16), nullable=False),
    Column("settings", Text, nullable=False),
    Column("starts_at", Float, nullable=False),
    Column("ends_at", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(64), nullable=True),
    Column("created_from", String(64), nullable=True),
    Column("public", Boolean, nullable=False),
    Column("invite", String(32), nullable=True),
    Column("schedule_key", String(160), nullable=True),
    Column("started_at", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("ended", String(16), nullable=True),
    Column("version", Integer, nullable=False),
)
Index("ix_tournaments_status", tournaments.c.status, tournaments.c.starts_at)
Index("ix_tournaments_created_by", tournaments.c.created_by)
Index("ix_tournaments_created_from", tournaments.c.created_from)
Index("ix_tournaments_schedule_key", tournaments.c.schedule_key, unique=True)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("event_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("entrant_id", String(16), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("data", Text, nullable=False),
    Column("ready_at", Float, nullable=False),
    Column("playing", String(32), nullable=True),
    Column("gone", Boolean, nullable=False, server_default="0"),
    Column("stamp", Integer, nullable=False),
)
Index("ix_tournament_entrants_stamp", tournament_entrants.c.event_id, tournament_entrants.c.stamp)

tournament_members = Table(
    "tournament_members",
    metadata,
    Column("event_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("member", String(80), primary_key=True),
    Column("entrant_id", String(16), nullable=False),
)
Index("ix_tournament_members_member", tournament_members.c.member)

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("event_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("data", Text, nullable=False),
    Column("stamp", Integer, nullable=False),
)

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("event_id", String(16), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("board", Integer, nullable=False),
    Column("sides", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("result", Text, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("stamp", Integer, nullable=False),
)
Index("ix_tournament_games_stamp", tournament_games.c.event_id, tournament_games.c.stamp)

tournament_teams = Table(
    "tournament_teams",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("event_id", String(16), ForeignKey("tournaments.id"), nullable=False),
    Column("identity_id", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_tournament_teams_event", tournament_teams.c.event_id, tournament_teams.c.identity_id)

EV, EN, MB = tournaments, tournament_entrants, tournament_members
RD, GM, TM = tournament_rounds, tournament_games, tournament_teams

# ---------------------------------------------------------------------- in SQL


class _RefusedError(Exception):
    """The version moved, a claim found its entrant seated, or a result was in: roll back."""


class SqlTournaments:
    """:class:`TournamentStore` in SQL."""

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
