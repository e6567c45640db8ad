"""Who makes events and who enters them: the checks before anything is written.

- **Making an event** (:func:`check_event_form`): any identity with an account,
  within quotas (events made a day, events not finished at once, the largest
  field), a start within :attr:`~TournamentConfig.furthest_start`, public or by
  invitation link. The settings are :meth:`basra.tournaments.EventSettings.from_json`'s,
  and the server's own bounds on top: its clock bounds, its bounds on rule
  settings, and a rated event plays the variant's own rules (only ``target``,
  the game's length, may change), as a rated table does.
- **Entering** (:class:`Entry`): a person (their identity), a bot program through the
  bot API (its bot account), a server bot at a level (entered by the event's
  maker, where the event takes bots), or a team of two: a person with a server
  bot partner, or two people (the first makes a team code, the second enters with
  it). A player enters an event once (the store keeps one row per player key).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from basra.bots.levels import LEVELS
from basra.server import words
from basra.server.errors import ProtocolError
from basra.server.table.clocks import check_control
from basra.server.table.forms import RATED_SETTINGS, check_name, check_rules
from basra.tournaments import Entrant, EventSettings, Member, TournamentError

from .config import TournamentConfig

__all__ = ["EventForm", "check_event_form", "member_keys", "new_entrant_id", "person_entrant"]

MAX_EVENT_NAME = words.EVENT_TITLE.high
SETTING_FIELDS = (
    ("no rounds or boards", "rounds"),
    ("it has no minutes", "minutes"),
    ("it has no boards", "boards"),
    ("seconds for each move", "clock.move"),
    ("reserve", "clock.reserve"),
    ("maximum field", "max_entrants"),
    ("format", "format"),
    ("variant", "variant"),
    ("teams", "teams"),
    ("seats", "seats"),
    ("minutes", "minutes"),
    ("rounds", "rounds"),
    ("boards", "boards"),
    ("rated", "rated"),
    ("bots", "bots"),
    ("external", "external"),
    ("talk", "talk"),
    ("clock", "clock"),
)
"""Words of a settings refusal, and the form field each names."""


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_settings", message, {"field": field})


def _field_of(message: str) -> str:
    lowered = message.lower()
    return next((f for words, f in SETTING_FIELDS if words in lowered), "rules")


def new_entrant_id() -> str:
    """A new entrant's id (never an identity: entrants are shown)."""
    return "e" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def member_keys(entrant: Entrant) -> list[tuple[str, str]]:
    """An entrant's player keys (a person or a program enters an event once; a bot's key
    is its entry's own)."""
    return [
        (f"bot:{entrant.id}" if m.kind == "bot" else f"{m.kind}:{m.ref}", entrant.id)
        for m in entrant.members
    ]


def person_entrant(members: tuple[Member, ...], seed: float, name: str | None = None) -> Entrant:
    """A new entry of those players (a team is named by its members)."""
    shown = name or " & ".join(m.name for m in members)
    return Entrant(new_entrant_id(), shown[:64], members, seed)


@dataclass(frozen=True)
class EventForm:
    """A checked ``POST /api/tournaments`` form."""

    name: str
    settings: EventSettings
    starts_at: float
    public: bool


def check_event_form(
    data: Mapping[str, Any], now: float, config: TournamentConfig, *, operator: bool = False
) -> EventForm:
    """The event a person asks for, every field checked (``bad_settings`` naming the field)."""
    name = words.check_text("name", data.get("name"), words.EVENT_TITLE)
    starts_at = data.get("starts_at")
    if starts_at is None:
        starts_at = now
    if not isinstance(starts_at, int | float) or isinstance(starts_at, bool):
        raise _bad("starts_at", "starts_at is a time in seconds since 1970 (UTC)")
    starts_at = max(float(starts_at), now)
    if starts_at > now + config.furthest_start:
        days = round(config.furthest_start / 86400)
        raise _bad("starts_at", f"an event starts within {days} days")
    public = data.get("public", True)
    if not isinstance(public, bool):
        raise _bad("public", "public must be true or false")
    form = {k: v for k, v in data.items() if k not in ("name", "starts_at", "public")}
    clock = form.get("clock")
    if clock is not None:
        if not isinstance(clock, Mapping):
            raise _bad("clock", 'clock is {"move": seconds, "reserve": seconds}')
        try:
            check_control({"move": clock.get("move", 30), "reserve": clock.get("reserve", 60)})
        except ValueError as error:
            field, message = error.args
            raise _bad(str(field), str(message)) from None
    try:
        settings = EventSettings.from_json(form)
    except TournamentError as error:
        raise _bad(_field_of(str(error)), str(error)) from None
    check_rules(settings.variant, dict(settings.overrides))
    if settings.rated and set(settings.overrides) - RATED_SETTINGS:
        raise _bad("rules", "a rated event plays its variant's rules: only target may change")
    if not operator and settings.max_entrants > config.max_field:
        raise _bad("max_entrants", f"the maximum field is at most {config.max_field}")
    return EventForm(name, settings, starts_at, public)


def check_level(value: Any, field: str) -> str:
    """A server bot's level."""
    if value not in LEVELS:
        raise _bad(field, f"a bot's level is one of {', '.join(LEVELS)}")
    return str(value)


def check_entry_name(value: Any, fallback: str | None) -> str:
    """The name a player enters under (theirs by default)."""
    if value is None:
        value = fallback or "Player"
    return check_name(value)
