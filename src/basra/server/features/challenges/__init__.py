"""Challenges: invite a friend (or anyone, from their profile) to a table, and they see it
at once wherever they are on the site.

**Making one** (:meth:`Challenges.make`). A signed-in person names the people they invite
(``to``: each by ``username`` or follow-me ``code``, as
:meth:`~basra.server.features.friends.Friends.target` reads them), the table's settings
(``variant``, ``rules``, ``players``, ``teams``, ``hints``, ``rated``, ``clock``: checked by
the table form's own checks, :func:`~basra.server.table.forms.check_table_form`), the
``level`` of the bots that fill the seats nobody takes, and a few words if they like
(``text``, through the one words policy: :data:`basra.server.words.CHALLENGE`). The maker
sits in seat 0 and invitee ``n`` in seat ``n + 1``; seats beyond the invitees are bots. A
person blocked by (or blocking) anyone in it cannot be in it (``blocked``); a person makes
at most ``challenges_per_identity`` challenges, an address ``challenges_per_address``
(:class:`~basra.server.quotas.Limits`).

**Answering** (:meth:`Challenges.answer`). Each invitee accepts or declines; the maker may
cancel while it waits. A challenge *expires* :attr:`ChallengeConfig.expire_after` seconds
after it was made (each process sweeps for those due every
:attr:`ChallengeConfig.sweep_every` seconds): the invitees who had not answered count as
expired. Once every invitee has answered (or expired), if anyone accepted the table is made
through the lifecycle, with everyone who accepted seated, and a bot of the chosen level in
each seat whose invitee declined or let it expire; it starts at once, and everyone in it is
sent there. If nobody accepted, the challenge ends declined (or expired). Every change is
applied under the challenge's lock in the store
(:meth:`~basra.server.features.challenges.store.ChallengeStore.change`), so whichever
process applies the last answer makes the one table.

**Seen at once.** Every change is sent to every socket of everyone in the challenge
(``{"type": "challenge", "challenge"}``, in every process:
:meth:`~basra.server.features.notifications.Notifications.tell`), and the invitees get a
``challenge`` notification, the maker ``challenge_accepted``, ``challenge_declined`` or
``challenge_expired`` (:mod:`basra.server.features.notifications`).

**Rematches.** Each rematch tap after a game
(:meth:`~basra.server.table.lifecycle.Lifecycle.rematch`, kept in this feature's store:
:meth:`~basra.server.features.challenges.store.ChallengeStore.tap`) is shown at once to
every seated person, on every socket they hold (``{"type": "rematch_taps", "table",
"seats"}``: the seats that tapped), and those yet to tap get a ``rematch`` notification
(:meth:`Challenges.tapped`).

**Reports.** An invitee may report a challenge's maker (``{"challenge": ID}``:
:mod:`basra.server.features.moderation`), its words quoted in the report.

Refusals: ``bad_challenge`` naming the ``field``, ``bad_settings`` naming the table's field,
``no_such_player``, ``blocked``, ``no_such_challenge``, ``challenge_over`` and
``rate_limited``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from basra.bots import LEVELS
from basra.server import words
from basra.server.errors import ProtocolError
from basra.server.features.challenges.store import ChallengeRow, ChallengeStore, SqlChallenges
from basra.server.features.friends import Friends
from basra.server.features.friends.store import FriendStore
from basra.server.features.notifications import Notifications
from basra.server.quotas import Quotas
from basra.server.store.protocols import IdentityStore
from basra.server.store.rows import SeatKind, SeatRow, TableRow
from basra.server.table.admission import Budget
from basra.server.table.forms import TableForm, check_table_form
from basra.server.table.lifecycle import Lifecycle, new_table_id

__all__ = [
    "ANSWERS",
    "STATUSES",
    "ChallengeConfig",
    "ChallengeRow",
    "ChallengeStore",
    "Challenges",
    "SqlChallenges",
    "settle",
]

STATUSES = ("waiting", "accepted", "declined", "expired", "cancelled")
"""Where a challenge stands."""
ANSWERS = ("waiting", "accepted", "declined", "expired")
"""Where each invitee stands."""
SETTINGS = ("variant", "rules", "players", "teams", "hints", "rated", "clock")
"""The table form's fields a challenge takes."""
LISTED = 50
"""Most challenges listed."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChallengeConfig:
    """How long challenges last."""

    expire_after: float = 600.0
    """Seconds a challenge waits for its answers."""
    sweep_every: float = 2.0
    """Seconds between a process's looks for challenges whose time is up."""
    shown_for: float = 3600.0
    """Seconds a challenge that ended is still listed (shown as it ended)."""


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_challenge", message, {"field": field})


def settle(row: ChallengeRow, now: float) -> ChallengeRow:
    """The challenge once its time is counted: at its expiry the invitees still waiting
    expire; once nobody waits, it is ``accepted`` (a table id drawn) if anyone accepted,
    else ``declined`` if anyone declined, else ``expired``. The one rule of a challenge's end.
    """
    if row.status != "waiting":
        return row
    answers = dict(row.answers)
    if now >= row.expires_at:
        answers = {who: ("expired" if a == "waiting" else a) for who, a in answers.items()}
    status, table_id = "waiting", row.table_id
    if "waiting" not in answers.values():
        if "accepted" in answers.values():
            status, table_id = "accepted", new_table_id()
        elif "declined" in answers.values():
            status = "declined"
        else:
            status = "expired"
    return replace(row, answers=answers, status=status, table_id=table_id)


def _as_of(row: ChallengeRow, now: float) -> ChallengeRow:
    """A challenge as it stands at ``now``, to show (expired at once, before the sweep
    stores it), with no table named before one is made."""
    return replace(settle(row, now), table_id=row.table_id)


class Challenges:
    """Challenges made, answered, expired and made into tables (see the module's docstring)."""

    def __init__(
        self,
        store: ChallengeStore,
        friends: Friends,
        blocks: FriendStore,
        identities: IdentityStore,
        lifecycle: Lifecycle,
        notifications: Notifications,
        quotas: Quotas,
        config: ChallengeConfig | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.friends = friends
        self.blocks = blocks
        self.identities = identities
        self.lifecycle = lifecycle
        self.notifications = notifications
        self.quotas = quotas
        self.config = config or ChallengeConfig()
        self.clock = clock
        self._sweeping: asyncio.Task[None] | None = None
        lifecycle.on_rematch_tap(self.tapped)

    # ---------------------------------------------------------------- made

    async def make(self, me: str, body: Any, address: str | None = None) -> dict[str, Any]:
        """Make a challenge (checked: see the module's docstring); it as the maker sees it."""
        if not isinstance(body, dict):
            raise _bad("to", "send {to: [{username} or {code}], players, variant, ...}")
        to = body.get("to")
        if isinstance(to, dict):
            to = [to]
        if not isinstance(to, list) or not 0 < len(to) <= 3:
            raise _bad("to", "to: the people you challenge, 1 to 3 of them")
        invitees: list[str] = []
        for entry in to:
            who = await self.friends.target(me, entry)
            if who in invitees:
                raise _bad("to", "each person once")
            invitees.append(who)
        level = body.get("level", "medium")
        if level not in LEVELS:
            raise _bad("level", f"level: the bots' level, one of {', '.join(LEVELS)}")
        text = words.check_text("text", body.get("text", ""), words.CHALLENGE)
        settings = {k: body[k] for k in SETTINGS if k in body}
        names = await self._names([me, *invitees])
        maker_name = names[me]
        players = settings.get("players", 2)
        if isinstance(players, int) and len(invitees) > players - 1:
            raise _bad("to", f"a table of {players} seats has room for {players - 1} others")
        self._spec(settings, maker_name, len(invitees), level, accepted=None)  # checked now
        if await self.blocks.blocked_pairs([me, *invitees]):
            raise ProtocolError("blocked", "you cannot challenge this person")
        if settings.get("rated"):  # one who must wait before a rated game cannot offer one
            await self.lifecycle.check_rated(me)
        limits = self.quotas.limits
        self.quotas.take("challenges", me, limits.challenges_per_identity, "challenges per person")
        if address is not None:
            self.quotas.take(
                "challenges", address, limits.challenges_per_address, "challenges per address"
            )
        now = self.clock()
        row = ChallengeRow(
            id=secrets.token_urlsafe(9),
            maker=me,
            maker_name=maker_name,
            invitees=invitees,
            names={w: names[w] for w in invitees},
            answers=dict.fromkeys(invitees, "waiting"),
            settings={**settings, "level": level},
            text=text,
            at=now,
            expires_at=now + self.config.expire_after,
            address=address,
        )
        await self.store.add(row)
        await self._told(row)
        for who in invitees:
            await self.notifications.add(who, "challenge", self._facts(row), self._url(row))
        return self.shown(row, me)

    async def _names(self, whos: list[str]) -> dict[str, str]:
        """Each person's name at the table: their display name, else their username."""
        people = await self.identities.load_many(whos)
        accounts = await self.friends.players.accounts_of(whos)
        shown = {}
        for who in whos:
            person, account = people.get(who), accounts.get(who)
            name = (person.name if person else None) or (account.username if account else None)
            shown[who] = name or "?"
        return shown

    def _spec(
        self,
        settings: dict[str, Any],
        name: str,
        invited: int,
        level: str,
        accepted: list[bool] | None,
    ) -> Any:
        """The table's checked spec: the maker's seat, the invitees' (a bot where one did
        not accept), bots for the rest; ``bad_settings`` naming the field."""
        players = settings.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
            raise ProtocolError("bad_settings", "players: 2, 3 or 4", {"field": "players"})
        seats: list[dict[str, Any]] = [{"kind": "person"}]
        for n in range(max(players - 1, 0)):
            person = n < invited and (accepted is None or accepted[n])
            seats.append({"kind": "person"} if person else {"kind": "bot", "level": level})
        form = {"name": name, **settings, "seats": seats, "my_seat": 0}
        try:
            checked = TableForm.model_validate(form)
        except ValidationError as exc:
            error = exc.errors(include_url=False, include_input=False)[0]
            field = ".".join(str(p) for p in error["loc"])
            raise ProtocolError(
                "bad_settings", f"{field}: {error['msg']}", {"field": field}
            ) from None
        return check_table_form(checked)[1]

    # ---------------------------------------------------------------- answered

    async def answer(self, me: str, challenge_id: str, answer: str) -> dict[str, Any]:
        """``accept``, ``decline`` (an invitee) or ``cancel`` (the maker); the challenge after."""
        found = await self.store.load(challenge_id[:32])
        if found is None or (me != found.maker and me not in found.invitees):
            raise ProtocolError("no_such_challenge", "there is no such challenge")
        if answer == "cancel" and me != found.maker:
            raise ProtocolError("not_allowed", "only the challenge's maker cancels it")
        if answer in ("accept", "decline") and me not in found.invitees:
            raise ProtocolError("not_allowed", "only those challenged answer it")
        if answer == "accept" and found.settings.get("rated"):
            await self.lifecycle.check_rated(me)  # the playban's one gate
        now = self.clock()

        def step(row: ChallengeRow) -> ChallengeRow | None:
            row = settle(row, now)
            if row.status != "waiting":
                return row  # its time was up (or it ended meanwhile): kept as it stands
            if answer == "cancel":
                return replace(row, status="cancelled")
            if row.answers.get(me) != "waiting":
                return row
            answers = {**row.answers, me: "accepted" if answer == "accept" else "declined"}
            return settle(replace(row, answers=answers), now)

        changed = await self.store.change(found.id, step)
        if changed is None:
            raise ProtocolError("no_such_challenge", "there is no such challenge")
        before, after = changed
        after = await self._moved(before, after)
        if answer == "cancel":
            applied = after.status == "cancelled" and before.status == "waiting"
        else:
            applied = before.answers.get(me) == "waiting" and after.answers.get(me) in (
                "accepted",
                "declined",
            )
        if not applied:
            says = after.status if after.status != "waiting" else "answered already"
            raise ProtocolError("challenge_over", f"this challenge is over for you: {says}")
        return self.shown(after, me)

    async def expire(self, challenge_id: str) -> None:
        """End a challenge whose time is up (the sweep), if no other process did."""
        now = self.clock()

        def step(row: ChallengeRow) -> ChallengeRow | None:
            after = settle(row, now)
            return None if after == row else after

        changed = await self.store.change(challenge_id, step)
        if changed is not None:
            await self._moved(*changed)

    async def sweep(self) -> int:
        """Expire every challenge whose time is up; how many were looked at."""
        due = await self.store.due(self.clock(), 100)
        for challenge_id in due:
            await self.expire(challenge_id)
        return len(due)

    async def _moved(self, before: ChallengeRow, after: ChallengeRow) -> ChallengeRow:
        """What follows a change: the table made (by whoever ended the wait), the people
        in it told, and the maker notified; the challenge as it stands after."""
        if before == after:
            return after
        no_table_due = before.status != "waiting" or after.status != "accepted"
        if not no_table_due and not await self._make_table(after):
            after = await self.store.load(after.id) or after  # cancelled: no table
        await self._told(after)
        facts, url = self._facts(after), self._url(after)
        for who in after.invitees:
            if before.answers.get(who) == "waiting" and after.answers[who] == "declined":
                await self.notifications.add(
                    after.maker, "challenge_declined", {**facts, "by": after.names[who]}, url
                )
        if before.status == "waiting" and after.status in ("accepted", "expired"):
            kind = f"challenge_{after.status}"
            await self.notifications.add(after.maker, kind, facts, url)
        return after

    async def _make_table(self, row: ChallengeRow) -> bool:
        """The table of an accepted challenge, everyone who accepted seated, started; False
        when the maker's caps refuse it (the challenge is then cancelled, and everyone in it
        told ``challenge_failed`` with the refusal's code)."""
        assert row.table_id is not None
        settings = {k: v for k, v in row.settings.items() if k != "level"}
        accepted = [row.answers[w] == "accepted" for w in row.invitees]
        spec = self._spec(
            settings, row.maker_name, len(row.invitees), row.settings["level"], accepted
        )
        seated = {0: SeatRow(0, SeatKind.PERSON, None, row.maker, row.maker_name)}
        for n, who in enumerate(row.invitees):
            if accepted[n]:
                seated[n + 1] = SeatRow(n + 1, SeatKind.PERSON, None, who, row.names[who])
        planned = self.lifecycle.plan(spec, seated, row.maker, row.address)
        try:
            await self.lifecycle.add(
                replace(planned, id=row.table_id), Budget(row.maker, row.address)
            )
        except ProtocolError as error:  # the maker's caps are full: say so to everyone
            log.info("challenge %s: no table: %s", row.id, error.message)
            await self.store.change(row.id, lambda r: replace(r, status="cancelled", table_id=None))
            for who in [row.maker, *row.invitees]:
                await self.notifications.tell(
                    who, {"type": "challenge_failed", "challenge": row.id, "code": error.code}
                )
            return False
        return True

    # ---------------------------------------------------------------- rematches

    async def tapped(self, row: TableRow, who: str, tapped: set[str]) -> None:
        """A rematch tap: shown at once to every seated person, wherever they are (their
        table's page shows who tapped), and a ``rematch`` notification to each who has not
        tapped yet."""
        seats = [s for s in row.seats if s.kind == SeatKind.PERSON and s.identity is not None]
        message = {
            "type": "rematch_taps",
            "table": row.id,
            "seats": sorted(s.seat for s in seats if s.identity in tapped),
        }
        by = next((s.name for s in seats if s.identity == who), None)
        for seat in seats:
            assert seat.identity is not None
            await self.notifications.tell(seat.identity, message)
            if seat.identity not in tapped:
                await self.notifications.add(
                    seat.identity, "rematch", {"table": row.id, "by": by}, f"/t/{row.id}"
                )

    # ---------------------------------------------------------------- shown

    async def listing(self, me: str) -> dict[str, Any]:
        """The caller's challenges of the last hour: those they were sent and those they made."""
        now = self.clock()
        rows = await self.store.of(me, now - self.config.shown_for, LISTED)
        shown = [self.shown(_as_of(r, now), me) for r in rows]
        return {
            "incoming": [c for c in shown if not c["mine"]],
            "outgoing": [c for c in shown if c["mine"]],
        }

    async def one(self, me: str, challenge_id: str) -> dict[str, Any]:
        """One challenge the caller is in."""
        row = await self.store.load(challenge_id[:32])
        if row is None or (me != row.maker and me not in row.invitees):
            raise ProtocolError("no_such_challenge", "there is no such challenge")
        return self.shown(_as_of(row, self.clock()), me)

    def shown(self, row: ChallengeRow, me: str) -> dict[str, Any]:
        """A challenge as one person in it sees it."""
        return {
            "id": row.id,
            "mine": me == row.maker,
            "from": row.maker_name,
            "to": [{"name": row.names[w], "answer": row.answers[w]} for w in row.invitees],
            "you": row.answers.get(me),
            "settings": row.settings,
            "text": row.text,
            "at": row.at,
            "expires_at": row.expires_at,
            "status": row.status,
            "table": row.table_id,
        }

    def _facts(self, row: ChallengeRow) -> dict[str, Any]:
        """A notification's words-free data."""
        settings = row.settings
        return {
            "challenge": row.id,
            "from": row.maker_name,
            "variant": settings.get("variant", "egyptian"),
            "players": settings.get("players", 2),
            "rated": bool(settings.get("rated", False)),
            "table": row.table_id,
        }

    def _url(self, row: ChallengeRow) -> str:
        return f"/t/{row.table_id}" if row.table_id else f"/?challenge={row.id}"

    async def _told(self, row: ChallengeRow) -> None:
        for who in [row.maker, *row.invitees]:
            await self.notifications.tell(
                who, {"type": "challenge", "challenge": self.shown(row, who)}
            )

    # ---------------------------------------------------------------- running

    def start(self) -> None:
        """Sweep for challenges whose time is up every :attr:`ChallengeConfig.sweep_every`."""
        self._sweeping = asyncio.create_task(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("cannot expire the challenges whose time is up")

    async def close(self) -> None:
        """Stop sweeping."""
        if self._sweeping is not None:
            self._sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeping
