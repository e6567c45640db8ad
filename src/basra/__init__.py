"""basra: the Basra family of fishing card games, every regional variant, exactly.

The core (this package's top-level modules) uses only the standard library:

- :mod:`basra.cards`: cards as ints, card sets as bit masks, card text.
- :mod:`basra.rules`: rule settings, the 15 variant presets, custom rule files.
- :mod:`basra.captures`: what a card captures, what a basra is worth.
- :mod:`basra.state`: :class:`GameState` with deal, push/pop, legal moves, scoring.
- :mod:`basra.notation`: move text with precise errors.
- :mod:`basra.view`: per-seat views, information-state keys, determinization.
- :mod:`basra.record`: game records, replay and replay output.

>>> import random, basra
>>> state = basra.GameState("lebanese", players=4, teams=True)
>>> rng = random.Random(0)
>>> while not state.is_over:
...     if state.phase == "deal":
...         state.deal(rng=rng)
...     else:
...         state.push(rng.choice(state.legal_moves()))
>>> state.outcome().winner in (0, 1)
True
"""

from basra.cards import Card, CardError, CardSet, card_text, parse_card, parse_cards
from basra.moves import Move, Play
from basra.notation import (
    AmbiguousMoveError,
    CaptureNotAllowedError,
    InvalidMoveError,
    MoveTextError,
    NotInHandError,
    parse_move,
)
from basra.record import Record, RecordError, read_records, record_of, result_json
from basra.rules import PRESETS, VARIANT_NAMES, Rules, RulesError, preset, resolve_rules
from basra.state import (
    DealError,
    GameError,
    GameState,
    IllegalMoveError,
    Outcome,
    SetupError,
    shuffled_pack,
)
from basra.view import View, determinize, view_of

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "VARIANT_NAMES",
    "AmbiguousMoveError",
    "CaptureNotAllowedError",
    "Card",
    "CardError",
    "CardSet",
    "DealError",
    "GameError",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveTextError",
    "NotInHandError",
    "Outcome",
    "Play",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "SetupError",
    "View",
    "card_text",
    "determinize",
    "parse_card",
    "parse_cards",
    "parse_move",
    "preset",
    "read_records",
    "record_of",
    "resolve_rules",
    "result_json",
    "shuffled_pack",
    "view_of",
]
