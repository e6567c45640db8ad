"""Table talk: mutes, the talk setting, silences, the tables' talk option
(:mod:`basra.server.features.talk.store`), and a report's subject and the line it quotes
(:mod:`basra.server.features.moderation_store`).

New tables: ``talk_mutes``, ``talk_settings``, ``talk_silences``, ``talk_tables``; new
columns ``reports.subject`` and ``reports.quote``.

Revision ID: 0018_talk
Revises: 0017_turnbased
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_talk"
down_revision = "0017_turnbased"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables and add the two columns."""
    op.create_table(
        "talk_mutes",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("muted", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_talk_mutes_muted", "talk_mutes", ["muted"])
    op.create_table(
        "talk_settings",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("off", sa.Boolean, nullable=False),
    )
    op.create_table(
        "talk_silences",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=True),
    )
    op.create_table(
        "talk_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("spectators", sa.Boolean, nullable=False),
    )
    with op.batch_alter_table("reports") as batch:
        batch.add_column(sa.Column("subject", sa.String(16), nullable=True))
        batch.add_column(sa.Column("quote", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("reports") as batch:
        batch.drop_column("quote")
        batch.drop_column("subject")
    op.drop_table("talk_tables")
    op.drop_table("talk_silences")
    op.drop_table("talk_settings")
    op.drop_index("ix_talk_mutes_muted", "talk_mutes")
    op.drop_table("talk_mutes")
