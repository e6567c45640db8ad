"""The compiled kernel against the pure-Python reference: identical results, every setting.

The kernel (``basra._kernel``) mirrors :mod:`basra.transition` and
:mod:`basra.captures`. These tests compare them function by function on
random positions, play both rounds in lockstep (pushes, pops, deals, round
ends, rule integers of any size), and play 2,000 whole random games through
:class:`basra.state.GameState` once on each engine (the pure one in a process
with ``BASRA_KERNEL=0``), comparing every legal move list, play and score.

These tests name both engines themselves, whatever ``BASRA_KERNEL`` says, so the
test command's second pass on the pure engine (``-m engine``) would run them
the same again: only the test of the switch itself is the engine's.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import basra._kernel as compiled
from basra import captures, kernel, transition
from basra.rules import PRESETS, VARIANT_NAMES, Rules
from basra.state import GameState
from basra.transition import seating

from .test_differential import random_overrides

ROOT = Path(__file__).resolve().parent.parent


def random_rules(rng: random.Random) -> Rules:
    rules = PRESETS[rng.choice(VARIANT_NAMES)]
    if rng.random() < 0.7:
        rules = rules.with_overrides(random_overrides(rng))
    if rng.random() < 0.1:
        rules = rules.with_overrides({"basra_points": 10**40, "jack_on_lone_jack": 2**70})
    return rules


@pytest.mark.engine
def test_the_kernel_runs_unless_turned_off() -> None:
    """The test command builds the kernel: a failed build must not pass unnoticed."""
    if os.environ.get("BASRA_KERNEL") == "0":
        assert not kernel.ACTIVE
        assert kernel.describe() == "pure Python (BASRA_KERNEL=0)"
    else:
        assert kernel.ACTIVE, kernel.describe()
        assert kernel.Round is compiled.Round


def test_captures_moves_and_basras_agree_on_random_positions() -> None:
    rng = random.Random(11)
    for _ in range(30_000):
        rules = random_rules(rng)
        size = rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 14])
        drawn = rng.sample(range(rules.pack), size + 1 + rng.randrange(1, 7))
        card, floor_cards, hand = drawn[0], drawn[1 : size + 1], sorted(drawn[size + 1 :])
        floor = sum(1 << c for c in floor_cards)
        options = captures.capture_options(rules, card, floor)
        assert compiled.capture_options(rules, card, floor) == options
        assert compiled.generate_moves(rules, hand, floor) == transition.generate_moves(
            rules, hand, floor
        )
        for take in options:
            for lone_trail in (False, True):
                for last_play in (False, True):
                    args: dict[str, Any] = {"lone_trail": lone_trail, "last_play": last_play}
                    assert compiled.play_basra(
                        rules, card, take, floor, **args
                    ) == transition.play_basra(rules, card, take, floor, **args)


FIELDS = (
    "hands",
    "floor",
    "stock_pos",
    "stock_size",
    "in_hands",
    "piles",
    "basras",
    "basra_points",
    "lone_last",
    "lone_trail",
    "last_capture_side",
    "turn",
    "first_player",
    "is_last_play",
    "scores",
    "carry",
    "plays",
)


def same(pure: transition.Round, fast: transition.Round) -> None:
    for name in FIELDS:
        assert getattr(fast, name) == getattr(pure, name), name
    assert fast.stock[fast.stock_pos :] == pure.stock[pure.stock_pos :]
    assert fast.legal_moves() == pure.legal_moves()
    assert fast.round_fields() == pure.round_fields()


def test_rounds_play_in_lockstep_with_pushes_pops_deals_and_round_ends() -> None:
    rng = random.Random(12)
    for _ in range(400):
        rules = random_rules(rng)
        players, teams = rng.choice([(2, False), (3, False), (4, False), (4, True)])
        _, side_of = seating(players, teams)
        pure = transition.Round(rules, players, side_of)
        fast = compiled.Round(rules, players, side_of)
        state = GameState(rules=rules, players=players, teams=teams)
        state.deal(rng=rng)  # the canonical deal gives the hands, floor and stock
        stock = state.stock[state.stock_pos :]
        scores = [rng.randrange(50) for _ in state.scores]
        carry = rng.choice([0, 0, 30])
        for engine in (pure, fast):
            engine.start_round(list(state.hands), state.floor, list(stock), state.turn, [])
            engine.scores = scores
            engine.carry = carry
        same(pure, fast)
        while pure.in_hands:
            moves = pure.legal_moves()
            move = moves[rng.randrange(len(moves))]
            pure.push(move)
            fast.push(move)
            same(pure, fast)
            if rng.random() < 0.15:
                assert fast.pop() == pure.pop() == move
                same(pure, fast)
                pure.push(move)
                fast.push(move)
        # the round is over (leftovers taken): and it can be undone, deals included
        for _ in range(rng.randrange(1, 12)):
            assert fast.pop() == pure.pop()
            same(pure, fast)


def test_finish_and_apply_agree() -> None:
    rng = random.Random(13)
    for _ in range(300):
        rules = random_rules(rng)
        players, teams = rng.choice([(2, False), (3, False), (4, True)])
        _, side_of = seating(players, teams)
        state = GameState(rules=rules, players=players, teams=teams)
        state.deal(rng=rng)
        pure = transition.Round(rules, players, side_of)
        fast = compiled.Round(rules, players, side_of)
        for engine in (pure, fast):
            engine.start_round(
                list(state.hands), state.floor, state.stock[state.stock_pos :], state.turn, []
            )
        while True:
            moves = pure.legal_moves()
            move = moves[rng.randrange(len(moves))]
            assert fast.apply(*move) == pure.apply(*move)
            same_now = [getattr(pure, n) for n in FIELDS[:-1]]
            assert [getattr(fast, n) for n in FIELDS[:-1]] == same_now
            if not pure.in_hands:
                if pure.stock_size:
                    assert fast.deal_next() == pure.deal_next()
                else:
                    assert fast.finish() == pure.finish()
                    assert fast.piles == pure.piles
                    break


def run_games(first: int, count: int, pure: bool) -> list[str]:
    env = dict(os.environ, BASRA_KERNEL="0" if pure else "1")
    out = subprocess.run(
        [sys.executable, "-m", "tests.kernel_games", str(first), str(count)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    expected = "pure Python (BASRA_KERNEL=0)" if pure else "compiled kernel (basra._kernel)"
    assert out[0] == expected
    return out[1:]


@pytest.mark.slow
def test_two_thousand_random_games_are_identical_on_both_engines() -> None:
    """Every preset, 2-4 players and teams, random overrides (tests/kernel_games.py)."""
    fast = run_games(0, 2000, pure=False)
    pure = run_games(0, 2000, pure=True)
    assert len(fast) == len(pure) == 2000
    for a, b in zip(fast, pure, strict=True):
        if a != b:  # show where the first differing game goes apart
            index = int(a.split()[0])
            env = dict(os.environ, BASRA_KERNEL="0")
            args = [sys.executable, "-m", "tests.kernel_games", str(index), "1", "--full"]
            full = [
                subprocess.run(args, cwd=ROOT, env=e, capture_output=True, text=True).stdout
                for e in (dict(os.environ, BASRA_KERNEL="1"), env)
            ]
            assert full[0] == full[1]
        assert a == b


def test_the_core_imports_only_the_standard_library_without_the_kernel() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import basra, basra.bots, basra.record, basra.notation, basra.query, basra.cli\n"
        "from basra.state import GameState\n"
        "import random\n"
        "s = GameState(); s.deal(rng=random.Random(1)); s.push(s.legal_moves()[0])\n"
        "mods = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(sorted(m for m in mods if m not in sys.stdlib_module_names and m != 'basra'))\n"
        "print(any(m == 'basra._kernel' for m in sys.modules))\n"
    )
    env = dict(os.environ, BASRA_KERNEL="0")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "False"
