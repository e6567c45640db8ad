"""Values in points, never clipped (issue 27): the coach's exact values against an
exhaustive solve written here, the bots' reward strictly increasing, and a lopsided
round's deliberate mistake graded as one.

``tests/data/coach/lopsided.jsonl`` holds four one-round games of ``greedy``
against ``random`` whose margins pass the old scale of the search's reward (the
majority bonus, the card points and two basras: 36 points in Cypriot and
Lebanese play, 63 in Egyptian): ``basra selfplay --rules '{"target": 1}' --bots
greedy,random --seed 28 --games 400`` with ``--variant cypriot_bastra`` (games
394 and 40: four basras to none) and ``--variant lebanese`` (game 23, four
basras), and ``--variant egyptian --players 4 --teams --seed 29 --games 300``
(game 145, five basras). They run on both engines: the test command runs this
file again with ``BASRA_KERNEL=0``.
"""

from __future__ import annotations

import pytest

from basra.bots.ismcts import REWARD_CLIPPED, REWARD_LINEAR, Reward
from basra.coach.analysis import Analysis, analyse, analyse_hindsight
from basra.coach.review import review_record
from basra.moves import Move
from basra.record import Record, read_records, record_of
from basra.rules import preset
from basra.state import GameState
from basra.view import view_of

from .conftest import DATA

pytestmark = pytest.mark.engine

LOPSIDED = DATA / "coach" / "lopsided.jsonl"


def old_scale(variant: str) -> int:
    rules = preset(variant)
    return rules.majority_bonus + sum(rules.card_points[: rules.pack]) + 2 * rules.basra_points


def games() -> list[Record]:
    records = [r for r in read_records(LOPSIDED) if isinstance(r, Record)]
    variants = ["cypriot_bastra", "lebanese", "egyptian", "cypriot_bastra"]
    assert [r.variant for r in records] == variants
    return records


def at_play(record: Record, plays: int) -> GameState:
    """The record's first round after ``plays`` plays."""
    state = record.new_state()
    state.deal(record.rounds[0].pack)
    for play in record.replay().rounds[0].plays[:plays]:
        state.push(play.move)
    return state


# ------------------------------------------------- an exhaustive solve, written here


def margin_of_side_0(state: GameState) -> float:
    """Side 0's round points less side 1's under perfect play by two sides (each for its own
    margin), by plain minimax over every legal move with the engine's push and pop."""
    memo: dict[tuple[object, ...], float] = {}

    def value() -> float:
        if state.phase != "play":
            points = state.rounds[-1].result.points  # type: ignore[union-attr]
            return float(points[0] - points[1])
        key = (
            tuple(state.hands),
            state.floor,
            tuple(state.piles),
            tuple(state.basra_points),
            state.lone_last,
            state.turn,
        )
        if key not in memo:
            outcomes = []
            for move in state.legal_moves():
                state.push(move)
                outcomes.append(value())
                state.pop()
            memo[key] = max(outcomes) if state.side_of[state.turn] == 0 else min(outcomes)
        return memo[key]

    return value()


def exhaustive(state: GameState) -> dict[Move, float]:
    """Each legal move of the seat to move: its side's exact round margin."""
    sign = 1.0 if state.side_of[state.turn] == 0 else -1.0
    out = {}
    for move in state.legal_moves():
        state.push(move)
        out[move] = sign * margin_of_side_0(state)
        state.pop()
    return out


def assert_exact(analysis: Analysis, solved: dict[Move, float]) -> None:
    assert analysis.exact
    assert {e.move: e.points for e in analysis.moves} == solved
    best = max(solved.values())
    assert {e.move: e.loss for e in analysis.moves} == {m: best - v for m, v in solved.items()}


@pytest.mark.parametrize("index", [0, 1], ids=["cypriot", "lebanese"])
def test_exact_values_past_the_old_scale_equal_an_exhaustive_solve(index: int) -> None:
    record = games()[index]
    state = at_play(record, 0)
    checked = beyond = 0
    plays = record.replay().rounds[0].plays
    for play in plays:
        if state.stock_size == 0 and len(state.legal_moves()) > 1:  # the last deal: all known
            solved = exhaustive(state)
            assert_exact(analyse(view_of(state, state.turn), samples=40), solved)
            checked += 1
            beyond += max(abs(v) for v in solved.values()) > old_scale(record.variant)
        state.push(play.move)
    assert checked >= 4 and beyond >= 4


def test_exact_values_of_a_lopsided_four_player_teams_round() -> None:
    record = games()[2]
    scale = old_scale("egyptian")
    state = at_play(record, 36)  # the last deal, 12 cards in hand: hindsight sees them all
    checked = 0
    while state.phase == "play":
        if len(state.legal_moves()) > 1:
            solved = exhaustive(state)
            assert_exact(analyse_hindsight(state, samples=40), solved)
            assert max(abs(v) for v in solved.values()) > scale
            checked += 1
        state.push(state.legal_moves()[-1])
    assert checked >= 4


def test_sampled_values_are_not_clipped_either() -> None:
    # Cypriot, two deals before the last: seat 0 already leads by four basras to none.
    record = games()[3]
    state = at_play(record, 26)
    assert state.stock_size == 16 and state.basras == [4, 0] and state.turn == 1
    analysis = analyse(view_of(state, state.turn), samples=800)
    assert not analysis.exact
    scale = old_scale("cypriot_bastra")
    assert all(e.points < -scale - 8 for e in analysis.moves)  # the clipped values were -36
    assert analysis.moves[-1].loss > 2 * analysis.moves[-1].loss_stderr > 0


# ------------------------------------------------------------------ the review


def test_a_deliberate_mistake_in_a_lopsided_round_is_graded_a_mistake() -> None:
    record = games()[0]
    state = at_play(record, 40)  # seat 0 to move, 4 basras to none, every card known
    assert state.turn == 0 and state.basras == [3, 0]
    solved = exhaustive(state)
    best = max(solved.values())
    worse = [m for m, v in solved.items() if v <= best - 6]
    assert worse and min(solved.values()) > old_scale("cypriot_bastra")  # all past the scale
    mistake = worse[0]
    state.push(mistake)
    while state.phase == "play":
        state.push(state.legal_moves()[0])
    review = review_record(record_of(state), seat=0, samples=40)
    decision = next(d for d in review.decisions if d.spot.play == 40)
    assert decision.spot.played == mistake
    assert decision.exact and decision.label in ("mistake", "blunder")
    assert decision.loss == best - solved[mistake] >= 6
    assert decision.points == solved[mistake] and decision.best_points == best


# ------------------------------------------------------------------ the bots' reward


@pytest.mark.parametrize(
    "variant", ["egyptian", "lebanese", "cypriot_bastra", "syrian", "cypriot_classic"]
)
@pytest.mark.parametrize("sides", [2, 3])
def test_the_reward_rises_with_every_point_a_round_can_reach(variant: str, sides: int) -> None:
    rules = preset(variant)
    # a round's margin is at most the majority bonus, the card points and one basra every
    # other play, each worth at most the best basra of the variant
    reach = (
        rules.majority_bonus
        + sum(rules.card_points[: rules.pack])
        + rules.pack // 2 * max(rules.basra_points, rules.jack_on_lone_jack, *rules.basra_values)
    )
    for mu in (0.0, 0.5):
        reward = Reward(rules, sides, mu, REWARD_LINEAR)
        for scores in ((0,) * sides, (90,) + (60,) * (sides - 1), (60,) + (95,) * (sides - 1)):
            previous = None
            for margin in range(-reach, reach + 1):
                points = [float(max(margin, 0))] + [float(max(-margin, 0))] * (sides - 1)
                mine = reward(points, [s + p for s, p in zip(scores, points, strict=True)])[0]
                assert previous is None or mine > previous, (margin, mu, scores)
                previous = mine


def test_the_clipped_reward_of_before_was_flat_past_the_scale() -> None:
    rules = preset("cypriot_bastra")
    clipped = Reward(rules, 2, 0.0, REWARD_CLIPPED)
    linear = Reward(rules, 2, 0.0, REWARD_LINEAR)
    assert clipped([42, 0], [42, 0]) == clipped([36, 0], [36, 0]) == [1.0, 0.0]
    assert linear([42, 0], [42, 0])[0] > linear([36, 0], [36, 0])[0]
    # within the scale the two shapes are the same function
    assert clipped([20, 5], [20, 5]) == linear([20, 5], [20, 5])
