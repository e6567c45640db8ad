"""The command line in words people read (issue 20, item 10): counted labels agree with
their numbers, every mistake is one line ``basra CMD: error: ...``, a resumed game's
errors count games, rounds and plays from 1 as ``replay`` does, and the review's graph
has a key for its coloured dots."""

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
        [sys.executable, "-m", "basra", *args],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """One game whose fourth play of the first round is not in the mover's hand."""
    game = json.loads(GAMES.read_text().splitlines()[0])
    game["rounds"][0]["plays"][3] = "QSxQH"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(game))
    return path


def test_counted_labels_agree_with_their_numbers() -> None:
    run = basra("review", str(GAMES), "--game", "1", "--samples", "30", "-q")
    assert run.returncode == 0, run.stderr
    counts = [line for line in run.stdout.splitlines() if "decisions, mean loss" in line]
    assert counts
    nouns = "best moves?|good moves?|inaccurac(?:y|ies)|mistakes?|blunders?"
    for line in counts:
        found = re.findall(rf"\b(\d+) ({nouns})\b", line)
        assert len(found) == 5, line
        for number, noun in found:
            singular = noun in ("best move", "good move", "inaccuracy", "mistake", "blunder")
            assert singular == (number == "1"), f"{number} {noun}"


def test_a_broken_record_is_one_error_line_for_replay_and_review(broken: Path) -> None:
    junk = broken.with_name("junk.jsonl")
    junk.write_text("not json\n")
    for command in (("replay",), ("review", "-q", "--samples", "5")):
        for path, where in (
            (broken, "game 1, round 1, play 4: "),
            (junk, "game 1: not valid JSON"),
        ):
            run = basra(*command, str(path))
            assert run.returncode == 1
            lines = run.stderr.splitlines()
            assert len(lines) == 1, run.stderr
            assert lines[0].startswith(f"basra {command[0]}: error: {path}: {where}"), lines[0]


def test_a_resumed_games_errors_count_from_1_as_replays_do(broken: Path) -> None:
    run = basra("play", "--resume", str(broken))
    assert run.returncode == 2
    assert run.stderr.startswith(
        "basra play: error: not a game that can be resumed: round 1, play 4: "
    )
    junk = broken.with_name("junk.jsonl")
    junk.write_text("not json\n")
    run = basra("play", "--resume", str(junk))
    assert run.stderr == (
        f"basra play: error: {str(junk)!r} is not a game record: game 1: not valid JSON: "
        "Expecting value: line 1 column 1 (char 0)\n"
    )


def test_the_reviews_graph_has_a_key_for_its_dots() -> None:
    import matplotlib.pyplot as plt

    from basra.cli.review import LABEL_COLOURS, plot_figure
    from basra.coach.review import review_record
    from basra.record import read_records

    games = [g for g in read_records(GAMES) if not isinstance(g, Exception)]
    reviews = [review_record(games[i], samples=20, game=i) for i in range(3)]
    figure = plot_figure(reviews)
    try:
        for ax, review in zip(figure.axes, reviews, strict=True):
            keyed = {t.get_text() for t in ax.get_legend().get_texts()}
            # Each dot's key names its label and whose decision it was ("blunder by greedy").
            marked = {d.label for d in review.decisions if d.label in LABEL_COLOURS}
            named = {text.split(" by ")[0] for text in keyed if " by " in text}
            assert marked <= named, (marked, keyed)
            assert marked, "these games have an inaccuracy or worse to mark"
    finally:
        plt.close(figure)
