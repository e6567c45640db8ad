#!/usr/bin/env python3
"""A bot program that misbehaves on purpose: ``faulty_bot.py MODE``.

Modes: ``good`` (first legal move), ``crash`` (exits with status 3 at its first
move, after writing to stderr), ``slow`` (sleeps 30 s before answering),
``illegal`` (plays a card it does not hold), ``garbage`` (writes text that is
not JSON), ``mute`` (never answers hello), ``deaf`` (ignores quit and
keeps running), ``chatty`` (writes info lines before each answer).
"""

from __future__ import annotations

import json
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"


def say(message: object) -> None:
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        if mode == "mute":
            time.sleep(60)
        say({"type": "hello", "name": f"faulty-{mode}", "protocol": "basra-bot/1"})
    elif kind == "move":
        view = message["view"]
        if mode == "crash":
            print("Traceback: something broke in the bot", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "slow":
            time.sleep(30)
        if mode == "garbage":
            print("I think I will play the seven", flush=True)
            continue
        if mode == "illegal":
            held = set(view["hand"])
            for card in ("KS", "KH", "KD", "KC", "QS", "QH"):
                if card not in held and card not in view["floor"]:
                    say({"move": card})
                    break
            continue
        if mode == "chatty":
            say({"type": "info", "text": "thinking"})
        say({"move": view["legal"][0]})
    elif kind == "quit":
        if mode == "deaf":
            time.sleep(60)
        break
