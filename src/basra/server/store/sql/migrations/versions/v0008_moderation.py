"""Moderation: reports of players and sanctions on identities.

New tables: ``reports`` (one per report: reporter, target, table, reason, note,
and once closed what the operator did) and ``sanctions`` (one per identity
suspended until a time, or banned).

Revision ID: 0008_moderation
Revises: 0007_tournaments
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_moderation"
down_revision = "0007_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two tables."""
    op.create_table(
        "reports",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("target_name", sa.String(64), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("closed_at", sa.Float, nullable=True),
        sa.Column("resolution", sa.Text, nullable=True),
    )
    op.create_index("ix_reports_open", "reports", ["closed_at", "at"])
    op.create_table(
        "sanctions",
        sa.Column("identity_id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=True),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("sanctions")
    op.drop_index("ix_reports_open", "reports")
    op.drop_table("reports")
