"""The belief model (issue 25): what it reads, how it runs, how the samplers draw from it.

None of this needs PyTorch (it is never installed for the tests): the data
pipeline, the numpy and plain-Python inference of both networks against a
hand-computed case, the weights written and read back, the samplers, the
shipped weights and the trainer's clear error without PyTorch.
"""

from __future__ import annotations

import math
import random
import sys
from itertools import combinations
from pathlib import Path

import numpy
import pytest

import basra._search as compiled
from basra.belief.features import (
    CARD_INPUTS,
    CARDS,
    EVIDENCE,
    FEATURES,
    LOCATIONS,
    encode,
    expand,
    expand_batch,
    locations,
)
from basra.belief.model import DEFAULT_WEIGHTS, FORMAT, KINDS, BeliefModel, read_npz
from basra.bots.ismcts import belief_weights, view_problem
from basra.bots.sim import Sampler
from basra.cards import cards_of, parse_card
from basra.notation import parse_move
from basra.state import GameState
from basra.train.belief_data import TABLES, Examples, generate
from basra.train.belief_report import compare, log_loss
from basra.view import view_of

from .conftest import TABLES as SEATINGS
from .conftest import random_game
from .test_bots import swapped_twin
from .test_sim import deal_of

pytestmark = pytest.mark.engine


def shapes_of(kind: str, hidden: int) -> dict[str, tuple[int, ...]]:
    """The arrays of a ``kind`` network with ``hidden`` units a layer."""
    inputs, outputs = KINDS[kind]
    return {
        "w1": (inputs, hidden),
        "b1": (hidden,),
        "w2": (hidden, hidden),
        "b2": (hidden,),
        "w3": (hidden, outputs),
        "b3": (outputs,),
    }


def random_weights(path: Path, hidden: int = 16, seed: int = 0, kind: str = "flat") -> Path:
    """A weights file of the right shapes with random numbers (no training needed)."""
    rng = numpy.random.default_rng(seed)
    shapes = shapes_of(kind, hidden)
    arrays = {k: rng.normal(0, 0.3, s).astype(numpy.float32) for k, s in shapes.items()}
    numpy.savez_compressed(path, format=numpy.array(FORMAT), kind=numpy.array(kind), **arrays)
    return path


# ------------------------------------------------------------------ features


@pytest.mark.parametrize(("players", "teams"), SEATINGS)
def test_the_features_hold_only_what_the_seat_may_know(players: int, teams: bool) -> None:
    rng = random.Random(f"belief/{players}/{teams}")
    changed = 0
    for case in range(8):
        state = random_game("egyptian", players, teams, seed=case, stop_after=rng.randrange(1, 30))
        if state.phase != "play":
            continue
        seat = state.turn
        twin = swapped_twin(state, seat, rng)
        changed += twin.fingerprint() != state.fingerprint()
        first, second = encode(view_of(state, seat)), encode(view_of(twin, seat))
        assert first.features == second.features and first.unseen == second.unseen
        assert len(first.features) == FEATURES
        truth = locations(first, state.hands)
        assert sorted(c for c in range(CARDS) if truth[c] >= 0) == cards_of(first.unseen)
        for location in range(1, players):
            held = [c for c in range(CARDS) if truth[c] == location]
            assert len(held) == first.counts[location]
    assert changed >= 3


def test_the_features_read_a_declined_basra() -> None:
    # Seat 1 trails KD on 2H 3H 4H 5S, where a 7 (2+5, 3+4) would have cleared the floor.
    state = deal_of("KD KH QC QH  6S 7S 8S AH  2H 3H 4H 5S")
    state.play(parse_move(state, "KD"))
    encoded = encode(view_of(state, 0))
    base = 36 + CARDS * 4  # the globals and the cards' status come first
    seven = parse_card("7C")
    evidence = encoded.features[base + seven * 4 : base + seven * 4 + 4]
    assert evidence[0] > 1 and evidence[2] > 0 and evidence[3] > 0  # gain, capture, basra
    queen = parse_card("QS")  # a queen would have taken nothing either
    assert encoded.features[base + queen * 4 + 3] == 0


# ------------------------------------------------------------------ inference


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_numpy_and_plain_python_give_the_same_probabilities(tmp_path: Path, kind: str) -> None:
    model = BeliefModel(random_weights(tmp_path / "w.npz", kind=kind))
    assert model.kind == kind
    plain = BeliefModel(tmp_path / "w.npz")
    plain._numpy = None
    state = random_game("lebanese", 3, seed=4, stop_after=9)
    encoded = encode(view_of(state, state.turn))
    fast, slow = model.probabilities(encoded), plain.probabilities(encoded)
    assert numpy.allclose(fast, slow, atol=1e-5)
    for card in range(CARDS):
        if encoded.unseen >> card & 1:
            assert sum(fast[card]) == pytest.approx(1.0)
            for location in range(LOCATIONS):
                assert (fast[card][location] > 0) == (encoded.counts[location] > 0)
        else:
            assert fast[card] == [0.0] * LOCATIONS
    batch = model.batch_probabilities(
        numpy.asarray([encoded.features]),
        numpy.asarray([encoded.counts]),
        numpy.asarray([[bool(encoded.unseen >> c & 1) for c in range(CARDS)]]),
    )
    assert numpy.allclose(batch[0], fast, atol=1e-6)


def test_a_weights_file_is_checked(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.npz"
    numpy.savez(wrong, format=numpy.array("something-else/1"), w1=numpy.zeros((2, 2)))
    with pytest.raises(ValueError, match="not a basra-belief/1 weights file"):
        BeliefModel(wrong)
    short = tmp_path / "short.npz"
    arrays = {k: numpy.zeros(s, numpy.float32) for k, s in (("w1", (3, 4)), ("b1", (4,)))}
    arrays |= {k: numpy.zeros((4, 4), numpy.float32) for k in ("w2", "w3")}
    arrays |= {k: numpy.zeros(4, numpy.float32) for k in ("b2", "b3")}
    numpy.savez(short, format=numpy.array(FORMAT), **arrays)
    with pytest.raises(ValueError, match="trained for 3 inputs"):
        BeliefModel(short)
    unknown = tmp_path / "unknown.npz"
    numpy.savez(unknown, format=numpy.array(FORMAT), kind=numpy.array("deep"), **arrays)
    with pytest.raises(ValueError, match="the network is 'deep'"):
        BeliefModel(unknown)


def test_the_factored_inputs_are_the_same_in_plain_python_and_numpy() -> None:
    state = random_game("egyptian", 4, seed=8, stop_after=11)
    features = encode(view_of(state, state.turn)).features
    plain = expand(features)
    assert len(plain) == CARDS and {len(rows) for rows in plain} == {LOCATIONS - 1}
    assert {len(row) for rows in plain for row in rows} == {CARD_INPUTS}
    batch = expand_batch(numpy.asarray([features, features]))
    assert batch.shape == (2, CARDS, LOCATIONS - 1, CARD_INPUTS)
    assert numpy.allclose(batch[0], plain) and numpy.allclose(batch[1], plain)


JACK_INPUT = EVIDENCE + 13 + 4 + 1
"""Where a factored input row says "this card is a jack" (after the evidence, the
rank and suit one-hots and the points)."""


@pytest.mark.parametrize("plain", [False, True], ids=["numpy", "plain"])
def test_a_factored_network_that_puts_jacks_in_hands_gives_the_hand_computed_chances(
    tmp_path: Path, plain: bool
) -> None:
    # One live path: jack -> unit 0 -> unit 0 -> score 2 for a jack in any hand (the stock
    # scores 0), so a jack's chance of being in a hand holding c of the unseen cards is
    # c e^2 / (stock + sum of c e^2), and every other card is dealt at random.
    arrays = {k: numpy.zeros(s, numpy.float32) for k, s in shapes_of("factored", 4).items()}
    arrays["w1"][JACK_INPUT, 0] = 1.0
    arrays["w2"][0, 0] = 1.0
    arrays["w3"][0, 0] = 2.0
    path = tmp_path / "jacks.npz"
    numpy.savez(path, format=numpy.array(FORMAT), kind=numpy.array("factored"), **arrays)
    model = BeliefModel(path)
    if plain:
        model._numpy = None
    state = random_game("egyptian", 3, seed=5, stop_after=4)
    encoded = encode(view_of(state, state.turn))
    rows = expand(encoded.features)
    assert all(rows[c][0][JACK_INPUT] == float(c >> 2 == 10) for c in range(CARDS))
    counts = encoded.counts
    assert counts[0] > 0 and counts[3] == 0  # the stock (location 0); 3 players: no 4th hand
    probabilities = model.probabilities(encoded)
    unseen_jacks = [c for c in cards_of(encoded.unseen) if c >> 2 == 10]
    assert unseen_jacks and len(unseen_jacks) < bin(encoded.unseen).count("1")
    for card in cards_of(encoded.unseen):
        lift = math.e**2 if card >> 2 == 10 else 1.0
        norm = counts[0] + (counts[1] + counts[2]) * lift
        expected = [counts[0] / norm, counts[1] * lift / norm, counts[2] * lift / norm, 0.0]
        assert probabilities[card] == pytest.approx(expected, abs=1e-6)
    for card in cards_of(~encoded.unseen & (1 << CARDS) - 1):
        assert probabilities[card] == [0.0] * LOCATIONS


def test_exported_weights_read_back_the_same(tmp_path: Path) -> None:
    from basra.train.belief import export  # numpy only: no PyTorch needed to write

    rng = numpy.random.default_rng(4)
    for kind in sorted(KINDS):
        weights: dict[str, object] = {
            k: rng.normal(0, 0.5, s) for k, s in shapes_of(kind, 8).items()
        }
        weights["kind"] = kind
        path = tmp_path / f"{kind}.npz"
        export(weights, path)
        arrays = read_npz(path)
        assert arrays["format"] == ((), FORMAT) and arrays["kind"] == ((), kind)
        model = BeliefModel(path)
        assert model.kind == kind and model.shapes == shapes_of(kind, 8)
        for name, (shape, values) in arrays.items():
            if name not in ("format", "kind"):
                original = numpy.asarray(weights[name], numpy.float32)
                assert shape == original.shape
                assert numpy.array_equal(numpy.asarray(values, numpy.float32), original.ravel())


def test_the_shipped_weights_have_the_networks_shapes_and_run_deterministically() -> None:
    arrays = read_npz(DEFAULT_WEIGHTS)
    assert arrays["format"][1] == FORMAT
    hidden = arrays["w1"][0][1]
    assert arrays["w1"][0] == (FEATURES, hidden) and arrays["w2"][0] == (hidden, hidden)
    assert arrays["w3"][0] == (hidden, CARDS * LOCATIONS)
    model = BeliefModel(DEFAULT_WEIGHTS)
    state = random_game("egyptian", 2, seed=2, stop_after=7)
    view = view_of(state, state.turn)
    assert model.of_view(view)[1] == BeliefModel(DEFAULT_WEIGHTS).of_view(view)[1]


def test_the_shipped_model_beats_a_random_deal_and_is_calibrated_on_held_out_rounds() -> None:
    # Rounds of greedy and the heuristic the model never saw (its data: docs/BOTS.md).
    mix = (("greedy", 0.5), ("heuristic", 0.5))
    parts = [generate(t, 4, "held-out-test", reading=True, mix=mix) for t in TABLES]
    result = compare(Examples.concatenate(parts), BeliefModel(DEFAULT_WEIGHTS))
    everything = result["all"]
    assert everything["examples"] > 800
    assert everything["model"]["log_loss"] < everything["uniform"]["log_loss"] - 0.002
    assert everything["model"]["log_loss"] < everything["reading"]["log_loss"]
    assert everything["model"]["ece"] < 0.02
    assert everything["model"]["hits"] > everything["uniform"]["hits"]


# ------------------------------------------------------------------ data


def test_the_data_pipeline_round_trips_and_is_reproducible(tmp_path: Path) -> None:
    mix = (("greedy", 1.0),)
    table = TABLES[3]  # Lebanese, 2 players
    examples = generate(table, 2, 5, mix=mix)
    again = generate(table, range(1, 2), 5, mix=mix)  # the second round alone
    assert len(examples) > 20 and examples.features.shape == (len(examples), FEATURES)
    tail = len(again)
    assert numpy.array_equal(examples.features[-tail:], again.features)
    path = tmp_path / "part.npz"
    examples.save(path)
    loaded = Examples.load(path)
    assert numpy.array_equal(loaded.targets, examples.targets) and loaded.reading is None
    assert set(numpy.unique(loaded.table)) == {3}
    unseen = loaded.targets >= 0
    assert (unseen.sum(axis=1) == loaded.counts.astype(int).sum(axis=1)).all()


def test_log_loss_of_a_sure_belief_is_zero_and_of_a_coin_log_two() -> None:
    targets = numpy.array([[1, -1] + [-1] * 50])
    sure = numpy.zeros((1, CARDS, LOCATIONS))
    sure[0, 0, 1] = 1.0
    coin = numpy.zeros((1, CARDS, LOCATIONS))
    coin[0, 0, :2] = 0.5
    assert log_loss(sure, targets) == pytest.approx(0.0)
    assert log_loss(coin, targets) == pytest.approx(math.log(2))


# ------------------------------------------------------------------ the samplers


def exact_marginals(
    cards: list[int], need: int, weights: dict[int, tuple[float, float]]
) -> dict[int, float]:
    """Each card's chance of being in the one hand that needs ``need`` of ``cards``, under
    the product model (log weights: hand, stock), by enumerating every deal."""
    totals = dict.fromkeys(cards, 0.0)
    norm = 0.0
    for hand in combinations(cards, need):
        w = math.exp(sum(weights[c][0] if c in hand else weights[c][1] for c in cards))
        norm += w
        for c in hand:
            totals[c] += w
    return {c: t / norm for c, t in totals.items()}


def test_both_samplers_draw_deals_in_proportion_to_the_belief() -> None:
    # Two players, the last deal but one: the other holds 4 of the 12 cards the mover cannot see.
    rng = random.Random(3)
    state = GameState("egyptian")
    state.deal(rng=rng)
    while state.stock_size > 8 or state.in_hands != 8:
        state.push(rng.choice(state.legal_moves()))
    view = view_of(state, state.turn)
    other = 1 - state.turn
    unseen = cards_of(view.unseen())
    weights = [[0.0] * 5 for _ in range(CARDS)]
    chosen: dict[int, tuple[float, float]] = {}
    for i, card in enumerate(unseen):
        weights[card][other] = math.log((i % 4 + 1) / 4)  # from a quarter to sure
        weights[card][4] = math.log(1.0 - 0.75 * (i % 4 + 1) / 4)
        chosen[card] = (weights[card][other], weights[card][4])
    expected = exact_marginals(unseen, 4, chosen)
    fast = view_problem(view, 0.15, 200, 7)
    fast.set_belief(weights)
    pure = Sampler(view, 0.15)
    pure.set_belief(weights)
    draws = 4000
    for name, draw in (
        ("compiled", lambda: fast.sample_hands()[0][other]),
        ("pure", lambda: pure.sample(rng).hands[other]),
    ):
        counts = dict.fromkeys(unseen, 0)
        for _ in range(draws):
            hand = draw()
            assert hand.bit_count() == 4 and not hand & ~view.unseen()
            for card in cards_of(hand):
                counts[card] += 1
        for card in unseen:
            p = expected[card]
            assert abs(counts[card] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 0.01, name


def test_the_belief_weights_come_from_the_shipped_model() -> None:
    state = random_game("egyptian", 4, seed=6, stop_after=13)
    view = view_of(state, state.turn)
    weights = belief_weights(view, 1.0)
    for card in range(CARDS):
        if view.unseen() >> card & 1:
            places = [p for p in range(5) if weights[card][p] != 0.0]
            assert places and all(weights[card][p] <= 0 for p in range(5))
            assert sum(math.exp(weights[card][p]) for p in places) == pytest.approx(1, abs=1e-6)
        else:
            assert weights[card] == [0.0] * 5
    assert isinstance(view_problem(view, 0.15, 200, 1), compiled.Search)


# ------------------------------------------------------------------ training


def test_the_trainer_refuses_an_unknown_network_and_needs_pytorch_to_train(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from basra.train.belief import TrainSettings, train

    with pytest.raises(ValueError, match="the network is one of flat, factored, not 'deep'"):
        TrainSettings(kind="deep")
    monkeypatch.setitem(sys.modules, "torch", None)  # as if it were not installed
    examples = generate(TABLES[0], 1, 1, mix=(("greedy", 1.0),))
    with pytest.raises(RuntimeError, match=r"pip install torch==2\.13\.0"):
        train(examples, examples, TrainSettings(hidden=4, epochs=1), log=lambda _: None)


def test_training_without_pytorch_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from basra.cli import main

    monkeypatch.setitem(sys.modules, "torch", None)  # as if it were not installed
    assert main(["train", "belief", "--out", str(tmp_path)]) == 2
    assert "pip install torch==2.13.0" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing was made before the check
