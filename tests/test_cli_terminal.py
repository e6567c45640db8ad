"""What a new player stumbled on in the terminal's commands (issue 35): files overwritten
without a word, empty input that says nothing, errors that count from 0 where the help
counts from 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from basra.cli import main


def basra(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "basra", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_selfplay_does_not_overwrite_a_file_without_force(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    out.write_text("my games\n")
    run = basra("selfplay", "--out", str(out))
    assert run.returncode == 2 and "exists: give a new file name, or --force" in run.stderr
    assert out.read_text() == "my games\n"
    run = basra("selfplay", "--out", str(out), "--force")
    assert run.returncode == 0 and out.read_text().count("\n") == 1


def test_selfplay_counts_games_in_words(tmp_path: Path) -> None:
    run = basra("selfplay", "--games", "0", "--out", str(tmp_path / "none.jsonl"))
    assert run.returncode == 2 and "--games must be 1 or more" in run.stderr
    assert not (tmp_path / "none.jsonl").exists()
    run = basra("selfplay", "--out", str(tmp_path / "one.jsonl"))
    assert run.returncode == 0 and run.stdout.startswith("1 game, ")


def test_replaying_an_empty_file_says_it_holds_no_game(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    run = basra("replay", str(empty))
    assert run.returncode == 2 and "holds no game" in run.stderr and run.stdout == ""


@pytest.mark.parametrize(("given", "kind"), [("[1,2]", "list"), ('"x"', "string"), ("7", "number")])
def test_rules_json_that_is_not_an_object_is_said_so(
    given: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "--rules", given]) == 2
    err = capsys.readouterr().err
    assert "is JSON but not an object" in err and f"not a {kind}" in err
    assert "no rules file" not in err


def test_captures_counts_the_before_plays_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["captures", "--floor", "3S", "--before", "ZZ", "--card", "7C"]) == 2
    assert "before-play 1: 'ZZ' is not a move" in capsys.readouterr().err
    assert main(["captures", "--floor", "3S 4H", "--before", "2C ZZ", "--card", "7C"]) == 2
    assert "before-play 2: 'ZZ'" in capsys.readouterr().err


def test_a_failing_arena_bot_is_placed_counting_from_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "--bots", "random,cmd:false", "--deals", "2", "--quiet"]) == 2
    assert "error: deal 1, rotation 1, table random v cmd:false:" in capsys.readouterr().err
