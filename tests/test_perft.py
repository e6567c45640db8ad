"""Move-count fixtures ("perft") pinning the move generator for every preset and table.

``perft(state, d)`` counts the play sequences of length ``d`` from a seeded deal,
through push/pop. The fixtures in ``data/perft.json`` were made by this engine
and checked against a brute-force generator (``test_captures``); regenerate them
only after a deliberate change, with ``python -m tests.test_perft``.
"""

from __future__ import annotations

import json
import random

import pytest

from basra.state import GameState

from .conftest import DATA, TABLES

pytestmark = pytest.mark.engine

FIXTURES = DATA / "perft.json"
DEPTH = 5


def perft(state: GameState, depth: int) -> int:
    if depth == 0 or state.phase != "play":
        return 1
    total = 0
    for move in state.legal_moves():
        state.push(move)
        total += perft(state, depth - 1)
        state.pop()
    return total


def start(variant: str, players: int, teams: bool, seed: int) -> GameState:
    state = GameState(variant, players, teams=teams)
    state.deal(rng=random.Random(f"perft/{variant}/{players}/{teams}/{seed}"))
    return state


def key(variant: str, players: int, teams: bool, seed: int) -> str:
    return f"{variant}/{players}{'t' if teams else ''}/{seed}"


def compute_all() -> dict[str, list[int]]:
    from basra.rules import VARIANT_NAMES

    out = {}
    for variant in VARIANT_NAMES:
        for players, teams in TABLES:
            for seed in range(2):
                state = start(variant, players, teams, seed)
                out[key(variant, players, teams, seed)] = [
                    perft(state, d) for d in range(1, DEPTH + 1)
                ]
    return out


EXPECTED: dict[str, list[int]] = json.loads(FIXTURES.read_text()) if FIXTURES.exists() else {}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_perft(name: str) -> None:
    variant, table, seed = name.split("/")
    players, teams = int(table[0]), table.endswith("t")
    state = start(variant, players, teams, int(seed))
    before = state.fingerprint()
    assert [perft(state, d) for d in range(1, DEPTH + 1)] == EXPECTED[name]
    assert state.fingerprint() == before


def test_fixtures_cover_every_preset_and_table() -> None:
    from basra.rules import VARIANT_NAMES

    assert len(EXPECTED) == len(VARIANT_NAMES) * len(TABLES) * 2


def test_perft_across_a_deal() -> None:
    # Two cards left in hand each and a stock: depth 6 crosses into the next deal.
    state = GameState.from_position(
        "egyptian", floor=["2S", "5H", "9D"], hands=[["3C", "KD"], ["4S", "7H"]],
        stock=["AS", "AH", "2C", "6D", "8S", "8H", "10C", "QS"],
    )  # fmt: skip
    counts = [perft(state, d) for d in range(1, 7)]
    assert counts[:4] == [2, 4, 4, 4]  # seat 0 trails either card; one option each after
    # 3C trailed, 4S trailed, KD trailed, 7H takes both groups 2+5 and 3+4;
    # then the stock deals four each: seat 0 gets AS AH 2C 6D
    for _ in range(4):
        state.push(state.legal_moves()[0])
    assert state.plays[-1].move.text() == "7Hx2S,3C,4S,5H"
    assert [m.text() for m in state.legal_moves()] == ["AS", "AH", "2C", "6D"]
    assert state.stock_size == 0 and state.hands[1].bit_count() == 4
    assert counts[4] > counts[3] and counts[5] > counts[4]


@pytest.mark.parametrize("name", sorted(EXPECTED)[::3])
def test_every_perft_node_matches_the_brute_force_generator(name: str) -> None:
    from basra.cards import cards_of

    from .test_captures import _reference_options

    variant, table, seed = name.split("/")
    state = start(variant, int(table[0]), table.endswith("t"), int(seed))

    def walk(depth: int) -> None:
        if depth == 0 or state.phase != "play":
            return
        expected = {
            (card, take)
            for card in cards_of(state.hands[state.turn])
            for take in _reference_options(state.rules, card, state.floor)
        }
        moves = state.legal_moves()
        assert {(m.card, m.take) for m in moves} == expected
        for move in moves:
            state.push(move)
            walk(depth - 1)
            state.pop()

    walk(4)


if __name__ == "__main__":  # pragma: no cover
    FIXTURES.write_text(json.dumps(compute_all(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURES}")
