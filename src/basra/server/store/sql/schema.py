"""The database schema (SQLAlchemy Core), mirrored by the Alembic migrations.

There is one :data:`metadata`: the tables declared here, and those a feature that owns
its data declares on it in its own store module (tournaments:
:mod:`basra.server.features.tournaments.store`; reviews:
:mod:`basra.server.features.reviews_store`; lessons and puzzles:
:mod:`basra.server.features.learn_store`; the daily deal:
:mod:`basra.server.features.daily_store`; quick play:
:mod:`basra.server.features.quickplay_store`; moderation's reports:
:mod:`basra.server.features.moderation_store`; bot accounts:
:mod:`basra.server.features.botapi_store`). :mod:`basra.server.stores` imports
every such module, so the schema is whole wherever a store is made (and where the
migrations are held to it, in the tests).

``tables`` has one row per game table: its settings, who created it (an
identity and a client address, for quotas) and where it stands. ``seats`` has
who sits where: a person's seat holds their identity's id. ``events`` is the
game itself, an append-only log of deals (the shuffled pack) and plays (move
text), numbered from 0 per table: the record of RECORD.md is rebuilt from it,
so records are the source of truth. The primary key ``(table_id, seq)`` makes
two writers racing for the same step fail cleanly, which is how several server
processes keep one action at a time per table.

People are ``identities``, issued by the server. An identity signs in on a
device through a ``devices`` row, which holds the SHA-256 of that device's
bearer token (never the token): signing a device out revokes its row, and
revoking an identity revokes all of them. A ``transfers`` row is a one-time,
short-lived code that signs another device in as the same identity.

An ``accounts`` row (a username and an argon2 password hash) is keyed by the
identity it belongs to: signing in issues a ``devices`` row like a transfer
code does. ``ratings`` holds each identity's openskill rating per variant
family and table kind; ``results`` has one row per person and finished (or
forfeited) game: the outcome, the basras, and the rating before and after.
A rated table has a clock (``clock_move`` seconds a move and a
``clock_reserve``); ``settled_at`` says when its results were recorded.
``events.auto`` marks a person's play the server made for them (``timeout``,
``stand_in``, ``forfeited``); with ``events.at`` the clocks are rebuilt from
the log after a restart (see :mod:`basra.server.table.clocks`).

Named ``leases`` (quick play's pairing, a tournament's clock, each table's owner) are
held by one process at a time. ``secrets`` holds server secrets made once
(the daily deals are derived from one).

Tables a feature makes name their
``owner`` (``tournament:...``) and may be ``private`` (not watchable, shown as
the feature allows), apply the forfeit rule unrated (``forfeits``), and never be
abandoned (``lasting``).
``sanctions`` has one row per identity suspended (``until``) or banned (by moderation,
:mod:`basra.server.features.moderation`; checked at sign-in).

"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = [
    "accounts",
    "devices",
    "events",
    "identities",
    "leases",
    "metadata",
    "ratings",
    "results",
    "sanctions",
    "seats",
    "secrets",
    "tables",
    "transfers",
]

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("rules", Text, nullable=False, server_default="{}"),
    Column("players", Integer, nullable=False),
    Column("teams", Boolean, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("hints", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("scores", Text, nullable=False, server_default="[]"),
    Column("winner", Integer, nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    Column("created_by", String(64), nullable=True),
    Column("created_from", String(64), nullable=True),
    Column("all_bots", Boolean, nullable=False, server_default="0"),
    Column("fault", Text, nullable=True),
    Column("rated", Boolean, nullable=False, server_default="0"),
    Column("clock_move", Integer, nullable=True),
    Column("clock_reserve", Integer, nullable=True),
    Column("settled_at", Float, nullable=True),
    Column("daily", String(64), nullable=True),
    Column("owner", String(120), nullable=True),
    Column("private", Boolean, nullable=False, server_default="0"),
    Column("forfeits", Boolean, nullable=False, server_default="0"),
    Column("lasting", Boolean, nullable=False, server_default="0"),
)
Index("ix_tables_status", tables.c.status)
Index("ix_tables_owner", tables.c.owner)
Index("ix_tables_created_by", tables.c.created_by)
Index("ix_tables_created_from", tables.c.created_from)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(16), nullable=True),
    Column("identity_id", String(64), nullable=True),
    Column("name", String(64), nullable=True),
)
Index("ix_seats_identity_id", seats.c.identity_id)

events = Table(
    "events",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("auto", String(16), nullable=True),
)

identities = Table(
    "identities",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("name", String(64), nullable=True),
    Column("revoked_at", Float, nullable=True),
    Column("legacy", Boolean, nullable=False, server_default="0"),
)

devices = Table(
    "devices",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("identity_id", String(64), ForeignKey("identities.id"), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_seen_at", Float, nullable=False),
    Column("revoked_at", Float, nullable=True),
    Column("user_agent", String(200), nullable=True),
)
Index("ix_devices_identity_id", devices.c.identity_id)
Index("ix_devices_token_hash", devices.c.token_hash, unique=True)

transfers = Table(
    "transfers",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("identity_id", String(64), ForeignKey("identities.id"), nullable=False),
    Column("device_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
)

accounts = Table(
    "accounts",
    metadata,
    Column("identity_id", String(64), ForeignKey("identities.id"), primary_key=True),
    Column("username", String(32), nullable=False),
    Column("username_key", String(32), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_accounts_username_key", accounts.c.username_key, unique=True)

ratings = Table(
    "ratings",
    metadata,
    Column("identity_id", String(64), ForeignKey("identities.id"), primary_key=True),
    Column("family", String(16), primary_key=True),
    Column("kind", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)
Index("ix_ratings_pool", ratings.c.family, ratings.c.kind)

results = Table(
    "results",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("identity_id", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("family", String(16), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("outcome", String(8), nullable=False),
    Column("place", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("basras", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("ended_at", Float, nullable=False),
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Column("left_game", Boolean, nullable=False, server_default="0"),
)
Index("ix_results_identity_id", results.c.identity_id, results.c.ended_at)


leases = Table(
    "leases",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("holder", String(64), nullable=False),
    Column("until", Float, nullable=False),
)

secrets = Table(
    "secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)


sanctions = Table(
    "sanctions",
    metadata,
    Column("identity_id", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("until", Float, nullable=True),
)
