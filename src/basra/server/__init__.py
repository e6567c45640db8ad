"""The web app: Basra with friends and bots in the browser (``basra serve``).

A table master with features on top (docs/WEB.md, "Architecture"):

- :mod:`basra.server.table`: the table's events and their reducer, the master (the only
  writer of a table's log), the frames each seat is sent, the lifecycle (create, open,
  start, rematch, abandon, finish) and settling;
- :mod:`basra.server.features`: quick play, the daily deal, the bot API, reactions,
  reviews, accounts and profiles, each on the lifecycle and the master's narrow protocol;
- :mod:`basra.server.transport`: the socket pump, the bearer-token dependency, errors,
  the HTTP guard, and the routes (``APIRouter``\\ s);
- :mod:`basra.server.store`: repositories around one engine, in memory or SQL;
- :mod:`basra.server.runtime`: the bots' workers and scheduler, notices between
  processes, crash points, throwaway database servers for tests;
- :mod:`basra.server.identity`, :mod:`basra.server.revocation`,
  :mod:`basra.server.connection`, :mod:`basra.server.quotas`, :mod:`basra.server.errors`:
  who speaks, signing out everywhere, outboxes, limits, refusals;
- :mod:`basra.server.env`: the wiring, once; :mod:`basra.server.app`: the FastAPI app.

The package needs the ``web`` extra (FastAPI, pydantic, SQLAlchemy, Redis).
"""
