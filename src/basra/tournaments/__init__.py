"""Tournaments: the arena, the Swiss and duplicate, as values and pure functions.

An event (:class:`Event`) is its settings, entrants, rounds as paired and
finished games' results; pairing, standings and tie-breaks are computed from
these and nothing else, so any process can recompute them and a restart
loses nothing. The formats, exactly as implemented, are in docs/TOURNAMENTS.md
and in each module's docstring:

- :mod:`~basra.tournaments.arena`: games for a fixed time, 2 points a side
  outscored, doubled on a streak, paired again at once near one's rank;
- :mod:`~basra.tournaments.swiss`: fixed rounds by score without repeats,
  Sonneborn–Berger and Buchholz;
- :mod:`~basra.tournaments.duplicate`: the same packs at every table of a
  round, seats rotated, matchpoints against everyone who held the same cards.

Standard library only, like the rest of the core; the server (phase 2) stores
events and makes their tables.
"""

from basra.tournaments.arena import Waiting, pair_arena
from basra.tournaments.duplicate import BoardDeal, board_deal, board_results, board_sides
from basra.tournaments.event import STATUSES, Event, seat_players
from basra.tournaments.grouping import group_tables
from basra.tournaments.ranking import SheetEntry, Standing
from basra.tournaments.results import GameResult, Round, head_to_head
from basra.tournaments.settings import (
    DUPLICATE_OVERRIDES,
    FORMATS,
    Entrant,
    EventSettings,
    Member,
    TournamentError,
)
from basra.tournaments.standings import TIE_BREAKS, standings

__all__ = [
    "DUPLICATE_OVERRIDES",
    "FORMATS",
    "STATUSES",
    "TIE_BREAKS",
    "BoardDeal",
    "Entrant",
    "Event",
    "EventSettings",
    "GameResult",
    "Member",
    "Round",
    "SheetEntry",
    "Standing",
    "TournamentError",
    "Waiting",
    "board_deal",
    "board_results",
    "board_sides",
    "group_tables",
    "head_to_head",
    "pair_arena",
    "seat_players",
    "standings",
]
