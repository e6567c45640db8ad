"""The OpenSpiel game: random_sim_test, chance deals, tensors from the view only."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from basra.env import register_openspiel  # noqa: E402
from basra.env.openspiel import BasraState  # noqa: E402
from basra.rules import VARIANT_NAMES  # noqa: E402
from basra.state import SetupError  # noqa: E402
from basra.view import determinize, view_of  # noqa: E402

from .conftest import TABLES  # noqa: E402

pytestmark = pytest.mark.engine

register_openspiel()


def _load(
    variant: str = "egyptian", players: int = 2, teams: bool = False, **more: object
) -> object:
    return pyspiel.load_game(
        "python_basra", {"variant": variant, "players": players, "teams": teams, **more}
    )


@pytest.mark.parametrize(("players", "teams"), TABLES)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_random_sim_test(variant: str, players: int, teams: bool) -> None:
    # Short games keep the suite quick; a whole game to the target is run below.
    game = _load(variant, players, teams, rules=json.dumps({"target": 40}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_random_sim_test_whole_games_with_serialization(players: int, teams: bool) -> None:
    pyspiel.random_sim_test(
        _load("egyptian", players, teams), num_sims=1, serialize=True, verbose=False
    )


def _to_play(state: BasraState, rng: random.Random) -> None:
    """Draw the pack: one chance node per card."""
    drawn = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _a, p in outcomes) == pytest.approx(1.0)
        assert len(outcomes) == 52 - drawn
        state.apply_action(rng.choice([a for a, _p in outcomes]))
        drawn += 1
    assert drawn == 52


def test_each_card_is_its_own_chance_node_and_the_pack_is_dealt_as_drawn() -> None:
    game = _load()
    state = game.new_initial_state()
    rng = random.Random(0)
    _to_play(state, rng)
    drawn = list(state.history())
    assert list(state.game.rounds[0].pack) == drawn
    # The first player's hand is the first batch of the pack (RECORD.md).
    first = state.game.first_player
    assert state.game.hands[first] == sum(1 << c for c in drawn[:4])
    assert state.current_player() == first


def test_legal_actions_are_the_shared_encoding() -> None:
    game = _load("lebanese", 4, True)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            _to_play(state, rng)
            continue
        legal = state.legal_actions()
        assert len(legal) == len(state.game.legal_moves())
        mask = state.legal_actions_mask()
        assert np.flatnonzero(mask).tolist() == legal
        state.apply_action(rng.choice(legal))
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    assert returns[0] == returns[2] and returns[1] == returns[3]


def test_tensors_and_strings_come_from_the_view_only() -> None:
    game = _load("egyptian", 3)
    state = game.new_initial_state()
    rng = random.Random(5)
    _to_play(state, rng)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    before = [
        (
            state.observation_tensor(p),
            state.information_state_tensor(p),
            state.observation_string(p),
            state.information_state_string(p),
        )
        for p in range(3)
    ]
    real = state.game
    for seat in range(3):
        state._engine.game = determinize(view_of(real, seat), random.Random(seat))
        after = (
            state.observation_tensor(seat),
            state.information_state_tensor(seat),
            state.observation_string(seat),
            state.information_state_string(seat),
        )
        assert after == before[seat]
    state._engine.game = real
    assert len(before[0][0]) == game.observation_tensor_size() == 949
    assert len(before[0][1]) == game.information_state_tensor_size() == 949 + 416


def test_clones_are_independent() -> None:
    state = _load().new_initial_state()
    _to_play(state, random.Random(1))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    assert state.game.hands != clone.game.hands
    assert clone.game.rules is state.game.rules


def test_round_limit_ends_the_game() -> None:
    game = _load("cypriot_bastra", 4, max_rounds=1)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            _to_play(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.game.rounds) == 1
    assert sum(state.returns()) == pytest.approx(0.0)


def test_bad_parameters_say_what_is_wrong() -> None:
    with pytest.raises(SetupError, match="unknown variant"):
        _load("nowhere")
    with pytest.raises(SetupError, match="teams need 4 players"):
        _load(players=3, teams=True)
    with pytest.raises(SetupError, match="JSON object"):
        _load(rules="[1]")


def test_44_card_packs_draw_44_cards() -> None:
    state = _load("palestinian", 3).new_initial_state()
    assert len(state.chance_outcomes()) == 44


def test_observers_without_private_or_public_information() -> None:
    game = _load()
    state = game.new_initial_state()
    _to_play(state, random.Random(6))
    state.apply_action(state.legal_actions()[0])
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    public.set_from(state, 0)
    assert not public.dict["hand"].any() and not public.dict["unseen"].any()
    assert public.dict["floor"].any()
    assert "hand [" not in public.string_from(state, 0)
    private = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False,
            public_info=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )
    )
    private.set_from(state, 0)
    assert private.dict["hand"].sum() == state.game.hands[0].bit_count()
    assert private.tensor.sum() == private.dict["hand"].sum()


def test_no_observer_shows_other_players_hidden_cards() -> None:
    game = _load()
    with pytest.raises(ValueError, match="hidden cards"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
            )
        )
