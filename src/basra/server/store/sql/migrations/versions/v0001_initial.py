"""The first schema: tables, seats and the event log.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("rules", sa.Text, nullable=False, server_default="{}"),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("teams", sa.Boolean, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("scores", sa.Text, nullable=False, server_default="[]"),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("player_key", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_player_key", "seats", ["player_key"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop everything."""
    op.drop_table("events")
    op.drop_index("ix_seats_player_key", "seats")
    op.drop_table("seats")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
