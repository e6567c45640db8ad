"""Clubs: clubs, their members and their invitations
(:mod:`basra.server.features.clubs.store`).

New tables: ``clubs``, ``club_members``, ``club_invites``, ``club_tables``,
``club_events``, ``club_event_players``.

Revision ID: 0014_clubs
Revises: 0013_seasons
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_clubs"
down_revision = "0013_seasons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the six tables and their indexes."""
    op.create_table(
        "clubs",
        sa.Column("slug", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("made_at", sa.Float, nullable=False),
        sa.Column("removed_at", sa.Float, nullable=True),
        sa.Column("removed_reason", sa.Text, nullable=True),
    )
    op.create_index("ix_clubs_name_key", "clubs", ["name_key"], unique=True)
    op.create_table(
        "club_members",
        sa.Column("slug", sa.String(40), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_club_members_identity", "club_members", ["identity"])
    op.create_table(
        "club_invites",
        sa.Column("slug", sa.String(40), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_club_invites_identity", "club_invites", ["identity"])
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("slug", sa.String(40), nullable=False),
    )
    op.create_table(
        "club_events",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("slug", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("best", sa.Integer, nullable=True),
        sa.Column("invite", sa.String(40), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_club_events_slug", "club_events", ["slug"])
    op.create_table(
        "club_event_players",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("slug", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("club_event_players")
    op.drop_index("ix_club_events_slug", "club_events")
    op.drop_table("club_events")
    op.drop_table("club_tables")
    op.drop_index("ix_club_invites_identity", "club_invites")
    op.drop_table("club_invites")
    op.drop_index("ix_club_members_identity", "club_members")
    op.drop_table("club_members")
    op.drop_index("ix_clubs_name_key", "clubs")
    op.drop_table("clubs")
