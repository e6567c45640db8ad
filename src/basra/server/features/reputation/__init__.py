"""Reputation: how reliably a person finishes their games, and the wait for those who leave.

Everything here is read from stored history (the results of settled games, through
:class:`~basra.server.features.reputation.store.ReputationStore`) by the pure rules of
:mod:`basra.server.features.reputation.rules`; reputation stores nothing, so a restart, a
deploy or another process sees the same share and the same wait. :class:`Reputation`
gives them to the rest of the server:

- :meth:`Reputation.seat_badges`: each person's share at a table (``finished``), one query
  for every seat, added to the table's state payload beside the rating
  (:attr:`basra.server.table.master.TableMaster.badge_sources`);
- :meth:`Reputation.profile`: the share on a profile, and on the person's own page the wait
  in force (``playban``);
- :meth:`Reputation.leavers`: who among a quick-play pool *leaves often*, paired with each
  other first (:func:`basra.server.features.pairing.plan_tables`); asked every pairing
  pass, so each person's answer is kept for :data:`LEAVERS_TTL` seconds (a person's
  games settle minutes apart; the pool's newcomers are read in one query of their
  newest :data:`~basra.server.features.reputation.rules.LEAVER_OVER` games);
- :meth:`Reputation.check_rated`: the one gate before a rated game, asked where a person
  sits at a rated table (making one, taking a seat, a rematch:
  :attr:`basra.server.table.lifecycle.Lifecycle.rated_gate`) and where they seek quick play
  (:class:`basra.server.features.quickplay.QuickPlay`): refused as ``playban``, saying how
  long and why.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.features.reputation.rules import (
    LEAVER_OVER,
    PLAYBAN_FIRST,
    PLAYBAN_FORGET_AFTER,
    PLAYBAN_GOOD_GAMES,
    SHARE_FROM,
    SHARE_OVER,
    Played,
    leaves_often,
    playban,
    share,
)
from basra.server.features.reputation.store import ReputationStore
from basra.server.store.rows import SeatKind, TableRow

__all__ = ["LEAVERS_TTL", "Reputation"]

LEAVERS_TTL = 60.0
"""Seconds a person's *leaves often* is kept for the pairing passes."""


class Reputation:
    """Shares, leavers and the playban gate, from a :class:`ReputationStore`."""

    def __init__(self, store: ReputationStore, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        """The time source (epoch seconds, as results' ``ended_at``)."""
        self._leavers: dict[str, tuple[bool, float]] = {}
        """Per identity: whether it leaves often, and when that was read (monotonic)."""

    async def histories(self, identities: Sequence[str]) -> dict[str, list[Played]]:
        """The newest games every rule reads, of each identity."""
        return await self.store.histories(identities, SHARE_OVER)

    async def check_rated(self, identity: str) -> None:
        """``playban`` when ``identity`` must wait before its next rated game, with the wait
        (``{"playban": {"leaves", "minutes", "minutes_left", "until"}}``)."""
        now = self.now()
        history = (await self.histories([identity]))[identity]
        ban = playban(history, now)
        if ban is not None:
            raise ProtocolError("playban", ban.message(now), {"playban": ban.to_json(now)})

    async def seat_badges(self, row: TableRow) -> dict[int, dict[str, Any]]:
        """``{seat: {"finished": share}}`` for each person seated (``finished`` is None for a
        newcomer): one query for the whole table."""
        people = {s.seat: s.identity for s in row.seats if s.kind == SeatKind.PERSON and s.identity}
        if not people:
            return {}
        found = await self.histories(list(people.values()))
        out: dict[int, dict[str, Any]] = {}
        for seat, identity in people.items():
            known = share(found.get(identity, []))
            out[seat] = {"finished": known.to_json() if known is not None else None}
        return out

    async def leavers(self, identities: Sequence[str]) -> set[str]:
        """Those of ``identities`` who leave often: kept answers, and one query for the
        others (those not read in the last :data:`LEAVERS_TTL` seconds)."""
        now = time.monotonic()
        known = self._leavers
        for identity in [i for i, (_, at) in known.items() if now - at >= LEAVERS_TTL]:
            del known[identity]
        missing = [identity for identity in set(identities) if identity not in known]
        if missing:
            found = await self.store.histories(missing, LEAVER_OVER)
            for identity, history in found.items():
                known[identity] = (leaves_often(history), now)
        return {identity for identity in identities if known.get(identity, (False, 0.0))[0]}

    async def profile(self, identity: str, own: bool) -> dict[str, Any]:
        """A profile's ``finished`` (the share, None for a newcomer, who has fewer than
        ``finished_from`` games) and, on the person's own page (``own``), ``playban``: the
        wait in force or None, with ``playban_rules`` (the first wait in minutes, the rated
        games finished and the hours without leaving that forget a game left)."""
        now = self.now()
        history = (await self.histories([identity]))[identity]
        known = share(history)
        out: dict[str, Any] = {
            "finished": known.to_json() if known is not None else None,
            "finished_from": SHARE_FROM,
        }
        if own:
            ban = playban(history, now)
            out["playban"] = ban.to_json(now) if ban is not None else None
            out["playban_rules"] = {
                "first": round(PLAYBAN_FIRST / 60),
                "games": PLAYBAN_GOOD_GAMES,
                "hours": round(PLAYBAN_FORGET_AFTER / 3600),
            }
        return out
