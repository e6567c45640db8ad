"""Basra as an OpenSpiel game: ``python_basra``.

:func:`register` (or :func:`basra.env.register_openspiel`) registers the game;
then ``pyspiel.load_game("python_basra", {"variant": "lebanese", "players": 4,
"teams": True})`` loads it. Parameters:

- ``variant`` (``"egyptian"``): a preset name (RULES.md B4);
- ``players`` (``2``): 2, 3 or 4;
- ``teams`` (``False``): 4 players as two teams (seats 0+2 against 1+3);
- ``rules`` (``""``): rule overrides as a JSON object, e.g. ``{"target": 61}``;
- ``first_dealer`` (``0``): the seat that deals the first round;
- ``max_rounds`` (``100``): a game still going after this many rounds ends,
  the leading side winning (a shared lead is a draw).

Every round starts with chance nodes, one per card of the pack, top card
first: each draws one of the cards not yet drawn, uniformly. Once the whole
pack is drawn the engine deals it as RECORD.md says (so hands, floor and
stock all come from those chance events). Player actions use the shared
encoding of :mod:`basra.env.actions`; the game is zero-sum with terminal
returns +1 for the winning side and -1/(sides-1) for the others (0 for all on
a draw). Observation and information-state tensors come from
:class:`basra.env.observation.ObservationEncoder`, on the seat's view only;
the information state adds the round's history (who played which card, when,
and what it took). Past rounds enter both only through the scores, which is
all a player needs of them: every card of a past round was seen by all.

>>> import pyspiel
>>> register()
>>> game = pyspiel.load_game("python_basra", {"variant": "syrian", "players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 780, 52)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from basra.cards import CARD_NAMES, cards_of, format_cards, pack_mask
from basra.env.actions import action_text, actions_of_moves, num_actions, option_slots
from basra.env.observation import ObservationEncoder
from basra.env.table import Table, episode_winner, render_table, win_rewards
from basra.moves import Move
from basra.rules import RulesError
from basra.state import PHASE_DEAL, PHASE_PLAY, GameState, SetupError
from basra.view import view_of

__all__ = ["GAME_NAME", "BasraGame", "BasraObserver", "BasraState", "register"]

GAME_NAME = "python_basra"

_DEFAULTS: dict[str, Any] = {
    "variant": "egyptian",
    "players": 2,
    "teams": False,
    "rules": "",
    "first_dealer": 0,
    "max_rounds": 100,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Basra",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _table_of(params: dict[str, Any]) -> tuple[Table, int, int]:
    """The table, first dealer and round limit a parameter dict asks for."""
    text = params["rules"]
    try:
        overrides = json.loads(text) if text.strip() else None
    except json.JSONDecodeError as exc:
        raise SetupError(f"rules must be a JSON object of settings: {exc}") from None
    if overrides is not None and not isinstance(overrides, dict):
        raise SetupError(f"rules must be a JSON object of settings, not {text!r}")
    try:
        table = Table.make(params["variant"], params["players"], params["teams"], overrides)
    except RulesError as exc:
        raise SetupError(str(exc)) from None
    first_dealer = params["first_dealer"]
    table.new_game(first_dealer)  # checks the seat
    max_rounds = params["max_rounds"]
    if max_rounds < 1:
        raise SetupError(f"max_rounds must be a positive integer, not {max_rounds!r}")
    return table, first_dealer, max_rounds


class BasraGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_basra`` game: a table and a round limit (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        table, first_dealer, max_rounds = _table_of(merged)
        rules = table.rules
        sides = table.sides
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(rules),
            max_chance_outcomes=52,
            num_players=table.players,
            min_utility=-1.0 / (sides - 1),
            max_utility=1.0,
            utility_sum=0.0,
            # Every round: one chance node per card, then at most one play per card.
            max_game_length=max_rounds * 2 * rules.pack,
        )
        super().__init__(_GAME_TYPE, info, merged)
        self.table = table
        self.first_dealer = first_dealer
        self.max_rounds = max_rounds

    def new_initial_state(self) -> BasraState:
        """A new game, about to deal its first round."""
        return BasraState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BasraObserver:
        """An observer: observations by default, information states with ``perfect_recall``."""
        if params:
            raise ValueError(f"python_basra observers take no parameters, not {params!r}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        ):
            raise ValueError("python_basra observers show no seat's hidden cards but its own")
        return BasraObserver(
            self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class BasraState(pyspiel.State):  # type: ignore[misc]
    """A ``python_basra`` state: the engine's game plus the pack being drawn."""

    def __init__(self, game: BasraGame) -> None:
        super().__init__(game)
        self.table = game.table
        self.max_rounds = game.max_rounds
        self._engine = _Engine(game.table.new_game(game.first_dealer))
        self._slots = option_slots(self.table.rules)
        self._pack: list[int] = []
        self._undrawn = pack_mask(self.table.rules.pack)
        self._actions: dict[int, Move] = {}

    # ------------------------------------------------------------- the rules

    def current_player(self) -> int:
        """The seat to play, CHANCE while a pack is drawn, TERMINAL at the end."""
        game = self.game
        if game.phase == PHASE_PLAY:
            return game.turn
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        """True once the game is won or drawn, or the round limit is reached."""
        game = self.game
        return game.is_over or (game.phase == PHASE_DEAL and len(game.rounds) >= self.max_rounds)

    def _legal_actions(self, player: int) -> list[int]:
        """The player's legal actions in increasing order."""
        if player != self.game.turn or self.game.phase != PHASE_PLAY:
            return []
        return sorted(self._actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet drawn for this round's pack, each equally likely."""
        cards = cards_of(self._undrawn)
        p = 1.0 / len(cards)
        return [(card, p) for card in cards]

    def _apply_action(self, action: int) -> None:
        game = self.game
        if game.phase != PHASE_PLAY:
            assert self._undrawn >> action & 1, f"card {action} was already drawn"
            self._pack.append(action)
            self._undrawn ^= 1 << action
            if not self._undrawn:
                game.deal(self._pack)
                self._pack = []
                self._undrawn = pack_mask(self.table.rules.pack)
                self._actions = actions_of_moves(game.legal_moves(), self._slots)
            return
        game.push(self._actions[action])
        self._actions = (
            actions_of_moves(game.legal_moves(), self._slots) if game.phase == PHASE_PLAY else {}
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        move = self._actions.get(action) if player == self.game.turn else None
        return move.text() if move is not None else action_text(action)

    def returns(self) -> list[float]:
        """+1 for the winning side, -1/(sides-1) for the others, at the end; else 0."""
        if not self.is_terminal():
            return [0.0] * self.table.players
        return win_rewards(self.table, episode_winner(self.game, "game"))

    def __str__(self) -> str:
        drawn = f"\npack drawn so far: {len(self._pack)} cards" if self._pack else ""
        return render_table(self.game) + drawn

    @property
    def game(self) -> GameState:
        """The engine's game (hands, floor, stock: everything, for analysis; not an observation)."""
        return self._engine.game


class _Engine:
    """Holds the engine's game; OpenSpiel clones a state by deep-copying its attributes.

    :meth:`GameState.copy` is the engine's own cheap copy; a generic deep copy
    would also copy the shared rule tables and their caches.
    """

    __slots__ = ("game",)

    def __init__(self, game: GameState) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.copy())


class BasraObserver:
    """Observation or information-state tensors and strings of ``python_basra`` states.

    Conforms to OpenSpiel's PyObserver interface (``tensor``, ``dict``,
    ``set_from``, ``string_from``). With ``perfect_recall`` the tensor holds the
    round's history after the observation; without private information
    (``private_info`` not ``SINGLE_PLAYER``) the observer's hand and what only
    it can tell (the unseen cards) are left out.
    """

    def __init__(self, table: Table, iig_obs_type: Any) -> None:
        self.table = table
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.encoder = ObservationEncoder(
            table.rules, table.players, table.teams, history=self.perfect_recall
        )
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {
            block.name: self.tensor[block.start : block.start + block.size]
            for block in self.encoder.blocks()
        }

    def set_from(self, state: BasraState, player: int) -> None:
        """Write what ``player`` knows of ``state`` into :attr:`tensor`."""
        self.encoder.encode(view_of(state.game, player), self.tensor)
        if not self.private:
            self.dict["hand"][:] = 0
            self.dict["unseen"][:] = 0
        if not self.public:
            private = [self.dict["hand"].copy()] if self.private else []
            self.tensor[:] = 0
            if private:
                self.dict["hand"][:] = private[0]

    def string_from(self, state: BasraState, player: int) -> str:
        """What ``player`` knows of ``state`` as text (an information-state key with recall)."""
        view = view_of(state.game, player)
        parts = [f"seat {player}", f"round {view.round_index + 1}", f"score {list(view.scores)}"]
        if view.carry:
            parts.append(f"carry {view.carry}")
        if self.private:
            parts.append(f"hand [{format_cards(view.hand)}]")
        if self.public:
            parts.append(f"floor [{format_cards(view.floor)}]")
            if self.perfect_recall:
                parts.append(
                    "first floor [" + " ".join(CARD_NAMES[c] for c in view.initial_floor) + "]"
                )
                parts.append("buried [" + " ".join(CARD_NAMES[c] for c in view.buried) + "]")
                parts.append(
                    "plays [" + " ".join(f"{p.seat}:{p.move.text()}" for p in view.plays) + "]"
                )
            else:
                parts.append(f"hand sizes {list(view.hand_sizes)}, stock {view.stock_size}")
                if view.plays:
                    last = view.plays[-1]
                    parts.append(f"last {last.seat}:{last.move.text()}")
        return " | ".join(parts)


def register() -> None:
    """Register ``python_basra`` with OpenSpiel (once; later calls do nothing)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, BasraGame)
