"""`basra play` options: defaults, tables, seats, and the errors a person can make."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from basra.cli import CliError, build_parser, main
from basra.cli.play import make_session
from basra.tui.session import Session

pytestmark = pytest.mark.engine


def session_of(*argv: str) -> Session:
    args = build_parser().parse_args(["play", *argv])
    session = make_session(args)
    assert isinstance(session, Session)
    return session


def test_plain_basra_play_is_two_player_egyptian_against_a_medium_bot() -> None:
    session = session_of()
    assert session.state.variant == "egyptian" and session.state.players == 2
    assert [(s.name, s.kind) for s in session.seats] == [("You", "person"), ("Karim", "medium")]


def test_tables_seats_target_and_seed() -> None:
    session = session_of("--variant", "lebanese", "--teams", "--level", "hard", "--seed", "9")
    assert session.state.players == 4 and session.state.teams
    assert [s.kind for s in session.seats] == ["person", "hard", "hard", "hard"]
    assert session.seed == 9
    session = session_of("--seats", "you,easy,me", "--names", "A,B,C", "--target", "31")
    assert session.state.players == 3 and session.state.rules.target == 31
    assert session.people == [0, 2] and session.names == ["A", "B", "C"]
    assert (
        session_of("--seed", "4").state.first_dealer == session_of("--seed", "4").state.first_dealer
    )


def test_rules_file(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('variant = "syrian"\n[rules]\ntarget = 61\n')
    session = session_of("--rules", str(house))
    assert session.state.variant == "syrian" and session.state.rules.target == 61
    assert session.rules_name is None
    house.write_text('variant = "egyptian"\nname = "House rules"\n[rules]\ntarget = 61\n')
    session = session_of("--rules", str(house))
    assert session.rules_name == "House rules" and session.state.rules.target == 61
    assert Session.from_json(session.to_json()).rules_name == "House rules"
    assert session_of("--rules", '{"target": 61}').rules_name is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "3", "--seats", "you,easy"], "names 2 seat(s) for 3 players"),
        (["--seats", "you,champion"], "'champion' is not a seat"),
        (["--level", "godlike"], "unknown level 'godlike'"),
        (["--variant", "klondike"], "unknown variant 'klondike'"),
        (["--players", "3", "--teams"], "teams need 4 players"),
        (["--target", "0"], "--target must be 1 or more"),
        (["--pace", "-1"], "--pace must be 0 or more"),
        (["--resume", "x.json", "--variant", "lebanese"], "--variant cannot change a saved game"),
        (["--resume", "no-such-file.json"], "no saved game at 'no-such-file.json'"),
    ],
)
def test_mistakes_are_explained(argv: list[str], message: str) -> None:
    with pytest.raises(CliError, match=message.replace("(", r"\(").replace(")", r"\)")):
        session_of(*argv)


def test_errors_exit_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seats", "you,robot"]) == 2
    assert "basra play: error: 'robot' is not a seat" in capsys.readouterr().err


def test_help_starts_without_textual() -> None:
    code = (
        "import sys; from basra.cli import build_parser; build_parser(); "
        "assert 'textual' not in sys.modules; print('ok')"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
    helped = subprocess.run(
        [sys.executable, "-m", "basra", "play", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert helped.returncode == 0 and "--resume FILE" in helped.stdout
    assert "(seats 1+3, 2+4)" in " ".join(helped.stdout.split())


def play_without_a_terminal(*argv: str) -> subprocess.CompletedProcess[str]:
    """``basra play`` with its input and output not a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "basra", "play", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_terminal_it_says_it_needs_one() -> None:
    run = play_without_a_terminal("--seed", "1")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("basra play: error: a terminal is needed to draw the table")
    assert len(run.stderr.splitlines()) == 1
    # Mistakes in the options are still named first.
    bad = play_without_a_terminal("--seats", "you,robot")
    assert bad.returncode == 2 and "'robot' is not a seat" in bad.stderr
