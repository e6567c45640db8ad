"""What a seat's cards would do, and what is wrong with a move typed, for people.

Lessons and puzzles show, for every card in hand, what it would take (each
capture set the rules allow, with its basra and its points), computed by the
engine; and when a person types something that is not a move of the
position, they say why in both languages.

>>> from basra.state import GameState
>>> from basra.view import view_of
>>> state = GameState.from_position("egyptian", floor=["3S", "6H"], hands=[["9D"], ["2C"]])
>>> hand_options(view_of(state, 0))[0]["options"]
[{'move': '9Dx3S,6H', 'take': ['3S', '6H'], 'basra': 10, 'points': 0}]
>>> read_move(state, "9D").text(), move_error_words(state, "KS")["en"]
('9Dx3S,6H', 'K♠ is not in your hand: play one of 9♦.')
"""

from __future__ import annotations

from typing import Any

from basra.cards import CARD_NAMES, cards_of
from basra.describe import card_label
from basra.kernel import generate_moves
from basra.learn.words import Words, card_words, cards_words, words
from basra.moves import Move
from basra.notation import (
    AmbiguousMoveError,
    CaptureNotAllowedError,
    MoveTextError,
    NotInHandError,
    parse_move,
    parse_move_text,
)
from basra.state import GameState
from basra.transition import immediate_points, play_basra
from basra.view import View

__all__ = ["MoveTextError", "hand_options", "move_error_words", "read_move"]


def hand_options(view: View) -> list[dict[str, Any]]:
    """For each card of the seat's hand: what it would take now, option by option.

    ``[{"card": "9D", "label": "9♦", "options": [{"move", "take", "basra", "points"}]}]``;
    a card that takes nothing has one option with an empty ``take`` (it is laid
    on the floor). ``points`` are the card points the option captures (the
    played card included), ``basra`` its basra points.
    """
    rules = view.rules
    floor = view.floor
    last = view.is_last_play
    out = []
    for card in cards_of(view.hand):
        options = []
        for move in generate_moves(rules, [card], floor):
            basra = play_basra(
                rules, card, move.take, floor, lone_trail=view.lone_trail, last_play=last
            )
            points = immediate_points(
                rules, card, move.take, floor, lone_trail=view.lone_trail, last_play=last
            )
            options.append(
                {
                    "move": move.text(),
                    "take": [CARD_NAMES[c] for c in cards_of(move.take)],
                    "basra": basra,
                    "points": points - basra,
                }
            )
        out.append({"card": CARD_NAMES[card], "label": card_label(card), "options": options})
    return out


def read_move(state: GameState, text: str) -> Move:
    """``text`` as a legal move of the seat to move (a bare card when it allows one move).

    Raises :class:`basra.notation.MoveTextError` (see :func:`move_error_words`)."""
    return parse_move(state, text)


def move_error_words(state: GameState, text: str) -> Words:
    """Why ``text`` is not a move of ``state``'s seat to move, in every language."""
    hand = state.hands[state.turn]
    try:
        parse_move(state, text)
    except NotInHandError:
        card, _ = parse_move_text(text)
        return words(
            "board_not_in_hand",
            card=lambda lang: card_words(card, lang),
            hand=lambda lang: cards_words(hand, lang),
        )
    except AmbiguousMoveError as exc:
        return _options_words(exc.options, "board_ambiguous")
    except CaptureNotAllowedError as exc:
        return _options_words(exc.legal, "board_not_allowed")
    except MoveTextError:
        return words("board_bad_text")
    return words("board_legal")


def _options_words(options: list[Move], key: str) -> Words:
    card = options[0].card
    listed = " / ".join(m.text() for m in options)
    return words(key, card=lambda lang: card_words(card, lang), options=listed)
