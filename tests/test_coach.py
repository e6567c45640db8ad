"""The coach: reviews grade decisions truthfully, hints say what their move really does.

Literal positions (RULES.md card text), and records of bots whose strength is
known: ``tests/data/coach/*.jsonl`` were written by
``basra selfplay --rules '{"target": 1}' --bots random,expert --games 10 --seed 11``
(and ``--bots greedy,expert ... --seed 12``): one round a game.
"""

from __future__ import annotations

import json

import pytest

from basra.cards import cards_of
from basra.coach import hint
from basra.coach.hints import banked_margin, reason_text
from basra.coach.review import (
    LABELS,
    MARGIN_WORDS,
    accuracy_of,
    curves,
    grade_move,
    label_of,
    review_record,
    review_text,
)
from basra.kernel import search_module
from basra.moves import Move
from basra.notation import parse_move
from basra.record import Record, RecordError, read_records
from basra.state import GameState
from basra.view import view_of

from .conftest import DATA

pytestmark = pytest.mark.engine

COACH = DATA / "coach"
COMPILED = search_module() is not None


def move(state: GameState, text: str) -> Move:
    return parse_move(state, text)


# ------------------------------------------------------------------ labels


def test_giving_away_an_obvious_basra_is_a_blunder_and_the_safe_move_best() -> None:
    # Everything is known (two players, no stock): 6♥ leaves 4♠ 6♥, which a 10 clears.
    state = GameState.from_position(
        "egyptian", floor=["4S"], hands=[["6H", "KC"], ["10H", "2D"]], turn=0
    )
    bad = grade_move(state, move(state, "6H"), samples=200)
    safe = grade_move(state, move(state, "KC"), samples=200)
    assert bad.label in ("mistake", "blunder") and bad.loss >= 10
    assert safe.label == "best" and safe.loss == 0
    assert bad.best == safe.spot.played


def test_the_same_holds_when_the_other_hand_is_hidden() -> None:
    # Four tens among the eight cards seat 0 cannot see: the other hand surely holds one.
    state = GameState.from_position(
        "egyptian",
        floor=["4S"],
        hands=[["6H", "KC", "QD", "QS"], ["10H", "10S", "10C", "10D"]],
        stock=["2C", "3D", "5H", "7C"],
        turn=0,
    )
    bad = grade_move(state, move(state, "6H"), samples=400)
    safe = grade_move(state, move(state, "KC"), samples=400)
    assert not bad.exact and bad.loss_stderr > 0
    assert bad.label in ("mistake", "blunder")
    assert safe.label == "best"


def test_labels_take_the_noise_off_before_grading() -> None:
    assert label_of(0.0, 0.0) == "best"
    assert label_of(1.5, 0.8) == "best"  # within two standard errors of the best
    assert label_of(0.5, 0.1) == "good"
    assert label_of(2.0, 0.2) == "inaccuracy"
    assert label_of(4.0, 0.6) == "inaccuracy"  # surely 2.8 at least: not surely a mistake
    assert label_of(4.0, 0.1) == "mistake"
    assert label_of(7.0, 1.0) == "mistake"
    assert label_of(10.0, 1.0) == "blunder"
    assert accuracy_of([]) is None and accuracy_of([0.0]) == 100.0


# ------------------------------------------------------------------ reviews


@pytest.mark.slow
def test_random_loses_several_times_what_expert_loses_and_greedy_lies_between() -> None:
    games, samples = (8, 400) if COMPILED else (3, 100)
    losses: dict[str, list[float]] = {"random": [], "expert": [], "greedy": []}
    for path in ("random-expert.jsonl", "greedy-expert.jsonl"):
        for index, record in enumerate(read_records(COACH / path)):
            if index == games:
                break
            assert isinstance(record, Record)
            seats = (0, 1) if path.startswith("random") else (0,)
            for seat in seats:
                review = review_record(record, seat=seat, samples=samples, seed=index)
                assert record.names is not None
                losses[record.names[seat]] += [d.loss for d in review.decisions if d.graded]
    mean = {name: sum(values) / len(values) for name, values in losses.items()}
    assert mean["random"] > 3 * mean["expert"], mean
    assert mean["expert"] < mean["greedy"] < mean["random"], mean


def a_record() -> Record:
    record = next(iter(read_records(COACH / "greedy-expert.jsonl")))
    assert isinstance(record, Record)
    return record


def test_the_same_record_and_seed_give_the_same_review() -> None:
    record = a_record()
    first = review_record(record, samples=25, seed=3).to_json()
    again = review_record(record, samples=25, seed=3).to_json()
    assert first == again
    assert json.dumps(first) == json.dumps(again)


def test_the_json_has_the_documented_shape() -> None:
    record = a_record()
    out = review_record(record, samples=40).to_json()
    assert out["format"] == "basra-review/1" and out["game"] == 1
    assert [s["seat"] for s in out["seats"]] == [0, 1]
    for seat in out["seats"]:
        assert {"seat", "decisions", "mean_loss", "accuracy", "labels"} <= set(seat)
        assert set(seat["labels"]) == set(LABELS)
        assert sum(seat["labels"].values()) == seat["decisions"]
        assert 0 <= seat["accuracy"] <= 100
    plays = record.rounds[0].plays
    decisions = out["decisions"]
    assert len(decisions) == len(plays)  # every play, forced ones included (not graded)
    assert [d["move"] for d in decisions] == [parse_move_text(record, i) for i in range(len(plays))]
    assert [(d["round"], d["play"]) for d in decisions[:3]] == [(1, 1), (1, 2), (1, 3)]
    for d in decisions:
        assert {"round", "play", "seat", "move", "best", "loss", "label", "options"} <= set(d)
        assert all(set(o) == {"move", "points", "stderr"} for o in d["options"])
        if d["label"] == "forced":
            assert len(d["options"]) == 1 and d["options"][0]["points"] is None
        else:
            assert d["label"] in LABELS
            assert d["options"][0]["move"] == d["best"]
            assert d["move"] in [o["move"] for o in d["options"]]
            assert d["loss"] == pytest.approx(d["best_points"] - d["points"], abs=0.02)
    assert out["rounds"][0]["round"] == 1 and len(out["rounds"][0]["points"]) == 2


def parse_move_text(record: Record, index: int) -> str:
    """The canonical text of a record's play (the record may write moves leniently)."""
    state = record.new_state()
    state.deal(record.rounds[0].pack)
    for text in record.rounds[0].plays[:index]:
        state.push(parse_move(state, text))
    return parse_move(state, record.rounds[0].plays[index]).text()


def test_basras_given_away_and_missed_are_counted_from_the_plays() -> None:
    record = a_record()
    review = review_record(record, samples=20)
    plays = record.replay().rounds[0].plays
    for decision in review.decisions:
        spot = decision.spot
        following = plays[spot.play + 1] if spot.play + 1 < len(plays) else None
        given = following is not None and following.basra > 0 and following.seat != spot.seat
        assert spot.basra_given == given
        assert spot.basra == plays[spot.play].basra
    for summary in review.seats:
        mine = [d for d in review.decisions if d.spot.seat == summary.seat]
        assert summary.basras_given == sum(d.spot.basra_given for d in mine)
        assert summary.decisions + summary.forced == len(mine)


def test_a_review_of_one_seat_and_round_of_a_team_game() -> None:
    state = GameState("lebanese", 4, teams=True, rules={"target": 1})
    import random

    state.deal(rng=random.Random(9))
    while not state.is_over:
        state.push(state.legal_moves()[-1])
    from basra.record import record_of

    review = review_record(record_of(state), seat=2, samples=20)
    assert {d.spot.seat for d in review.decisions} == {2}
    assert [s.seat for s in review.seats] == [2]
    drawn = curves(review)
    assert set(drawn.lines) == {0}  # two sides: one line, the other's is its opposite
    assert drawn.lines[0][0][-1][1] == pytest.approx(review.rounds[0].margins[0])  # type: ignore[index]


def test_a_bad_record_or_seat_is_refused() -> None:
    record = a_record()
    with pytest.raises(RecordError, match="2 seats"):
        review_record(record, seat=5)
    broken = Record.from_json({**record.to_json(), "rounds": [{"pack": [], "plays": []}]})
    with pytest.raises(RecordError):
        review_record(broken)


# ------------------------------------------------------------------ hints


def test_a_hint_names_the_basra_its_move_makes() -> None:
    state = GameState.from_position(
        "egyptian", floor=["4H", "3C"], hands=[["7S", "9D"], ["KH", "QD"]], turn=0
    )
    advice = hint(view_of(state, 0), samples=200)
    assert advice.move == move(state, "7Sx4H,3C")
    assert advice.facts.basra == 10 and advice.facts.floor_after == 0
    assert advice.reason.startswith("7♠ takes 3♣ 4♥ for a basra (+10) and leaves the floor empty")
    assert "against 9♦'s" in advice.reason


def test_a_hint_says_what_its_move_leaves_and_what_the_other_would() -> None:
    # 7♠ could take 4♥ 3♣, but would leave 5♦ alone for the other's 5♠ (a basra);
    # the king keeps the floor crowded.
    state = GameState.from_position(
        "egyptian", floor=["5D", "4H", "3C"], hands=[["7S", "KC"], ["5S", "QD"]], turn=0
    )
    advice = hint(view_of(state, 0), samples=200)
    assert advice.move == move(state, "KC")
    assert advice.reason.startswith("K♣ goes on the floor and leaves ")
    assert "against 7♠'s" in advice.reason
    other = advice.alternative
    assert other is not None and other.move == move(state, "7Sx4H,3C")
    assert other.reply is not None and other.reply.basra == 10
    assert other.reply.rank == 4  # a 5 (the seat cannot know which)
    assert ", but a 5 would clear the floor for a basra (+10)" in reason_text(other, None)
    facts = advice.facts_json()
    assert facts["card"] == "KC" and facts["take"] == []
    assert facts["alternative"]["take"] == ["3C", "4H"]
    assert facts["alternative"]["reply"] == {"rank": "5", "take": ["5D"], "points": 10, "basra": 10}


def test_a_hint_sees_only_its_seat() -> None:
    # The other hand really holds a 10; the hint may only say what a card it cannot
    # see could do, and names the card from what is unseen.
    state = GameState.from_position(
        "egyptian",
        floor=["4S"],
        hands=[["6H", "KC", "QD", "QS"], ["10H", "2S", "3S", "5S"]],
        stock=["10C", "8D", "9D", "AS"],
        turn=0,
    )
    view = view_of(state, 0)
    advice = hint(view, samples=300)
    assert advice.move.card != move(state, "6H").card
    other = advice.alternative
    assert other is not None
    unseen_ranks = {card >> 2 for card in cards_of(view.unseen())}
    for facts in (advice.facts, other):
        if facts.reply is not None:
            assert facts.reply.rank in unseen_ranks
    changed = GameState.from_position(
        "egyptian",
        floor=["4S"],
        hands=[["6H", "KC", "QD", "QS"], ["10C", "2S", "3S", "5S"]],
        stock=["10H", "8D", "9D", "AS"],
        turn=0,
    )
    assert hint(view_of(changed, 0), samples=300).reason == advice.reason


def test_a_hint_with_one_move_says_so() -> None:
    state = GameState.from_position("egyptian", floor=["4S"], hands=[["KC"], ["10H"]], turn=0)
    advice = hint(view_of(state, 0), samples=50)
    assert advice.alternative is None
    assert advice.reason.endswith(": the only move (exact: every card is known)") or (
        not COMPILED and advice.reason.endswith(": the only move")
    )
    with pytest.raises(ValueError, match="seat to move"):
        hint(view_of(state, 1))


def test_a_hint_and_a_review_say_which_scale_their_points_are_on() -> None:
    """The hint counts from now, the review the whole round (banked points included): the
    same move's numbers differ by what is banked, and each says which it is in words."""
    state = GameState.from_position(
        "egyptian",
        floor=["5D", "4H", "3C"],
        hands=[["7S", "KC"], ["5S", "QD"]],
        captured=[["10D", "AS", "AH"], ["2C"]],  # points banked by both sides
        turn=0,
    )
    view = view_of(state, 0)
    advice = hint(view, samples=200)
    banked = banked_margin(view)
    assert banked == 3  # 10♦ 3, two aces 2; 2♣ 2
    assert advice.facts.value == pytest.approx(advice.analysis.best.points - banked)
    assert f"{advice.facts.value:+.1f} points from now" in advice.reason
    assert "expected round margin" in MARGIN_WORDS and "a hint counts from now" in MARGIN_WORDS
    record = next(iter(read_records(COACH / "greedy-expert.jsonl")))
    assert MARGIN_WORDS in review_text(review_record(record, samples=20))


def test_the_plot_says_whose_each_mistake_is() -> None:
    """With two sides one line is drawn: the other side's mistakes sit on it as the
    opposite of their margin, and the key says they are theirs, not the line's."""
    pytest.importorskip("matplotlib")
    from basra.cli.review import plot_figure

    record = next(iter(read_records(COACH / "random-expert.jsonl")))
    assert not isinstance(record, RecordError)
    record = Record.from_json({**record.to_json(), "names": ["You", "Karim"]})
    review = review_record(record, samples=20)
    drawn = curves(review)
    assert set(drawn.lines) == {0}
    assert 1 in {side for *_, side in drawn.marks}  # the expert's opponent errs
    figure = plot_figure([review])
    keys = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    names = ("You", "Karim")
    wanted = {f"{label} by {names[side]}" for _, _, label, side in drawn.marks}
    assert {key for key in keys if " by " in key} == wanted
    assert keys[0] == "You"  # the line
