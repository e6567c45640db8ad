"""Notifications: kept, listed, counted, marked read, delivered live to every socket a
person holds (in this process and the others), and told to the registered listeners."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.web.helpers import (
    FAST,
    ServerThread,
    file_store,
    http,
    new_token,
    refusal,
    sharing,
    started_env,
)

from basra.server.app import AppConfig
from basra.server.connection import Connection
from basra.server.env import Env
from basra.server.features.notifications import NotificationRow
from basra.server.identity import Caller
from basra.server.runtime.pubsub import MemoryHub


async def socket_of(env: Env, who: str) -> Connection:
    connection = Connection(Caller(who, "device"))
    env.connections.add(connection)
    return connection


def drained(connection: Connection) -> list[dict[str, Any]]:
    out = []
    while not connection.outbox.empty():
        message = connection.outbox.get_nowait()
        assert isinstance(message, dict)
        out.append(message)
    return out


def test_items_are_kept_listed_counted_marked_read_and_told_to_listeners() -> None:
    async def scenario() -> None:
        env = await started_env()
        amal = (await env.identities.create("127.0.0.1")).caller.identity
        heard: list[NotificationRow] = []

        async def listener(row: NotificationRow) -> None:
            heard.append(row)

        env.notifications.on_added(listener)
        service = env.notifications
        first = await service.add(amal, "challenge", {"challenge": "c1", "from": "Badr"}, "/c/c1")
        await asyncio.sleep(0.01)
        second = await service.add(amal, "rematch", {"table": "t1"}, "/t/t1")
        assert [r.id for r in heard] == [first.id, second.id]
        listed = await service.listing(amal)
        assert [i["id"] for i in listed["items"]] == [second.id, first.id]  # newest first
        assert listed["items"][1] == {
            "id": first.id,
            "kind": "challenge",
            "data": {"challenge": "c1", "from": "Badr"},
            "url": "/c/c1",
            "at": first.at,
            "read": False,
        }
        assert listed["unread"] == 2 and listed["next"] is None
        page = await service.listing(amal, limit=1)
        assert page["next"] == second.at
        older = await service.listing(amal, before=page["next"], limit=1)
        assert [i["id"] for i in older["items"]] == [first.id]
        assert await service.mark_read(amal, {"ids": [first.id]}) == {"unread": 1}
        assert (await service.listing(amal))["items"][1]["read"] is True
        assert await service.mark_read(amal, {"all": True}) == {"unread": 0}
        # Another person's ids are not the caller's to mark.
        badr = (await env.identities.create("127.0.0.1")).caller.identity
        third = await service.add(badr, "challenge_declined", {"from": "Amal"}, "/")
        await service.mark_read(amal, {"ids": [third.id]})
        assert await service.unread(badr) == {"unread": 1}
        for body, field in (([], "ids"), ({"ids": "x"}, "ids"), ({"ids": [5]}, "ids")):
            error = await refusal(service.mark_read(amal, body))
            assert error.code == "bad_notification" and (error.extra or {})["field"] == field
        for before, limit, field in (("x", 5, "before"), (None, 0, "limit"), (None, 51, "limit")):
            error = await refusal(service.listing(amal, before, limit))
            assert (error.extra or {})["field"] == field
        await env.close()

    asyncio.run(scenario())


def test_an_item_reaches_every_socket_of_the_person_in_both_processes() -> None:
    async def scenario() -> None:
        hub = MemoryHub()
        # A file both processes open (two engines on one in-memory, shared-cache database
        # meet SQLite's table locks, which no busy timeout waits out).
        store = file_store()
        one = await started_env(store=store, hub=hub, origin="one")
        two = await started_env(store=sharing(store), hub=hub.attach(), origin="two")
        amal = (await one.identities.create("127.0.0.1")).caller.identity
        badr = (await one.identities.create("127.0.0.1")).caller.identity
        here, there = await socket_of(one, amal), await socket_of(two, amal)
        other = await socket_of(two, badr)
        row = await one.notifications.add(amal, "challenge", {"from": "Badr"}, "/")
        for connection in (here, there):
            told = drained(connection)
            assert told == [{"type": "notification", "item": row.shown(), "unread": 1}]
        assert drained(other) == []
        # Marking read on process two tells the badge on process one.
        await two.notifications.mark_read(amal, {"all": True})
        assert drained(here) == [{"type": "unread", "unread": 0}] == drained(there)
        one.connections.discard(here)
        await one.notifications.add(amal, "rematch", {}, "/")
        assert drained(here) == [] and len(drained(there)) == 1
        await two.close()
        await one.close()

    asyncio.run(scenario())


def test_the_api_lists_counts_and_marks_read_and_refuses_in_words(tmp_path: Path) -> None:
    config = AppConfig(database=str(tmp_path / "n.db"), service=FAST)
    with ServerThread(config) as server:
        base = server.url
        amal = new_token(base)
        status, listed = http(f"{base}/api/notifications", token=amal)
        assert (status, listed) == (200, {"items": [], "unread": 0, "next": None})
        assert http(f"{base}/api/notifications/unread", token=amal)[1] == {"unread": 0}
        status, after = http(f"{base}/api/notifications/read", {"all": True}, token=amal)
        assert (status, after) == (200, {"unread": 0})
        status, refused = http(f"{base}/api/notifications/read", {"ids": 3}, token=amal)
        assert status == 422 and refused["field"] == "ids"
        status, refused = http(f"{base}/api/notifications?limit=500", token=amal)
        assert status == 422 and refused["field"] == "limit"
        assert http(f"{base}/api/notifications")[0] == 401
