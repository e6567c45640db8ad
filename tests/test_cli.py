"""The command line, as a user runs it (``python -m basra ...`` in a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from basra.cli import main

from .conftest import CONFORMANCE

pytestmark = pytest.mark.engine


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
    # Without --json, people read the same errors counted from 1, as the summaries count.
    text = basra("replay", str(games / "errors.jsonl"))
    assert text.returncode != 0
    lines = text.stderr.splitlines()
    assert len(lines) == 7
    assert "errors.jsonl: game 2, round 1, play 4: " in lines[0]
    assert "errors.jsonl: game 3: unknown setting 'no_such_setting'" in lines[1]
    assert text.stdout.startswith("game 1: ")


def test_replay_text_counts_from_1_and_puts_the_winners_score_first() -> None:
    run = basra("replay", str(CONFORMANCE / "games" / "egyptian.jsonl"))
    assert run.returncode == 0
    games = run.stdout.split("\ngame ")
    first = games[0].splitlines()
    assert first[0] == "game 1: egyptian, mixed0 vs mixed1"
    assert first[1].startswith("  round 1: mixed0 28 (26 cards, 2 basras), mixed1 15 ")
    assert first[-1] == "  mixed1 won, 122-47"  # the game ended 47-122
    assert "game 0" not in run.stdout and "round 0" not in run.stdout
    assert games[1].startswith("2: egyptian")


def test_replay_text_names_seats_from_1() -> None:
    from basra.cli.records import describe_result

    result = {
        "variant": "egyptian",
        "sides": [[0, 2], [1, 3]],
        "rounds": [{"plays": [{"seat": 1, "move": "3C", "basra": 0}]}],
        "score": [0, 0],
        "finished": False,
        "winner": None,
    }
    assert describe_result(0, None, result).splitlines() == [
        "game 1: egyptian, seats 1+3 vs seats 2+4",
        "  round 1: cut short after 1 play",
        "  not finished, 0-0",
    ]
    result |= {"sides": [[0], [1], [2]], "score": [90, 101, 60], "finished": True, "winner": 1}
    result["rounds"] = []
    text = describe_result(4, ["bot", "bot", "Amal"], result)
    assert text.splitlines() == [
        "game 5: egyptian, bot (seat 1) vs bot (seat 2) vs Amal (seat 3)",
        "  bot (seat 2) won with 101; bot (seat 1) 90, Amal (seat 3) 60",
    ]


def test_a_missing_file_is_named_like_play_names_it(tmp_path: Path) -> None:
    missing = basra("replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2
    assert missing.stderr == f"basra replay: error: no record file at '{tmp_path}/nope.jsonl'\n"
    folder = basra("replay", str(tmp_path))
    assert folder.returncode == 2 and "is a folder, not a record file" in folder.stderr
    resume = basra("play", "--resume", str(tmp_path / "nope.json"))
    assert resume.stderr == f"basra play: error: no saved game at '{tmp_path}/nope.json'\n"
    rules = basra("rules", "--rules", str(tmp_path / "house.toml"))
    assert rules.returncode == 2
    assert rules.stderr.startswith(f"basra rules: error: no rules file at '{tmp_path}/house.toml'")
    unwritable = basra("selfplay", "--out", str(tmp_path / "no" / "such" / "g.jsonl"))
    assert unwritable.returncode == 2 and "Traceback" not in unwritable.stderr
    assert "basra selfplay: error: cannot write the records to" in unwritable.stderr


def test_a_flag_of_the_wrong_type_is_one_clear_line() -> None:
    cases = {
        (
            "play",
            "--players",
            "5",
        ): "argument --players/-n: invalid choice: 5 (choose from 2, 3, 4)",
        ("play", "--target", "abc"): "argument --target: 'abc' is not a whole number",
        ("play", "--pace", "fast"): "argument --pace: 'fast' is not a number of seconds",
        ("selfplay", "--games", "ten"): "argument --games/-k: 'ten' is not a whole number",
        ("replay",): "the following arguments are required: FILE",
    }
    for argv, message in cases.items():
        run = basra(*argv)
        assert run.returncode == 2 and run.stdout == ""
        lines = run.stderr.splitlines()
        assert len(lines) == 1, run.stderr
        assert lines[0].startswith(f"basra {argv[0]}: error: {message}")
        assert lines[0].endswith(f"; see basra {argv[0]} --help")


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
    args = ["--players", "4", "--teams", "--games", "1", "--out", str(out), "--force"]
    assert basra("selfplay", "--bots", "random,greedy", *args).returncode == 0
    assert json.loads(out.read_text())["names"] == ["random", "greedy", "random", "greedy"]
    assert basra("selfplay", "--bots", "greedy", *args).returncode == 0
    assert json.loads(out.read_text())["names"] == ["greedy"] * 4
    too_many = basra("selfplay", "--players", "2", "--bots", "random,random,random")
    assert too_many.returncode == 2 and "one bot per seat (2)" in too_many.stderr


def test_selfplay_says_which_side_is_which_bots(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    run = basra("selfplay", "--bots", "random,greedy", "--games", "6", "--out", str(out))
    assert run.returncode == 0, run.stderr
    wins = [line for line in run.stdout.splitlines() if line.startswith("wins: ")]
    assert len(wins) == 1 and "[" not in wins[0]
    assert wins[0].startswith("wins: random (seat 1) ") and ", greedy (seat 2) " in wins[0]
    counts = [int(part.rsplit(" ", 1)[1]) for part in wins[0][len("wins: ") :].split(", ")]
    assert sum(counts) == 6
    teams = basra(
        "selfplay",
        "--players",
        "4",
        "--teams",
        "--bots",
        "random,greedy",
        "--out",
        str(out),
        "--force",
    )
    assert "wins: random & random (seats 1+3) " in teams.stdout
    assert ", greedy & greedy (seats 2+4) " in teams.stdout
    helped = basra("selfplay", "--help").stdout
    assert "seats 1+3, 2+4" in " ".join(helped.split()) and "seats 0+2" not in helped


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
        basra("rules", "--variant", "syrian", "--rules", '{"target": 150}', "--json").stdout
    )
    assert settings["rules"]["target"] == 150 and settings["rules"]["face_values"] == {
        "Q": 3,
        "K": 4,
    }
    assert basra("rules", "--rules", '{"pack": 40}').returncode == 2
    assert basra("--version").stdout.startswith("basra ")


def test_rules_in_words(tmp_path: Path) -> None:
    from basra.describe import rules_sections
    from basra.rules import preset

    run = basra("rules", "--variant", "syrian", "--rules", '{"target": 150}')
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert text.startswith("How to play: Syrian Basra with custom settings\n")
    flat = " ".join(text.split())
    for section in rules_sections(preset("syrian").with_overrides({"target": 150})):
        assert f"\n{section.title}\n" in text
        for item in section.items:
            assert f"- {item}" in flat  # the web rules page's sentences, wrapped
    assert (
        "twice the face value of the capturing card (ace 1, numerals their pips, Q = 3, K = 4)"
        in flat
    )
    assert "a side reaches 150" in flat
    assert "  target              150 *\n" in text
    assert '  face_values         {"Q": 3, "K": 4}\n' in text
    house = tmp_path / "house.toml"
    house.write_text('variant = "egyptian"\nname = "House rules"\n[rules]\ntarget = 61\n')
    named = basra("rules", "--rules", str(house)).stdout
    assert named.startswith("How to play: House rules (Egyptian Basra with custom settings)\n")
    assert "a side reaches 61" in " ".join(named.split())
    plain = basra("rules").stdout
    assert plain.startswith("How to play: Egyptian Basra\n") and " *" not in plain


def test_bench_mistakes_are_explained(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--variant", "mars"]) == 2
    assert (
        "basra bench: error: unknown variant 'mars'; the variants are: " in capsys.readouterr().err
    )
    assert main(["bench", "--seconds", "0"]) == 2
    assert capsys.readouterr().err == "basra bench: error: --seconds must be more than 0\n"
