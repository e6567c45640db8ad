"""Quick play: "Play now" pairs people waiting for the same kind of table, by rating.

A person joins the *pool* of a variant, a table size and teams (a *seek*,
over ``WS /ws/play``); the pool lives in the store
(:class:`~basra.server.features.quickplay_store.SeekRow`), not in one process's memory, so
every server process pairs the same pool, and the default single process on
SQLite works the same way. Every ``pair_every`` seconds one process (the holder
of a store lease, taken over when it stops renewing it) makes a *pairing pass*
(:mod:`basra.server.features.pairing`): oldest seek first, it looks for the
people nearest in rating (their openskill mu in the variant's family and table
kind, :mod:`basra.server.table.ratings`) within the seek's *rating window*,
which widens while they wait: from ``window_start`` mu, by ``window_growth`` a
second, to anyone after ``window_full_after`` seconds
(:class:`~basra.server.features.pairing.QuickPlayConfig`). A seek may allow a
*bot of similar strength* (the level whose fixed rating is nearest) to fill the
table after a wait it chooses (``bot_after``); only people who allowed it sit
with such a bot.

A group is seated in one store transaction that also creates its table
(:meth:`~basra.server.features.quickplay_store.SeekStore.seat`), then opened by the
table lifecycle (:mod:`basra.server.table.lifecycle`): rated, the variant's own
rules, no hints, the default clock
(:data:`~basra.server.table.clocks.DEFAULT_CONTROL`), or, in the pools of "a
turn-based game" (a seek with ``days``: 1, 2, 3 or 7), that many days a move
(:mod:`basra.server.features.turns`). Its people hear
``matched`` from whichever process holds their connection (a hub notice, and a
heartbeat that reads the store in case a notice was lost).

What the pool decides:

- *Leaving*: ``cancel`` leaves the pool at once; so does signing the device out
  (:mod:`basra.server.revocation`): its connection is closed and its seek dropped.
- *Reconnecting*: a dropped connection leaves its seek *away* (not paired)
  for ``away_grace`` seconds; a ``seek`` for the same kind from a new
  connection in that time resumes it, keeping its place (the
  wait so far, so the window stays wide). A seek for another kind replaces it.
  A seek matched while its connection was down is answered ``matched``.
- *One seek per person*: a second connection seeking takes the seek over;
  the first hears ``replaced`` and is closed (4009).
- *At a table*: a person seated at a rated table still in play cannot seek
  (``at_table``, naming it); casual and turn-based tables do not count. A table quick play
  made for them counts until it ends.
- *Waiting after leaving*: a person who must wait before their next rated game
  cannot seek (``playban``, saying how long and why: the lifecycle's
  :attr:`~basra.server.table.lifecycle.Lifecycle.rated_gate`, reputation's); and
  people who leave often are paired with each other first (``leavers``).
- A process that dies stops renewing its seeks: they leave the pool after
  ``stale_after`` seconds.

``GET /api/quickplay`` says how many are waiting in each pool (the home page
shows it). The messages are in :data:`PROTOCOL`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from basra.server.connection import Connection
from basra.server.errors import ProtocolError
from basra.server.features.pairing import (
    QuickPlayConfig,
    SeekForm,
    bot_level,
    check_seek,
    plan_tables,
    seats_of,
    window,
)
from basra.server.features.quickplay_store import Pool, SeekRow, SeekStore
from basra.server.quotas import Quotas
from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import LeaseStore, PlayerStore, TableStore
from basra.server.store.rows import SeatKind, SeatRow, TableRow, TableStatus
from basra.server.table.admission import Budget
from basra.server.table.clocks import DAY, TimeControl
from basra.server.table.forms import TableSpec
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.ratings import family_of, new_rating, rating_json, table_kind

__all__ = ["LEASE", "PROTOCOL", "TYPES", "QuickPlay", "Seeker"]

log = logging.getLogger(__name__)

PROTOCOL = """\
Client to server (``WS /ws/play``)::

    {"type": "hello", "token": "<device token>", "name": "Amal"}     # first
    {"type": "seek", "variant": "egyptian", "players": 2, "teams": false,
     "bot_after": 30,              # seconds before a bot may fill the table; null: never
     "days": null}                 # 1, 2, 3 or 7: the pool of a turn-based game
    {"type": "cancel"}             # leave the pool
    {"type": "ping"}

Server to client::

    {"type": "seeking", "ticket": "...", "variant": "egyptian", "players": 2, "teams": false,
     "bot_after": 30, "waited": 4.5, "window": 4.25, "rating": {"mu": 25.0, ...},
     "waiting": 3}                 # on seeking, then every few seconds
    {"type": "matched", "table": "AbC123xy", "url": "/t/AbC123xy", "seat": 1}
    {"type": "cancelled"}
    {"type": "replaced"}           # another connection took the seek over (closed: 4009)
    {"type": "error", "code": "bad_seek", "field": "players", "message": "..."}
    {"type": "error", "code": "at_table", "table": "...", "message": "..."}
    {"type": "error", "code": "playban", "playban": {"minutes_left": 4, ...}, "message": "..."}
    {"type": "pong"}
"""
"""The quick-play messages."""

TYPES = ("hello", "seek", "cancel", "ping")
"""The messages a quick-play client may send."""
LEASE = "quickplay"
"""The store lease under which one process at a time pairs."""
REPLACED_CLOSE = 4009


@dataclass(eq=False)
class Seeker:
    """One quick-play connection and the seek it holds."""

    conn: Connection
    id: str
    ticket: str | None = None
    pool: Pool | None = None
    seek: SeekRow | None = None
    done: bool = False


class QuickPlay:
    """The quick-play pool: seeks, pairing passes, and delivering tables to seekers."""

    def __init__(
        self,
        config: QuickPlayConfig,
        lifecycle: Lifecycle,
        seeks: SeekStore,
        leases: LeaseStore,
        tables: TableStore,
        players: PlayerStore,
        bus: Bus,
        quotas: Quotas,
        origin: str,
        rng: random.Random | None = None,
        on_matched: Callable[[float], object] | None = None,
        blocks: Callable[[Sequence[str]], Awaitable[set[frozenset[str]]]] | None = None,
        leavers: Callable[[Sequence[str]], Awaitable[set[str]]] | None = None,
    ) -> None:
        self.leavers = leavers
        """Who among some identities leaves often (reputation's), paired with each other
        first."""
        self.on_matched = on_matched
        self.blocks = blocks
        """The pairs of identities never seated together (the friends' blocks query)."""
        """Told how long each seek of this process waited for its table (the metrics)."""
        self.config = config
        self.lifecycle = lifecycle
        self.seeks = seeks
        self.leases = leases
        self.tables = tables
        self.players = players
        self.bus = bus
        self.quotas = quotas
        self.origin = origin
        self.rng = rng or random.SystemRandom()
        self.local: dict[str, Seeker] = {}
        """Seekers connected to this process, by ticket."""
        self.made = 0
        """Tables this process made."""
        self._task: asyncio.Task[None] | None = None
        self._opening: set[asyncio.Task[Any]] = set()
        self._counts: tuple[float, dict[Pool, int]] = (0.0, {})
        self._swept = 0.0
        self._beat = 0.0
        bus.on("quickplay", self.heard)

    async def start(self) -> None:
        """Start pairing (the tables are started)."""
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop pairing and close the connections."""
        for task in [self._task, *self._opening]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for seeker in list(self.local.values()):
            seeker.conn.close()

    # ---------------------------------------------------------------- connections

    def seeker(self, connection: Connection) -> Seeker:
        """A connection that said hello (its caller signed in): ready to seek."""
        return Seeker(connection, secrets.token_hex(8))

    async def handle(self, seeker: Seeker, message: dict[str, Any]) -> None:
        """One message of a seeker's connection (a refusal raises ProtocolError)."""
        kind = message["type"]
        if kind == "ping":
            seeker.conn.send({"type": "pong"})
        elif kind == "seek":
            await self._seek(seeker, check_seek(message, self.config))
        elif kind == "cancel":
            await self._cancel(seeker)
        else:
            raise ProtocolError("bad_message", "hello was already said on this connection")

    async def _seek(self, seeker: Seeker, form: SeekForm) -> None:
        caller = seeker.conn.caller
        assert caller is not None
        identity = caller.identity
        if seeker.done:
            raise ProtocolError("matched", "this connection was matched already: connect again")
        now = time.time()
        pool = (form.variant, form.players, form.teams, form.days)
        existing = await self.seeks.of_identity(identity)
        if existing is not None and existing.table_id is not None:
            if await self._in_play(existing.table_id):
                self._send_matched(seeker, existing)  # matched while the connection was down
                return
            existing = None
        if form.days is None:  # a turn-based game waits for days: it keeps nobody out
            await self._check_free(identity)
        await self.lifecycle.check_rated(identity)  # quick play's tables are rated
        name = form.name or seeker.conn.name or caller.name or "Player"
        if existing is not None and existing.pool == pool:
            seek = replace(
                existing,
                name=name,
                bot_after=form.bot_after,
                holder=seeker.id,
                seen_at=now,
                away_since=None,
            )
        else:
            limits = self.quotas.limits
            self.quotas.take("seeks", identity, limits.seeks_per_identity, "quick-play seeks")
            family, kind = family_of(form.variant), table_kind(form.players, form.teams)
            found = (await self.players.ratings_in(family, kind, [identity])).get(identity)
            mu, sigma = (found.mu, found.sigma) if found else new_rating()
            seek = SeekRow(
                ticket=secrets.token_hex(8),
                identity=identity,
                name=name,
                variant=form.variant,
                players=form.players,
                teams=form.teams,
                mu=mu,
                sigma=sigma,
                joined_at=now,
                bot_after=form.bot_after,
                seen_at=now,
                holder=seeker.id,
                days=form.days,
            )
        await self.seeks.put(seek)
        if seeker.ticket is not None and seeker.ticket != seek.ticket:
            self.local.pop(seeker.ticket, None)
        for other in [s for s in self.local.values() if s.seek and s.seek.identity == identity]:
            if other is not seeker:
                self._replace(other)
        seeker.ticket, seeker.pool, seeker.seek = seek.ticket, pool, seek
        self.local[seek.ticket] = seeker
        seeker.conn.send(self._seeking(seek, now, None))

    async def _in_play(self, table_id: str) -> bool:
        row = await self.tables.load(table_id)
        return row is not None and row.status == TableStatus.PLAYING

    async def _check_free(self, identity: str) -> None:
        """``at_table`` if the person sits at a rated table still in play (a turn-based
        one does not count: a person has many at once)."""
        table = await self.tables.rated_in_play(identity, below=DAY)
        if table is not None:
            raise ProtocolError(
                "at_table",
                "you are playing a rated game: finish it before looking for another",
                {"table": table},
            )

    def _seeking(self, seek: SeekRow, now: float, waiting: int | None) -> dict[str, Any]:
        waited = max(0.0, now - seek.joined_at)
        reach = window(self.config, waited)
        return {
            "type": "seeking",
            "ticket": seek.ticket,
            "variant": seek.variant,
            "players": seek.players,
            "teams": seek.teams,
            "days": seek.days,
            "bot_after": seek.bot_after,
            "waited": round(waited, 1),
            "window": None if reach == float("inf") else round(reach, 2),
            "rating": rating_json(seek.mu, seek.sigma),
            "waiting": waiting,
        }

    async def _cancel(self, seeker: Seeker) -> None:
        if seeker.ticket is not None:
            found = await self.seeks.get([seeker.ticket])
            if found and found[0].table_id is not None:
                self._send_matched(seeker, found[0])  # too late: the table is made
                return
            await self.seeks.drop([seeker.ticket])
            self.local.pop(seeker.ticket, None)
            seeker.ticket = seeker.seek = None
        seeker.conn.send({"type": "cancelled"})

    def _replace(self, seeker: Seeker) -> None:
        if seeker.ticket is not None and self.local.get(seeker.ticket) is seeker:
            del self.local[seeker.ticket]
        seeker.ticket = seeker.seek = None
        seeker.done = True
        seeker.conn.send({"type": "replaced"})
        seeker.conn.close_with(REPLACED_CLOSE)

    async def gone(self, seeker: Seeker) -> None:
        """The connection closed: a waiting seek is away (it keeps its place a while), or
        dropped when its device was signed out."""
        ticket = seeker.ticket
        if ticket is None or self.local.get(ticket) is not seeker:
            return
        del self.local[ticket]
        with contextlib.suppress(Exception):
            if seeker.conn.revoked:
                await self.seeks.drop([ticket])
            else:
                await self.seeks.set_away(ticket, seeker.id, time.time())

    def _send_matched(self, seeker: Seeker, seek: SeekRow) -> None:
        if seeker.ticket is not None and self.local.get(seeker.ticket) is seeker:
            del self.local[seeker.ticket]
        seeker.done = True
        seeker.ticket = seeker.seek = None
        if self.on_matched is not None:
            self.on_matched(max(0.0, time.time() - seek.joined_at))
        table = str(seek.table_id)
        seeker.conn.send(
            {"type": "matched", "table": table, "url": f"/t/{table}", "seat": seek.seat}
        )

    def _deliver(self, matched: dict[str, Any]) -> None:
        """Tell this process's seekers of a pass's tables (ticket -> [table, seat])."""
        for ticket, place in matched.items():
            seeker = self.local.get(ticket)
            if seeker is not None and seeker.seek is not None:
                self._send_matched(seeker, replace(seeker.seek, table_id=place[0], seat=place[1]))

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process's pass seated some seeks."""
        matched = notice.get("matched")
        if isinstance(matched, dict):
            self._deliver(
                {str(t): v for t, v in matched.items() if isinstance(v, list) and len(v) == 2}
            )

    # ---------------------------------------------------------------- counts

    async def counts(self) -> list[dict[str, Any]]:
        """How many are waiting in each pool (read at most once a second)."""
        now = time.monotonic()
        stamp, counts = self._counts
        if now - stamp >= 1.0:
            counts = await self.seeks.pool_counts(time.time() - self.config.stale_after)
            self._counts = (now, counts)
        out: list[dict[str, Any]] = []
        for (v, p, t, d), n in sorted(counts.items(), key=lambda c: (*c[0][:3], c[0][3] or 0)):
            pool: dict[str, Any] = {"variant": v, "players": p, "teams": t, "waiting": n}
            if d is not None:  # a turn-based game's pool
                pool["days"] = d
            out.append(pool)
        return out

    # ---------------------------------------------------------------- pairing

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.config.pair_every)
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a quick-play pass failed")

    async def step(self) -> None:
        """Renew this process's seeks when due, and pair if this process holds the lease."""
        now = time.time()
        if now - self._beat >= self.config.heartbeat:
            self._beat = now
            await self._heartbeat(now)
        config = self.config
        if await self.leases.take(LEASE, self.origin, now, config.lease_ttl):
            await self.pair(now)
            if now - self._swept >= 5.0:
                self._swept = now
                await self.seeks.sweep(
                    now - config.stale_after, now - config.away_grace, now - config.keep_matched
                )

    async def _heartbeat(self, now: float) -> None:
        """Renew the seeks held here; deliver matches a lost notice missed; say how it goes."""
        seekers = list(self.local.values())
        if not seekers:
            return
        rows = {s.ticket: s for s in await self.seeks.get([k.ticket for k in seekers if k.ticket])}
        renew: list[Seeker] = []
        for seeker in seekers:
            row = rows.get(seeker.ticket or "")
            if row is None or row.holder != seeker.id:
                self._replace(seeker)
            elif row.table_id is not None:
                self._send_matched(seeker, row)
            else:
                renew.append(seeker)
        await self.seeks.touch([s.ticket for s in renew if s.ticket], [s.id for s in renew], now)
        counts = {
            (c["variant"], c["players"], c["teams"], c.get("days")): c["waiting"]
            for c in await self.counts()
        }
        for seeker in renew:
            if seeker.seek is not None:
                waiting = counts.get(seeker.seek.pool, 0)
                seeker.conn.send(self._seeking(seeker.seek, now, waiting))

    async def pair(self, now: float) -> int:
        """One pairing pass over the whole pool; returns the tables made."""
        config = self.config
        fresh = now - config.stale_after
        pools: dict[Pool, list[SeekRow]] = {}
        for seek in await self.seeks.waiting():
            if seek.away_since is None and seek.seen_at >= fresh:
                pools.setdefault(seek.pool, []).append(seek)
        blocked: set[frozenset[str]] = set()
        if self.blocks is not None and pools:
            blocked = await self.blocks([s.identity for seeks in pools.values() for s in seeks])
        leavers: set[str] = set()
        if self.leavers is not None and pools:
            leavers = await self.leavers([s.identity for seeks in pools.values() for s in seeks])
        groups = [
            g for seeks in pools.values() for g in plan_tables(seeks, now, config, blocked, leavers)
        ]
        if not groups:
            return 0
        limit = asyncio.Semaphore(config.tables_at_once)
        made = 0
        renewed, lost = time.time(), False
        renewing = asyncio.Lock()

        async def still_ours() -> bool:
            """Renew the lease while a long pass goes on; False once another process has it
            (it pairs from now on: this pass leaves it the groups not yet seated)."""
            nonlocal renewed, lost
            async with renewing:
                if not lost and time.time() - renewed > config.lease_ttl / 3:
                    renewed = time.time()
                    lost = not await self.leases.take(LEASE, self.origin, renewed, config.lease_ttl)
                return not lost

        async def make(group: list[SeekRow]) -> None:
            nonlocal made
            async with limit:
                if not await still_ours():
                    return
                try:
                    matched = await self._make_table(group, now)
                except Exception:
                    log.exception("quick play could not seat %d people", len(group))
                    return
            if matched:  # tell each table's people at once, not at the end of the pass
                made += 1
                self._deliver(matched)
                await self.bus.publish({"kind": "quickplay", "matched": matched})

        await asyncio.gather(*(make(g) for g in groups))
        return made

    async def _make_table(self, group: list[SeekRow], now: float) -> dict[str, list[Any]]:
        """Seat a group at a new rated table (bots fill what people do not)."""
        first = group[0]
        players, teams = first.players, first.teams
        seats = seats_of(group, players, teams, random.Random(self.rng.getrandbits(64)))
        level = bot_level(first.variant, players, teams, sum(s.mu for s in group) / len(group))
        people = {seats[s.ticket]: s for s in group}
        spec = TableSpec(
            variant=first.variant,
            overrides={},
            players=players,
            teams=teams,
            hints=False,
            seats=tuple(
                (SeatKind.PERSON, None) if seat in people else (SeatKind.BOT, level)
                for seat in range(players)
            ),
            my_seat=None,
            rated=True,
            clock=self.config.control if first.days is None else TimeControl.days(first.days),
        )
        seated = {
            seat: SeatRow(seat, SeatKind.PERSON, None, s.identity, s.name)
            for seat, s in people.items()
        }
        row = self.lifecycle.plan(spec, seated, None, "quickplay")
        row.created_at = now
        caps = self.lifecycle.admission.admit(row, Budget(paired=True))
        if not await self.seeks.seat(seats, row, now, caps):
            return {}  # someone left or was seated meanwhile: the next pass tries again
        self.made += 1
        task = asyncio.create_task(self._open(row))  # the first deal; people need not wait
        self._opening.add(task)
        task.add_done_callback(self._opening.discard)
        return {s.ticket: [row.id, seats[s.ticket]] for s in group}

    async def _open(self, row: TableRow) -> None:
        """Load a table just made and start its game (a person connecting loads it too)."""
        try:
            await self.lifecycle.open(row)
        except Exception:
            log.exception("quick play could not open table %s", row.id)
