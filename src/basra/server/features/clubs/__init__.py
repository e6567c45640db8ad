"""Clubs: groups of people who play together, with their page, roles and invitations.

**A club** has a name and a description (each through the one words policy,
:data:`~basra.server.words.CLUB_NAME` and :data:`~basra.server.words.CLUB_DESCRIPTION`),
and is *open* (anyone signed in joins at once) or *by invitation*. Its address is its
*slug* (``/club/SLUG``), made once from its name (ASCII letters and digits; a few random
ones when the name has too few, or when another club has it). Names are unique as the
words policy compares them (a confusable copy of a club's name is taken).

**Joining.** An open club is joined in one call. A club by invitation is joined by a
person a leader invited (they accept the invitation), or by a person whose request to
join a leader accepts (the leader invites them: the request and the invitation meet).
A person leaves in one call; the owner hands the club over first (or, alone in it,
leaves and the club is closed, as the operator closes one).

**Roles.** The *owner* (its maker, one a club) names *leaders* and hands over
ownership; leaders (and the owner) invite people, accept and refuse requests, remove
members (a leader removes members, the owner removes leaders too) and edit the
description and whether the club is open.

**The page** (:meth:`Clubs.page`): the club, its members with their best rating and,
to members only, each one's presence (:mod:`basra.server.features.friends`: from their
sockets, and *away* when they hide it), the recent finished games of its members, its
events (club-only tournaments, when the tournaments feature names them), and what the
caller may do (their role, an invitation or request pending; leaders see the pending
invitations and requests).

**Quotas** (:class:`~basra.server.quotas.Limits`): a person makes at most
``clubs_per_identity`` clubs a day and an address ``clubs_per_address``; joins and
requests are ``club_joins_per_identity`` / ``club_joins_per_address``; a person belongs
to at most ``clubs_per_member`` clubs. Refusals are ``bad_club`` naming the ``field``,
``club_taken`` (409, naming ``name``), ``no_such_club`` (404), ``not_club_leader`` (403),
``name_not_allowed`` and ``rate_limited``.

**Notifications.** A club-only event or a battle made notifies the members of every
club in it (but its maker) with a ``club_event`` item (:attr:`Clubs.notify`, the
notifications list's ``add``, wired in ``env.py``; so Web Push too), linking to the event
with the invitation a member's club page gives. The members are told after the answer
(a task of the process: a big club does not hold up its leader's request).

**The operator** removes a club (kept for the record, shown nowhere: ``basra admin club
remove``) or clears its description (``basra admin club clear-description``); a report
may name a club (:mod:`basra.server.features.moderation`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from basra.server import words
from basra.server.errors import ProtocolError
from basra.server.features.accounts import username_key
from basra.server.features.clubs.store import (
    ROLES,
    ClubEventRow,
    ClubRow,
    ClubStore,
    MemberRow,
    SqlClubs,
    TakenError,
)
from basra.server.features.friends import Friends
from basra.server.features.tournaments import Tournaments
from basra.server.identity import Caller
from basra.server.quotas import Quotas
from basra.server.store.protocols import PlayerStore
from basra.server.table.ratings import rating_json

log = logging.getLogger(__name__)

__all__ = [
    "ROLES",
    "ClubRow",
    "ClubStore",
    "Clubs",
    "MemberRow",
    "SqlClubs",
    "slug_of",
    "week_start",
]

MAX_SLUG = 32
SEARCH_LIMIT = 50
GAMES_LISTED = 20
GAMES_PER_MEMBER = 5
SLUG_FORM = re.compile(r"^[a-z0-9-]{1,40}$")
RESERVED = frozenset({"mine", "of", "battles", "weekly"})
"""Slugs no club takes (they are other addresses under ``/api/clubs/``)."""

EVENTS_LISTED = 10
BATTLE_CLUBS = (2, 10)
"""The fewest and most clubs in a battle."""
BEST_PLAYERS = (1, 20)
"""The bounds of a battle's N (how many of a club's players count)."""
WEEK = 7 * 86400.0
BOARD_EVERY = 60.0
"""Seconds the weekly leaderboard is kept before it is counted again."""
BOARD_CLUBS = 100
"""The clubs (most members first) the weekly leaderboard counts."""
BOARD_RESULTS = 100_000
"""The most results of a week the leaderboard reads (its members' newest first)."""


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_club", message, {"field": field})


def slug_of(name: str) -> str:
    """A club's address from its name: ASCII letters and digits, the rest as ``-``
    (empty when the name has none).

    >>> slug_of("  Café Basra — Alex! "), slug_of("نادي")
    ('cafe-basra-alex', '')
    """
    ascii_ = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_.casefold()).strip("-")[:MAX_SLUG].strip("-")


def _best(ratings: list[Any]) -> dict[str, Any] | None:
    """A member's best rating (by ordinal) with its pool, or None without any."""
    if not ratings:
        return None
    best = max(ratings, key=lambda r: r.mu - 3 * r.sigma)
    return {"family": best.family, "kind": best.kind, **rating_json(best.mu, best.sigma)}


def week_start(now: float) -> float:
    """The start of the week ``now`` is in: Monday 00:00 UTC.

    >>> week_start(1796000000.0), week_start(1795996799.0)  # Monday 30 Nov 2026, 00:53
    (1795996800.0, 1795392000.0)
    """
    days = int(now // 86400)
    monday = days - (days + 3) % 7  # 1970-01-01 was a Thursday
    return monday * 86400.0


def _flag(body: dict[str, Any], field: str) -> bool | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise _bad(field, f"{field}: true or false")
    return value


class Clubs:
    """Clubs, members, roles and invitations (see the module's docstring)."""

    def __init__(
        self,
        store: ClubStore,
        players: PlayerStore,
        friends: Friends,
        quotas: Quotas,
        tournaments: Tournaments,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.players = players
        self.friends = friends
        self.quotas = quotas
        self.tournaments = tournaments
        self.clock = clock
        self.notify: Callable[[str, str, dict[str, Any], str], Awaitable[object]] | None = None
        """Keeps a notification ``(person, kind, data, url)`` (the notifications list's
        ``add``, wired in env.py); None: nobody is told."""
        self._board: tuple[float, dict[str, Any]] | None = None
        self._telling: set[asyncio.Task[None]] = set()

    # ---------------------------------------------------------------- reading

    async def club(self, slug: Any) -> ClubRow:
        """The club a request names (not removed), or ``no_such_club``."""
        if not isinstance(slug, str) or not SLUG_FORM.match(slug):
            raise ProtocolError("no_such_club", "there is no such club")
        row = await self.store.load(slug)
        if row is None or row.removed_at is not None:
            raise ProtocolError("no_such_club", "there is no such club")
        return row

    async def is_member(self, slug: str, identity: str) -> bool:
        """Whether a person is a member of a club (not removed)."""
        row = await self.store.load(slug)
        if row is None or row.removed_at is not None:
            return False
        return await self.store.member(slug, identity) is not None

    async def name_of(self, slug: str) -> str | None:
        """A club's name, or None when there is no such club (a report names it)."""
        try:
            return (await self.club(slug)).name
        except ProtocolError:
            return None

    async def member_ids(self, slug: str) -> list[str]:
        """A club's members' identities."""
        return [m.identity for m in await self.store.members(slug)]

    def _summary(self, row: ClubRow) -> dict[str, Any]:
        return {
            "slug": row.slug,
            "name": row.name,
            "description": row.description,
            "open": row.open,
            "members": row.members,
        }

    async def search(self, text: Any) -> dict[str, Any]:
        """Clubs whose name holds ``text`` (all of them, most members first, without)."""
        if text is not None and not isinstance(text, str):
            raise _bad("q", "q: text")
        query = words.normalise(text[:64]) if text else ""
        rows = await self.store.search(query, SEARCH_LIMIT)
        return {"clubs": [self._summary(r) for r in rows]}

    async def of(self, identity: str) -> list[dict[str, Any]]:
        """A person's clubs, with their role in each."""
        shown = []
        for membership in await self.store.clubs_of(identity):
            row = await self.store.load(membership.slug)
            if row is not None and row.removed_at is None:
                shown.append({**self._summary(row), "role": membership.role})
        return shown

    async def mine(self, identity: str) -> dict[str, Any]:
        """A person's clubs, and the clubs that invited them."""
        invited = []
        for slug in await self.store.invited(identity):
            row = await self.store.load(slug)
            if row is not None and row.removed_at is None:
                invited.append({"slug": row.slug, "name": row.name})
        return {"clubs": await self.of(identity), "invited": invited}

    async def of_username(self, username: Any) -> dict[str, Any]:
        """The clubs of the account named ``username`` (a profile's)."""
        if not isinstance(username, str) or not username.strip():
            raise _bad("username", "username: a username")
        account = await self.players.account_by_username(username_key(username.strip()[:64]))
        if account is None:
            raise ProtocolError("no_such_player", "there is no such player")
        return {"clubs": await self.of(account.identity)}

    async def page(self, slug: Any, viewer: str | None) -> dict[str, Any]:
        """The club's page (see the module's docstring)."""
        row = await self.club(slug)
        members = await self.store.members(row.slug)
        ids = [m.identity for m in members]
        mine = next((m for m in members if m.identity == viewer), None)
        leader = mine is not None and mine.role in ("owner", "leader")
        invites = await self.store.pending(row.slug, "invite") if leader else []
        requests = await self.store.pending(row.slug, "request") if leader else []
        people = await self.friends.people([*ids, *invites, *requests])
        hidden = await self.friends.store.hidden(ids) if mine else set()
        ratings = await self.players.ratings_of_many(ids)
        listed = []
        for member in members:
            entry = {**people[member.identity], "role": member.role, "since": member.at}
            entry["rating"] = _best(ratings.get(member.identity, []))
            if mine is not None:
                entry.update(
                    await self.friends.status(member.identity, hidden=member.identity in hidden)
                )
            listed.append(entry)
        pending = None if viewer is None or mine else await self.store.invitation(row.slug, viewer)
        return {
            **self._summary(row),
            "owner": people.get(row.owner),
            "made_at": row.made_at,
            "member_list": listed,
            "games": await self._games(ids),
            "events": await self._events(row.slug, member=mine is not None),
            "you": {
                "role": mine.role if mine else None,
                "invited": pending == "invite",
                "requested": pending == "request",
            },
            "invites": [people[w] for w in invites],
            "requests": [people[w] for w in requests],
        }

    async def _games(self, ids: list[str]) -> list[dict[str, Any]]:
        """The members' newest finished games, each once, with the members who played
        (one query for the results)."""
        games: dict[str, dict[str, Any]] = {}
        people = await self.friends.people(ids) if ids else {}
        results = await self.players.results_among(ids, GAMES_LISTED * GAMES_PER_MEMBER)
        for result in results:
            who = result.identity
            if who in people:
                game = games.setdefault(
                    result.table_id,
                    {
                        "id": result.table_id,
                        "variant": result.variant,
                        "rated": result.rated,
                        "ended_at": result.ended_at,
                        "members": [],
                    },
                )
                game["members"].append(
                    {**people[who], "outcome": result.outcome, "place": result.place}
                )
        newest = sorted(games.values(), key=lambda g: -(g["ended_at"] or 0.0))
        return newest[:GAMES_LISTED]

    # ---------------------------------------------------------------- making and editing

    async def make(self, me: str, body: Any, address: str | None = None) -> dict[str, Any]:
        """Make a club (the caller its owner); its page."""
        if not isinstance(body, dict):
            raise _bad("name", "send {name, description, open}")
        name = words.check_text("name", body.get("name"), words.CLUB_NAME)
        description = words.check_text(
            "description", body.get("description", ""), words.CLUB_DESCRIPTION
        )
        open_ = _flag(body, "open")
        await self._room_for(me)
        limits = self.quotas.limits
        self.quotas.take("clubs", me, limits.clubs_per_identity, "clubs made per person a day")
        if address is not None:
            self.quotas.take("clubs", address, limits.clubs_per_address, "clubs per address")
        base = slug_of(name)
        for attempt in range(4):
            slug = base if attempt == 0 and len(base) >= 3 and base not in RESERVED else None
            if slug is None:
                slug = f"{base or 'club'}-{secrets.token_hex(2)}"[: MAX_SLUG + 5]
            row = ClubRow(slug, name, description, open_ is not False, me, self.clock())
            try:
                await self.store.add(row, words.normalise(name)[:64])
            except TakenError as taken:
                if taken.args[0] == "name":
                    raise ProtocolError(
                        "club_taken", "name: another club has this name", {"field": "name"}
                    ) from None
                continue
            return await self.page(slug, me)
        raise ProtocolError("club_taken", "name: try another name", {"field": "name"})

    async def edit(self, me: str, slug: Any, body: Any) -> dict[str, Any]:
        """A leader changes the description or whether the club is open; the page."""
        row = await self.club(slug)
        await self._leader(row, me)
        if not isinstance(body, dict):
            raise _bad("description", "send {description} or {open}")
        description = None
        if "description" in body:
            description = words.check_text(
                "description", body["description"], words.CLUB_DESCRIPTION
            )
        await self.store.edit(row.slug, description, _flag(body, "open"))
        return await self.page(row.slug, me)

    # ---------------------------------------------------------------- joining and leaving

    async def _room_for(self, who: str) -> None:
        """Refuse a person already in as many clubs as they may be."""
        most = self.quotas.limits.clubs_per_member
        if len(await self.store.clubs_of(who)) >= most:
            raise ProtocolError(
                "rate_limited", f"you belong to {most} clubs: leave one first", {"field": "slug"}
            )

    async def join(self, me: str, slug: Any, address: str | None = None) -> dict[str, Any]:
        """Join an open club, accept an invitation, or ask to join a club by invitation;
        what the caller is after (``you`` of the page)."""
        row = await self.club(slug)
        if await self.store.member(row.slug, me) is not None:
            return await self._you(row.slug, me)
        limits = self.quotas.limits
        self.quotas.take("club_joins", me, limits.club_joins_per_identity, "club joins a day")
        if address is not None:
            self.quotas.take("club_joins", address, limits.club_joins_per_address, "club joins")
        await self._room_for(me)
        pending = await self.store.invitation(row.slug, me)
        if row.open or pending == "invite":
            await self.store.admit(row.slug, me, self.clock())
        else:
            await self.store.invite(row.slug, me, "request", me, self.clock())
        return await self._you(row.slug, me)

    async def decline(self, me: str, slug: Any) -> dict[str, Any]:
        """Decline an invitation, or withdraw a request."""
        row = await self.club(slug)
        await self.store.drop_invitation(row.slug, me)
        return await self._you(row.slug, me)

    async def leave(self, me: str, slug: Any) -> dict[str, Any]:
        """Leave a club (the owner hands it over first, unless alone in it: then it closes)."""
        row = await self.club(slug)
        mine = await self.store.member(row.slug, me)
        if mine is None:
            raise _bad("slug", "you are not a member of this club")
        if mine.role == "owner":
            if len(await self.store.members(row.slug)) > 1:
                raise _bad("slug", "hand the club over to another member before you leave")
            await self.store.remove(row.slug, "closed by its owner", self.clock())
        await self.store.leave(row.slug, me)
        return {"role": None, "invited": False, "requested": False}

    async def _you(self, slug: str, me: str) -> dict[str, Any]:
        mine = await self.store.member(slug, me)
        pending = None if mine else await self.store.invitation(slug, me)
        return {
            "role": mine.role if mine else None,
            "invited": pending == "invite",
            "requested": pending == "request",
        }

    # ---------------------------------------------------------------- leaders

    async def _leader(self, row: ClubRow, me: str, owner: bool = False) -> MemberRow:
        mine = await self.store.member(row.slug, me)
        needed = ("owner",) if owner else ("owner", "leader")
        if mine is None or mine.role not in needed:
            who = "the owner" if owner else "a leader"
            raise ProtocolError("not_club_leader", f"only {who} of the club may do that")
        return mine

    async def invite(self, me: str, slug: Any, body: Any) -> dict[str, Any]:
        """A leader invites a person (or accepts their request: they are in); the page."""
        row = await self.club(slug)
        await self._leader(row, me)
        who = await self.friends.target(me, body)
        if await self.store.member(row.slug, who) is None:
            if await self.store.invitation(row.slug, who) == "request":
                await self.store.admit(row.slug, who, self.clock())
            else:
                await self.store.invite(row.slug, who, "invite", me, self.clock())
        return await self.page(row.slug, me)

    async def remove(self, me: str, slug: Any, body: Any) -> dict[str, Any]:
        """A leader removes a member (the owner a leader too), or refuses a request or
        takes back an invitation; the page."""
        row = await self.club(slug)
        mine = await self._leader(row, me)
        who = await self.friends.target(me, body)
        theirs = await self.store.member(row.slug, who)
        if theirs is None:
            await self.store.drop_invitation(row.slug, who)
        elif theirs.role == "owner" or (theirs.role == "leader" and mine.role != "owner"):
            raise ProtocolError("not_club_leader", "only the owner removes a leader")
        else:
            await self.store.leave(row.slug, who)
        return await self.page(row.slug, me)

    async def role(self, me: str, slug: Any, body: Any) -> dict[str, Any]:
        """The owner names a member a leader, or a leader a member again; the page."""
        row = await self.club(slug)
        await self._leader(row, me, owner=True)
        role = body.get("role") if isinstance(body, dict) else None
        if role not in ("leader", "member"):
            raise _bad("role", "role: leader or member")
        who = await self.friends.target(me, body)
        if not await self.store.set_role(row.slug, who, str(role)):
            raise _bad("username", "that person is not a member of this club")
        return await self.page(row.slug, me)

    async def hand_over(self, me: str, slug: Any, body: Any) -> dict[str, Any]:
        """The owner makes a member the owner (and is a leader after); the page."""
        row = await self.club(slug)
        await self._leader(row, me, owner=True)
        who = await self.friends.target(me, body)
        if not await self.store.hand_over(row.slug, me, who):
            raise _bad("username", "that person is not a member of this club")
        return await self.page(row.slug, me)

    # ---------------------------------------------------------------- club-only tables

    async def check_member(self, slug: Any, identity: str) -> ClubRow:
        """The club, if the person is a member of it; else ``not_club_member`` (403)."""
        row = await self.club(slug)
        if await self.store.member(row.slug, identity) is None:
            raise ProtocolError(
                "not_club_member",
                f"only members of the club {row.name!r} may do that",
                {"field": "club"},
            )
        return row

    async def keep_table(self, table_id: str, slug: str) -> None:
        """Keep a table for a club's members (its creator was checked to be one)."""
        await self.store.keep_table(table_id, slug)

    async def seat_rule(self, table_id: str, identity: str) -> None:
        """Who may sit (:data:`~basra.server.table.admission.SeatRule`): at a club-only
        table, the club's members (a removed club's table keeps nobody out)."""
        slug = await self.store.club_of_table(table_id)
        row = None if slug is None else await self.store.load(slug)
        if row is not None and row.removed_at is None:
            await self.check_member(row.slug, identity)

    # ---------------------------------------------------------------- events and battles

    async def make_event(
        self, caller: Caller, slug: Any, body: Any, address: str | None = None
    ) -> dict[str, Any]:
        """A leader makes a club-only tournament, or, with ``battle: {clubs, best}``, a
        club battle (an arena) of this club and the clubs named; its id and invitation."""
        row = await self.club(slug)
        await self._leader(row, caller.identity)
        if not isinstance(body, dict):
            raise _bad("name", "send the event's form")
        battle = body.get("battle")
        slugs, best = [row.slug], None
        if battle is not None:
            if not isinstance(battle, dict):
                raise _bad("battle", "battle: {clubs: [slugs], best: N}")
            others = battle.get("clubs")
            if not isinstance(others, list) or not all(isinstance(o, str) for o in others):
                raise _bad("clubs", "clubs: the other clubs' slugs")
            for other in others:
                if other not in slugs:
                    try:
                        slugs.append((await self.club(other)).slug)
                    except ProtocolError:
                        raise _bad("clubs", f"clubs: there is no club {other[:40]!r}") from None
            low, high = BATTLE_CLUBS
            if not low <= len(slugs) <= high:
                raise _bad("clubs", f"clubs: a battle has {low} to {high} clubs")
            best = battle.get("best")
            low, high = BEST_PLAYERS
            if not isinstance(best, int) or isinstance(best, bool) or not low <= best <= high:
                raise _bad("best", f"best: how many players count, {low} to {high}")
            if body.get("format", "arena") != "arena":
                raise _bad("format", "a club battle is an arena")
        form = {k: v for k, v in body.items() if k != "battle"}
        form["public"] = False  # the club's page gives its members the link
        if battle is not None:
            form["format"] = "arena"
        made = await self.tournaments.create(caller, form, address)
        invite = made.get("invite")
        kind = "club" if battle is None else "battle"
        await self.store.add_events(
            [ClubEventRow(made["id"], s, kind, best, invite, self.clock()) for s in slugs]
        )
        if self.notify is not None:
            task = asyncio.create_task(self._tell_members(slugs, made, kind, caller.identity))
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)
        return {"id": made["id"], "invite": invite, "kind": kind, "clubs": slugs, "best": best}

    async def _tell_members(
        self, slugs: list[str], made: dict[str, Any], what: str, maker: str
    ) -> None:
        """A ``club_event`` notification to each member of the clubs (but the maker)."""
        assert self.notify is not None
        url = f"/tournaments/{made['id']}"
        if made.get("invite"):
            url += f"?invite={made['invite']}"
        name = made.get("name")
        for slug in slugs:
            club = await self.club(slug)
            data = {
                "club": club.name,
                "slug": slug,
                "event": made["id"],
                "name": name if isinstance(name, str) else "",
                "what": what,
            }
            for who in await self.member_ids(slug):
                if who != maker:
                    try:
                        await self.notify(who, "club_event", data, url)
                    except Exception:
                        log.exception("club %s: a member was not told of event %s", slug, data)

    async def entry_rule(self, event_id: str, identity: str) -> None:
        """Who may enter (:data:`~basra.server.features.tournaments.EntryRule`): a club
        event's members only; in a battle, a member of one of its clubs, who plays for
        the first of them they enter through (kept)."""
        rows = await self.store.event_clubs(event_id)
        if not rows:
            return
        for kept in rows:
            if await self.is_member(kept.slug, identity):
                if kept.kind == "battle":
                    await self.store.play_for(event_id, identity, kept.slug)
                return
        names = [(await self.store.load(r.slug)) for r in rows]
        shown = ", ".join(repr(c.name) for c in names if c is not None)
        raise ProtocolError(
            "not_club_member", f"only members of {shown} may enter this event", {"field": "club"}
        )

    async def _events(self, slug: str, member: bool) -> list[dict[str, Any]]:
        """A club's events for its page (the invitation link to members)."""
        shown = []
        for kept in await self.store.events_of(slug, EVENTS_LISTED):
            try:
                points = await self.tournaments.player_points(kept.event_id)
            except ProtocolError:
                continue
            link = f"/tournaments/{kept.event_id}"
            if member and kept.invite:
                link += f"?invite={kept.invite}"
            shown.append(
                {
                    "id": kept.event_id,
                    "name": points["name"],
                    "status": points["status"],
                    "kind": kept.kind,
                    "url": link if member else None,
                }
            )
        return shown

    async def battle(self, event_id: Any) -> dict[str, Any]:
        """A club battle's standings: each club's score (the sum of its best N players'
        points), best first, with its players; and every player's line with their club."""
        if not isinstance(event_id, str) or len(event_id) > 40:
            raise ProtocolError("no_such_event", "there is no such club battle")
        rows = [r for r in await self.store.event_clubs(event_id) if r.kind == "battle"]
        if not rows:
            raise ProtocolError("no_such_event", "there is no such club battle")
        best = rows[0].best or 1
        points = await self.tournaments.player_points(event_id)
        plays_for = await self.store.players_of(event_id)
        people = await self.friends.people(list(plays_for))
        lines: dict[str, list[dict[str, Any]]] = {r.slug: [] for r in rows}
        players = []
        for entrant in points["entrants"]:
            club = next((plays_for[p] for p in entrant["people"] if p in plays_for), None)
            if club is None or club not in lines:
                continue
            person = people.get(entrant["people"][0], {})
            line = {
                "name": entrant["name"],
                "username": person.get("username"),
                "club": club,
                "points": entrant["points"],
            }
            lines[club].append(line)
            players.append(line)
        clubs = []
        for kept in rows:
            club_row = await self.store.load(kept.slug)
            ranked = sorted(lines[kept.slug], key=lambda p: -p["points"])
            for n, line in enumerate(ranked):
                line["counted"] = n < best
            clubs.append(
                {
                    "slug": kept.slug,
                    "name": club_row.name if club_row else kept.slug,
                    "score": sum(p["points"] for p in ranked[:best]),
                    "players": ranked,
                }
            )
        clubs.sort(key=lambda c: (-c["score"], c["name"].casefold()))
        for n, standing in enumerate(clubs):  # equal scores share a place
            same = n and standing["score"] == clubs[n - 1]["score"]
            standing["rank"] = clubs[n - 1]["rank"] if same else n + 1
        players.sort(key=lambda p: -p["points"])
        return {
            "event": event_id,
            "name": points["name"],
            "status": points["status"],
            "best": best,
            "clubs": clubs,
            "players": players,
        }

    # ---------------------------------------------------------------- the weekly board

    async def weekly(self) -> dict[str, Any]:
        """The week's club leaderboard (see docs/WEB.md): each club's battle points (its
        score in every battle made this week) and its members' rated wins this week."""
        now = self.clock()
        if self._board is not None and now - self._board[0] < BOARD_EVERY:
            return self._board[1]
        since = week_start(now)
        battle_points: dict[str, float] = {}
        for event_id in {r.event_id for r in await self.store.battles_since(since)}:
            try:
                standings = await self.battle(event_id)
            except ProtocolError:
                continue
            for club in standings["clubs"]:
                battle_points[club["slug"]] = battle_points.get(club["slug"], 0.0) + club["score"]
        counted = await self.store.search("", BOARD_CLUBS)
        members = await self.store.members_of([row.slug for row in counted])
        everyone = sorted({who for whos in members.values() for who in whos})
        won: dict[str, int] = {}
        for result in await self.players.results_among(everyone, BOARD_RESULTS, since):
            if result.rated and result.outcome == "win":
                won[result.identity] = won.get(result.identity, 0) + 1
        lines = []
        for row in counted:
            wins = sum(won.get(who, 0) for who in members.get(row.slug, []))
            battles = battle_points.get(row.slug, 0.0)
            if wins or battles:
                lines.append(
                    {
                        **self._summary(row),
                        "battle_points": battles,
                        "rated_wins": wins,
                        "points": battles + wins,
                    }
                )
        lines.sort(key=lambda c: (-c["points"], c["name"].casefold()))
        board = {"since": since, "until": since + WEEK, "clubs": lines}
        self._board = (now, board)
        return board

    # ---------------------------------------------------------------- the operator

    async def remove_club(self, slug: str, reason: str) -> dict[str, Any]:
        """The operator removes a club (see the module's docstring)."""
        row = await self.club(slug)
        await self.store.remove(row.slug, reason[: words.REPORT_NOTE.high], self.clock())
        return {"club": row.slug, "removed": True}

    async def clear_description(self, slug: str) -> dict[str, Any]:
        """The operator clears a club's description."""
        row = await self.club(slug)
        await self.store.edit(row.slug, "", None)
        return {"club": row.slug, "description": ""}
