"""Accounts, ratings and results; rated tables with clocks; who made a play.

Tables get ``rated``, a clock (``clock_move``, ``clock_reserve``) and
``settled_at`` (when their results were recorded; every table already there
counts as settled, so no old game is rated after the fact). Events get
``auto``: the kind of play the server made for a person (``timeout``,
``stand_in``, ``forfeited``). New tables: ``accounts`` (a username and an
argon2 hash per identity), ``ratings`` (per identity, variant family and table
kind) and ``results`` (per person and finished game).

Revision ID: 0003_platform
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_platform"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and the three tables."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default="0"))
        batch.add_column(sa.Column("clock_move", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock_reserve", sa.Integer, nullable=True))
        batch.add_column(sa.Column("settled_at", sa.Float, nullable=True))
    op.execute("UPDATE tables SET settled_at = updated_at")
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("auto", sa.String(16), nullable=True))
    op.create_table(
        "accounts",
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_accounts_username_key", "accounts", ["username_key"], unique=True)
    op.create_table(
        "ratings",
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_pool", "ratings", ["family", "kind"])
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("identity_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("basras", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
    )
    op.create_index("ix_results_identity_id", "results", ["identity_id", "ended_at"])


def downgrade() -> None:
    """Back to 0002 (accounts, ratings and results are dropped)."""
    op.drop_index("ix_results_identity_id", "results")
    op.drop_table("results")
    op.drop_index("ix_ratings_pool", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_accounts_username_key", "accounts")
    op.drop_table("accounts")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("auto")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("settled_at")
        batch.drop_column("clock_reserve")
        batch.drop_column("clock_move")
        batch.drop_column("rated")
