"""The seasons' data: final tables, the seasons closed, arena placings, with their
repository's protocol, their tables and the repository in SQL, all in this one module
(the feature owns its data; migration ``v0013_seasons``).

- ``season_closes``: one row a ``(family, season)`` closed. Its primary key is what makes
  a season close once: :meth:`SqlSeasons.close` reads the season's entries, works out its
  final table and writes it with this row in one transaction, so a second process closing
  the same season at the same moment fails on the key and writes nothing.
- ``season_finals``: the final table, one row a person of a closed season: the division
  they played in, their rank there, points, games, wins, and the move (+1 promoted, -1
  relegated) with the division it sends them to (where they start their next season).
- ``season_arena``: one row a person placed in a finished arena (the tournaments
  feature's final standings): the event, the family, the place and the games finished.

A season's live standings are not stored: they are read from the stored results (the
``results`` rows the table master settles, rated ones of the family, by ``ended_at``,
added up per person in one grouped query) and the arena placings whenever they are
asked, so they and the final table are the same rule
(:mod:`basra.server.features.seasons.rules`) over the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, case, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from basra.server.store.sql import schema
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

from .rules import GAME_POINTS, Line, Total, arena_points

__all__ = ["ArenaPlacing", "SeasonStore", "SqlSeasons"]


class ArenaPlacing(NamedTuple):
    """One person's place in a finished arena (0 first) and the games they finished."""

    identity: str
    place: int
    games: int


Compute = Callable[[list[Total], dict[str, int]], list[Line]]
"""Works out a final table from the season's totals and the divisions people start in."""


# ---------------------------------------------------------------------- repository


class SeasonStore(Protocol):
    """Entries, final tables and arena placings, by variant family and season."""

    async def totals(self, family: str, start: float, end: float) -> list[Total]:
        """Each person's entries of a family in ``[start, end)`` (rated results and arena
        placings), added up."""

    async def divisions(
        self, family: str, season: int, identities: Sequence[str] | None
    ) -> dict[str, int]:
        """Where people start ``season`` (``identities``, or everyone who has a final
        line: None): their last earlier final table's ``next_division`` (absent: none
        yet)."""

    async def last_closed(self, family: str) -> int:
        """The latest season of a family closed (0: none)."""

    async def close(
        self, family: str, season: int, start: float, end: float, compute: Compute, at: float
    ) -> list[Line] | None:
        """Work out and store a season's final table once (one transaction); None if it was
        closed already (here or in another process)."""

    async def final(self, family: str, season: int) -> list[Line]:
        """A closed season's final table (highest division first, then rank)."""

    async def finals_of(self, identity: str) -> list[tuple[str, int, Line]]:
        """A person's lines in every final table, ``(family, season, line)``, newest first."""

    async def record_arena(
        self, event_id: str, family: str, placings: Sequence[ArenaPlacing], at: float
    ) -> int:
        """Store a finished arena's placings once; how many were new."""


# ---------------------------------------------------------------------- tables

season_closes = Table(
    "season_closes",
    metadata,
    Column("family", String(16), primary_key=True),
    Column("season", Integer, primary_key=True),
    Column("closed_at", Float, nullable=False),
    Column("people", Integer, nullable=False),
)

season_finals = Table(
    "season_finals",
    metadata,
    Column("family", String(16), primary_key=True),
    Column("season", Integer, primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("division", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("reached", Float, nullable=False),
    Column("move", Integer, nullable=False),
    Column("next_division", Integer, nullable=False),
)
Index("ix_season_finals_identity", season_finals.c.identity, season_finals.c.season)

season_arena = Table(
    "season_arena",
    metadata,
    Column("event_id", String(32), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("family", String(16), nullable=False),
    Column("place", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("ended_at", Float, nullable=False),
)
Index("ix_season_arena_family", season_arena.c.family, season_arena.c.ended_at)

RES = schema.results
Index("ix_results_family_ended_at", RES.c.family, RES.c.ended_at)
"""The season's entries are read by family and time (the settled results' own table)."""

SC, SF, SA = season_closes, season_finals, season_arena


def _line(row: object) -> Line:
    r = row._mapping  # type: ignore[attr-defined]
    return Line(
        identity=str(r["identity"]),
        division=int(r["division"]),
        rank=int(r["rank"]),
        points=int(r["points"]),
        games=int(r["games"]),
        wins=int(r["wins"]),
        reached=float(r["reached"]),
        move=int(r["move"]),
    )


async def _totals(conn: AsyncConnection, family: str, start: float, end: float) -> list[Total]:
    """Each person's rated games added up in SQL (points by :data:`GAME_POINTS`), then
    their arena placings (a few rows) added in by :func:`arena_points`."""
    points = case(*((RES.c.outcome == k, v) for k, v in GAME_POINTS.items()), else_=0)
    earned = {k for k, v in GAME_POINTS.items() if v}
    games = await conn.execute(
        select(
            RES.c.identity_id,
            func.sum(points),
            func.count(),
            func.sum(case((RES.c.outcome == "win", 1), else_=0)),
            func.max(case((RES.c.outcome.in_(sorted(earned)), RES.c.ended_at), else_=0.0)),
        )
        .where(
            RES.c.family == family,
            RES.c.rated.is_(True),
            RES.c.ended_at >= start,
            RES.c.ended_at < end,
        )
        .group_by(RES.c.identity_id)
    )
    sums = {
        str(who): [int(p or 0), int(n), int(w or 0), float(r or 0.0)] for who, p, n, w, r in games
    }
    arenas = await conn.execute(
        select(SA.c.identity, SA.c.place, SA.c.games, SA.c.ended_at).where(
            SA.c.family == family, SA.c.ended_at >= start, SA.c.ended_at < end
        )
    )
    for who, place, played, at in arenas:
        total = sums.setdefault(str(who), [0, 0, 0, 0.0])
        worth = arena_points(place, played)
        total[0] += worth
        total[2] += place == 0
        if worth:
            total[3] = max(total[3], float(at))
    return [Total(who, int(p), int(n), int(w), r) for who, (p, n, w, r) in sums.items()]


async def _divisions(
    conn: AsyncConnection, family: str, season: int, identities: Sequence[str] | None
) -> dict[str, int]:
    """Everyone's (``identities`` None) or some people's latest earlier final line."""
    where = [SF.c.family == family, SF.c.season < season]
    if identities is not None:
        people = sorted(set(identities))
        if not people:
            return {}
        where.append(SF.c.identity.in_(people))
    latest = (
        select(SF.c.identity, func.max(SF.c.season).label("season"))
        .where(*where)
        .group_by(SF.c.identity)
        .subquery()
    )
    rows = await conn.execute(
        select(SF.c.identity, SF.c.next_division).join(
            latest,
            and_(
                SF.c.identity == latest.c.identity,
                SF.c.season == latest.c.season,
                SF.c.family == family,
            ),
        )
    )
    return {str(who): int(division) for who, division in rows}


class SqlSeasons:
    """:class:`SeasonStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def totals(self, family: str, start: float, end: float) -> list[Total]:
        """A grouped query and the arena placings' rows."""
        async with self.db.engine.connect() as conn:
            return await _totals(conn, family, start, end)

    async def divisions(
        self, family: str, season: int, identities: Sequence[str] | None
    ) -> dict[str, int]:
        """Each person's latest earlier final line (one query)."""
        async with self.db.engine.connect() as conn:
            return await _divisions(conn, family, season, identities)

    async def last_closed(self, family: str) -> int:
        """One query."""
        async with self.db.engine.connect() as conn:
            found = await conn.execute(select(func.max(SC.c.season)).where(SC.c.family == family))
            return int(found.scalar() or 0)

    async def close(
        self, family: str, season: int, start: float, end: float, compute: Compute, at: float
    ) -> list[Line] | None:
        """Under the season's lock: check it is open, read, compute, write (one transaction;
        the close row's key refuses a second writer that got past the check)."""
        try:
            async with self.db.engine.begin() as conn:
                await self.db.lock(conn, [f"season:{family}:{season}"])
                found = await conn.execute(
                    select(SC.c.closed_at).where(SC.c.family == family, SC.c.season == season)
                )
                if found.first() is not None:
                    return None
                totals = await _totals(conn, family, start, end)
                divisions = await _divisions(conn, family, season, None)
                lines = compute(totals, divisions)
                await conn.execute(
                    SC.insert().values(
                        family=family, season=season, closed_at=at, people=len(lines)
                    )
                )
                if lines:
                    await conn.execute(
                        SF.insert(),
                        [
                            {
                                "family": family,
                                "season": season,
                                "identity": line.identity,
                                "division": line.division,
                                "rank": line.rank,
                                "points": line.points,
                                "games": line.games,
                                "wins": line.wins,
                                "reached": line.reached,
                                "move": line.move,
                                "next_division": line.next_division,
                            }
                            for line in lines
                        ],
                    )
        except IntegrityError:
            return None  # closed at the same moment by another process
        return lines

    async def final(self, family: str, season: int) -> list[Line]:
        """One query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(SF)
                .where(SF.c.family == family, SF.c.season == season)
                .order_by(SF.c.division.desc(), SF.c.rank)
            )
            return [_line(row) for row in rows]

    async def finals_of(self, identity: str) -> list[tuple[str, int, Line]]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(SF)
                .where(SF.c.identity == identity)
                .order_by(SF.c.season.desc(), SF.c.family)
            )
            return [(str(row.family), int(row.season), _line(row)) for row in rows]

    async def record_arena(
        self, event_id: str, family: str, placings: Sequence[ArenaPlacing], at: float
    ) -> int:
        """Insert the placings not there yet (the event's rows are written once)."""
        async with self.db.engine.begin() as conn:
            await self.db.lock(conn, [f"season-arena:{event_id}"])
            there = await conn.execute(select(SA.c.identity).where(SA.c.event_id == event_id))
            known = {str(r[0]) for r in there}
            new = [p for p in placings if p.identity not in known]
            if new:
                await conn.execute(
                    SA.insert(),
                    [
                        {
                            "event_id": event_id,
                            "identity": p.identity,
                            "family": family,
                            "place": p.place,
                            "games": p.games,
                            "ended_at": at,
                        }
                        for p in new
                    ],
                )
        return len(new)
