#!/usr/bin/env python3
"""An external Basra bot: the protocol of docs/PROTOCOL.md, standard library only.

    basra arena --bots "cmd:python3 examples/external_bot.py",greedy --deals 100

It reads one JSON message a line on stdin and answers on stdout. Its play is
simple on purpose: the capture taking the most cards (a point card breaks
ties), otherwise the trail of the lowest numeral it holds (a jack last). The
view's ``legal`` list spares it the capture rules; a real bot would read the
rest of the view (``floor``, ``plays``, ``captured``, ``scores`` ...).
"""

from __future__ import annotations

import json
import random
import sys

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
POINTS = {"AS": 1, "AH": 1, "AD": 1, "AC": 1, "2C": 2, "10D": 3}


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


def value(move: str) -> tuple[int, int, int]:
    card, _, taken = move.partition("x")
    cards = [c for c in taken.split(",") if c]
    if cards:
        return (1, len(cards), sum(POINTS.get(c, 0) for c in [card, *cards]))
    # A trail: keep jacks and point cards, drop low numerals first.
    keep = 20 if card.startswith("J") else POINTS.get(card, 0) * 5
    return (0, -keep, -rank(card))


def main() -> int:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng.seed(message.get("seed"))
            answer = {"type": "hello", "name": "example", "protocol": "basra-bot/1"}
        elif kind == "move":
            legal = message["view"]["legal"]
            best = max(value(m) for m in legal)
            answer = {"move": rng.choice([m for m in legal if value(m) == best])}
        elif kind == "quit":
            return 0
        else:
            continue  # messages from later protocol versions: ignore them
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
