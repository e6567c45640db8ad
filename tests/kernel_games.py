"""Play random games and print a digest of each: run once per engine and compare.

    python -m tests.kernel_games FIRST COUNT [--full]

Game ``i`` has a seeded random preset, table and rule overrides; every legal
move list, every play and its basra, every round result and the outcome go
into its transcript. Each line printed is ``i digest`` (or, with ``--full``,
the transcript itself). The first line says which engine ran.
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

from basra.kernel import describe
from basra.rules import VARIANT_NAMES
from basra.state import GameState

from .test_differential import random_overrides

TABLES = [(2, False), (3, False), (4, False), (4, True)]


def game_rules(rng: random.Random) -> dict[str, Any]:
    """Random overrides, sometimes with rule integers of any size (B5.2)."""
    overrides = random_overrides(rng) if rng.random() < 0.6 else {}
    if rng.random() < 0.05:
        overrides["basra_points"] = 10**30 + rng.randrange(10)
    overrides.setdefault("target", rng.choice([21, 41, 61]))
    return overrides


def transcript(index: int) -> list[Any]:
    """Everything that happened in game ``index``, as plain values."""
    rng = random.Random(f"kernel-games/{index}")
    variant = rng.choice(VARIANT_NAMES)
    players, teams = rng.choice(TABLES)
    state = GameState(
        variant, players, teams=teams, first_dealer=rng.randrange(players), rules=game_rules(rng)
    )
    out: list[Any] = [variant, players, teams, state.rules.to_dict()]
    while not state.is_over and len(state.rounds) < 30:
        if state.phase == "deal":
            state.deal(rng=rng)
            out.append(("deal", tuple(state.hands), state.floor))
            continue
        moves = state.legal_moves()
        move = moves[int(rng.random() * len(moves))]
        if rng.random() < 0.05:  # undo and redo now and then
            state.push(move)
            assert state.pop() == move
        state.push(move)
        play = state.plays[-1] if state.phase == "play" else state.rounds[-1].plays[-1]
        out.append((tuple(moves), play, state.floor, tuple(state.piles), state.lone_last))
        if state.phase != "play":
            out.append(("round", state.rounds[-1].result, tuple(state.scores), state.carry))
    out.append(("outcome", state.outcome()))
    return out


def main(argv: list[str]) -> int:
    first, count = int(argv[0]), int(argv[1])
    full = "--full" in argv
    print(describe())
    for index in range(first, first + count):
        text = repr(transcript(index))
        if full:
            print(index, text)
        else:
            print(index, hashlib.sha256(text.encode()).hexdigest()[:20])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
