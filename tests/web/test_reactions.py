"""Reactions at the table: delivered to everyone there, from players only, rate-limited."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.web.helpers import (
    FAST,
    TEST_LIMITS,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
)
from tests.web.test_services import TwoServers

from basra.server.app import AppConfig
from basra.server.features.reactions import CODES
from basra.server.quotas import Rate


def seated_pair(base: str, other: str | None = None) -> tuple[Player, Player, str]:
    """Amal (on ``base``) and Badr (on ``other``, or the same server) at one table."""
    token = new_token(base)
    table = create_table(base, token, seats=[{"kind": "person"}] * 2)
    amal = Player(base, table, token, "Amal")
    badr = Player(other or base, table, None, "Badr")
    badr.wait_type("state")
    badr.send({"type": "join", "seat": 1})
    amal.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["name"] == "Badr")
    return amal, badr, table


def test_a_reaction_reaches_everyone_at_the_table_and_only_players_send_them(
    tmp_path: Path,
) -> None:
    limits = replace(TEST_LIMITS, reactions_per_identity=Rate(3, 60))
    config = AppConfig(database=str(tmp_path / "r.db"), service=replace(FAST, limits=limits))
    with ServerThread(config) as server:
        amal, badr, table = seated_pair(server.url)
        watcher = Player(server.url, table, None, "W", watch_only=True)
        watcher.wait_type("state")
        badr.send({"type": "react", "code": "well_played"})
        for player in (amal, badr, watcher):
            got = player.wait_type("reaction")
            assert got == {"type": "reaction", "seat": 1, "code": "well_played"}
        watcher.send({"type": "react", "code": "clap"})
        assert watcher.wait_type("error")["code"] == "not_seated"
        badr.send({"type": "react", "code": "you are bad"})
        refused = badr.wait_type("error")
        assert refused["code"] == "bad_reaction" and refused["codes"] == list(CODES)
        badr.send({"type": "react", "code": 5})
        assert badr.wait_type("error")["code"] == "bad_message"
        badr.send({"type": "react"})
        assert badr.wait_type("error")["code"] == "bad_message"
        # Three a minute: the fourth is refused, saying how long to wait.
        for code in ("hello", "smile"):
            badr.send({"type": "react", "code": code})
            assert amal.wait_type("reaction")["code"] == code
        badr.send({"type": "react", "code": "fire"})
        limited = badr.wait_type("error")
        assert limited["code"] == "rate_limited" and limited["limit"] == "reactions"
        assert limited["retry_after"] >= 1
        amal.send({"type": "react", "code": "thanks"})  # others are not limited by it
        assert badr.wait_type("reaction") == {"type": "reaction", "seat": 0, "code": "thanks"}
        assert http(server.url + "/api/reactions")[1]["codes"] == list(CODES)


def test_a_reaction_crosses_to_another_server_process() -> None:
    with TwoServers() as (one, two):
        amal, badr, _ = seated_pair(one, two)
        amal.send({"type": "react", "code": "good_luck"})
        assert badr.wait_type("reaction") == {"type": "reaction", "seat": 0, "code": "good_luck"}
        assert amal.wait_type("reaction")["code"] == "good_luck"  # her own, echoed
        badr.send({"type": "react", "code": "heart"})
        assert amal.wait_type("reaction") == {"type": "reaction", "seat": 1, "code": "heart"}
