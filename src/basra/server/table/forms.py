"""Forms people send over HTTP, checked before anything is stored.

The create-table form is a pydantic model: a field of the wrong JSON type is
refused by the transport with HTTP 422 naming the field. :func:`check_table_form`
then checks what types cannot say (a known variant, settings the engine
accepts, seats that fit the player count) and the server's own bounds on rule
settings, :data:`RULE_BOUNDS`: the engine accepts any non-negative integer, but
a table on a shared server must be able to end, and its numbers must fit a
database column. Each refusal is ``bad_settings`` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from basra.bots import LEVELS
from basra.rules import PRESETS, Rules, RulesError, preset
from basra.server import words
from basra.server.errors import ProtocolError
from basra.server.store.rows import SeatKind
from basra.server.table.clocks import DEFAULT_CONTROL, TimeControl, check_control

__all__ = [
    "CARD_POINTS_BOUND",
    "MAX_NAME",
    "RATED_SETTINGS",
    "RULE_BOUNDS",
    "ClockForm",
    "SeatForm",
    "TableForm",
    "TableSpec",
    "check_name",
    "check_rules",
    "check_table_form",
    "configure_bounds",
]

RULE_BOUNDS: dict[str, tuple[int, int]] = {
    "target": (1, 1000),
    "basra_points": (0, 100),
    "jack_on_lone_jack": (0, 100),
    "majority_bonus": (0, 100),
}
"""The least and the most each integer rule setting may be at a table on this server."""

CARD_POINTS_BOUND = 100
"""The most one card may be worth in ``point_cards`` and ``face_values``."""


def configure_bounds(bounds: Mapping[str, tuple[int, int]], card_points: int | None) -> None:
    """This server's own bounds (``basra serve --config``'s ``[rules]``), set once at start."""
    global CARD_POINTS_BOUND
    unknown = set(bounds) - set(RULE_BOUNDS)
    if unknown:
        raise ValueError(f"no such rule setting: {', '.join(sorted(unknown))}")
    RULE_BOUNDS.update(bounds)
    if card_points is not None:
        CARD_POINTS_BOUND = card_points


MAX_NAME = words.NAME.high
"""Longest name, in characters."""


def check_name(value: Any, field: str = "name") -> str:
    """A person's name: 1 to 24 characters, by :data:`basra.server.words.NAME`'s policy.

    >>> check_name("  Amal   Said ")
    'Amal Said'
    """
    return words.check_text(field, value, words.NAME)


class SeatForm(BaseModel):
    """One seat of the create-table form: a person's, a bot's, or a bot program's."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["person", "bot", "external"]
    level: str | None = None
    """The bot level, one of :data:`basra.bots.LEVELS` (``medium`` when left out)."""
    bot: str | None = Field(default=None, max_length=40)
    """For ``external``: the name of a bot account playing through the bot API
    (:mod:`basra.server.features.botapi`)."""


class ClockForm(BaseModel):
    """A time control: seconds per move and a reserve for the whole game, or (a
    turn-based table) days per move alone."""

    model_config = ConfigDict(extra="forbid", strict=True)

    move: int | None = None
    reserve: int = 0
    days: int | None = None
    """Days per move (1, 2, 3 or 7): a turn-based table (:mod:`basra.server.table.clocks`)."""


RATED_SETTINGS = frozenset({"target"})
"""The only settings a rated table may change from its variant's (the game's length)."""


class TableForm(BaseModel):
    """The create-table form (``POST /api/tables``), JSON types checked strictly."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str
    """The creator's name (also when they only watch)."""
    variant: str = "egyptian"
    rules: dict[str, Any] | None = None
    """Settings that differ from the variant's (RULES.md B4), within :data:`RULE_BOUNDS`."""
    players: int = 2
    teams: bool = False
    hints: bool = True
    seats: list[SeatForm] | None = Field(default=None, max_length=4)
    """Every seat; by default the creator and ``players - 1`` medium bots."""
    my_seat: int | None = 0
    """The creator's seat, or null to watch; by default the first seat if it is a person's."""
    rated: bool = False
    """A rated table (:mod:`basra.server.table.ratings`): no hints, the variant's rules, a clock."""
    clock: ClockForm | None = None
    """The time control (:mod:`basra.server.table.clocks`); none by default, 30+60 when rated."""
    club: str | None = Field(default=None, max_length=40)
    """A club's slug: only its members may sit (the creator must be one;
    :mod:`basra.server.features.clubs`)."""
    talk_spectators: bool = False
    """Spectators read the table's talk (:mod:`basra.server.features.talk`); off by default."""


@dataclass(frozen=True)
class TableSpec:
    """A checked create-table form."""

    variant: str
    overrides: dict[str, Any]
    """The settings that differ from the variant's preset."""
    players: int
    teams: bool
    hints: bool
    seats: tuple[tuple[SeatKind, str | None], ...]
    """``(kind, level)`` of every seat; level is None for a person."""
    my_seat: int | None
    rated: bool = False
    clock: TimeControl | None = None
    bots: Mapping[int, str] = field(default_factory=dict)
    """The bot accounts named for ``external`` seats, by seat."""

    @property
    def all_bots(self) -> bool:
        """True when every seat is a bot's."""
        return all(kind == SeatKind.BOT for kind, _ in self.seats)


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_settings", message, {"field": field})


def check_rules(variant: Any, overrides: Any) -> tuple[Rules, dict[str, Any]]:
    """The rules of a variant with overrides, within this server's bounds.

    Returns the rules and the overrides that differ from the preset; raises
    ``bad_settings`` naming the field otherwise.

    >>> check_rules("egyptian", {"target": 61})[1]
    {'target': 61}
    >>> try:
    ...     check_rules("egyptian", {"target": 10**9})
    ... except ProtocolError as error:
    ...     print(error.extra)
    {'field': 'rules.target'}
    """
    if not isinstance(variant, str) or variant not in PRESETS:
        shown = variant if isinstance(variant, str) else type(variant).__name__
        raise _bad("variant", f"unknown variant {shown!r}; the variants are: {', '.join(PRESETS)}")
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise _bad("rules", "'rules' must be an object of settings")
    base = preset(variant)
    try:
        rules = base.with_overrides(overrides)
    except RulesError as exc:
        raise _bad("rules", str(exc)) from None
    for name, (low, high) in RULE_BOUNDS.items():
        value = getattr(rules, name)
        if not low <= value <= high:
            raise _bad(
                f"rules.{name}",
                f"setting {name!r} must be from {low} to {high} at a table on this server, "
                f"not {value}",
            )
    for name in ("point_cards", "face_values"):
        for key, value in getattr(rules, name):
            if value > CARD_POINTS_BOUND:
                raise _bad(
                    f"rules.{name}",
                    f"setting {name!r}: {key} may be worth at most {CARD_POINTS_BOUND} "
                    f"at a table on this server, not {value}",
                )
    if sum(rules.card_points) + rules.majority_bonus == 0:
        raise _bad(
            "rules.point_cards",
            "with no card worth a point and no majority bonus, rounds score nothing "
            "and the game could never end",
        )
    return rules, rules.overrides_from(base)


def check_table_form(form: TableForm) -> tuple[str, TableSpec]:
    """The creator's name and the checked table, or ``bad_settings`` / ``bad_name``."""
    name = check_name(form.name)
    _, overrides = check_rules(form.variant, form.rules)
    players = form.players
    if players not in (2, 3, 4):
        raise _bad("players", f"players must be 2, 3 or 4, not {players}")
    if form.teams and players != 4:
        raise _bad("teams", "teams need 4 players")
    raw = form.seats
    if raw is None:
        raw = [SeatForm(kind="person")] + [SeatForm(kind="bot", level="medium")] * (players - 1)
    if len(raw) != players:
        raise _bad("seats", f"'seats' must list {players} seats, not {len(raw)}")
    seats: list[tuple[SeatKind, str | None]] = []
    bots: dict[int, str] = {}
    for index, seat in enumerate(raw):
        if seat.kind == "external":
            if not seat.bot:
                raise _bad(
                    f"seats.{index}.bot", f"seat {index + 1}: name the bot account that plays it"
                )
            seats.append((SeatKind.EXTERNAL, None))
            bots[index] = seat.bot
        elif seat.kind == "bot":
            level = seat.level or "medium"
            if level not in LEVELS:
                raise _bad(
                    f"seats.{index}.level",
                    f"seat {index + 1}: bot level must be one of {', '.join(LEVELS)}, "
                    f"not {level!r}",
                )
            seats.append((SeatKind.BOT, level))
        else:
            seats.append((SeatKind.PERSON, None))
    if "my_seat" in form.model_fields_set:
        my_seat = form.my_seat
    else:
        my_seat = 0 if seats[0][0] == SeatKind.PERSON else None
    if my_seat is not None and (not 0 <= my_seat < players or seats[my_seat][0] != SeatKind.PERSON):
        raise _bad("my_seat", "'my_seat' must be a seat open for a person, or null to watch")
    try:
        clock = check_control(form.clock.model_dump() if form.clock else None)
    except ValueError as exc:
        field, message = exc.args
        raise _bad(field, message) from None
    hints = form.hints
    if form.rated:
        hints, clock = _check_rated(form, overrides, seats, clock)
    elif bots and clock is None:
        if "clock" in form.model_fields_set:
            raise _bad("clock", "a table with a bot program's seat needs a clock")
        clock = DEFAULT_CONTROL  # a program that stops answering must not stall the table
    spec = TableSpec(
        form.variant,
        overrides,
        players,
        form.teams,
        hints,
        tuple(seats),
        my_seat,
        form.rated,
        clock,
        bots,
    )
    return name, spec


def _check_rated(
    form: TableForm,
    overrides: dict[str, Any],
    seats: list[tuple[SeatKind, str | None]],
    clock: TimeControl | None,
) -> tuple[bool, TimeControl]:
    """A rated table's hints (off) and clock, or ``bad_settings`` naming what cannot be rated."""
    changed = sorted(set(overrides) - RATED_SETTINGS)
    if changed:
        raise _bad(
            "rules",
            f"rated tables play the variant's own rules (only 'target' may change), "
            f"not {', '.join(changed)}",
        )
    if all(kind == SeatKind.BOT for kind, _ in seats):
        raise _bad("rated", "a rated table needs a person's seat")
    if form.hints and "hints" in form.model_fields_set:
        raise _bad("hints", "rated tables have no hints")
    if "clock" in form.model_fields_set and clock is None:
        raise _bad("clock", "rated tables need a clock (or leave 'clock' out for 30 s + 60 s)")
    return False, clock or DEFAULT_CONTROL
