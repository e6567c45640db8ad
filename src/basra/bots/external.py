"""External bots: any program that speaks the line-based JSON protocol (docs/PROTOCOL.md).

``cmd:PROGRAM ARGS`` names one wherever a bot name is taken (``basra arena
--bots``, ``basra selfplay --bots``, :func:`basra.bots.make_bot`). The
program is started at its first move, greeted, then asked for each move with
its seat's view; it answers move text. Every failure is a
:class:`~basra.bots.base.BotError` that names the bot and says what went
wrong, and none can hang the host:

- no answer within the time limit: the program is killed;
- an answer that is not a legal move, or not protocol JSON: the program is
  stopped and the error quotes the answer and lists the legal moves;
- the program exits or crashes: the error gives its exit status and the
  last lines it wrote to stderr.

The time limit per move is ``BASRA_BOT_TIME_LIMIT`` seconds (default 10), the
start-up limit ``BASRA_BOT_START_LIMIT`` (default 20). :meth:`ExternalBot.close`
asks the program to quit, then kills it (and its process group) if it does not.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from typing import IO, Any, NoReturn

from basra.bots.base import Bot, BotError, register_bot
from basra.cards import CARD_NAMES, format_cards
from basra.moves import Move
from basra.notation import AmbiguousMoveError, MoveTextError, parse_move_text, select_move
from basra.view import View

__all__ = ["PROTOCOL", "ExternalBot", "move_from_text"]

PROTOCOL = "basra-bot/1"
"""The protocol version sent in ``hello``."""


def _limit(name: str, default: float) -> float:
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise BotError(f"{name} must be a number of seconds, not {text!r}") from None
    if value <= 0:
        raise BotError(f"{name} must be positive, not {text!r}")
    return value


def move_from_text(view: View, text: str) -> Move:
    """The legal move of ``view`` that move text names; :class:`BotError` if none.

    A bare card is a trail or its only capture (as in game records).
    """
    legal = view.legal_moves()
    allowed = " ".join(m.text() for m in legal)
    try:
        card, taken = parse_move_text(text)
    except MoveTextError as exc:
        raise BotError(f"answered {text!r}, which is not move text: {exc}") from None
    if not view.hand >> card & 1:
        raise BotError(
            f"answered {text!r}, but {CARD_NAMES[card]} is not in its hand "
            f"({format_cards(view.hand)}); legal moves: {allowed}"
        )
    try:
        return select_move(card, taken, [m for m in legal if m.card == card])
    except AmbiguousMoveError as exc:
        raise BotError(f"answered {text!r}, but {exc}") from None
    except MoveTextError as exc:
        raise BotError(
            f"answered {text!r}, which is not a legal move: {exc}; legal moves: {allowed}"
        ) from None


class ExternalBot(Bot):
    """A bot program on the other end of a pipe (see the module docstring)."""

    def __init__(self, command: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seed = seed
        self.command = command.strip()
        self.name = f"cmd:{self.command}"
        try:
            self.argv = shlex.split(self.command)
        except ValueError as exc:
            raise BotError(f"bot {self.name!r}: cannot read the command: {exc}") from None
        if not self.argv:
            raise BotError("cmd: needs a program to run, as in cmd:python3 my_bot.py")
        program = self.argv[0]
        if shutil.which(program) is None and not os.path.isfile(program):
            raise BotError(f"bot {self.name!r}: no program {program!r} found")
        self.time_limit = _limit("BASRA_BOT_TIME_LIMIT", 10.0)
        self.start_limit = _limit("BASRA_BOT_START_LIMIT", 20.0)
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=20)
        self.threads: list[threading.Thread] = []
        self.program_name: str | None = None

    # ----------------------------------------------------------- process

    def _start(self) -> None:
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,  # its own process group, killed as one
            )
        except OSError as exc:
            raise BotError(f"bot {self.name!r} could not start: {exc}") from None
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        for target, stream in (
            (self._read_lines, self.process.stdout),
            (self._read_errors, self.process.stderr),
        ):
            thread = threading.Thread(target=target, args=(stream,), daemon=True)
            thread.start()
            self.threads.append(thread)
        self._send({"type": "hello", "protocol": PROTOCOL, "seed": self.seed})
        reply = self._receive(self.start_limit, "hello")
        if reply.get("type") != "hello":
            self._fail(f"answered hello with {json.dumps(reply)}, not a hello")
        name = reply.get("name")
        self.program_name = name if isinstance(name, str) else None

    def _read_lines(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def _read_errors(self, stream: IO[str]) -> None:
        for line in stream:
            self.errors.append(line.rstrip("\n"))

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._crashed("before it could be sent a message")

    def _receive(self, limit: float, waiting_for: str) -> dict[str, Any]:
        deadline = time.monotonic() + limit
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                self._kill()
                raise BotError(
                    f"bot {self.name!r} did not answer {waiting_for} within {limit:g} s "
                    "and was stopped (the limit is BASRA_BOT_TIME_LIMIT)"
                ) from None
            if line is None:
                self._crashed(f"while it was asked for {waiting_for}")
            text = line.strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except json.JSONDecodeError:
                self._fail(f"wrote {text[:200]!r}, which is not a JSON object")
            if not isinstance(message, dict):
                self._fail(f"wrote {text[:200]!r}, which is not a JSON object")
            if message.get("type") in ("info", "log"):
                continue
            return message

    def _crashed(self, when: str) -> NoReturn:
        process = self.process
        status = None
        if process is not None:
            try:
                status = process.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                self._kill()
        for thread in self.threads:
            thread.join(timeout=1.0)
        stderr = "\n  ".join(self.errors) if self.errors else "(nothing)"
        what = f"exited with status {status}" if status is not None else "closed its output"
        self._kill()
        raise BotError(f"bot {self.name!r} {what} {when}; its last error output:\n  {stderr}")

    def _fail(self, message: str) -> NoReturn:
        self._kill()
        raise BotError(f"bot {self.name!r} {message}")

    def _kill(self) -> None:
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, AttributeError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5.0)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    # --------------------------------------------------------------- bot

    def choose(self, view: View) -> Move:
        if self.process is None:
            self._start()
        elif self.process.poll() is not None:
            self._crashed("between moves")
        self._send({"type": "move", "time_limit": self.time_limit, "view": view.to_json()})
        reply = self._receive(self.time_limit, "a move")
        text = reply.get("move")
        if not isinstance(text, str):
            self._fail(f'answered {json.dumps(reply)[:200]}, not {{"move": "MOVE TEXT"}}')
        try:
            return move_from_text(view, text)
        except BotError as exc:
            self._kill()
            raise BotError(f"bot {self.name!r} {exc}") from None

    def close(self) -> None:
        """Ask the program to quit; kill it if it has not within a second."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(json.dumps({"type": "quit"}) + "\n")
                process.stdin.flush()
                process.wait(timeout=1.0)
            except (BrokenPipeError, OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._kill()
        for thread in self.threads:
            thread.join(timeout=1.0)
        self.threads = []
        self.process = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def _factory(options: str, seed: int | None) -> Bot:
    return ExternalBot(options, seed)


register_bot(
    "cmd",
    _factory,
    "an external program speaking docs/PROTOCOL.md: cmd:PROGRAM ARGS",
)
