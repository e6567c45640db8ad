"""How the tournaments run: the clock's pace, the schedule, and what people may make."""

from __future__ import annotations

from dataclasses import dataclass

from .schedule import ScheduleEntry

__all__ = ["TournamentConfig"]


@dataclass(frozen=True)
class TournamentConfig:
    """The tournaments' settings (``AppConfig.tournaments``)."""

    schedule: tuple[ScheduleEntry, ...] = ()
    """The server's own events (:mod:`~basra.server.features.tournaments.schedule`)."""
    tick: float = 0.5
    """Seconds between the clock's passes (starts, ends, pairings) when nothing happens."""
    pair_gap: float = 0.2
    """The least seconds between two passes: results that come at once are paired together."""
    lease_ttl: float = 3.0
    """Seconds the clock's lease lasts unless renewed (another process takes over then)."""
    frames_every: float = 0.5
    """The least seconds between two standings frames of one event (results come in bursts)."""
    check_every: float = 10.0
    """Seconds between reading back games that ended without their result recorded."""
    schedule_every: float = 30.0
    """Seconds between looks at the schedule for events to make."""
    events_per_day: int = 5
    """Events a person may make in 24 hours..."""
    open_events: int = 3
    """...and have not finished at once."""
    max_field: int = 100
    """The largest field of a person's event (the schedule's may be larger)."""
    bots_per_event: int = 32
    """Server bots an organiser may enter in their own event."""
    furthest_start: float = 30 * 86400.0
    """How far ahead a person's event may start, in seconds."""
    soon: float = 300.0
    """Seconds before an event's start its entrants are told it starts soon (once each:
    :attr:`~basra.server.features.tournaments.runner.EventClock.starting_soon`)."""
    withdraw_on_forfeit: bool = True
    """A person or program whose seat forfeits a game is withdrawn (paused) until it comes
    back, so that nobody is paired against an empty seat again and again."""
