"""The tournaments as the routes see them: events listed, shown, made and entered; results
recorded; live frames for the event's watchers.

:class:`Tournaments` is made once per process (:class:`~basra.server.env.Env`). It
holds the events this process looks at (:class:`~.held.HeldEvents`), makes their
tables (:class:`~.tables.TournamentTables`), runs the events' clock while it holds
the lease (:class:`~.runner.EventClock`), and:

- records each game's result when its table's game is over, in whatever process
  stored the final play (:meth:`Tournaments.finished`, the lifecycle's finish
  listener), idempotently (a game's result is written once); a person or program
  whose seat forfeited is withdrawn until it comes back;
- after every change of an event (here, or heard on the bus: a ``tournament``
  notice), tells its watchers here: at once the ``you`` frame of each (their
  entry, and the table they are to play at now: ``paired`` when new), and at
  most every ``frames_every`` seconds the event's frame (its JSON: standings,
  pairings, games), made once for all of them.

The event socket's messages are in :data:`PROTOCOL`. An :data:`EntryRule` given at
construction (club-only events and club battles, :mod:`basra.server.features.clubs`) may
refuse a person's entry; :meth:`Tournaments.player_points` gives each entrant's people and
points to a feature that groups them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from basra.bot_names import bot_name, bots_name, partner_bot_name
from basra.pools import family_of, table_kind
from basra.server import words
from basra.server.connection import Connection, Frame
from basra.server.errors import ProtocolError
from basra.server.features.tournaments.store import (
    EnteredError,
    EntrantRow,
    TeamRow,
    TournamentRow,
    TournamentStore,
    TournamentWrite,
)
from basra.server.identity import Caller
from basra.server.quotas import Quotas, Rate, RateLimitError
from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import LeaseStore, PlayerStore, SecretStore
from basra.server.store.rows import CapReachedError, EventCap
from basra.server.table.finish import TableFinished
from basra.server.table.lifecycle import Lifecycle
from basra.server.table.ratings import EXTERNAL, bot_ratings, new_rating
from basra.tournaments import Entrant, EventSettings, GameResult, Member, TournamentError

from .config import TournamentConfig
from .entries import (
    check_entry_name,
    check_event_form,
    check_level,
    member_keys,
    person_entrant,
)
from .held import Held, HeldEvents
from .runner import ArenaEnded, EventClock, bot_entrant, new_event_id
from .tables import ProgramsSeated, TournamentTables, parse_owner
from .views import Titles, event_json, summary_json

__all__ = ["PROTOCOL", "TYPES", "EntryRule", "Player", "Tournaments", "Watcher"]

EntryRule = Callable[[str, str], Awaitable[None]]
"""Whether a person or program (an identity) may enter an event (its id): returns, or
raises the :class:`~basra.server.errors.ProtocolError` that says why not."""

log = logging.getLogger(__name__)

PROTOCOL = """\
Client to server (``WS /ws/tournaments/{id}``)::

    {"type": "hello", "token": "<device token, optional>", "invite": "<code, optional>"}
    {"type": "ping"}

Server to client::

    {"type": "event", "event": {...}}     # GET /api/tournaments/{id}'s JSON, on each change
    {"type": "you", "you": {"entrant": "e...", "withdrawn": false, "table": "AbC...",
     "organiser": false, ...}}           # the watcher's own entry
    {"type": "paired", "table": "AbC123xyZ00", "url": "/t/AbC123xyZ00"}   # your next game
    {"type": "pong"}
"""
"""The event socket's messages."""

TYPES = ("hello", "ping")
SECRET_NAME = "tournaments"
JOINS = Rate(30, 600)
"""Entries, withdrawals and comebacks a person may ask for in 10 minutes."""


@dataclass(frozen=True)
class Player:
    """Who enters or acts on an event: a person (a device's identity) or a bot program."""

    kind: str
    """``person`` or ``external``."""
    identity: str
    name: str | None

    @classmethod
    def of(cls, caller: Caller) -> Player:
        """A person."""
        return cls("person", caller.identity, caller.name)

    @classmethod
    def program(cls, identity: str, name: str) -> Player:
        """A bot program (through the bot API): its account's identity and name."""
        return cls("external", identity, name)

    @property
    def key(self) -> str:
        """Its player key (one entry per event)."""
        return f"{self.kind}:{self.identity}"


@dataclass(eq=False)
class Watcher:
    """A connection to an event's socket."""

    conn: Connection
    event_id: str
    identity: str | None
    you: dict[str, Any] | None = None
    told: set[str] = field(default_factory=set)
    """Tables it was told to go to."""


class Tournaments:
    """Events: listed, shown, made, entered, run and watched (see the module's docstring)."""

    def __init__(
        self,
        config: TournamentConfig,
        lifecycle: Lifecycle,
        store: TournamentStore,
        leases: LeaseStore,
        secrets_: SecretStore,
        players: PlayerStore,
        bus: Bus,
        quotas: Quotas,
        origin: str,
        programs: ProgramsSeated | None = None,
        clock: Callable[[], float] = time.time,
        arena_ended: ArenaEnded | None = None,
        entry_rule: EntryRule | None = None,
    ) -> None:
        self.entry_rule = entry_rule
        """Who may enter an event beyond the event's own rules (a club-only event's:
        :mod:`basra.server.features.clubs`); None: anyone."""
        self.config = config
        self.titles: Titles = {entry.name: entry.names for entry in config.schedule}
        """The schedule's events' names in other languages, by their default name."""
        self.store = store
        self.secrets = secrets_
        self.players = players
        self.bus = bus
        self.quotas = quotas
        self.clock = clock
        self.events = HeldEvents(store)
        self.tables = TournamentTables(lifecycle, self.events, programs)
        self.runner = EventClock(
            config,
            store,
            leases,
            self.events,
            self.tables,
            lifecycle,
            origin,
            self._publish,
            self.record,
            self.bot_seed,
            arena_ended,
        )
        self.watchers: dict[str, set[Watcher]] = {}
        self._framing: set[str] = set()
        self._last_frame: dict[str, float] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        bus.on("tournament", self.heard)
        lifecycle.on_finished(self.finished)

    async def prepare(self) -> None:
        """Read (or make, once) the server secret the boards are derived from: before any
        table is dealt."""
        self.tables.secret = await self.secrets.get_or_make(SECRET_NAME, os.urandom(32))

    async def start(self) -> None:
        """Start the events' clock (the tables are started)."""
        self.runner.start()

    async def close(self) -> None:
        """Stop the clock and the frames, and close the watchers' connections."""
        await self.runner.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for watchers in self.watchers.values():
            for watcher in list(watchers):
                watcher.conn.close()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---------------------------------------------------------------- reading

    async def _held(self, event_id: str) -> Held:
        held = await self.events.get(event_id)
        if held is None:
            raise ProtocolError("no_such_event", f"there is no tournament {event_id[:40]!r}")
        return held

    async def _visible(self, event_id: str, caller: Caller | None, invite: str | None) -> Held:
        """The event if the caller may see it: listed, by its invitation, its maker's, or
        one the caller entered."""
        held = await self._held(event_id)
        row = held.row
        if row.public or (invite is not None and secrets.compare_digest(invite, row.invite or "")):
            return held
        if caller is not None and (
            row.created_by == caller.identity or self._entry_of(held, caller.identity) is not None
        ):
            return held
        raise ProtocolError("no_such_event", f"there is no tournament {event_id[:40]!r}")

    def _entry_of(self, held: Held, identity: str) -> EntrantRow | None:
        for row in held.ordered_entrants():
            if any(m["ref"] == identity and m["kind"] != "bot" for m in row.data["members"]):
                return row
        return None

    async def _usernames(self, held: Held) -> dict[str, str]:
        people = [
            m["ref"]
            for e in held.ordered_entrants()
            for m in e.data["members"]
            if m["kind"] == "person"
        ]
        found = await self.players.accounts_of(people) if people else {}
        return {identity: account.username for identity, account in found.items()}

    async def listing(self, caller: Caller | None) -> dict[str, Any]:
        """``GET /api/tournaments``: upcoming, running and recent events (and the caller's)."""
        store = self.store

        def summaries(rows: list[TournamentRow]) -> list[dict[str, Any]]:
            out = []
            for row in rows:
                held = self.events.peek(row.id)
                count = len(held.ordered_entrants()) if held is not None else None
                out.append(summary_json(row, count, self.titles))
            return out

        mine: list[dict[str, Any]] = []
        if caller is not None:
            entered = {e for e, _ in await store.entered([f"person:{caller.identity}"])}
            made = await store.listing(
                ("created", "running", "finished"), 20, public=None, created_by=caller.identity
            )
            rows = {r.id: r for r in made}
            for event_id in entered - set(rows):
                found = await store.load(event_id)
                if found is not None:
                    rows[found.id] = found
            ordered = sorted(rows.values(), key=lambda r: -r.starts_at)[:20]
            mine = summaries(ordered)
        return {
            "upcoming": summaries(await store.listing(("created",), 50)),
            "running": summaries(await store.listing(("running",), 50)),
            "finished": summaries(await store.listing(("finished",), 20)),
            "mine": mine,
            "now": self.clock(),
        }

    async def detail(
        self, event_id: str, caller: Caller | None, invite: str | None = None
    ) -> dict[str, Any]:
        """``GET /api/tournaments/{id}``: the event's JSON and the caller's part in it."""
        held = await self._visible(event_id, caller, invite)
        out = event_json(held, await self._usernames(held), self.titles)
        out["you"] = self.you(held, caller.identity if caller else None)
        if caller is not None and held.row.created_by == caller.identity and held.row.invite:
            out["invite"] = held.row.invite
        out["now"] = self.clock()
        return out

    def you(self, held: Held, identity: str | None) -> dict[str, Any]:
        """The caller's part in an event: its entry, where it plays now, what it may do."""
        row = self._entry_of(held, identity) if identity is not None else None
        entrant = None if row is None else Entrant.from_json(row.data)
        open_ = held.row.status != "finished"
        return {
            "signed_in": identity is not None,
            "entrant": None if entrant is None else entrant.id,
            "name": None if entrant is None else entrant.name,
            "withdrawn": bool(entrant and entrant.withdrawn),
            "table": None if entrant is None else held.table_of(entrant.id),
            "organiser": identity is not None and held.row.created_by == identity,
            "can_join": identity is not None and entrant is None and held.event.joins_open,
            "open": open_,
        }

    async def player_points(self, event_id: str) -> dict[str, Any]:
        """An event's status and each entrant's people (their identities), name and points:
        what a feature grouping entrants reads (club battles)."""
        held = await self._held(event_id)
        points = {line.entrant: line.score for line in held.standings()}
        return {
            "status": held.row.status,
            "name": held.row.name,
            "finished_at": held.row.finished_at,
            "entrants": [
                {
                    "entrant": e.id,
                    "name": e.name,
                    "people": [m.ref for m in e.members if m.kind != "bot"],
                    "points": float(points.get(e.id, 0)),
                }
                for e in held.event.entrants
            ],
        }

    # ---------------------------------------------------------------- making

    async def talk_open(self, owner: str) -> bool:
        """Whether the event a table's owner key names opens talk at its rated games
        (its settings' ``talk``; :mod:`basra.server.features.talk` asks)."""
        game = parse_owner(owner)
        row = await self.store.load(game.event_id) if game is not None else None
        return row is not None and bool(row.settings.get("talk"))

    async def create(
        self, caller: Caller, data: dict[str, Any], address: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/tournaments``: a person's event (an account needed), made from
        ``address`` within the caps per person and per address (:meth:`caps`)."""
        if await self.players.account_of(caller.identity) is None:
            raise ProtocolError(
                "account_needed", "claim a username on the Account page to organise events"
            )
        now = self.clock()
        form = check_event_form(data, now, self.config)
        settings = form.settings
        row = TournamentRow(
            id=new_event_id(),
            name=form.name,
            settings=settings.to_json(),
            status="created",
            starts_at=form.starts_at,
            created_at=now,
            ends_at=form.starts_at + 60.0 * settings.minutes if settings.minutes else None,
            created_by=caller.identity,
            created_from=address,
            public=form.public,
            invite=None if form.public else secrets.token_urlsafe(9),
        )
        try:
            await self.store.create(row, caps=self.caps(caller.identity, address, now))
        except CapReachedError as full:
            cap = full.cap
            if not isinstance(cap, EventCap):
                raise
            if cap.since is None:
                raise RateLimitError(
                    "open_tournaments",
                    600,
                    f"{cap.what}: at most {cap.limit} at once (end or wait for one)",
                ) from None
            raise RateLimitError(
                "tournaments", 3600, f"{cap.what}: at most {cap.limit} a day"
            ) from None
        return await self.detail(row.id, caller)

    def caps(self, identity: str, address: str | None, now: float) -> list[EventCap]:
        """The caps a person's new event must fit, counted with its insert: events made in
        24 hours and events not finished, per person and per client address (so several
        accounts on one address share the address's)."""
        config, limits, day = self.config, self.quotas.limits, now - 86400.0
        caps = [
            EventCap(config.events_per_day, "events made per person", identity, since=day),
            EventCap(config.open_events, "events not finished per person", identity),
        ]
        if address is not None:
            caps += [
                EventCap(limits.events_per_address, "events made per address", None, address, day),
                EventCap(
                    limits.open_events_per_address, "events not finished per address", None, address
                ),
            ]
        return caps

    # ---------------------------------------------------------------- the operator

    async def cancel(self, event_id: str) -> list[str]:
        """End an event not finished as ``cancelled`` (``basra admin cancel-event``): no more
        rounds or pairings, results after it count for nobody. The tables of its games not
        yet over, for the caller to close."""
        held = await self._held(event_id)
        if held.row.status == "finished":
            raise ProtocolError("too_late", f"the tournament {held.id} is over already")
        write = TournamentWrite(status="finished", finished_at=self.clock(), ended="cancelled")
        version = await self.store.write(held.id, write)
        if version is not None:
            await self._publish(held.id, version)
        log.warning("tournament %s cancelled by the operator", held.id)
        return [game.table_id for game in held.open_games()]

    async def retitle(self, event_id: str, name: Any) -> str:
        """Give an event a new title (``basra admin rename-event``), checked as a maker's is."""
        held = await self._held(event_id)
        title = words.check_text("name", name, words.EVENT_TITLE)
        version = await self.store.write(held.id, TournamentWrite(name=title))
        if version is not None:
            await self._publish(held.id, version)
        return title

    def bot_seed(self, level: str, settings: EventSettings) -> float:
        """A server bot's seed: its fixed rating in the event's pool."""
        family, kind = family_of(settings.variant), table_kind(settings.seats, settings.teams)
        return bot_ratings().of(level, family, kind)[0]

    async def _seed(self, player: Player, settings: EventSettings) -> float:
        family, kind = family_of(settings.variant), table_kind(settings.seats, settings.teams)
        if player.kind == "external":
            return bot_ratings().of(EXTERNAL, family, kind)[0]
        found = (await self.players.ratings_in(family, kind, [player.identity])).get(
            player.identity
        )
        return found.mu if found is not None else new_rating()[0]

    # ---------------------------------------------------------------- entering

    async def join(
        self, player: Player, event_id: str, form: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """``POST /api/tournaments/{id}/join``: enter (a person, a program, a team), or, for
        the event's maker, enter server bots. The status and the answer."""
        self.quotas.take("tournament_entries", player.identity, JOINS, "tournament entries")
        caller = Caller(player.identity, "", player.name)
        held = await self._visible(event_id, caller, form.get("invite"))
        settings = held.settings
        if form.get("bot") is not None:
            return 201, await self._enter_bots(held, player, form)
        if self.entry_rule is not None:
            await self.entry_rule(held.id, player.identity)
        name = check_entry_name(form.get("name"), player.name)
        seed = await self._seed(player, settings)
        me = Member(player.kind, player.identity, name)
        if not settings.teams:
            entrant = person_entrant((me,), seed, name)
        elif form.get("partner_bot") is not None:
            level = check_level(form.get("partner_bot"), "partner_bot")
            partner = Member("bot", level, partner_bot_name(level))
            entrant = person_entrant((me, partner), seed)
        elif form.get("team_code") is not None:
            entrant = await self._team_entrant(held, me, seed, form.get("team_code"))
        elif form.get("team") == "new":
            return 201, await self._new_team(held, player, name)
        else:
            raise ProtocolError(
                "bad_entrant",
                "this event is for teams of two: make a team code, enter with one, "
                "or take a bot partner",
                {"field": "team"},
            )
        await self._enter(held.id, entrant)
        held = await self._held(held.id)
        return 201, {"entrant": entrant.id, "you": self.you(held, player.identity)}

    async def _enter(self, event_id: str, entrant: Entrant) -> int:
        """Write an entry under the event's version (read again and retried if it moved)."""
        for _ in range(8):
            held = await self._held(event_id)
            try:
                entered = held.event.join(entrant)
            except TournamentError as error:
                raise ProtocolError(error.code, str(error)) from None
            joined = entered.entrant(entrant.id)
            row = EntrantRow(joined.id, len(held.entrants), joined.to_json(), self.clock())
            try:
                version = await self.store.write(
                    event_id,
                    TournamentWrite(entrants=(row,), members=tuple(member_keys(joined))),
                    expect=held.version,
                )
            except EnteredError:
                raise ProtocolError("already_entered", "a player can enter an event once") from None
            if version is not None:
                await self._publish(event_id, version)
                return version
        raise ProtocolError("busy", "the event is changing fast: try again")

    async def _enter_bots(self, held: Held, player: Player, form: dict[str, Any]) -> dict[str, Any]:
        if held.row.created_by != player.identity:
            raise ProtocolError("not_organiser", "only the event's maker enters the server's bots")
        settings = held.settings
        if not settings.bots:
            raise ProtocolError("no_bots", "this event does not take the server's bots")
        level = check_level(form.get("bot"), "bot")
        count = form.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 16:
            raise ProtocolError("bad_settings", "count is 1 to 16 bots", {"field": "count"})
        bots = sum(1 for e in held.event.entrants if e.bots_only)
        if bots + count > self.config.bots_per_event:
            raise ProtocolError(
                "full", f"an event takes at most {self.config.bots_per_event} of the server's bots"
            )
        entered = []
        for i in range(count):
            number = bots + i + 1
            seed = self.bot_seed(level, settings)
            if settings.teams:
                members = tuple(
                    Member("bot", level, bot_name(f"{number}{mark}", level)) for mark in "ab"
                )
                entrant = person_entrant(members, seed, bots_name(number, level))
            else:
                entrant = Entrant.from_json(bot_entrant(level, number, seed, 0, 0.0).data)
            await self._enter(held.id, entrant)
            entered.append(entrant.id)
        return {"entrants": entered}

    async def _new_team(self, held: Held, player: Player, name: str) -> dict[str, Any]:
        if player.kind != "person":
            raise ProtocolError("bad_entrant", "a program enters a team event with a bot partner")
        if self._entry_of(held, player.identity) is not None:
            raise ProtocolError("already_entered", "you have entered this event already")
        if not held.event.joins_open:
            raise ProtocolError("too_late", "entries to this event are closed")
        code = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        await self.store.put_team(
            TeamRow(_code_hash(code), held.id, player.identity, name, self.clock())
        )
        return {
            "team_code": code,
            "url": f"/tournaments/{held.id}?team={code}",
            "you": self.you(held, player.identity),
        }

    async def _team_entrant(self, held: Held, me: Member, seed: float, code: Any) -> Entrant:
        if not isinstance(code, str) or len(code) > 40:
            raise ProtocolError(
                "bad_team_code", "that team code is not valid", {"field": "team_code"}
            )
        team = await self.store.team(_code_hash(code))
        if team is None or team.event_id != held.id:
            raise ProtocolError(
                "bad_team_code", "no team of this event has that code", {"field": "team_code"}
            )
        if team.identity == me.ref:
            raise ProtocolError(
                "bad_team_code", "a team is two people: give the code to your partner"
            )
        first = Member("person", team.identity, team.name)
        await self.store.drop_team(team.code_hash)
        return person_entrant((first, me), seed)

    async def withdraw(
        self, player: Player, event_id: str, entrant_id: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/withdraw``: leave (before the start the entry is gone;
        after it, not paired again until coming back). The maker may withdraw a bot."""
        return await self._change(player, event_id, entrant_id, back=False)

    async def come_back(
        self, player: Player, event_id: str, entrant_id: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/tournaments/{id}/come_back``: paired again from the next pairing."""
        return await self._change(player, event_id, entrant_id, back=True)

    async def _change(
        self, player: Player, event_id: str, entrant_id: str | None, *, back: bool
    ) -> dict[str, Any]:
        self.quotas.take("tournament_entries", player.identity, JOINS, "tournament entries")
        for _ in range(8):
            held = await self._held(event_id)
            target = self._target(held, player, entrant_id)
            if target is None:
                team = await self.store.team_of(held.id, player.identity)
                if team is not None and not back:
                    await self.store.drop_team(team.code_hash)
                    return {"you": self.you(held, player.identity)}
                raise ProtocolError("not_entered", "you have not entered this event")
            try:
                event = (
                    held.event.come_back(target.entrant_id)
                    if back
                    else held.event.withdraw(target.entrant_id)
                )
            except TournamentError as error:
                raise ProtocolError(error.code, str(error)) from None
            write = self._entry_change(held, event, target)
            version = await self.store.write(held.id, write, expect=held.version)
            if version is not None:
                await self._publish(held.id, version)
                held = await self._held(held.id)
                return {"you": self.you(held, player.identity)}
        raise ProtocolError("busy", "the event is changing fast: try again")

    def _target(self, held: Held, player: Player, entrant_id: str | None) -> EntrantRow | None:
        if entrant_id is None:
            return self._entry_of(held, player.identity)
        row = held.entrants.get(entrant_id)
        if row is None or row.gone:
            return None
        mine = any(m["ref"] == player.identity for m in row.data["members"])
        bots = all(m["kind"] == "bot" for m in row.data["members"])
        if mine or (bots and held.row.created_by == player.identity):
            return row
        raise ProtocolError("not_organiser", "only the event's maker withdraws its bots")

    def _entry_change(self, held: Held, event: Any, target: EntrantRow) -> TournamentWrite:
        ids = {e.id for e in event.entrants}
        if target.entrant_id not in ids:  # before the start: the entry is gone
            entrant = Entrant.from_json(target.data)
            keys = tuple(k for k, _ in member_keys(entrant))
            gone = EntrantRow(target.entrant_id, target.position, target.data, gone=True)
            return TournamentWrite(entrants=(gone,), released_members=keys)
        changed = event.entrant(target.entrant_id)
        row = EntrantRow(
            target.entrant_id,
            target.position,
            changed.to_json(),
            self.clock() if not changed.withdrawn else target.ready_at,
            target.playing,
        )
        return TournamentWrite(entrants=(row,))

    # ---------------------------------------------------------------- results

    async def finished(self, done: TableFinished) -> None:
        """A table's game is over (the lifecycle's finish listener): record it if it is an
        event's."""
        owner = parse_owner(done.owner)
        if owner is not None:
            await self.record(owner.event_id, done)

    async def record(self, event_id: str, done: TableFinished) -> None:
        """Record a finished game's result once (a second time changes nothing)."""
        held = await self.events.get(event_id)
        if held is None:
            return
        game = held.games.get(done.table_id)
        if game is None or game.result is not None:
            return
        if len(done.scores) != len(game.sides):
            log.error(
                "table %s: %d scores for %d sides", done.table_id, len(done.scores), len(game.sides)
            )
            return
        result = GameResult(
            game.sides,
            tuple(int(s) for s in done.scores),
            done.forfeited_sides,
            game.round,
            game.table,
            game.board,
            done.finished_at,
            done.table_id,
        )
        data: dict[str, Any] = result.to_json()
        withdrawn: tuple[EntrantRow, ...] = ()
        if held.row.status != "running":
            data["late"] = True  # the arena was over: the game counts for nobody
        else:
            try:
                held.event.record(result)
            except TournamentError as error:
                log.warning("table %s: result not counted: %s", done.table_id, error)
                data["late"] = True
            if self.config.withdraw_on_forfeit:
                withdrawn = self._forfeiters(held, result)
        write = TournamentWrite(result=(done.table_id, data, done.finished_at), entrants=withdrawn)
        version = await self.store.write(event_id, write)
        if version is not None:
            await self._publish(event_id, version)
            await self.tables.tell_revealed(event_id, game.round, game.board)

    def _forfeiters(self, held: Held, result: GameResult) -> tuple[EntrantRow, ...]:
        """Entrants of people or programs whose seat forfeited: withdrawn (paused)."""
        out = []
        for side in result.forfeited:
            row = held.entrants.get(result.sides[side])
            if row is None:
                continue
            entrant = Entrant.from_json(row.data)
            if entrant.withdrawn or entrant.bots_only:
                continue
            data = entrant.with_status(withdrawn=True).to_json()
            out.append(EntrantRow(row.entrant_id, row.position, data, row.ready_at, row.playing))
        return tuple(out)

    # ---------------------------------------------------------------- changes and frames

    async def _publish(self, event_id: str, version: int) -> None:
        """An event changed here: tell the other processes, and this one's watchers."""
        with contextlib.suppress(Exception):
            await self.bus.publish({"kind": "tournament", "event": event_id, "version": version})
        await self.changed(event_id)

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process changed an event."""
        event_id = notice.get("event")
        if isinstance(event_id, str) and len(event_id) <= 16:
            await self.changed(event_id)

    async def changed(self, event_id: str) -> None:
        """Wake the clock; tell this process's watchers of the event what is new for them."""
        self.runner.wake()
        watchers = self.watchers.get(event_id)
        if not watchers:
            return
        held = await self.events.get(event_id)
        if held is None:
            return
        for watcher in list(watchers):
            self._tell_you(held, watcher)
        if event_id not in self._framing:
            self._framing.add(event_id)
            self._spawn(self._frame_later(event_id))

    def _tell_you(self, held: Held, watcher: Watcher) -> None:
        you = self.you(held, watcher.identity)
        if you != watcher.you:
            watcher.you = you
            watcher.conn.send({"type": "you", "you": you})
        table = you["table"]
        if table is not None and table not in watcher.told:
            watcher.told.add(table)
            watcher.conn.send({"type": "paired", "table": table, "url": f"/t/{table}"})

    async def _frame_later(self, event_id: str) -> None:
        try:
            wait = self._last_frame.get(event_id, 0.0) + self.config.frames_every - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            self._framing.discard(event_id)  # a change from now on makes the next frame
        self._last_frame[event_id] = time.monotonic()
        watchers = self.watchers.get(event_id)
        held = await self.events.get(event_id)
        if not watchers or held is None:
            return
        frame = Frame(
            {"type": "event", "event": event_json(held, await self._usernames(held), self.titles)}
        )
        for watcher in list(watchers):
            watcher.conn.send(frame)

    # ---------------------------------------------------------------- watchers

    async def watch(self, conn: Connection, event_id: str, invite: str | None) -> Watcher:
        """A connection to the event's socket: sent the event and its ``you`` at once."""
        caller = conn.caller
        held = await self._visible(event_id, caller, invite)
        watcher = Watcher(conn, held.id, caller.identity if caller else None)
        you = self.you(held, watcher.identity)
        if you["table"] is not None:
            watcher.told.add(you["table"])  # already there, or on its way: no new news
        self.watchers.setdefault(held.id, set()).add(watcher)
        conn.send(
            {"type": "event", "event": event_json(held, await self._usernames(held), self.titles)}
        )
        watcher.you = you
        conn.send({"type": "you", "you": you})
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        """The connection closed."""
        watchers = self.watchers.get(watcher.event_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self.watchers[watcher.event_id]


def _code_hash(code: str) -> str:
    import hashlib

    return hashlib.sha256(f"basra-team/1|{code}".encode()).hexdigest()
