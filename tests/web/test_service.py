"""The match service without a transport: races between two processes on one store."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.web.helpers import FAST

from basra.server.forms import TableForm, check_table_form
from basra.server.pubsub import MemoryHub
from basra.server.service import Client, MatchService
from basra.server.store import MemoryStore


def spec(**form: Any) -> Any:
    """A checked table form."""
    return check_table_form(TableForm.model_validate({"name": "Amal", **form}))[1]


class SharedStore(MemoryStore):
    """A second view of the same memory store (for a second service)."""

    def __init__(self, inner: MemoryStore) -> None:
        self.__dict__ = inner.__dict__


def drain(client: Client) -> list[dict[str, Any]]:
    out = []
    while not client.outbox.empty():
        text = client.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def last_state(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return [m for m in messages if m["type"] == "state"][-1]


def test_a_stale_process_loses_the_race_and_catches_up() -> None:
    async def scenario() -> None:
        store = MemoryStore()
        # Two hubs that do not talk: process two only learns from the store.
        one = MatchService(store, MemoryHub(), FAST, origin="one")
        two = MatchService(SharedStore(store), MemoryHub(), FAST, origin="two")
        await one.start(resume=False)
        await two.start(resume=False)
        amal = (await one.identities.create("test")).caller
        badr = (await one.identities.create("test")).caller
        row = await one.create_table(
            amal, "test", "Amal", spec(seats=[{"kind": "person"}, {"kind": "person"}], my_seat=0)
        )
        a = Client(row.id, amal)
        b = Client(row.id, badr, "Badr")
        await one.connect(a)
        await one.connect(b)
        await one.handle(b, {"type": "join", "seat": 1})
        for _ in range(50):
            await asyncio.sleep(0.01)
            state = last_state(drain(a) + drain(b) or [{"type": "state"}])
            if state.get("view", {}).get("phase") == "play":
                break
        live = one.live[row.id]
        mover = amal if live.state.turn == 0 else badr
        # The same person on another device, connected to process two.
        other = Client(row.id, mover)
        await two.connect(other)
        snapshot = last_state(drain(other))
        version = snapshot["version"]
        first = snapshot["view"]["legal"][0]
        # Process one takes the step first.
        here = a if live.state.turn == 0 else b
        await one.handle(here, {"type": "move", "move": first, "version": version})
        assert one.live[row.id].version == version + 1
        # Process two still thinks it is that seat's turn at the old version.
        second = snapshot["view"]["legal"][-1]
        await two.handle(other, {"type": "move", "move": second, "version": version})
        messages = drain(other)
        errors = [m for m in messages if m["type"] == "error"]
        assert errors and errors[0]["code"] == "stale"
        assert two.live[row.id].version == version + 1
        assert last_state(messages)["version"] == version + 1
        events = await store.events(row.id)
        assert [e.data for e in events if e.kind == "play"] == [first]
        await one.close()
        await two.close()

    asyncio.run(scenario())
