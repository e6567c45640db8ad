"""The public conformance cases, from the project's own copy in tests/data/conformance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from basra.query import capture_query
from basra.record import RecordError, read_records, result_json

from .conftest import CONFORMANCE

pytestmark = pytest.mark.engine

POSITIONS = json.loads((CONFORMANCE / "positions.json").read_text(encoding="utf-8"))
GAME_FILES = sorted(
    p for p in (CONFORMANCE / "games").glob("*.jsonl") if not p.name.endswith(".results.jsonl")
)


@pytest.mark.parametrize("case", POSITIONS, ids=[c["id"] for c in POSITIONS])
def test_position(case: dict[str, object]) -> None:
    got = capture_query(case["variant"], case["rules"], case["floor"], case["before"], case["card"])  # type: ignore[arg-type]
    assert got == case["options"], case["source"]


@pytest.mark.parametrize("path", GAME_FILES, ids=[p.stem for p in GAME_FILES])
def test_games_replay_exactly(path: Path) -> None:
    expected = [
        json.loads(line)
        for line in path.with_suffix("").with_suffix(".results.jsonl").read_text().splitlines()
        if line.strip()
    ]
    got = []
    errors = []
    for index, record in enumerate(read_records(path)):
        if isinstance(record, RecordError):
            errors.append(index)
            continue
        try:
            got.append(result_json(record.replay()))
        except RecordError:
            errors.append(index)
    assert got == expected
    if path.stem == "errors":
        assert errors == [1, 2, 4, 5, 6, 7, 8]
    else:
        assert errors == []
