"""Table talk's data: mutes, the talk setting, silences and each table's talk option, with
their repository's protocol, their tables and the repository in SQL, all in this one
module (the feature owns its data; migration ``v0018_talk``). The lines themselves are
never stored (:mod:`basra.server.features.talk`): only a reported line is kept, in its
report (the ``subject`` and ``quote`` of
:class:`~basra.server.features.moderation_store.ReportRow`).

- ``talk_mutes``: one row a ``(identity, muted)`` pair: ``identity`` does not hear ``muted``.
- ``talk_settings``: whether a person turned table talk off (they neither hear nor talk).
- ``talk_silences``: a person the operator silenced (``basra admin silence``), until a
  time or for good, and why.
- ``talk_tables``: the tables whose spectators read the talk (the create-table form's
  ``talk_spectators``; a table without a row keeps its talk among its players).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Boolean, Column, Float, Index, String, Table, Text, delete, or_, select
from sqlalchemy.exc import IntegrityError

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["SilenceRow", "SqlTalk", "TalkStore"]


@dataclass(frozen=True)
class SilenceRow:
    """An operator's silence on a person's talk."""

    identity: str
    reason: str
    at: float
    until: float | None
    """When it ends (None: until lifted)."""


# ---------------------------------------------------------------------- repository


class TalkStore(Protocol):
    """Mutes, the talk setting, silences and the tables' talk option."""

    async def mute(self, identity: str, muted: str, at: float) -> bool:
        """``identity`` stops hearing ``muted``: True if new."""

    async def unmute(self, identity: str, muted: str) -> bool:
        """``identity`` hears ``muted`` again: True if there was such a mute."""

    async def muting(self, identity: str) -> list[str]:
        """Whom a person mutes, oldest mute first."""

    async def turn_off(self, identity: str, off: bool) -> None:
        """Turn a person's table talk off (or on again)."""

    async def is_off(self, identity: str) -> bool:
        """Whether a person turned table talk off."""

    async def speaker(self, identity: str, now: float) -> tuple[SilenceRow | None, bool]:
        """A person's silence in force at ``now`` (or None), and whether they turned talk
        off: what a line of theirs is checked against, in one round trip."""

    async def deaf(self, speaker: str, listeners: Sequence[str]) -> set[str]:
        """Those of ``listeners`` who do not hear ``speaker``: they mute them, or turned
        talk off."""

    async def silence(self, row: SilenceRow) -> None:
        """Silence a person (replacing an earlier silence)."""

    async def unsilence(self, identity: str) -> bool:
        """Lift a person's silence: True if there was one."""

    async def silence_of(self, identity: str, now: float) -> SilenceRow | None:
        """A person's silence in force at ``now``, or None."""

    async def open_to_spectators(self, table_id: str) -> None:
        """Let a table's spectators read its talk."""

    async def spectators_read(self, table_id: str) -> bool:
        """Whether a table's spectators read its talk."""


# ---------------------------------------------------------------------- tables

talk_mutes = Table(
    "talk_mutes",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("muted", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)
Index("ix_talk_mutes_muted", talk_mutes.c.muted)

talk_settings = Table(
    "talk_settings",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("off", Boolean, nullable=False),
)

talk_silences = Table(
    "talk_silences",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("until", Float, nullable=True),
)

talk_tables = Table(
    "talk_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("spectators", Boolean, nullable=False),
)

TM, TS, SI, TT = talk_mutes, talk_settings, talk_silences, talk_tables


class SqlTalk:
    """:class:`TalkStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def mute(self, identity: str, muted: str, at: float) -> bool:
        """Insert, unless it is there."""
        try:
            async with self.db.engine.begin() as conn:
                found = await conn.execute(
                    select(TM.c.at).where(TM.c.identity == identity, TM.c.muted == muted)
                )
                if found.first() is not None:
                    return False
                await conn.execute(TM.insert().values(identity=identity, muted=muted, at=at))
        except IntegrityError:
            return False  # the same mute, written at the same moment elsewhere
        return True

    async def unmute(self, identity: str, muted: str) -> bool:
        """One delete."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(
                delete(TM).where(TM.c.identity == identity, TM.c.muted == muted)
            )
        return bool(done.rowcount)

    async def muting(self, identity: str) -> list[str]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(TM.c.muted).where(TM.c.identity == identity).order_by(TM.c.at)
            )
        return [r[0] for r in rows]

    async def turn_off(self, identity: str, off: bool) -> None:
        """Replace the setting's row."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(TS).where(TS.c.identity == identity))
            await conn.execute(TS.insert().values(identity=identity, off=off))

    async def is_off(self, identity: str) -> bool:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(TS.c.off).where(TS.c.identity == identity))).first()
        return bool(row and row[0])

    async def speaker(self, identity: str, now: float) -> tuple[SilenceRow | None, bool]:
        """Two indexed lookups on one connection."""
        async with self.db.engine.connect() as conn:
            found = (
                await conn.execute(
                    select(SI).where(
                        SI.c.identity == identity, or_(SI.c.until.is_(None), SI.c.until > now)
                    )
                )
            ).first()
            off = (await conn.execute(select(TS.c.off).where(TS.c.identity == identity))).first()
        silence = (
            None if found is None else SilenceRow(identity, found.reason, found.at, found.until)
        )
        return silence, bool(off and off[0])

    async def deaf(self, speaker: str, listeners: Sequence[str]) -> set[str]:
        """One query on each table (the listeners are a table's few clients)."""
        people = sorted(set(listeners))
        if not people:
            return set()
        async with self.db.engine.connect() as conn:
            muting = await conn.execute(
                select(TM.c.identity).where(TM.c.muted == speaker, TM.c.identity.in_(people))
            )
            out = {r[0] for r in muting}
            off = await conn.execute(
                select(TS.c.identity).where(TS.c.identity.in_(people), TS.c.off.is_(True))
            )
            out |= {r[0] for r in off}
        return out

    async def silence(self, row: SilenceRow) -> None:
        """Replace the person's silence."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(SI).where(SI.c.identity == row.identity))
            await conn.execute(
                SI.insert().values(
                    identity=row.identity, reason=row.reason, at=row.at, until=row.until
                )
            )

    async def unsilence(self, identity: str) -> bool:
        """One delete."""
        async with self.db.engine.begin() as conn:
            done = await conn.execute(delete(SI).where(SI.c.identity == identity))
        return bool(done.rowcount)

    async def silence_of(self, identity: str, now: float) -> SilenceRow | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(SI).where(
                        SI.c.identity == identity, or_(SI.c.until.is_(None), SI.c.until > now)
                    )
                )
            ).first()
        if row is None:
            return None
        return SilenceRow(row.identity, row.reason, row.at, row.until)

    async def open_to_spectators(self, table_id: str) -> None:
        """Replace the table's row."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(TT).where(TT.c.table_id == table_id))
            await conn.execute(TT.insert().values(table_id=table_id, spectators=True))

    async def spectators_read(self, table_id: str) -> bool:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(select(TT.c.spectators).where(TT.c.table_id == table_id))
            ).first()
        return bool(row and row[0])
