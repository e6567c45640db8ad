"""What a finished game tells people: the names they saw at the table (bots as
"Bot 2 (expert)", seats counted from 1) in the record, the replay and "My games",
each round's score sheet and the winner in the replay, and custom rules said so."""

from __future__ import annotations

from tests.web.helpers import Player, ServerThread, create_table, http, new_token, play_to_end

from basra.record import Record
from basra.server.store.rows import SeatRow
from basra.server.table.queries import seat_names


def test_seat_names_count_from_one_and_name_bot_levels() -> None:
    seats = [
        SeatRow(0, "person", name="Amal"),
        SeatRow(1, "bot", "easy"),
        SeatRow(2, "person"),
        SeatRow(3, "bot", "expert"),
    ]
    assert seat_names(seats) == ["Amal", "Bot 2 (easy)", "Seat 3", "Bot 4 (expert)"]


def test_a_finished_game_keeps_the_names_people_saw(server: ServerThread) -> None:
    token = new_token(server.url)
    table = create_table(
        server.url,
        token,
        players=4,
        teams=True,
        rules={"target": 1},
        seats=[
            {"kind": "person"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "medium"},
            {"kind": "bot", "level": "easy"},
        ],
    )
    amal = Player(server.url, table, token, "Amal")
    play_to_end([amal])
    view = amal.view
    names = ["Amal", "Bot 2 (easy)", "Bot 3 (medium)", "Bot 4 (easy)"]

    status, record = http(f"{server.url}/api/games/{table}/record")
    assert status == 200 and record["names"] == names
    assert Record.from_json(record).replay().is_over

    status, replay = http(f"{server.url}/api/games/{table}/replay")
    assert status == 200 and replay["names"] == names
    assert [(s["kind"], s["level"]) for s in replay["table"]["seats"]] == [
        ("person", None),
        ("bot", "easy"),
        ("bot", "medium"),
        ("bot", "easy"),
    ]
    assert replay["table"]["overrides"] == {"target": 1}
    # The result the replay ends with: every round's sheet and the winner.
    result = replay["result"]
    assert result["finished"] and result["winner"] == view["winner"]
    assert result["score"] == view["scores"]
    rounds_over = [f["event"]["round"] for f in replay["frames"] if f["round_over"]]
    assert rounds_over == list(range(len(result["rounds"])))
    for sheet in result["rounds"]:
        assert {"cards", "card_points", "majority", "basras", "points", "score"} <= set(sheet)

    status, games = http(f"{server.url}/api/games", token=token)
    assert status == 200
    game = games["games"][0]
    assert game["id"] == table and game["status"] == "over" and game["seat"] == 0
    assert game["kinds"] == ["person", "bot", "bot", "bot"]
    assert game["levels"] == [None, "easy", "medium", "easy"]
    # The number the page names each bot by (its seat's, at an ordinary table).
    assert game["numbers"] == [None, 2, 3, 4]
    assert [s.get("number") for s in replay["table"]["seats"]] == [None, 2, 3, 4]
    assert game["rules"] == {"target": 1} and game["teams"] is True

    amal.close()


def test_the_lobby_says_which_tables_have_custom_rules(server: ServerThread) -> None:
    token = new_token(server.url)
    seats = [{"kind": "person"}, {"kind": "person"}]
    custom = create_table(server.url, token, rules={"target": 61}, seats=seats)
    plain = create_table(server.url, token, seats=seats)
    status, lobby = http(f"{server.url}/api/tables")
    assert status == 200
    rules = {t["id"]: t["rules"] for t in lobby["tables"]}
    assert rules[custom] == {"target": 61} and rules[plain] == {}
