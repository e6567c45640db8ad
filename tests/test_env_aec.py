"""The PettingZoo AEC environment: PettingZoo's own tests, exact masks, rewards, seeds."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from basra.env import aec_env  # noqa: E402
from basra.env.actions import ActionError  # noqa: E402
from basra.env.aec import BasraAECEnv  # noqa: E402
from basra.rules import VARIANT_NAMES  # noqa: E402
from basra.state import SetupError  # noqa: E402
from basra.view import determinize, view_of  # noqa: E402

from .conftest import TABLES  # noqa: E402

pytestmark = pytest.mark.engine

# api_test warns that a dict observation is not a NumPy array and not a Box: the
# classic card games' convention, expected for every environment that follows it.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


@pytest.mark.parametrize(("players", "teams"), TABLES)
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_pettingzoo_api_and_seed_tests(variant: str, players: int, teams: bool) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(variant, players, teams), num_cycles=1000)
    unexpected = {
        str(w.message)
        for w in caught
        if not any(str(w.message).startswith(text) for text in EXPECTED_WARNINGS)
    }
    assert not unexpected
    seed_test(lambda: aec_env(variant, players, teams), num_cycles=100)


def _play_out(env: BasraAECEnv, seed: int, check: bool = True) -> dict[str, float]:
    """Play a raw environment with random legal actions; returns each agent's total reward."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        actions = np.flatnonzero(mask).tolist()
        if check:
            game = env.game
            assert actions == env.legal_actions()
            assert len(actions) == len(game.legal_moves())
            assert {env.move_of(a) for a in actions} == set(game.legal_moves())
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(actions))
    return totals


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_masks_are_exactly_the_legal_moves(players: int, teams: bool) -> None:
    for variant in ("egyptian", "lebanese", "palestinian", "ethiopian"):
        _play_out(BasraAECEnv(variant, players, teams), seed=players)


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_win_rewards_are_zero_sum_and_shared_by_partners(players: int, teams: bool) -> None:
    env = BasraAECEnv("egyptian", players, teams)
    totals = _play_out(env, seed=5, check=False)
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) == 1.0
    outcome = env.game.outcome()
    assert outcome is not None
    assert totals[f"player_{env.game.sides[outcome.winner][0]}"] == 1.0
    if teams:
        assert totals["player_0"] == totals["player_2"]
        assert totals["player_1"] == totals["player_3"]


def test_points_rewards_follow_the_round_scores() -> None:
    env = BasraAECEnv("cypriot_bastra", 3, episode="round", reward="points")
    totals = _play_out(env, seed=2, check=False)
    result = env.game.rounds[-1].result
    assert result is not None and len(env.game.rounds) == 1
    mean = sum(result.points) / 3
    assert [totals[f"player_{s}"] for s in range(3)] == pytest.approx(
        [p - mean for p in result.points]
    )


def test_round_limit_truncates() -> None:
    env = BasraAECEnv("cypriot_bastra", 4, max_rounds=1)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        observation, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert len(env.game.rounds) == 1


def test_same_seed_same_game_and_reset_without_seed_continues() -> None:
    a, b = BasraAECEnv("syrian", 3), BasraAECEnv("syrian", 3)
    assert _play_out(a, seed=11, check=False) == _play_out(b, seed=11, check=False)
    assert [r.pack for r in a.game.rounds] == [r.pack for r in b.game.rounds]
    a.reset()
    b.reset()
    assert a.game.rounds[0].pack == b.game.rounds[0].pack
    a.reset(seed=12)
    assert a.game.rounds[0].pack != b.game.rounds[0].pack


def test_observations_come_from_the_view_only() -> None:
    env = BasraAECEnv("lebanese", 4, teams=True)
    env.reset(seed=3)
    for _ in range(9):
        env.step(env.legal_actions()[0])
    before = {agent: env.observe(agent) for agent in env.agents}
    real = env.game
    for seat, agent in enumerate(env.possible_agents):
        env.game = determinize(view_of(real, seat), random.Random(seat))
        after = env.observe(agent)
        np.testing.assert_array_equal(before[agent]["observation"], after["observation"])
        np.testing.assert_array_equal(before[agent]["action_mask"], after["action_mask"])
    env.game = real
    assert all(info == {} for info in env.infos.values())


def test_illegal_actions() -> None:
    raw = BasraAECEnv()
    raw.reset(seed=1)
    illegal = next(a for a in range(780) if a not in raw.legal_actions())
    with pytest.raises(ActionError, match="not legal for player_"):
        raw.step(illegal)
    env = aec_env()
    env.reset(seed=1)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert env.rewards[agent] == -1
    assert all(env.terminations.values())


def test_render_shows_the_table() -> None:
    env = aec_env("egyptian", 2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "floor  [" in text and "player_1" in text and "score" in text
    with pytest.raises(SetupError, match="render_mode"):
        BasraAECEnv(render_mode="rgb_array")


def test_bad_options_fail_when_made() -> None:
    with pytest.raises(SetupError, match="teams need 4 players"):
        aec_env("egyptian", 2, teams=True)
    with pytest.raises(SetupError, match="episode must be one of"):
        aec_env(episode="hand")
    with pytest.raises(SetupError, match="capture_policy"):
        aec_env(rules={"capture_policy": "most"})


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_dense_rewards_add_up_to_the_points_reward(players: int, teams: bool) -> None:
    for variant in ("egyptian", "lebanese", "syrian"):
        dense = BasraAECEnv(variant, players, teams, episode="round", reward="dense")
        points = BasraAECEnv(variant, players, teams, episode="round", reward="points")
        totals = _play_out(dense, seed=3, check=False)
        assert totals == pytest.approx(_play_out(points, seed=3, check=False))
        assert dense.game.rounds[-1].plays == points.game.rounds[-1].plays
