"""Friends: follows, blocks, follow-me codes and the presence setting
(:mod:`basra.server.features.friends.store`).

New tables: ``follows``, ``blocks``, ``follow_codes``, ``friend_settings``.

Revision ID: 0010_friends
Revises: 0009_admission
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_friends"
down_revision = "0009_admission"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables and their indexes."""
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(64), primary_key=True),
        sa.Column("followee", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_follows_followee", "follows", ["followee"])
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(64), primary_key=True),
        sa.Column("blocked", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])
    op.create_table(
        "follow_codes",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("identity", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_follow_codes_identity", "follow_codes", ["identity"], unique=True)
    op.create_table(
        "friend_settings",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("hidden", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("friend_settings")
    op.drop_index("ix_follow_codes_identity", "follow_codes")
    op.drop_table("follow_codes")
    op.drop_index("ix_blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followee", "follows")
    op.drop_table("follows")
