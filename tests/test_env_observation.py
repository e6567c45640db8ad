"""The shared observation encoding: built from a seat's view only, same layout everywhere."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from basra.cards import parse_cards  # noqa: E402
from basra.env.observation import ObservationEncoder  # noqa: E402
from basra.rules import VARIANT_NAMES, preset  # noqa: E402
from basra.state import GameState  # noqa: E402
from basra.view import determinize, view_of  # noqa: E402

from .conftest import TABLES, random_game  # noqa: E402

pytestmark = pytest.mark.engine

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ENV.md"


def _mid_game(variant: str, players: int, teams: bool, seed: int) -> GameState:
    return random_game(variant, players, teams, seed=seed, stop_after=7 + seed * 5)


@pytest.mark.parametrize(("players", "teams"), TABLES)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_hidden_cards_do_not_change_an_observation(variant: str, players: int, teams: bool) -> None:
    """Re-deal what a seat cannot see (other hands, the stock): its vector stays the same."""
    for seed in range(3):
        state = _mid_game(variant, players, teams, seed)
        for history in (False, True):
            encoder = ObservationEncoder(state.rules, players, teams, history=history)
            for seat in range(players):
                view = view_of(state, seat)
                before = encoder.encode(view)
                for k in range(3):
                    other = determinize(view, random.Random(k))
                    # The hidden cards really moved (while there are some to move).
                    after = encoder.encode(view_of(other, seat))
                    np.testing.assert_array_equal(before, after)


def test_hidden_cards_moved_in_the_test_above() -> None:
    state = _mid_game("egyptian", 2, False, 0)
    other = determinize(view_of(state, 0), random.Random(0))
    assert other.hands[1] != state.hands[1] or other.stock != state.stock[state.stock_pos :]


def test_what_a_seat_sees_changes_its_observation() -> None:
    def position(hand: str, stock: str) -> GameState:
        return GameState.from_position(
            "egyptian",
            floor=parse_cards("2C 5H"),
            hands=[parse_cards(hand), parse_cards("3H 4H")],
            stock=parse_cards(stock),
        )

    state = position("7S 9D", "8D 6S")
    other = position("7S 8D", "9D 6S")
    encoder = ObservationEncoder(state.rules, 2, False)
    assert not np.array_equal(encoder.encode(view_of(state, 0)), encoder.encode(view_of(other, 0)))
    # Seat 1 does not see seat 0's hand: same vector.
    np.testing.assert_array_equal(
        encoder.encode(view_of(state, 1)), encoder.encode(view_of(other, 1))
    )


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_vectors_are_in_range_and_sized_alike(players: int, teams: bool) -> None:
    sizes = set()
    for variant in VARIANT_NAMES:
        state = random_game(variant, players, teams, seed=1)  # to the end: every phase seen
        encoder = ObservationEncoder(state.rules, players, teams, history=True)
        sizes.add((encoder.observation_size, encoder.size))
        for seat in range(players):
            vector = encoder.encode(view_of(state, seat))
            assert vector.dtype == np.float32
            assert vector.min() >= 0.0 and vector.max() <= 1.0
    assert sizes == {(949, 949 + 416)}


def test_seats_and_sides_are_relative_to_the_observer() -> None:
    state = GameState.from_position(
        "lebanese",
        4,
        teams=True,
        floor=parse_cards("KD"),
        hands=[parse_cards("2C"), parse_cards("3C"), parse_cards("4C 5C"), parse_cards("6C")],
        captured=[parse_cards("AS AH"), parse_cards("QS")],
        turn=2,
        scores=[30, 60],
    )
    encoder = ObservationEncoder(state.rules, 4, True)
    vector = encoder.encode(view_of(state, 1))
    captured = vector[encoder.slice("captured")].reshape(4, 52)
    assert [card for card in range(52) if captured[0][card]] == parse_cards("QS")
    assert captured[1].sum() == 2 and captured[2:].sum() == 0
    np.testing.assert_array_equal(vector[encoder.slice("turn")], [0, 1, 0, 0])
    np.testing.assert_array_equal(vector[encoder.slice("hand_sizes")] * 6, [1, 2, 1, 1])
    np.testing.assert_allclose(vector[encoder.slice("scores")] * 101, [60, 30, 0, 0], rtol=1e-6)
    assert vector[encoder.slice("my_turn")][0] == 0
    mine = encoder.encode(view_of(state, 2))
    assert mine[encoder.slice("my_turn")][0] == 1


def test_information_state_records_the_round() -> None:
    state = GameState("egyptian")
    state.deal(rng=random.Random(4))
    encoder = ObservationEncoder(state.rules, 2, False, history=True)
    first = encoder.encode(view_of(state, 0))
    plays = []
    for _ in range(3):
        move = state.legal_moves()[0]
        plays.append((state.turn, move))
        state.push(move)
    vector = encoder.encode(view_of(state, 0))
    assert not np.array_equal(first, vector)
    played_by = vector[encoder.slice("played_by")].reshape(4, 52)
    played_at = vector[encoder.slice("played_at")]
    for index, (seat, move) in enumerate(plays):
        assert played_by[seat][move.card] == 1
        assert played_at[move.card] == pytest.approx((index + 1) / 64)
    # The observation is a prefix of the information state.
    plain = ObservationEncoder(state.rules, 2, False).encode(view_of(state, 0))
    np.testing.assert_array_equal(vector[: len(plain)], plain)


def test_rule_settings_are_part_of_the_observation() -> None:
    a = ObservationEncoder(preset("egyptian"), 2, False)
    b = ObservationEncoder(preset("syrian"), 2, False)
    assert not np.array_equal(a._template, b._template)


def test_docs_list_the_layout() -> None:
    """docs/ENV.md shows every block at the offset the encoder uses."""
    text = DOCS.read_text(encoding="utf-8")
    encoder = ObservationEncoder(preset("egyptian"), 4, True, history=True)
    for block in encoder.blocks():
        row = re.search(rf"^\| `{block.name}` \| (\d+) \| (\d+) \|", text, re.MULTILINE)
        assert row is not None, f"docs/ENV.md has no row for {block.name}"
        assert (int(row[1]), int(row[2])) == (block.start, block.size), block.name


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_preview_is_what_each_card_would_take_and_score(variant: str) -> None:
    from basra.bots.simple import immediate_points

    for players, teams in TABLES:
        state = random_game(variant, players, teams, seed=2, stop_after=5)
        encoder = ObservationEncoder(state.rules, players, teams)
        view = view_of(state, state.turn)
        vector = encoder.encode(view)
        sizes = vector[encoder.slice("take_size")]
        points = vector[encoder.slice("take_points")]
        first = {}
        for move in view.legal_moves():
            first.setdefault(move.card, move)
        for card in range(52):
            move = first.get(card)
            if move is None:
                assert sizes[card] == points[card] == 0
                continue
            assert sizes[card] == pytest.approx(min(move.take.bit_count() / 10, 1))
            assert points[card] == pytest.approx(min(immediate_points(view, move) / 20, 1))
