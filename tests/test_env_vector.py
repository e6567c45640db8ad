"""The vector environment: Gymnasium's vector API, and the same games as gym_env, bit for bit.

Both engines run here, whatever ``BASRA_KERNEL`` says: the compiled one
(``basra._vector``, built by the test command) and the pure-Python fallback
(one ``BasraGymEnv`` per env). Their games are replayed through the single
Gymnasium environment, deal by deal and move by move, and every observation,
mask, reward and episode flag must be equal to the last bit.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

import basra.env.vector as vector  # noqa: E402
from basra import kernel  # noqa: E402
from basra.bots import Bot  # noqa: E402
from basra.bots.sim import policy_value  # noqa: E402
from basra.cards import cards_of  # noqa: E402
from basra.env import action_map, vector_env  # noqa: E402
from basra.env.gym import BasraGymEnv  # noqa: E402
from basra.env.observation import ObservationEncoder  # noqa: E402
from basra.env.table import Table  # noqa: E402
from basra.env.vector import BasraVectorEnv, PlayoutPolicyBot  # noqa: E402
from basra.moves import Move  # noqa: E402
from basra.rules import VARIANT_NAMES  # noqa: E402
from basra.state import PHASE_PLAY, GameState, SetupError  # noqa: E402
from basra.view import View, determinize, view_of  # noqa: E402

from .conftest import TABLES  # noqa: E402
from .test_differential import random_overrides  # noqa: E402

pytestmark = pytest.mark.engine

BACKENDS = ["kernel", "python"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each engine in turn; the compiled one even when BASRA_KERNEL=0 turns it off elsewhere."""
    if request.param == "kernel":
        import basra._vector as compiled

        monkeypatch.setattr(vector, "_compiled", lambda: compiled)
    return str(request.param)


def _bits(array: Any) -> Any:
    """A float32 array's bits, so that equality is to the last bit."""
    return np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)


# ----------------------------------------------------------------- replaying in gym_env


class ReplayBot(Bot):
    """Plays the opponents' recorded moves, in order (one bot for every opponent seat)."""

    name = "replay"

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__(0)
        self.moves = deque(moves)

    def choose(self, view: View) -> Move:
        return self.moves.popleft()


class ScriptedGame(GameState):
    """A game dealt from recorded packs."""

    def __init__(self, table: Table, first_dealer: int, packs: Sequence[Sequence[int]]) -> None:
        super().__init__(
            table.variant, table.players, teams=table.teams, first_dealer=first_dealer,
            rules=table.rules,
        )  # fmt: skip
        self.packs = deque(packs)

    def deal(self, pack: Any = None, *, rng: random.Random | None = None) -> None:
        super().deal(list(self.packs.popleft()))


@dataclass(frozen=True)
class ScriptedTable(Table):
    """A table whose games are the recorded one (first dealer and packs)."""

    first_dealer: int = 0
    packs: tuple[tuple[int, ...], ...] = ()

    def new_game(self, first_dealer: int = 0) -> GameState:
        return ScriptedGame(self, self.first_dealer, self.packs)


@dataclass
class Episode:
    """What the vector environment returned to one env over one episode."""

    seat: int
    obs: Any
    mask: Any
    actions: list[int] = field(default_factory=list)
    steps: list[tuple[Any, ...]] = field(default_factory=list)
    game: GameState | None = None


def _record(env: BasraVectorEnv, steps: int, seed: int) -> list[Episode]:
    """Step with random legal actions (now and then an arbitrary one) in NEXT_STEP mode;
    returns every episode with what each of its steps returned and its game."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    n = env.num_envs
    current = [Episode(int(infos["seat"][i]), obs[i], infos["action_mask"][i]) for i in range(n)]
    episodes: list[Episode] = []
    previous_done = np.zeros(n, dtype=bool)
    for _ in range(steps):
        actions = env.sample_actions()
        wild = rng.random(n) < 0.02
        actions[wild] = rng.integers(0, env.single_action_space.n, size=int(wild.sum()))
        obs, rewards, terminations, truncations, infos = env.step(actions)
        illegal = infos.get("illegal_action", np.zeros(n, dtype=bool))
        for i in range(n):
            if previous_done[i]:  # NEXT_STEP: this step reset env i, its action ignored
                assert rewards[i] == 0.0 and not terminations[i] and not truncations[i]
                assert not illegal[i]
                current[i] = Episode(int(infos["seat"][i]), obs[i], infos["action_mask"][i])
                continue
            episode = current[i]
            episode.actions.append(int(actions[i]))
            episode.steps.append(
                (obs[i], infos["action_mask"][i], rewards[i], terminations[i], truncations[i],
                 bool(illegal[i]))
            )  # fmt: skip
            if terminations[i] or truncations[i]:
                episode.game = env.game(i)
                episodes.append(episode)
        previous_done = terminations | truncations
    for i in range(n):  # the episodes still going: every step so far
        if not previous_done[i]:
            current[i].game = env.game(i)
            episodes.append(current[i])
    return episodes


def _replay(env: BasraVectorEnv, episode: Episode, options: dict[str, Any]) -> None:
    """Play the episode's deals and moves through gym_env: everything must be equal."""
    game = episode.game
    assert game is not None
    table = env.table
    seat = episode.seat
    opponents = [
        play.move for log in game.rounds for play in log.plays if play.seat != seat
    ]  # fmt: skip
    bot = ReplayBot(opponents)
    single = BasraGymEnv(
        table.variant, table.players, table.teams, table.rules, [bot], seat=seat, **options
    )
    single.table = ScriptedTable(
        table.variant, table.players, table.teams, table.rules,
        first_dealer=game.first_dealer,
        packs=tuple(tuple(log.pack) for log in game.rounds if log.pack is not None),
    )  # fmt: skip
    obs, info = single.reset(seed=0)
    np.testing.assert_array_equal(_bits(obs), _bits(episode.obs))
    np.testing.assert_array_equal(info["action_mask"], episode.mask)
    for action, (v_obs, v_mask, v_reward, v_term, v_trunc, v_illegal) in zip(
        episode.actions, episode.steps, strict=True
    ):
        obs, reward, terminated, truncated, info = single.step(action)
        np.testing.assert_array_equal(_bits(obs), _bits(v_obs))
        np.testing.assert_array_equal(info["action_mask"], v_mask)
        assert float(reward) == v_reward
        assert (terminated, truncated) == (v_term, v_trunc)
        assert bool(info.get("illegal_action", False)) == v_illegal
    assert not bot.moves
    assert single.game.fingerprint() == game.fingerprint()


def _configs() -> Iterator[tuple[str, int, bool, dict[str, Any], dict[str, Any]]]:
    """Every preset at every table, with the options and rule overrides varied among them."""
    rng = random.Random(11)
    opponents: list[list[str]] = [["random"], ["policy"], ["policy:eps=0.3", "random"]]
    k = 0
    for variant in VARIANT_NAMES:
        for players, teams in TABLES:
            episode = ("round", "game")[k % 2]
            options: dict[str, Any] = {
                "episode": episode,
                "reward": ("win", "points", "dense")[k % 3],
                "seat": (0, None, players - 1)[k % 3],
                "max_rounds": (100, 1)[k // 2 % 2],
                "illegal_reward": -1.0 - k % 2,
            }
            rules: dict[str, Any] = random_overrides(rng) if k % 4 == 3 else {}
            if episode == "game":  # short games, so that whole episodes end
                rules["target"] = rng.choice([11, 21])
            yield variant, players, teams, rules, {"opponents": opponents[k % 3], **options}
            k += 1


CONFIGS = list(_configs())


def test_every_preset_and_table_replays_exactly_in_gym_env(backend: str) -> None:
    """The same deals and moves through gym_env: equal observations, masks, rewards, flags.

    Covers all 15 presets at all four tables, both episodes, all three rewards,
    fixed and drawn seats, the round limit, illegal actions and rule overrides.
    """
    ended = truncated = illegal = 0
    for index, (variant, players, teams, rules, options) in enumerate(CONFIGS):
        env = vector_env(variant, 3, players, teams, rules, backend=backend, **options)
        assert env.backend == backend
        episodes = _record(env, steps=24 if backend == "kernel" else 16, seed=index)
        options = {key: value for key, value in options.items() if key not in ("opponents",)}
        options.pop("seat")
        for episode in episodes:
            _replay(env, episode, options)
            if episode.steps and (episode.steps[-1][3] or episode.steps[-1][4]):
                ended += 1
                truncated += bool(episode.steps[-1][4])
            illegal += any(step[5] for step in episode.steps)
    assert ended > 40 and truncated > 0 and illegal > 0


def test_long_runs_of_one_table_replay_exactly(backend: str) -> None:
    """Many episodes of the issue's table (2-player Egyptian), whole games with dense rewards."""
    env = vector_env(
        "egyptian", 8, opponents=["policy"], backend=backend, episode="game", reward="dense",
        seat=None, rules={"target": 41},
    )  # fmt: skip
    for episode in _record(env, steps=60 if backend == "kernel" else 25, seed=5):
        _replay(env, episode, {"episode": "game", "reward": "dense"})


# ----------------------------------------------------------------- the C encoder itself


def _positions(variant: str, players: int, teams: bool, seed: int) -> Iterator[GameState]:
    """Every position of a random game (dealt, mid-round, after rounds, the end)."""
    rng = random.Random(seed)
    rules = random_overrides(rng) if seed % 2 else {"target": 31}
    rules.setdefault("target", 31)
    state = GameState(
        variant, players, teams=teams, first_dealer=rng.randrange(players), rules=rules
    )
    while not state.is_over and len(state.rounds) < 3:
        if state.phase == "deal":
            state.deal(rng=rng)
        else:
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
        yield state


def _compiled_env(variant: str, players: int, teams: bool, rules: Any) -> BasraVectorEnv:
    """A one-env vector environment on the compiled engine (whatever BASRA_KERNEL says)."""
    import basra._vector as compiled

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vector, "_compiled", lambda: compiled)
        return vector_env(variant, 1, players, teams, rules, ["random"], backend="kernel")


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_the_c_encoder_equals_the_python_encoder_on_every_position(
    players: int, teams: bool
) -> None:
    """Every seat's view of every position of random games of every preset (and random rule
    overrides): the same 949 values to the last bit, and the same legal actions."""
    seen = 0
    for seed, variant in enumerate(VARIANT_NAMES):
        states = _positions(variant, players, teams, seed)
        first = next(states)
        env = _compiled_env(variant, players, teams, first.rules)
        core: Any = env._core
        encoder = ObservationEncoder(first.rules, players, teams)
        out = np.zeros(encoder.size, dtype=np.float32)
        mask = np.zeros(env.single_action_space.n, dtype=np.uint8)
        for state in [first, *states]:
            for seat in range(players):
                core.encode_state(state, seat, out, mask)
                expected = encoder.encode(view_of(state, seat))
                np.testing.assert_array_equal(_bits(out), _bits(expected))
                legal = np.zeros_like(mask)
                if state.phase == PHASE_PLAY and state.turn == seat:
                    legal[
                        list(action_map(state.rules, cards_of(state.hands[seat]), state.floor))
                    ] = 1
                np.testing.assert_array_equal(mask, legal)
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_hidden_cards_do_not_change_the_c_observation(players: int, teams: bool) -> None:
    """The C encoder reads the seat's own hand and public information only: re-dealing the
    other hands and the stock (determinize) leaves every value as it was."""
    moved = 0
    for seed, variant in enumerate(VARIANT_NAMES[::2]):
        env = None
        for k, state in enumerate(_positions(variant, players, teams, seed)):
            if state.phase != PHASE_PLAY or k % 5:
                continue
            if env is None:
                env = _compiled_env(variant, players, teams, state.rules)
                core: Any = env._core
                before = np.zeros(env.encoder.size, dtype=np.float32)
                after = np.zeros_like(before)
                mask = np.zeros(env.single_action_space.n, dtype=np.uint8)
            for seat in range(players):
                view = view_of(state, seat)
                core.encode_state(state, seat, before, mask)
                for j in range(2):
                    other = determinize(view, random.Random(j))
                    moved += other.hands != state.hands
                    core.encode_state(other, seat, after, mask)
                    np.testing.assert_array_equal(_bits(before), _bits(after))
    assert moved > 50


# ----------------------------------------------------------------- the Gymnasium API


def test_spaces_dtypes_and_shapes(backend: str) -> None:
    env = vector_env("egyptian", 5, backend=backend, opponents=["random"])
    assert isinstance(env, VectorEnv)
    assert env.num_envs == 5
    assert env.single_observation_space == spaces.Box(0.0, 1.0, (949,), np.float32)
    assert env.single_action_space == spaces.Discrete(780)
    assert env.observation_space == spaces.Box(0.0, 1.0, (5, 949), np.float32)
    assert env.action_space == spaces.MultiDiscrete([780] * 5)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert set(infos) == {"action_mask", "_action_mask", "seat", "_seat"}
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].shape == (5, 780)
    masks = env.action_masks()
    assert masks.dtype == np.bool_ and masks.shape == (5, 780)
    np.testing.assert_array_equal(masks, infos["action_mask"].astype(bool))
    assert masks.any(axis=1).all()
    actions = env.sample_actions()
    assert actions.shape == (5,) and masks[np.arange(5), actions].all()
    obs, rewards, terminations, truncations, infos = env.step(actions)
    assert env.observation_space.contains(obs)
    assert rewards.dtype == np.float64 and rewards.shape == (5,)
    assert terminations.dtype == truncations.dtype == np.bool_
    assert infos["seat"].tolist() == [0] * 5
    wide = vector_env("egyptian", 2, rules={"capture_policy": "any_maximal"}, backend=backend)
    assert wide.single_action_space == spaces.Discrete(1976)
    assert wide.reset(seed=0)[0].shape == (2, 949) and wide.action_masks().shape == (2, 1976)


def test_copies_or_the_preallocated_arrays(backend: str) -> None:
    copying = vector_env("egyptian", 3, backend=backend, opponents=["random"])
    obs, _ = copying.reset(seed=0)
    again, _ = copying.reset(seed=0)
    assert obs is not again and np.array_equal(obs, again)
    direct = vector_env("egyptian", 3, backend=backend, opponents=["random"], copy=False)
    first, _ = direct.reset(seed=0)
    second, _, _, _, _ = direct.step(direct.sample_actions())
    assert first is second  # the same array, written in place
    assert direct.action_masks() is direct.action_masks()


def _first_legal(masks: Any) -> Any:
    return masks.argmax(axis=1)


def _run(env: BasraVectorEnv, steps: int, seed: int, sample: bool = False) -> list[Any]:
    out: list[Any] = list(env.reset(seed=seed)[:1])
    for _ in range(steps):
        if sample:
            env.sample_actions()  # draws from its own generator: the games stay the same
        obs, rewards, terminations, truncations, infos = env.step(_first_legal(env.action_masks()))
        out += [obs, rewards, terminations, truncations, infos["action_mask"], infos["seat"]]
    return out


def test_seeds_make_runs_repeat(backend: str) -> None:
    def make() -> BasraVectorEnv:
        return vector_env("lebanese", 4, 3, backend=backend, seat=None, episode="round")

    a, b = make(), make()
    run = _run(a, 60, seed=7)
    for x, y in zip(run, _run(b, 60, seed=7, sample=True), strict=True):
        np.testing.assert_array_equal(x, y)
    for x, y in zip(run, _run(a, 60, seed=7), strict=True):  # reset(seed) starts over
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(run[1], _run(b, 1, seed=8)[1])
    # A list gives one seed per env; env i of seed s is seeded s + i.
    obs, _ = a.reset(seed=[9, 10, 11, 12])
    np.testing.assert_array_equal(obs, b.reset(seed=9)[0])
    obs, _ = a.reset(seed=[13, None, 13, None])
    np.testing.assert_array_equal(obs[0], obs[2])
    assert len({a.reset(seed=s)[1]["seat"].tobytes() for s in range(8)}) > 1  # seats drawn
    # Unseeded environments differ from each other.
    c, d = make(), make()
    assert not np.array_equal(c.reset()[0], d.reset()[0])


def _trajectories(env: BasraVectorEnv, steps: int) -> list[list[tuple[Any, ...]]]:
    """Per env, what each step returned (first legal actions); SAME_STEP's final observation
    (or NEXT_STEP's observation of the step after) stands beside the last of an episode."""
    env.reset(seed=3)
    out: list[list[tuple[Any, ...]]] = [[] for _ in range(env.num_envs)]
    previous = np.zeros(env.num_envs, dtype=bool)
    for _ in range(steps):
        obs, rewards, terminations, truncations, infos = env.step(_first_legal(env.action_masks()))
        for i in range(env.num_envs):
            if previous[i]:  # NEXT_STEP's reset step: it holds the new episode's observation
                assert rewards[i] == 0 and not terminations[i] and not truncations[i]
                final, reward, term, trunc, _ = out[i][-1]
                out[i][-1] = (final, reward, term, trunc, obs[i].copy())
                continue
            new = None
            final = obs[i].copy()
            if "final_obs" in infos and infos["_final_obs"][i]:
                final, new = infos["final_obs"][i], obs[i].copy()
                assert not infos["final_info"]["action_mask"][i].any()
            out[i].append((final, rewards[i], terminations[i], truncations[i], new))
        previous = (terminations | truncations) & (
            env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        )
    return out


def test_same_step_autoreset_is_next_step_without_the_reset_steps(backend: str) -> None:
    """SAME_STEP returns what NEXT_STEP does, the reset step folded into the step that ends
    an episode: its last observation in final_obs, the new episode's in obs."""
    kwargs: dict[str, Any] = {"episode": "round", "reward": "dense", "backend": backend}
    nxt = vector_env("egyptian", 3, opponents=["policy"], **kwargs)
    same = vector_env("egyptian", 3, opponents=["policy"], autoreset_mode="same_step", **kwargs)
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    ended = 0
    for a, b in zip(_trajectories(nxt, 80), _trajectories(same, 80), strict=True):
        for x, y in zip(a, b, strict=False):  # NEXT_STEP's run is shorter by its reset steps
            assert x[1:4] == y[1:4]
            np.testing.assert_array_equal(x[0], y[0])
            if x[2] or x[3]:
                ended += 1
                if x[4] is not None:
                    np.testing.assert_array_equal(x[4], y[4])
            else:
                assert x[4] is None and y[4] is None
    assert ended >= 3


def test_next_step_ignores_the_action_of_the_reset_step(backend: str) -> None:
    env = vector_env("egyptian", 2, backend=backend, opponents=["random"], episode="round")
    env.reset(seed=0)
    for _ in range(200):
        _, _, terminations, _, _ = env.step(env.sample_actions())
        if terminations.any():
            break
    done = terminations.copy()
    _, rewards, terminations, truncations, infos = env.step(np.full(2, 779))  # never legal
    assert not rewards[done].any() and not terminations[done].any() and not truncations.any()
    assert env.action_masks()[done].any(axis=1).all()  # a new episode, waiting for an action
    if not done.all():  # the others played the illegal action
        assert (rewards[~done] == -1.0).all() and infos["illegal_action"][~done].all()
        assert not infos["illegal_action"][done].any()


def test_disabled_autoreset_resets_only_what_it_is_told(backend: str) -> None:
    env = vector_env(
        "egyptian", 3, backend=backend, episode="round", autoreset_mode="Disabled", copy=False
    )
    env.reset(seed=0)
    while True:
        _, _, terminations, truncations, _ = env.step(env.sample_actions())
        done = terminations | truncations
        if done.any():
            break
    with pytest.raises(RuntimeError, match="reset it first"):
        env.step(env.sample_actions())
    before = env.action_masks().copy()
    env.reset(options={"reset_mask": done.copy()})
    assert env.action_masks()[done].any(axis=1).all()
    np.testing.assert_array_equal(env.action_masks()[~done], before[~done])
    env.step(env.sample_actions())
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(3, dtype=bool)})


def test_illegal_actions_end_the_episode_like_gym_env(backend: str) -> None:
    env = vector_env("egyptian", 2, backend=backend, illegal_reward=-5.0)
    obs, _ = env.reset(seed=0)
    legal = env.sample_actions()
    actions = np.array([779, legal[1]])
    if env.action_masks()[0, 779]:
        pytest.fail("779 should not be legal at a deal")
    before = obs[0].copy()
    obs, rewards, terminations, _, infos = env.step(actions)
    assert rewards[0] == -5.0 and terminations[0] and not terminations[1]
    assert infos["illegal_action"].tolist() == [True, False]
    assert infos["_illegal_action"].tolist() == [True, False]
    np.testing.assert_array_equal(obs[0], before)  # nothing was played
    assert not env.action_masks()[0].any()


def test_bad_arguments_give_clear_errors(backend: str) -> None:
    with pytest.raises(SetupError, match="random, policy, not 'greedy'"):
        vector_env(opponents=["greedy"], backend=backend)
    with pytest.raises(SetupError, match="named, not objects"):
        vector_env(opponents=[PlayoutPolicyBot()], backend=backend)  # type: ignore[list-item]
    with pytest.raises(SetupError, match="eps"):
        vector_env(opponents=["policy:eps=2"], backend=backend)
    with pytest.raises(SetupError, match="only policy"):
        vector_env(opponents=["random:eps=0.1"], backend=backend)
    with pytest.raises(SetupError, match="non-empty list"):
        vector_env(opponents="random", backend=backend)
    with pytest.raises(SetupError, match="num_envs"):
        vector_env(num_envs=0, backend=backend)
    with pytest.raises(SetupError, match="players must be 2, 3 or 4"):
        vector_env(players=5, backend=backend)
    with pytest.raises(SetupError, match="teams need 4 players"):
        vector_env(players=2, teams=True, backend=backend)
    with pytest.raises(SetupError, match="seat must be"):
        vector_env(seat=2, backend=backend)
    with pytest.raises(SetupError, match="episode must be one of"):
        vector_env(episode="match", backend=backend)
    with pytest.raises(SetupError, match="reward must be one of"):
        vector_env(reward="score", backend=backend)
    with pytest.raises(SetupError, match="max_rounds"):
        vector_env(max_rounds=0, backend=backend)
    with pytest.raises(SetupError, match="autoreset_mode"):
        vector_env(autoreset_mode="sometimes", backend=backend)
    with pytest.raises(SetupError, match="target"):
        vector_env(rules={"target": "high"}, backend=backend)
    with pytest.raises(SetupError, match="below 2\\*\\*31"):
        vector_env(rules={"basra_points": 10**12}, backend=backend)
    with pytest.raises(SetupError, match="backend must be one of"):
        vector_env(backend="gpu")
    env = vector_env(num_envs=2, backend=backend)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step([0, 0])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="2 integers"):
        env.step([0, 0, 0])
    with pytest.raises(ValueError, match="2 integers"):
        env.step([0.5, 1.0])
    with pytest.raises(ValueError, match="list of 3"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(IndexError):
        env.game(2)
    env.close()
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        env.step([0, 0])


def test_the_backend_follows_the_kernel() -> None:
    """Without the kernel (not built, or BASRA_KERNEL=0) vector_env runs on the fallback."""
    env = vector_env("egyptian", 2)
    if kernel.ACTIVE:
        assert env.backend == "kernel"
    else:
        assert env.backend == "python"
        with pytest.raises(SetupError, match="BASRA_KERNEL=0"):
            vector_env("egyptian", 2, backend="kernel")
    assert vector_env("egyptian", 2, backend="python").backend == "python"


def test_without_the_compiled_module_it_runs_on_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A kernel built without basra._vector (or none at all): the fallback, or a clear error."""
    monkeypatch.setattr(vector, "_compiled", lambda: None)
    env = vector_env("egyptian", 2, opponents=["random"])
    assert env.backend == "python"
    observations, _ = env.reset(seed=0)
    assert observations.shape == (2, 949) and env.action_masks().any(axis=1).all()
    with pytest.raises(SetupError, match="needs the compiled vector environment"):
        vector_env("egyptian", 2, backend="kernel")


def test_opponents_play_the_playout_policy(backend: str) -> None:
    """``policy`` opponents take the move policy_value likes best (ties within its 0.01 jitter)."""
    env = vector_env("egyptian", 4, 3, backend=backend, opponents=["policy"], episode="round")
    env.reset(seed=2)
    for _ in range(40):
        env.step(env.sample_actions())
    checked = 0
    for i in range(env.num_envs):
        game = env.game(i)
        replay = GameState("egyptian", 3, first_dealer=game.first_dealer)
        for log in game.rounds:
            assert log.pack is not None
            replay.deal(list(log.pack))
            for play in log.plays:
                if play.seat != env.seats[i]:
                    rules, floor, lone = replay.rules, replay.floor, replay.lone_trail
                    best = max(
                        policy_value(rules, m.card, m.take, floor, lone)
                        for m in replay.legal_moves()
                    )
                    move = play.move
                    assert policy_value(rules, move.card, move.take, floor, lone) >= best - 0.01
                    checked += 1
                replay.push(play.move)
    assert checked > 20


def test_gymnasium_vector_wrappers_work(backend: str) -> None:
    """Gymnasium's own vector wrappers read the rewards, flags and autoreset mode right."""
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        vector_env("egyptian", 4, backend=backend, episode="round", reward="points")
    )
    env.reset(seed=0)
    totals = np.zeros(4)
    returns: list[float] = []
    seen: list[float] = []
    previous = np.zeros(4, dtype=bool)
    for _ in range(80):
        _, rewards, terminations, truncations, infos = env.step(env.unwrapped.sample_actions())
        totals[~previous] += rewards[~previous]
        done = terminations | truncations
        returns += totals[done].tolist()
        totals[done] = 0
        if "episode" in infos:
            seen += infos["episode"]["r"][infos["_episode"]].tolist()
        previous = done
    assert returns and seen == pytest.approx(returns)
    listed = gymnasium.wrappers.vector.DictInfoToList(vector_env("egyptian", 2, backend=backend))
    _, infos = listed.reset(seed=0)
    assert len(infos) == 2 and infos[0]["action_mask"].shape == (780,)


def test_gymnasium_make_vec_makes_one() -> None:
    env = gymnasium.make_vec(vector.VECTOR_ENV_ID, num_envs=3, opponents=["random"], players=3)
    assert isinstance(env, BasraVectorEnv) and env.num_envs == 3 and env.table.players == 3
    assert env.reset(seed=0)[0].shape == (3, 949)


def test_render_and_game_show_the_whole_table(backend: str) -> None:
    env = vector_env("egyptian", 2, backend=backend, render_mode="ansi", opponents=["random"])
    env.reset(seed=4)
    env.step(env.sample_actions())
    frames = env.render()
    assert frames is not None and len(frames) == 2 and "agent" in frames[0]
    game = env.game(1)
    assert game.phase == PHASE_PLAY and game.turn == env.seats[1]
    assert len(game.rounds[-1].plays) >= 2
