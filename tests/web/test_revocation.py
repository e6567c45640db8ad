"""Signing a device out, or revoking an identity, ends everything it holds, in every process.

Its sockets (tables, quick play, the bot API) are told ``signed_out`` and closed
with 4001, its seek leaves the pool, the transfer codes it made stop working, and
the bot accounts a revoked identity owned are revoked with it (issue 26). Each
is checked across two server processes on one store and one hub: the sockets on
one, the sign-out on the other.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from tests.web.helpers import count_rows, http, new_token
from tests.web.test_botapi import make_bot
from tests.web.test_quickplay import Seeker
from tests.web.test_services import TwoServers
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from basra.server.stores import SqlStore


def second_device(base: str, token: str) -> str:
    """The token of a second device of the same identity (by a transfer code)."""
    status, body = http(base + "/api/identity/transfer", {}, token=token)
    assert status == 201, body
    status, body = http(base + "/api/identity/transfer/accept", {"code": body["code"]})
    assert status == 201, body
    return str(body["token"])


def device_of(base: str, token: str) -> str:
    status, body = http(base + "/api/identity", token=token)
    assert status == 200, body
    return str(body["device"])


def closed_signed_out(ws: ClientConnection) -> None:
    """The socket is told ``signed_out``, then closed with 4001."""
    deadline = time.time() + 10
    told = False
    closed = False
    while not closed:
        assert time.time() < deadline, "the socket stayed open"
        try:
            text = ws.recv(timeout=max(0.01, deadline - time.time()))
        except ConnectionClosed:
            closed = True
            continue
        message: dict[str, Any] = json.loads(text)
        told = told or (message["type"] == "error" and message["code"] == "signed_out")
    assert told, "the socket was not told why"
    assert ws.close_code == 4001


def bot_socket(base: str, token: str) -> ClientConnection:
    ws = connect(base.replace("http", "ws") + "/ws/bot", open_timeout=10, proxy=None, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def test_a_signed_out_devices_quick_play_socket_closes_and_its_seek_goes() -> None:
    servers = TwoServers()
    with servers as (one, two):
        phone = new_token(one)
        laptop = second_device(one, phone)
        seeker = Seeker(one, phone)
        assert seeker.seek(variant="egyptian", players=2)["type"] == "seeking"
        store = servers.envs[0].store
        assert isinstance(store, SqlStore)
        assert count_rows(store, "seeks") == 1
        status, body = http(
            f"{two}/api/devices/{device_of(one, phone)}", token=laptop, method="DELETE"
        )
        assert status == 200, body
        closed_signed_out(seeker.ws)
        deadline = time.time() + 5
        while count_rows(store, "seeks"):
            assert time.time() < deadline, "the seek stayed in the pool"
            time.sleep(0.02)
        # The device's token is refused at once, on either process.
        again = Seeker(two, phone)
        assert json.loads(again.ws.recv(timeout=5))["code"] == "signed_out"


def test_a_code_from_a_signed_out_device_signs_nobody_in() -> None:
    with TwoServers() as (one, two):
        phone = new_token(one)
        laptop = second_device(one, phone)
        status, made = http(one + "/api/identity/transfer", {}, token=phone)
        assert status == 201
        status, _ = http(
            f"{two}/api/devices/{device_of(one, phone)}", token=laptop, method="DELETE"
        )
        assert status == 200
        for path in ("/preview", "/accept"):
            status, body = http(f"{two}/api/identity/transfer{path}", {"code": made["code"]})
            assert (status, body["error"]) == (404, "bad_code"), body
        # A code made on the device still signed in works.
        status, fresh = http(one + "/api/identity/transfer", {}, token=laptop)
        assert http(f"{two}/api/identity/transfer/accept", {"code": fresh["code"]})[0] == 201


def test_a_revoked_identitys_bots_are_refused_and_disconnected_everywhere() -> None:
    with TwoServers() as (one, two):
        owner = new_token(one)
        bot = make_bot(one, owner, "Falcon")
        program = bot_socket(one, bot["token"])
        assert json.loads(program.recv(timeout=10))["type"] == "welcome"
        assert http(two + "/api/identity", token=owner, method="DELETE")[0] == 200
        closed_signed_out(program)
        headers = {"Authorization": f"Bearer {bot['token']}"}
        for base in (one, two):
            status, body = http(base + "/api/bot/account", headers=headers)
            assert (status, body["error"]) == (401, "signed_out")
            again = bot_socket(base, bot["token"])
            assert json.loads(again.recv(timeout=5))["code"] == "signed_out"
            with pytest.raises(ConnectionClosed):
                again.recv(timeout=5)
            assert again.close_code == 4001
        # Its name stays taken: nobody else can pass for it.
        other = new_token(two)
        status, body = http(two + "/api/bots", {"name": "falcon"}, token=other)
        assert (status, body["error"]) == (409, "bot_name_taken")


def test_a_signed_out_device_leaves_its_table_in_every_process() -> None:
    with TwoServers() as (one, two):
        phone = new_token(one)
        laptop = second_device(one, phone)
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        status, made = http(one + "/api/tables", {"name": "Amal", "seats": seats}, token=phone)
        assert status == 201
        ws = connect(
            one.replace("http", "ws") + f"/ws/{made['id']}",
            open_timeout=10,
            proxy=None,
            legacy=True,
        )
        ws.send(json.dumps({"type": "hello", "token": phone}))
        assert json.loads(ws.recv(timeout=10))["type"] == "table"
        status, _ = http(
            f"{two}/api/devices/{device_of(one, phone)}", token=laptop, method="DELETE"
        )
        assert status == 200
        closed_signed_out(ws)
