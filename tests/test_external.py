"""External bots: the protocol works, and broken programs are reported without hanging."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from basra.bots import BotError, ExternalBot, make_bot, play_game, play_round
from basra.bots.external import move_from_text
from basra.cli import main
from basra.state import GameState
from basra.view import view_of

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parent.parent
FAULTY = Path(__file__).parent / "data" / "bots" / "faulty_bot.py"
EXAMPLE = ROOT / "examples" / "external_bot.py"


def spec(mode: str) -> str:
    return f"cmd:{sys.executable} {FAULTY} {mode}"


def fresh_round() -> GameState:
    state = GameState("egyptian")
    state.deal(rng=random.Random(3))
    return state


def test_the_example_bot_plays_a_whole_game() -> None:
    state = GameState("egyptian")
    bots = [make_bot(f"cmd:{sys.executable} {EXAMPLE}", seed=1), make_bot("greedy", seed=2)]
    try:
        play_game(state, bots, random.Random(4))
    finally:
        for bot in bots:
            bot.close()
    assert state.is_over
    assert bots[0].name.startswith("cmd:")


def test_a_good_bot_answers_and_is_closed() -> None:
    bot = make_bot(spec("chatty"), seed=1)
    assert isinstance(bot, ExternalBot)
    state = fresh_round()
    play_round(state, [bot, make_bot("greedy", 1)], random.Random(1))
    assert bot.program_name == "faulty-chatty"
    process = bot.process
    assert process is not None
    bot.close()
    assert process.poll() is not None
    bot.close()  # twice is fine


def error_of(mode: str, monkeypatch: pytest.MonkeyPatch, limit: float = 5.0) -> str:
    monkeypatch.setenv("BASRA_BOT_TIME_LIMIT", str(limit))
    monkeypatch.setenv("BASRA_BOT_START_LIMIT", str(limit))
    bot = make_bot(spec(mode), seed=1)
    state = fresh_round()
    view = view_of(state, state.turn)
    try:
        with pytest.raises(BotError) as info:
            bot.choose(view)
        assert isinstance(bot, ExternalBot) and bot.process is not None
        assert bot.process.poll() is not None  # stopped, not left running
    finally:
        bot.close()
    return str(info.value)


def test_a_crash_is_reported_with_its_status_and_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    message = error_of("crash", monkeypatch)
    assert "exited with status 3" in message
    assert "something broke in the bot" in message


def test_a_slow_bot_is_stopped_at_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    started = time.monotonic()
    message = error_of("slow", monkeypatch, limit=0.5)
    assert time.monotonic() - started < 10
    assert "did not answer a move within 0.5 s" in message


def test_a_mute_bot_is_stopped_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    message = error_of("mute", monkeypatch, limit=0.5)
    assert "did not answer hello" in message


def test_an_illegal_move_is_reported_with_the_legal_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    message = error_of("illegal", monkeypatch)
    assert "is not in its hand" in message
    assert "legal moves:" in message


def test_text_that_is_not_json_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    message = error_of("garbage", monkeypatch)
    assert "not a JSON object" in message
    assert "I think I will play the seven" in message


def test_a_bot_that_ignores_quit_is_killed() -> None:
    bot = make_bot(spec("deaf"), seed=1)
    state = fresh_round()
    bot.choose(view_of(state, state.turn))
    assert isinstance(bot, ExternalBot) and bot.process is not None
    process = bot.process
    started = time.monotonic()
    bot.close()
    assert time.monotonic() - started < 5
    assert process.poll() is not None


def test_bad_commands_are_errors() -> None:
    with pytest.raises(BotError, match="needs a program"):
        make_bot("cmd:")
    with pytest.raises(BotError, match="no program"):
        make_bot("cmd:/no/such/program --flag")


def test_move_text_is_read_against_the_view() -> None:
    state = GameState.from_position(
        "egyptian", floor=["2H", "AS", "5S", "4D"], hands=[["7C", "KD"], ["3C"]], turn=0
    )
    view = view_of(state, 0)
    assert move_from_text(view, "7c").text() == "7CxAS,2H,4D"
    assert move_from_text(view, "KD").text() == "KD"
    with pytest.raises(BotError, match="not a legal move"):
        move_from_text(view, "7Cx2H,5S")
    with pytest.raises(BotError, match="not move text"):
        move_from_text(view, "seven")


def test_selfplay_and_arena_take_external_bots(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    example = f"cmd:{sys.executable} {EXAMPLE}"
    assert main(["selfplay", "--bots", f"{example},greedy", "--games", "1", "-o", str(out)]) == 0
    assert out.read_text().count("\n") == 1
    code = main(["arena", "--bots", f"{example},random", "--deals", "2", "--quiet"])
    assert code == 0


def test_the_arena_reports_a_crashing_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", f"{spec('crash')},greedy", "--deals", "2", "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert "exited with status 3" in err and "deal 1, rotation 1" in err
