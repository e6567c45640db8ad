"""``basra review`` as a user runs it: JSON per game, words counted from 1, clear errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import DATA

pytestmark = pytest.mark.engine

GAMES = DATA / "coach" / "greedy-expert.jsonl"


def basra(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "basra", *args], capture_output=True, text=True, timeout=300
    )


def test_json_is_one_review_a_game_with_seats_from_0() -> None:
    run = basra("review", str(GAMES), "--game", "2", "--samples", "30", "--json", "-q")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1
    review = json.loads(lines[0])
    assert review["game"] == 2 and review["samples"] == 30
    assert [s["seat"] for s in review["seats"]] == [0, 1]
    assert review["decisions"][0]["round"] == 1 and review["decisions"][0]["play"] == 1
    only = basra("review", str(GAMES), "--game", "2", "--seat", "2", "--samples", "30", "--json")
    seat = json.loads(only.stdout)
    assert [s["seat"] for s in seat["seats"]] == [1]
    assert {d["seat"] for d in seat["decisions"]} == {1}
    assert [d for d in review["decisions"] if d["seat"] == 1] == seat["decisions"]


def test_words_count_from_1_and_say_what_is_not_graded(tmp_path: Path) -> None:
    plot = tmp_path / "graph.png"
    run = basra("review", str(GAMES), "--game", "1", "--samples", "30", "--plot", str(plot))
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert text.startswith("game 1: egyptian, seat 1 (greedy) vs seat 2 (expert)")
    assert "forced plays (one legal move) not graded" in text
    assert "\n  round 1: points " in text
    assert "accuracy" in text and "mean loss" in text
    assert plot.stat().st_size > 10_000 and plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_hindsight_is_shown_and_labelled_only_when_asked_for() -> None:
    args = ("review", str(GAMES), "--game", "3", "--seat", "1", "--samples", "30", "-q")
    plain, seen = basra(*args), basra(*args, "--hindsight")
    assert plain.returncode == seen.returncode == 0, seen.stderr
    note = "with all cards seen (knowable only afterwards): "
    assert note not in plain.stdout
    lines = seen.stdout.splitlines()
    graded = [
        i
        for i, line in enumerate(lines)
        if line.startswith("    ") and "forced" not in line and line.split()[1:2] == ["seat"]
    ]
    assert graded and all(lines[i + 1].strip().startswith(note) for i in graded)
    assert sum(note in line for line in lines) == len(graded)
    # The analysis from what the seat knew is the same with or without hindsight.
    assert [line for line in lines if note not in line] == plain.stdout.splitlines()
    data = json.loads(basra(*args, "--hindsight", "--json").stdout)
    for decision in data["decisions"]:
        if decision["label"] == "forced":
            assert "hindsight" not in decision
            continue
        seen_json = decision["hindsight"]
        assert seen_json["loss"] == pytest.approx(
            seen_json["best_points"] - seen_json["points"], abs=0.02
        )
        assert seen_json["loss"] >= 0
    assert all("hindsight" not in d for d in json.loads(basra(*args, "--json").stdout)["decisions"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-file.jsonl"], "basra review: error: no record file at 'no-such-file.jsonl'"),
        ([str(GAMES), "--game", "11"], "--game 11: '" + str(GAMES) + "' holds 10 games (1 to 10)"),
        ([str(GAMES), "--game", "0"], "--game counts games from 1"),
        ([str(GAMES), "--seat", "3"], "--seat 3: game 1 has 2 seats (1 to 2)"),
        ([str(GAMES), "--seat", "x"], "argument --seat: 'x' is not a whole number"),
        ([str(GAMES), "--samples", "0"], "--samples must be 1 or more"),
        ([str(GAMES), "--plot", "graph.txt"], "the file must end in .png, .svg or .pdf"),
    ],
)
def test_mistakes_are_one_clear_line(args: list[str], message: str) -> None:
    run = basra("review", *args)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], run.stderr


def test_a_broken_game_is_named_and_the_others_reviewed(tmp_path: Path) -> None:
    lines = GAMES.read_text().splitlines()[:2]
    broken = json.loads(lines[0])
    broken["rounds"][0]["plays"][3] = "QSxQH"
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([json.dumps(broken), lines[1], "not json"]) + "\n")
    run = basra("review", str(path), "--samples", "20", "-q")
    assert run.returncode == 1
    errors = run.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"basra review: error: {path}: game 1, round 1, play 4: ")
    assert errors[1].startswith(f"basra review: error: {path}: game 3: not valid JSON")
    assert run.stdout.startswith("game 2: ")


def test_the_help_gives_the_number_of_samples_a_review_runs_with() -> None:
    from basra.coach.analysis import DEFAULT_SAMPLES

    shown = re.search(r"default (\d+)", " ".join(basra("review", "--help").stdout.split()))
    assert shown is not None and int(shown[1]) == DEFAULT_SAMPLES
    serve = " ".join(basra("serve", "--help").stdout.split())
    assert f"review plays out per decision (default {DEFAULT_SAMPLES}" in serve
