"""Friends: follow people, friends (mutual follows) and their presence, blocks.

**Following.** A signed-in person follows another named by their username (their
profile, ``/u/NAME``), by a seat at a table (a seated person's name), or by the
person's *follow-me code* (:meth:`Friends.link`: the link ``/?follow=CODE`` they share,
with its QR code when the server has ``segno``). Two people who follow each other are
friends. Unfollowing is one call. Nobody follows themselves or a bot.

**Presence.** A person's friends list shows each friend *online*, *playing* (with
the table to watch, when :func:`~basra.server.table.disclosure.may_watch` lets someone
not seated there watch it: a hidden table is never named) or *away*
(:mod:`basra.server.features.friends.presence`: from their open sockets, shared by
every process). Only friends see it; a person may hide their presence
(:meth:`Friends.hide`: they are *away* to everyone), and a suspended or banned person
is *away* to everyone at once.

**Blocks.** Blocking a person removes the follows between the two, both ways, and
refuses any new one (so neither sees the other's presence); quick play never seats
the two together (:func:`~basra.server.features.pairing.plan_tables`).
:meth:`~basra.server.features.friends.store.FriendStore.blocked_pairs` is the one
blocks query the features ask.

**Quotas.** A person makes at most ``follows_per_identity`` follows and
``blocks_per_identity`` blocks a day, a client address (all its identities)
``follows_per_address`` and ``blocks_per_address`` (:class:`~basra.server.quotas.Limits`).
Refusals are ``bad_friend`` naming the ``field``, ``no_such_player``, ``blocked``
and ``rate_limited``.
"""

from __future__ import annotations

import importlib
import io
import secrets
import time
from collections.abc import Callable
from typing import Any

from basra.server.errors import ProtocolError
from basra.server.features.accounts import username_key
from basra.server.features.friends.presence import Presence, PresenceConfig
from basra.server.features.friends.store import BlockedError, FriendStore, SqlFriends
from basra.server.features.moderation_store import ModerationStore
from basra.server.quotas import Quotas
from basra.server.store.protocols import IdentityStore, PlayerStore, TableStore
from basra.server.store.rows import SeatKind, TableStatus
from basra.server.table.disclosure import may_watch

__all__ = [
    "STATUSES",
    "BlockedError",
    "FriendStore",
    "Friends",
    "Presence",
    "PresenceConfig",
    "SqlFriends",
    "qr_svg",
]

STATUSES = ("online", "playing", "away")
"""A friend's presence."""
MAX_CODE = 32


def _bad(field: str, message: str) -> ProtocolError:
    return ProtocolError("bad_friend", message, {"field": field})


def _new_code() -> str:
    """A new follow-me code: 12 URL-safe characters, 72 random bits."""
    return secrets.token_urlsafe(9)


def qr_svg(text: str) -> str | None:
    """``text`` as a QR code in SVG (with ``segno``, when installed; else None)."""
    try:
        segno: Any = importlib.import_module("segno")
    except ImportError:
        return None
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
    return out.getvalue().decode()


class Friends:
    """Follows, blocks and friends' presence (see the module's docstring)."""

    def __init__(
        self,
        store: FriendStore,
        identities: IdentityStore,
        players: PlayerStore,
        tables: TableStore,
        sanctions: ModerationStore,
        presence: Presence,
        quotas: Quotas,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.identities = identities
        self.players = players
        self.tables = tables
        self.sanctions = sanctions
        self.presence = presence
        self.quotas = quotas
        self.clock = clock

    # ---------------------------------------------------------------- who is meant

    async def target(self, me: str, body: Any) -> str:
        """The identity a request names: ``username``, ``code``, or ``table`` and ``seat``."""
        if not isinstance(body, dict):
            raise _bad("username", "send {username}, {code} or {table, seat}")
        if "username" in body:
            username = body["username"]
            if not isinstance(username, str) or not username.strip():
                raise _bad("username", "username: a username")
            account = await self.players.account_by_username(username_key(username.strip()[:64]))
            if account is None:
                raise ProtocolError("no_such_player", "there is no such player")
            who = account.identity
        elif "code" in body:
            code = body["code"]
            if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE:
                raise _bad("code", "code: the code of a follow-me link")
            found = await self.store.owner_of(code)
            if found is None:
                raise ProtocolError("no_such_player", "that follow-me link is not known here")
            who = found
        elif "table" in body:
            table_id, seat = body.get("table"), body.get("seat")
            if not isinstance(table_id, str) or len(table_id) > 40:
                raise _bad("table", "table: a table's id")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise _bad("seat", "seat: a seat's number")
            row = await self.tables.load(table_id)
            if row is None:
                raise ProtocolError("no_such_table", f"there is no table {table_id!r}")
            if not 0 <= seat < len(row.seats) or row.seats[seat].kind != SeatKind.PERSON:
                raise _bad("seat", "that seat is not a person's")
            found = row.seats[seat].identity
            if found is None:
                raise _bad("seat", "nobody sits in that seat yet")
            who = found
        else:
            raise _bad("username", "name the person: username, code, or table and seat")
        person = await self.identities.load(who)
        if person is None or person.revoked_at is not None:
            raise ProtocolError("no_such_player", "there is no such player")
        if who == me:
            raise _bad(next(iter(body)), "that is you")
        return who

    # ---------------------------------------------------------------- follows and blocks

    async def follow(self, me: str, body: Any, address: str | None = None) -> dict[str, Any]:
        """Follow a person; their relation to the caller after."""
        who = await self.target(me, body)
        limits = self.quotas.limits
        self.quotas.take("follows", me, limits.follows_per_identity, "follows per person a day")
        if address is not None:
            self.quotas.take("follows", address, limits.follows_per_address, "follows per address")
        try:
            await self.store.follow(me, who, self.clock())
        except BlockedError:
            raise ProtocolError("blocked", "you cannot follow this person") from None
        return await self.relation(me, who)

    async def unfollow(self, me: str, body: Any) -> dict[str, Any]:
        """Stop following a person; their relation after."""
        who = await self.target(me, body)
        await self.store.unfollow(me, who)
        return await self.relation(me, who)

    async def block(self, me: str, body: Any, address: str | None = None) -> dict[str, Any]:
        """Block a person (the follows between you go); their relation after."""
        who = await self.target(me, body)
        limits = self.quotas.limits
        self.quotas.take("blocks", me, limits.blocks_per_identity, "blocks per person a day")
        if address is not None:
            self.quotas.take("blocks", address, limits.blocks_per_address, "blocks per address")
        await self.store.block(me, who, self.clock())
        return await self.relation(me, who)

    async def unblock(self, me: str, body: Any) -> dict[str, Any]:
        """Unblock a person; their relation after."""
        who = await self.target(me, body)
        await self.store.unblock(me, who)
        return await self.relation(me, who)

    async def relation(self, me: str, who: str) -> dict[str, Any]:
        """How the caller and a person stand: following, followed by, friends, blocking."""
        following = who in await self.store.following(me)
        follower = me in await self.store.following(who)
        return {
            "person": await self._person(who),
            "following": following,
            "follower": follower,
            "friends": following and follower,
            "blocking": who in await self.store.blocking(me),
        }

    async def relation_to(self, me: str, body: Any) -> dict[str, Any]:
        """:meth:`relation` of the person a request names."""
        return await self.relation(me, await self.target(me, body))

    # ---------------------------------------------------------------- lists

    async def listing(self, me: str) -> dict[str, Any]:
        """The caller's friends with their presence, whom they follow and block, and whether
        they hide their presence (a few queries for everyone listed, and a few more for each
        friend online)."""
        friends = await self.store.friends(me)
        mutual = set(friends)
        following = [w for w in await self.store.following(me) if w not in mutual]
        blocking = await self.store.blocking(me)
        people = await self.people([*friends, *following, *blocking])
        hidden = await self.store.hidden([*friends, me])
        entries = []
        for who in friends:
            entry = dict(people[who])
            entry.update(await self.status(who, hidden=who in hidden))
            entries.append(entry)
        order = {status: n for n, status in enumerate(STATUSES)}
        entries.sort(key=lambda e: (order[e["status"]], (e["name"] or "").casefold()))
        return {
            "friends": entries,
            "following": [people[w] for w in following],
            "blocking": [people[w] for w in blocking],
            "hidden": me in hidden,
        }

    async def status(self, who: str, *, hidden: bool = False) -> dict[str, Any]:
        """A friend's presence: ``status``, and ``table`` to watch when playing at one that
        may be watched."""
        away = {"status": "away", "table": None}
        if hidden or not self.presence.online(who):
            return away
        if await self.sanctions.sanction_of(who, self.clock()) is not None:
            return away
        for game in await self.tables.games_of(who, limit=5):
            if game.status == TableStatus.PLAYING:
                row = await self.tables.load(game.id)
                watch = row is not None and may_watch(row, None)
                return {"status": "playing", "table": game.id if watch else None}
        return {"status": "online", "table": None}

    async def link(self, me: str, site: str) -> dict[str, Any]:
        """The caller's follow-me code (made once), its link on ``site`` (the address the
        page is served from) and the link's QR code (SVG, or None without ``segno``)."""
        code = await self.store.code_of(me, _new_code(), self.clock())
        url = f"{site.rstrip('/')}/?follow={code}"
        return {"code": code, "url": url, "qr": qr_svg(url)}

    async def hide(self, me: str, body: Any) -> dict[str, Any]:
        """Hide the caller's presence, or show it to their friends again."""
        hidden = body.get("hidden") if isinstance(body, dict) else None
        if not isinstance(hidden, bool):
            raise _bad("hidden", "hidden: true or false")
        await self.store.hide(me, hidden)
        return {"hidden": hidden}

    async def _person(self, who: str) -> dict[str, Any]:
        """How a person is shown: see :meth:`people`."""
        return (await self.people([who]))[who]

    async def people(self, whos: list[str]) -> dict[str, dict[str, Any]]:
        """How each person is shown in a list: name, username, and their follow-me code
        (the handle the caller's buttons send back)."""
        accounts = await self.players.accounts_of(whos)
        codes = await self.store.codes_of(whos, _new_code, self.clock())
        people = await self.identities.load_many(whos)
        shown = {}
        for who in whos:
            person = people.get(who)
            account = accounts.get(who)
            shown[who] = {
                "name": person.name if person else None,
                "username": account.username if account else None,
                "code": codes[who],
            }
        return shown
