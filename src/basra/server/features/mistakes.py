"""Your mistakes: puzzles mined from people's own reviewed games, as background jobs.

When a finished game's review is stored (:meth:`ReviewService.subscribe
<basra.server.features.reviews.ReviewService.subscribe>`), its mining is queued: every
decision of a person's seat that the review labelled a mistake or a blunder (the move
played surely lost 3 points or more, as every move but a puzzle's answer does) goes to
the core's miner
(:func:`basra.puzzles.mine.mine_spot`, screened with the review's values so nothing is
analysed twice), and a decision it proves (exactly, or by the search ten times the
``expert``'s, :class:`~basra.server.features.puzzles.PuzzleConfig`) whose answer is not
the move the person played becomes a puzzle of theirs
(:meth:`~basra.server.features.learn_store.PuzzleStore.add_mined`). Mined puzzles are in
everyone's rated pool too, so only a game whose cards anyone may see is mined
(:meth:`Disclosure.public <basra.server.table.disclosure.Disclosure.public>`: over, and
not hidden, or its deal revealed to all). A hidden table's game reviewed sooner (a daily
deal's attempt, a duplicate board still played elsewhere) stays queued, and is looked at
again when the feature says its deal was revealed (a duplicate board's last table
finished here: :meth:`~basra.server.table.disclosure.Disclosure.revealed`), every
:attr:`~basra.server.features.puzzles.PuzzleConfig.recheck` seconds (a daily deal's
day ending; a board finished in another process) and when a server starts, until its
deal is revealed to all. A mined line names no source,
and nothing a puzzle shows leads back to its game (see
:mod:`basra.server.features.puzzles`).

Like reviews, each decision is one piece of work on the fair scheduler at its lowest
rank (:data:`~basra.server.runtime.scheduler.REVIEW`), in the server's worker
processes, never on the worker kept for people's bots. A game's mining is one
``puzzle_mining`` row (queued, running, done with the number found, or failed),
claimed by one job at a time; jobs queued or running when a server stopped are queued
again when it starts, and a person's reviewed games that were never mined (reviewed
before this feature, or while it failed) are queued when they look at their mistakes
(:meth:`MistakeMiner.catch_up`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from basra.coach.review import Spot, plan
from basra.puzzles.format import Puzzle
from basra.puzzles.mine import MineSettings, Option, mine_spot, review_values
from basra.record import Record
from basra.server.errors import ProtocolError
from basra.server.features.learn_store import MinedPuzzleRow, PuzzleStore
from basra.server.features.profiles import HISTORY_LIMIT
from basra.server.features.puzzles import PuzzleConfig
from basra.server.features.reviews import LocalQueue, ReviewService
from basra.server.features.reviews_store import ReviewStore
from basra.server.runtime.scheduler import REVIEW, FairScheduler
from basra.server.store.protocols import PlayerStore
from basra.server.store.rows import ReviewStatus, SeatKind, TableStatus
from basra.server.table.disclosure import SERVER
from basra.server.table.queries import Queries

__all__ = ["MISTAKES", "MistakeMiner", "mine_decision"]

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = tuple(ReviewStatus)
MISTAKES = ("mistake", "blunder")
"""The review's labels of the decisions mined: the move played lost at least 3 points,
surely (:data:`basra.coach.review.THRESHOLDS`), as a puzzle's every other move does."""


def mine_decision(
    record: Record, spot: Spot, settings: MineSettings, screened: list[Option], source: str | None
) -> Puzzle | None:
    """One decision mined (runs in a worker process)."""
    return mine_spot(record, spot, settings=settings, screened=screened, source=source)


class MistakeMiner:
    """Mines reviewed games for their people's mistakes, one background job per game."""

    def __init__(
        self,
        puzzles: PuzzleStore,
        reviews: ReviewService,
        review_rows: ReviewStore,
        queries: Queries,
        players: PlayerStore,
        scheduler: FairScheduler,
        config: PuzzleConfig | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.puzzles = puzzles
        self.review_rows = review_rows
        self.queries = queries
        self.players = players
        self.scheduler = scheduler
        self.config = config or PuzzleConfig()
        self.clock = clock
        self.queue = LocalQueue(self.config.concurrency)
        self.running: set[str] = set()
        self.mined = 0
        """Games mined by this process."""
        self.held: set[str] = set()
        """Games reviewed whose cards are not yet anyone's to see: looked at again every
        :attr:`PuzzleConfig.recheck` seconds."""
        self._sweep: asyncio.TimerHandle | None = None
        self._later: set[asyncio.TimerHandle] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        reviews.subscribe(self.reviewed)
        queries.disclosure.on_revealed(self.revealed)

    @property
    def settings(self) -> MineSettings:
        """The core miner's settings on this server."""
        config = self.config
        return MineSettings(proof_samples=config.proof_samples, rate=config.rate, seed=config.seed)

    async def start(self) -> None:
        """Start taking jobs, and queue again the ones an earlier server left unfinished."""
        await self.queue.start(self.run)
        for table_id in await self.puzzles.unfinished_mining():
            await self.queue.enqueue(table_id)

    async def close(self) -> None:
        """Stop (a game being mined goes back to the queue)."""
        if self._sweep is not None:
            self._sweep.cancel()
        for handle in self._later:
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.queue.close()

    async def reviewed(self, table_id: str) -> None:
        """A game's review was stored: queue its mining."""
        if await self.puzzles.request_mining(table_id, self.clock()):
            await self.queue.enqueue(table_id)

    async def revealed(self, table_ids: Sequence[str]) -> None:
        """Tables whose deal was just revealed to all: queue those held back at once."""
        for table_id in table_ids:
            if table_id in self.held:
                self.held.discard(table_id)
                await self.queue.enqueue(table_id)

    async def catch_up(self, identity: str) -> int:
        """Queue the mining of the person's reviewed games never mined; how many of their
        games are being mined now."""
        results = await self.players.results_of(identity, limit=HISTORY_LIMIT)
        table_ids = [r.table_id for r in results]
        reviewed = set(await self.review_rows.accuracies(table_ids))
        rows = await self.puzzles.mining([t for t in table_ids if t in reviewed])
        pending = 0
        for table_id in table_ids:
            row = rows.get(table_id)
            if table_id in reviewed and row is None:
                await self.reviewed(table_id)
                pending += 1
            elif row is not None and row.status in (QUEUED, RUNNING):
                pending += 1
        return pending

    async def run(self, table_id: str, beat: Callable[[], Awaitable[None]] | None = None) -> None:
        """Mine a game, if it is queued (or stale) and this process claims it."""
        store = self.puzzles
        if not await store.claim_mining(table_id, self.clock(), self.config.stale):
            rows = await store.mining([table_id])
            row = rows.get(table_id)
            if row is not None and row.status == RUNNING and table_id not in self.running:
                self._retry_later(table_id)  # another process has it; take over if it dies
            return
        self.running.add(table_id)
        try:
            disclosure = self.queries.disclosure
            game = await disclosure.load(table_id)
            if game.status == TableStatus.OVER and not await disclosure.public(game):
                # Its deal is a secret still: it waits in the queue until revealed to all.
                await store.requeue_mining(table_id, self.clock())
                self._hold(table_id)
                return
            self.held.discard(table_id)
            found = await self._mine(table_id)
            await store.finish_mining(table_id, found, self.clock())
            self.mined += 1
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(store.requeue_mining(table_id, self.clock()))
            raise
        except Exception as exc:
            log.exception("the mining of %s failed", table_id)
            reason = exc.message if isinstance(exc, ProtocolError) else "the mining failed"
            await store.fail_mining(table_id, reason, self.clock())
        finally:
            self.running.discard(table_id)

    async def _mine(self, table_id: str) -> int:
        """The people's mistakes of one reviewed game kept as puzzles; how many."""
        row, _, _ = await self.queries.finished_game(table_id, SERVER)
        people = {s.seat: s.identity for s in row.seats if s.kind == SeatKind.PERSON and s.identity}
        review = await self.review_rows.load(table_id)
        if review is None or review.status != DONE or review.data is None:
            raise ProtocolError("not_reviewed", "the game has no finished review to mine")
        if not people:
            return 0
        record = Record.from_json(await self.queries.record(table_id, SERVER))
        values = json.loads(review.data)
        the_plan, known, mistaken = await asyncio.to_thread(_prepare, record, values)
        chosen: list[tuple[Spot, list[Option]]] = []
        for spot in the_plan:
            screened = known.get((spot.round, spot.play))
            if spot.seat in people and screened and (spot.round, spot.play) in mistaken:
                chosen.append((spot, screened))
        settings = self.settings
        source = None  # a puzzle never says where it comes from

        async def one(spot: Spot, screened: list[Option]) -> Puzzle | None:
            found = await self.scheduler.run(
                table_id, REVIEW, mine_decision, record, spot, settings, screened, source
            )
            await self.puzzles.touch_mining(table_id, self.clock())
            return found

        found = await asyncio.gather(*(one(spot, screened) for spot, screened in chosen))
        now = self.clock()
        kept = [
            MinedPuzzleRow(
                puzzle.id,
                puzzle.line(),
                table_id,
                spot.seat,
                people[spot.seat],
                puzzle.variant,
                puzzle.theme,
                puzzle.rating,
                now,
            )
            for (spot, _), puzzle in zip(chosen, found, strict=True)
            if puzzle is not None and puzzle.answer != spot.played.text()
        ]
        await self.puzzles.add_mined(kept)
        return len(kept)

    def _hold(self, table_id: str) -> None:
        """Keep a game queued until its deal is revealed to all: every held game is queued
        again every :attr:`PuzzleConfig.recheck` seconds (one timer for them all)."""
        self.held.add(table_id)
        if self._sweep is None:
            loop = asyncio.get_running_loop()
            self._sweep = loop.call_later(self.config.recheck, self._recheck)

    def _recheck(self) -> None:
        self._sweep = None
        held, self.held = self.held, set()
        for table_id in held:
            task = asyncio.create_task(self.queue.enqueue(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _retry_later(self, table_id: str) -> None:
        """Queue a game again once its job would be stale (its process may have died)."""
        loop = asyncio.get_running_loop()

        def again() -> None:
            self._later.discard(handle)
            task = asyncio.create_task(self.queue.enqueue(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        handle = loop.call_later(self.config.stale + 1, again)
        self._later.add(handle)


def _prepare(
    record: Record, review: dict[str, Any]
) -> tuple[tuple[Spot, ...], dict[tuple[int, int], list[Option]], set[tuple[int, int]]]:
    """The game's decisions (with their whole positions, for the proofs), the review's
    values of each, and the decisions it labelled a mistake or a blunder (round and play
    from 0). Off the event loop: it replays the game."""
    the_plan = plan(record, hindsight=True)
    mistaken = {
        (d["round"] - 1, d["play"] - 1)
        for d in review.get("decisions", [])
        if isinstance(d, dict) and d.get("label") in MISTAKES
    }
    return the_plan.spots, dict(review_values(review, record)), mistaken
