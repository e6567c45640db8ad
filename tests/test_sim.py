"""The search bots' simulator plays exactly like the engine; the sampler deals only hidden cards."""

from __future__ import annotations

import random

import pytest

from basra.bots.sim import Sampler, Sim, deal_starts, suspect_cards
from basra.notation import parse_move
from basra.state import GameState
from basra.view import view_of

from .conftest import TABLES, cards


def same(sim: Sim, state: GameState) -> None:
    assert sim.hands == state.hands
    assert sim.floor == state.floor
    assert sim.piles == state.piles
    assert sim.basras == state.basras
    assert sim.basra_points == state.basra_points
    assert sim.last == state.last_capture_side
    assert sim.lone == state.lone_trail
    assert sim.turn == state.turn


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_sim_plays_rounds_exactly_like_the_engine(variant: str, players: int, teams: bool) -> None:
    rng = random.Random(f"sim/{variant}/{players}/{teams}")
    for _ in range(3):
        state = GameState(variant, players, teams=teams, first_dealer=rng.randrange(players))
        state.deal(rng=rng)
        # start at a random point of the round
        for _ in range(rng.randrange(20)):
            state.push(rng.choice(state.legal_moves()))
        sim = Sim.from_state(state)
        while state.phase == "play":
            moves = state.legal_moves()
            assert sim.moves() == moves
            assert sim.is_last_play == state.is_last_play
            move = rng.choice(moves)
            basra = sim.play(*move)
            state.push(move)
            assert basra == state.rounds[-1].plays[-1].basra
            if state.phase == "play":
                same(sim, state)
        assert sim.result == state.rounds[-1].result


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_samples_change_only_hidden_cards(variant: str, players: int, teams: bool) -> None:
    rng = random.Random(f"sample/{variant}/{players}/{teams}")
    state = GameState(variant, players, teams=teams)
    state.deal(rng=rng)
    for _ in range(rng.randrange(30)):
        state.push(rng.choice(state.legal_moves()))
    seat = state.turn
    view = view_of(state, seat)
    sampler = Sampler(view, infer=0.3)
    for _ in range(20):
        sim = sampler.sample(rng)
        assert sim.hands[seat] == state.hands[seat]
        assert sim.floor == state.floor
        assert [h.bit_count() for h in sim.hands] == [h.bit_count() for h in state.hands]
        for other in range(players):
            assert sim.hands[other] & view.known[other] == view.known[other]
        hidden = 0
        for other, hand in enumerate(sim.hands):
            if other != seat:
                hidden |= hand & ~view.known[other]
        stock = sim.stock
        assert len(stock) == len(state.stock) - state.stock_pos
        assert stock[len(stock) - len(view.stock_bottom) :] == list(view.stock_bottom)
        for card in stock[: len(stock) - len(view.stock_bottom)]:
            hidden |= 1 << card
        assert hidden == view.unseen()
        # and the sample plays on to the end of the round
        while sim.result is None:
            sim.play(*rng.choice(sim.moves()))


def test_deal_starts() -> None:
    state = GameState("egyptian")
    assert deal_starts(state.rules, 2) == [0, 8, 16, 24, 32, 40]
    assert deal_starts(GameState("lebanese").rules, 4) == [0, 24]
    assert deal_starts(GameState("palestinian").rules, 3) == [0, 12, 24, 36]


def test_a_seat_that_passed_up_a_basra_probably_lacks_the_card() -> None:
    # Seat 1 plays first and trails KD on 2H 3H 4H 5S, where a plain 7 would
    # have cleared the floor (3+4, 2+5) for a basra.
    top = ["KD", "9C", "9D", "QC", "6S", "7S", "8S", "AH", "2H", "3H", "4H", "5S"]
    rest = [c for c in range(52) if not cards(" ".join(top)) >> c & 1]
    state = GameState("egyptian")
    state.deal(top + rest)  # type: ignore[operator]
    assert state.turn == 1
    state.play(parse_move(state, "KD"))
    view = view_of(state, 0)
    assert suspect_cards(view) == [(1, cards("7H 7C"))]
    # samples rarely give seat 1 one of those sevens
    sampler = Sampler(view, infer=0.0)
    rng = random.Random(1)
    for _ in range(50):
        assert not sampler.sample(rng).hands[1] & cards("7H 7C")
    # a seat that plays the suspect card later shows it held it: nothing is inferred
    # plays that show nothing keep the inference
    for text in ("8S", "QC", "6S"):
        state.play(parse_move(state, text))
    assert suspect_cards(view_of(state, 0)) == [(1, cards("7H 7C"))]


def test_a_seat_that_later_plays_the_card_showed_it_held_it() -> None:
    top = ["KD", "7H", "9D", "QC", "6S", "8S", "AH", "10S", "2H", "3H", "4H", "5S"]
    rest = [c for c in range(52) if not cards(" ".join(top)) >> c & 1]
    state = GameState("egyptian")
    state.deal(top + rest)  # type: ignore[operator]
    for text in ("KD", "8S", "7H"):
        state.play(parse_move(state, text))
    assert suspect_cards(view_of(state, 0)) == []
