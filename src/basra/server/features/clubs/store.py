"""The clubs' data: clubs, their members with their roles, and the invitations and
requests between them, with their repository's protocol, their tables and the repository
in SQL, all in this one module (the feature owns its data; migration ``v0014_clubs``).

- ``clubs``: one row a club, keyed by its *slug* (its address, ``/club/SLUG``), with its
  name (unique as folded: ``name_key``), description, whether anyone may join (``open``)
  or only those invited, its maker, and, once the operator removes it, when and why
  (a removed club is kept for the record but shown nowhere and joined by nobody).
- ``club_members``: one row a ``(club, identity)`` with the member's role: ``owner`` (one
  a club), ``leader`` or ``member``.
- ``club_tables``: the tables only a club's members may sit at (a table's ``club``).
- ``club_events``: the events kept for clubs: one row a ``(event, club)``, ``kind``
  ``club`` (a club-only tournament: only its members enter) or ``battle`` (a club battle:
  a row for each club in it, with ``best``, how many of a club's players count), and the
  event's invitation (club events are not listed; the club's page gives members the link).
- ``club_event_players``: whom each person plays for in a battle (the club they entered
  through).
- ``club_invites``: one row a ``(club, identity)`` with ``kind``: ``invite`` (a leader
  invited the person) or ``request`` (the person asked to join a club by invitation).
  Either side accepting makes the person a member and removes the row, in one
  transaction under the club's lock (:meth:`ClubStore.admit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    Boolean,
    Column,
    Float,
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
from sqlalchemy.sql import Select
from sqlalchemy.sql.selectable import ScalarSelect

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = [
    "ROLES",
    "ClubEventRow",
    "ClubRow",
    "ClubStore",
    "MemberRow",
    "SqlClubs",
    "TakenError",
]

ROLES = ("owner", "leader", "member")
"""A member's role, highest first."""


class TakenError(Exception):
    """A club's slug or name is another club's already (``args[0]``: which)."""


@dataclass(frozen=True)
class ClubRow:
    """A club."""

    slug: str
    name: str
    description: str
    open: bool
    """Anyone may join (else only those a leader invites, or whose request is accepted)."""
    owner: str
    made_at: float
    members: int = 0
    """How many members it has (as read with it)."""
    removed_at: float | None = None
    removed_reason: str | None = None


@dataclass(frozen=True)
class ClubEventRow:
    """An event kept for a club (a club-only tournament) or with a club in it (a battle)."""

    event_id: str
    slug: str
    kind: str
    """``club`` or ``battle``."""
    best: int | None
    """In a battle: how many of a club's players count."""
    invite: str | None
    at: float


@dataclass(frozen=True)
class MemberRow:
    """A person's membership of a club."""

    slug: str
    identity: str
    role: str
    at: float


class ClubStore(Protocol):
    """Clubs, members and invitations."""

    async def add(self, club: ClubRow, name_key: str) -> None:
        """A new club, its maker its owner; :class:`TakenError` if its slug or name is taken."""

    async def load(self, slug: str) -> ClubRow | None:
        """A club (removed ones too), with its count of members."""

    async def search(self, text: str, limit: int) -> list[ClubRow]:
        """Clubs not removed whose name holds ``text`` (folded), most members first."""

    async def members(self, slug: str) -> list[MemberRow]:
        """A club's members, by role then oldest first."""

    async def member(self, slug: str, identity: str) -> MemberRow | None:
        """A person's membership of a club, or None."""

    async def clubs_of(self, identity: str) -> list[MemberRow]:
        """A person's memberships, oldest first."""

    async def members_of(self, slugs: Sequence[str]) -> dict[str, list[str]]:
        """Each club's members' identities (clubs without any left out)."""

    async def member_slugs(self, identities: Sequence[str]) -> dict[str, list[str]]:
        """Each of ``identities``' clubs (those without any left out)."""

    async def admit(self, slug: str, identity: str, at: float) -> bool:
        """Make a person a member (and drop their invitation or request): True if new."""

    async def leave(self, slug: str, identity: str) -> bool:
        """A person is a member no more: True if they were."""

    async def set_role(self, slug: str, identity: str, role: str) -> bool:
        """Give a member a role: True if they are a member."""

    async def hand_over(self, slug: str, old: str, new: str) -> bool:
        """``new`` (a member) owns the club, ``old`` becomes a leader: True if done."""

    async def invite(self, slug: str, identity: str, kind: str, by: str, at: float) -> None:
        """Keep an invitation or a request (one a person and club; the newest kept)."""

    async def invitation(self, slug: str, identity: str) -> str | None:
        """The kind of the person's pending row with the club: ``invite``, ``request``, None."""

    async def pending(self, slug: str, kind: str) -> list[str]:
        """The people a club invited (``invite``) or who asked to join (``request``)."""

    async def invited(self, identity: str) -> list[str]:
        """The clubs that invited a person."""

    async def drop_invitation(self, slug: str, identity: str) -> bool:
        """Forget a person's invitation or request: True if there was one."""

    async def edit(self, slug: str, description: str | None, open_: bool | None) -> None:
        """Change a club's description and whether it is open (None: as it is)."""

    async def remove(self, slug: str, reason: str, at: float) -> bool:
        """The operator removes a club: True if it was not removed before."""

    async def keep_table(self, table_id: str, slug: str) -> None:
        """A table only a club's members may sit at."""

    async def club_of_table(self, table_id: str) -> str | None:
        """The club a table is kept for, or None (anyone may sit)."""

    async def add_events(self, rows: Sequence[ClubEventRow]) -> None:
        """Keep an event for clubs (its rows at once)."""

    async def event_clubs(self, event_id: str) -> list[ClubEventRow]:
        """The clubs an event is kept for (none: an event for anyone)."""

    async def events_of(self, slug: str, limit: int) -> list[ClubEventRow]:
        """A club's events, newest first."""

    async def battles_since(self, since: float) -> list[ClubEventRow]:
        """Every battle's rows made since ``since``."""

    async def play_for(self, event_id: str, identity: str, slug: str) -> str:
        """Whom a person plays for in an event: the club kept, else ``slug`` kept."""

    async def players_of(self, event_id: str) -> dict[str, str]:
        """Each person's club in an event."""


# ---------------------------------------------------------------------- tables

clubs = Table(
    "clubs",
    metadata,
    Column("slug", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False),
    Column("description", Text, nullable=False),
    Column("open", Boolean, nullable=False),
    Column("owner", String(64), nullable=False),
    Column("made_at", Float, nullable=False),
    Column("removed_at", Float, nullable=True),
    Column("removed_reason", Text, nullable=True),
)
Index("ix_clubs_name_key", clubs.c.name_key, unique=True)

club_members = Table(
    "club_members",
    metadata,
    Column("slug", String(40), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("role", String(8), nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_club_members_identity", club_members.c.identity)

club_invites = Table(
    "club_invites",
    metadata,
    Column("slug", String(40), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("by", String(64), nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_club_invites_identity", club_invites.c.identity)

club_tables = Table(
    "club_tables",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("slug", String(40), nullable=False),
)

club_events = Table(
    "club_events",
    metadata,
    Column("event_id", String(40), primary_key=True),
    Column("slug", String(40), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("best", Integer, nullable=True),
    Column("invite", String(40), nullable=True),
    Column("at", Float, nullable=False),
)
Index("ix_club_events_slug", club_events.c.slug)

club_event_players = Table(
    "club_event_players",
    metadata,
    Column("event_id", String(40), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("slug", String(40), nullable=False),
)

CL, CM, CI, CT = clubs, club_members, club_invites, club_tables
CE, CP = club_events, club_event_players
_RANK = {role: n for n, role in enumerate(ROLES)}


def _count() -> ScalarSelect[int]:
    return select(func.count()).select_from(CM).where(CM.c.slug == CL.c.slug).scalar_subquery()


def _club(row: object) -> ClubRow:
    r = row._mapping  # type: ignore[attr-defined]
    return ClubRow(
        slug=r["slug"],
        name=r["name"],
        description=r["description"],
        open=bool(r["open"]),
        owner=r["owner"],
        made_at=r["made_at"],
        members=int(r["members"] or 0),
        removed_at=r["removed_at"],
        removed_reason=r["removed_reason"],
    )


def _member(row: object) -> MemberRow:
    r = row._mapping  # type: ignore[attr-defined]
    return MemberRow(slug=r["slug"], identity=r["identity"], role=r["role"], at=r["at"])


def _clubs_query() -> Select[Any]:
    return select(
        CL.c.slug,
        CL.c.name,
        CL.c.description,
        CL.c.open,
        CL.c.owner,
        CL.c.made_at,
        CL.c.removed_at,
        CL.c.removed_reason,
        _count().label("members"),
    )


class SqlClubs:
    """:class:`ClubStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def add(self, club: ClubRow, name_key: str) -> None:
        """The club's row and its owner's, in one transaction."""
        try:
            async with self.db.engine.begin() as conn:
                taken = await conn.execute(
                    select(CL.c.slug, CL.c.name_key).where(
                        (CL.c.slug == club.slug) | (CL.c.name_key == name_key)
                    )
                )
                for slug, _key in taken:
                    raise TakenError("slug" if slug == club.slug else "name")
                await conn.execute(
                    CL.insert().values(
                        slug=club.slug,
                        name=club.name,
                        name_key=name_key,
                        description=club.description,
                        open=club.open,
                        owner=club.owner,
                        made_at=club.made_at,
                    )
                )
                await conn.execute(
                    CM.insert().values(
                        slug=club.slug, identity=club.owner, role="owner", at=club.made_at
                    )
                )
        except IntegrityError:
            raise TakenError("name") from None  # made at the same moment elsewhere

    async def load(self, slug: str) -> ClubRow | None:
        """One query."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(_clubs_query().where(CL.c.slug == slug))).first()
        return None if row is None else _club(row)

    async def search(self, text: str, limit: int) -> list[ClubRow]:
        """One query (a substring of the folded name; at most ``limit``)."""
        folded = text.casefold().replace("\\", "").replace("%", "").replace("_", " ")
        query = _clubs_query().where(CL.c.removed_at.is_(None))
        if folded.strip():
            query = query.where(CL.c.name_key.contains(folded.strip()))
        query = query.order_by(_count().desc(), CL.c.made_at).limit(limit)
        async with self.db.engine.connect() as conn:
            return [_club(r) for r in await conn.execute(query)]

    async def members(self, slug: str) -> list[MemberRow]:
        """One query, sorted here by role."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(CM).where(CM.c.slug == slug).order_by(CM.c.at))
        return sorted((_member(r) for r in rows), key=lambda m: _RANK[m.role])

    async def member(self, slug: str, identity: str) -> MemberRow | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(select(CM).where(CM.c.slug == slug, CM.c.identity == identity))
            ).first()
        return None if row is None else _member(row)

    async def clubs_of(self, identity: str) -> list[MemberRow]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(CM).where(CM.c.identity == identity).order_by(CM.c.at))
        return [_member(r) for r in rows]

    async def members_of(self, slugs: Sequence[str]) -> dict[str, list[str]]:
        """One query."""
        wanted = sorted(set(slugs))
        found: dict[str, list[str]] = {}
        if not wanted:
            return found
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(CM.c.slug, CM.c.identity).where(CM.c.slug.in_(wanted)))
            for slug, who in rows:
                found.setdefault(str(slug), []).append(str(who))
        return found

    async def member_slugs(self, identities: Sequence[str]) -> dict[str, list[str]]:
        """One indexed query."""
        people = sorted(set(identities))
        if not people:
            return {}
        found: dict[str, list[str]] = {}
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(CM.c.identity, CM.c.slug).where(CM.c.identity.in_(people))
            )
            for who, slug in rows:
                found.setdefault(str(who), []).append(str(slug))
        return found

    async def admit(self, slug: str, identity: str, at: float) -> bool:
        """Under the club's lock: drop the pending row, insert the member."""
        try:
            async with self.db.engine.begin() as conn:
                await self.db.lock(conn, [f"club:{slug}"])
                await conn.execute(delete(CI).where(CI.c.slug == slug, CI.c.identity == identity))
                found = await conn.execute(
                    select(CM.c.role).where(CM.c.slug == slug, CM.c.identity == identity)
                )
                if found.first() is not None:
                    return False
                await conn.execute(
                    CM.insert().values(slug=slug, identity=identity, role="member", at=at)
                )
        except IntegrityError:
            return False
        return True

    async def leave(self, slug: str, identity: str) -> bool:
        """One delete."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                delete(CM).where(CM.c.slug == slug, CM.c.identity == identity)
            )
        return bool(done.rowcount)

    async def set_role(self, slug: str, identity: str, role: str) -> bool:
        """One update (never of the owner's row: :meth:`hand_over` moves that)."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                update(CM)
                .where(CM.c.slug == slug, CM.c.identity == identity, CM.c.role != "owner")
                .values(role=role)
            )
        return bool(done.rowcount)

    async def hand_over(self, slug: str, old: str, new: str) -> bool:
        """Under the club's lock: the two rows and the club's owner, in one transaction."""
        async with self.db.engine.begin() as conn:
            await self.db.lock(conn, [f"club:{slug}"])
            owner = await conn.execute(
                select(CM.c.identity).where(CM.c.slug == slug, CM.c.role == "owner")
            )
            heir = await conn.execute(
                select(CM.c.role).where(CM.c.slug == slug, CM.c.identity == new)
            )
            if owner.scalar() != old or heir.first() is None:
                return False
            await conn.execute(
                update(CM).where(CM.c.slug == slug, CM.c.identity == old).values(role="leader")
            )
            await conn.execute(
                update(CM).where(CM.c.slug == slug, CM.c.identity == new).values(role="owner")
            )
            await conn.execute(update(CL).where(CL.c.slug == slug).values(owner=new))
        return True

    async def invite(self, slug: str, identity: str, kind: str, by: str, at: float) -> None:
        """Replace the pair's row."""
        async with self.db.engine.begin() as conn:
            await self.db.lock(conn, [f"club:{slug}"])
            await conn.execute(delete(CI).where(CI.c.slug == slug, CI.c.identity == identity))
            await conn.execute(
                CI.insert().values(slug=slug, identity=identity, kind=kind, by=by, at=at)
            )

    async def invitation(self, slug: str, identity: str) -> str | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = await conn.execute(
                select(CI.c.kind).where(CI.c.slug == slug, CI.c.identity == identity)
            )
            kind = row.scalar()
        return None if kind is None else str(kind)

    async def pending(self, slug: str, kind: str) -> list[str]:
        """One query, oldest first."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(CI.c.identity).where(CI.c.slug == slug, CI.c.kind == kind).order_by(CI.c.at)
            )
        return [str(r[0]) for r in rows]

    async def invited(self, identity: str) -> list[str]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(CI.c.slug)
                .where(CI.c.identity == identity, CI.c.kind == "invite")
                .order_by(CI.c.at)
            )
        return [str(r[0]) for r in rows]

    async def drop_invitation(self, slug: str, identity: str) -> bool:
        """One delete."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                delete(CI).where(CI.c.slug == slug, CI.c.identity == identity)
            )
        return bool(done.rowcount)

    async def edit(self, slug: str, description: str | None, open_: bool | None) -> None:
        """One update."""
        values: dict[str, object] = {}
        if description is not None:
            values["description"] = description
        if open_ is not None:
            values["open"] = open_
        if values:
            async with self.db.engine.begin() as conn:
                await conn.execute(update(CL).where(CL.c.slug == slug).values(**values))

    async def remove(self, slug: str, reason: str, at: float) -> bool:
        """Mark it removed; its members and invitations go."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                update(CL)
                .where(CL.c.slug == slug, CL.c.removed_at.is_(None))
                .values(removed_at=at, removed_reason=reason)
            )
            if done.rowcount:
                await conn.execute(delete(CI).where(CI.c.slug == slug))
        return bool(done.rowcount)

    async def keep_table(self, table_id: str, slug: str) -> None:
        """One insert."""
        async with self.db.engine.begin() as conn:
            await conn.execute(CT.insert().values(table_id=table_id, slug=slug))

    async def club_of_table(self, table_id: str) -> str | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            found = await conn.execute(select(CT.c.slug).where(CT.c.table_id == table_id))
            slug = found.scalar()
        return None if slug is None else str(slug)

    async def add_events(self, rows: Sequence[ClubEventRow]) -> None:
        """One insert."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                CE.insert(),
                [
                    {
                        "event_id": r.event_id,
                        "slug": r.slug,
                        "kind": r.kind,
                        "best": r.best,
                        "invite": r.invite,
                        "at": r.at,
                    }
                    for r in rows
                ],
            )

    async def event_clubs(self, event_id: str) -> list[ClubEventRow]:
        """One query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(CE).where(CE.c.event_id == event_id))
        return [ClubEventRow(**r._mapping) for r in rows]

    async def events_of(self, slug: str, limit: int) -> list[ClubEventRow]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(CE).where(CE.c.slug == slug).order_by(CE.c.at.desc()).limit(limit)
            )
        return [ClubEventRow(**r._mapping) for r in rows]

    async def battles_since(self, since: float) -> list[ClubEventRow]:
        """One query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(CE).where(CE.c.kind == "battle", CE.c.at >= since))
        return [ClubEventRow(**r._mapping) for r in rows]

    async def play_for(self, event_id: str, identity: str, slug: str) -> str:
        """Insert unless there; read back what is kept."""
        try:
            async with self.db.engine.begin() as conn:
                found = await conn.execute(
                    select(CP.c.slug).where(CP.c.event_id == event_id, CP.c.identity == identity)
                )
                kept = found.scalar()
                if kept is not None:
                    return str(kept)
                await conn.execute(
                    CP.insert().values(event_id=event_id, identity=identity, slug=slug)
                )
        except IntegrityError:
            return await self.play_for(event_id, identity, slug)
        return slug

    async def players_of(self, event_id: str) -> dict[str, str]:
        """One query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(CP.c.identity, CP.c.slug).where(CP.c.event_id == event_id)
            )
        return {str(who): str(slug) for who, slug in rows}
