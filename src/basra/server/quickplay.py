"""Quick play: "Play now" pairs people waiting for the same kind of table, by rating.

A person joins the *pool* of a variant, a table size and teams (a *seek*,
over ``WS /ws/play``); the pool lives in the store (:class:`~basra.server.store.play.SeekRow`),
not in one process's memory, so every server process pairs the same pool, and
the default single process on SQLite works the same way. Every
:attr:`QuickPlayConfig.pair_every` seconds one process (the holder of a store
lease, taken over when it stops renewing it) makes a *pairing pass*: oldest
seek first, it looks for the people nearest in rating (their openskill mu in
the variant's family and table kind, :mod:`basra.server.ratings`) within the
seek's *rating window*, which widens while they wait (:func:`window`): from
:attr:`~QuickPlayConfig.window_start` mu, by :attr:`~QuickPlayConfig.window_growth`
a second, to anyone after :attr:`~QuickPlayConfig.window_full_after` seconds.
A seek may allow a *bot of similar strength* (the level whose fixed rating is
nearest, :func:`bot_level`) to fill the table after a wait it chooses
(``bot_after``); only people who allowed it sit with such a bot.

A group is seated in one store transaction that also creates its table
(:meth:`~basra.server.store.play.PlayStore.seat_seeks`): rated, the variant's
own rules, no hints, the default clock (:data:`~basra.server.clocks.DEFAULT_CONTROL`).
Its people hear ``matched`` from whichever process holds their connection (a
hub notice, and a heartbeat that reads the store in case a notice was lost).

What the pool decides:

- *Leaving*: ``cancel`` leaves the pool at once.
- *Reconnecting*: a dropped connection leaves its seek *away* (not paired)
  for :attr:`~QuickPlayConfig.away_grace` seconds; a ``seek`` for the same
  kind from a new connection in that time resumes it, keeping its place (the
  wait so far, so the window stays wide). A seek for another kind replaces it.
  A seek matched while its connection was down is answered ``matched``.
- *One seek per person*: a second connection seeking takes the seek over;
  the first hears ``replaced`` and is closed (4009).
- *At a table*: a person seated at a rated table still in play cannot seek
  (``at_table``, naming it); casual tables do not count. A table quick play
  made for them counts until it ends.
- A process that dies stops renewing its seeks: they leave the pool after
  :attr:`~QuickPlayConfig.stale_after` seconds.

``GET /api/quickplay`` says how many are waiting in each pool (the home page
shows it). The messages are in :data:`PROTOCOL`.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from basra.bots import LEVELS
from basra.rules import PRESETS
from basra.server.clocks import DEFAULT_CONTROL, TimeControl
from basra.server.forms import TableSpec
from basra.server.identity import Caller
from basra.server.protocol import ProtocolError, check_name
from basra.server.quotas import Allowance, RateLimitError
from basra.server.ratings import bot_ratings, family_of, new_rating, rating_json, table_kind
from basra.server.service import MatchService
from basra.server.sockets import Connection, pump, read_hello, refuse
from basra.server.store import SeatRow, TableRow
from basra.server.store.play import SeekRow

__all__ = [
    "PROTOCOL",
    "QuickPlay",
    "QuickPlayConfig",
    "bot_level",
    "plan_tables",
    "window",
]

log = logging.getLogger(__name__)

PROTOCOL = """\
Client to server (``WS /ws/play``)::

    {"type": "hello", "token": "<device token>", "name": "Amal"}     # first
    {"type": "seek", "variant": "egyptian", "players": 2, "teams": false,
     "bot_after": 30}              # seconds before a bot may fill the table; null: never
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
    {"type": "pong"}
"""
"""The quick-play messages."""

TYPES = ("hello", "seek", "cancel", "ping")
LEASE = "quickplay"
REPLACED_CLOSE = 4009


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
) -> list[SeekRow]:
    """Up to ``need`` seeks nearest ``anchor`` in mu within ``reach`` (none taken)."""
    at = bisect.bisect_left(keys, (anchor.mu, anchor.ticket))
    low, high = at - 1, at + 1
    found: list[SeekRow] = []
    while len(found) < need:
        while low >= 0 and by_mu[low].ticket in taken:
            low -= 1
        while high < len(by_mu) and by_mu[high].ticket in taken:
            high += 1
        left = by_mu[low] if low >= 0 else None
        right = by_mu[high] if high < len(by_mu) else None
        gap_left = anchor.mu - left.mu if left else float("inf")
        gap_right = right.mu - anchor.mu if right else float("inf")
        if min(gap_left, gap_right) > reach:
            break
        if gap_left <= gap_right and left is not None:
            found.append(left)
            low -= 1
        elif right is not None:
            found.append(right)
            high += 1
    return found


def plan_tables(
    seeks: Sequence[SeekRow], now: float, config: QuickPlayConfig
) -> list[list[SeekRow]]:
    """Groups to seat from one pool's present seeks (a group may be short: bots fill it).

    Oldest seek first, each takes the people nearest its rating within its
    window; a seek nobody is near enough sits with bots once its ``bot_after``
    has passed, together with near people whose own ``bot_after`` has passed.

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
        near = _nearest(by_mu, keys, anchor, reach, taken, size - 1)
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


def _seats(group: list[SeekRow], players: int, teams: bool, rng: random.Random) -> dict[str, int]:
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


def check_seek(data: dict[str, Any], config: QuickPlayConfig) -> SeekForm:
    """The checked ``seek`` message, or ``bad_seek`` naming the field."""
    unknown = sorted(set(data) - {"type", "variant", "players", "teams", "bot_after", "name"})
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
    name = data.get("name")
    return SeekForm(
        variant,
        players,
        teams,
        None if bot_after is None else float(bot_after),
        None if name is None else check_name(name),
    )


@dataclass(eq=False)
class _Seeker:
    """One quick-play connection."""

    conn: Connection
    id: str
    ticket: str | None = None
    pool: tuple[str, int, bool] | None = None
    seek: SeekRow | None = None
    done: bool = False


@dataclass
class QuickPlay:
    """The quick-play pool of a :class:`MatchService`: the endpoint, pairing and delivery."""

    match: MatchService
    config: QuickPlayConfig = field(default_factory=QuickPlayConfig)
    local: dict[str, _Seeker] = field(default_factory=dict)
    """Seekers connected to this process, by ticket."""
    tables: int = 0
    """Tables this process made."""
    _task: asyncio.Task[None] | None = None
    _counts: tuple[float, dict[tuple[str, int, bool], int]] = (0.0, {})
    _swept: float = 0.0
    _beat: float = 0.0

    def __post_init__(self) -> None:
        self.match.notice_handlers["quickplay"] = self.heard

    async def start(self) -> None:
        """Start pairing (the service is started)."""
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop pairing and close the connections."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        for seeker in list(self.local.values()):
            seeker.conn.close()

    # ---------------------------------------------------------------- the endpoint

    async def serve(self, websocket: WebSocket, address: str) -> None:
        """One ``WS /ws/play`` connection (accepted), from hello to close."""
        match = self.match
        try:
            hello = await read_hello(websocket, TYPES)
            token = hello.get("token")
            caller = await match.identities.authenticate(token if isinstance(token, str) else None)
            if caller is None:
                raise ProtocolError("signed_out", "sign in first: POST /api/identity gives a token")
            name = hello.get("name")
            name = check_name(name) if name is not None else caller.name
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await websocket.close(code=4000)
            return
        except ProtocolError as error:
            await refuse(websocket, error, 4001 if error.code == "signed_out" else 4000)
            return
        limits = match.quotas.limits
        try:
            match.quotas.hold(
                "connections",
                caller.identity,
                limits.connections_per_identity,
                "connections per person",
            )
        except RateLimitError as error:
            await refuse(websocket, error, 1013)
            return
        seeker = _Seeker(Connection("/ws/play", caller, name, address), secrets.token_hex(8))
        try:
            await pump(
                websocket,
                seeker.conn,
                Allowance(limits.messages_per_connection),
                TYPES,
                lambda message: self._handle(seeker, message),
            )
        finally:
            match.quotas.release("connections", caller.identity)
            await self._gone(seeker)

    async def _handle(self, seeker: _Seeker, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            seeker.conn.send({"type": "pong"})
        elif kind == "seek":
            await self._seek(seeker, check_seek(message, self.config))
        elif kind == "cancel":
            await self._cancel(seeker)
        else:
            raise ProtocolError("bad_message", "hello was already said on this connection")

    async def _seek(self, seeker: _Seeker, form: SeekForm) -> None:
        match = self.match
        caller = seeker.conn.caller
        assert isinstance(caller, Caller)
        identity = caller.identity
        if seeker.done:
            raise ProtocolError("matched", "this connection was matched already: connect again")
        now = time.time()
        pool = (form.variant, form.players, form.teams)
        existing = await match.store.seek_of(identity)
        if existing is not None and existing.table_id is not None:
            if await self._in_play(existing.table_id):
                self._send_matched(seeker, existing)  # matched while the connection was down
                return
            existing = None
        await self._check_free(identity)
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
            limits = match.quotas.limits
            match.quotas.take("seeks", identity, limits.seeks_per_identity, "quick-play seeks")
            family, kind = family_of(form.variant), table_kind(form.players, form.teams)
            found = (await match.store.ratings_in(family, kind, [identity])).get(identity)
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
            )
        await match.store.put_seek(seek)
        if seeker.ticket is not None and seeker.ticket != seek.ticket:
            self.local.pop(seeker.ticket, None)
        for other in [s for s in self.local.values() if s.seek and s.seek.identity == identity]:
            if other is not seeker:
                self._replace(other)
        seeker.ticket, seeker.pool, seeker.seek = seek.ticket, pool, seek
        self.local[seek.ticket] = seeker
        seeker.conn.send(self._seeking(seek, now, None))

    async def _in_play(self, table_id: str) -> bool:
        row = await self.match.store.load_table(table_id)
        return row is not None and row.status == "playing"

    async def _check_free(self, identity: str) -> None:
        """``at_table`` if the person sits at a rated table still in play."""
        store = self.match.store
        for game in await store.games_of(identity, limit=20):
            if game.status != "playing":
                continue
            row = await store.load_table(game.id)
            if row is not None and row.rated and row.status == "playing":
                raise ProtocolError(
                    "at_table",
                    "you are playing a rated game: finish it before looking for another",
                    {"table": row.id},
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
            "bot_after": seek.bot_after,
            "waited": round(waited, 1),
            "window": None if reach == float("inf") else round(reach, 2),
            "rating": rating_json(seek.mu, seek.sigma),
            "waiting": waiting,
        }

    async def _cancel(self, seeker: _Seeker) -> None:
        if seeker.ticket is not None:
            found = await self.match.store.seeks([seeker.ticket])
            if found and found[0].table_id is not None:
                self._send_matched(seeker, found[0])  # too late: the table is made
                return
            await self.match.store.drop_seeks([seeker.ticket])
            self.local.pop(seeker.ticket, None)
            seeker.ticket = seeker.seek = None
        seeker.conn.send({"type": "cancelled"})

    def _replace(self, seeker: _Seeker) -> None:
        if seeker.ticket is not None and self.local.get(seeker.ticket) is seeker:
            del self.local[seeker.ticket]
        seeker.ticket = seeker.seek = None
        seeker.done = True
        seeker.conn.send({"type": "replaced"})
        seeker.conn.close_with(REPLACED_CLOSE)

    async def _gone(self, seeker: _Seeker) -> None:
        """The connection closed: a waiting seek is away (it keeps its place a while)."""
        ticket = seeker.ticket
        if ticket is None or self.local.get(ticket) is not seeker:
            return
        del self.local[ticket]
        with contextlib.suppress(Exception):
            await self.match.store.set_away(ticket, seeker.id, time.time())

    def _send_matched(self, seeker: _Seeker, seek: SeekRow) -> None:
        if seeker.ticket is not None and self.local.get(seeker.ticket) is seeker:
            del self.local[seeker.ticket]
        seeker.done = True
        seeker.ticket = seeker.seek = None
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
            counts = await self.match.store.pool_counts(time.time() - self.config.stale_after)
            self._counts = (now, counts)
        return [
            {"variant": v, "players": p, "teams": t, "waiting": n}
            for (v, p, t), n in sorted(counts.items())
        ]

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
        store, config = self.match.store, self.config
        if await store.take_lease(LEASE, self.match.origin, now, config.lease_ttl):
            await self.pair(now)
            if now - self._swept >= 5.0:
                self._swept = now
                await store.sweep_seeks(
                    now - config.stale_after, now - config.away_grace, now - config.keep_matched
                )

    async def _heartbeat(self, now: float) -> None:
        """Renew the seeks held here; deliver matches a lost notice missed; say how it goes."""
        store = self.match.store
        seekers = list(self.local.values())
        if not seekers:
            return
        rows = {s.ticket: s for s in await store.seeks([k.ticket for k in seekers if k.ticket])}
        renew: list[_Seeker] = []
        for seeker in seekers:
            row = rows.get(seeker.ticket or "")
            if row is None or row.holder != seeker.id:
                self._replace(seeker)
            elif row.table_id is not None:
                self._send_matched(seeker, row)
            else:
                renew.append(seeker)
        await store.touch_seeks([s.ticket for s in renew if s.ticket], [s.id for s in renew], now)
        counts = {
            (c["variant"], c["players"], c["teams"]): c["waiting"] for c in await self.counts()
        }
        for seeker in renew:
            if seeker.seek is not None:
                waiting = counts.get(seeker.seek.pool, 0)
                seeker.conn.send(self._seeking(seeker.seek, now, waiting))

    async def pair(self, now: float) -> int:
        """One pairing pass over the whole pool; returns the tables made."""
        config = self.config
        fresh = now - config.stale_after
        pools: dict[tuple[str, int, bool], list[SeekRow]] = {}
        for seek in await self.match.store.open_seeks():
            if seek.away_since is None and seek.seen_at >= fresh:
                pools.setdefault(seek.pool, []).append(seek)
        groups = [g for seeks in pools.values() for g in plan_tables(seeks, now, config)]
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
                    lost = not await self.match.store.take_lease(
                        LEASE, self.match.origin, renewed, config.lease_ttl
                    )
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
                await self.match.hub.publish({"kind": "quickplay", "matched": matched})

        await asyncio.gather(*(make(g) for g in groups))
        return made

    async def _make_table(self, group: list[SeekRow], now: float) -> dict[str, list[Any]]:
        """Seat a group at a new rated table (bots fill what people do not)."""
        match = self.match
        first = group[0]
        players, teams = first.players, first.teams
        seats = _seats(group, players, teams, random.Random(match.rng.getrandbits(64)))
        level = bot_level(first.variant, players, teams, sum(s.mu for s in group) / len(group))
        people = {seats[s.ticket]: s for s in group}
        spec = TableSpec(
            variant=first.variant,
            overrides={},
            players=players,
            teams=teams,
            hints=False,
            seats=tuple(
                ("person", None) if seat in people else ("bot", level) for seat in range(players)
            ),
            my_seat=None,
            rated=True,
            clock=self.config.control,
        )
        seated = {
            seat: SeatRow(seat, "person", None, s.identity, s.name) for seat, s in people.items()
        }
        row = match.table_row(spec, seated, None, "quickplay")
        row.created_at = now
        if not await match.store.seat_seeks(seats, row, now):
            return {}  # someone left or was seated meanwhile: the next pass tries again
        self.tables += 1
        match.spawn(self._open(row))  # the first deal; the people need not wait for it
        return {s.ticket: [row.id, seats[s.ticket]] for s in group}

    async def _open(self, row: TableRow) -> None:
        """Load a table just made and start its game (a person connecting loads it too)."""
        try:
            await self.match.open_table(row)
        except Exception:
            log.exception("quick play could not open table %s", row.id)
