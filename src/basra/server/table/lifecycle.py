"""A table's life, in one place: created, opened, started, rematched, abandoned, finished.

lichess's ``round`` module has its ``Finisher`` and ``Rematcher`` beside the
``MovePlayer``; here :class:`Lifecycle` is every transition of a table's row,
beside the master (:mod:`basra.server.table.master`), which writes its log:

- **created**: :meth:`Lifecycle.plan` makes a new table's row from a checked
  :class:`~basra.server.table.forms.TableSpec` (seats given or open, a first
  dealer drawn); :meth:`Lifecycle.create` stores a person's table (the bot API's
  too) within their rates, then **admitted**.
- **admitted**: every table anyone makes is admitted by the one rule
  (:mod:`basra.server.table.admission`: :attr:`Lifecycle.admission`), against a
  :class:`~basra.server.table.admission.Budget` (whom it counts against), its caps
  counted with the insert.

  :meth:`Lifecycle.add` stores a table the server makes itself, admitted;
  :meth:`Lifecycle.add_once` a feature's table made once under its owner key (a
  tournament's); :meth:`Lifecycle.record` stores a game played elsewhere with its
  log, and :meth:`Lifecycle.record_more` what it went on with. Quick play and the
  daily deal store their admitted tables in their own transactions (with the seeks
  seated, with the attempt) and then :meth:`Lifecycle.open` them.
- **opened**: loaded into the master and its automatic actions planned (the
  first deal). Packs come from the master's pack sources, or are shuffled
  (:meth:`Lifecycle.deal_with`).
- **started**: a table is ``open`` while a person's seat is free, and starts
  (``playing``) with the join that fills the last one, in the same store
  transaction (:meth:`Lifecycle.join`); a table with no seat to fill starts at once.
- **rematched**: after the game, one tap each (:meth:`Lifecycle.rematch`): each seated
  person's tap is kept (``taps``: shared by every process, so taps given in two processes
  count together) and shown to the others (:meth:`Lifecycle.on_rematch_tap`); once every
  seated person has tapped, the same table again (once per table), the seats rotated by one
  (each person and bot one seat on), the same first seat dealing. Without ``taps`` (a
  lifecycle made alone), the first tap makes it.
- **abandoned**: a table nobody is connected to ends as abandoned after
  ``abandon_after`` seconds (``abandon_bots_after`` for all-bot tables); it keeps
  its log but plays no more (:meth:`Lifecycle.abandon`). A turn-based table
  (days per move) never is: its people are expected to be away.
- **closed** and **left for good**, by the operator: :attr:`Lifecycle.operator`
  (:mod:`basra.server.table.operator`) ends a table as abandoned at once, settles the
  tables of a person shut out (those waiting end as abandoned; in play, a stand-in plays
  their seat at once) and renames their seats everywhere, ending tables through
  :meth:`Lifecycle.abandon`.
- **finished**: the final play is stored with the ``over`` status by the master;
  the game is then settled once (:mod:`basra.server.table.finish`), and the
  features that made tables hear of it (:meth:`Lifecycle.on_finished`).

Tables a feature makes (a tournament's games) carry what they are to it
(:meth:`Lifecycle.plan`'s ``owner``, ``private``, ``forfeits``, ``lasting``):
an owner key makes their creation idempotent (:meth:`Lifecycle.add_once`: the
table's id is derived from the key, so a pairing re-applied after a crash, or
by another process, opens the table made first); a private table is left out
of the lobby, cannot be watched, and its record, replay and review are shown
only as the disclosure policy allows (:attr:`Lifecycle.disclosure`,
:mod:`basra.server.table.disclosure`, which the features that make hidden tables
tell when their deals may be shown); ``forfeits`` applies
the forfeit rule though the table is unrated; a ``lasting`` table is never
abandoned (the autopilot plays its absent seats to the end, so every game a
feature pairs yields a result). Before a person sits at a rated table (making one in
their seat, taking a seat, asking for a rematch) the :attr:`Lifecycle.rated_gate` is
asked (reputation's playban, :mod:`basra.server.features.reputation`).
:meth:`Lifecycle.finished` reads a finished table's result back from the store, for a
feature that checks at start for results a crash kept from it.

:meth:`Lifecycle.resume` picks every table waiting or in play that no live process
owns back up when a server starts, mending a status a crash left torn (the log is
the truth). Each table opened is placed with one owner among the processes
(:mod:`basra.server.table.ownership`), which plans its automatic actions and its
abandoning; :meth:`Lifecycle.adopt` takes a table over from the stored log when
its owner drained or died.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace

from basra.server.errors import ProtocolError
from basra.server.identity import Caller
from basra.server.quotas import Quotas
from basra.server.store.protocols import IdentityStore, TableStore
from basra.server.store.rows import (
    LIVE_STATUSES,
    CapReachedError,
    Event,
    SeatKind,
    SeatRow,
    Status,
    TableRow,
    TableStatus,
    seats_filled,
)
from basra.server.table.admission import Admission, Budget, SeatRule
from basra.server.table.disclosure import Disclosure
from basra.server.table.finish import Finisher, TableFinished, table_finished
from basra.server.table.forms import TableSpec
from basra.server.table.live import Client, LiveTable, ServiceConfig
from basra.server.table.master import PackSource, TableMaster
from basra.server.table.operator import Operator
from basra.server.table.reducer import abandoned, join, opening_status, status_after

__all__ = [
    "FinishListener",
    "Lifecycle",
    "RatedGate",
    "new_table_id",
    "owned_table_id",
    "rotated",
]

log = logging.getLogger(__name__)

FinishListener = Callable[[TableFinished], Awaitable[None]]
"""Told of a finished table a feature made (its ``owner`` is set)."""
RatedGate = Callable[[str], Awaitable[None]]
"""Refuses (raises a :class:`~basra.server.errors.ProtocolError`) an identity that may not
sit at a rated table now (:attr:`Lifecycle.rated_gate`)."""
RematchTaps = Callable[[str, str, float], Awaitable[set[str]]]
"""Keep a person's rematch tap at a table (table id, identity, time); everyone who tapped
there so far, in every process (:meth:`ChallengeStore.tap`)."""
TapListener = Callable[[TableRow, str, set[str]], Awaitable[None]]
"""Told of a rematch tap: the finished table, who tapped, everyone who tapped so far."""


def rotated(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """Every seat's occupant one seat on (the last to the first), renumbered: a rematch's
    seats. Partners stay partners (seats two apart stay two apart)."""
    moved = [seats[-1], *seats[:-1]]
    return [replace(seat, seat=n) for n, seat in enumerate(moved)]


def new_table_id() -> str:
    """A new table's id: 8 URL-safe characters."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def owned_table_id(owner: str) -> str:
    """The id of the table made for an owner key: 11 URL-safe characters derived from it
    (never the 8 of :func:`new_table_id`), so making it again finds the first one.

    >>> owned_table_id("tournament:e1:1:0:0") == owned_table_id("tournament:e1:1:0:0")
    True
    """
    digest = hashlib.sha256(f"basra-owned/1|{owner}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:11].replace("-", "x").replace("_", "y")


class Lifecycle:
    """Creates, opens, starts, rematches, abandons and finishes the tables of a master."""

    def __init__(
        self,
        master: TableMaster,
        finisher: Finisher,
        tables: TableStore,
        identities: IdentityStore,
        quotas: Quotas,
        config: ServiceConfig,
        rng: random.Random | None = None,
        seat_rule: SeatRule | None = None,
        taps: RematchTaps | None = None,
    ) -> None:
        self.taps = taps
        """Where rematch taps are kept (None: the first tap makes the rematch)."""
        self._tap_listeners: list[TapListener] = []
        self.master = master
        self.finisher = finisher
        self.tables = tables
        self.identities = identities
        self.quotas = quotas
        self.admission = Admission(quotas, seat_rule)
        """The one rule of admission: the caps a new table must fit, whom it counts against."""
        self.config = config
        self.rng = rng or random.SystemRandom()
        self._finish_listeners: list[FinishListener] = []
        self.disclosure = Disclosure(tables)
        """Who may see a table's cards (features with hidden tables tell it when)."""
        self.operator = Operator(master, tables, self.abandon)
        """The operator's verbs: close a table, settle a person's for good, rename seats."""
        self.rated_gate: RatedGate | None = None
        """Asked before a person sits at a rated table (making one with their seat, taking a
        seat, a rematch): raises a refusal when they may not (reputation's playban)."""
        master.listen(self)

    # ---------------------------------------------------------------- created

    def plan(
        self,
        spec: TableSpec,
        seated: Mapping[int, SeatRow],
        created_by: str | None,
        created_from: str | None,
        *,
        first_dealer: int | None = None,
        owner: str | None = None,
        private: bool = False,
        forfeits: bool = False,
        lasting: bool = False,
    ) -> TableRow:
        """A new table's row (not stored): ``seated`` where given, the spec's seats
        elsewhere; ``playing`` at once when nobody is left to join.

        A feature's table names its ``owner`` key (its id is then derived from it:
        :func:`owned_table_id`), and may be ``private``, apply the forfeit rule though
        unrated (``forfeits``), and never be abandoned (``lasting``).
        """
        seats = [
            seated.get(index) or SeatRow(index, kind, level)
            for index, (kind, level) in enumerate(spec.seats)
        ]
        return TableRow(
            id=new_table_id() if owner is None else owned_table_id(owner),
            variant=spec.variant,
            rules=spec.overrides,
            players=spec.players,
            teams=spec.teams,
            first_dealer=(
                self.rng.randrange(spec.players) if first_dealer is None else first_dealer
            ),
            hints=spec.hints,
            seats=seats,
            status=opening_status(seats),
            created_at=time.time(),
            created_by=created_by,
            created_from=created_from,
            rated=spec.rated,
            clock_move=spec.clock.move if spec.clock else None,
            clock_reserve=spec.clock.reserve if spec.clock else None,
            owner=owner,
            private=private,
            forfeits=forfeits,
            lasting=lasting,
        )

    # ---------------------------------------------------------------- admitted

    async def create(
        self,
        caller: Caller,
        address: str,
        name: str,
        spec: TableSpec,
        seated: Mapping[int, SeatRow] | None = None,
    ) -> TableRow:
        """Create a checked table within the caller's quotas, and open it.

        ``seated`` fills seats beyond the creator's (a bot program's, see
        :mod:`basra.server.features.botapi`).
        """
        limits = self.quotas.limits
        identity = caller.identity
        # The rates first: they cost nothing to check; the caps are counted with the insert.
        self.quotas.take("tables", identity, limits.tables_per_identity, "tables per person")
        self.quotas.take("tables", address, limits.tables_per_address, "tables per address")
        seats = {**(seated or {})}
        if spec.my_seat is not None:
            seats[spec.my_seat] = SeatRow(spec.my_seat, SeatKind.PERSON, None, identity, name)
        row = self.plan(spec, seats, identity, address)
        if row.rated and spec.my_seat is not None:
            await self.check_rated(identity)
        await self.add(row, Budget(identity, address))
        await self.identities.name(identity, name)
        return row

    async def add(self, row: TableRow, budget: Budget) -> LiveTable | None:
        """Store a planned table if it is admitted against ``budget`` (``rate_limited``
        naming the full cap else), and open it."""
        try:
            await self.tables.create(row, self.admission.admit(row, budget))
        except CapReachedError as full:
            raise self.admission.refusal(full) from None
        return await self.open(row)

    async def add_once(self, row: TableRow, budget: Budget) -> LiveTable | None:
        """Store a feature's planned table (its id derived from its ``owner`` key) unless it
        was made already, if it is admitted against ``budget`` (``rate_limited`` else: the
        feature tries again later), and open it: a pairing re-applied after a crash, or by
        another process, opens the table made first and never makes a second."""
        if row.owner is None or row.id != owned_table_id(row.owner):
            raise ValueError("add_once takes a table planned with an owner key")
        try:
            await self.tables.create(row, self.admission.admit(row, budget))
        except (ValueError, CapReachedError) as error:
            live = await self.master.get(row.id)  # made already: open it, as it stands now
            if live is None and isinstance(error, CapReachedError):
                raise self.admission.refusal(error) from None
            if live is not None:
                await self._place(live)
            return live
        return await self.open(row)

    async def open(self, row: TableRow) -> LiveTable | None:
        """Load a table just stored, give it an owner, and (if this process owns it) plan
        its automatic actions (the first deal)."""
        live = await self.master.get(row.id, row)
        if live is not None:
            await self._place(live)
        return live

    async def _place(self, live: LiveTable) -> None:
        """Give a table an owner (:meth:`Ownership.place`); if it is this process, plan its
        automatic actions and its abandoning here."""
        if await self.master.ownership.place(live.id):
            self.master.schedule(live)
            self.presence_changed(live)

    async def record(self, row: TableRow, events: Sequence[Event]) -> bool:
        """Store a game played elsewhere (an offline game uploaded) with its log, in one
        transaction; False when a table with its id is stored already.

        Its status is ``over`` or ``unfinished``, never waiting or in play: it is not
        opened, joined, played, abandoned or settled here (``row.settled_at`` is set).
        """
        if row.status.live:
            raise ValueError("a game played elsewhere is over or unfinished, not live")
        try:
            await self.tables.create(row, self.admission.admit(row, Budget(row.created_by)), events)
        except ValueError:
            return False
        return True

    async def record_more(self, table_id: str, events: Sequence[Event], status: Status) -> bool:
        """Store what a game played elsewhere went on with (an unfinished offline game
        uploaded again) and where it stands now; False when another upload stored those
        steps first. This process's copy, if loaded, catches up, and the others are told."""
        if status.status.live:
            raise ValueError("a game played elsewhere is over or unfinished, not live")
        if not await self.tables.extend(table_id, events, status):
            return False
        await self.master.peers.grown(table_id)
        return True

    def deal_with(self, source: PackSource) -> None:
        """Let ``source`` give the packs of the tables it knows (asked before each deal)."""
        self.master.deal_with(source)

    async def check_rated(self, identity: str | None) -> None:
        """Refuse ``identity`` a rated game when the :attr:`rated_gate` says so."""
        if self.rated_gate is not None and identity is not None:
            await self.rated_gate(identity)

    # ---------------------------------------------------------------- started

    async def join(self, client: Client, seat: int, name: str | None) -> None:
        """Seat a client's identity in an open seat; the table starts when it was the last."""
        master = self.master
        live = master.live_of(client)
        if client.caller is None:
            raise ProtocolError("signed_out", "sign in (say hello with a token) to take a seat")
        identity = client.caller.identity
        name = name or client.name
        if name is None:
            raise ProtocolError("bad_name", "say your name to take a seat")
        async with live.lock:
            if client.seat is not None:
                raise ProtocolError("already_seated", f"you already sit in seat {client.seat}")
            if not 0 <= seat < live.row.players:
                raise ProtocolError(
                    "no_such_seat", f"seats are numbered 0 to {live.row.players - 1}"
                )
            row = live.row.seats[seat]
            if row.kind != SeatKind.PERSON:
                raise ProtocolError("seat_not_open", f"seat {seat} is played by a bot")
            if row.identity is not None:
                raise ProtocolError("seat_taken", f"seat {seat} is taken")
            if live.row.status != TableStatus.OPEN:
                raise ProtocolError("not_open", "this table no longer takes people")
            if live.row.rated:
                await self.check_rated(identity)
            await self.admission.may_sit(live.id, identity)
            claim = await self.tables.claim_seat(live.id, seat, identity, name)
            if not claim.seated:
                await master.reload_row(live)
                raise ProtocolError("seat_taken", f"seat {seat} was just taken")
            join(live.row, seat, identity, name)
            if claim.started:  # the store started it in the same transaction
                live.row.status = TableStatus.PLAYING
            await master.refresh_pauses(live)  # a turn-based clock stops on their vacation
            await master.refresh_badges(live)
            client.name = name
            master.seat_client(live, identity, seat)
        await self.identities.name(identity, name)
        await master.peers.changed(live)
        await master.peers.publish_presence(live)
        master.schedule(live)

    # ---------------------------------------------------------------- rematched

    async def rematch(self, client: Client) -> None:
        """A seated person's tap for the same table again; once everyone seated tapped, the
        rematch (once per table), seats rotated."""
        master = self.master
        live = master.live_of(client)
        if client.seat is None or client.identity is None:
            raise ProtocolError("not_seated", "only the players can ask for a rematch")
        async with live.lock:
            if not live.state.is_over:
                raise ProtocolError("not_over", "a rematch comes after the game")
            if live.row.daily:
                raise ProtocolError("no_rematch", "the daily deal is played once a day")
            if live.row.owner is not None:
                raise ProtocolError("no_rematch", "this table's games are paired by the server")
            row = live.row
            if row.rematch_id is None and row.rated:  # one who must wait cannot even ask
                await self.check_rated(client.identity)
            if row.rematch_id is None and self.taps is not None:
                tapped = await self.taps(row.id, client.identity, time.time())
                for listener in list(self._tap_listeners):
                    try:
                        await listener(row, client.identity, tapped)
                    except Exception:
                        log.exception("a rematch tap listener failed for table %s", row.id)
                people = {s.identity for s in row.seats if s.kind == SeatKind.PERSON}
                if not people <= tapped:
                    return
            row = live.row
            created = row.rematch_id is None
            if created and row.rated:
                for seat in row.seats:  # the others tapped earlier: a wait may have begun since
                    if seat.identity is not None and seat.identity != client.identity:
                        try:
                            await self.check_rated(seat.identity)
                        except ProtocolError:
                            raise ProtocolError(
                                "rematch_playban",
                                "another player must wait before their next rated game",
                            ) from None
            if created:
                new_id = hashlib.sha256(f"rematch:{row.id}".encode()).hexdigest()[:10]
                new_row = replace(
                    row,
                    id=new_id,
                    seats=rotated(row.seats) if self.taps is not None else list(row.seats),
                    first_dealer=(
                        row.first_dealer
                        if self.taps is not None
                        else (row.first_dealer + 1) % row.players
                    ),
                    status=opening_status(row.seats),
                    scores=[],
                    winner=None,
                    rematch_of=row.id,
                    rematch_id=None,
                    created_at=time.time(),
                    created_by=client.identity,
                    created_from=client.address,
                    fault=None,
                    settled_at=None,
                )
                caps = self.admission.admit(new_row, Budget(client.identity, client.address))
                try:
                    await self.tables.create(new_row, caps)
                except ValueError:  # another process made it first
                    pass
                except CapReachedError as full:
                    if await self.tables.load(new_id) is None:
                        raise self.admission.refusal(full) from None
                row.rematch_id = await self.tables.set_rematch(row.id, new_id)
            for other in live.clients:
                other.send({"type": "rematch", "table": row.rematch_id})
            master.send_table(live)
        if created and row.rematch_id is not None:
            await master.peers.changed(live)
            rematch = await master.get(row.rematch_id)
            if rematch is not None:
                await self._place(rematch)

    # ---------------------------------------------------------------- abandoned

    def presence_changed(self, live: LiveTable) -> None:
        """Start (or stop) the wait after which a table nobody is connected to is abandoned."""
        now = time.monotonic()
        if (
            not live.row.status.live
            or live.row.lasting
            or live.turn_based  # its people are expected to be away for days
            or live.presence.anyone(now)
            or not self.master.owns(live.id)
        ):
            if live.reaper is not None and live.reaper is not asyncio.current_task():
                live.reaper.cancel()
            live.reaper = None
            return
        if live.reaper is None or live.reaper.done():
            live.reaper = self.master.spawn(self._reap(live))

    async def _reap(self, live: LiveTable) -> None:
        config = self.config
        wait = config.abandon_bots_after if live.row.all_bots else config.abandon_after
        while True:
            since = live.presence.empty_since
            now = time.monotonic()
            if since is None:
                since = live.presence.empty_since = now
            if now >= since + wait:
                break
            await asyncio.sleep(since + wait - now)
        async with live.lock:
            if live.dropped or live.presence.anyone(time.monotonic()):
                return
            if live.row.status.live:
                await self.abandon(live)
                log.info("table %s abandoned: nobody connected for %.0f s", live.id, wait)
            live.reaper = None
            self.master.drop(live)
        await self.master.peers.changed(live)

    async def abandon(self, live: LiveTable) -> None:
        """End a table waiting or in play as abandoned (the table's lock is held): it keeps
        its log, plays no more, and is not rated."""
        status = abandoned(live.row)
        await self.tables.set_status(live.id, status)
        live.row.set_status(status)

    # ---------------------------------------------------------------- finished

    def played(self, live: LiveTable) -> None:
        """A play was stored: settle the game if it is decided; tell the feature that made
        the table when its game is over."""
        self.finisher.settle_if_due(live)
        if live.row.owner is not None and live.state.is_over and self._finish_listeners:
            self.master.spawn(self._tell_finished(table_finished(live, self.master.clock.now())))

    def on_rematch_tap(self, listener: TapListener) -> None:
        """Tell ``listener`` of each rematch tap, in the process it was given to (the
        challenges feature shows it to the other players wherever they are)."""
        self._tap_listeners.append(listener)

    def on_finished(self, listener: FinishListener) -> None:
        """Tell ``listener`` of every game over at a table made with an ``owner`` key, in
        the process that stored its final play (once per game there). A crash between
        that play and the listener is mended by the feature reading its unfinished
        tables back (:meth:`finished`) when it starts: a listener must be idempotent."""
        self._finish_listeners.append(listener)

    async def _tell_finished(self, finished: TableFinished) -> None:
        for listener in list(self._finish_listeners):
            try:
                await listener(finished)
            except Exception:
                log.exception("a finish listener failed for table %s", finished.table_id)

    async def finished(self, table_id: str) -> TableFinished | None:
        """A table's result read back from the store (its row and log): None while its game
        is not over (or there is no such table)."""
        row = await self.tables.load(table_id)
        if row is None or row.status != TableStatus.OVER:
            return None
        live = await self.master.get(table_id)
        if live is None or not live.state.is_over:
            return None
        finished = table_finished(live, row.updated_at)
        if not live.clients:
            async with live.lock:
                if not live.clients and not live.row.status.live:
                    self.master.drop(live)
        return finished

    # ---------------------------------------------------------------- resumed

    async def resume(self) -> None:
        """Pick up every table waiting or in play that no live process owns (a restart):
        those rendezvous gives this process are loaded and driven here, the others are
        written in their owners' names. Then settle what a crash left unsettled."""
        ownership = self.master.ownership
        for row in await self.tables.find(LIVE_STATUSES, limit=100_000):
            try:
                if await ownership.place(row.id) and not await self.adopt(row.id):
                    await ownership.let_go([row.id])
            except Exception:
                log.exception("cannot resume table %s", row.id)
        await self.finisher.settle_unsettled()

    # ---------------------------------------------------------------- owned

    async def adopt(self, table_id: str) -> bool:
        """This process owns the table now (resumed, placed here, or taken over from a
        process that drained or died): bring its copy to the stored log, mend a torn
        status, settle it if due, and plan its automatic actions. False when the table is
        no longer live."""
        master = self.master
        live = await master.get(table_id)
        if live is None:
            return False
        async with live.lock:
            await master.reload_row(live)
            await master.catch_up(live)
            if live.clock is not None:
                live.clock.resume(master.clock.now())
            live.plan = None
        await self._repair(live)
        if not live.row.status.live:
            return False
        self.finisher.settle_if_due(live)
        master.schedule(live)
        self.presence_changed(live)
        return True

    async def disown(self, table_id: str) -> None:
        """Another process owns the table now: stop its automatic actions here (each under
        the table's lock, so a play in the middle of being stored is stored first)."""
        live = self.master.live.get(table_id)
        if live is not None:
            async with live.lock:
                self.master.stop_driving(live)

    def ended(self, table_id: str) -> bool:
        """Whether the table is no longer live here (over, abandoned, or let go)."""
        live = self.master.live.get(table_id)
        return live is None or not live.row.status.live

    async def unowned(self, held: set[str]) -> list[str]:
        """The stored tables waiting or in play whose ids are not among ``held``."""
        rows = await self.tables.find(LIVE_STATUSES, limit=100_000)
        return [row.id for row in rows if row.id not in held]

    async def _repair(self, live: LiveTable) -> None:
        """Mend a status an older server left torn by a crash (the log is the truth)."""
        row, state = live.row, live.state
        if row.status == TableStatus.PLAYING and state.is_over:
            status = status_after(state)
            if status is not None:
                await self.tables.set_status(row.id, status)
                row.set_status(status)
        elif row.status == TableStatus.OPEN and seats_filled(row.seats):
            await self.tables.set_status(row.id, Status(TableStatus.PLAYING))
            row.status = TableStatus.PLAYING
