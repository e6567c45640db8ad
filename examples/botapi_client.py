#!/usr/bin/env python3
"""Play any ``basra-bot/1`` program at web tables, through the bot API (docs/WEB.md).

    python examples/botapi_client.py --url http://127.0.0.1:8000 --token bot_... \\
        -- python3 examples/external_bot.py

The program after ``--`` is any bot of ``basra arena`` written as a ``cmd:``
program (docs/PROTOCOL.md): it runs unchanged, one process per table. This
client holds the bot's WebSocket (``/ws/bot``), starts the program when the
server says the bot sits at a table (``game``), passes each ``move`` request's
view to it as the line protocol's ``move`` message, and sends its answer back.
Standard library and ``websockets`` (the web app's own dependency) only.
``--games N`` stops after N games (0: play until stopped).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from typing import Any

from websockets.sync.client import connect


class Program:
    """One ``basra-bot/1`` process, playing one table's seat."""

    def __init__(self, command: list[str], seed: int) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.ask({"type": "hello", "protocol": "basra-bot/1", "seed": seed})

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message; its answer (``info`` and ``log`` lines are skipped)."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the program exited ({self.process.wait()})")
            answer = json.loads(line)
            if answer.get("type") not in ("info", "log"):
                return dict(answer)

    def move(self, view: dict[str, Any], time_limit: float | None) -> str:
        """The program's move in this view."""
        limit = 10.0 if time_limit is None else time_limit
        return str(self.ask({"type": "move", "time_limit": limit, "view": view})["move"])

    def quit(self) -> None:
        """Ask the program to exit (killed if it does not in a second)."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps({"type": "quit"}) + "\n")
            self.process.stdin.flush()
            self.process.wait(1)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server")
    parser.add_argument("--token", required=True, help="the bot account's token")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument("command", nargs="+", help="the basra-bot/1 program and its arguments")
    args = parser.parse_args()
    command = args.command if len(args.command) > 1 else shlex.split(args.command[0])
    programs: dict[str, Program] = {}
    finished = 0
    url = args.url.replace("http", "ws", 1).rstrip("/") + "/ws/bot"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": args.token}))
        for text in ws:
            message = json.loads(text)
            kind, table = message.get("type"), message.get("table")
            if kind == "welcome":
                print(f"playing as {message['bot']['name']}", file=sys.stderr)
            elif kind == "game" and table not in programs:
                programs[table] = Program(command, seed=hash(table) & 0xFFFF)
            elif kind == "move":
                program = programs.get(table) or Program(command, seed=hash(table) & 0xFFFF)
                programs[table] = program
                move = program.move(message["view"], message.get("time_limit"))
                answer = {"type": "move", "table": table, "version": message["version"]}
                ws.send(json.dumps({**answer, "move": move}))
            elif kind == "over":
                if table in programs:
                    programs.pop(table).quit()
                finished += 1
                print(f"table {table} is over: {message['scores']}", file=sys.stderr)
                if args.games and finished >= args.games:
                    break
            elif kind == "error":
                print(f"refused: {message}", file=sys.stderr)
            elif kind == "replaced":
                print("another connection of this bot took over", file=sys.stderr)
                break
    for program in programs.values():
        program.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
