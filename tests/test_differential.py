"""The engine against an independent implementation of RULES.md and RECORD.md.

``tests/reference/refengine.py`` was written from the specification alone,
without reading the engine: plain lists of card texts, capture sets found by
brute force over subsets of the floor. Here both play the same games in
lockstep, with random presets, tables and overridden settings: at every turn
the legal moves must be the same, every play must score the same basra, every
round and game the same result; position queries and damaged records must get
the same answers and the same refusals.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from tests.conftest import CONFORMANCE, TABLES
from tests.reference import refengine

from basra.cards import CARD_NAMES
from basra.query import QueryError, capture_query
from basra.record import Record, RecordError, record_of, result_json
from basra.rules import PRESETS, VARIANT_NAMES
from basra.state import PHASE_DEAL, PHASE_OVER, GameState, shuffled_pack

pytestmark = pytest.mark.engine


def test_the_reference_passes_the_public_conformance_cases() -> None:
    """The oracle is only worth its agreement if it is right where the answer is known."""
    positions = json.loads((CONFORMANCE / "positions.json").read_text(encoding="utf-8"))
    for case in positions:
        args = (case["variant"], case["rules"], case["floor"], case["before"], case["card"])
        assert refengine.captures(*args) == case["options"], case["id"]
    for path in sorted((CONFORMANCE / "games").glob("*.jsonl")):
        if path.name.endswith(".results.jsonl"):
            continue
        expected = path.with_suffix("").with_suffix(".results.jsonl").read_text().splitlines()
        got = []
        for line in path.read_text().splitlines():
            if line.strip():
                with contextlib.suppress(refengine.RefError):  # errors.jsonl: 7 unsound
                    got.append(refengine.replay_record(json.loads(line)))
        assert got == [json.loads(line) for line in expected if line.strip()], path.name


def random_overrides(rng: random.Random) -> dict[str, Any]:
    """A few settings of RULES.md B4 set to random allowed values."""
    choices: dict[str, Any] = {
        "pack": lambda: rng.choice([52, 44]),
        "hand_size": lambda: rng.choice([4, 5, 6]),
        "bury": lambda: rng.choice([["J"], ["J", "7D"], ["7d", "j"], ["7D"], []]),
        "capture_policy": lambda: rng.choice(["max_cards", "any_maximal"]),
        "seven_diamonds": lambda: rng.choice(
            ["plain", "egyptian", "yemeni", "ethiopian", "no_basra"]
        ),
        "basra_mode": lambda: rng.choice(["clear", "lone_match", "lone_match_or_sum"]),
        "basra_value": lambda: rng.choice(["flat", "double_face"]),
        "basra_points": lambda: rng.randrange(0, 25),
        "face_values": lambda: rng.choice([{}, {"Q": 3, "K": 4}, {"K": 7}, {"q": 0}, None]),
        "jack_on_lone_jack": lambda: rng.choice([0, 10, 20, 25, 30, 50, 7]),
        "basra_on_last_play": lambda: rng.choice([True, False]),
        "point_cards": lambda: rng.choice(
            [
                {"A": 1, "J": 1, "2C": 2, "10D": 3},
                {"7D": 1},
                {"10": 1, "10D": 3, "K": 2},
                {},
            ]
        ),
        "majority_bonus": lambda: rng.choice([0, 3, 30]),
        "majority_tie": lambda: rng.choice(["each", "none", "abeyance"]),
        "target": lambda: rng.choice([15, 40, 61, 101]),
        "end_tie": lambda: rng.choice(["extra_rounds", "draw"]),
        "direction": lambda: rng.choice(["ccw", "cw"]),
    }
    names = rng.sample(sorted(choices), rng.randrange(1, 7))
    return {name: choices[name]() for name in names}


def lockstep_game(seed: int, overrides: bool) -> None:
    """Play one random game in both implementations, comparing every step."""
    rng = random.Random(seed)
    variant = rng.choice(VARIANT_NAMES)
    players, teams = rng.choice(TABLES)
    rules = random_overrides(rng) if overrides else {}
    if "target" not in rules:
        rules["target"] = rng.choice([20, 40])  # several rounds, not too long
    first_dealer = rng.randrange(players)
    ours = GameState(variant, players, teams=teams, first_dealer=first_dealer, rules=rules)
    ref = refengine.RefGame(variant, players, teams=teams, first_dealer=first_dealer, rules=rules)
    where = f"seed {seed}: {variant}, {players} players, teams {teams}, rules {rules}"
    for _ in range(300):  # rounds: a game ends long before, even with no point cards
        if ours.phase == PHASE_OVER:
            break
        assert ours.phase == PHASE_DEAL and ref.phase == "deal", where
        pack = [CARD_NAMES[c] for c in shuffled_pack(ours.rules, rng)]
        ours.deal(pack)
        ref.deal(pack)
        while ours.phase == "play":
            assert ref.phase == "play" and ref.turn == ours.turn, where
            moves = ours.legal_moves()
            assert [m.text() for m in moves] == ref.legal_moves(), f"{where}; floor {ref.floor}"
            move = moves[rng.randrange(len(moves))]
            ours.push(move)
            basra = ref.play(move.text())
            assert ours.plays[-1].basra == basra, f"{where}; {move.text()}"
        assert result_json(ours) == ref.result_json(), where
    assert ours.phase == PHASE_OVER and ref.phase == "over", where
    record = record_of(ours).to_json()
    assert refengine.replay_record(json.loads(json.dumps(record))) == result_json(ours), where


@pytest.mark.parametrize("seed", range(60))
def test_preset_games_in_lockstep(seed: int) -> None:
    lockstep_game(seed, overrides=False)


@pytest.mark.parametrize("seed", range(1000, 1120))
def test_games_with_overridden_settings_in_lockstep(seed: int) -> None:
    lockstep_game(seed, overrides=True)


def _query_both(args: tuple[Any, ...]) -> tuple[Any, Any]:
    try:
        ours: Any = capture_query(*args)
    except QueryError as exc:
        ours = QueryError(str(exc))
    try:
        ref: Any = refengine.captures(*args)
    except refengine.RefError as exc:
        ref = refengine.RefError(str(exc))
    return ours, ref


@pytest.mark.parametrize("seed", range(20))
def test_position_queries_agree(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        variant = rng.choice(VARIANT_NAMES)
        rules = random_overrides(rng) if rng.random() < 0.5 else None
        try:
            effective = PRESETS[variant].with_overrides(rules)
        except ValueError:
            continue
        pack = [CARD_NAMES[c] for c in range(effective.pack)]
        rng.shuffle(pack)
        floor = pack[: rng.randrange(0, 9)]
        rest = pack[len(floor) :]
        # Before-plays: cards trailed or played with their first legal capture.
        before = []
        state_floor = list(floor)
        for card in rest[: rng.choice([0, 0, 1, 2, 3])]:
            options = refengine.captures(variant, rules, state_floor, [], card)
            take = rng.choice(options)["take"]
            before.append(card + ("x" + ",".join(take) if take else ""))
            state_floor = [c for c in state_floor if c not in take] + ([] if take else [card])
        card = rest[len(before)]
        if rng.random() < 0.05:
            card = rng.choice(floor or [card])  # a card named twice: both refuse
        ours, ref = _query_both((variant, rules, floor, before, card))
        where = f"{variant} {rules} floor {floor} before {before} card {card}"
        if isinstance(ref, Exception):
            assert isinstance(ours, Exception), f"{where}: ours {ours}, reference {ref}"
        else:
            assert ours == ref, where


def _damage(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with one thing changed: most changes make it unsound."""
    record = json.loads(json.dumps(record))
    rounds = record["rounds"]
    r = rng.randrange(len(rounds))
    plays = rounds[r]["plays"]
    kind = rng.randrange(6)
    if kind == 0 and plays:
        del plays[rng.randrange(len(plays))]
    elif kind == 1 and len(plays) > 1:
        i = rng.randrange(len(plays) - 1)
        plays[i], plays[i + 1] = plays[i + 1], plays[i]
    elif kind == 2 and plays:
        i = rng.randrange(len(plays))
        plays[i] = plays[i].split("x")[0]  # a bare card: fine, or ambiguous, or wrong
    elif kind == 3:
        pack = rounds[r]["pack"]
        i, j = rng.randrange(len(pack)), rng.randrange(len(pack))
        pack[i], pack[j] = pack[j], pack[i]
    elif kind == 4:
        rounds[r]["plays"] = plays[: rng.randrange(len(plays) + 1)]
    else:
        record["first_dealer"] = rng.randrange(record["players"])
    return record


@pytest.mark.parametrize("seed", range(10))
def test_damaged_records_get_the_same_verdict(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        variant = rng.choice(VARIANT_NAMES)
        players, teams = rng.choice(TABLES)
        state = GameState(variant, players, teams=teams, rules={"target": 30})
        while not state.is_over:
            if state.phase == PHASE_DEAL:
                state.deal(rng=rng)
            else:
                moves = state.legal_moves()
                state.push(moves[rng.randrange(len(moves))])
        damaged = _damage(record_of(state).to_json(), rng)
        try:
            ours: Any = result_json(Record.from_json(damaged).replay())
        except RecordError:
            ours = None
        try:
            ref: Any = refengine.replay_record(damaged)
        except refengine.RefError:
            ref = None
        assert ours == ref, json.dumps(damaged)
