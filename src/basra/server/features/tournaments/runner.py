"""The events' clock: one process at a time starts, pairs and ends the events.

Whichever process holds the store's ``tournaments`` lease (renewed every pass,
taken over within ``lease_ttl`` seconds when its holder stops, as quick play's)
runs a pass every ``tick`` seconds, and at once (at most every ``pair_gap``)
when it hears of a result:

- an event whose start has come starts (``too_few`` entrants: it ends so);
- an **arena** pairs its waiting entrants (:meth:`basra.tournaments.Event.pair_waiting`)
  until its end, then ends; games still in play at its end count for nobody;
- a **Swiss** or **duplicate** pairs its next round once the last is complete
  (:meth:`~basra.tournaments.Event.pair_next_round`), and ends after its last;
  a duplicate table plays its boards one after the other, the next made when
  the last is over;
- the schedule's events are made ``announce`` before their start, once each;
- ``soon`` seconds before an event's start (five minutes), the people entered are told
  it starts soon (:attr:`EventClock.starting_soon`: the notifications list and Web Push,
  wired in ``env.py``). The clock tells each person once in this process (an entrant
  who joins later is told at the next pass); the listener keeps it once across processes
  (an item of an idempotent key: a holder that takes the lease over tells nobody twice).

Pairing is two steps, each idempotent. First the games are stored
(:class:`~basra.server.features.tournaments.store.TournamentWrite`: a round under the event's
version; an arena pass with *claims* that seat each entrant only where it sits
at no table, so two passes never seat one entrant twice), then each game's
table is made (:meth:`~basra.server.table.lifecycle.Lifecycle.add_once`, its id
derived from the game's place), as admission allows: a table of bots only that the
event's budget has no room for (:func:`~.tables.budget_of`) is made on a later pass,
once one of its bot tables is over. A process that takes the lease over makes the
tables of every game still open (those made already are opened, not made
again), and every ``check_every`` seconds reads back from the tables the
results of games that ended without being recorded (a crash between a game's
last play and its result): nothing paired is lost or paired twice, and no
result is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from basra.bot_names import bot_name
from basra.server.features.tournaments.store import (
    EntrantRow,
    TournamentGameRow,
    TournamentRow,
    TournamentStore,
    TournamentWrite,
)
from basra.server.quotas import RateLimitError
from basra.server.store.protocols import LeaseStore
from basra.server.table.finish import TableFinished
from basra.server.table.lifecycle import Lifecycle
from basra.tournaments import Entrant, EventSettings, Member, TournamentError
from basra.tournaments.duplicate import board_sides

from .config import TournamentConfig
from .held import Held, HeldEvents
from .schedule import ScheduleEntry
from .tables import TournamentTables, paired_game

__all__ = ["LEASE", "ArenaEnded", "EventClock", "StartingSoon", "bot_entrant", "new_event_id"]

log = logging.getLogger(__name__)

ArenaEnded = Callable[[str, str, list[tuple[str, int, int]], float], Awaitable[object]]
"""Told an ended arena's id, variant, people's ``(identity, place, games)`` and end time."""

StartingSoon = Callable[[str, str, list[str], float], Awaitable[object]]
"""Told an event's id, name, the identities of people entered not told yet, and its start."""

LEASE = "tournaments"
"""The store lease under which one process at a time runs the events."""


def new_event_id() -> str:
    """A new event's id: 8 URL-safe characters."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def bot_entrant(level: str, number: int, seed: float, position: int, now: float) -> EntrantRow:
    """A server bot entered at ``level`` (its name says its level and number)."""
    entrant_id = f"b{secrets.token_hex(4)}"
    name = bot_name(number, level)
    entrant = Entrant(entrant_id, name, (Member("bot", level, name),), seed)
    return EntrantRow(entrant_id, position, entrant.to_json(), now)


class EventClock:
    """Runs the events while this process holds the lease (see the module's docstring)."""

    def __init__(
        self,
        config: TournamentConfig,
        store: TournamentStore,
        leases: LeaseStore,
        events: HeldEvents,
        tables: TournamentTables,
        lifecycle: Lifecycle,
        origin: str,
        publish: Callable[[str, int], Awaitable[None]],
        record: Callable[[str, TableFinished], Awaitable[None]],
        bot_seed: Callable[[str, EventSettings], float],
        arena_ended: ArenaEnded | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.leases = leases
        self.events = events
        self.tables = tables
        self.lifecycle = lifecycle
        self.origin = origin
        self.publish = publish
        self.record = record
        self.bot_seed = bot_seed
        self.arena_ended = arena_ended
        """Told an arena's people's final places when it ends (the seasons' points)."""
        self.starting_soon: StartingSoon | None = None
        """Told, ``soon`` seconds before an event's start, of its people (env.py: the
        ``tournament_soon`` notification)."""
        self._told: dict[str, set[str]] = {}
        """The people told an event starts soon, by event (dropped when it starts)."""
        self.holding = False
        """Whether this process holds the lease (it runs the events)."""
        self.passes = 0
        self._made: set[str] = set()
        """Tables this holder made or opened since it took the lease."""
        self._checked = 0.0
        self._scheduled = 0.0
        self._last_pass = 0.0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._making: set[asyncio.Task[Any]] = set()

    def start(self) -> None:
        """Start the clock's loop."""
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop it."""
        for task in [self._task, *self._making]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def wake(self) -> None:
        """Something changed (a result): pass again soon."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.config.tick)
            self._wake.clear()
            gap = self._last_pass + self.config.pair_gap - time.monotonic()
            if gap > 0:
                await asyncio.sleep(gap)
            self._last_pass = time.monotonic()
            try:
                await self.step(time.time())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a tournaments pass failed")

    async def step(self, now: float) -> bool:
        """One pass, if this process holds the lease (True then)."""
        holding = await self.leases.take(LEASE, self.origin, now, self.config.lease_ttl)
        if holding and not self.holding:
            self._made.clear()  # a new holder makes (or opens) every open game's table
            self._checked = 0.0
        self.holding = holding
        if not holding:
            return False
        self.passes += 1
        if self.config.schedule and now - self._scheduled >= self.config.schedule_every:
            self._scheduled = now
            await self.make_scheduled(now)
        check = now - self._checked >= self.config.check_every
        if check:
            self._checked = now
        for row in await self.store.listing(("created", "running"), 1000, public=None):
            try:
                await self.step_event(row, now, check)
            except Exception:
                log.exception("tournament %s: a pass failed", row.id)
        return True

    # ---------------------------------------------------------------- one event

    async def step_event(self, row: TournamentRow, now: float, check: bool = False) -> None:
        """Start, pair, make tables, end: whatever the event needs now."""
        held = await self.events.get(row.id)
        if held is None:
            return
        if held.row.status == "created":
            if now >= held.row.starts_at:
                self._told.pop(held.id, None)
                await self._start(held, now)
            elif now >= held.row.starts_at - self.config.soon:
                await self._soon(held)
            return
        if held.row.status != "running":
            return
        if check:
            await self._read_back(held)
        await self._make_open(held)
        if held.settings.format == "arena":
            if held.row.ends_at is not None and now >= held.row.ends_at:
                await self._finish(held, now, "done")
            else:
                await self._pair_arena(held, now)
            return
        if held.duplicate:
            await self._next_boards(held, now)
        event = held.event
        if not event.round_complete():
            return
        if len(event.rounds) >= held.settings.total_rounds:
            await self._finish(held, now, "done")
            return
        await self._pair_round(held, now)

    async def _soon(self, held: Held) -> None:
        """Tell the people entered, not told yet, that the event starts soon."""
        if self.starting_soon is None:
            return
        told = self._told.setdefault(held.id, set())
        people = [
            member["ref"]
            for entrant in held.ordered_entrants()
            for member in entrant.data["members"]
            if member["kind"] == "person" and member["ref"] not in told
        ]
        if people:
            told.update(people)
            await self.starting_soon(held.id, held.row.name, people, held.row.starts_at)

    async def _start(self, held: Held, now: float) -> None:
        try:
            held.event.start()
        except TournamentError as error:
            if error.code == "too_few":
                await self._finish(held, now, "too_few")
            return
        version = await self.store.write(
            held.id, TournamentWrite(status="running", started_at=now), expect=held.version
        )
        if version is not None:
            await self.publish(held.id, version)
            await self.events.get(held.id)

    async def _finish(self, held: Held, now: float, why: str) -> None:
        version = await self.store.write(
            held.id,
            TournamentWrite(status="finished", finished_at=now, ended=why),
            expect=held.version,
        )
        if version is not None:
            await self.publish(held.id, version)
            if self.arena_ended is not None and held.settings.format == "arena" and why == "done":
                try:
                    await self.arena_ended(
                        held.id, held.settings.variant, held.people_placed(), now
                    )
                except Exception:
                    log.exception("tournament %s: its placings were not recorded", held.id)

    async def _pair_arena(self, held: Held, now: float) -> None:
        tables = held.event.pair_waiting(held.waiting(), now)
        if not tables:
            return
        number = len(held.games)
        # Paired now, after the results this pass read (the pass's ``now`` may be earlier
        # than a result it saw: a game would seem paired before its entrant's last ended).
        paired_at = max(now, time.time())
        games = tuple(
            paired_game(held.id, 0, number + i + 1, 0, sides, paired_at)
            for i, sides in enumerate(tables)
        )
        claims = tuple((e, g.table_id) for g in games for e in g.sides)
        version = await self.store.write(held.id, TournamentWrite(games=games, claims=claims))
        if version is None:  # someone was seated meanwhile (another holder): next pass
            await self.events.get(held.id)
            return
        held = await self.events.get(held.id) or held
        await self._make(held, games)  # before the frame: a paired person finds the table
        await self.publish(held.id, version)

    async def _pair_round(self, held: Held, now: float) -> None:
        try:
            event = held.event.pair_next_round()
        except TournamentError as error:
            if error.code == "too_few":
                await self._finish(held, now, "too_few")
            else:
                log.warning("tournament %s cannot pair: %s", held.id, error)
            return
        paired = event.rounds[-1]
        games = tuple(
            paired_game(
                held.id,
                paired.number,
                index,
                0,
                board_sides(sides, 0) if held.duplicate else sides,
                now,
            )
            for index, sides in enumerate(paired.tables)
        )
        version = await self.store.write(
            held.id, TournamentWrite(rounds=(paired.to_json(),), games=games), expect=held.version
        )
        if version is None:  # a join or a withdrawal came first: pair again next pass
            return
        held = await self.events.get(held.id) or held
        await self._make(held, games)  # before the frame: a paired person finds the table
        await self.publish(held.id, version)

    async def _next_boards(self, held: Held, now: float) -> None:
        """A duplicate table's next board, once its last one is over."""
        if not held.rounds:
            return
        number = max(held.rounds)
        paired = held.rounds[number]
        boards = held.settings.boards_per_round
        latest: dict[int, TournamentGameRow] = {}
        for game in held.games.values():
            if game.round == number and (
                game.table not in latest or game.board > latest[game.table].board
            ):
                latest[game.table] = game
        games = tuple(
            paired_game(
                held.id,
                number,
                table,
                game.board + 1,
                board_sides(paired.tables[table], game.board + 1),
                now,
            )
            for table, game in sorted(latest.items())
            if game.result is not None and game.board + 1 < boards
        )
        if not games:
            return
        version = await self.store.write(held.id, TournamentWrite(games=games))
        if version is not None:
            held = await self.events.get(held.id) or held
            await self._make(held, games)
            await self.publish(held.id, version)

    async def _make(self, held: Held, games: tuple[TournamentGameRow, ...]) -> None:
        """Make the games' tables: those with people a few at a time, then those of bots
        only one by one while the event's budget has room (the rest wait for a pass after
        a bots' game is over)."""
        limit = asyncio.Semaphore(8)

        async def make(game: TournamentGameRow) -> bool:
            async with limit:
                try:
                    await self.tables.make(held, game)
                    self._made.add(game.table_id)
                except RateLimitError as full:  # bots only, the event's budget full: later
                    log.debug("tournament %s: table %s waits: %s", held.id, game.table_id, full)
                    return False
                except Exception:
                    log.exception("tournament %s: table %s not made", held.id, game.table_id)
                return True

        bots = [g for g in games if self.tables.bots_only(held, g)]
        await asyncio.gather(*(make(g) for g in games if g not in bots))
        for game in bots:
            if not await make(game):
                break

    async def _make_open(self, held: Held) -> None:
        """Make (or open) the tables of open games this holder has not (after a crash, or
        a lease taken over)."""
        missing = tuple(g for g in held.open_games() if g.table_id not in self._made)
        if missing:
            await self._make(held, missing)

    async def _read_back(self, held: Held) -> None:
        """Record the results of open games whose tables are over (a crash kept them)."""
        for game in held.open_games():
            finished = await self.lifecycle.finished(game.table_id)
            if finished is not None:
                await self.record(held.id, finished)

    # ---------------------------------------------------------------- the schedule

    async def make_scheduled(self, now: float) -> int:
        """Make the schedule's events that are due to be listed; how many were new."""
        made = 0
        for entry in self.config.schedule:
            for start in entry.starts(now - 1.0, now + entry.announce):
                made += await self._make_one(entry, start, now)
        return made

    async def _make_one(self, entry: ScheduleEntry, start: float, now: float) -> int:
        settings = entry.settings
        ends_at = start + 60.0 * settings.minutes if settings.minutes else None
        bots = [
            bot_entrant(level, i + 1, self.bot_seed(level, settings), i, now)
            for i, level in enumerate(entry.bot_entrants)
        ]
        row = TournamentRow(
            id=new_event_id(),
            name=entry.name,
            settings=settings.to_json(),
            status="created",
            starts_at=start,
            created_at=now,
            ends_at=ends_at,
            schedule_key=entry.key(start),
        )
        stored = await self.store.create(
            row, bots, [(f"bot:{b.entrant_id}", b.entrant_id) for b in bots]
        )
        return int(stored.id == row.id)
