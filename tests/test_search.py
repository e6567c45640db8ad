"""The compiled search (``basra._search``) against the pure-Python search it mirrors.

Its sampler deals only hidden cards, consistently with the view; its hand
reading weighs a deal by the same likelihood as :func:`basra.bots.sim.likelihood`;
and with the same settings its root statistics match the pure search's
(same means within sampling error, same favourite move).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import basra._search as compiled
from basra.bots import make_bot
from basra.bots.ismcts import (
    IsmctsBot,
    SearchSettings,
    kernel_search,
    parse_settings,
    pure_view_problem,
    run_problem,
    search,
    state_problem,
    view_problem,
)
from basra.bots.pure import PureProblem
from basra.bots.sim import Sampler, Sim, deal_decisions, likelihood
from basra.bots.solve import SolveAbortedError, solve_moves
from basra.moves import Move
from basra.notation import parse_move
from basra.state import GameState
from basra.view import View, view_of

from .conftest import TABLES, random_game
from .test_sim import deal_of

pytestmark = pytest.mark.engine


def problem(view: View, read: float = 0.3, seed: int = 1) -> compiled.Search:
    search_problem: compiled.Search = view_problem(view, read, 200, seed)
    return search_problem


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_samples_deal_only_hidden_cards(variant: str, players: int, teams: bool) -> None:
    rng = random.Random(f"search/{variant}/{players}")
    state = random_game(variant, players, teams, seed=rng.randrange(99), stop_after=0)
    while state.phase == "deal":
        state.deal(rng=rng)
    for _ in range(rng.randrange(30)):
        if state.phase != "play":
            break
        state.push(rng.choice(state.legal_moves()))
    if state.phase != "play":
        return
    view = view_of(state, state.turn)
    search_problem = problem(view)
    for _ in range(20):
        hands, stock = search_problem.sample_hands()
        assert hands[view.seat] == view.hand
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
        hidden = 0
        for seat, hand in enumerate(hands):
            assert hand & view.known[seat] == view.known[seat]
            if seat != view.seat:
                hidden |= hand & ~view.known[seat]
        assert len(stock) == state.stock_size
        assert stock[len(stock) - len(view.stock_bottom) :] == list(view.stock_bottom)
        for card in stock[: len(stock) - len(view.stock_bottom)]:
            hidden |= 1 << card
        assert hidden == view.unseen()


def test_hand_reading_weighs_deals_as_the_pure_likelihood() -> None:
    # Seat 1 trails KD on 2H 3H 4H 5S, where a 7 would have cleared the floor for a basra.
    state = deal_of("KD KH QC QH  6S 7S 8S AH  2H 3H 4H 5S")
    state.play(parse_move(state, "KD"))
    view = view_of(state, 0)
    search_problem = problem(view, read=0.2)
    weights = search_problem.weights()
    assert len(weights) == 200 and all(w > 0 for w in weights)
    # the same weights as the pure likelihood of each pooled deal: recompute from a sample
    decisions = deal_decisions(view)
    rules = view.rules
    for _ in range(20):
        hands, _ = search_problem.sample_hands()
        weight = 1.0
        for d in decisions:
            held = hands[d.seat] | d.later | 1 << d.move.card
            weight *= likelihood(rules, held, d, 0.2)
        assert any(abs(weight - w) <= 1e-12 * max(w, 1e-300) for w in weights)


def test_root_statistics_match_the_pure_search() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 4:
        state = GameState("egyptian")
        state.deal(rng=rng)
        for _ in range(rng.randrange(0, 30)):
            state.push(rng.choice(state.legal_moves()))
        if state.phase != "play" or len(state.legal_moves()) < 2:
            continue
        view = view_of(state, state.turn)
        settings = SearchSettings(iterations=6000)
        sampler = Sampler(view, settings.read, settings.pool)
        pure_rng = random.Random(1)
        pure, _ = search(
            lambda sampler=sampler, r=pure_rng: sampler.sample(r), view.rules, 2, settings, pure_rng
        )
        fast, iterations = kernel_search(view, settings, random.Random(2))
        assert iterations == 6000
        assert set(fast) == set(pure)
        for move, node in pure.items():
            other = fast[move]
            if node.visits > 500 and other.visits > 500:
                assert abs(node.total / node.visits - other.total / other.visits) < 0.03, move
        checked += 1


def test_decisions_are_deterministic_for_a_seed_and_budget() -> None:
    state = random_game("lebanese", 3, seed=8, stop_after=10)
    view = view_of(state, state.turn)
    settings = SearchSettings(iterations=2000)
    first = kernel_search(view, settings, random.Random(3))
    again = kernel_search(view, settings, random.Random(3))
    assert {m: (n.visits, n.total) for m, n in first[0].items()} == {
        m: (n.visits, n.total) for m, n in again[0].items()
    }


def late_position(variant: str, players: int, teams: bool, seed: int, left: int) -> GameState:
    """A random game's first round with ``left`` plays to go (0 plays for a short round)."""
    rng = random.Random(seed)
    state = GameState(variant, players, teams=teams, rules={"target": 1})
    state.deal(rng=rng)
    while state.phase == "play" and state.stock_size + state.in_hands > left:
        state.push(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_the_exact_solver_and_its_pure_mirror_agree(players: int, teams: bool) -> None:
    rng = random.Random(f"solve/{players}/{teams}")
    variants = ["egyptian", "lebanese", "cypriot_bastra", "syrian", "cypriot_classic", "yemeni"]
    checked = aborted = 0
    for trial in range(24):
        left = (8 if players == 2 or teams else 6) + trial % 4  # max^n prunes nothing
        state = late_position(
            variants[trial % len(variants)], players, teams, rng.randrange(1 << 30), left
        )
        if state.phase != "play" or len(state.legal_moves()) < 2:
            continue
        limit = 60 if trial % 5 == 0 else 2_000_000
        search_problem = state_problem(state, 1, hidden_stock=False)
        for margins, mu, shape in ((True, 0.0, 1), (False, 0.5, 1), (False, 0.3, 0)):
            fast = search_problem.exact(1, mu, limit, margins, shape)
            try:
                pure = solve_moves(
                    Sim.from_state(state), margins=margins, mu=mu, shape=shape, node_limit=limit
                )
            except SolveAbortedError:
                assert fast is None
                aborted += 1
                continue
            assert fast is not None
            stats, _ = fast
            assert [Move(c, t) for c, t, _, _ in stats] == [move for move, _ in pure]
            assert [total for _, _, _, total in stats] == pytest.approx([v for _, v in pure])
            checked += 1
    assert checked >= 20 and aborted >= 1


def pure_problem(view: View, settings: SearchSettings, seed: int = 4) -> PureProblem:
    return pure_view_problem(view, settings, random.Random(seed))


def test_the_pure_search_honours_every_option() -> None:
    state = random_game("egyptian", 2, seed=12, stop_after=9)
    view = view_of(state, state.turn)
    moves = set(view.legal_moves())
    assert len(moves) > 1

    def run(options: str) -> tuple[dict[Move, Any], int]:
        settings = parse_settings(options)
        return run_problem(pure_problem(view, settings), settings)

    children, iterations = run("iterations=40,forced=3")
    assert set(children) == moves and iterations == 3
    assert all(node.visits == 3 for node in children.values())
    _, iterations = run("iterations=40,trees=3")
    assert iterations == 120
    children, iterations = run("flat=12")
    assert iterations == 12 and all(node.visits == 12 for node in children.values())
    _, iterations = run("iterations=60,depth=2,horizon=2,policy=2")
    assert iterations == 60
    plain, _ = run("iterations=200")
    floored, _ = run("iterations=200,floor=2")
    assert {m: n.total for m, n in plain.items()} != {m: n.total for m, n in floored.items()}
    # in the last plays, exact solves of sampled deals (three players: two hands hidden)
    late = late_position("egyptian", 3, False, 5, 7)
    late_view = view_of(late, late.turn)
    settings = parse_settings("iterations=40,exact=8,samples=3")
    children, iterations = run_problem(pure_problem(late_view, settings), settings)
    assert iterations == 3 and all(node.visits == 3 for node in children.values())
    # with every card placed, solve=1 plays the exact solve
    known = GameState.from_position(
        "cypriot_bastra", floor=["5S", "3H"], hands=[["8C", "2D", "KS"], ["5H", "QD", "9C"]]
    )
    known_view = view_of(known, 0)
    settings = parse_settings("iterations=10,solve=1")
    solved, _ = run_problem(pure_problem(known_view, settings), settings)
    expected = solve_moves(Sim.from_state(known), margins=False, mu=settings.mu)
    assert {m: n.total for m, n in solved.items()} == dict(expected)


def test_without_the_kernel_expert_is_not_hard() -> None:
    state = random_game("lebanese", 2, seed=3, stop_after=5)
    view = view_of(state, state.turn)
    bot = make_bot("ismcts:iterations=30,forced=2,kernel=0", seed=1)
    assert isinstance(bot, IsmctsBot)
    bot.choose(view)
    assert bot.last_iterations == 2  # two forced searches a move, not one search


def test_flat_evaluations_agree_on_both_engines() -> None:
    state = random_game("egyptian", 2, seed=21, stop_after=11)
    view = view_of(state, state.turn)
    settings = parse_settings("flat=400")
    fast, _ = run_problem(view_problem(view, settings.read, settings.pool, 3), settings)
    pure, _ = run_problem(pure_problem(view, settings), settings)
    assert set(fast) == set(pure)
    for move, node in fast.items():
        assert abs(node.total / node.visits - pure[move].total / pure[move].visits) < 4.0
