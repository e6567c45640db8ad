"""The database schema (SQLAlchemy Core), mirrored by the Alembic migrations.

Three tables hold everything. ``tables`` has one row per game table: its
settings and where it stands. ``seats`` has who sits where (a person's key is
the SHA-256 of the secret their browser keeps, never the secret itself).
``events`` is the game itself, an append-only log of deals (the shuffled pack)
and plays (move text), numbered from 0 per table: the record of RECORD.md is
rebuilt from it, so records are the source of truth. The primary key
``(table_id, seq)`` makes two writers racing for the same step fail cleanly,
which is how several server processes keep one action at a time per table.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = ["events", "metadata", "seats", "tables"]

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("rules", Text, nullable=False, server_default="{}"),
    Column("players", Integer, nullable=False),
    Column("teams", Boolean, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("hints", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("scores", Text, nullable=False, server_default="[]"),
    Column("winner", Integer, nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
)
Index("ix_tables_status", tables.c.status)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(16), nullable=True),
    Column("player_key", String(64), nullable=True),
    Column("name", String(64), nullable=True),
)
Index("ix_seats_player_key", seats.c.player_key)

events = Table(
    "events",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)
