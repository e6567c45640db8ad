"""Quick play's pool, the daily deal's attempts and secret, bot accounts.

New tables: ``seeks`` (people waiting in the quick-play pool, one per
identity), ``leases`` (one process pairs the pool at a time), ``secrets``
(server secrets made once: the daily deals are derived from one),
``daily_attempts`` (one per identity and deal, with its table) and ``bots``
(bot accounts: their identity, owner, unique name and token hash). Tables get
``daily``: the deal an attempt's table plays (null for every other table).

Revision ID: 0005_play
Revises: 0004_reviews
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_play"
down_revision = "0004_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column and the five tables."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("daily", sa.String(64), nullable=True))
    op.create_table(
        "seeks",
        sa.Column("ticket", sa.String(32), primary_key=True),
        sa.Column("identity_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("teams", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("bot_after", sa.Float, nullable=True),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("holder", sa.String(32), nullable=False),
        sa.Column("away_since", sa.Float, nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("matched_at", sa.Float, nullable=True),
    )
    op.create_index("ix_seeks_identity_id", "seeks", ["identity_id"], unique=True)
    op.create_index("ix_seeks_table_id", "seeks", ["table_id"])
    op.create_table(
        "leases",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("deal_id", sa.String(64), primary_key=True),
        sa.Column("identity_id", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
    )
    op.create_index("ix_daily_attempts_table_id", "daily_attempts", ["table_id"], unique=True)
    op.create_table(
        "bots",
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), primary_key=True),
        sa.Column("owner_id", sa.String(64), sa.ForeignKey("identities.id"), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("revoked_at", sa.Float, nullable=True),
    )
    op.create_index("ix_bots_owner_id", "bots", ["owner_id"])
    op.create_index("ix_bots_token_hash", "bots", ["token_hash"], unique=True)
    op.create_index("ix_bots_name_key", "bots", ["name_key"], unique=True)


def downgrade() -> None:
    """Back to 0003_platform (the pool, attempts, secrets and bot accounts are dropped)."""
    op.drop_index("ix_bots_name_key", "bots")
    op.drop_index("ix_bots_token_hash", "bots")
    op.drop_index("ix_bots_owner_id", "bots")
    op.drop_table("bots")
    op.drop_index("ix_daily_attempts_table_id", "daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("secrets")
    op.drop_table("leases")
    op.drop_index("ix_seeks_table_id", "seeks")
    op.drop_index("ix_seeks_identity_id", "seeks")
    op.drop_table("seeks")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("daily")
