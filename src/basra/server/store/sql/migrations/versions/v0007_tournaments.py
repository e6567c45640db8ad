"""Tournaments: events, entrants, members, rounds, games and waiting teams; and what a
table a feature makes says of itself.

Tables get ``owner`` (the feature's key for a table it made: ``tournament:...``),
``private`` (not watchable; its record shown as the feature allows), ``forfeits``
(the forfeit rule at an unrated table) and ``lasting`` (never abandoned). New
tables: ``tournaments``, ``tournament_entrants``, ``tournament_members``,
``tournament_rounds``, ``tournament_games`` and ``tournament_teams``.

Revision ID: 0007_tournaments
Revises: 0006_learn
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_tournaments"
down_revision = "0006_learn"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the four columns and the six tables."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(120), nullable=True))
        batch.add_column(sa.Column("private", sa.Boolean, nullable=False, server_default="0"))
        batch.add_column(sa.Column("forfeits", sa.Boolean, nullable=False, server_default="0"))
        batch.add_column(sa.Column("lasting", sa.Boolean, nullable=False, server_default="0"))
    op.create_index("ix_tables_owner", "tables", ["owner"])
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(64), nullable=True),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(32), nullable=True),
        sa.Column("schedule_key", sa.String(160), nullable=True),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("ended", sa.String(16), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_created_by", "tournaments", ["created_by"])
    op.create_index("ix_tournaments_schedule_key", "tournaments", ["schedule_key"], unique=True)
    op.create_table(
        "tournament_entrants",
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("entrant_id", sa.String(16), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("ready_at", sa.Float, nullable=False),
        sa.Column("playing", sa.String(32), nullable=True),
        sa.Column("gone", sa.Boolean, nullable=False, server_default="0"),
        sa.Column("stamp", sa.Integer, nullable=False),
    )
    op.create_index("ix_tournament_entrants_stamp", "tournament_entrants", ["event_id", "stamp"])
    op.create_table(
        "tournament_members",
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("member", sa.String(80), primary_key=True),
        sa.Column("entrant_id", sa.String(16), nullable=False),
    )
    op.create_index("ix_tournament_members_member", "tournament_members", ["member"])
    op.create_table(
        "tournament_rounds",
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("stamp", sa.Integer, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("sides", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("stamp", sa.Integer, nullable=False),
    )
    op.create_index("ix_tournament_games_stamp", "tournament_games", ["event_id", "stamp"])
    op.create_table(
        "tournament_teams",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("event_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("identity_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tournament_teams_event", "tournament_teams", ["event_id", "identity_id"])


def downgrade() -> None:
    """Back to 0005_play (every event is dropped)."""
    op.drop_index("ix_tournament_teams_event", "tournament_teams")
    op.drop_table("tournament_teams")
    op.drop_index("ix_tournament_games_stamp", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_members_member", "tournament_members")
    op.drop_table("tournament_members")
    op.drop_index("ix_tournament_entrants_stamp", "tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_schedule_key", "tournaments")
    op.drop_index("ix_tournaments_created_by", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
    op.drop_index("ix_tables_owner", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lasting")
        batch.drop_column("forfeits")
        batch.drop_column("private")
        batch.drop_column("owner")
