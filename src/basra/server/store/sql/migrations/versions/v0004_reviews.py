"""Reviews of finished games: one row a game, its job's progress and the review as JSON
(with each seat's accuracy apart, for profiles).

Revision ID: 0004_reviews
Revises: 0003_platform
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_reviews"
down_revision = "0003_platform"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the reviews table."""
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("requested_by", sa.String(64), nullable=True),
        sa.Column("data", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("accuracy", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_reviews_requested_by", "reviews", ["requested_by"])
    op.create_index("ix_reviews_status", "reviews", ["status"])


def downgrade() -> None:
    """Drop the reviews table."""
    op.drop_index("ix_reviews_status", "reviews")
    op.drop_index("ix_reviews_requested_by", "reviews")
    op.drop_table("reviews")
