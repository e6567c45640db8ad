"""Nothing a user can send crashes the reader or the replayer: only clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from basra.query import QueryError, capture_query
from basra.record import Record, RecordError, read_records, record_of

from .conftest import random_game

pytestmark = pytest.mark.engine

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)

KEYS = ["format", "variant", "rules", "players", "teams", "first_dealer", "names", "rounds"]


def replay_or_error(data: Any) -> None:
    try:
        Record.from_json(data).replay()
    except RecordError as exc:
        assert str(exc)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_is_a_record_or_a_record_error(value: Any) -> None:
    replay_or_error(value)


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(KEYS), value=json_values, seed=st.integers(0, 1000))
def test_a_record_with_one_field_replaced(key: str, value: Any, seed: int) -> None:
    data = record_of(random_game("egyptian", 2, seed=seed % 5, stop_after=60)).to_json()
    data[key] = value
    replay_or_error(data)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), value=json_values)
def test_a_record_with_a_play_or_card_replaced(seed: int, value: Any) -> None:
    rng = random.Random(seed)
    data = record_of(random_game("lebanese", 3, seed=seed % 7, stop_after=70)).to_json()
    rnd = rng.choice(data["rounds"])
    field = rng.choice(["pack", "plays"])
    if rnd[field]:
        rnd[field][rng.randrange(len(rnd[field]))] = value
    replay_or_error(data)


def test_hostile_files(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(bytes(range(256)) * 10)
    huge_number = tmp_path / "number.json"
    huge_number.write_text('{"format": "basra-record/1", "variant": "egyptian", "players": 2, '
                           '"rules": {"target": 1e999}, "rounds": []}')  # fmt: skip
    for path in (deep, huge_number):
        items = list(read_records(path))
        assert len(items) == 1
        if isinstance(items[0], Record):
            replay_or_error(items[0].to_json())
        else:
            assert isinstance(items[0], RecordError)
    try:
        list(read_records(binary))
    except RecordError as exc:
        assert "cannot read" in str(exc)


@settings(max_examples=300, deadline=None)
@given(
    floor=st.lists(st.text(max_size=4), max_size=6),
    before=st.lists(st.text(max_size=8), max_size=3),
    card=st.text(max_size=4),
    rules=st.none() | st.dictionaries(st.text(max_size=12), json_values, max_size=2),
)
def test_position_queries_never_crash(
    floor: list[str], before: list[str], card: str, rules: Any
) -> None:
    try:
        capture_query("egyptian", rules, floor, before, card)
    except QueryError as exc:
        assert str(exc)


def test_json_round_trip_of_errors() -> None:
    assert (
        json.dumps(str(RecordError("x", game=1, round=2, play=3))) == '"game 1, round 2, play 3: x"'
    )
