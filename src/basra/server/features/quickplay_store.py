"""Quick play's data (:mod:`basra.server.features.quickplay`): the pool's row, its
repository's protocol, its table and the repository in SQL.

Quick play keeps its pool in ``seeks`` (one row per waiting person, so every server
process pairs the same pool) and runs its pairing under a row of the table master's
``leases`` (one process at a time). A group is seated with its new table in one
transaction (:meth:`SeekStore.seat`). The table is declared on the schema's one
:data:`~basra.server.store.sql.schema.metadata` (migration ``v0005_play``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    case,
    delete,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from basra.server.store.rows import Cap, TableRow
from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata
from basra.server.store.sql.tables import check_caps, insert_table

__all__ = ["Pool", "SeekRow", "SeekStore", "SqlSeeks"]

# ---------------------------------------------------------------------- rows


Pool = tuple[str, int, bool, int | None]
"""A pool's key: variant, players, teams, and days per move (None: a live table)."""


@dataclass(frozen=True)
class SeekRow:
    """A person in the quick-play pool (a variant, a table size and teams)."""

    ticket: str
    identity: str
    name: str
    variant: str
    players: int
    teams: bool
    mu: float
    """The person's rating in the pool's family and kind when they joined."""
    sigma: float
    joined_at: float
    """When they joined (wall-clock seconds): their rating window widens from then."""
    bot_after: float | None
    """Seconds after which a bot of similar strength may fill the table (None: never)."""
    seen_at: float
    """When the process holding their connection last said they are still there."""
    holder: str = ""
    """The connection holding the seek (a newer one takes it over)."""
    away_since: float | None = None
    """Their connection dropped then (not paired while away; dropped after a grace period)."""
    table_id: str | None = None
    """The table they were seated at (None while waiting)."""
    seat: int | None = None
    matched_at: float | None = None
    days: int | None = None
    """Days per move: the turn-based pool of that clock (None: a live table's)."""

    @property
    def pool(self) -> Pool:
        """The pool key: variant, players, teams, and days per move (None: live)."""
        return (self.variant, self.players, self.teams, self.days)


# ---------------------------------------------------------------- repository


class SeekStore(Protocol):
    """The quick-play pool: one seek per identity, shared by every server process."""

    async def put(self, seek: SeekRow) -> None:
        """Store a seek, replacing the identity's previous one (one per identity)."""

    async def of_identity(self, identity: str) -> SeekRow | None:
        """The identity's seek (waiting, away or recently matched), or None."""

    async def get(self, tickets: Sequence[str]) -> list[SeekRow]:
        """The seeks of those tickets that still exist."""

    async def waiting(self) -> list[SeekRow]:
        """Every seek not yet seated, oldest first."""

    async def touch(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Say that those seeks' connections (``holders``, in order) are still there."""

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Mark a seek away (its connection ``holder`` dropped), or back (None)."""

    async def drop(self, tickets: Sequence[str]) -> None:
        """Remove seeks (left the pool, or done with)."""

    async def sweep(self, seen_before: float, away_before: float, matched_before: float) -> int:
        """Remove seeks nobody holds (not seen since ``seen_before``, away since before
        ``away_before``) and seated ones older than ``matched_before``; how many went."""

    async def seat(
        self, seats: Mapping[str, int], table: TableRow, now: float, caps: Sequence[Cap] = ()
    ) -> bool:
        """Seat waiting seeks (ticket -> seat) at a new table within its caps (counted as
        :meth:`TableStore.create` counts them), in one transaction.

        False (and nothing written) if any of them is no longer waiting and present;
        :class:`~basra.server.store.rows.CapReachedError` when a cap is full.
        """

    async def pool_counts(self, seen_after: float) -> dict[Pool, int]:
        """How many are waiting (present, seen since ``seen_after``) in each pool."""


# -------------------------------------------------------------------- tables


seeks = Table(
    "seeks",
    metadata,
    Column("ticket", String(32), primary_key=True),
    Column("identity_id", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("teams", Boolean, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("joined_at", Float, nullable=False),
    Column("bot_after", Float, nullable=True),
    Column("seen_at", Float, nullable=False),
    Column("holder", String(32), nullable=False),
    Column("away_since", Float, nullable=True),
    Column("table_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("matched_at", Float, nullable=True),
    Column("days", Integer, nullable=True),
)
Index("ix_seeks_identity_id", seeks.c.identity_id, unique=True)
Index("ix_seeks_table_id", seeks.c.table_id)

SK = seeks

# -------------------------------------------------------------------- in SQL


class _GoneError(Exception):
    """A seek of a group was taken or left meanwhile: seat nobody."""


class SqlSeeks:
    """:class:`SeekStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def put(self, seek: SeekRow) -> None:
        """Delete the identity's seek and insert this one, in one transaction."""
        for attempt in range(3):
            try:
                async with self.db.engine.begin() as conn:
                    await conn.execute(delete(SK).where(SK.c.identity_id == seek.identity))
                    await conn.execute(SK.insert().values(**_seek_values(seek)))
                return
            except IntegrityError:  # the same identity seeking twice at once: the last one wins
                if attempt == 2:
                    raise

    async def of_identity(self, identity: str) -> SeekRow | None:
        """One indexed lookup."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(SK).where(SK.c.identity_id == identity))).first()
        return None if row is None else _seek(row)

    async def get(self, tickets: Sequence[str]) -> list[SeekRow]:
        """Those that exist."""
        if not tickets:
            return []
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(select(SK).where(SK.c.ticket.in_(list(tickets))))).all()
        return [_seek(r) for r in rows]

    async def waiting(self) -> list[SeekRow]:
        """Seeks not seated, oldest first."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(SK).where(SK.c.table_id.is_(None)).order_by(SK.c.joined_at)
                )
            ).all()
        return [_seek(r) for r in rows]

    async def touch(self, tickets: Sequence[str], holders: Sequence[str], now: float) -> None:
        """Lock the waiting ones in ticket order, skipping any a pairing pass holds (it is
        seating them), then one UPDATE: it never waits on a pass, so never deadlocks one."""
        if not tickets:
            return
        async with self.db.engine.begin() as conn:
            mine = (
                select(SK.c.ticket)
                .where(SK.c.ticket.in_(list(tickets)), SK.c.table_id.is_(None))
                .where(SK.c.holder.in_(list(holders)))
                .order_by(SK.c.ticket)
                .with_for_update(skip_locked=True)
            )
            locked = list((await conn.execute(mine)).scalars())
            if locked:
                await conn.execute(update(SK).where(SK.c.ticket.in_(locked)).values(seen_at=now))

    async def set_away(self, ticket: str, holder: str, away_since: float | None) -> None:
        """Only for the connection holding it."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                update(SK)
                .where(SK.c.ticket == ticket, SK.c.holder == holder, SK.c.table_id.is_(None))
                .values(away_since=away_since)
            )

    async def drop(self, tickets: Sequence[str]) -> None:
        """Delete them."""
        if tickets:
            async with self.db.engine.begin() as conn:
                await conn.execute(delete(SK).where(SK.c.ticket.in_(list(tickets))))

    async def sweep(self, seen_before: float, away_before: float, matched_before: float) -> int:
        """One DELETE."""
        waiting = SK.c.table_id.is_(None)
        async with self.db.engine.begin() as conn:
            result = await conn.execute(
                delete(SK).where(
                    or_(
                        waiting & (SK.c.seen_at < seen_before),
                        waiting & (SK.c.away_since < away_before),
                        SK.c.matched_at < matched_before,
                    )
                )
            )
        return int(result.rowcount or 0)

    async def seat(
        self, seats: Mapping[str, int], table: TableRow, now: float, caps: Sequence[Cap] = ()
    ) -> bool:
        """Claim every seek (each UPDATE must find it waiting), then count the caps and
        insert the table."""
        tickets = sorted(seats)
        waiting = (SK.c.ticket.in_(tickets), SK.c.table_id.is_(None), SK.c.away_since.is_(None))
        try:
            async with self.db.engine.begin() as conn:
                # Lock the seeks in ticket order (PostgreSQL; SQLite locks the whole file), so
                # two passes that overlap wait for each other rather than deadlock.
                lock = select(SK.c.ticket).where(*waiting).order_by(SK.c.ticket).with_for_update()
                if len(list((await conn.execute(lock)).scalars())) != len(tickets):
                    raise _GoneError
                claimed = await conn.execute(
                    update(SK)
                    .where(*waiting)
                    .values(
                        table_id=table.id,
                        seat=case(dict(seats), value=SK.c.ticket),
                        matched_at=now,
                    )
                )
                if claimed.rowcount != len(tickets):
                    raise _GoneError
                await check_caps(self.db, conn, caps)
                await insert_table(conn, table)
        except (_GoneError, IntegrityError):
            return False
        return True

    async def pool_counts(self, seen_after: float) -> dict[Pool, int]:
        """One grouped count."""
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(SK.c.variant, SK.c.players, SK.c.teams, SK.c.days, func.count())
                    .where(
                        SK.c.table_id.is_(None),
                        SK.c.away_since.is_(None),
                        SK.c.seen_at >= seen_after,
                    )
                    .group_by(SK.c.variant, SK.c.players, SK.c.teams, SK.c.days)
                )
            ).all()
        return {
            (r[0], int(r[1]), bool(r[2]), None if r[3] is None else int(r[3])): int(r[4])
            for r in rows
        }


def _seek_values(seek: SeekRow) -> dict[str, Any]:
    return {
        "ticket": seek.ticket,
        "identity_id": seek.identity,
        "name": seek.name,
        "variant": seek.variant,
        "players": seek.players,
        "teams": seek.teams,
        "mu": seek.mu,
        "sigma": seek.sigma,
        "joined_at": seek.joined_at,
        "bot_after": seek.bot_after,
        "seen_at": seek.seen_at,
        "holder": seek.holder,
        "away_since": seek.away_since,
        "table_id": seek.table_id,
        "seat": seek.seat,
        "matched_at": seek.matched_at,
        "days": seek.days,
    }


def _seek(row: Any) -> SeekRow:
    return SeekRow(
        ticket=row.ticket,
        identity=row.identity_id,
        name=row.name,
        variant=row.variant,
        players=row.players,
        teams=bool(row.teams),
        mu=row.mu,
        sigma=row.sigma,
        joined_at=row.joined_at,
        bot_after=row.bot_after,
        seen_at=row.seen_at,
        holder=row.holder,
        away_since=row.away_since,
        table_id=row.table_id,
        seat=row.seat,
        matched_at=row.matched_at,
        days=row.days,
    )
