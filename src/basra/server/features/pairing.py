"""Quick play's pairing, as pure functions: who sits with whom, and when a bot may join.

A pairing pass (:meth:`basra.server.features.quickplay.QuickPlay.pair`) takes one
pool's present seeks and plans its tables (:func:`plan_tables`): oldest seek
first, each takes the people nearest its rating (openskill mu in the variant's
family and table kind) within its *rating window* (:func:`window`), which widens
while it waits, to anyone after :attr:`QuickPlayConfig.window_full_after`
seconds. A seek may allow a *bot of similar strength* (:func:`bot_level`) to fill
the table after a wait it chooses (``bot_after``); only people who allowed it sit
with such a bot. Two people one of whom blocks the other are never seated together
(``blocked``: :meth:`~basra.server.features.friends.store.FriendStore.blocked_pairs`):
each is paired with the others waiting, or with bots as they allowed. People who leave
often (``leavers``: :mod:`basra.server.features.reputation`) are paired with each other
first, and with the others only where none of their own kind is in reach.
:func:`check_seek` checks a ``seek`` message.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from basra.bots import LEVELS
from basra.rules import PRESETS
from basra.server.errors import ProtocolError
from basra.server.features.quickplay_store import SeekRow
from basra.server.table.clocks import DEFAULT_CONTROL, TURN_DAYS, TimeControl
from basra.server.table.forms import check_name
from basra.server.table.ratings import bot_ratings, family_of, table_kind

__all__ = [
    "QuickPlayConfig",
    "SeekForm",
    "bot_level",
    "check_seek",
    "plan_tables",
    "seats_of",
    "window",
]


@dataclass(frozen=True)
class QuickPlayConfig:
    """How the pool pairs people."""

    pair_every: float = 0.5
    """Seconds between pairing passes (the pairing window of a seek with partners in reach)."""
    window_start: float = 2.0
    """The rating window's half-width (in openskill mu) when a seek joins..."""
    window_growth: float = 0.5
    """...widening by so much a second..."""
    window_full_after: float = 30.0
    """...until, after so many seconds, it takes anyone."""
    bot_after_bounds: tuple[int, int] = (5, 300)
    """The least and the most seconds a seek may wait before a bot fills its table."""
    away_grace: float = 20.0
    """Seconds a seek whose connection dropped keeps its place."""
    stale_after: float = 15.0
    """Seconds after which a seek no process renews has left (its process is gone)."""
    heartbeat: float = 3.0
    """Seconds between a process's renewals of its seeks (and ``seeking`` updates)."""
    keep_matched: float = 120.0
    """Seconds a matched seek is kept, so a reconnect learns its table."""
    lease_ttl: float = 3.0
    """Seconds the pairing lease lasts unless renewed."""
    control: TimeControl = DEFAULT_CONTROL
    """The clock of the tables quick play makes."""
    tables_at_once: int = 8
    """Tables one pass creates at the same time."""


def window(config: QuickPlayConfig, waited: float) -> float:
    """How far (in mu) a seek that has waited ``waited`` seconds reaches.

    >>> config = QuickPlayConfig()
    >>> window(config, 0), window(config, 10), window(config, 30)
    (2.0, 7.0, inf)
    """
    if waited >= config.window_full_after:
        return float("inf")
    return config.window_start + config.window_growth * max(0.0, waited)


def _bot_ready(seek: SeekRow, now: float) -> bool:
    return seek.bot_after is not None and now - seek.joined_at >= seek.bot_after


def _nearest(
    by_mu: list[SeekRow],
    keys: list[tuple[float, str]],
    anchor: SeekRow,
    reach: float,
    taken: set[str],
    need: int,
    blocked: Collection[frozenset[str]] = (),
    among: Callable[[SeekRow], bool] | None = None,
    found: list[SeekRow] | None = None,
) -> list[SeekRow]:
    """Up to ``need`` seeks nearest ``anchor`` in mu within ``reach`` (none taken, none
    blocked by or blocking the anchor or another one found), only those ``among`` says
    when given, after those ``found`` already (which it extends)."""
    at = bisect.bisect_left(keys, (anchor.mu, anchor.ticket))
    low, high = at - 1, at + 1
    found = [] if found is None else found
    chosen = {s.ticket for s in found}
    while len(found) < need:
        while low >= 0 and not _free(by_mu[low], taken, chosen, among):
            low -= 1
        while high < len(by_mu) and not _free(by_mu[high], taken, chosen, among):
            high += 1
        left = by_mu[low] if low >= 0 else None
        right = by_mu[high] if high < len(by_mu) else None
        gap_left = anchor.mu - left.mu if left else float("inf")
        gap_right = right.mu - anchor.mu if right else float("inf")
        if min(gap_left, gap_right) > reach:
            break
        if gap_left <= gap_right and left is not None:
            pick, low = left, low - 1
        elif right is not None:
            pick, high = right, high + 1
        else:
            break
        if not blocked or not any(
            frozenset((pick.identity, s.identity)) in blocked for s in (anchor, *found)
        ):
            found.append(pick)
            chosen.add(pick.ticket)
    return found


def _free(
    seek: SeekRow,
    taken: set[str],
    chosen: set[str],
    among: Callable[[SeekRow], bool] | None,
) -> bool:
    return seek.ticket not in taken and seek.ticket not in chosen and (among is None or among(seek))


def plan_tables(
    seeks: Sequence[SeekRow],
    now: float,
    config: QuickPlayConfig,
    blocked: Collection[frozenset[str]] = (),
    leavers: Collection[str] = (),
) -> list[list[SeekRow]]:
    """Groups to seat from one pool's present seeks (a group may be short: bots fill it).

    Oldest seek first, each takes the people nearest its rating within its
    window, never two of a ``blocked`` pair of identities; a seek nobody is near enough
    sits with bots once its ``bot_after``
    has passed, together with near people whose own ``bot_after`` has passed.
    People who leave often (``leavers``, identities: reputation's
    :func:`~basra.server.features.reputation.rules.leaves_often`) are paired with each
    other first: a seek takes the nearest of its own kind (leaver or not) within its
    window, and only where too few are in reach the nearest of the others.

    >>> def seek(ticket, mu, joined):
    ...     return SeekRow(ticket, ticket, ticket, "egyptian", 2, False, mu, 8.0, joined, None, 0)
    >>> groups = plan_tables([seek("a", 25, 0), seek("b", 40, 1), seek("c", 26, 2)], 3.0,
    ...                      QuickPlayConfig())
    >>> [[s.ticket for s in group] for group in groups]
    [['a', 'c']]
    """
    if not seeks:
        return []
    size = seeks[0].players
    by_mu = sorted(seeks, key=lambda s: (s.mu, s.ticket))
    keys = [(s.mu, s.ticket) for s in by_mu]
    taken: set[str] = set()
    groups: list[list[SeekRow]] = []
    for anchor in sorted(seeks, key=lambda s: (s.joined_at, s.ticket)):
        if anchor.ticket in taken:
            continue
        taken.add(anchor.ticket)
        reach = window(config, now - anchor.joined_at)
        near: list[SeekRow] = []
        if leavers:
            leaves = anchor.identity in leavers

            def alike(seek: SeekRow, leaves: bool = leaves) -> bool:
                return (seek.identity in leavers) == leaves

            near = _nearest(by_mu, keys, anchor, reach, taken, size - 1, blocked, alike)
        near = _nearest(by_mu, keys, anchor, reach, taken, size - 1, blocked, found=near)
        if len(near) == size - 1:
            group = [anchor, *near]
        elif _bot_ready(anchor, now):
            group = [anchor, *(s for s in near if _bot_ready(s, now))]
        else:
            taken.discard(anchor.ticket)
            continue
        taken.update(s.ticket for s in group)
        groups.append(group)
    return groups


def bot_level(variant: str, players: int, teams: bool, mu: float) -> str:
    """The bot level whose fixed rating in the pool is nearest ``mu``.

    >>> bot_level("egyptian", 2, False, 24.0), bot_level("egyptian", 2, False, 40.0)
    ('medium', 'expert')
    """
    family, kind = family_of(variant), table_kind(players, teams)
    ratings = bot_ratings()
    return min(LEVELS, key=lambda level: abs(ratings.of(level, family, kind)[0] - mu))


def seats_of(group: list[SeekRow], players: int, teams: bool, rng: random.Random) -> dict[str, int]:
    """Seats of a group's people: at random; in teams the best and the weakest partner."""
    if teams and len(group) == 4:
        ranked = sorted(group, key=lambda s: -s.mu)
        order = [ranked[0], ranked[1], ranked[3], ranked[2]]  # seats 0+2 against 1+3
        return {s.ticket: seat for seat, s in enumerate(order)}
    seats = rng.sample(range(players), len(group))
    return {s.ticket: seat for s, seat in zip(group, seats, strict=True)}


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_seek", message, {"field": field})


@dataclass(frozen=True)
class SeekForm:
    """A checked ``seek`` message."""

    variant: str
    players: int
    teams: bool
    bot_after: float | None
    name: str | None
    days: int | None = None
    """Days per move: the pool of "a turn-based game" (None: a live table)."""


def check_seek(data: dict[str, Any], config: QuickPlayConfig) -> SeekForm:
    """The checked ``seek`` message, or ``bad_seek`` naming the field."""
    known = {"type", "variant", "players", "teams", "bot_after", "name", "days"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise _bad(unknown[0], f"unknown field {unknown[0]!r}")
    variant = data.get("variant", "egyptian")
    if not isinstance(variant, str) or variant not in PRESETS:
        raise _bad("variant", f"variant must be one of: {', '.join(PRESETS)}")
    players = data.get("players", 2)
    if type(players) is not int or players not in (2, 3, 4):
        raise _bad("players", "players must be 2, 3 or 4")
    teams = data.get("teams", False)
    if not isinstance(teams, bool):
        raise _bad("teams", "teams must be true or false")
    if teams and players != 4:
        raise _bad("teams", "teams need 4 players")
    bot_after = data.get("bot_after")
    low, high = config.bot_after_bounds
    if bot_after is not None and (
        type(bot_after) not in (int, float)
        or isinstance(bot_after, bool)
        or not low <= bot_after <= high
    ):
        raise _bad("bot_after", f"bot_after must be null (never) or {low} to {high} seconds")
    days = data.get("days")
    if days is not None and (type(days) is not int or days not in TURN_DAYS):
        shown = ", ".join(map(str, TURN_DAYS))
        raise _bad("days", f"days must be null (a live game) or {shown} days a move")
    name = data.get("name")
    return SeekForm(
        variant,
        players,
        teams,
        None if bot_after is None else float(bot_after),
        None if name is None else check_name(name),
        days,
    )
