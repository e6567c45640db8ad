"""Playing games between bots."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from basra import kernel
from basra.bots.base import Bot, BotError, OmniscientBot, make_bot
from basra.bots.simple import RandomBot
from basra.moves import Play
from basra.record import record_of
from basra.rules import Rules
from basra.state import PHASE_DEAL, PHASE_PLAY, GameState
from basra.view import view_of

__all__ = ["Clock", "PlayHook", "SelfplayTally", "play_game", "play_round", "selfplay"]

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
    if (
        kernel.ACTIVE
        and on_play is None
        and clock is None
        and all(type(bot) is RandomBot for bot in bots)
    ):
        # Random bots only look at their legal moves: the kernel makes their
        # choices itself, with their own generators, so the plays are the same.
        state.play_random([bot.rng.random for bot in bots])  # type: ignore[attr-defined]
        return
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


@dataclass
class SelfplayTally:
    """What :func:`selfplay` played: games, rounds, plays, and wins by side."""

    games: int = 0
    rounds: int = 0
    plays: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0


def selfplay(
    variant: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int | str,
    out: TextIO | None,
    *,
    teams: bool = False,
    rules: Rules | Mapping[str, Any] | None = None,
) -> SelfplayTally:
    """Play ``games`` whole games between bots and write their records (``basra selfplay``).

    Game ``i`` is seeded from ``seed`` and ``i`` alone (its first dealer, its
    packs and its bots' seeds), so the same arguments give the same records.
    ``bots`` names one bot per seat; records go to ``out`` one JSON line each.
    """
    tally = SelfplayTally()
    for game in range(games):
        rng = random.Random(f"basra-selfplay/{seed}/{game}")
        seated = [make_bot(name, seed=rng.getrandbits(64)) for name in bots]
        state = GameState(
            variant, players, teams=teams, first_dealer=rng.randrange(players), rules=rules
        )
        try:
            play_game(state, seated, rng)
        finally:
            for bot in seated:
                bot.close()
        if not tally.wins:
            tally.wins = [0] * len(state.sides)
        outcome = state.outcome()
        if outcome is not None and outcome.winner is not None:
            tally.wins[outcome.winner] += 1
        elif outcome is not None:
            tally.draws += 1
        tally.games += 1
        tally.rounds += len(state.rounds)
        tally.plays += sum(len(r.plays) for r in state.rounds)
        if out is not None:
            out.write(json.dumps(record_of(state, bots).to_json(), separators=(",", ":")) + "\n")
    return tally
