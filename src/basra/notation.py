"""Move text in a position (RECORD.md): parsing with precise, distinct errors.

``move := CARD [ "x" CARD { "," CARD } ]``. A bare card is a trail, or the one
capture it allows; when it allows several, it is ambiguous. The canonical text
of a move is :meth:`basra.moves.Move.text`.

>>> from basra.state import GameState
>>> state = GameState.from_position("egyptian", floor="2H AS 5S 4D".split(),
...                                 hands=[["7C", "KD"], ["3C"]])
>>> parse_move(state, "7cx4d,as,2h").text()
'7CxAS,2H,4D'
>>> parse_move(state, "KD").text()
'KD'
>>> parse_move(state, "7Cx2H,5S")
Traceback (most recent call last):
...
basra.notation.CaptureNotAllowedError: 7C cannot take 2H 5S here; it must take: 7CxAS,2H,4D
"""

from __future__ import annotations

from typing import Any

from basra.captures import capture_options
from basra.cards import CARD_NAMES, Card, CardError, format_cards, parse_card
from basra.moves import Move
from basra.state import PHASE_PLAY, GameState, IllegalMoveError

__all__ = [
    "AmbiguousMoveError",
    "CaptureNotAllowedError",
    "InvalidMoveError",
    "MoveTextError",
    "NotInHandError",
    "move_error_details",
    "parse_move",
    "parse_move_text",
    "select_move",
]


class MoveTextError(ValueError):
    """Base class of the errors of reading move text in a position."""


class InvalidMoveError(MoveTextError):
    """Text that is not move text (bad syntax, bad card, a card named twice ...)."""


class NotInHandError(MoveTextError, IllegalMoveError):
    """The played card is not in the hand of the player to move."""


class CaptureNotAllowedError(MoveTextError, IllegalMoveError):
    """The capture set named is not one the rules allow; ``legal`` lists those that are."""

    def __init__(self, message: str, legal: list[Move]) -> None:
        super().__init__(message)
        self.legal = legal


class AmbiguousMoveError(MoveTextError):
    """A bare card that allows several capture sets; ``options`` lists them."""

    def __init__(self, message: str, options: list[Move]) -> None:
        super().__init__(message)
        self.options = options


def move_error_details(exc: MoveTextError) -> dict[str, Any]:
    """Why move text was refused, for a client to act on (the web table's and the offline
    table's ``bad_move`` errors): ``reason`` (``ambiguous`` or ``capture_not_allowed``
    with the ``options`` to choose from, ``not_in_hand``, ``invalid``; ``illegal`` for
    any other refusal), the move texts as strings."""
    if isinstance(exc, AmbiguousMoveError):
        return {"reason": "ambiguous", "options": [m.text() for m in exc.options]}
    if isinstance(exc, CaptureNotAllowedError):
        return {"reason": "capture_not_allowed", "options": [m.text() for m in exc.legal]}
    if isinstance(exc, NotInHandError):
        return {"reason": "not_in_hand"}
    if isinstance(exc, InvalidMoveError):
        return {"reason": "invalid"}
    return {"reason": "illegal"}


def parse_move_text(text: str) -> tuple[Card, list[Card] | None]:
    """Read move text without a position: the card, and the take list (``None`` if bare).

    >>> parse_move_text(" 7s X 2c, ah ")
    (24, [7, 1])
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text like '7S' or '7Sx2C,AH', not {text!r}")
    head, sep, tail = text.strip().replace("X", "x").partition("x")
    try:
        card = parse_card(head)
    except CardError as exc:
        raise InvalidMoveError(f"{text!r} is not a move: {exc}") from None
    if not sep:
        return card, None
    items = [item.strip() for item in tail.split(",")]
    if not any(items):
        raise InvalidMoveError(
            f"{text!r} is not a move: 'x' must be followed by the cards taken "
            f"(a card that takes nothing is written {CARD_NAMES[card]})"
        )
    taken: list[Card] = []
    for item in items:
        try:
            taken_card = parse_card(item)
        except CardError as exc:
            raise InvalidMoveError(f"{text!r} is not a move: {exc}") from None
        if taken_card == card:
            raise InvalidMoveError(
                f"{text!r} is not a move: the take list names the played card {CARD_NAMES[card]}"
            )
        if taken_card in taken:
            raise InvalidMoveError(
                f"{text!r} is not a move: it names {CARD_NAMES[taken_card]} twice"
            )
        taken.append(taken_card)
    return card, taken


def parse_move(state: GameState, text: str) -> Move:
    """Read move text as a legal move of the player to move in ``state``.

    Raises :class:`InvalidMoveError`, :class:`NotInHandError`,
    :class:`CaptureNotAllowedError` or :class:`AmbiguousMoveError`, and
    :class:`basra.state.IllegalMoveError` when no round is being played.
    """
    card, taken = parse_move_text(text)
    if state.phase != PHASE_PLAY:
        raise IllegalMoveError(
            "the game is over" if state.is_over else "no round is being played: deal first"
        )
    hand = state.hands[state.turn]
    if not hand >> card & 1:
        raise NotInHandError(
            f"{CARD_NAMES[card]} is not in the hand of seat {state.turn} ({format_cards(hand)})"
        )
    options = [Move(card, take) for take in capture_options(state.rules, card, state.floor)]
    return select_move(card, taken, options)


def select_move(card: Card, taken: list[Card] | None, options: list[Move]) -> Move:
    """The move of ``options`` (every legal move of ``card``) that ``taken`` names.

    ``taken`` is ``None`` for a bare card: a trail, or the one capture allowed.
    Raises :class:`AmbiguousMoveError` or :class:`CaptureNotAllowedError`.
    """
    if taken is None:
        if len(options) == 1:
            return options[0]
        raise AmbiguousMoveError(
            f"{CARD_NAMES[card]} can take different cards here; say which: "
            + " or ".join(m.text() for m in options),
            options,
        )
    mask = 0
    for c in taken:
        mask |= 1 << c
    for move in options:
        if move.take == mask:
            return move
    if not options[0].take:
        message = f"{CARD_NAMES[card]} takes nothing here: play it as {CARD_NAMES[card]}"
    else:
        message = (
            f"{CARD_NAMES[card]} cannot take {format_cards(mask)} here; it must take: "
            + " or ".join(m.text() for m in options)
        )
    raise CaptureNotAllowedError(message, options)
