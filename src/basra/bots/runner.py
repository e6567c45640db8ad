"""Playing games between bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from basra.bots.base import Bot, BotError
from basra.moves import Play
from basra.state import PHASE_DEAL, PHASE_PLAY, GameState
from basra.view import view_of

__all__ = ["play_game", "play_round"]

PlayHook = Callable[[GameState, Play], None]


def play_round(
    state: GameState,
    bots: Sequence[Bot],
    rng: random.Random,
    on_play: PlayHook | None = None,
) -> None:
    """Deal a round from ``rng`` (if due) and let the bots play it to its end."""
    if state.phase == PHASE_DEAL:
        state.deal(rng=rng)
    while state.phase == PHASE_PLAY:
        seat = state.turn
        move = bots[seat].choose(view_of(state, seat))
        if not state.is_legal(move):
            raise BotError(f"bot {bots[seat].name!r} in seat {seat} chose an illegal move {move}")
        state.push(move)
        if on_play is not None:
            on_play(state, state.plays[-1])


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    rng: random.Random,
    on_play: PlayHook | None = None,
    max_rounds: int = 1000,
) -> GameState:
    """Play ``state`` to the end of the game, dealing each round's pack from ``rng``."""
    if len(bots) != state.players:
        raise BotError(f"{state.players} players need {state.players} bots, not {len(bots)}")
    for _ in range(max_rounds):
        if state.is_over:
            return state
        play_round(state, bots, rng, on_play)
    raise RuntimeError(f"the game did not end in {max_rounds} rounds")
