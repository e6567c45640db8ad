"""Per-seat views hide what the seat cannot know; determinize fills it in consistently."""

from __future__ import annotations

import json
import random

import pytest

from basra.cards import CARD_NAMES, cards_of, pack_mask
from basra.state import GameState
from basra.view import determinize, view_of

from .conftest import TABLES, random_game, with_hidden

pytestmark = pytest.mark.engine


def hidden_from(state: GameState, seat: int) -> int:
    """Cards in other hands and in the stock, minus those whose place is public."""
    view = view_of(state, seat)
    hidden = 0
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= hand & ~view.known[other]
    for card in state.stock[state.stock_pos :]:
        if card not in view.stock_bottom:
            hidden |= 1 << card
    return hidden


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_views_never_show_a_hidden_card(variant: str, players: int, teams: bool) -> None:
    rng = random.Random(f"{variant}{players}{teams}")
    state = GameState(variant, players, teams=teams)
    for _ in range(130):  # two rounds or so: every kind of event, at a test's pace
        if state.is_over:
            break
        if state.phase == "deal":
            state.deal(rng=rng)
            continue
        for seat in range(players):
            view = view_of(state, seat)
            data = view.to_json()
            del data["rules"]  # point_cards names cards such as "2C"
            text = json.dumps(data)
            for card in cards_of(hidden_from(state, seat)):
                assert f'"{CARD_NAMES[card]}"' not in text
            assert view.unseen() & ~hidden_from(state, seat) == 0
            assert view.unseen() == hidden_from(state, seat)
        moves = state.legal_moves()
        state.push(moves[rng.randrange(len(moves))])


def test_a_view_does_not_change_when_hidden_cards_are_swapped() -> None:
    state = random_game("egyptian", 3, seed=4, stop_after=7)
    view = view_of(state, 0)
    # swap a card of seat 1's hand with one in the stock
    hands = list(state.hands)
    stock = state.stock[state.stock_pos :]
    hand_card = cards_of(hands[1])[0]
    hands[1] ^= 1 << hand_card | 1 << stock[0]
    stock[0] = hand_card
    twin = with_hidden(state, hands, stock)
    assert view_of(twin, 0).key() == view.key()
    assert view_of(twin, 0).to_json() == view.to_json()
    assert view_of(twin, 1).to_json() != view_of(state, 1).to_json()


def test_buried_cards_are_public_and_tracked() -> None:
    rng = random.Random(0)
    for _ in range(200):
        state = GameState("egyptian", 2)
        state.deal(rng=rng)
        if state.rounds[-1].buried:
            break
    view = view_of(state, 1)
    assert view.stock_bottom == state.rounds[-1].buried
    while state.stock_size:
        state.push(state.legal_moves()[0])
    view = view_of(state, 1)
    buried = sum(1 << c for c in state.rounds[-1].buried)
    assert (
        view.known[state.dealer] & buried
        or state.dealer == 1
        or not buried & state.hands[state.dealer]
    )


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_determinize_is_consistent_with_the_view(variant: str, players: int, teams: bool) -> None:
    rng = random.Random(1)
    for stop in (0, 5, 13, 30):
        state = random_game(variant, players, teams, seed=stop, stop_after=stop)
        if state.phase != "play":
            continue
        for seat in range(players):
            view = view_of(state, seat)
            sample = determinize(view, rng)
            again = view_of(sample, seat)
            assert again.to_json() == view.to_json()
            assert again.key() == view.key()
            everything = sample.floor | sum(sample.hands) | sum(sample.piles)
            for card in sample.stock:
                everything |= 1 << card
            assert everything == pack_mask(state.rules.pack)
            # the sample plays on to the end of the round
            while sample.phase == "play":
                sample.push(sample.legal_moves()[0])


def test_view_key_tells_information_states_apart() -> None:
    state = random_game("lebanese", 2, seed=8, stop_after=4)
    key = view_of(state, 0).key()
    state.push(state.legal_moves()[0])
    assert view_of(state, 0).key() != key
    assert view_of(state, 0).key() == view_of(state, 0).key()
    assert hash(view_of(state, 0).key())


def test_legal_moves_only_on_the_seats_turn() -> None:
    state = random_game("egyptian", 2, seed=1, stop_after=3)
    mover = state.turn
    assert view_of(state, mover).legal_moves() == state.legal_moves()
    assert view_of(state, 1 - mover).legal_moves() == []
