"""Tournaments on the server: arenas, Swiss events and duplicate, for people and bots.

The formats are :mod:`basra.tournaments` (pure functions of what an event
stores); this package stores events, enters players, runs the events' clock
across processes, makes their games as tables of the table master, records the
results and sends live standings (docs/TOURNAMENTS.md, "Phase 2", and
docs/WEB.md, "Tournaments"):

- :mod:`.service`: :class:`Tournaments`, what the routes call, results and frames;
- :mod:`.runner`: :class:`~.runner.EventClock`, starting, pairing and ending
  events under the ``tournaments`` lease;
- :mod:`.tables`: an event's games as tables (owner keys, private duplicate
  boards dealt from the server's secret, who sees them);
- :mod:`.held`: an event as a process holds it, brought up to date by version;
- :mod:`.entries`: checks of the forms that make events and enter them;
- :mod:`.views`: the JSON of events;
- :mod:`.schedule`: the operator's schedule of events, in TOML
  (:func:`read_schedule`, :func:`load_schedule`).
"""

from __future__ import annotations

from .config import TournamentConfig
from .schedule import DEFAULT_SCHEDULE, ScheduleEntry, ScheduleError, load_schedule, read_schedule
from .service import PROTOCOL, TYPES, Player, Tournaments, Watcher

__all__ = [
    "DEFAULT_SCHEDULE",
    "PROTOCOL",
    "TYPES",
    "Player",
    "ScheduleEntry",
    "ScheduleError",
    "TournamentConfig",
    "Tournaments",
    "Watcher",
    "load_schedule",
    "read_schedule",
]
