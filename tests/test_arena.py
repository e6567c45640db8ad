"""The arena's statistics on known inputs, its pairing of deals, and its command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from basra.bots import Bot, make_bot, register_bot
from basra.bots.arena import (
    ArenaConfig,
    GameResult,
    bradley_terry,
    mean_interval,
    rate_interval,
    run_arena,
    summarize,
    t_quantile,
    tables_for,
    wilson,
)
from basra.cli import main
from basra.moves import Move
from basra.rules import preset
from basra.view import View

pytestmark = pytest.mark.engine


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.7062),
        (2, 4.3027),
        (3, 3.1824),
        (5, 2.5706),
        (10, 2.2281),
        (30, 2.0423),
        (999, 1.9623),
    ],
)
def test_t_quantiles_match_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=0.005)


def test_mean_interval_on_known_values() -> None:
    interval = mean_interval([2.0, 4.0, 6.0, 8.0])
    # mean 5, sd 2.582, se 1.291, t(0.975, 3) = 3.182
    assert interval.mean == 5.0
    assert interval.high - 5.0 == pytest.approx(3.182 * 1.291, abs=0.01)
    assert math.isinf(mean_interval([3.0]).high)
    assert math.isnan(mean_interval([]).mean)


def test_wilson_on_known_values() -> None:
    interval = wilson(5, 10)
    assert (interval.low, interval.high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    interval = wilson(10, 10)
    assert interval.high == 1.0 and interval.low == pytest.approx(0.7225, abs=1e-4)


def test_rate_interval_uses_deals_and_falls_back_to_wilson() -> None:
    spread = rate_interval([1.0, 0.5, 0.5, 0.0, 1.0, 0.5])
    assert spread.mean == pytest.approx(0.5833, abs=1e-4)
    assert 0.0 <= spread.low < spread.mean < spread.high <= 1.0
    same = rate_interval([1.0] * 5, games_per_deal=2)
    assert same.mean == 1.0 and same.low == pytest.approx(wilson(10, 10).low)


def test_bradley_terry() -> None:
    even = bradley_terry({(0, 1): 5.0, (1, 0): 5.0}, 2)
    assert even == pytest.approx([0.0, 0.0], abs=1e-9)
    three = bradley_terry({(0, 1): 9.0, (1, 0): 1.0, (1, 2): 9.0, (2, 1): 1.0}, 3)
    assert three[0] > three[1] > three[2]
    assert sum(three) == pytest.approx(0.0, abs=1e-6)


def test_tables() -> None:
    assert tables_for(2, 2) == [(0, 1)]
    assert tables_for(4, 4) == [(0, 1, 2, 3)]
    assert tables_for(4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert tables_for(1, 2) == [(0, 0)]
    with pytest.raises(ValueError, match="evenly"):
        tables_for(2, 3)


def game(deal: int, rotation: int, sides: tuple[int, ...], points: tuple[int, ...]) -> GameResult:
    top = max(points)
    winners = [i for i, p in enumerate(points) if p == top]
    wins = tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(len(points)))
    return GameResult(0, deal, rotation, sides, points, 1, wins, times={0: [0.1, 0.3]})


def test_match_summary_counts_matches_and_their_rounds() -> None:
    config = ArenaConfig("egyptian", preset("egyptian"), 2, False, ("a", "b"), 2, matches=True)
    games = [  # deal 0: a wins both matches, 2 rounds of 3 and 3 of 4; deal 1: they split
        GameResult(0, 0, 0, (0, 1), (110, 60), 3, (1.0, 0.0), (2.0, 1.0)),
        GameResult(0, 0, 1, (1, 0), (80, 105), 4, (0.0, 1.0), (1.0, 3.0)),
        GameResult(0, 1, 0, (0, 1), (101, 99), 2, (1.0, 0.0), (1.0, 1.0)),
        GameResult(0, 1, 1, (1, 0), (120, 40), 2, (1.0, 0.0), (2.0, 0.0)),
    ]
    a = summarize(config, games, 1.0)["bots"]["a"]
    assert a["matches"] == 4 and a["rounds"] == 11
    assert a["match_win_rate"]["mean"] == pytest.approx(0.75)
    # per deal: (2/3 + 3/4) / 2 and (1/2 + 0/2) / 2, then the mean over deals
    assert a["round_win_rate"]["mean"] == pytest.approx(((2 / 3 + 3 / 4) / 2 + 0.25) / 2, abs=1e-4)
    assert a["points_per_round"]["mean"] == pytest.approx(
        ((110 / 3 + 105 / 4) / 2 + (101 / 2 + 40 / 2) / 2) / 2, abs=1e-4
    )


def test_summary_on_known_games() -> None:
    config = ArenaConfig("egyptian", preset("egyptian"), 2, False, ("a", "b"), 3)
    games = [
        game(0, 0, (0, 1), (30, 10)),
        game(0, 1, (1, 0), (20, 20)),  # b is side 0 here
        game(1, 0, (0, 1), (10, 40)),
        game(1, 1, (1, 0), (35, 15)),
        game(2, 0, (0, 1), (25, 5)),
        game(2, 1, (1, 0), (5, 45)),
    ]
    summary = summarize(config, games, 1.0)
    a, b = summary["bots"]["a"], summary["bots"]["b"]
    # a's points per deal: (30+20)/2, (10+15)/2, (25+45)/2 = 25, 12.5, 35
    assert a["points_per_round"]["mean"] == pytest.approx(24.1667, abs=1e-4)
    expected = mean_interval([25.0, 12.5, 35.0])
    assert a["points_per_round"]["low"] == pytest.approx(expected.low, abs=1e-3)
    assert a["rounds"] == 6 and b["rounds"] == 6
    # margins per deal: (20 + 0)/2, (-30 - 20)/2, (20 + 40)/2 = 10, -25, 30
    margin = summary["margin"]
    assert (margin["first"], margin["second"], margin["deals"]) == ("a", "b", 3)
    assert margin["mean"] == pytest.approx(5.0)
    assert margin["low"] == pytest.approx(mean_interval([10.0, -25.0, 30.0]).low, abs=1e-3)
    # round wins of a: deal 0: 1 and 0.5; deal 1: 0 and 0; deal 2: 1 and 1
    assert a["round_win_rate"]["mean"] == pytest.approx((0.75 + 0.0 + 1.0) / 3, abs=1e-4)
    assert a["decision_seconds"]["median"] == pytest.approx(0.2)
    for entry in (a, b):
        for key in ("points_per_round", "round_win_rate"):
            assert set(entry[key]) == {"mean", "low", "high"}


def test_one_bot_against_a_field_of_another_has_a_paired_margin() -> None:
    config = ArenaConfig("egyptian", preset("egyptian"), 3, False, ("a", "b", "b"), 2)
    games = [
        game(0, 0, (0, 1, 2), (30, 10, 20)),  # a 30 against a field mean of 15
        game(0, 1, (1, 2, 0), (20, 20, 5)),  # a 5 against 20
        game(1, 0, (0, 1, 2), (12, 12, 12)),
    ]
    margin = summarize(config, games, 1.0)["margin"]
    assert (margin["first"], margin["second"], margin["field"]) == ("a", "b", 2)
    # per deal: (15 + -15) / 2 = 0, then 0
    assert margin["deals"] == 2
    assert margin["mean"] == pytest.approx(0.0)


class Recorder(Bot):
    """Remembers the first view of each round it plays (to check the pairing)."""

    seen: list[tuple[int, tuple[int, ...], int]] = []  # noqa: RUF012

    name = "recorder"

    def choose(self, view: View) -> Move:
        if not view.plays or len(view.plays) < view.players:
            Recorder.seen.append((view.seat, view.initial_floor, view.hand))
        return view.legal_moves()[0]


register_bot("recorder", lambda options, seed: Recorder(seed))


def test_every_deal_is_played_from_the_same_pack_with_bots_rotated() -> None:
    Recorder.seen = []
    config = ArenaConfig("egyptian", preset("egyptian"), 2, False, ("recorder", "random"), 2)
    games, _ = run_arena(config)
    assert [(g.deal, g.rotation, g.side_bots) for g in games] == [
        (0, 0, (0, 1)),
        (0, 1, (1, 0)),
        (1, 0, (0, 1)),
        (1, 1, (1, 0)),
    ]
    # the recorder saw the same first floor in both rotations of a deal, from the other seat
    floors = [floor for _, floor, _ in Recorder.seen]
    assert floors[0] == floors[1] != floors[2] == floors[3]
    assert Recorder.seen[0][0] != Recorder.seen[1][0]


def test_results_do_not_depend_on_jobs() -> None:
    config = ArenaConfig("egyptian", preset("egyptian"), 2, False, ("greedy", "random"), 3)
    one, _ = run_arena(config)
    two, _ = run_arena(
        ArenaConfig("egyptian", preset("egyptian"), 2, False, ("greedy", "random"), 3, jobs=2)
    )
    assert [(g.deal, g.rotation, g.points) for g in one] == [
        (g.deal, g.rotation, g.points) for g in two
    ]


def test_arena_command_writes_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["arena", "--bots", "greedy,random", "--deals", "4", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert (out / "results.png").stat().st_size > 1000
    assert set(results["bots"]) == {"greedy", "random"}
    for entry in results["bots"].values():
        assert entry["rounds"] == 8
        assert set(entry["points_per_round"]) == {"mean", "low", "high"}
        assert set(entry["round_win_rate"]) == {"mean", "low", "high"}
    assert set(results["margin"]) >= {"mean", "low", "high"}
    text = capsys.readouterr()
    assert "margin greedy - random" in text.out
    assert "arena" in text.err  # the progress lines


def test_arena_matches_and_round_robin(tmp_path: Path) -> None:
    out = tmp_path / "m"
    code = main(
        ["arena", "--bots", "greedy,random", "--deals", "2", "--matches", "-o", str(out), "-q"]
    )
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    for entry in results["bots"].values():
        assert entry["matches"] == 4
        assert set(entry["match_win_rate"]) == {"mean", "low", "high"}
        assert set(entry["round_win_rate"]) == {"mean", "low", "high"}
    out = tmp_path / "rr"
    code = main(
        ["arena", "--bots", "greedy,random,heuristic", "--deals", "2", "-o", str(out), "-q"]
    )
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    assert len(results["tables"]) == 3 and len(results["pairs"]) == 3
    assert "rating" in results["bots"]["greedy"]  # openskill, from the arena extra
    code = main(["arena", "-n", "4", "--teams", "--bots", "greedy,random", "--deals", "1", "-q"])
    assert code == 0


def test_arena_command_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "greedy", "--deals", "1"]) == 2
    assert main(["arena", "--bots", "greedy,nobody", "--deals", "1"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["arena", "-n", "3", "--bots", "greedy,random", "--deals", "1"]) == 2
    assert make_bot("greedy").name == "greedy"


def test_arena_report_reads_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "greedy,random", "--deals", "4", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Egyptian rules, 2 players, single rounds, seed 0"
    assert lines[1].startswith("4 deals, each played twice with the seats swapped: 8 rounds in ")
    greedy = next(line for line in lines if line.startswith("greedy "))
    # greedy decides in microseconds: shown in a unit that keeps its digits, not as 0.0000
    assert greedy.endswith((" µs", " ms")) and "0.0000" not in greedy
    assert "[95% CI]" in lines[2]
    code = main(["arena", "-n", "4", "--teams", "--matches", "--bots", "greedy,random", "-k", "2"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "Egyptian rules, 4 players in two teams (seats 1+3 against 2+4), "
        "whole matches to 101, seed 0"
    )
    assert lines[1].startswith("2 deals, each played twice with the teams swapped: 4 matches in ")


def test_one_deal_gives_no_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "--bots", "greedy,random", "--deals", "1", "-q", "-o", str(tmp_path)]) == 0
    )
    out = capsys.readouterr().out
    assert "inf" not in out and "[" not in out and " -," not in out
    assert "an interval needs at least 2 deals" in out
    assert "1 deal, played twice with the seats swapped: 2 rounds in " in out
    assert "paired over 1 deal\n" in out

    def strict(constant: str) -> None:
        raise AssertionError(f"results.json holds {constant}, which is not JSON")

    results = json.loads((tmp_path / "results.json").read_text(), parse_constant=strict)
    assert results["margin"]["low"] is None and results["margin"]["high"] is None
    assert results["bots"]["greedy"]["points_per_round"]["low"] is None


def test_arena_help_counts_seats_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "seats 1+3, 2+4" in text and "0+2" not in text
    assert "--ray ADDRESS" in text
