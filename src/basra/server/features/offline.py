"""Offline games come home: an uploaded game checked, then kept as a table of its own.

A game played in the page with no connection (:mod:`basra.offline`) is sent,
once online, with the person's token (``POST /api/offline/games``).
:meth:`OfflineGames.upload` checks it by playing it again
(:mod:`basra.server.features.offline_check`: deals from the seed, every play
legal, every bot play the one that bot makes there, the page's result the
replay's) and :meth:`OfflineGames.keep` stores it through the table
lifecycle (:meth:`~basra.server.table.lifecycle.Lifecycle.record`), so "My
games", the record, the replay and the coach's review read it as any other
game.

The check costs a worker a tenth of a second for a long game, and a hard bot's
decisions a tenth of a second each (a game against hard bots has hundreds), so
none of it runs in the server's loop and each person gets a bounded share:

- rationed: uploads per person and per client address (:class:`OfflineConfig`:
  30 and 60 an hour), and checks waiting or under way at once, per person (2),
  per address (4) and in this process (16); more is refused ``rate_limited``
  (429, naming the ``limit``) before anything is done;
- refused on its shape first (:func:`~.offline_check.screen_upload`: sizes,
  counts, the rules' bound on plays per round; microseconds, in the loop), so
  a malformed upload never reaches a worker;
- checked as a job of the server's job queue (:mod:`basra.server.runtime.jobs`,
  kind :data:`KIND`, awaited by the request in the process that was asked),
  keyed by the person and the upload's contents, so the same upload sent twice
  at once is checked once;
- replayed on the workers (:func:`~.offline_check.replay_upload`, one job on the
  fair scheduler at background rank, in the person's own queue
  ``offline:<identity>``, taking turns with other tables' work), with the hard
  bots' decisions handed back and made again there one by one, at most
  :attr:`OfflineConfig.decisions_at_once` of one upload queued at a time (never
  the whole game's hundreds at once), the rest dropped at the first that differs.

A game kept:

- the table: the record's variant, rule overrides, players, teams and first
  dealer; ``created_from`` is :data:`~basra.server.store.rows.OFFLINE`; never
  rated and marked settled when stored (nothing to settle: no results, no
  ratings, no leaderboards); status ``over``, or ``unfinished``
  (:attr:`~basra.server.store.rows.TableStatus.UNFINISHED`: neither waiting nor
  in play, so it is never joined, played, abandoned or settled here);
- the seats: the uploader's identity in their seat, other people (pass and
  play) by name only, bots by level;
- the log: one ``deal`` per round and one ``play`` per move, encoded by the
  table reducer (:func:`~basra.server.table.reducer.deal_event`,
  :func:`~basra.server.table.reducer.play_event`), stored with the table in one
  transaction;
- idempotent: its id is derived from the identity and the page's id of the
  game, so the same game uploaded again finds the same table; an unfinished
  game that went on appends its new events (and its new status) when the
  stored ones are where it started from; otherwise the stored game stands.

Its record, replay and review are refused until it is over (hidden cards), as
for any table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.features.offline_check import (
    DEFERRED_LEVELS,
    BotDecision,
    CheckedGame,
    check_decision,
    page_bot_move,
    replay_upload,
    screen_upload,
)
from basra.server.identity import Caller
from basra.server.quotas import Quotas, Rate
from basra.server.runtime.jobs import JobQueue
from basra.server.runtime.scheduler import BACKGROUND, FairScheduler
from basra.server.store.protocols import TableStore
from basra.server.store.rows import (
    OFFLINE,
    Event,
    SeatKind,
    SeatRow,
    Status,
    TableRow,
    TableStatus,
)
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.reducer import deal_event, play_event
from basra.session import PERSON

__all__ = [
    "DEFERRED_LEVELS",
    "KIND",
    "UPLOADS",
    "UPLOADS_PER_ADDRESS",
    "OfflineConfig",
    "OfflineGames",
    "StoredGame",
    "events_of",
    "offline_table_id",
]

KIND = "offline_check"
"""The job queue's kind for checking an upload (keyed by person and contents)."""
UPLOADS = Rate(30, 3600)
"""Offline games (or later states of them) one person may upload, by default."""
UPLOADS_PER_ADDRESS = Rate(60, 3600)
"""Offline games one client address may upload, by default."""
OLDEST = 10 * 365 * 86400.0
"""How far back a game's start may be (seconds); an older or future one is taken as now."""


@dataclass(frozen=True)
class OfflineConfig:
    """How uploads are taken."""

    uploads_per_identity: Rate = UPLOADS
    """Offline games (or later states of them) one person may upload."""
    uploads_per_address: Rate = UPLOADS_PER_ADDRESS
    """Offline games one client address may upload (all its identities together)."""
    checks_per_identity: int = 2
    """Uploads of one person being checked at once (the page sends one at a time)."""
    checks_per_address: int = 4
    """Uploads from one client address being checked at once."""
    checks: int = 16
    """Uploads being checked at once in this server process."""
    decisions_at_once: int = 2
    """Hard bots' decisions of one upload on the workers' queue at a time."""


@dataclass(frozen=True)
class StoredGame:
    """Where a kept offline game is, and how it stands there."""

    table_id: str
    created: bool
    """True when this upload stored it."""
    status: TableStatus
    scores: tuple[int, ...]
    winner: int | None
    appended: int = 0
    """Events this upload added to an unfinished game kept before."""


def offline_table_id(identity: str, client_id: str) -> str:
    """The table of an identity's offline game (16 hex digits): the same for every upload
    of it, and nobody else's.

    >>> mine = offline_table_id("id-1", "g1")
    >>> mine == offline_table_id("id-1", "g1") != offline_table_id("id-2", "g1"), len(mine)
    (True, 16)
    """
    return hashlib.sha256(f"offline\0{identity}\0{client_id}".encode()).hexdigest()[:16]


def upload_key(identity: str, upload: Mapping[str, Any]) -> str:
    """An upload's job key: the person and a digest of what they sent (screened first,
    so its size is bounded)."""
    text = json.dumps(upload, sort_keys=True, separators=(",", ":"), default=str)
    return f"{identity}:{hashlib.sha256(text.encode()).hexdigest()}"


def events_of(game: CheckedGame, at: float) -> list[Event]:
    """The table's log of a checked game: a deal per round, then its plays, numbered from 0."""
    out: list[Event] = []
    for pack, moves in zip(game.packs, game.moves, strict=True):
        out.append(deal_event(len(out), pack, at))
        out.extend(play_event(len(out), move, at) for move in moves)
    return out


def status_of(game: CheckedGame) -> Status:
    """Where the game stands: over (scores, winner) or unfinished (scores so far)."""
    scores = tuple(game.result["score"])
    if game.finished:
        return Status(TableStatus.OVER, scores, game.result["winner"])
    return Status(TableStatus.UNFINISHED, scores, None)


class OfflineGames:
    """Checks uploaded offline games and keeps them as tables (see the module docstring)."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        tables: TableStore,
        scheduler: FairScheduler,
        quotas: Quotas,
        jobs: JobQueue,
        config: OfflineConfig | None = None,
    ) -> None:
        self.lifecycle = lifecycle
        self.tables = tables
        self.scheduler = scheduler
        self.quotas = quotas
        self.jobs = jobs
        self.config = config or OfflineConfig()

    async def upload(
        self, caller: Caller, upload: Mapping[str, Any], address: str = "unknown"
    ) -> StoredGame:
        """Check an uploaded game from ``address`` (:class:`ForgedRecordError` says what is
        wrong, :class:`~basra.server.quotas.RateLimitError` that it is too many) on the
        workers, and keep it."""
        identity = caller.identity
        with self._checking(identity, address):
            config = self.config
            what = "offline games uploaded"
            self.quotas.take("offline", identity, config.uploads_per_identity, f"{what} per person")
            self.quotas.take(
                "offline_address", address, config.uploads_per_address, f"{what} per address"
            )
            screen_upload(upload)
            game = await self.jobs.once(
                KIND, upload_key(identity, upload), lambda: self.check(identity, upload)
            )
        return await self.keep(identity, game)

    async def check(self, identity: str, upload: Mapping[str, Any]) -> CheckedGame:
        """Replay a screened upload on the workers and make its deferred bot decisions
        again (the job of :data:`KIND`)."""
        game = await self.scheduler.run(
            f"offline:{identity}", BACKGROUND, replay_upload, dict(upload)
        )
        await self.make_again(identity, game.deferred)
        return game

    @contextlib.contextmanager
    def _checking(self, identity: str, address: str) -> Iterator[None]:
        """Count one more check under way for ``identity``, ``address`` and this process,
        or refuse it (``rate_limited``) at any of their caps."""
        config = self.config
        what = "offline games being checked"
        caps = (
            ("offline_checks", identity, config.checks_per_identity, f"{what} per person"),
            ("offline_checks_address", address, config.checks_per_address, f"{what} per address"),
            ("offline_checks_server", "", config.checks, f"{what} on this server"),
        )
        held: list[tuple[str, str]] = []
        try:
            for limit, key, cap, message in caps:
                self.quotas.hold(limit, key, cap, message)
                held.append((limit, key))
            yield
        finally:
            for limit, key in held:
                self.quotas.release(limit, key)

    async def make_again(self, identity: str, decisions: Sequence[BotDecision]) -> None:
        """Make each deferred bot decision again on the workers (background rank, the
        identity's turn among others), at most :attr:`OfflineConfig.decisions_at_once`
        queued at a time; raise at the first that differs."""
        if not decisions:
            return
        queue = f"offline:{identity}"
        left = iter(decisions)

        async def again() -> None:
            for decision in left:  # shared: each of the few takes the next one left
                made = await self.scheduler.run(
                    queue, BACKGROUND, page_bot_move, decision.level, decision.seed, decision.view
                )
                check_decision(decision, made)

        at_once = max(1, min(self.config.decisions_at_once, len(decisions)))
        tasks = [asyncio.create_task(again()) for _ in range(at_once)]
        try:
            for task in asyncio.as_completed(tasks):
                await task
        finally:
            for task in tasks:
                task.cancel()  # after a forged play: the others are dropped before they run
            await asyncio.gather(*tasks, return_exceptions=True)

    async def keep(self, identity: str, game: CheckedGame) -> StoredGame:
        """Store a checked game for ``identity`` (or find it stored, and add what it played
        since); where it is."""
        table_id = offline_table_id(identity, game.client_id)
        now = time.time()
        events = events_of(game, self._started(game, now))
        status = status_of(game)
        row = await self.tables.load(table_id)
        if row is None:
            if await self.lifecycle.record(
                self._row(table_id, identity, game, status, now), events
            ):
                return StoredGame(table_id, True, status.status, status.scores, status.winner)
            row = await self.tables.load(table_id)  # the same upload, just before this one
            if row is None:
                raise ProtocolError("no_such_table", "the game could not be kept: send it again")
        if row.created_by != identity or row.created_from != OFFLINE:
            raise ProtocolError("not_yours", "that game is kept for someone else")
        appended = 0
        if row.status == TableStatus.UNFINISHED:
            stored = await self.tables.events(table_id)
            known = [(e.kind, e.data) for e in stored]
            went_on = len(events) > len(stored) and known == [
                (e.kind, e.data) for e in events[: len(stored)]
            ]
            if went_on:
                more = [Event(e.seq, e.kind, e.data, now, e.auto) for e in events[len(stored) :]]
                if await self.lifecycle.record_more(table_id, more, status):
                    row.set_status(status)
                    appended = len(more)
        return StoredGame(table_id, False, row.status, tuple(row.scores), row.winner, appended)

    @staticmethod
    def _started(game: CheckedGame, now: float) -> float:
        """When the game started, as the page says, unless that is in the future or long ago."""
        started = game.created_at
        if started is None or not now - OLDEST <= started <= now:
            return now
        return started

    def _row(
        self, table_id: str, identity: str, game: CheckedGame, status: Status, now: float
    ) -> TableRow:
        """The table of an offline game: seats as played, never rated, nothing to settle."""
        seats = []
        for seat, kind in enumerate(game.kinds):
            if kind == PERSON:
                mine = identity if seat == game.uploader_seat else None
                seats.append(SeatRow(seat, SeatKind.PERSON, None, mine, game.names[seat]))
            else:
                seats.append(SeatRow(seat, SeatKind.BOT, kind))
        record = game.record
        return TableRow(
            id=table_id,
            variant=record["variant"],
            rules=dict(game.overrides),
            players=record["players"],
            teams=record["teams"],
            first_dealer=record["first_dealer"],
            hints=False,
            seats=seats,
            status=status.status,
            scores=list(status.scores),
            winner=status.winner,
            created_at=self._started(game, now),
            updated_at=now,
            created_by=identity,
            created_from=OFFLINE,
            rated=False,
            settled_at=now,
        )
