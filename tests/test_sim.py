"""The search bots' simulator (the one transition, dealing lazily) plays like the engine;
the sampler deals only hidden cards."""

from __future__ import annotations

import random

import pytest

from basra.bots.sim import Decision, Sampler, Sim, deal_decisions, deal_starts, likelihood
from basra.cards import parse_card
from basra.moves import Move
from basra.notation import parse_move
from basra.state import GameState
from basra.view import view_of

from .conftest import TABLES, cards

pytestmark = pytest.mark.engine


def same(sim: Sim, state: GameState) -> None:
    assert sim.hands == state.hands
    assert sim.floor == state.floor
    assert sim.piles == state.piles
    assert sim.basras == state.basras
    assert sim.basra_points == state.basra_points
    assert sim.lone_last == state.lone_last
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
                sim.moves()  # makes a deal that is due
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
    sampler = Sampler(view, read=0.3)
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


def deal_of(text: str) -> GameState:
    """An Egyptian round dealt from a pack whose first cards are ``text``."""
    top = text.split()
    rest = [c for c in range(52) if not cards(text) >> c & 1]
    state = GameState("egyptian")
    state.deal(top + rest)  # type: ignore[operator]
    return state


def share_holding(sampler: Sampler, seat: int, mask: int, n: int = 400) -> float:
    rng = random.Random(1)
    return sum(bool(sampler.sample(rng).hands[seat] & mask) for _ in range(n)) / n


def test_a_seat_that_passed_up_a_basra_probably_lacks_the_card() -> None:
    # Seat 1 plays first and trails KD on 2H 3H 4H 5S, where a plain 7 would
    # have cleared the floor (3+4, 2+5) for a basra.
    state = deal_of("KD KH QC QH  6S 7S 8S AH  2H 3H 4H 5S")
    assert state.turn == 1
    state.play(parse_move(state, "KD"))
    view = view_of(state, 0)
    [decision] = deal_decisions(view)
    assert (decision.seat, decision.floor, decision.later) == (1, cards("2H 3H 4H 5S"), 0)
    sevens = cards("7H 7C")
    blind = share_holding(Sampler(view), 1, sevens)
    read = share_holding(Sampler(view, read=0.2), 1, sevens)
    assert blind > 0.1 and read < blind / 2
    # the evidence stays while that seat plays on without showing a seven
    for text in ("8S", "QC", "AH"):
        state.play(parse_move(state, text))
    assert [d.seat for d in deal_decisions(view_of(state, 0))] == [1, 1]


def test_a_seat_that_later_plays_the_card_showed_it_held_it() -> None:
    state = deal_of("KD 7H 9D QC  6S 8S AH 10S  2H 3H 4H 5S")
    for text in ("KD", "8S", "7H"):
        state.play(parse_move(state, text))
    first, second = deal_decisions(view_of(state, 0))
    assert first.later == cards("7H") and second.later == 0
    # the sample always has seat 1 holding what it must have held: consistent hands only
    sampler = Sampler(view_of(state, 0), read=0.3)
    rng = random.Random(2)
    for _ in range(20):
        sim = sampler.sample(rng)
        assert sim.hands[1].bit_count() == 2


def test_likelihood_prefers_hands_that_explain_the_play() -> None:
    rules = GameState("egyptian").rules
    decision = Decision(1, cards("2H 3H 4H 5S"), False, Move(parse_card("KD"), 0), 0)
    with_seven = likelihood(rules, cards("KD 7H 9C QC"), decision, 0.3)
    without = likelihood(rules, cards("KD KH QC QH"), decision, 0.3)
    assert with_seven < without / 3
    assert with_seven > 0.0 and without <= 1.0
