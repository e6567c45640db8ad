from __future__ import annotations

import json
from pathlib import Path

import pytest

from basra.record import Record, RecordError, read_records, record_of, result_json

from .conftest import random_game

pytestmark = pytest.mark.engine


def record_json(**changes: object) -> dict[str, object]:
    state = random_game("egyptian", 2, seed=1)
    data = record_of(state, ["a", "b"]).to_json()
    data.update(changes)
    return data


def test_round_trip_of_a_played_game() -> None:
    state = random_game("syrian", 4, teams=True, seed=2, rules={"target": 61})
    data = record_of(state).to_json()
    assert data["rules"] == {"target": 61}
    again = Record.from_json(json.loads(json.dumps(data))).replay()
    assert again.fingerprint() == state.fingerprint()
    assert result_json(again)["finished"] is True


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "basra/2"}, "'format' must be 'basra-record/1'"),
        ({"variant": "lebanese_a"}, "'variant' must be one of"),
        ({"players": 5}, "'players' must be 2, 3 or 4"),
        ({"players": True}, "'players' must be 2, 3 or 4"),
        ({"teams": True}, "'teams' needs 4 players"),
        ({"teams": "yes"}, "'teams' must be true or false"),
        ({"first_dealer": 2}, "'first_dealer' must be a seat from 0 to 1"),
        ({"rules": {"speed": 1}}, "unknown setting 'speed'"),
        ({"rules": [1]}, "'rules' must be an object"),
        ({"names": ["only one"]}, "'names' must be a list of 2 names"),
        ({"rounds": {}}, "'rounds' must be a list"),
        ({"rounds": [{"pack": "AS 2S"}]}, "round 0: 'pack' must be a list"),
        ({"rounds": [{"pack": ["AS"], "plays": ["AS"]}]}, "round 0: the pack has 1 cards, not 52"),
    ],
)
def test_malformed_records_are_clear_errors(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_json(record_json(**changes)).replay()


def test_illegal_plays_name_round_and_play() -> None:
    data = record_json()
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    rounds[1]["plays"][5] = "7Sx9Z"
    with pytest.raises(RecordError, match=r"round 1, play 5: seat \d cannot play '7Sx9Z'"):
        Record.from_json(data).replay()


def test_cut_short_rounds() -> None:
    data = record_json()
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    rounds[0]["plays"] = rounds[0]["plays"][:10]
    with pytest.raises(RecordError, match="round 1: round 0 is cut short"):
        Record.from_json(data).replay()
    data["rounds"] = rounds[:1]
    result = result_json(Record.from_json(data).replay())
    assert result["rounds"] == [{"plays": result["rounds"][0]["plays"]}]
    assert len(result["rounds"][0]["plays"]) == 10
    assert result["score"] == [0, 0] and result["finished"] is False


def test_rounds_after_the_end_and_plays_after_a_round() -> None:
    data = record_json()
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    more = dict(data, rounds=[*rounds, rounds[0]])
    with pytest.raises(RecordError, match=f"round {len(rounds)}: the game ended"):
        Record.from_json(more).replay()
    rounds[0]["plays"].append("2S")
    with pytest.raises(RecordError, match="round 0, play 48: the round ended"):
        Record.from_json(data).replay()


def test_read_records_keeps_going_after_a_bad_line(tmp_path: Path) -> None:
    good = json.dumps(record_json())
    path = tmp_path / "games.jsonl"
    path.write_text(f"{good}\n\nnot json\n{good}\n", encoding="utf-8")
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == ["Record", "RecordError", "Record"]
    assert str(items[1]).startswith("game 1: not valid JSON")
    single = tmp_path / "game.json"
    single.write_text(json.dumps(record_json(), indent=2), encoding="utf-8")
    assert isinstance(next(read_records(single)), Record)
