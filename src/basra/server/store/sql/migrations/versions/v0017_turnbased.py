"""Turn-based tables: each person's vacations (:mod:`basra.server.features.turns.store`).

New table: ``vacations``; ``seeks`` gets ``days`` (quick play's turn-based pools). (A
turn-based table is an ordinary table whose clock is days per move: no column of its own.)

Revision ID: 0017_turnbased
Revises: 0016_challenges
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_turnbased"
down_revision = "0016_challenges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its index, and add the column."""
    op.create_table(
        "vacations",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("start", sa.Float, primary_key=True),
        sa.Column("end", sa.Float, nullable=False),
    )
    op.create_index("ix_vacations_end", "vacations", ["end"])
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("days", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("days")
    op.drop_index("ix_vacations_end", "vacations")
    op.drop_table("vacations")
