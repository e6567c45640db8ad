"""Identities: issued by the server; another device joins only with a one-time code.

The old page adopted any ``#k=`` secret from a link, so whoever sent a person a
link carrying their own secret could later play that person's seats. Now no
link or message can replace a browser's identity: tokens are issued by the
server, a transfer code is confirmed on the receiving page, and devices can
be listed and signed out.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    started_store,
    stored_rows,
)

from basra.server.errors import ProtocolError
from basra.server.identity import TRANSFER_TTL, Identities, token_hash
from basra.server.quotas import Quotas
from basra.server.store.rows import IdentityRow
from basra.server.stores import Store

TWO_PEOPLE = {"seats": [{"kind": "person"}, {"kind": "person"}], "my_seat": 0}


def code_for(base: str, token: str) -> str:
    status, body = http(base + "/api/identity/transfer", {}, token=token)
    assert status == 201, body
    assert body["expires_in"] == TRANSFER_TTL
    return str(body["code"])


def test_a_transfer_code_signs_in_another_device_once(server: ServerThread) -> None:
    base = server.url
    amal = new_token(base)
    table = create_table(base, amal, "Amal", **TWO_PEOPLE)
    code = code_for(base, amal)
    # The receiving page first shows whose identity this is; that uses nothing up.
    status, preview = http(base + "/api/identity/transfer/preview", {"code": code})
    assert status == 200 and preview == {"name": "Amal", "games": 1}
    status, phone = http(base + "/api/identity/transfer/accept", {"code": code.lower()})
    assert status == 201 and phone["name"] == "Amal" and phone["token"] != amal
    for again in ("accept", "preview"):
        status, body = http(base + f"/api/identity/transfer/{again}", {"code": code})
        assert status == 404 and body["error"] == "bad_code"
    # The phone is the same person: it sits in Amal's seat and sees her hand.
    on_phone = Player(base, table, phone["token"], "Amal")
    assert on_phone.wait_type("table")["table"]["you"] == 0
    status, games = http(base + "/api/games", token=phone["token"])
    assert [g["id"] for g in games["games"]] == [table]
    status, me = http(base + "/api/identity", token=amal)
    assert status == 200 and len(me["devices"]) == 2
    assert [d["current"] for d in me["devices"]].count(True) == 1


def test_signing_a_device_out_closes_its_connections_and_refuses_its_token(
    server: ServerThread,
) -> None:
    base = server.url
    amal = new_token(base)
    table = create_table(base, amal, "Amal", **TWO_PEOPLE)
    status, phone = http(base + "/api/identity/transfer/accept", {"code": code_for(base, amal)})
    on_phone = Player(base, table, phone["token"], "Amal")
    on_phone.wait_type("state")
    # Nobody can sign out a device of another identity.
    stranger = new_token(base)
    status, body = http(base + f"/api/devices/{phone['device']}", token=stranger, method="DELETE")
    assert status == 404 and body["error"] == "no_such_device"
    status, body = http(base + f"/api/devices/{phone['device']}", token=amal, method="DELETE")
    assert status == 200 and body["signed_out"] == [phone["device"]]
    assert on_phone.wait_type("error")["code"] == "signed_out"
    status, body = http(base + "/api/games", token=phone["token"])
    assert status == 401 and body["error"] == "signed_out"
    again = Player(base, table, phone["token"], "Amal")
    assert again.wait_type("error")["code"] == "signed_out"
    assert http(base + "/api/games", token=amal)[0] == 200


def test_a_revoked_identity_signs_out_everywhere(server: ServerThread) -> None:
    base = server.url
    amal = new_token(base)
    status, phone = http(base + "/api/identity/transfer/accept", {"code": code_for(base, amal)})
    assert status == 201
    assert http(base + "/api/identity", token=amal, method="DELETE")[0] == 200
    for token in (amal, phone["token"]):
        assert http(base + "/api/games", token=token)[0] == 401


def test_a_hello_with_someone_elses_name_or_no_token_takes_no_seat(server: ServerThread) -> None:
    base = server.url
    amal = new_token(base)
    table = create_table(base, amal, "Amal", **TWO_PEOPLE)
    # A connection without a token watches; it can take no seat and sees no hand.
    watcher = Player(base, table, None, "Amal", watch_only=True)
    assert watcher.wait_type("table")["table"]["you"] is None
    assert "hand" not in watcher.wait_type("state")["view"]
    watcher.send({"type": "join", "seat": 1})
    assert watcher.wait_type("error")["code"] == "signed_out"
    # A made-up token is refused, and the connection closed.
    forged = Player(base, table, "x" * 43, "Amal")
    assert forged.wait_type("error")["code"] == "signed_out"


def identities_of(store: Store, clock: Any = None) -> Identities:
    """The identities of a store, with the server's own quotas."""
    if clock is None:
        return Identities(store.identities, store.tables, Quotas())
    return Identities(store.identities, store.tables, Quotas(), clock=clock)


def test_an_old_browser_secret_is_exchanged_once_for_its_games() -> None:
    async def scenario() -> None:
        store = await started_store()
        old_secret = "0123456789abcdef0123456789abcdef"
        await store.identities.create(IdentityRow(token_hash(old_secret), 0.0, "Amal", legacy=True))
        identities = identities_of(store)
        first = await identities.create("192.0.2.1", None, old_secret)
        assert first.caller.identity == token_hash(old_secret) and first.caller.name == "Amal"
        second = await identities.create("192.0.2.1", None, old_secret)
        assert second.caller.identity != first.caller.identity  # a fresh identity, no games

    asyncio.run(scenario())


def test_a_transfer_code_expires() -> None:
    async def scenario() -> None:
        now = [1000.0]
        identities = identities_of(await started_store(), clock=lambda: now[0])
        amal = await identities.create("192.0.2.1")
        code = (await identities.transfer_code(amal.caller))["code"]
        now[0] += TRANSFER_TTL + 1
        with pytest.raises(ProtocolError) as refused:
            await identities.accept(code, "192.0.2.2", None)
        assert refused.value.code == "bad_code"

    asyncio.run(scenario())


def test_tokens_and_codes_are_stored_only_as_hashes() -> None:
    async def scenario() -> None:
        store = await started_store()
        identities = identities_of(store)
        issued = await identities.create("192.0.2.1")
        code = (await identities.transfer_code(issued.caller))["code"]
        stored = json.dumps(await stored_rows(store), default=str)
        assert issued.token not in stored and code.replace("-", "") not in stored

    asyncio.run(scenario())


def test_transfer_code_guesses_are_limited_per_address() -> None:
    async def scenario() -> None:
        identities = identities_of(await started_store())
        refused = 0
        for _ in range(30):
            try:
                await identities.preview("AAAAA-AAAAA", "198.51.100.7")
            except ProtocolError as error:
                refused += error.code == "rate_limited"
                assert error.code in ("bad_code", "rate_limited")
        assert refused == 10  # 20 tries per 10 minutes

    asyncio.run(scenario())


def test_the_migration_keeps_the_games_of_old_browser_secrets(tmp_path: Path) -> None:
    """A database of the first schema: its seat keys become identities an old browser can claim."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    import basra.server.store.sql as sql
    from basra.server.stores import SqlStore

    path = tmp_path / "old.db"
    old_secret = "00112233445566778899aabbccddeeff"
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        config = Config()
        config.set_main_option("script_location", str(Path(sql.__file__).parent / "migrations"))
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        conn.execute(
            sa.text(
                "INSERT INTO tables (id, created_at, updated_at, variant, rules, players, teams, "
                "first_dealer, hints, status, scores) VALUES "
                "('old1', 1, 1, 'egyptian', '{}', 2, 0, 0, 1, 'open', '[]')"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO seats (table_id, seat, kind, player_key, name) VALUES "
                "('old1', 0, 'person', :key, 'Amal'), ('old1', 1, 'person', NULL, NULL)"
            ),
            {"key": token_hash(old_secret)},
        )
    engine.dispose()

    async def scenario() -> None:
        store = SqlStore(str(path))
        await store.start()
        identities = identities_of(store)
        issued = await identities.create("192.0.2.1", None, old_secret)
        assert issued.caller.identity == token_hash(old_secret) and issued.caller.name == "Amal"
        assert [g.id for g in await store.tables.games_of(issued.caller.identity)] == ["old1"]
        again = await identities.create("192.0.2.1", None, old_secret)
        assert again.caller.identity != issued.caller.identity
        row = await store.tables.load("old1")
        assert row is not None and row.seats[0].identity == token_hash(old_secret)
        await store.close()

    asyncio.run(scenario())
