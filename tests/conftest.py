"""Shared test helpers: literal positions and the project's copy of the conformance data.

Two things about the run are decided here, for every test under src/ and tests/:

- which tests are the engine's (``@pytest.mark.engine``): the test command runs them
  a second time on the pure-Python engine (``BASRA_KERNEL=0 pytest -m engine``). A test
  module is the engine's when its tests play, generate, replay or score moves through
  basra's engine (the state, the kernel, the bots, the environments, the records) and
  says so with ``pytestmark = pytest.mark.engine``; the doctests of every module but the
  web server's and the terminal app's are the engine's too (marked here). A test that
  names both engines itself (the kernel's parity tests) runs the same in either pass:
  it is not marked. The web app's, the terminal's, the catalogues' and the import
  layers' tests are not the engine's.
- the order in which pytest-xdist hands the modules to its workers (the test command
  runs them in parallel with ``--dist loadfile --no-loadscope-reorder``: a module's
  tests on one worker, which starts the module's browser, servers, PostgreSQL cluster
  or Ray instance once, the modules in the order given here). The longest go first:
  run last, one of them would keep one worker busy while the others wait (a single
  test of 90 s did, when xdist ordered the modules by their number of tests). A
  module's length is what it took in a recorded run (``tests/durations.json``,
  written by ``scripts/durations``), or for a module not recorded there an estimate
  from its tests' marks (:data:`ESTIMATE`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from basra.cards import mask_of, parse_cards
from basra.rules import VARIANT_NAMES
from basra.state import GameState

DATA = Path(__file__).parent / "data"
CONFORMANCE = DATA / "conformance"

collect_ignore_glob = ["data/*"]
"""Test data holds programs (bots driven over a pipe), not tests or doctests."""

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "basra"
NOT_ENGINE = ("server", "tui")
"""basra's packages whose doctests are not the engine's (the web server, the terminal app)."""
DURATIONS = Path(__file__).parent / "durations.json"
ESTIMATE = {"slow": 10.0, "browser": 3.0, "services": 3.0}
"""Seconds a test with one of these marks is reckoned to take when its module is not in
:data:`DURATIONS` (the largest that applies); any other test, :data:`QUICK`."""
QUICK = 0.05

settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
"""Property tests judged by what they find, not by the clock: the suite's workers share
the machine with browsers and servers, so an example's time says nothing of the code."""

TABLES = [(2, False), (3, False), (4, False), (4, True)]
"""Every table the rules allow: 2, 3 or 4 players, 4 as individuals or teams."""


def cards(text: str) -> int:
    """A card mask from card text."""
    return mask_of(parse_cards(text))


def random_game(
    variant: str,
    players: int = 2,
    teams: bool = False,
    seed: int = 0,
    rules: dict[str, object] | None = None,
    stop_after: int | None = None,
) -> GameState:
    """A game played with uniformly random legal moves (to the end, or ``stop_after`` plays)."""
    rng = random.Random(seed)
    state = GameState(
        variant, players, teams=teams, first_dealer=rng.randrange(players), rules=rules
    )
    plays = 0
    while not state.is_over and (stop_after is None or plays < stop_after):
        if state.phase == "deal":
            state.deal(rng=rng)
        else:
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
            plays += 1
    return state


def with_hidden(state: GameState, hands: list[int], stock: list[int]) -> GameState:
    """A copy of ``state`` (a round being played) with other hands and cards still to deal."""
    twin = state.copy()
    twin.load_round(
        hands=hands,
        floor=twin.floor,
        stock=stock,
        first_player=twin.first_player,
        turn=twin.turn,
        piles=twin.piles,
        basras=twin.basras,
        basra_points=twin.basra_points,
        lone_last=twin.lone_last,
        scores=twin.scores,
        carry=twin.carry,
        plays=twin.plays,
    )
    return twin


@pytest.fixture(params=VARIANT_NAMES)
def variant(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the engine's doctests; put the longest modules first."""
    for item in items:
        if engine_module(item.path):
            item.add_marker(pytest.mark.engine)
    seconds = module_seconds(items)
    items.sort(key=lambda item: -seconds[item.path])


def module_seconds(items: list[pytest.Item]) -> dict[Path, float]:
    """How long each module of ``items`` is reckoned to take (see the module's docstring)."""
    recorded = json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}
    seconds: dict[Path, float] = {}
    for item in items:
        marks = [ESTIMATE[mark] for mark in ESTIMATE if item.get_closest_marker(mark)]
        seconds[item.path] = seconds.get(item.path, 0.0) + max(marks, default=QUICK)
    for path in seconds:
        name = path.resolve().relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
        seconds[path] = recorded.get(name, seconds[path])
    return seconds


def engine_module(path: Path) -> bool:
    """Whether a module of basra (where a doctest is) is the engine's."""
    try:
        inside = path.resolve().relative_to(PACKAGE)
    except ValueError:
        return False
    return inside.parts[0] not in NOT_ENGINE
