"""Accounts, ratings and profiles on a real PostgreSQL, across two server processes."""

from __future__ import annotations

import time

import pytest
from tests.web.helpers import Player, create_table, http, new_token, play_to_end, server_process
from tests.web.test_services import postgres

pytestmark = pytest.mark.services
__all__ = ["postgres"]  # the module's PostgreSQL cluster

PASSWORD = "correct horse battery"


def test_an_account_rated_on_one_process_signs_in_on_another(postgres: str) -> None:
    options = ("--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        token = new_token(one)
        body = {"username": "amal", "password": PASSWORD}
        assert http(one + "/api/account", body, token=token)[0] == 201
        assert http(two + "/api/account", body, token=new_token(two))[1]["error"] == (
            "username_taken"
        )
        seats = [{"kind": "person"}, {"kind": "bot", "level": "medium"}]
        table = create_table(one, token, rated=True, rules={"target": 10}, seats=seats)
        amal = Player(one, table, token)
        play_to_end([amal])
        deadline = time.time() + 15
        while not (mine := http(one + "/api/profile", token=token)[1])["ratings"]:
            assert time.time() < deadline, "the game was not settled"
            time.sleep(0.1)
        status, signed_in = http(two + "/api/account/login", body)
        assert status == 201
        assert http(two + "/api/profile", token=signed_in["token"])[1] == mine
        assert mine["totals"]["games"] == 1 and mine["games"][0]["id"] == table
        board = http(two + "/api/leaderboard?variant=egyptian&players=2")[1]
        assert [e["username"] for e in board["entries"]] == ["amal"]
        assert board["entries"][0]["mu"] == mine["ratings"][0]["mu"]
        wrong = http(two + "/api/account/login", {"username": "amal", "password": "nope nope"})
        unknown = http(two + "/api/account/login", {"username": "nobody", "password": "nope"})
        assert wrong == unknown and wrong[0] == 401
