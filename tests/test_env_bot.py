"""PolicyBot: a policy function as a bot, seeing exactly what the environments show."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from basra.bots import BotError, make_bot, play_game  # noqa: E402
from basra.env.aec import BasraAECEnv  # noqa: E402
from basra.env.bot import PolicyBot  # noqa: E402
from basra.state import GameState  # noqa: E402
from basra.view import view_of  # noqa: E402

pytestmark = pytest.mark.engine


def test_a_policy_plays_whole_games_with_other_bots() -> None:
    def last_legal(observation: object, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[-1])

    state = GameState("lebanese", 4, teams=True)
    policy = PolicyBot(last_legal, state.rules, players=4, teams=True)
    bots = [policy, make_bot("greedy", 1), policy, make_bot("random", 2)]
    play_game(state, bots, random.Random(0))
    assert state.is_over


def test_a_policy_sees_what_the_environment_shows() -> None:
    env = BasraAECEnv("egyptian", 3)
    env.reset(seed=9)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def spy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation, mask))
        return int(np.flatnonzero(mask)[0])

    bot = PolicyBot(spy, env.table.rules, players=3, teams=False)
    for _ in range(20):
        agent = env.agent_selection
        observed = env.observe(agent)
        move = bot.choose(view_of(env.game, env.game.turn))
        observation, mask = seen[-1]
        np.testing.assert_array_equal(observation, observed["observation"])
        np.testing.assert_array_equal(mask, observed["action_mask"].astype(bool))
        assert move == env.move_of(int(np.flatnonzero(mask)[0]))
        env.step(int(np.flatnonzero(mask)[0]))


def test_an_illegal_choice_is_a_bot_error() -> None:
    state = GameState("egyptian")
    state.deal(rng=random.Random(0))
    bot = PolicyBot(lambda observation, mask: 779, state.rules, players=2, teams=False)
    with pytest.raises(BotError, match="illegal action 779"):
        bot.choose(view_of(state, state.turn))
