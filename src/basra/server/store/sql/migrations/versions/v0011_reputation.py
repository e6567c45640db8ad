"""Reputation: whether a person left a settled game
(:mod:`basra.server.features.reputation`).

New column: ``results.left_game`` (false for results settled before: a seat that
forfeited is known by its ``forfeit`` outcome still).

Revision ID: 0011_reputation
Revises: 0010_friends
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_reputation"
down_revision = "0010_friends"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column."""
    op.add_column(
        "results",
        sa.Column("left_game", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("results") as batch:
        batch.drop_column("left_game")
