"""Shared test helpers: literal positions and the project's copy of the conformance data."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from basra.cards import mask_of, parse_cards
from basra.rules import VARIANT_NAMES
from basra.state import GameState

DATA = Path(__file__).parent / "data"
CONFORMANCE = DATA / "conformance"

collect_ignore_glob = ["data/*"]
"""Test data holds programs (bots driven over a pipe), not tests or doctests."""

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
