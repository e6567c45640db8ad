"""Web Push: subscriptions, opt-ins by kind, sends waiting
(:mod:`basra.server.features.push.store`).

New tables: ``push_subscriptions`` (with the ``lang`` its notifications are worded in),
``push_kinds``, ``push_sends``.

Revision ID: 0012_push
Revises: 0011_reputation
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_push"
down_revision = "0011_reputation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and their indexes."""
    op.create_table(
        "push_subscriptions",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("identity", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
    )
    op.create_index("ix_push_subscriptions_identity", "push_subscriptions", ["identity"])
    op.create_table(
        "push_kinds",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(32), primary_key=True),
    )
    op.create_table(
        "push_sends",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("subscription", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_push_sends_subscription", "push_sends", ["subscription"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_push_sends_subscription", "push_sends")
    op.drop_table("push_sends")
    op.drop_table("push_kinds")
    op.drop_index("ix_push_subscriptions_identity", "push_subscriptions")
    op.drop_table("push_subscriptions")
