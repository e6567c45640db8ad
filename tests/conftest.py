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
  runs them in parallel with ``--dist loadfile``: a module's tests on one worker, which
  starts the module's browser, servers, PostgreSQL cluster or Ray instance once). The
  modules with tests marked ``slow`` (tens of seconds), ``browser`` or ``services``
  go first, those with the most first: run last, one of them would keep one worker
  busy while the others wait.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from basra.cards import mask_of, parse_cards
from basra.rules import VARIANT_NAMES
from basra.state import GameState

DATA = Path(__file__).parent / "data"
CONFORMANCE = DATA / "conformance"

collect_ignore_glob = ["data/*"]
"""Test data holds programs (bots driven over a pipe), not tests or doctests."""

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "basra"
NOT_ENGINE = ("server", "tui")
"""basra's packages whose doctests are not the engine's (the web server, the terminal app)."""
HEAVY = ("slow", "browser", "services")
"""The marks of the slowest modules' tests: a parallel run starts with those modules."""

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
    """Mark the engine's doctests; put the slowest modules first."""
    for item in items:
        if engine_module(item.path):
            item.add_marker(pytest.mark.engine)
    heavy = Counter(item.path for item in items if any(map(item.get_closest_marker, HEAVY)))
    items.sort(key=lambda item: -heavy[item.path])


def engine_module(path: Path) -> bool:
    """Whether a module of basra (where a doctest is) is the engine's."""
    try:
        inside = path.resolve().relative_to(PACKAGE)
    except ValueError:
        return False
    return inside.parts[0] not in NOT_ENGINE
