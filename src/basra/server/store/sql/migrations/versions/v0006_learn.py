"""Lessons and puzzles: steps done, puzzle ratings and first tries, mined puzzles and
their mining jobs.

New tables: ``lesson_steps`` (one per person, course and step done), ``puzzlers``
(a person's puzzle rating and streaks), ``puzzle_ratings`` (a puzzle's rating),
``puzzle_tries`` (a person's first try at a puzzle), ``mined_puzzles`` (puzzles
mined from people's reviewed games) and ``puzzle_mining`` (each game's mining job).

Revision ID: 0006_learn
Revises: 0005_play
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_learn"
down_revision = "0005_play"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the six tables."""
    op.create_table(
        "lesson_steps",
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), primary_key=True),
        sa.Column("course", sa.String(80), primary_key=True),
        sa.Column("step", sa.String(32), primary_key=True),
        sa.Column("done_at", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzlers",
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_tries",
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("move", sa.String(48), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_tries_identity_at", "puzzle_tries", ["identity_id", "at"])
    op.create_table(
        "mined_puzzles",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("identity_id", sa.String(64), nullable=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("theme", sa.String(24), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_mined_puzzles_identity_id", "mined_puzzles", ["identity_id"])
    op.create_index("ix_mined_puzzles_created_at", "mined_puzzles", ["created_at"])
    op.create_table(
        "puzzle_mining",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("found", sa.Integer, nullable=False, server_default="0"),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_mining_status", "puzzle_mining", ["status"])


def downgrade() -> None:
    """Back to 0005_play (lessons done, puzzle ratings, tries and mined puzzles are
    dropped)."""
    op.drop_index("ix_puzzle_mining_status", "puzzle_mining")
    op.drop_table("puzzle_mining")
    op.drop_index("ix_mined_puzzles_created_at", "mined_puzzles")
    op.drop_index("ix_mined_puzzles_identity_id", "mined_puzzles")
    op.drop_table("mined_puzzles")
    op.drop_index("ix_puzzle_tries_identity_at", "puzzle_tries")
    op.drop_table("puzzle_tries")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzlers")
    op.drop_table("lesson_steps")
