"""Properties of whole random games, for every preset and table, with random rule overrides."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from basra.cards import pack_mask
from basra.notation import parse_move
from basra.record import Record, record_of, result_json
from basra.rules import VARIANT_NAMES
from basra.state import GameState
from basra.view import view_of

from .conftest import TABLES

pytestmark = pytest.mark.engine

overrides = st.fixed_dictionaries(
    {},
    optional={
        "pack": st.sampled_from([52, 44]),
        "hand_size": st.sampled_from([4, 5, 6]),
        "bury": st.sampled_from([["J"], ["J", "7D"], ["7D"], []]),
        "capture_policy": st.sampled_from(["max_cards", "any_maximal"]),
        "seven_diamonds": st.sampled_from(["plain", "egyptian", "yemeni", "ethiopian", "no_basra"]),
        "basra_mode": st.sampled_from(["clear", "lone_match", "lone_match_or_sum"]),
        "basra_value": st.sampled_from(["flat", "double_face"]),
        "basra_points": st.integers(0, 20),
        "face_values": st.dictionaries(st.sampled_from(["Q", "K"]), st.integers(0, 12)),
        "jack_on_lone_jack": st.sampled_from([0, 10, 20, 25, 30, 50]),
        "basra_on_last_play": st.booleans(),
        "point_cards": st.dictionaries(
            st.sampled_from(["A", "J", "2C", "10D", "7D", "10", "K", "5H"]), st.integers(0, 5)
        ),
        "majority_bonus": st.sampled_from([0, 3, 30]),
        "majority_tie": st.sampled_from(["each", "none", "abeyance"]),
        "target": st.integers(20, 121),
        "end_tie": st.sampled_from(["extra_rounds", "draw"]),
        "direction": st.sampled_from(["ccw", "cw"]),
    },
)


def check_game(variant: str, players: int, teams: bool, seed: int, rules: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = GameState(
        variant, players, teams=teams, first_dealer=rng.randrange(players), rules=rules
    )
    pack = pack_mask(state.rules.pack)
    steps = 0
    while not state.is_over and len(state.rounds) < 40:
        if state.phase == "deal":
            state.deal(rng=rng)
            continue
        moves = state.legal_moves()
        assert moves
        for move in moves:  # parse(format(move)) == move
            assert parse_move(state, move.text()) == move
        seat = rng.randrange(players)
        view = view_of(state, seat)
        assert view.unseen() & (state.hands[seat] | state.floor) == 0
        move = moves[rng.randrange(len(moves))]
        if steps % 5 == 0:  # push/pop leaves the state unchanged
            before = state.fingerprint()
            state.push(move)
            state.pop()
            assert state.fingerprint() == before
        state.push(move)
        steps += 1
        if state.phase != "play":  # a round just ended: every card is in exactly one pile
            piles = state.piles
            assert sum(p.bit_count() for p in piles) == state.rules.pack
            union = 0
            for p in piles:
                assert union & p == 0
                union |= p
            assert union == pack
    if state.is_over:
        points = [0] * len(state.sides)
        for rnd in state.rounds:
            assert rnd.result is not None
            points = [a + b for a, b in zip(points, rnd.result.points, strict=True)]
        assert points == state.scores
    again = Record.from_json(record_of(state).to_json()).replay()
    assert result_json(again) == result_json(state)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 2**32),
)
def test_preset_games(variant: str, table: tuple[int, bool], seed: int) -> None:
    check_game(variant, table[0], table[1], seed, {})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 2**32),
    rules=overrides,
)
def test_games_with_overridden_settings(
    variant: str, table: tuple[int, bool], seed: int, rules: dict[str, Any]
) -> None:
    check_game(variant, table[0], table[1], seed, rules)
