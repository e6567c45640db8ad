"""The table master without a transport: races between two processes on one store."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.web.helpers import file_store, sharing, started_env

from basra.server.connection import Connection, encode
from basra.server.runtime.pubsub import MemoryHub
from basra.server.table.forms import TableForm, check_table_form
from basra.server.table.live import Client


def spec(**form: Any) -> Any:
    """A checked table form."""
    return check_table_form(TableForm.model_validate({"name": "Amal", **form}))[1]


def drain(client: Connection) -> list[dict[str, Any]]:
    """The messages queued for a connection, as a client would read them."""
    out = []
    while not client.outbox.empty():
        message = client.outbox.get_nowait()
        if message is not None:
            out.append(json.loads(encode(message)))
    return out


def last_state(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return [m for m in messages if m["type"] == "state"][-1]


def test_a_stale_process_loses_the_race_and_catches_up() -> None:
    async def scenario() -> None:
        store = file_store()
        # Two hubs that do not talk: process two only learns from the store.
        one = await started_env(store=store, hub=MemoryHub(), origin="one")
        two = await started_env(store=sharing(store), hub=MemoryHub(), origin="two")
        amal = (await one.identities.create("test")).caller
        badr = (await one.identities.create("test")).caller
        row = await one.lifecycle.create(
            amal, "test", "Amal", spec(seats=[{"kind": "person"}, {"kind": "person"}], my_seat=0)
        )
        a = Client(row.id, amal)
        b = Client(row.id, badr, "Badr")
        await one.master.connect(a)
        await one.master.connect(b)
        await one.messages.handle(b, {"type": "join", "seat": 1})
        for _ in range(50):
            await asyncio.sleep(0.01)
            state = last_state(drain(a) + drain(b) or [{"type": "state"}])
            if state.get("view", {}).get("phase") == "play":
                break
        live = one.master.live[row.id]
        mover = amal if live.state.turn == 0 else badr
        # The same person on another device, connected to process two.
        other = Client(row.id, mover)
        await two.master.connect(other)
        snapshot = last_state(drain(other))
        version = snapshot["version"]
        first = snapshot["view"]["legal"][0]
        # Process one takes the step first.
        here = a if live.state.turn == 0 else b
        await one.messages.handle(here, {"type": "move", "move": first, "version": version})
        assert one.master.live[row.id].version == version + 1
        # Process two still thinks it is that seat's turn at the old version.
        second = snapshot["view"]["legal"][-1]
        await two.messages.handle(other, {"type": "move", "move": second, "version": version})
        messages = drain(other)
        errors = [m for m in messages if m["type"] == "error"]
        assert errors and errors[0]["code"] == "stale"
        assert two.master.live[row.id].version == version + 1
        assert last_state(messages)["version"] == version + 1
        events = await store.tables.events(row.id)
        assert [e.data for e in events if e.kind == "play"] == [first]
        await one.close()
        await two.close()

    asyncio.run(scenario())
