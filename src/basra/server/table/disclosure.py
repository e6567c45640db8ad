"""Who may see a table's cards, and when: the one policy every route and frame asks.

A table's *cards* are every hand and the stock: what its record, its replay, its review
and a puzzle mined from it show. Everything that hands one of those out asks
:class:`Disclosure`, and nothing else decides:

- **Unfinished games** show their cards to nobody (``not_over``): an abandoned or
  unfinished game's record would still hold cards someone could use (an offline game
  uploaded half played goes on). Only a game whose status is ``over`` is shown.
- **Hidden tables** (:attr:`~basra.server.store.rows.TableRow.hidden`: a daily deal's
  attempt, a duplicate tournament's board, any table made ``private``) show their
  cards to the people seated there, and to others only as the feature that made the
  table says (``play_first`` else). A feature says so through a :class:`Secret` it
  registers (:meth:`Disclosure.keep`): whether a caller has earned the sight (they
  finished their own attempt at the deal), and whether the deal is now *revealed to
  all*. A hidden table no feature claims is shown to its players only.
- **While it is played** a hidden table cannot be watched by anyone not seated there
  (``private_table``, :func:`may_watch`), and its description shows them no score
  (:func:`shows_score`): the socket frames and ``GET /api/tables/{id}`` ask these.
- **Puzzles** are mined only from a game whose cards *anyone* may see
  (:meth:`Disclosure.public`: over, and not hidden or revealed to all), so a puzzle
  shows nobody a deal they could not already look up; and a puzzle carries nothing that
  leads back to its game (no record, table, source or name: see
  :mod:`basra.server.features.puzzles`). A hidden table's game reviewed before its deal
  is revealed to all is mined later, once it is
  (:class:`~basra.server.features.mistakes.MistakeMiner` looks again: when a feature
  says so, :meth:`Disclosure.revealed`, and every so often).

When a deal is *revealed to all* is each feature's to say, and its docstring says it:
a daily deal once its day (UTC) has ended and no attempt at it is still in play
(:mod:`basra.server.features.daily`); a duplicate board once every table of its round
has played it, when its results are shown to everyone
(:mod:`basra.server.features.tournaments.tables`).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import Final, Literal

from basra.server.errors import ProtocolError
from basra.server.identity import Caller
from basra.server.store.protocols import TableStore
from basra.server.store.rows import TableRow, TableStatus

__all__ = [
    "SERVER",
    "Disclosure",
    "RevealListener",
    "Secret",
    "Viewer",
    "may_watch",
    "shows_score",
    "watch_refusal",
]

log = logging.getLogger(__name__)

RevealListener = Callable[[Sequence[str]], Awaitable[None]]
"""Told of tables whose deal was just revealed to all (their ids)."""
MAX_TABLE_ID = 32
"""Longer ids name no table (never looked up)."""
SERVER: Final = "server"
"""The viewer that is the server's own work on a game already shown to whoever asked for
it (a review being worked out): sees any game that is over, never one in play."""
Viewer = Caller | None | Literal["server"]
"""Who asks for a game's cards: a caller, someone not signed in (None), or :data:`SERVER`."""


class Secret(ABC):
    """What a feature knows of the hidden tables it makes: when their cards may be shown."""

    @abstractmethod
    def claims(self, row: TableRow) -> bool:
        """Whether ``row`` is one of this feature's hidden tables."""

    @abstractmethod
    async def revealed_to_all(self, row: TableRow) -> bool:
        """Whether the table's deal may now be shown to anyone."""

    @abstractmethod
    async def earned(self, row: TableRow, caller: Caller) -> bool:
        """Whether ``caller`` (not seated there) may see the table's cards before they are
        revealed to all (a daily deal: they played it too)."""

    @abstractmethod
    def refusal(self, row: TableRow) -> ProtocolError:
        """Why the table's cards are refused (``play_first``), in the feature's words."""


def may_watch(row: TableRow, seat: int | None) -> bool:
    """Whether a connection in ``seat`` (None: not seated) may watch the table as it is
    played: a hidden table's play is watched by nobody but its players."""
    return seat is not None or not row.hidden


def shows_score(row: TableRow, seat: int | None) -> bool:
    """Whether the table's description shows ``seat`` its scores (a hidden table's score
    says something of a secret deal)."""
    return seat is not None or not row.hidden


def watch_refusal(row: TableRow) -> ProtocolError:
    """``private_table``: a hidden table cannot be watched."""
    what = "a daily deal attempt" if row.daily else "this private table"
    return ProtocolError("private_table", f"{what} cannot be watched")


class Disclosure:
    """Decides who may see a table's cards (record, replay, review), and which games may
    become puzzles."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables
        self._secrets: list[Secret] = []
        self._listeners: list[RevealListener] = []

    def keep(self, secret: Secret) -> None:
        """Let a feature say when its hidden tables' cards may be shown."""
        self._secrets.append(secret)

    def on_revealed(self, listener: RevealListener) -> None:
        """Tell ``listener`` of tables a feature says were just revealed to all (the puzzle
        miner queues the games it held back)."""
        self._listeners.append(listener)

    async def revealed(self, table_ids: Sequence[str]) -> None:
        """A feature's word that these tables' deal was just revealed to all (in this
        process; others find out when they look again)."""
        for listener in list(self._listeners):
            try:
                await listener(table_ids)
            except Exception:
                log.exception("a reveal listener failed")

    def _secret_of(self, row: TableRow) -> Secret | None:
        return next((s for s in self._secrets if s.claims(row)), None)

    async def load(self, table_id: str) -> TableRow:
        """A table's row, or ``no_such_table``."""
        row = await self.tables.load(table_id) if len(table_id) <= MAX_TABLE_ID else None
        if row is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
        return row

    async def check(self, row: TableRow, caller: Viewer) -> None:
        """Refuse the table's cards to ``caller`` (None: someone not signed in):
        ``play_first`` for a hidden table they may not see yet, ``not_over`` for a game
        still hidden from everyone because it is not over."""
        if caller != SERVER and row.hidden and not await self._seen_by(row, caller):
            secret = self._secret_of(row)
            if secret is not None:
                raise secret.refusal(row)
            raise ProtocolError(
                "play_first", "this table is private: its games are shown to its players only"
            )
        if row.status != TableStatus.OVER:
            raise ProtocolError(
                "not_over", "the game is not over: its record holds cards that are still hidden"
            )

    async def check_id(self, table_id: str, caller: Viewer) -> TableRow:
        """:meth:`check` by id (``no_such_table`` first); the row."""
        row = await self.load(table_id)
        await self.check(row, caller)
        return row

    async def _seen_by(self, row: TableRow, caller: Viewer) -> bool:
        if not isinstance(caller, Caller):
            caller = None
        if caller is not None and row.seat_of(caller.identity) is not None:
            return True
        secret = self._secret_of(row)
        if secret is None:
            return False
        if await secret.revealed_to_all(row):
            return True
        return caller is not None and await secret.earned(row, caller)

    async def public(self, row: TableRow) -> bool:
        """Whether anyone at all may see the game's cards now: over, and not hidden, or its
        deal revealed to all (what may become a puzzle)."""
        if row.status != TableStatus.OVER:
            return False
        if not row.hidden:
            return True
        secret = self._secret_of(row)
        return secret is not None and await secret.revealed_to_all(row)
