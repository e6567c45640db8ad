"""Server-issued identities, devices and transfer codes; table owners and faults.

Seats now hold an identity id (``seats.identity_id``, renamed from
``player_key``). Every key already in a seat (the SHA-256 of a browser's old
secret) becomes a ``legacy`` identity with that id: the browser holding the
secret can exchange it once for a device token, and keeps its games.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add identities, devices and transfers; rename the seat key; new table columns."""
    op.create_table(
        "identities",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("revoked_at", sa.Float, nullable=True),
        sa.Column("legacy", sa.Boolean, nullable=False, server_default="0"),
    )
    op.create_table(
        "devices",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen_at", sa.Float, nullable=False),
        sa.Column("revoked_at", sa.Float, nullable=True),
        sa.Column("user_agent", sa.String(200), nullable=True),
    )
    op.create_index("ix_devices_identity_id", "devices", ["identity_id"])
    op.create_index("ix_devices_token_hash", "devices", ["token_hash"], unique=True)
    op.create_table(
        "transfers",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("identity_id", sa.String(64), sa.ForeignKey("identities.id"), nullable=False),
        sa.Column("device_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_key")
        batch.alter_column("player_key", new_column_name="identity_id")
    op.create_index("ix_seats_identity_id", "seats", ["identity_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("created_by", sa.String(64), nullable=True))
        batch.add_column(sa.Column("created_from", sa.String(64), nullable=True))
        batch.add_column(sa.Column("all_bots", sa.Boolean, nullable=False, server_default="0"))
        batch.add_column(sa.Column("fault", sa.Text, nullable=True))
    op.create_index("ix_tables_created_by", "tables", ["created_by"])
    op.create_index("ix_tables_created_from", "tables", ["created_from"])
    op.execute(
        sa.text(
            "INSERT INTO identities (id, created_at, name, legacy) "
            "SELECT identity_id, :now, MAX(name), :legacy FROM seats "
            "WHERE identity_id IS NOT NULL GROUP BY identity_id"
        ).bindparams(now=time.time(), legacy=True)
    )
    op.execute(
        "UPDATE tables SET all_bots = "
        "(SELECT COUNT(*) = 0 FROM seats WHERE seats.table_id = tables.id "
        "AND seats.kind = 'person')"
    )


def downgrade() -> None:
    """Back to the first schema (identities, devices and transfers are dropped)."""
    op.drop_index("ix_tables_created_from", "tables")
    op.drop_index("ix_tables_created_by", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fault")
        batch.drop_column("all_bots")
        batch.drop_column("created_from")
        batch.drop_column("created_by")
    op.drop_index("ix_seats_identity_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("identity_id", new_column_name="player_key")
    op.create_index("ix_seats_player_key", "seats", ["player_key"])
    op.drop_table("transfers")
    op.drop_index("ix_devices_token_hash", "devices")
    op.drop_index("ix_devices_identity_id", "devices")
    op.drop_table("devices")
    op.drop_table("identities")
