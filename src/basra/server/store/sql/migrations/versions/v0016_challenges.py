"""Challenges: a person's invitation of others to a table
(:mod:`basra.server.features.challenges.store`).

New tables: ``challenges``, ``challenge_invitees``, ``rematch_taps``.

Revision ID: 0016_challenges
Revises: 0015_notifications
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_challenges"
down_revision = "0015_notifications"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and their indexes."""
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("maker", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_challenges_maker_at", "challenges", ["maker", "at"])
    op.create_index("ix_challenges_status_expires", "challenges", ["status", "expires_at"])
    op.create_table(
        "challenge_invitees",
        sa.Column("challenge", sa.String(32), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
    )
    op.create_index("ix_challenge_invitees_identity", "challenge_invitees", ["identity"])
    op.create_table(
        "rematch_taps",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("rematch_taps")
    op.drop_index("ix_challenge_invitees_identity", "challenge_invitees")
    op.drop_table("challenge_invitees")
    op.drop_index("ix_challenges_status_expires", "challenges")
    op.drop_index("ix_challenges_maker_at", "challenges")
    op.drop_table("challenges")
