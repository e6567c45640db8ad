"""Moderation: people report players; the operator closes tables, suspends, bans, renames.

**Reports.** A signed-in person reports another from a table (the seat they see), from a
profile (``/u/{username}``), by their follow-me code (a friends' list, a follow-me link:
:mod:`basra.server.features.friends`), by a challenge they were sent (``{"challenge": ID}``,
its words quoted in the report: :mod:`basra.server.features.challenges`) or for a line of
table talk they read (``{"table", "line"}``: the report's ``subject`` is ``talk`` and it
quotes the line, :mod:`basra.server.features.talk`); or reports a club (``{"club": SLUG}``:
its name or description; the report's target is ``club:SLUG``,
:mod:`basra.server.features.clubs`). Each has a reason (:data:`REASONS`) and, if they like,
a few words (at most :data:`MAX_NOTE` characters): ``POST /api/reports``. Nobody can
report themselves or a bot; a person makes at most ``reports_per_identity`` reports (10 an
hour), and a client address, all its identities together, at most ``reports_per_address``
(20 an hour), so a flood of fresh identities cannot bury real reports. Reports are for the
operator only (``basra admin reports``), a page at a time, newest first, each page naming
the next one's cursor.

**Sanctions** (``basra admin suspend`` / ``ban`` / ``lift``). A suspended (until a
time) or banned identity:

- can do nothing more: every token of it is refused as ``suspended`` (HTTP 403, sockets
  closed 4003; :meth:`basra.server.identity.Identities.authenticate`), in every process,
  at once; its open sockets are sent ``suspended`` and closed with 4003 in every process
  (a notice on the bus), and its seek leaves the quick-play pool;
- its tables are settled by the rules that already hold for a person who leaves: a
  table still waiting for people that it sits at ends as abandoned (it frees everyone's
  quota); at a table in play its seat is at once played by the stand-in bot (no grace
  period), so at a rated table it forfeits after the forfeit rule's moves (its side placed
  last, the others by their score so far), and a casual game plays on to its end.

**Renaming** an abusive display name (``basra admin rename``) changes the identity's name
and the name of its seats at every table, finished games included (their records show
the new name), and every process shows it at once.

**Closing a table** (``basra admin close``) ends it as abandoned (kept, not rated), and
its clients see it at once. Settling, renaming and closing reach tables only through the
lifecycle's operator (:mod:`basra.server.table.operator`). Names are checked against
the word list at creation, and every text a person writes (a report's words too) is
cleaned by one policy (:mod:`basra.server.words`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from basra.server import words
from basra.server.connection import Connections
from basra.server.errors import ProtocolError, error_message
from basra.server.features.accounts import username_key
from basra.server.features.challenges.store import ChallengeRow
from basra.server.features.moderation_store import ModerationStore, ReportRow
from basra.server.identity import suspended
from basra.server.quotas import Quotas
from basra.server.runtime.pubsub import Bus
from basra.server.store.protocols import IdentityStore, PlayerStore, TableStore
from basra.server.store.rows import SanctionRow, SeatKind
from basra.server.table.forms import check_name
from basra.server.table.lifecycle import Lifecycle

__all__ = ["MAX_NOTE", "REASONS", "Moderation"]

REASONS = ("abuse", "cheating", "name", "spam", "other")
"""Why a player is reported: abusive words or reactions, cheating (e.g. playing with
help or in collusion), an offensive name, spam or flooding, something else."""
MAX_NOTE = words.REPORT_NOTE.high
"""Most characters of a report's words."""
SANCTIONS = ("suspended", "banned")
SETTLE_AFTER = 0.5
"""Seconds between closing a sanctioned identity's sockets and settling its tables (the
sockets have left their tables by then, so the stand-in is not cancelled by a leave)."""

log = logging.getLogger("basra.server.features.moderation")


class SaidLine(Protocol):
    """A line of table talk as a report quotes it (:class:`basra.server.features.talk.Line`)."""

    @property
    def speaker(self) -> str:
        """Who said it (an identity)."""

    @property
    def name(self) -> str:
        """The speaker's seat name, as it was shown."""

    @property
    def shown(self) -> str:
        """The line's text (a quick phrase's key in brackets)."""


LineFinder = Callable[[str, str], SaidLine | None]
"""The line of talk said at a table by its id, if it can still be reported."""


def _bad(message: str, field: str) -> ProtocolError:
    return ProtocolError("bad_report", message, {"field": field})


class Moderation:
    """Reports, and the operator's actions, carried out in every process."""

    def __init__(
        self,
        store: ModerationStore,
        tables: TableStore,
        identities: IdentityStore,
        players: PlayerStore,
        lifecycle: Lifecycle,
        connections: Connections,
        bus: Bus,
        quotas: Quotas,
        clock: Callable[[], float] = time.time,
        follow_codes: Callable[[str], Awaitable[str | None]] | None = None,
        club_names: Callable[[str], Awaitable[str | None]] | None = None,
        challenges: Callable[[str], Awaitable[ChallengeRow | None]] | None = None,
        lines: LineFinder | None = None,
    ) -> None:
        self.club_names = club_names
        """A club's name by its slug (None: no such club), for reports of a club."""
        self.challenges = challenges
        """A challenge by its id (:meth:`ChallengeStore.load`), for reports of a challenge."""
        self.lines = lines
        """A line of table talk by its table and id (:meth:`Talk.line`), for reports of one."""
        self.follow_codes = follow_codes
        """Whose follow-me code a code is (:meth:`FriendStore.owner_of`), for reports by code."""
        self.store = store
        self.tables = tables
        self.identities = identities
        self.players = players
        self.lifecycle = lifecycle
        self.connections = connections
        self.bus = bus
        self.quotas = quotas
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        bus.on("moderation", self.heard)

    # ---------------------------------------------------------------- reports

    async def report(
        self, reporter: str, body: dict[str, Any], address: str | None = None
    ) -> ReportRow:
        """Keep a person's report of another, made from the client ``address`` (checked;
        see the module's docstring)."""
        reason, note = body.get("reason"), body.get("note", "")
        if reason not in REASONS:
            raise _bad(f"reason: one of {', '.join(REASONS)}", "reason")
        note = words.check_text("note", note, words.REPORT_NOTE)
        table_id, target, shown = body.get("table"), None, None
        subject, quote = None, None
        if "line" in body and self.lines is not None:
            line_id = body.get("line")
            said = (
                self.lines(table_id, line_id)
                if isinstance(table_id, str) and isinstance(line_id, str)
                else None
            )
            if said is None:
                raise ProtocolError(
                    "no_such_line",
                    "line: that line of talk is not known here (lines are kept for an hour)",
                    {"field": "line"},
                )
            target, shown, subject, quote = said.speaker, said.name, "talk", said.shown
        elif table_id is not None:
            seat = body.get("seat")
            if not isinstance(table_id, str) or not isinstance(seat, int) or isinstance(seat, bool):
                raise _bad("name the table and the seat (a number)", "seat")
            row = await self.tables.load(table_id[:40])
            if row is None:
                raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
            if not 0 <= seat < len(row.seats) or row.seats[seat].kind != SeatKind.PERSON:
                raise _bad("that seat is not a person's", "seat")
            target, shown = row.seats[seat].identity, row.seats[seat].name
        elif "club" in body and self.club_names is not None:
            slug = body.get("club")
            shown = await self.club_names(slug) if isinstance(slug, str) and slug else None
            if shown is None:
                raise ProtocolError("no_such_club", "there is no such club")
            target = f"club:{slug}"
        elif "challenge" in body and self.challenges is not None:
            challenge_id = body.get("challenge")
            sent = None
            if isinstance(challenge_id, str):
                sent = await self.challenges(challenge_id[:32])
            if sent is None or reporter not in sent.invitees:
                raise ProtocolError("no_such_challenge", "there is no such challenge sent to you")
            target, shown = sent.maker, sent.maker_name
            if sent.text:
                note = f"[challenge {sent.id}: {sent.text}] {note}".strip()[:MAX_NOTE]
        elif "code" in body and self.follow_codes is not None:
            code = body.get("code")
            found = await self.follow_codes(code) if isinstance(code, str) and code else None
            person = found and await self.identities.load(found)
            if not person:
                raise ProtocolError("no_such_player", "that follow-me link is not known here")
            target, shown = person.id, person.name
        else:
            username = body.get("username")
            if not isinstance(username, str):
                raise _bad("name the table and seat, the username or the code", "username")
            account = await self.players.account_by_username(_username_key(username))
            if account is None:
                raise ProtocolError("no_such_player", "there is no such player")
            target, shown = account.identity, account.username
        if target is None:
            raise _bad("nobody sits in that seat yet", "seat")
        if target == reporter:
            field = "code" if "code" in body else "username"
            field = "line" if subject else "seat" if table_id else field
            raise _bad("you cannot report yourself", field)
        limits = self.quotas.limits
        self.quotas.take("reports", reporter, limits.reports_per_identity, "reports per person")
        if address is not None:
            self.quotas.take("reports", address, limits.reports_per_address, "reports per address")
        report = ReportRow(
            id=secrets.token_hex(8),
            reporter=reporter,
            target=target,
            reason=str(reason),
            note=note,
            at=self.clock(),
            table_id=table_id if isinstance(table_id, str) else None,
            target_name=shown,
            subject=subject,
            quote=quote,
        )
        await self.store.add_report(report)
        log.info("report %s: %s about %s (%s)", report.id, reporter, target, reason)
        return report

    async def reports(
        self, open_only: bool = True, limit: int = 100, after: str | None = None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """A page of reports for the operator, newest first, with each person's current
        name, from the one after the report ``after`` on; and the next page's cursor (None
        on the last page). ``bad_cursor`` when ``after`` names no report."""
        try:
            rows = await self.store.reports(open_only, limit + 1, after)
        except ValueError:
            raise ProtocolError(
                "bad_cursor", "after: no such report (start again without it)", {"field": "after"}
            ) from None
        following = rows[limit - 1].id if len(rows) > limit else None
        rows = rows[:limit]
        names: dict[str, str | None] = {}
        for identity in {r.reporter for r in rows} | {r.target for r in rows}:
            found = await self.identities.load(identity)
            names[identity] = found.name if found else None
        page = [
            {
                "id": r.id,
                "at": r.at,
                "reason": r.reason,
                "note": r.note,
                "table": r.table_id,
                "reporter": {"identity": r.reporter, "name": names.get(r.reporter)},
                "target": {
                    "identity": r.target,
                    "name": names.get(r.target),
                    "shown_as": r.target_name,
                },
                "closed_at": r.closed_at,
                "resolution": r.resolution,
                "subject": r.subject,
                "quote": r.quote,
            }
            for r in rows
        ]
        return page, following

    async def close_report(self, report_id: str, resolution: str) -> None:
        """Close a report, saying what was done."""
        if not await self.store.close_report(report_id, resolution[:MAX_NOTE], self.clock()):
            raise ProtocolError("no_such_report", f"there is no open report {report_id[:40]!r}")

    # ---------------------------------------------------------------- identities

    async def resolve(self, who: str) -> str:
        """An identity id, from itself or from ``@username``."""
        if who.startswith("@"):
            account = await self.players.account_by_username(_username_key(who[1:]))
            if account is None:
                raise ProtocolError("no_such_player", f"no account is called {who[1:]!r}")
            return account.identity
        if await self.identities.load(who) is None:
            raise ProtocolError("no_such_player", f"there is no identity {who[:64]!r}")
        return who

    async def sanction(self, who: str, kind: str, reason: str, hours: float | None) -> SanctionRow:
        """Suspend (for ``hours``) or ban an identity, in every process at once."""
        if kind not in SANCTIONS:
            raise ProtocolError("bad_request", "suspended or banned")
        if kind == "suspended" and (hours is None or not 0 < hours <= 24 * 3650):
            raise ProtocolError("bad_request", "a suspension lasts 0 to 87600 hours")
        identity = await self.resolve(who)
        now = self.clock()
        row = SanctionRow(
            identity=identity,
            kind=kind,
            reason=reason.strip()[:MAX_NOTE] or "the rules of this server",
            at=now,
            until=None if kind == "banned" else now + float(hours or 0) * 3600,
        )
        await self.store.sanction(row)
        log.warning("identity %s %s: %s", identity, kind, row.reason)
        self._shut_out(identity, row)
        await self.bus.publish({"kind": "moderation", "sanctioned": identity})
        return row

    async def lift(self, who: str) -> bool:
        """End a suspension or ban (the identity's tokens work again)."""
        return await self.store.lift(await self.resolve(who))

    async def rename(self, who: str, name: str) -> list[str]:
        """Give an identity a new display name, at every table it sat at; the tables."""
        identity = await self.resolve(who)
        shown = check_name(name)
        await self.identities.name(identity, shown)
        return await self.lifecycle.operator.rename_seats(identity, shown)

    # ---------------------------------------------------------------- tables

    async def close_table(self, table_id: str) -> str:
        """End a table waiting or in play as abandoned; its status after."""
        return str(await self.lifecycle.operator.close(table_id, "closed by the operator"))

    # ---------------------------------------------------------------- every process

    async def heard(self, notice: dict[str, Any]) -> None:
        """Another process sanctioned an identity: shut it out here too."""
        identity = notice.get("sanctioned")
        if isinstance(identity, str):
            sanction = await self.store.sanction_of(identity, self.clock())
            if sanction is not None:
                self._shut_out(identity, sanction)

    def _shut_out(self, identity: str, sanction: SanctionRow) -> None:
        farewell = error_message(suspended(sanction))
        self.connections.revoke([], [identity], farewell, code=4003)
        task = asyncio.create_task(self._settle_tables(identity, sanction))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle_tables(self, identity: str, sanction: SanctionRow) -> None:
        """The sanctioned identity's tables: waiting ones end, its seats in play are played
        by the stand-in at once (see the module's docstring)."""
        await asyncio.sleep(SETTLE_AFTER)
        try:
            await self.lifecycle.operator.leave_for_good(identity, f"{identity} {sanction.kind}")
        except Exception:
            log.exception("cannot settle the tables of %s (%s)", identity, sanction.kind)

    async def close(self) -> None:
        """Let pending settlements go."""
        for task in list(self._tasks):
            task.cancel()


def _username_key(username: str) -> str:
    return username_key(username.strip())
