"""The daily deal: everyone gets the same cards, nobody sees them before playing, once each."""

from __future__ import annotations

import json
import threading
from typing import Any

from tests.web.helpers import Player, ServerThread, cards_in, http, new_token, play_to_end
from tests.web.test_hidden import check_frames, states_by_version

from basra.server.env import Env
from basra.server.features.daily import ROTATION, Deal, variants_of


def get(url: str, token: str | None, seen: list[str]) -> tuple[int, Any]:
    status, body = http(url, token=token)
    seen.append(json.dumps(body))
    return status, body


def test_the_deals_come_from_the_server_secret_not_the_date() -> None:
    daily = Env().daily
    deal = Deal("2026-11-27.egyptian", daily.today(), "egyptian")
    daily._secret = b"a" * 32
    first, seats = daily.pack(deal), daily.seating(deal)
    assert daily.pack(deal) == first and daily.seating(deal) == seats
    assert sorted(first) == list(range(52))
    daily._secret = b"b" * 32
    assert daily.pack(deal) != first
    assert daily.pack(Deal("2026-11-28.egyptian", deal.day, "egyptian")) != first


def test_each_day_deals_egyptian_and_a_variant_in_turn() -> None:
    import datetime as dt

    days = [dt.date(2026, 1, 1) + dt.timedelta(days=k) for k in range(len(ROTATION))]
    assert {variants_of(d)[0] for d in days} == {"egyptian"}
    assert {variants_of(d)[1] for d in days} == set(ROTATION)


def test_two_identities_get_the_same_deal_and_neither_sees_its_cards_before_playing(
    server: ServerThread,
) -> None:
    base = server.url
    amal, badr = new_token(base), new_token(base)
    seen: list[str] = []  # every answer Badr got before he played
    _, today = get(base + "/api/daily", badr, seen)
    assert today["deals"][0]["variant"] == "egyptian"
    deal = today["deals"][0]["id"]
    status, started = http(f"{base}/api/daily/{deal}", {"name": "Amal"}, token=amal)
    assert status == 201
    mine = started["table"]
    first = Player(base, mine, amal, "Amal")
    assert first.wait_type("state")["view"]["hand"]
    # Badr asks for everything he can while Amal plays and once she is done.
    for when in ("playing", "over"):
        if when == "over":
            play_to_end([first])
        for path in (
            "/api/daily",
            f"/api/daily/{deal}",
            "/api/tables",
            f"/api/tables/{mine}",
            "/api/games",
            "/api/profile",
        ):
            assert get(base + path, badr, seen)[0] == 200
        hidden = ("record", "replay", "review")  # a review shows every hand too
        for path in (f"/api/games/{mine}/{what}" for what in hidden):
            for token in (badr, None):
                status, body = get(base + path, token, seen)
                assert status == 403 and body["error"] == "play_first", body
        status, body = http(f"{base}/api/games/{mine}/review", {}, token=badr)
        assert status == 403 and body["error"] == "play_first", body
        assert all(t["id"] != mine for t in http(base + "/api/tables")[1]["tables"])
        watcher = Player(base, mine, badr, "Badr")
        refused = watcher.wait_type("error")
        assert refused["code"] == "private_table"
        seen.extend(watcher.frames)
    _, board = get(f"{base}/api/daily/{deal}", badr, seen)
    assert [e["name"] for e in board["entries"]] == ["Amal"]
    assert "table" not in board["entries"][0]  # not before Badr has played
    leaked = set().union(*(cards_in(text) for text in seen))
    assert not leaked, f"Badr saw {sorted(leaked)} before playing"

    # Badr plays: his snapshots show only what his seat sees, as it comes.
    status, his = http(f"{base}/api/daily/{deal}", {}, token=badr)
    assert status == 201 and his["table"] != mine
    second = Player(base, his["table"], badr, "Badr")
    play_to_end([second])
    second.drain()
    status, record = http(f"{base}/api/games/{his['table']}/record", token=badr)
    assert status == 200
    assert check_frames(second, states_by_version(record), second.table["you"]) > 10
    # The same deal: the same pack, seats and dealer; the same plays got the same answers.
    status, hers = http(f"{base}/api/games/{mine}/record", token=badr)
    assert status == 200
    assert hers["rounds"][0]["pack"] == record["rounds"][0]["pack"]
    assert hers["first_dealer"] == record["first_dealer"]
    assert [s["kind"] for s in first.table["seats"]] == [s["kind"] for s in second.table["seats"]]
    assert hers["rounds"][0]["plays"] == record["rounds"][0]["plays"]
    assert first.view["scores"] == second.view["scores"]
    assert len(record["rounds"]) == 1  # the deal is one round
    # Now both are on the board, with their tables to replay.
    _, board = http(f"{base}/api/daily/{deal}", token=badr)
    assert {e["table"] for e in board["entries"]} == {mine, his["table"]}
    assert {e["place"] for e in board["entries"]} == {1}  # the same margin
    assert http(f"{base}/api/games/{mine}/replay", token=badr)[0] == 200


def test_one_attempt_per_identity(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    deal = http(base + "/api/daily", token=token)[1]["deals"][1]["id"]
    answers: list[tuple[int, Any]] = []

    def start() -> None:
        answers.append(http(f"{base}/api/daily/{deal}", {}, token=token))

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(s for s, _ in answers) == [200, 200, 200, 201]
    assert len({body["table"] for _, body in answers}) == 1
    table = answers[0][1]["table"]
    player = Player(base, table, token)
    play_to_end([player])
    status, body = http(f"{base}/api/daily/{deal}", {}, token=token)
    assert status == 409 and body["error"] == "already_played" and body["table"] == table
    today = http(base + "/api/daily", token=token)[1]
    you = next(d["you"] for d in today["deals"] if d["id"] == deal)
    assert you["status"] == "over" and isinstance(you["margin"], int)
    assert player.table["daily"] == deal
    player.send({"type": "rematch"})
    assert player.wait_type("error")["code"] == "no_rematch"


def test_bad_daily_requests_get_clear_errors(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    assert http(base + "/api/daily/tomorrow", token=token)[1]["error"] == "no_such_deal"
    assert http(base + "/api/daily/2026-01-01.chess")[0] == 404
    assert http(base + "/api/daily/2999-01-01.egyptian")[0] == 404
    yesterday = "2020-01-01." + variants_of(__import__("datetime").date(2020, 1, 1))[1]
    status, body = http(f"{base}/api/daily/{yesterday}", {}, token=token)
    assert status == 409 and body["error"] == "not_today"
    deal = http(base + "/api/daily")[1]["deals"][0]["id"]
    assert http(f"{base}/api/daily/{deal}", {})[1]["error"] == "signed_out"
    status, body = http(f"{base}/api/daily/{deal}", {"name": 5}, token=token)
    assert status == 422 and body["field"] == "name"
    status, body = http(f"{base}/api/daily/{deal}", {"name": " "}, token=token)
    assert status == 400 and body["error"] == "bad_name"
    status, body = http(f"{base}/api/daily/{deal}", {"colour": 1}, token=token)
    assert status == 422 and body["field"] == "colour"
