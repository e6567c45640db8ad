"""Seasons and leagues: per variant family, seasons of a fixed length with divisions,
points from rated games and arenas, promotion and relegation at each season's end.

The rule (the calendar, the points, the order, who goes up and down) is one module,
:mod:`basra.server.features.seasons.rules`; the rows are the feature's own
(:mod:`basra.server.features.seasons.store`), beside the settled ``results`` they read.

- **Live standings** (:meth:`Seasons.standing`) are worked out when asked, from the
  season's entries so far: the rated results of the family (as the table master settles
  them, once per table) and the arena placings (:meth:`Seasons.record_arena`, called by
  the tournaments feature when an arena ends). Nothing is added up on the side, so a
  result settled twice, late or in another process can never count twice.
- **The season's end** (:meth:`Seasons.step`): whichever process holds the store's
  ``seasons`` lease (as the tournaments' clock does) closes, in order, every season of
  every family that ended at least ``grace`` seconds ago and is not closed yet. Closing
  is one transaction of the store (:meth:`~.store.SqlSeasons.close`): add up the entries,
  work out the final table with its moves, write it with the season's ``season_closes``
  row, whose key refuses a second close; so two processes (or a lease changing hands
  mid-close) never promote anyone twice. ``grace`` leaves the games that ended just
  before the end time to be settled first.
- **After**: the final table stays (:meth:`Seasons.final`), sends each person to the
  division they start their next season in, and gives the profile its badges
  (:meth:`Seasons.badges`: the division of each family's latest final table, and the move).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from basra.pools import FAMILIES, FAMILY_OF
from basra.server.errors import ProtocolError
from basra.server.store.protocols import IdentityStore, LeaseStore, PlayerStore
from basra.server.table.clocks import Clock, SystemClock

from .rules import (
    ARENA_POINTS,
    DIVISIONS,
    GAME_POINTS,
    Line,
    SeasonCalendar,
    Total,
    lines_of,
    parse_length,
    table_of,
)
from .store import ArenaPlacing, SeasonStore

__all__ = ["LEASE", "SHOWN", "ArenaPlacing", "SeasonConfig", "Seasons", "check_family"]

log = logging.getLogger(__name__)

SHOWN = 50
"""The head of a division shown in full; past it, only the caller's neighbours and the
lines' (``size`` says how many stand in it)."""

CLOSES_PER_PASS = 100
"""The most seasons of one family a pass closes (a short ``length`` on an old ``first``
catches up over a few passes, not in one long one)."""

LEASE = "seasons"
"""The store lease under which one process at a time closes seasons."""

FIRST = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class SeasonConfig:
    """How seasons run (the operator's ``[seasons]`` section)."""

    length: str = "3 months"
    """How long a season lasts: N months (calendar months), days, hours, minutes or seconds."""
    first: float = FIRST
    """When season 1 starts (a Unix time; 2026-01-01 00:00 UTC)."""
    divisions: int = 5
    """How many divisions (2 to 5: Bronze, Silver, Gold, Platinum, Diamond from the lowest)."""
    promoted: int = 3
    """How many of each division go up at a season's end (at most half of it)."""
    relegated: int = 3
    """How many of each division go down at a season's end (at most half of it)."""
    grace: float = 60.0
    """Seconds after a season's end before it is closed (its last games settled)."""
    tick: float = 30.0
    """Seconds between the passes that look for a season to close."""
    lease_ttl: float = 90.0
    """Seconds the closing lease lasts unless renewed."""
    fresh: float = 10.0
    """Seconds a process reuses a running season's standings before reading them again."""

    def __post_init__(self) -> None:
        parse_length(self.length)
        if not 2 <= self.divisions <= len(DIVISIONS):
            raise ValueError(f"divisions must be 2 to {len(DIVISIONS)}, not {self.divisions}")
        if self.promoted < 0 or self.relegated < 0:
            raise ValueError("promoted and relegated must be 0 or more")

    @property
    def calendar(self) -> SeasonCalendar:
        """When each season starts and ends."""
        return SeasonCalendar(self.first, self.length)


def check_family(value: str | None) -> str:
    """A family name, or a variant's family; ``bad_request`` naming ``family`` else."""
    value = value or "egyptian"
    if value in FAMILIES:
        return value
    if value in FAMILY_OF:
        return FAMILY_OF[value]
    raise ProtocolError(
        "bad_request",
        f"family must be one of {', '.join(FAMILIES)} (or a variant), not {value[:40]!r}",
        {"field": "family"},
    )


class Seasons:
    """Standings, final tables and badges; the closing of ended seasons (see the module)."""

    def __init__(
        self,
        config: SeasonConfig,
        store: SeasonStore,
        leases: LeaseStore,
        players: PlayerStore,
        identities: IdentityStore,
        origin: str,
        clock: Clock | None = None,
    ) -> None:
        self.config = config
        self.calendar = config.calendar
        self.store = store
        self.leases = leases
        self.players = players
        self.identities = identities
        self.origin = origin
        self.clock: Clock = clock or SystemClock()
        """The time the seasons go by: the tables' (their results' ``ended_at``)."""
        self.closed: list[tuple[str, int]] = []
        """The seasons this process closed (for tests and logs)."""
        self._task: asyncio.Task[None] | None = None
        self._tables: dict[tuple[str, int], tuple[float, asyncio.Future[list[Line]]]] = {}

    # ---------------------------------------------------------------- the season's end

    def start(self) -> None:
        """Start the loop that closes ended seasons."""
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop it."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.step(self.clock.now())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a seasons pass failed")
            await asyncio.sleep(self.config.tick)  # real seconds, whatever the clock

    async def step(self, now: float) -> list[tuple[str, int]]:
        """Close every ended season not closed yet, if this process holds the lease; the
        ``(family, season)`` closed here."""
        if not await self.leases.take(LEASE, self.origin, now, self.config.lease_ttl):
            return []
        running = self.calendar.number_at(now - self.config.grace)
        done: list[tuple[str, int]] = []
        for family in FAMILIES:
            last = await self.store.last_closed(family)
            for season in range(last + 1, min(running, last + 1 + CLOSES_PER_PASS)):
                if await self.close_season(family, season, now) is not None:
                    done.append((family, season))
        return done

    async def close_season(self, family: str, season: int, now: float) -> int | None:
        """Close one season (once, whoever calls): how many stand in its final table, or
        None if it was closed already."""
        config = self.config

        def compute(totals: list[Total], divisions: dict[str, int]) -> list[Line]:
            return table_of(totals, divisions, config.divisions, config.promoted, config.relegated)

        lines = await self.store.close(
            family,
            season,
            self.calendar.start(season),
            self.calendar.end(season),
            compute,
            now,
        )
        if lines is None:
            return None
        self.closed.append((family, season))
        log.info("season %s of %s closed: %d people", season, family, len(lines))
        return len(lines)

    # ---------------------------------------------------------------- arenas

    async def record_arena(
        self, event_id: str, variant: str, placings: Sequence[tuple[str, int, int]], at: float
    ) -> int:
        """A finished arena's people's ``(identity, place, games)`` (its final standings,
        place 0 the first), for the season of its variant's family; stored once however
        often it is told. The tournaments feature calls it when an arena ends."""
        family = FAMILY_OF.get(variant)
        if family is None or not placings:
            return 0
        rows = [ArenaPlacing(*placing) for placing in placings]
        return await self.store.record_arena(event_id, family, rows, at)

    # ---------------------------------------------------------------- what people see

    async def _names(self, identities: Sequence[str]) -> dict[str, dict[str, str | None]]:
        accounts = await self.players.accounts_of(identities)
        rows = await self.identities.load_many(identities)
        out: dict[str, dict[str, str | None]] = {}
        for who in identities:
            account, row = accounts.get(who), rows.get(who)
            username = account.username if account else None
            out[who] = {"username": username, "name": username or (row.name if row else None)}
        return out

    def _season_json(self, number: int) -> dict[str, Any]:
        return {
            "number": number,
            "starts": self.calendar.start(number),
            "ends": self.calendar.end(number),
        }

    async def standing(
        self, family: str, identity: str | None, division: int | None, now: float
    ) -> dict[str, Any]:
        """The running season of a family: its divisions, the caller's line, one division's
        standings (the caller's, else the one asked, else the lowest) with the lines to
        promotion and relegation, and the caller's last final line."""
        config = self.config
        number = max(self.calendar.number_at(now), 1)
        table = await self._table(family, number)
        mine = next((line for line in table if line.identity == identity), None)
        if division is not None and not 0 <= division < config.divisions:
            raise ProtocolError(
                "bad_request",
                f"division must be 0 to {config.divisions - 1}, not {division}",
                {"field": "division"},
            )
        if identity is not None and mine is None:
            starts = (await self.store.divisions(family, number, [identity])).get(identity, 0)
        else:
            starts = mine.division if mine else 0
        shown = division if division is not None else starts
        lines = [line for line in table if line.division == shown]
        size = len(lines)
        up, down = lines_of(len(lines), shown, config.divisions, config.promoted, config.relegated)
        # A long division is shown in part: its head, the caller's neighbours, the line to
        # relegation's and its last line (the ranks say where the gaps are).
        ranks = set(range(1, SHOWN + 1)) | {size}
        if mine is not None and mine.division == shown:
            ranks |= set(range(mine.rank - 3, mine.rank + 4))
        if down:
            ranks |= set(range(size - down - 1, size - down + 4))
        lines = [line for line in lines if line.rank in ranks]
        names = await self._names([line.identity for line in lines])
        last = None
        if identity is not None:
            for fam, season, line in await self.store.finals_of(identity):
                if fam == family:
                    last = {"season": season, **self._line_json(line)}
                    break
        return {
            "family": family,
            "families": list(FAMILIES),
            "season": self._season_json(number),
            "divisions": list(DIVISIONS[: config.divisions]),
            "division": shown,
            "you": None
            if identity is None
            else {
                "division": starts,
                "line": self._line_json(mine) if mine else None,
                "last": last,
            },
            "size": size,
            "promotion_line": up if up else None,
            "relegation_line": size - down + 1 if down else None,
            "standings": [
                {**self._line_json(line), **names[line.identity], "you": line.identity == identity}
                for line in lines
            ],
            "points": {**GAME_POINTS, "arena": [*ARENA_POINTS, 1]},
        }

    async def _table(self, family: str, number: int) -> list[Line]:
        """A running season's standings, read at most once every ``fresh`` seconds in this
        process (requests meanwhile share the one read: a season's totals are a grouped
        query over all its results)."""
        key = (family, number)
        found = self._tables.get(key)
        if found is not None and (found[0] > time.monotonic() or not found[1].done()):
            return await asyncio.shield(found[1])
        task = asyncio.ensure_future(self._read_table(family, number))
        self._tables[key] = (time.monotonic() + self.config.fresh, task)
        try:
            return await asyncio.shield(task)
        except Exception:
            self._tables.pop(key, None)
            raise

    async def _read_table(self, family: str, number: int) -> list[Line]:
        config = self.config
        calendar = self.calendar
        totals = await self.store.totals(family, calendar.start(number), calendar.end(number))
        divisions = await self.store.divisions(family, number, None)
        return table_of(totals, divisions, config.divisions, config.promoted, config.relegated)

    @staticmethod
    def _line_json(line: Line) -> dict[str, Any]:
        return {
            "division": line.division,
            "rank": line.rank,
            "points": line.points,
            "games": line.games,
            "wins": line.wins,
            "move": line.move,
        }

    async def final(self, family: str, season: int) -> dict[str, Any]:
        """A closed season's final table (``no_such_season`` if it is not closed)."""
        if season < 1 or season > await self.store.last_closed(family):
            raise ProtocolError("no_such_season", f"season {season} of {family} is not over")
        lines = await self.store.final(family, season)
        names = await self._names([line.identity for line in lines])
        return {
            "family": family,
            "season": self._season_json(season),
            "divisions": list(DIVISIONS[: self.config.divisions]),
            "standings": [{**self._line_json(line), **names[line.identity]} for line in lines],
        }

    async def badges(self, identity: str) -> list[dict[str, Any]]:
        """A person's badges: per family, their latest final line (the division they ended
        in, their rank there and the move), newest season first."""
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for family, season, line in await self.store.finals_of(identity):
            if family in seen:
                continue
            seen.add(family)
            out.append(
                {
                    "family": family,
                    "season": season,
                    "division_key": DIVISIONS[min(line.division, len(DIVISIONS) - 1)],
                    **self._line_json(line),
                }
            )
        return out

    async def badges_of_username(self, username_key: str) -> list[dict[str, Any]]:
        """The badges of an account (``no_such_player`` if there is none)."""
        account = await self.players.account_by_username(username_key)
        if account is None:
            raise ProtocolError("no_such_player", f"nobody has the username {username_key[:40]!r}")
        return await self.badges(account.identity)
