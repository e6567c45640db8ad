"""Notifications: what happened for a person (:mod:`basra.server.features.notifications.store`).

New table: ``notifications``.

Revision ID: 0015_notifications
Revises: 0014_clubs
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_notifications"
down_revision = "0014_clubs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its indexes."""
    op.create_table(
        "notifications",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("identity", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("url", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("read", sa.Boolean, nullable=False),
    )
    op.create_index("ix_notifications_identity_at", "notifications", ["identity", "at"])
    op.create_index("ix_notifications_identity_read", "notifications", ["identity", "read"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_notifications_identity_read", "notifications")
    op.drop_index("ix_notifications_identity_at", "notifications")
    op.drop_table("notifications")
