"""The other processes holding a table: what this one tells them, and what it hears.

With several processes each keeps its own copy of a table (the master's,
:mod:`basra.server.table.master`); a write that loses the race for a step is refused by
the store, and notices on the hub (:mod:`basra.server.runtime.pubsub`) tell the others:

- ``events``: the table's log grew (:meth:`Peers.publish_events`, after each step
  stored; :meth:`Peers.grown`, an offline game uploaded again): a copy here catches up
  from the store and sends its clients the new snapshots;
- ``meta``: the table's row changed (seats, status, rematch: :meth:`Peers.changed`; seats
  renamed in the store: :meth:`Peers.reread`): a copy here reads it again, seats the
  watchers it now names, and shows it;
- ``presence``: how many of each seat are connected in a process
  (:meth:`Peers.publish_presence`, on every change and every ``heartbeat``); a report
  lasts ``presence_ttl`` seconds, so a process that died stops counting.

No copy stays stale: an ``events`` notice carries the version and a digest of the
state the log leads to (:func:`state_digest`), and a copy that cannot catch up (an
event that does not apply, a gap), that the store refuses a step for while the log
has nothing newer, or whose digest at that version differs, is replayed from the log
at once (:meth:`~basra.server.table.master.TableMaster.rebuild`), with one log line
saying so.

The peers see the master through the :class:`Copies` protocol, as the autopilot sees it
through its ``Pilot``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from typing import Any, Protocol

from basra.server.runtime.pubsub import Bus
from basra.server.table.frames import StateFrame
from basra.server.table.live import Client, LiveTable, ServiceConfig
from basra.state import PHASE_PLAY, GameState

__all__ = ["Copies", "Peers", "state_digest"]


def state_digest(state: GameState) -> str:
    """A short digest of where a game stands (the same in every process for the same log):
    the round's hands, floor, stock, piles and basras, the scores, whose turn it is, and
    how many rounds and plays there were. Two copies of a table at one version that
    disagree on anything the next moves depend on differ in it. A few microseconds (the
    whole :meth:`~basra.state.GameState.fingerprint`, with every round's log, costs
    about a hundred: this is computed once per move in every process holding the table)."""
    plays = len(state.rounds[-1].plays) if state.rounds else 0
    where = (
        state.phase, state.dealer, state.turn, tuple(state.hands), state.floor,
        state.stock_pos, state.in_hands, tuple(state.piles), tuple(state.basras),
        tuple(state.basra_points), state.lone_last, tuple(state.scores), state.carry,
        len(state.rounds), plays,
    )  # fmt: skip
    return hashlib.blake2b(repr(where).encode(), digest_size=8).hexdigest()


class Copies(Protocol):
    """What the peers need of the master: its copies of tables, kept and shown."""

    config: ServiceConfig
    live: dict[str, LiveTable]

    async def catch_up(self, live: LiveTable) -> bool:
        """Apply the events other processes stored (lock held); True if any."""

    async def rebuild(self, live: LiveTable, why: str) -> None:
        """Replay a copy that is behind or disagrees from the log (lock held)."""

    async def reload_row(self, live: LiveTable) -> None:
        """Read the table's row again."""

    async def refresh_badges(self, live: LiveTable) -> None:
        """Read what the seats show again."""

    def snapshot(self, live: LiveTable, seat: int | None, *, fresh: bool = False) -> StateFrame:
        """The snapshot of ``seat`` at the table's version."""

    def send_table(self, live: LiveTable, exclude: Client | None = None) -> None:
        """Send the table's description to its clients here."""

    def broadcast_state(self, live: LiveTable) -> None:
        """Send every client here the snapshot of its seat."""

    def drop(self, live: LiveTable) -> None:
        """Let a table go from memory (lock held)."""

    def schedule(self, live: LiveTable) -> None:
        """Plan the table's next automatic action, if this process owns it."""

    def presence_changed(self, live: LiveTable) -> None:
        """Who is connected changed, or may have."""


class Peers:
    """Tells the other processes of this one's tables, and hears of theirs."""

    def __init__(self, master: Copies, bus: Bus) -> None:
        self.master = master
        self.bus = bus
        self._heartbeat: asyncio.Task[None] | None = None
        for kind in ("events", "meta", "presence"):
            bus.on(kind, self.heard)

    def start(self) -> None:
        """Start the presence heartbeat (the hub is started)."""
        self._heartbeat = asyncio.create_task(self._beat())

    def stop(self) -> None:
        """Stop the presence heartbeat."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()

    # ---------------------------------------------------------------- told

    async def changed(self, live: LiveTable) -> None:
        """Tell the other processes that a table's row changed (seats, status, rematch)."""
        await self.bus.publish({"kind": "meta", "table": live.id})

    async def grown(self, table_id: str) -> None:
        """A table's log grew in the store outside a live game (an offline game uploaded
        again): this process's copy, if loaded, catches up, and the others are told."""
        notice = {"kind": "events", "table": table_id}
        await self.heard(notice)
        await self.bus.publish(notice)

    async def reread(self, table_id: str) -> None:
        """A table's row changed in the store outside a live game (its seats renamed): this
        process's copy, if loaded, reads it again and shows it, and the others are told."""
        notice = {"kind": "meta", "table": table_id}
        await self.heard(notice)
        await self.bus.publish(notice)

    async def publish_events(self, live: LiveTable) -> None:
        """Tell the other processes the table's log grew to its version, with the digest of
        the state it leads to (so a copy that disagrees knows it)."""
        notice = {"kind": "events", "table": live.id, "version": live.version}
        await self.bus.publish({**notice, "digest": state_digest(live.state)})

    async def publish_presence(self, live: LiveTable) -> None:
        """Tell the other processes how many of each seat are connected here."""
        await self.bus.publish({"kind": "presence", "table": live.id, **live.presence.report()})

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.master.config.heartbeat)
            for live in list(self.master.live.values()):
                if live.clients:
                    with contextlib.suppress(Exception):
                        await self.publish_presence(live)
                # Another process's report may have run out: nobody may be left.
                self.master.presence_changed(live)

    # ---------------------------------------------------------------- heard

    async def heard(self, notice: dict[str, Any]) -> None:
        """A notice from another process about a table: catch up and tell our clients."""
        master = self.master
        table_id = notice.get("table")
        live = master.live.get(table_id) if isinstance(table_id, str) else None
        if live is None:
            return
        kind = notice.get("kind")
        if kind == "events":
            async with live.lock:
                if await master.catch_up(live):
                    if live.state.phase != PHASE_PLAY:
                        await master.reload_row(live)
                        master.send_table(live)
                    master.broadcast_state(live)
                await self._check(live, notice)
            master.schedule(live)
        elif kind == "meta":
            async with live.lock:
                await master.reload_row(live)
                await master.refresh_badges(live)
                for client in live.clients:
                    if client.seat is None and client.identity is not None:
                        mine = live.row.seat_of(client.identity)
                        if mine is not None:
                            client.seat = mine
                            live.presence.move(mine)
                            client.send(master.snapshot(live, mine, fresh=True))
                if live.row.rematch_id:
                    for client in live.clients:
                        client.send({"type": "rematch", "table": live.row.rematch_id})
                master.send_table(live)
                if not live.row.status.live and not live.clients:
                    master.drop(live)
            master.schedule(live)
        elif kind == "presence":
            counts, total, origin = notice.get("counts"), notice.get("total"), notice.get("origin")
            if not isinstance(counts, dict) or not isinstance(origin, str):
                return
            now = time.monotonic()
            live.presence.hear(
                origin,
                {int(k): int(v) for k, v in counts.items()},
                int(total) if isinstance(total, int) else sum(counts.values()),
                now + master.config.presence_ttl,
                now,
            )
            master.presence_changed(live)
            master.send_table(live)
            master.schedule(live)

    async def _check(self, live: LiveTable, notice: dict[str, Any]) -> None:
        """After catching up on an ``events`` notice: a copy still behind the notice's
        version, or at it with another digest, is rebuilt from the log (lock held)."""
        version, digest = notice.get("version"), notice.get("digest")
        if not isinstance(version, int) or live.dropped:
            return
        if live.version < version:
            await self.master.rebuild(live, f"stayed behind the log's version {version}")
        elif (
            live.version == version
            and isinstance(digest, str)
            and digest != state_digest(live.state)
        ):
            await self.master.rebuild(live, "disagreed with the log")
