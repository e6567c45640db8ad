"""`basra play` in a real terminal: tmux runs it, we type keys and read the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("textual")
TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="needs tmux (scripts/system-deps)")


class Terminal:
    """A detached tmux session of a fixed size, on a private tmux server."""

    def __init__(self, socket: str, cwd: Path) -> None:
        self.socket = socket
        self.cwd = cwd
        self.target = "play"
        self.socket_path = ""
        # COLUMNS and LINES (set by a parallel test run's workers) would pin the app's
        # size whatever the window's: the app must follow the terminal, as in a person's.
        outside = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        self.env = {**outside, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        run = subprocess.run(
            [TMUX, "-L", self.socket, *args],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=30,
        )
        assert run.returncode == 0, run.stderr
        return run.stdout

    def start(self, command: str, name: str = "play", width: int = 80, height: int = 24) -> None:
        """Run ``command`` in a new session; the shell stays to show how it ended."""
        shell = f"{command}; echo EXITED=$?; sleep 120"
        self.target = name
        self.tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height))
        self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip()
        self.tmux("set-option", "-t", name, "status", "off")
        self.tmux("respawn-pane", "-k", "-t", name, "-c", str(self.cwd), shell)

    def screen(self) -> str:
        """What a person sees now."""
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def keys(self, *keys: str) -> None:
        """Type keys (tmux key names: Enter, C-c, Right ...)."""
        self.tmux("send-keys", "-t", self.target, *keys)

    def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """The screen, once one of ``texts`` is on it."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if any(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{texts!r} never appeared; the screen is:\n{screen}")
            time.sleep(0.1)

    def resize(self, width: int, height: int, shows: str) -> str:
        """Resize the window; the screen once the app has drawn ``shows`` at that size."""
        self.tmux("resize-window", "-t", "play", "-x", str(width), "-y", str(height))
        time.sleep(0.5)  # the app's redraw for the new size
        return self.wait_for(shows)

    def close(self) -> None:
        """Stop this test's tmux server (and the app in it) and remove its socket."""
        subprocess.run(
            [str(TMUX), "-L", self.socket, "kill-server"], capture_output=True, timeout=30
        )
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(f"basra-test-{os.getpid()}-{time.monotonic_ns()}", tmp_path)
    try:
        yield term
    finally:
        term.close()


def test_play_save_and_resume_in_a_real_terminal(terminal: Terminal, tmp_path: Path) -> None:
    basra = f"{shlex.quote(sys.executable)} -m basra play"
    terminal.start(f"{basra} --seed 3 --pace 0.2 --level easy --save game.json")

    screen = terminal.wait_for("Your turn")
    lines = screen.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    assert "Egyptian Basra · 2 players · to 101 · round 1" in screen
    assert "Karim (easy)" in screen and "Your hand" in screen and "Stock:" in screen
    assert "╭───╮" in screen and "Hint" in screen  # cards drawn, keys in the footer
    # Only the person's hand is drawn: one row of cards with key numbers under it.
    assert screen.count("▲1") == 1

    terminal.keys("h")
    hinted = " ".join(terminal.wait_for("Hint: ").split())  # lines may wrap anywhere
    assert " points from now " in hinted or "the only move" in hinted
    terminal.keys("Enter")
    terminal.wait_for("You played", "You laid")
    terminal.wait_for("Your turn")  # the bot answered, one move shown at a time

    big = terminal.resize(120, 40, "╭─────╮")  # big cards on a big terminal
    assert len(big.splitlines()) > 24 and "Your hand" in big
    huge = terminal.resize(160, 50, "╭─────╮").splitlines()
    header = next(line for line in huge if "Player" in line and "Score" in line)
    assert header.index("Score") < 60  # the scores stay next to the names
    tiny = terminal.resize(60, 20, "╭───╮")
    assert "Your hand" in tiny and "Score" in tiny and "Stock:" in tiny
    assert all(len(line) <= 60 for line in tiny.splitlines())
    small = terminal.resize(80, 24, "╭───╮")
    assert "Your hand" in small

    terminal.keys("C-c")
    assert "Save it to game.json" in terminal.wait_for("Leave the game?")
    terminal.keys("s")
    screen = terminal.wait_for("EXITED=0")
    assert "Game saved to game.json" in screen
    saved = tmp_path / "game.json"
    check = subprocess.run(
        [sys.executable, "-m", "basra", "replay", str(saved)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0 and "You vs Karim" in check.stdout

    terminal.start(f"{basra} --resume game.json --pace 0", name="resume")
    screen = terminal.wait_for("Your turn")
    assert "round 1" in screen and ("You played" in screen or "You laid" in screen)
    terminal.keys("q")
    terminal.wait_for("Leave the game?")
    terminal.keys("q")
    terminal.wait_for("EXITED=0")


def test_hot_seat_enter_twice_keeps_the_next_hand_hidden(terminal: Terminal) -> None:
    basra = f"{shlex.quote(sys.executable)} -m basra play"
    terminal.start(f"{basra} --seats you,you --names Amal,Omar --seed 5")
    screen = terminal.wait_for("Pass the keyboard to")
    first, second = ("Amal", "Omar") if "to Amal" in screen else ("Omar", "Amal")
    terminal.keys("Enter")  # at once: too soon, the screen stays
    time.sleep(0.3)
    assert "Pass the keyboard to" in terminal.screen()
    time.sleep(1)
    terminal.keys("Enter")
    screen = terminal.wait_for(f"{first}, your turn")
    assert screen.count("▲1") == 1
    # Play, with a second Enter typed straight after: the pass screen stays up.
    terminal.keys("Enter", "Enter")
    screen = terminal.wait_for(f"Pass the keyboard to {second}")
    time.sleep(0.3)
    screen = terminal.screen()
    assert f"Pass the keyboard to {second}" in screen and "▲" not in screen
    time.sleep(1)
    terminal.keys("Enter")
    terminal.wait_for(f"{second}, your turn")
    terminal.keys("C-p")  # the command palette's Quit offers to save, too
    terminal.wait_for("Search for commands")
    terminal.keys("q", "u", "i", "t")
    terminal.wait_for("Leave the game")
    terminal.keys("Enter")
    terminal.wait_for("Leave the game?")
    terminal.keys("q")
    terminal.wait_for("EXITED=0")
