"""The challenges' data, with their repository's protocol, tables and the repository in SQL
(migration ``v0016_challenges``).

- ``challenges``: one row a challenge: its maker, status, when it was made and expires,
  the table it made, and the rest as JSON (:class:`ChallengeRow`: the invitees' answers,
  the table's settings, the maker's words).
- ``challenge_invitees``: one row an ``(challenge, identity)`` invited, so a person's
  challenges are one indexed query.
- ``rematch_taps``: one row a ``(table, identity)`` who tapped for a rematch after the game
  there (:meth:`ChallengeStore.tap`: the lifecycle counts them,
  :meth:`basra.server.table.lifecycle.Lifecycle.rematch`).

A challenge changes only through :meth:`ChallengeStore.change`: the row is read and
written back in one transaction under the challenge's lock, so two answers given at
once in two processes (or an answer and the expiry sweep) are applied one after the
other, and exactly one of them sees the change that makes the table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Column, Float, Index, String, Table, Text, or_, select, update
from sqlalchemy.exc import IntegrityError

from basra.server.store.sql.database import SqlDatabase
from basra.server.store.sql.schema import metadata

__all__ = ["ChallengeRow", "ChallengeStore", "SqlChallenges"]


@dataclass
class ChallengeRow:
    """One challenge: who made it, whom it invites (seat by seat), how each answered."""

    id: str
    maker: str
    maker_name: str
    invitees: list[str]
    """The invited identities; invitee ``n`` sits in seat ``n + 1``, the maker in seat 0."""
    names: dict[str, str]
    """Each invitee's name when invited."""
    answers: dict[str, str]
    """Each invitee's answer: ``waiting``, ``accepted``, ``declined`` or ``expired``."""
    settings: dict[str, Any]
    """The table's form as the maker sent it (checked), and ``level``: the bots' level."""
    text: str
    """The maker's words (may be empty)."""
    at: float
    expires_at: float
    status: str = "waiting"
    """``waiting``, ``accepted`` (its table made), ``declined``, ``expired``, ``cancelled``."""
    table_id: str | None = None
    address: str | None = None
    """The maker's client address (the table counts against it)."""

    def to_json(self) -> str:
        """The JSON column."""
        return json.dumps(
            {
                "maker_name": self.maker_name,
                "invitees": self.invitees,
                "names": self.names,
                "answers": self.answers,
                "settings": self.settings,
                "text": self.text,
                "address": self.address,
            }
        )


class ChallengeStore(Protocol):
    """Challenges, by id and by the people in them."""

    async def add(self, row: ChallengeRow) -> None:
        """Keep a new challenge."""

    async def load(self, challenge_id: str) -> ChallengeRow | None:
        """A challenge, or None."""

    async def change(
        self, challenge_id: str, step: Callable[[ChallengeRow], ChallengeRow | None]
    ) -> tuple[ChallengeRow, ChallengeRow] | None:
        """Apply ``step`` to a challenge under its lock and keep what it returns: the
        challenge before and after, or None when there is no such challenge or ``step``
        changed nothing (returned None)."""

    async def of(self, identity: str, since: float, limit: int) -> list[ChallengeRow]:
        """The challenges a person made or is invited to, made after ``since``, newest first."""

    async def due(self, now: float, limit: int) -> list[str]:
        """The ids of waiting challenges whose time is up."""

    async def tap(self, table_id: str, identity: str, at: float) -> set[str]:
        """Keep a person's rematch tap at a finished table; everyone who tapped there so far
        (read after the tap is written, so of two taps at once the later sees both)."""


challenges = Table(
    "challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("maker", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("table_id", String(32), nullable=True),
    Column("body", Text, nullable=False),
)
Index("ix_challenges_maker_at", challenges.c.maker, challenges.c.at)
Index("ix_challenges_status_expires", challenges.c.status, challenges.c.expires_at)

challenge_invitees = Table(
    "challenge_invitees",
    metadata,
    Column("challenge", String(32), primary_key=True),
    Column("identity", String(64), primary_key=True),
)
Index("ix_challenge_invitees_identity", challenge_invitees.c.identity)

rematch_taps = Table(
    "rematch_taps",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("identity", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)

CH, CI, RT = challenges, challenge_invitees, rematch_taps


def _row(r: Any) -> ChallengeRow:
    body = json.loads(r.body)
    return ChallengeRow(
        id=r.id,
        maker=r.maker,
        maker_name=body["maker_name"],
        invitees=list(body["invitees"]),
        names=dict(body["names"]),
        answers=dict(body["answers"]),
        settings=dict(body["settings"]),
        text=body["text"],
        at=r.at,
        expires_at=r.expires_at,
        status=r.status,
        table_id=r.table_id,
        address=body.get("address"),
    )


class SqlChallenges:
    """:class:`ChallengeStore` in SQL."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db

    async def add(self, row: ChallengeRow) -> None:
        """The challenge and its invitees, in one transaction."""
        async with self.db.engine.begin() as conn:
            await conn.execute(
                CH.insert().values(
                    id=row.id,
                    maker=row.maker,
                    status=row.status,
                    at=row.at,
                    expires_at=row.expires_at,
                    table_id=row.table_id,
                    body=row.to_json(),
                )
            )
            await conn.execute(
                CI.insert(), [{"challenge": row.id, "identity": who} for who in row.invitees]
            )

    async def load(self, challenge_id: str) -> ChallengeRow | None:
        """One lookup."""
        async with self.db.engine.connect() as conn:
            found = (await conn.execute(select(CH).where(CH.c.id == challenge_id))).first()
        return None if found is None else _row(found)

    async def change(
        self, challenge_id: str, step: Callable[[ChallengeRow], ChallengeRow | None]
    ) -> tuple[ChallengeRow, ChallengeRow] | None:
        """Read, step and write back under the challenge's lock."""
        async with self.db.engine.begin() as conn:
            await self.db.lock(conn, [f"challenge:{challenge_id}"])
            found = (await conn.execute(select(CH).where(CH.c.id == challenge_id))).first()
            if found is None:
                return None
            before = _row(found)
            after = step(_row(found))
            if after is None:
                return None
            await conn.execute(
                update(CH)
                .where(CH.c.id == challenge_id)
                .values(status=after.status, table_id=after.table_id, body=after.to_json())
            )
        return before, after

    async def of(self, identity: str, since: float, limit: int) -> list[ChallengeRow]:
        """One query on the two indexes."""
        invited = select(CI.c.challenge).where(CI.c.identity == identity)
        query = (
            select(CH)
            .where(or_(CH.c.maker == identity, CH.c.id.in_(invited)), CH.c.at > since)
            .order_by(CH.c.at.desc())
            .limit(limit)
        )
        async with self.db.engine.connect() as conn:
            return [_row(r) for r in await conn.execute(query)]

    async def due(self, now: float, limit: int) -> list[str]:
        """One indexed query."""
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(
                select(CH.c.id)
                .where(CH.c.status == "waiting", CH.c.expires_at <= now)
                .order_by(CH.c.expires_at)
                .limit(limit)
            )
        return [r[0] for r in rows]

    async def tap(self, table_id: str, identity: str, at: float) -> set[str]:
        """An insert (a second tap is the same tap), then one query."""
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(RT.insert().values(table_id=table_id, identity=identity, at=at))
        except IntegrityError:
            pass
        async with self.db.engine.connect() as conn:
            rows = await conn.execute(select(RT.c.identity).where(RT.c.table_id == table_id))
        return {r[0] for r in rows}
