"""What the three adapters share: the table they play, its rewards, and a text picture.

A :class:`Table` is a variant, its (possibly overridden) rules, and the seating:
2, 3 or 4 players, 4 as individuals or as two teams. It checks its arguments
the way :class:`basra.state.GameState` does, so a bad setting fails when the
environment is made, with the engine's message.

Rewards are per side and zero-sum, and every seat gets its side's reward:

- ``"win"``: at the end of the episode the winning side gets +1 and every
  other side -1/(sides-1); a draw gives 0 to all.
- ``"points"``: at the end of every round each side gets its round points (card
  points, majority bonus, basras) minus the mean of all sides' round points.
- ``"dense"``: the same points credited as they are scored: point cards and
  basras with each capture, the majority bonus and the leftovers at the end of
  the round (each minus the mean over sides). A round's dense rewards add up
  to its ``"points"`` reward; they only arrive sooner.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from basra.cards import format_cards
from basra.rules import Rules
from basra.scoring import RoundScore, pile_points
from basra.state import PHASE_PLAY, GameState, SetupError
from basra.transition import seating

__all__ = [
    "EPISODES",
    "REWARDS",
    "PointLedger",
    "Table",
    "check_choice",
    "episode_winner",
    "points_rewards",
    "render_table",
    "round_winner",
    "seed_rng",
    "win_rewards",
]

EPISODES = ("game", "round")
"""An episode is a whole game (to the target score) or a single round."""
REWARDS = ("win", "points", "dense")
"""Terminal win/loss, each round's point margin, or that margin as it is scored."""


@dataclass(frozen=True)
class Table:
    """A variant and a seating: what every environment of the research API plays."""

    variant: str
    players: int
    teams: bool
    rules: Rules

    @classmethod
    def make(
        cls,
        variant: str = "egyptian",
        players: int = 2,
        teams: bool = False,
        rules: Rules | Mapping[str, Any] | None = None,
    ) -> Table:
        """A checked table: raises :class:`basra.state.SetupError` naming what is wrong."""
        state = GameState(variant, players, teams=teams, rules=rules)
        return cls(variant, players, teams, state.rules)

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self  # immutable, and its rules share caches that must not be copied

    @property
    def sides(self) -> int:
        """How many sides score: 2 with teams, else one per player."""
        return 2 if self.teams else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return seating(self.players, self.teams)[1][seat]

    def new_game(self, first_dealer: int = 0) -> GameState:
        """A new game at this table, waiting for its first deal."""
        return GameState(
            self.variant,
            self.players,
            teams=self.teams,
            first_dealer=first_dealer,
            rules=self.rules,
        )


def check_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else a :class:`SetupError` listing them."""
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise SetupError(f"{name} must be one of {allowed}, not {value!r}")
    return value


def win_rewards(table: Table, winner: int | None) -> list[float]:
    """Per seat: +1 for the winning side, -1/(sides-1) for the others, 0 on a draw."""
    if winner is None:
        return [0.0] * table.players
    loss = -1.0 / (table.sides - 1)
    return [1.0 if table.side_of(seat) == winner else loss for seat in range(table.players)]


def round_winner(result: RoundScore) -> int | None:
    """The side with the most points in a round, or ``None`` when the top is shared."""
    top = max(result.points)
    leaders = [side for side, points in enumerate(result.points) if points == top]
    return leaders[0] if len(leaders) == 1 else None


def points_rewards(table: Table, result: RoundScore) -> list[float]:
    """Per seat: its side's round points minus the mean round points of all sides."""
    mean = sum(result.points) / table.sides
    return [float(result.points[table.side_of(seat)] - mean) for seat in range(table.players)]


class PointLedger:
    """Each side's points of the current round so far, for ``"dense"`` rewards.

    Call :meth:`rewards` after every play (it also handles the play that ends a
    round) and :meth:`new_round` after every deal.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.so_far = [0] * table.sides

    def new_round(self) -> None:
        """Start counting a new round from zero."""
        self.so_far = [0] * self.table.sides

    def rewards(self, game: GameState) -> list[float]:
        """Per seat: the points its side scored since the last call, minus the mean over sides."""
        if game.phase == PHASE_PLAY:
            now = [
                pile_points(game.rules, pile) + basras
                for pile, basras in zip(game.piles, game.basra_points, strict=True)
            ]
        else:
            result = game.rounds[-1].result
            assert result is not None
            now = list(result.points)
        table = self.table
        deltas = [new - old for new, old in zip(now, self.so_far, strict=True)]
        self.so_far = now
        mean = sum(deltas) / table.sides
        return [float(deltas[table.side_of(seat)] - mean) for seat in range(table.players)]


def episode_winner(state: GameState, episode: str) -> int | None:
    """Who won the episode that just ended: the game's winner, or the round's."""
    if episode == "game":
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner
        # Cut short by the round limit: the leading side wins, a shared lead is a draw.
        top = max(state.scores)
        leaders = [side for side, score in enumerate(state.scores) if score == top]
        return leaders[0] if len(leaders) == 1 else None
    result = state.rounds[-1].result
    assert result is not None
    return round_winner(result)


def seed_rng(seed: int | None) -> random.Random:
    """A ``random.Random`` for dealing and bots (a fresh random one without a seed)."""
    return random.Random(seed)


def render_table(state: GameState, names: Sequence[str] | None = None) -> str:
    """The whole table as text, every hand face up: a spectator's picture, not an observation."""
    names = names or [f"player_{seat}" for seat in range(state.players)]
    lines = [
        f"{state.variant}, {state.players} players{' in teams' if state.teams else ''}, "
        f"round {state.round_index + 1}, {state.phase}"
    ]
    score = "  ".join(
        f"side {side} ({'+'.join(names[s] for s in seats)}): {state.scores[side]}"
        for side, seats in enumerate(state.sides)
    )
    lines.append(f"score  {score}" + (f"  (carry {state.carry})" if state.carry else ""))
    lines.append(f"floor  [{format_cards(state.floor)}]   stock {state.stock_size}")
    for seat in range(state.players):
        marker = "*" if state.phase == PHASE_PLAY and state.turn == seat else " "
        side = state.side_of[seat]
        lines.append(
            f"{marker} {names[seat]:<9} [{format_cards(state.hands[seat])}]  "
            f"captured {state.piles[side].bit_count()}, basras {state.basras[side]}"
        )
    if state.plays:
        play = state.plays[-1]
        basra = f" (basra {play.basra})" if play.basra else ""
        lines.append(f"last   {names[play.seat]} played {play.move.text()}{basra}")
    outcome = state.outcome()
    if outcome is not None:
        lines.append(
            "over   " + ("draw" if outcome.winner is None else f"side {outcome.winner} won")
        )
    return "\n".join(lines)
