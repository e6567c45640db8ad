"""The web app: Basra with friends and bots in the browser (``basra serve``).

- :mod:`basra.server.app`: the FastAPI transport (parse, authenticate, delegate) and the page.
- :mod:`basra.server.service`: the master (authoritative, one action at a time per table).
- :mod:`basra.server.autopilot`: deals, bots, stand-ins, retries and abandoned tables.
- :mod:`basra.server.live`: tables and connections held in memory.
- :mod:`basra.server.scheduler` and :mod:`basra.server.workers`: fair bot and hint work.
- :mod:`basra.server.presence`: who is connected, here and in other processes.
- :mod:`basra.server.queries`: the lobby, a person's games, records and replays.
- :mod:`basra.server.forms`: the create-table form and the bounds on rule settings.
- :mod:`basra.server.quotas` and :mod:`basra.server.identity`: limits and identities.
- :mod:`basra.server.protocol`: the WebSocket messages and the snapshots.
- :mod:`basra.server.store`: storage (in memory, or SQL through SQLAlchemy + Alembic).
- :mod:`basra.server.pubsub`: notices between server processes (in memory, or Redis).

The package needs the ``web`` extra (FastAPI, pydantic, SQLAlchemy, Redis).
"""
