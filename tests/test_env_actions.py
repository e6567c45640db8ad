"""The shared action encoding: every legal move has one action, every action one move."""

from __future__ import annotations

import random

import pytest

from basra.cards import RANK_MASKS, cards_of, mask_of, parse_card, parse_cards
from basra.env.actions import (
    CARDS,
    MAX_OPTIONS,
    ActionError,
    action_map,
    action_of,
    action_text,
    actions_of_moves,
    max_options,
    move_of,
    num_actions,
    option_slots,
)
from basra.moves import Move
from basra.rules import VARIANT_NAMES, preset
from basra.state import GameState

from .conftest import TABLES

pytestmark = pytest.mark.engine


def _positions(
    variant: str, players: int, teams: bool, seed: int, rules: dict[str, object] | None = None
) -> list[GameState]:
    """Every position of a random game, as copies (mover to play)."""
    rng = random.Random(seed)
    state = GameState(
        variant, players, teams=teams, first_dealer=rng.randrange(players), rules=rules
    )
    out = []
    while not state.is_over and len(state.rounds) <= 30:
        if state.phase == "deal":
            state.deal(rng=rng)
            continue
        out.append(state.copy())
        moves = state.legal_moves()
        state.push(moves[rng.randrange(len(moves))])
    return out


def _check_round_trip(state: GameState) -> int:
    """Check the mapping at one position; returns how many cards had several options."""
    rules = state.rules
    moves = state.legal_moves()
    actions = actions_of_moves(moves, option_slots(rules))
    assert len(actions) == len(moves), "two moves share an action"
    assert set(actions.values()) == set(moves)
    hand, floor = state.hands[state.turn], state.floor
    assert actions == action_map(rules, cards_of(state.hands[state.turn]), floor)
    several = 0
    for action, move in actions.items():
        assert 0 <= action < num_actions(rules)
        assert move_of(rules, hand, floor, action) == move
        assert action_of(rules, floor, move) == action
        if action >= CARDS:
            several += 1
    return several


@pytest.mark.parametrize(("players", "teams"), TABLES)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_round_trip_over_random_games(variant: str, players: int, teams: bool) -> None:
    for seed in range(2):
        for state in _positions(variant, players, teams, seed):
            _check_round_trip(state)


@pytest.mark.parametrize("policy", ["max_cards", "any_maximal"])
def test_round_trip_where_cards_have_several_options(policy: str) -> None:
    seen = 0
    for seed in range(15):
        for players, teams in TABLES:
            for state in _positions(
                "cypriot_bastra", players, teams, seed, {"capture_policy": policy}
            ):
                seen += _check_round_trip(state)
    assert seen > 10, "random play should reach positions with a choice of capture sets"


def test_options_are_numbered_in_canonical_order() -> None:
    rules = preset("egyptian").with_overrides({"capture_policy": "any_maximal"})
    floor = mask_of(parse_cards("2H AS 5S 4D"))
    seven = parse_card("7C")
    actions = action_map(rules, [seven], floor)
    assert actions == {
        seven: Move(seven, mask_of(parse_cards("AS 2H 4D"))),
        CARDS + seven: Move(seven, mask_of(parse_cards("2H 5S"))),
    }
    assert action_text(seven) == "7C"
    assert action_text(CARDS + seven) == "7C/1"
    # max_cards: the larger set only, as option 0.
    assert action_map(preset("egyptian"), [seven], floor) == {
        seven: Move(seven, mask_of(parse_cards("AS 2H 4D")))
    }


def test_equal_sets_that_differ_in_suits_each_get_an_action() -> None:
    # 10 takes 9+A; which nine stays is the player's choice (RULES.md A6).
    rules = preset("cypriot_bastra")
    floor = mask_of(parse_cards("9S 9H AD"))
    ten = parse_card("10C")
    actions = action_map(rules, [ten], floor)
    assert sorted(actions) == [ten, CARDS + ten]
    assert [str(actions[a]) for a in sorted(actions)] == ["10CxAD,9S", "10CxAD,9H"]


def test_space_sizes() -> None:
    assert num_actions(preset("egyptian")) == 52 * 15 == 780
    any_maximal = preset("egyptian").with_overrides({"capture_policy": "any_maximal"})
    assert num_actions(any_maximal) == 52 * 38
    assert all(option_slots(preset(name)) == 15 for name in VARIANT_NAMES)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["max_cards", "any_maximal"])
def test_the_option_slots_cover_every_floor_play_can_reach(policy: str) -> None:
    """The proof of the slot count: the worst floor of the reachable shape."""
    assert max_options(policy) == MAX_OPTIONS[policy]


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_only_cards_from_the_deal_share_a_rank_on_the_floor(players: int, teams: bool) -> None:
    """The invariant behind the slot count, checked along random games of every variant."""
    for variant in VARIANT_NAMES:
        rng = random.Random(players * 10 + teams)
        state = GameState(variant, players, teams=teams)
        while not state.is_over:
            if state.phase == "deal":
                state.deal(rng=rng)
                dealt = 0
                for card in state.rounds[-1].initial_floor:
                    dealt |= 1 << card
                dealt |= state.floor  # replacements for buried cards
                assert state.floor.bit_count() <= 5
                continue
            for rank_mask in RANK_MASKS:
                on_floor = state.floor & rank_mask
                if on_floor.bit_count() >= 2:
                    assert on_floor & ~dealt == 0, state
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])


def test_a_floor_play_cannot_reach_is_an_error_not_a_wrong_action() -> None:
    rules = preset("egyptian").with_overrides({"capture_policy": "any_maximal"})
    floor = mask_of(parse_cards("AS AH AD AC 2S 2H 2D 2C 3S 3H 4S 4H 5S 6S 7S 8S"))
    with pytest.raises(ActionError, match="more than the 38"):
        action_map(rules, [parse_card("9C")], floor)


def test_bad_actions_say_what_is_wrong() -> None:
    rules = preset("egyptian")
    hand = mask_of(parse_cards("7C 2D"))
    floor = mask_of(parse_cards("AS 6H"))
    with pytest.raises(ActionError, match="from 0 to 779"):
        move_of(rules, hand, floor, 780)
    with pytest.raises(ActionError, match="not in the hand"):
        move_of(rules, hand, floor, parse_card("7S"))
    with pytest.raises(ActionError, match="has 1 option"):
        move_of(rules, hand, floor, CARDS + parse_card("7C"))
    with pytest.raises(ActionError, match="not a legal play"):
        action_of(rules, floor, Move(parse_card("7C"), 0))
