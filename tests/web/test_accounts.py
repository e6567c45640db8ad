"""Accounts: claim a username, sign in on another device as the same identity.

A wrong password and an unknown username get the same answer; sign-ins are
rate-limited; accounts survive a restart; hashing runs off the event loop.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from tests.web.helpers import FAST, ServerThread, create_table, http, new_token, started_store

from basra.server.app import AppConfig
from basra.server.errors import ProtocolError
from basra.server.features.accounts import Accounts
from basra.server.identity import Identities
from basra.server.quotas import Quotas

PASSWORD = "correct horse battery"


def claim(base: str, token: str, username: str, password: str = PASSWORD) -> tuple[int, Any]:
    return http(base + "/api/account", {"username": username, "password": password}, token=token)


def login(base: str, username: str, password: str = PASSWORD) -> tuple[int, Any]:
    return http(base + "/api/account/login", {"username": username, "password": password})


def test_a_username_signs_another_device_in_to_the_same_identity(server: ServerThread) -> None:
    base = server.url
    amal = new_token(base)
    table = create_table(base, amal, "Amal")
    status, body = claim(base, amal, "Amal_7")
    assert status == 201 and body == {"username": "Amal_7"}
    status, me = http(base + "/api/identity", token=amal)
    assert me["username"] == "Amal_7" and me["name"] == "Amal"
    # Another device: the username in any case, the password, and it is Amal.
    status, phone = login(base, "amal_7")
    assert status == 201 and phone["token"] != amal
    assert phone["username"] == "Amal_7" and phone["name"] == "Amal"
    status, games = http(base + "/api/games", token=phone["token"])
    assert [g["id"] for g in games["games"]] == [table]
    mine = http(base + "/api/profile", token=amal)[1]
    assert http(base + "/api/profile", token=phone["token"])[1] == mine
    status, me = http(base + "/api/identity", token=phone["token"])
    assert len(me["devices"]) == 2
    # Signing out the phone signs out only the phone; the account still signs in.
    url = base + f"/api/devices/{phone['device']}"
    assert http(url, token=phone["token"], method="DELETE")[0] == 200
    assert http(base + "/api/games", token=phone["token"])[0] == 401
    assert http(base + "/api/games", token=amal)[0] == 200
    assert login(base, "Amal_7")[0] == 201


def test_a_wrong_password_gets_the_same_refusal_as_an_unknown_name(server: ServerThread) -> None:
    base = server.url
    assert claim(base, new_token(base), "badr")[0] == 201
    wrong = login(base, "badr", "not the password")
    unknown = login(base, "nobody_here", "not the password")
    assert wrong == unknown
    assert wrong[0] == 401 and wrong[1]["error"] == "bad_login"
    assert "username and password" in wrong[1]["message"]


def test_claims_are_checked_and_name_the_field(server: ServerThread) -> None:
    base = server.url
    amal, badr = new_token(base), new_token(base)
    assert claim(base, amal, "amal")[0] == 201
    status, body = claim(base, badr, "AMAL")
    assert status == 409 and body["error"] == "username_taken" and body["field"] == "username"
    status, body = claim(base, amal, "amal_two")
    assert status == 409 and body["error"] == "has_account"
    for bad in ("ab", "a" * 21, "has space", "semi;colon"):
        status, body = claim(base, badr, bad)
        assert status == 422 and body["error"] == "bad_username", bad
        assert body["field"] == "username"
    status, body = claim(base, badr, "badr", "short")
    assert status == 422 and body["error"] == "bad_password" and body["field"] == "password"
    status, body = http(base + "/api/account", {"username": 7, "password": PASSWORD}, token=badr)
    assert status == 422 and body["error"] == "bad_request" and body["field"] == "username"
    assert claim(base, badr, "بدر_")[0] == 201, "usernames may be Arabic"
    assert http(base + "/api/account", {"username": "x", "password": PASSWORD})[0] == 401


def test_the_display_name_changes(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    rename = {"name": "  Amal   S. "}
    status, body = http(base + "/api/identity", rename, token=token, method="PATCH")
    assert status == 200 and body == {"name": "Amal S."}
    assert http(base + "/api/identity", token=token)[1]["name"] == "Amal S."
    status, body = http(base + "/api/identity", {"name": ""}, token=token, method="PATCH")
    assert status == 400 and body["error"] == "bad_name"
    status, body = http(base + "/api/identity", {"name": 5}, token=token, method="PATCH")
    assert status == 422 and body["field"] == "name"


def test_a_revoked_identity_cannot_be_signed_in_to(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    assert claim(base, token, "carl")[0] == 201
    assert http(base + "/api/identity", token=token, method="DELETE")[0] == 200
    status, body = login(base, "carl")
    assert status == 401 and body["error"] == "bad_login"
    status, body = http(base + "/api/players/carl")
    assert status == 404 and body["error"] == "no_such_player"


def test_sign_ins_to_one_name_are_rate_limited(server: ServerThread) -> None:
    base = server.url
    assert claim(base, new_token(base), "dina")[0] == 201
    limit = int(server.app.state.env.quotas.limits.logins_per_username.count)
    for _ in range(limit):
        assert login(base, "dina", "wrong password")[0] == 401
    status, body = login(base, "DINA")  # even the right password, for a while
    assert status == 429 and body["error"] == "rate_limited" and body["limit"] == "logins"
    assert body["retry_after"] >= 1


def test_accounts_survive_a_restart(tmp_path: Path) -> None:
    config = AppConfig(database=str(tmp_path / "accounts.db"), service=FAST)
    with ServerThread(config) as first:
        token = new_token(first.url)
        table = create_table(first.url, token, "Amal")
        assert claim(first.url, token, "amal")[0] == 201
    with ServerThread(config) as second:
        assert login(second.url, "amal", "wrong password")[1]["error"] == "bad_login"
        status, body = login(second.url, "amal")
        assert status == 201
        games = http(second.url + "/api/games", token=body["token"])[1]["games"]
        assert [g["id"] for g in games] == [table]
        assert http(second.url + "/api/games", token=token)[0] == 200


class SlowHasher(PasswordHasher):
    """A hasher that holds its thread for a while, as argon2 does with real parameters."""

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        time.sleep(0.3)
        return super().hash(password, salt=salt)


def test_hashing_runs_off_the_event_loop() -> None:
    async def scenario() -> None:
        store = await started_store()
        quotas = Quotas()
        identities = Identities(store.identities, store.tables, quotas)
        hasher = SlowHasher(time_cost=1, memory_cost=8, parallelism=1)
        accounts = Accounts(store.players, store.identities, identities, quotas, hasher)
        caller = (await identities.create("test")).caller
        gaps: list[float] = []

        async def ticker() -> None:
            last = time.monotonic()
            while True:
                await asyncio.sleep(0.01)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        ticking = asyncio.create_task(ticker())
        await accounts.claim(caller, "amal", PASSWORD, "test")
        try:
            await accounts.sign_in("nobody", PASSWORD, "test", None)
        except ProtocolError as error:
            assert error.code == "bad_login"
        ticking.cancel()
        assert len(gaps) > 20 and max(gaps) < 0.2, "the loop must keep turning while hashing"

    asyncio.run(scenario())
