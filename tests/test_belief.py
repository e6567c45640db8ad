"""The belief model (issue 25): what it reads, how it runs, how the samplers draw from it.

None of this needs PyTorch: the data pipeline, the numpy and plain-Python
inference, the samplers and the shipped weights are tested without it; only
the last test (a tiny training run) needs PyTorch, where it is installed.
"""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from itertools import combinations
from pathlib import Path

import numpy
import pytest

from basra.belief.data import TABLES, Examples, generate
from basra.belief.features import CARDS, FEATURES, LOCATIONS, encode, locations
from basra.belief.model import FORMAT, BeliefModel
from basra.belief.report import log_loss
from basra.bots.ismcts import view_problem
from basra.bots.sim import Sampler
from basra.cards import cards_of, parse_card
from basra.notation import parse_move
from basra.state import GameState
from basra.view import view_of

from .conftest import TABLES as SEATINGS
from .conftest import random_game
from .test_bots import swapped_twin
from .test_sim import deal_of


def random_weights(path: Path, hidden: int = 16, seed: int = 0) -> Path:
    """A weights file of the right shapes with random numbers (no training needed)."""
    rng = numpy.random.default_rng(seed)
    shapes = {
        "w1": (FEATURES, hidden),
        "b1": (hidden,),
        "w2": (hidden, hidden),
        "b2": (hidden,),
        "w3": (hidden, CARDS * LOCATIONS),
        "b3": (CARDS * LOCATIONS,),
    }
    arrays = {k: rng.normal(0, 0.3, s).astype(numpy.float32) for k, s in shapes.items()}
    numpy.savez_compressed(path, format=numpy.array(FORMAT), **arrays)
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


def test_numpy_and_plain_python_give_the_same_probabilities(tmp_path: Path) -> None:
    model = BeliefModel(random_weights(tmp_path / "w.npz"))
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


# ------------------------------------------------------------------ training


def test_the_trainer_exports_weights_the_model_reads(tmp_path: Path) -> None:
    if importlib.util.find_spec("torch") is None:
        pytest.skip("training needs PyTorch (pip install torch==2.13.0); play never does")
    from basra.train.belief import TrainSettings, export, train

    mix = (("greedy", 1.0),)
    data = generate(TABLES[0], 3, 1, mix=mix)
    valid = generate(TABLES[0], 1, 2, mix=mix)
    weights, history = train(data, valid, TrainSettings(hidden=16, epochs=3), log=lambda _: None)
    assert len(history) == 3 and history[-1]["train_loss"] < history[0]["train_loss"]
    export(weights, tmp_path / "w.npz")
    model = BeliefModel(tmp_path / "w.npz")
    assert model.shapes["w1"] == (FEATURES, 16)


def test_training_without_pytorch_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from basra.cli import main

    monkeypatch.setitem(sys.modules, "torch", None)  # as if it were not installed
    assert main(["train", "belief", "--out", str(tmp_path)]) == 2
    assert "pip install torch==2.13.0" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing was made before the check
