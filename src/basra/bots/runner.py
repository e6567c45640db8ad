"""Playing games between bots."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from basra.bots.base import Bot, BotError, OmniscientBot
from basra.moves import Play
from basra.state import PHASE_DEAL, PHASE_PLAY, GameState
from basra.view import view_of

__all__ = ["Clock", "PlayHook", "play_game", "play_round"]

PlayHook = Callable[[GameState, Play], None]
"""Called after every play with the state and the play just made."""
Clock = Callable[[int, float, int], None]
"""Called after every decision with the seat, the seconds the bot took and the
number of legal moves it had."""


def play_round(
    state: GameState,
    bots: Sequence[Bot],
    rng: random.Random,
    on_play: PlayHook | None = None,
    clock: Clock | None = None,
) -> None:
    """Deal a round from ``rng`` (if due) and let the bots play it to its end.

    Each bot is given its seat's view and nothing else, except an
    :class:`~basra.bots.base.OmniscientBot` (the ``cheater`` measuring stick),
    which is shown the whole state.
    """
    if state.phase == PHASE_DEAL:
        state.deal(rng=rng)
    while state.phase == PHASE_PLAY:
        seat = state.turn
        bot = bots[seat]
        view = view_of(state, seat)
        started = time.perf_counter()
        if isinstance(bot, OmniscientBot):
            move = bot.choose_with_state(state, view)
        else:
            move = bot.choose(view)
        if clock is not None:
            clock(seat, time.perf_counter() - started, len(view.legal_moves()))
        if not state.is_legal(move):
            raise BotError(f"bot {bot.name!r} in seat {seat} chose an illegal move {move}")
        state.push(move)
        if on_play is not None:
            on_play(state, state.plays[-1])


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    rng: random.Random,
    on_play: PlayHook | None = None,
    max_rounds: int = 1000,
    clock: Clock | None = None,
) -> GameState:
    """Play ``state`` to the end of the game, dealing each round's pack from ``rng``."""
    if len(bots) != state.players:
        raise BotError(f"{state.players} players need {state.players} bots, not {len(bots)}")
    for _ in range(max_rounds):
        if state.is_over:
            return state
        play_round(state, bots, rng, on_play, clock)
    raise RuntimeError(f"the game did not end in {max_rounds} rounds")
