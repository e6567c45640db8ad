"""Big offline jobs spread out (:mod:`basra.spread`): ``basra puzzles make`` and ``basra
review`` give the same output with ``--jobs 1`` and ``--jobs 2`` (and on Ray:
tests/test_arena_ray.py), and say in one line what is wrong with a bad ``--jobs`` or
``--ray``."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from basra.cli import main
from basra.spread import spread

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "data" / "puzzles" / "one_round_games.jsonl"
"""Two stored one-round games between hard bots (see tests/test_puzzles.py)."""
CHEAP = ("--samples", "100", "--proof-samples", "400", "--no-rate", "-q")


def slow_square(delay: float, item: int) -> int:
    """Later items finish first: the results must still come back in input order."""
    time.sleep(delay * (5 - item))
    if item == 3:
        raise ValueError("item 3 is bad")
    return item * item


def seen_by(seen: list[tuple[int, int]]) -> Callable[[int, int], None]:
    return lambda done, total: seen.append((done, total))


def test_spread_yields_in_input_order_and_raises_at_the_failing_items_turn() -> None:
    items = [0, 1, 2]
    for jobs in (1, 2):
        seen: list[tuple[int, int]] = []
        out = list(spread(slow_square, 0.05, items, jobs=jobs, progress=seen_by(seen)))
        assert out == [0, 1, 4]
        assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    got: list[int] = []
    results = spread(slow_square, 0.01, [0, 1, 2, 3, 4], jobs=2)
    got.extend(next(results) for _ in range(3))
    with pytest.raises(ValueError, match="item 3 is bad"):
        next(results)
    assert got == [0, 1, 4]
    with pytest.raises(ValueError, match="jobs must be 1 or more"):
        list(spread(slow_square, 0.0, items, jobs=0))


def test_puzzles_make_gives_the_same_puzzles_however_the_games_are_shared_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(GAMES.read_text() + "not a record\n")
    made = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.jsonl"
        code = main(["puzzles", "make", str(games), "--out", str(out), *CHEAP, "--jobs", jobs])
        assert code == 1  # the third line is no game: said, and the others mined
        printed = capsys.readouterr()
        assert "games.jsonl: game 2: not valid JSON" in printed.err, printed.err
        assert printed.out.startswith("2 games, ")
        made[jobs] = out.read_text()
    assert made["1"] == made["2"] and made["1"].count("\n") >= 2
    sources = [line.split('"source":"')[1].split('"')[0] for line in made["1"].splitlines()]
    assert sources == sorted(sources)  # game 1's puzzles, then game 2's: input order


def test_review_gives_the_same_reviews_however_the_games_are_shared_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    printed = {}
    for jobs in ("1", "2"):
        args = ["review", str(GAMES), "--samples", "100", "--json", "-q", "--jobs", jobs]
        assert main(args) == 0
        printed[jobs] = capsys.readouterr().out
    assert printed["1"] == printed["2"]
    games = [line.split('"game":')[1].split(",")[0] for line in printed["1"].splitlines()]
    assert games == ["1", "2"]  # in input order


@pytest.mark.parametrize("command", ["puzzles make", "review"])
def test_bad_jobs_or_ray_values_are_one_clear_error_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = command.split()
    extra = ["--out", str(tmp_path / "x.jsonl")] if command == "puzzles make" else []
    for bad, said in (
        (["--jobs", "0"], "error: --jobs must be 1 or more"),
        (["--ray", "127.0.0.1:1"], "error: --ray: cannot reach a Ray cluster at 127.0.0.1:1"),
        (["--ray", " "], "error: --ray needs an address, or local"),
        (["--jobs", "2", "--ray", "local"], "error: --jobs counts processes on this machine"),
    ):
        assert main([*words, str(GAMES), *extra, "-q", *bad]) == 2
        printed = capsys.readouterr()
        lines = printed.err.strip().splitlines()
        assert len(lines) == 1 and said in lines[0], printed.err
        assert printed.out == ""
