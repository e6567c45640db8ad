"""The web app: Basra with friends and bots in the browser (``basra serve``).

- :mod:`basra.server.protocol`: the WebSocket messages and the per-seat snapshots.
- :mod:`basra.server.service`: the match service (authoritative, one action at a time).
- :mod:`basra.server.store`: storage (in memory, or SQL through SQLAlchemy + Alembic).
- :mod:`basra.server.pubsub`: notices between server processes (in memory, or Redis).
- :mod:`basra.server.app`: the FastAPI transport and the static page.

Importing this package needs the ``web`` extra only for ``app``, ``store``'s SQL
backend and ``pubsub``'s Redis backend.
"""
