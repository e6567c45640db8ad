"""The daily deal: duplicate play, as in duplicate bridge.

Each day (UTC) has one deal for each variant of the day (:func:`variants_of`:
Egyptian, and one more that changes daily): one round of two players, the
person against a ``hard`` bot, with the pack, the person's seat and the first
dealer fixed for the day. Everyone plays the same cards against the same bot
in the same seats, and the bot is the same too: its seed comes from the deal
and the plays so far (:mod:`basra.server.table.autopilot`), so the same plays get the
same answers. An identity has one attempt at each deal (the store's key), a
leaderboard ranks the attempts by *margin* (the person's points less the
bot's), and once a person has played a deal they may replay how everyone else
played it, decision by decision.

The deal is secret until it is played. Its pack and seats are derived from a
*server secret* (32 random bytes made once and kept in the store, see
:meth:`~basra.server.store.protocols.SecretStore.get_or_make`) with HMAC-SHA256 over
the deal's id, never from the date alone, so nobody can work them out. Nothing
public shows a card: ``GET /api/daily`` and the leaderboards have no cards; an
attempt's table (``daily`` names its deal) is left out of the lobby, cannot be
watched (``private_table``) and has no rematch; its record, replay and review are
refused (``play_first``, 403) to anyone who has not finished their own attempt
at the same deal, until the deal is *revealed to all*: its day has ended and no
attempt at it is still in play (this feature is the disclosure policy's
:class:`~basra.server.table.disclosure.Secret` for daily tables; a game of the deal
may then become a puzzle); and the person's own attempt shows them only what their seat
sees, as at every table. The deal is one round: its rules are the variant's
with a target of 1 and a tie as a draw (:data:`DAILY_RULES`), so the game ends
when the round does.

An attempt's table is stored with the attempt in one transaction
(:meth:`~basra.server.features.daily_store.DailyStore.start_attempt`) and opened by
the lifecycle; the table master deals it like any table, from this feature's
pack source (:meth:`Daily.pack_of`, registered with
:meth:`~basra.server.table.lifecycle.Lifecycle.deal_with`), so the pack is the
deal's whichever process deals it, before or after a restart.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from basra.deals import derived_bytes, derived_pack
from basra.rules import PRESETS, preset
from basra.server.errors import ProtocolError
from basra.server.features.daily_store import AttemptRow, DailyStore
from basra.server.identity import Caller
from basra.server.store.protocols import SecretStore
from basra.server.store.rows import SeatKind, SeatRow, TableRow, TableStatus
from basra.server.table.disclosure import Secret
from basra.server.table.forms import TableSpec, check_name
from basra.server.table.lifecycle import Budget, Lifecycle

__all__ = ["DAILY_RULES", "LEVEL", "ROTATION", "Daily", "Deal", "margin", "variants_of"]

DAILY_RULES: dict[str, Any] = {"target": 1, "end_tie": "draw"}
"""The deal's rules over its variant's: the game is its one round."""
LEVEL = "hard"
"""The bot every daily deal is played against."""
FIRST = "egyptian"
"""The variant dealt every day."""
ROTATION: tuple[str, ...] = tuple(
    name for name, rules in PRESETS.items() if name != FIRST and sum(rules.card_points) > 0
)
"""The variants that take turns as the day's second deal (every round of them scores)."""
SECRET_NAME = "daily"


def variants_of(day: dt.date) -> tuple[str, ...]:
    """The variants dealt on ``day``: Egyptian, and one of :data:`ROTATION` in turn.

    >>> variants_of(dt.date(2026, 11, 27))[0]
    'egyptian'
    """
    return (FIRST, ROTATION[day.toordinal() % len(ROTATION)])


def margin(attempt: AttemptRow) -> int | None:
    """The person's points less the bot's in a finished attempt (None while it is played)."""
    if attempt.status != TableStatus.OVER or len(attempt.scores) != 2:
        return None
    return attempt.scores[attempt.seat] - attempt.scores[1 - attempt.seat]


@dataclass(frozen=True)
class Deal:
    """One daily deal, as the public may know it (no cards, no seats)."""

    id: str
    """``DATE.VARIANT``, e.g. ``2026-11-27.egyptian``."""
    day: dt.date
    variant: str

    def to_json(self) -> dict[str, Any]:
        """The public description."""
        return {
            "id": self.id,
            "date": self.day.isoformat(),
            "variant": self.variant,
            "players": 2,
            "teams": False,
            "bot": LEVEL,
            "rules": dict(DAILY_RULES),
        }


def _no_deal(deal_id: str) -> ProtocolError:
    return ProtocolError("no_such_deal", f"there is no daily deal {deal_id[:40]!r}")


class Daily(Secret):
    """The daily deals: attempts (tables the lifecycle opens), leaderboards, who may see what."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        attempts: DailyStore,
        secrets: SecretStore,
        clock: Callable[[], float] = time.time,
        secret: bytes | None = None,
    ) -> None:
        self.lifecycle = lifecycle
        self.attempts = attempts
        self.secrets = secrets
        self.clock = clock
        self._secret: bytes | None = secret
        """The operator's secret (``[secrets] daily_deal``), else read at start from the store."""
        lifecycle.deal_with(self.pack_of)
        lifecycle.disclosure.keep(self)

    async def start(self) -> None:
        """Read (or make, once) the server secret the deals come from, unless the operator
        gave one."""
        if self._secret is None:
            self._secret = await self.secrets.get_or_make(SECRET_NAME, os.urandom(32))

    def today(self) -> dt.date:
        """Today's date in UTC."""
        return dt.datetime.fromtimestamp(self.clock(), dt.UTC).date()

    def deals(self, day: dt.date) -> list[Deal]:
        """The deals of a day."""
        return [Deal(f"{day.isoformat()}.{v}", day, v) for v in variants_of(day)]

    def find(self, deal_id: str) -> Deal:
        """The deal of an id (of any day up to today), or ``no_such_deal``."""
        day_text, _, variant = deal_id.partition(".")
        try:
            day = dt.date.fromisoformat(day_text)
        except ValueError:
            raise _no_deal(deal_id) from None
        if day > self.today() or variant not in variants_of(day):
            raise _no_deal(deal_id)
        return Deal(deal_id, day, variant)

    def _secret_or_fail(self) -> bytes:
        if self._secret is None:
            raise RuntimeError("the daily deals are not started")
        return self._secret

    def _label(self, deal: Deal, what: str) -> str:
        return f"basra-daily/1|{deal.id}|{what}"

    def pack(self, deal: Deal) -> list[int]:
        """The deal's pack (top card first): secret, derived from the server secret
        (:func:`basra.deals.derived_pack`, as a duplicate tournament's boards are)."""
        rules = preset(deal.variant).with_overrides(DAILY_RULES)
        return derived_pack(self._secret_or_fail(), self._label(deal, "pack"), rules)

    def pack_of(self, row: TableRow, round_index: int) -> list[int] | None:
        """The pack of an attempt's table (its one round): the master deals it from here."""
        if row.daily is None or round_index != 0:
            return None
        return self.pack(self.find(row.daily))

    def seating(self, deal: Deal) -> tuple[int, int]:
        """The person's seat and the first dealer of the deal (secret too)."""
        digest = derived_bytes(self._secret_or_fail(), self._label(deal, "seats"))
        return digest[0] % 2, digest[1] % 2

    # ---------------------------------------------------------------- HTTP

    async def today_json(self, caller: Caller | None) -> dict[str, Any]:
        """``GET /api/daily``: today's deals without their cards, and the caller's attempts."""
        now = self.clock()
        day = self.today()
        tomorrow = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), dt.UTC)
        deals = []
        for deal in self.deals(day):
            attempts = await self.attempts.attempts(deal.id)
            mine = next((a for a in attempts if caller and a.identity == caller.identity), None)
            deals.append(
                {
                    **deal.to_json(),
                    "attempts": len(attempts),
                    "played": sum(1 for a in attempts if a.status == TableStatus.OVER),
                    "you": None if mine is None else _mine(mine),
                }
            )
        return {
            "date": day.isoformat(),
            "next_in": round(tomorrow.timestamp() - now),
            "deals": deals,
        }

    async def play(self, caller: Caller, deal_id: str, name: str | None) -> tuple[bool, AttemptRow]:
        """Start (or resume) the caller's attempt at today's deal; True if it is new.

        ``already_played`` (409) once the attempt is over.
        """
        deal = self.find(deal_id)
        if deal.day != self.today():
            raise ProtocolError(
                "not_today", f"{deal.id} was the deal of {deal.day.isoformat()}: play today's"
            )
        found = await self.attempts.attempt_of(deal.id, caller.identity)
        if found is None:
            new, found = await self._start(caller, deal, name)
            if new:
                return True, found
        if found.status == TableStatus.OVER:
            raise ProtocolError(
                "already_played",
                "you have played this deal: one attempt each",
                {"table": found.table_id},
            )
        return False, found

    async def _start(self, caller: Caller, deal: Deal, name: str | None) -> tuple[bool, AttemptRow]:
        person, dealer = self.seating(deal)
        seats = tuple(
            (SeatKind.PERSON, None) if s == person else (SeatKind.BOT, LEVEL) for s in range(2)
        )
        spec = TableSpec(deal.variant, dict(DAILY_RULES), 2, False, False, seats, None)
        shown = check_name(name) if name is not None else caller.name or "Player"
        seated = {person: SeatRow(person, SeatKind.PERSON, None, caller.identity, shown)}
        row = self.lifecycle.plan(spec, seated, None, "daily", first_dealer=dealer)
        row.daily = deal.id
        now = self.clock()
        row.created_at = now
        attempt = AttemptRow(deal.id, caller.identity, row.id, person, shown, now)
        caps = self.lifecycle.admit(row, Budget(caller.identity, paired=True))
        stored = await self.attempts.start_attempt(attempt, row, caps)
        new = stored.table_id == row.id  # else another request of this identity came first
        if new:
            await self.lifecycle.open(row)
        return new, stored

    async def board(self, deal_id: str, caller: Caller | None) -> dict[str, Any]:
        """``GET /api/daily/{id}``: the deal's leaderboard by margin.

        The attempts' tables (to replay them) are listed only to a caller who may see
        them: who has finished their own attempt at this deal, or anyone once the deal
        is revealed to all (as the disclosure policy asks: :meth:`revealed_to_all`).
        """
        deal = self.find(deal_id)
        attempts = await self.attempts.attempts(deal.id)
        mine = next((a for a in attempts if caller and a.identity == caller.identity), None)
        played = (mine is not None and mine.status == TableStatus.OVER) or _revealed(
            deal, self.today(), attempts
        )
        done = [a for a in attempts if margin(a) is not None]
        done.sort(key=lambda a: (-(margin(a) or 0), -a.scores[a.seat], a.ended_at or 0))
        entries = []
        for a in done:
            value = margin(a) or 0
            place = 1 + sum(1 for b in done if (margin(b) or 0) > value)
            entry: dict[str, Any] = {
                "place": place,
                "name": a.name,
                "username": a.username,
                "margin": value,
                "score": a.scores[a.seat],
                "bot_score": a.scores[1 - a.seat],
                "you": mine is not None and a.identity == mine.identity,
            }
            if played:
                entry["table"] = a.table_id
            entries.append(entry)
        return {
            **deal.to_json(),
            "today": deal.day == self.today(),
            "attempts": len(attempts),
            "playing": sum(1 for a in attempts if a.status == TableStatus.PLAYING),
            "you": None if mine is None else _mine(mine),
            "entries": entries,
        }

    # ---------------------------------------------------------------- who sees them

    def claims(self, row: TableRow) -> bool:
        """A daily deal's attempt."""
        return row.daily is not None

    async def revealed_to_all(self, row: TableRow) -> bool:
        """Its deal is shown to anyone once its day (UTC) has ended and no attempt at it is
        still waiting or in play: nobody can play it any more."""
        if row.daily is None:
            return False
        try:
            deal = self.find(row.daily)
        except ProtocolError:
            return False
        return _revealed(deal, self.today(), await self.attempts.attempts(deal.id))

    async def earned(self, row: TableRow, caller: Caller) -> bool:
        """Someone who has finished their own attempt at the same deal."""
        if row.daily is None:
            return False
        mine = await self.attempts.attempt_of(row.daily, caller.identity)
        return mine is not None and mine.status == TableStatus.OVER

    def refusal(self, row: TableRow) -> ProtocolError:
        """``play_first``, naming the deal."""
        return ProtocolError(
            "play_first",
            "this is a daily deal: its games stay hidden until you have played it yourself",
            {"deal": row.daily},
        )


def _revealed(deal: Deal, today: dt.date, attempts: list[AttemptRow]) -> bool:
    """A deal is revealed to all once its day has ended and none of its attempts is
    still waiting or in play."""
    return deal.day < today and not any(a.status.live for a in attempts)


def _mine(attempt: AttemptRow) -> dict[str, Any]:
    return {
        "table": attempt.table_id,
        "url": f"/t/{attempt.table_id}",
        "status": attempt.status,
        "margin": margin(attempt),
    }
