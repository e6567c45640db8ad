"""Alembic environment: migrations run on the connection the server hands over.

The server runs them from :meth:`basra.server.store.sql.database.SqlDatabase.start`; importing
this module anywhere else (a doctest collector, say) does nothing.
"""

from __future__ import annotations

from typing import Any

from alembic import context

from basra.server.store.sql.schema import metadata


def run_migrations(config: Any) -> None:
    """Upgrade on the connection in ``config.attributes``."""
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("basra's migrations run inside the server, which passes a connection")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


_config: Any
try:
    _config = context.config
except (AttributeError, NameError):  # not run by Alembic
    _config = None
if _config is not None:
    run_migrations(_config)
