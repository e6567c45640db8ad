"""Admission: the one rule of which caps a new table must fit, and whom it counts against.

Every table anyone makes is admitted by :meth:`Admission.admit` (the lifecycle's,
:attr:`basra.server.table.lifecycle.Lifecycle.admission`), against a :class:`Budget`
(whom it counts against): the caps on tables waiting or in play it must fit (per
person, per address, all-bot tables per person, per event and on the server), counted
and inserted in one transaction under a lock per identity, per address, per event and
per server (:meth:`~basra.server.store.protocols.TableStore.create`; quick play's
:meth:`~basra.server.store.protocols.SeekStore.seat` and the daily deal's
:meth:`~basra.server.store.protocols.DailyStore.start_attempt` count them the same way
in their own transactions), so requests sent at once never beat them, in any number of
processes. The rule:

- a person's table (:meth:`~basra.server.table.lifecycle.Lifecycle.create`, a rematch)
  counts against that person and the client address they asked from, an all-bot one
  also against the server's all-bot tables;
- a table the server pairs (``Budget.paired``: quick play, the daily deal, an event's
  games) with a person or a program seated fits no cap and counts against nobody: the
  people asked to play and were seated by the server, their own limits bound it (one
  seek and one rated table in play at a time, one attempt a deal, one table of an event
  at a time), and refusing it would leave them paired to nothing (an event's round
  could not end);
- a table the server pairs with bots only (an event's bots playing each other) counts
  against the event (``bot_tables_per_event``), its maker (the maker's all-bot and open
  tables, shared with their own, and their address) and the server's all-bot tables,
  and waits for room (the feature tries again): so one maker's events hold no more of
  the server than one person's all-bot table;
- a game played elsewhere (an offline game uploaded: over or unfinished, never live)
  fits no cap: it holds nothing in play, and its cost is the upload's rate.

A table whose cap is full is refused as ``rate_limited``, naming the cap
(:meth:`Admission.refusal`).

**Who may sit** at a table is decided here too (:meth:`Admission.may_sit`, asked by the
lifecycle before a person takes a seat): anyone, unless the table's seat rule (a
:data:`SeatRule` the environment gives, e.g. a club-only table's: only the club's members,
:mod:`basra.server.features.clubs`) refuses them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from basra.server.quotas import Quotas, RateLimitError
from basra.server.store.rows import Cap, CapReachedError, TableRow

__all__ = ["Admission", "Budget", "SeatRule"]

SeatRule = Callable[[str, str], Awaitable[None]]
"""Whether a person (an identity) may sit at a table (its id): returns, or raises the
:class:`~basra.server.errors.ProtocolError` that says why not."""


@dataclass(frozen=True)
class Budget:
    """Whom a new table counts against (:meth:`Admission.admit`)."""

    identity: str | None = None
    """The person who asked for it, or the maker of the event that paired it (None: the
    server's schedule)."""
    address: str | None = None
    """The client address they asked from."""
    event: str | None = None
    """The owner-key prefix of the event that paired it (``tournament:EVENT:``)."""
    paired: bool = False
    """Paired by the server (quick play, the daily deal, an event's games): a table with a
    person or program seated is then made even when the caps are full."""


class Admission:
    """The caps of new tables, within the server's :class:`~basra.server.quotas.Quotas`."""

    def __init__(self, quotas: Quotas, seat_rule: SeatRule | None = None) -> None:
        self.quotas = quotas
        self.seat_rule = seat_rule
        """Who may sit at a table (None: anyone)."""

    async def may_sit(self, table_id: str, identity: str) -> None:
        """Refuse a person a seat the table's seat rule keeps from them."""
        if self.seat_rule is not None:
            await self.seat_rule(table_id, identity)

    def admit(self, row: TableRow, budget: Budget) -> list[Cap]:
        """The caps a new table must fit, and whom it counts against (set on the row): the
        one rule of admission, for every table anyone makes (see the module's docstring).

        A game played elsewhere (never live) fits none; a table the server pairs with a
        person or program seated fits none (it is made even when the caps are full) and
        counts against nobody; any other table counts against ``budget``'s person and
        address, an all-bot one also against its event and the server.
        """
        if not row.status.live or (budget.paired and not row.all_bots):
            return []
        row.created_by = budget.identity
        if budget.address is not None:
            row.created_from = budget.address
        limits = self.quotas.limits
        identity, address = budget.identity, budget.address
        caps = []
        if identity is not None:
            caps.append(Cap(limits.open_tables_per_identity, "open tables per person", identity))
        if address is not None:
            caps.append(
                Cap(limits.open_tables_per_address, "open tables per address", None, address)
            )
        if row.all_bots:
            if identity is not None:
                caps.append(
                    Cap(
                        limits.bot_tables_per_identity,
                        "all-bot tables per person",
                        identity,
                        None,
                        True,
                    )
                )
            if budget.event is not None:
                caps.append(
                    Cap(
                        limits.bot_tables_per_event,
                        "all-bot tables per event",
                        None,
                        None,
                        True,
                        budget.event,
                    )
                )
            caps.append(Cap(limits.bot_tables, "all-bot tables on this server", None, None, True))
        return caps

    def refusal(self, full: CapReachedError) -> RateLimitError:
        """The ``rate_limited`` refusal of a table whose cap is full."""
        cap = full.cap
        return RateLimitError(
            "open_tables",
            self.quotas.limits.cap_retry,
            f"{cap.what}: at most {cap.limit} waiting or in play (finish or leave one)",
        )
