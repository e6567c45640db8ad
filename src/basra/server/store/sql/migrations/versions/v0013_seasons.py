"""Seasons and leagues: final tables, the seasons closed and arena placings
(:mod:`basra.server.features.seasons.store`).

New tables: ``season_closes``, ``season_finals``, ``season_arena``; an index of ``results``
by family and time (a season's entries).

Revision ID: 0013_seasons
Revises: 0012_push
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_seasons"
down_revision = "0012_push"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and the indexes."""
    op.create_table(
        "season_closes",
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("season", sa.Integer, primary_key=True),
        sa.Column("closed_at", sa.Float, nullable=False),
        sa.Column("people", sa.Integer, nullable=False),
    )
    op.create_table(
        "season_finals",
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("season", sa.Integer, primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("division", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("reached", sa.Float, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
        sa.Column("next_division", sa.Integer, nullable=False),
    )
    op.create_index("ix_season_finals_identity", "season_finals", ["identity", "season"])
    op.create_table(
        "season_arena",
        sa.Column("event_id", sa.String(32), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
    )
    op.create_index("ix_season_arena_family", "season_arena", ["family", "ended_at"])
    op.create_index("ix_results_family_ended_at", "results", ["family", "ended_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_results_family_ended_at", "results")
    op.drop_index("ix_season_arena_family", "season_arena")
    op.drop_table("season_arena")
    op.drop_index("ix_season_finals_identity", "season_finals")
    op.drop_table("season_finals")
    op.drop_table("season_closes")
