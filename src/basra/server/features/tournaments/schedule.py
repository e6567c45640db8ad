"""The server's own events: a schedule the operator edits, in TOML.

A schedule is an array of ``[[tournaments]]`` tables: each is an event's settings
(exactly :meth:`basra.tournaments.EventSettings.from_json`'s keys: ``format``,
``variant``, ``rules``, ``seats``, ``teams``, ``clock``, ``rated``, ``minutes``,
``rounds``, ``boards``, ``max_entrants``, ``bots``, ``external``) and the
schedule's own keys:

- ``name``: the events' name (also their key: one event per name and start);
- ``names``: optional, the name in other languages, by the code of a catalogue
  of ``static/locales/`` (``names = { ar = "...", fr = "..." }``); the page shows
  the name in its language and falls back to ``name`` for any other;
- ``every``: ``hour``, ``day`` or ``week``;
- ``at``: when in that period, in UTC: ``":MM"`` (hourly), ``"HH:MM"`` (daily), or
  ``"sun HH:MM"`` (weekly; ``mon`` ... ``sun``);
- ``announce``: how long before its start an event is listed (and open to entries):
  minutes as a whole number, or ``"90m"``, ``"2h"``, ``"1d"`` (default 60 minutes);
- ``bot_entrants``: server bots entered when the event is made, by level
  (``["medium", "hard"]``; needs ``bots = true``).

:func:`read_schedule` reads the ``tournaments`` array of a parsed TOML document
(so the array can sit in an operator's larger configuration file),
:func:`load_schedule` a file; every entry is checked at load and a bad one is
refused with its name and what is wrong (the server does not start). The holder
of the tournaments' lease makes each event once, ``announce`` before its start
(:class:`basra.server.features.tournaments.runner.EventClock`), keyed by name and
start: a restart, or a second process, never makes it twice.

``basra serve`` reads :data:`DEFAULT_SCHEDULE` (shipped with the package: hourly
arenas, a daily Swiss and a weekly duplicate of the most played variants) unless
``--tournaments FILE`` names another, or ``--tournaments none``.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from basra.bots.levels import LEVELS
from basra.locales import languages
from basra.tournaments import EventSettings, TournamentError

__all__ = [
    "DEFAULT_SCHEDULE",
    "PERIODS",
    "ScheduleEntry",
    "ScheduleError",
    "load_schedule",
    "read_schedule",
]

DEFAULT_SCHEDULE = Path(__file__).with_name("schedule.toml")
"""The schedule ``basra serve`` runs unless told otherwise."""
PERIODS = {"hour": 3600.0, "day": 86400.0, "week": 7 * 86400.0}
"""How often an entry's events come, in seconds."""
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
OWN_KEYS = frozenset({"name", "names", "every", "at", "announce", "bot_entrants"})
MAX_NAME = 80


class ScheduleError(ValueError):
    """A schedule entry that cannot be run, named (its name or place) with why."""


@dataclass(frozen=True)
class ScheduleEntry:
    """One recurring event: its settings, when it comes, and its bots."""

    name: str
    settings: EventSettings
    every: str
    offset: float
    """Seconds into the period (from the hour, the day, or Monday 00:00 UTC)."""
    announce: float
    """Seconds before its start an event is made (listed, open to entries)."""
    bot_entrants: tuple[str, ...] = ()
    titles: tuple[tuple[str, str], ...] = ()
    """The name in other languages: (language code, name) pairs, in the file's order."""

    @property
    def names(self) -> dict[str, str]:
        """The name in other languages, by language code (``names`` in the file)."""
        return dict(self.titles)

    def starts(self, after: float, until: float) -> list[float]:
        """The starts of this entry's events in ``(after, until]`` (seconds since the epoch)."""
        period = PERIODS[self.every]
        # The epoch began on a Thursday: weeks are counted from Monday 1970-01-05.
        origin = 4 * 86400.0 if self.every == "week" else 0.0
        first = origin + self.offset + period * ((after - origin - self.offset) // period)
        out = []
        start = first
        while start <= until:
            if start > after:
                out.append(start)
            start += period
        return out

    def key(self, start: float) -> str:
        """The event's key: one per name and start."""
        when = dt.datetime.fromtimestamp(start, dt.UTC).strftime("%Y-%m-%dT%H:%MZ")
        return f"{self.name}|{when}"[:160]


def _duration(where: str, value: Any) -> float:
    """Minutes as a whole number, or ``"90m"``, ``"2h"``, ``"1d"``: seconds."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 7 * 24 * 60:
        return value * 60.0
    if isinstance(value, str) and value[:-1].isdigit() and value[-1:] in ("m", "h", "d"):
        seconds = int(value[:-1]) * {"m": 60, "h": 3600, "d": 86400}[value[-1]]
        if seconds <= 7 * 86400:
            return float(seconds)
    raise ScheduleError(
        f'{where}: announce is minutes (a whole number) or like "2h", not {value!r}'
    )


def _offset(where: str, every: str, value: Any) -> float:
    """The seconds into the period that ``at`` names."""
    if not isinstance(value, str):
        raise ScheduleError(f'{where}: at must be text such as ":00", "19:30" or "sun 18:00"')
    text = value.strip().lower()
    day = 0
    if every == "week":
        name, _, text = text.partition(" ")
        if name not in DAYS:
            raise ScheduleError(
                f'{where}: a weekly event is at "DAY HH:MM", DAY one of {", ".join(DAYS)}'
            )
        day = DAYS.index(name)
    hours, _, minutes = text.partition(":")
    if every == "hour":
        if hours or not minutes.isdigit() or not 0 <= int(minutes) < 60:
            raise ScheduleError(f'{where}: an hourly event is at ":MM" (":00" to ":59")')
        return int(minutes) * 60.0
    if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60):
        raise ScheduleError(f'{where}: at must be "HH:MM" in UTC, not {value!r}')
    return day * 86400.0 + int(hours) * 3600.0 + int(minutes) * 60.0


def _titles(where: str, value: Any) -> tuple[tuple[str, str], ...]:
    """The ``names`` table: a language code of a catalogue to the name in that language."""
    codes = languages()
    if not isinstance(value, Mapping):
        raise ScheduleError(
            f'{where}: names is a table of names by language, such as names = {{ ar = "..." }}'
        )
    out = []
    for lang, text in value.items():
        if lang not in codes:
            raise ScheduleError(
                f"{where}: names.{lang}: not a language of the page ({', '.join(codes)})"
            )
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_NAME:
            raise ScheduleError(f"{where}: names.{lang} must be text of 1 to {MAX_NAME} characters")
        out.append((lang, text.strip()))
    return tuple(out)


def _entry(index: int, data: Any) -> ScheduleEntry:
    where = f"tournaments[{index}]"
    if not isinstance(data, Mapping):
        raise ScheduleError(f"{where}: each [[tournaments]] entry is a table of settings")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise ScheduleError(f"{where}: name must be text of 1 to {MAX_NAME} characters")
    where = f"tournament {name!r}"
    every = data.get("every")
    if every not in PERIODS:
        raise ScheduleError(f"{where}: every must be one of {', '.join(PERIODS)}, not {every!r}")
    offset = _offset(where, every, data.get("at"))
    announce = _duration(where, data.get("announce", 60))
    if announce >= PERIODS[every] * 8:
        raise ScheduleError(f"{where}: announce must be shorter than eight periods")
    levels = data.get("bot_entrants", [])
    if not isinstance(levels, list) or any(level not in LEVELS for level in levels):
        raise ScheduleError(f"{where}: bot_entrants is a list of levels ({', '.join(LEVELS)})")
    try:
        settings = EventSettings.from_json({k: v for k, v in data.items() if k not in OWN_KEYS})
    except TournamentError as error:
        raise ScheduleError(f"{where}: {error}") from None
    if levels and not settings.bots:
        raise ScheduleError(f"{where}: bot_entrants needs bots = true")
    if len(levels) > settings.max_entrants:
        raise ScheduleError(f"{where}: more bot_entrants than max_entrants")
    titles = _titles(where, data.get("names", {}))
    return ScheduleEntry(name.strip(), settings, every, offset, announce, tuple(levels), titles)


def read_schedule(document: Mapping[str, Any]) -> tuple[ScheduleEntry, ...]:
    """The ``[[tournaments]]`` entries of a parsed TOML document (none if it has none),
    each checked; :class:`ScheduleError` names the first bad one."""
    entries = document.get("tournaments", [])
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        raise ScheduleError("tournaments must be an array of tables: [[tournaments]]")
    out = tuple(_entry(i, data) for i, data in enumerate(entries))
    names = [e.name for e in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ScheduleError(f"two entries are named {twice[0]!r}: names key the events")
    return out


def load_schedule(path: str | Path) -> tuple[ScheduleEntry, ...]:
    """The schedule of a TOML file (:func:`read_schedule`)."""
    try:
        with open(path, "rb") as file:
            document = tomllib.load(file)
    except OSError as error:
        raise ScheduleError(f"{path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ScheduleError(f"{path}: not TOML: {error}") from None
    try:
        return read_schedule(document)
    except ScheduleError as error:
        raise ScheduleError(f"{path}: {error}") from None
