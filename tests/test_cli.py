"""The command line, as a user runs it (``python -m basra ...`` in a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from basra.cli import main

from .conftest import CONFORMANCE


def basra(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "basra", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_replay_json_reproduces_the_conformance_results() -> None:
    games = CONFORMANCE / "games"
    run = basra("replay", str(games / "lebanese.jsonl"), "--json")
    assert run.returncode == 0, run.stderr
    expected = [
        json.loads(line) for line in (games / "lebanese.results.jsonl").read_text().splitlines()
    ]
    assert [json.loads(line) for line in run.stdout.splitlines()] == expected


def test_replay_errors_go_to_stderr_and_exit_non_zero() -> None:
    games = CONFORMANCE / "games"
    run = basra("replay", str(games / "errors.jsonl"), "--json")
    assert run.returncode != 0
    expected = [
        json.loads(line) for line in (games / "errors.results.jsonl").read_text().splitlines()
    ]
    assert [json.loads(line) for line in run.stdout.splitlines()] == expected
    lines = run.stderr.splitlines()
    assert len(lines) == 7
    assert "game 1, round 0, play 3" in lines[0]
    assert "game 2: unknown setting 'no_such_setting'" in lines[1]


def test_replay_text_and_missing_file(tmp_path: Path) -> None:
    run = basra("replay", str(CONFORMANCE / "games" / "egyptian.jsonl"))
    assert run.returncode == 0 and "game 0: egyptian, mixed0 vs mixed1" in run.stdout
    missing = basra("replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_selfplay_is_seeded_and_replays(tmp_path: Path) -> None:
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ["selfplay", "--variant", "lebanese", "--players", "4", "--teams", "--games", "3",
            "--seed", "7", "--bots", "random,greedy,random,greedy"]  # fmt: skip
    assert basra(*args, "--out", str(out1)).returncode == 0
    assert basra(*args, "--out", str(out2)).returncode == 0
    assert out1.read_text() == out2.read_text()
    records = [json.loads(line) for line in out1.read_text().splitlines()]
    assert len(records) == 3 and records[0]["names"] == ["random", "greedy", "random", "greedy"]
    replay = basra("replay", str(out1), "--json")
    assert replay.returncode == 0
    assert all(json.loads(line)["finished"] for line in replay.stdout.splitlines())


def test_selfplay_with_a_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "short.toml"
    rules.write_text('variant = "palestinian"\n[rules]\ntarget = 30\nhand_size = 5\n')
    out = tmp_path / "g.jsonl"
    run = basra("selfplay", "--rules", str(rules), "--games", "2", "--out", str(out))
    assert run.returncode == 0, run.stderr
    record = json.loads(out.read_text().splitlines()[0])
    assert record["variant"] == "palestinian" and record["rules"] == {"target": 30, "hand_size": 5}


def test_selfplay_bots_go_round_the_table(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    args = ["--players", "4", "--teams", "--games", "1", "--out", str(out)]
    assert basra("selfplay", "--bots", "random,greedy", *args).returncode == 0
    assert json.loads(out.read_text())["names"] == ["random", "greedy", "random", "greedy"]
    assert basra("selfplay", "--bots", "greedy", *args).returncode == 0
    assert json.loads(out.read_text())["names"] == ["greedy"] * 4
    too_many = basra("selfplay", "--players", "2", "--bots", "random,random,random")
    assert too_many.returncode == 2 and "one bot per seat (2)" in too_many.stderr


def test_selfplay_errors() -> None:
    bad_bot = basra("selfplay", "--bots", "random,oracle")
    assert bad_bot.returncode == 2 and "unknown bot 'oracle'" in bad_bot.stderr
    bad_rules = basra("selfplay", "--rules", '{"target": -1}')
    assert bad_rules.returncode == 2 and "'target' must be a positive integer" in bad_rules.stderr
    bad_variant = basra("selfplay", "--variant", "mars")
    assert bad_variant.returncode == 2 and "unknown variant 'mars'" in bad_variant.stderr


def test_captures_command(capsys: object) -> None:
    assert (
        main(
            [
                "captures",
                "--variant",
                "egyptian",
                "--floor",
                "2C AH 5S 4D",
                "--card",
                "7S",
                "--json",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert json.loads(out) == [{"take": ["AH", "2C", "4D"], "basra": 0}]
    assert (
        main(
            [
                "captures",
                "--variant",
                "lebanese",
                "--floor",
                "3S",
                "--before",
                "4H",
                "--card",
                "7C",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out) == [{"take": ["3S", "4H"], "basra": 10}]  # type: ignore[attr-defined]
    assert main(["captures", "--floor", "", "--card", "JD", "--json"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert json.loads(out) == [{"take": [], "basra": 0}]
    any_maximal = '{"capture_policy": "any_maximal"}'
    assert (
        main(
            ["captures", "--rules", any_maximal, "--floor", "2H AS 5S 4D", "--card", "7C", "--json"]
        )
        == 0
    )
    assert len(json.loads(capsys.readouterr().out)) == 2  # type: ignore[attr-defined]
    assert main(["captures", "--floor", "7S 7S", "--card", "7H"]) == 2
    assert "appears more than once" in capsys.readouterr().err  # type: ignore[attr-defined]


def test_variants_and_rules_commands() -> None:
    run = basra("variants")
    assert run.returncode == 0 and len(run.stdout.splitlines()) == 15
    assert run.stdout.startswith("cypriot_bastra")
    settings = json.loads(
        basra("rules", "--variant", "syrian", "--rules", '{"target": 150}').stdout
    )
    assert settings["rules"]["target"] == 150 and settings["rules"]["face_values"] == {
        "Q": 3,
        "K": 4,
    }
    assert basra("rules", "--rules", '{"pack": 40}').returncode == 2
    assert basra("--version").stdout.startswith("basra ")
