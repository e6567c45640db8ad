"""Admission: the client address a tournament was made from, for the per-address caps.

New column: ``tournaments.created_from`` (indexed; null for events made before, and
for the schedule's).

Revision ID: 0009_admission
Revises: 0008_moderation
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_admission"
down_revision = "0008_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column and its index."""
    op.add_column("tournaments", sa.Column("created_from", sa.String(64), nullable=True))
    op.create_index("ix_tournaments_created_from", "tournaments", ["created_from"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_tournaments_created_from", "tournaments")
    op.drop_column("tournaments", "created_from")
