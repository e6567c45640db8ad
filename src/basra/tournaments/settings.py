"""An event's settings and its entrants, as checked values.

Settings say what is played (the format, the variant and its rule overrides,
the table: 2, 3 or 4 seats, or two teams of two), how (a clock per move,
rated or not), for how long (an arena's minutes, a Swiss's or a duplicate's
rounds), and who may enter (a maximum field, bots at the four levels, bot
programs through the bot API). An entrant is one person, bot or program, or
with teams a pair of them that enters and is paired as one.

Every check raises :class:`TournamentError` with a code and a sentence a
person understands. The server's own bounds (its clock limits, its bounds on
rule settings) are checked again by the server when it builds a table; here
the settings only have to be playable.

>>> settings = EventSettings.from_json({"format": "swiss", "rounds": 5, "seats": 4, "teams": True})
>>> settings.sides, settings.game_players
(2, 4)
>>> EventSettings.from_json({"format": "swiss"})
Traceback (most recent call last):
...
basra.tournaments.settings.TournamentError: a Swiss needs its number of rounds (1 to 30)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from basra.bots.levels import LEVELS
from basra.rules import PRESETS, Rules, RulesError, preset

__all__ = [
    "DUPLICATE_OVERRIDES",
    "FORMATS",
    "MEMBER_KINDS",
    "Entrant",
    "EventSettings",
    "Member",
    "TournamentError",
]

FORMATS = ("arena", "swiss", "duplicate")
"""The formats: an arena (a fixed time), a Swiss and a duplicate (fixed rounds)."""
MEMBER_KINDS = ("person", "bot", "external")
"""Who may play a seat: a person, a server bot at a level, a program through the bot API."""
DUPLICATE_OVERRIDES: Mapping[str, Any] = {"target": 1, "end_tie": "draw"}
"""A duplicate board is one round of the variant (as the daily deal): its game ends with it."""

BOUNDS: Mapping[str, tuple[int, int]] = {
    "minutes": (5, 24 * 60),
    "rounds": (1, 30),
    "boards": (1, 12),
    "max_entrants": (2, 500),
    "move_seconds": (1, 3600),
    "reserve_seconds": (0, 24 * 3600),
}
"""The least and the most of each number in the settings."""


class TournamentError(ValueError):
    """Something an event cannot do or accept: ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _bad(message: str) -> TournamentError:
    return TournamentError("bad_settings", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(name: str, value: Any, what: str) -> int:
    low, high = BOUNDS[name]
    if not _is_int(value) or not low <= value <= high:
        raise _bad(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


@dataclass(frozen=True)
class EventSettings:
    """What an event plays and who may enter it (see the module's docstring).

    Build one with :meth:`from_json` (a form) or the constructor; both check
    every value. ``overrides`` are the rule settings that differ from the
    variant's preset.
    """

    format: str
    variant: str = "egyptian"
    overrides: Mapping[str, Any] = field(default_factory=dict)
    seats: int = 2
    """Players at a table: 2, 3 or 4 (4 with ``teams``: two sides of two)."""
    teams: bool = False
    move_seconds: int = 30
    """The clock: seconds for each move..."""
    reserve_seconds: int = 60
    """...then a reserve for the whole game (the server's time control)."""
    rated: bool = True
    minutes: int | None = None
    """An arena's length."""
    rounds: int | None = None
    """A Swiss's or a duplicate's number of rounds."""
    boards: int | None = None
    """A duplicate round's boards (deals); the number of sides when left out, so that
    every entrant holds every side's cards once a round."""
    max_entrants: int = 100
    bots: bool = False
    """Server bots at the four levels may enter."""
    external: bool = False
    """Bot programs playing through the bot API may enter."""
    talk: bool = False
    """Table talk is open at the event's rated games (it is at casual ones anyway)."""

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise _bad(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")
        if self.variant not in PRESETS:
            raise _bad(f"there is no variant {self.variant!r}")
        try:
            rules = preset(self.variant).with_overrides(self.overrides)
        except RulesError as exc:
            raise _bad(str(exc)) from None
        object.__setattr__(self, "overrides", rules.overrides_from(preset(self.variant)))
        if not _is_int(self.seats) or self.seats not in (2, 3, 4):
            raise _bad(f"a table has 2, 3 or 4 seats, not {self.seats!r}")
        if not isinstance(self.teams, bool) or (self.teams and self.seats != 4):
            raise _bad("teams play at tables of 4 seats (two sides of two)")
        _number("move_seconds", self.move_seconds, "the seconds for each move")
        _number("reserve_seconds", self.reserve_seconds, "the reserve seconds")
        for flag in ("rated", "bots", "external", "talk"):
            if not isinstance(getattr(self, flag), bool):
                raise _bad(f"{flag} must be true or false")
        _number("max_entrants", self.max_entrants, "the maximum field")
        if self.format == "arena":
            if self.minutes is None:
                raise _bad("an arena needs its length in minutes (5 to 1440)")
            _number("minutes", self.minutes, "an arena's minutes")
            if self.rounds is not None or self.boards is not None:
                raise _bad("an arena runs for its minutes: it has no rounds or boards")
        else:
            name = "a Swiss" if self.format == "swiss" else "a duplicate"
            if self.rounds is None:
                raise _bad(f"{name} needs its number of rounds (1 to 30)")
            _number("rounds", self.rounds, f"{name}'s rounds")
            if self.minutes is not None:
                raise _bad(f"{name} runs for its rounds: it has no minutes")
            if self.format == "swiss" and self.boards is not None:
                raise _bad("a Swiss plays one game a round: it has no boards")
            if self.format == "duplicate":
                if self.boards is None:
                    object.__setattr__(self, "boards", self.sides)
                _number("boards", self.boards, "a duplicate round's boards")
        if self.max_entrants < self.least_field:
            raise _bad(f"the maximum field must be at least {self.least_field}")

    @property
    def sides(self) -> int:
        """Entrants at a table: the seats, or 2 with teams."""
        return 2 if self.teams else self.seats

    @property
    def game_players(self) -> int:
        """Players at a table (seats)."""
        return self.seats

    @property
    def members(self) -> int:
        """People (or bots) in one entrant: 2 with teams, else 1."""
        return 2 if self.teams else 1

    @property
    def least_field(self) -> int:
        """The fewest entrants an event can start with: one table, or two for duplicate
        (a board's results are compared across tables)."""
        return self.sides * (2 if self.format == "duplicate" else 1)

    @property
    def rules(self) -> Rules:
        """The rules of the event's games (a duplicate board: one round, see
        :data:`DUPLICATE_OVERRIDES`)."""
        rules = preset(self.variant).with_overrides(self.overrides)
        if self.format == "duplicate":
            rules = rules.with_overrides(DUPLICATE_OVERRIDES)
        return rules

    @property
    def total_rounds(self) -> int:
        """A Swiss's or duplicate's rounds (0 for an arena)."""
        return self.rounds or 0

    @property
    def boards_per_round(self) -> int:
        """A duplicate round's boards (1 for the other formats: one game a round)."""
        return self.boards or 1

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON (what :meth:`from_json` reads back)."""
        out: dict[str, Any] = {
            "format": self.format,
            "variant": self.variant,
            "rules": dict(self.overrides),
            "seats": self.seats,
            "teams": self.teams,
            "clock": {"move": self.move_seconds, "reserve": self.reserve_seconds},
            "rated": self.rated,
            "max_entrants": self.max_entrants,
            "bots": self.bots,
            "external": self.external,
        }
        for name in ("minutes", "rounds", "boards"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.talk:
            out["talk"] = True
        return out

    @classmethod
    def from_json(cls, data: Any) -> EventSettings:
        """Settings from a JSON form, every field checked."""
        if not isinstance(data, Mapping):
            raise _bad("the settings must be an object")
        known = {
            "format",
            "variant",
            "rules",
            "seats",
            "teams",
            "clock",
            "rated",
            "minutes",
            "rounds",
            "boards",
            "max_entrants",
            "bots",
            "external",
            "talk",
        }
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise _bad(f"unknown settings: {', '.join(unknown)[:200]}")
        rules = data.get("rules", {})
        if not isinstance(rules, Mapping):
            raise _bad("rules must be an object of rule settings")
        clock = data.get("clock", {})
        if not isinstance(clock, Mapping) or set(clock) - {"move", "reserve"}:
            raise _bad('clock must be an object with "move" and "reserve" seconds')
        fields: dict[str, Any] = {
            "format": data.get("format"),
            "variant": data.get("variant", "egyptian"),
            "overrides": dict(rules),
            "move_seconds": clock.get("move", 30),
            "reserve_seconds": clock.get("reserve", 60),
        }
        for name in ("seats", "teams", "rated", "minutes", "rounds", "boards"):
            if name in data:
                fields[name] = data[name]
        for name in ("max_entrants", "bots", "external", "talk"):
            if name in data:
                fields[name] = data[name]
        return cls(**fields)


@dataclass(frozen=True)
class Member:
    """One player of an entrant: a person (``ref`` their identity), a server bot
    (``ref`` its level) or a bot program (``ref`` its bot account)."""

    kind: str
    ref: str
    name: str

    def __post_init__(self) -> None:
        if self.kind not in MEMBER_KINDS:
            raise TournamentError(
                "bad_entrant", f"a player is one of {', '.join(MEMBER_KINDS)}, not {self.kind!r}"
            )
        if self.kind == "bot" and self.ref not in LEVELS:
            raise TournamentError(
                "bad_entrant", f"a bot's level is one of {', '.join(LEVELS)}, not {self.ref!r}"
            )
        if not isinstance(self.ref, str) or not self.ref:
            raise TournamentError("bad_entrant", "a player needs an identity")
        if not isinstance(self.name, str) or not self.name.strip():
            raise TournamentError("bad_entrant", "a player needs a name")

    @property
    def identity(self) -> tuple[str, str] | None:
        """Who this is, for refusing a second entry (None for a server bot: a field
        may hold several bots of one level)."""
        return None if self.kind == "bot" else (self.kind, self.ref)

    def to_json(self) -> dict[str, str]:
        """The member as JSON."""
        return {"kind": self.kind, "ref": self.ref, "name": self.name}


@dataclass(frozen=True)
class Entrant:
    """One entry: a player, or with teams a pair, paired and ranked as one.

    ``seed`` orders the field before any game (its rating, higher first; ties by
    entry order). ``joined_round`` is how many rounds had been paired when it
    joined (0: from the start). ``withdrawn``: it is not paired until it comes back.
    """

    id: str
    name: str
    members: tuple[Member, ...]
    seed: float = 0.0
    joined_round: int = 0
    withdrawn: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise TournamentError("bad_entrant", "an entrant needs an id")
        if not self.members or len(self.members) > 2:
            raise TournamentError("bad_entrant", "an entrant is one player, or a team of two")
        if not isinstance(self.name, str) or not self.name.strip():
            raise TournamentError("bad_entrant", "an entrant needs a name")

    @property
    def bots_only(self) -> bool:
        """True when no person plays for this entrant."""
        return all(m.kind != "person" for m in self.members)

    def with_status(self, *, withdrawn: bool) -> Entrant:
        """The same entrant, withdrawn or back."""
        return replace(self, withdrawn=withdrawn)

    def to_json(self) -> dict[str, Any]:
        """The entrant as JSON (what :meth:`from_json` reads back)."""
        return {
            "id": self.id,
            "name": self.name,
            "members": [m.to_json() for m in self.members],
            "seed": self.seed,
            "joined_round": self.joined_round,
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        """An entrant from :meth:`to_json`."""
        members = tuple(Member(m["kind"], m["ref"], m["name"]) for m in data["members"])
        return cls(
            data["id"],
            data["name"],
            members,
            float(data.get("seed", 0.0)),
            int(data.get("joined_round", 0)),
            bool(data.get("withdrawn", False)),
        )
