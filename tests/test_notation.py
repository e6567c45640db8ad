from __future__ import annotations

import pytest

from basra.moves import Move
from basra.notation import (
    AmbiguousMoveError,
    CaptureNotAllowedError,
    InvalidMoveError,
    NotInHandError,
    parse_move,
    parse_move_text,
)
from basra.state import GameState, IllegalMoveError

from .conftest import cards

pytestmark = pytest.mark.engine


@pytest.fixture
def state() -> GameState:
    return GameState.from_position(
        "cypriot_bastra",
        floor=["2C", "2H", "5S", "KD"],
        hands=[["7D", "KS", "JH", "9C", "8S"], ["3C"]],
    )


def test_explicit_and_bare_moves(state: GameState) -> None:
    assert parse_move(state, "KS") == Move(parse_move_text("KS")[0], cards("KD"))
    assert parse_move(state, "ks x kd").text() == "KSxKD"
    assert parse_move(state, "7D x 5s, 2c").text() == "7Dx2C,5S"
    assert parse_move(state, "7♦x2♥,5♠").text() == "7Dx2H,5S"
    assert parse_move(state, "JH").text() == "JHx2H,2C,5S,KD"
    assert parse_move(state, "jh").take == cards("2C 2H 5S KD")


def test_ambiguous_bare_card_lists_the_options(state: GameState) -> None:
    with pytest.raises(AmbiguousMoveError, match="7Dx2H,5S or 7Dx2C,5S") as info:
        parse_move(state, "7D")
    assert len(info.value.options) == 2


def test_capture_not_allowed_lists_the_legal_ones(state: GameState) -> None:
    with pytest.raises(CaptureNotAllowedError, match="must take: 7Dx2H,5S or 7Dx2C,5S"):
        parse_move(state, "7Dx2C")
    with pytest.raises(CaptureNotAllowedError, match="takes nothing here"):
        parse_move(state, "8Sx2C")
    with pytest.raises(
        CaptureNotAllowedError, match="9C cannot take 2C here; it must take: 9Cx2H,2C,5S"
    ):
        parse_move(state, "9Cx2C")
    with pytest.raises(CaptureNotAllowedError, match="must take"):
        parse_move(state, "KSx5S")


def test_card_not_in_hand(state: GameState) -> None:
    with pytest.raises(NotInHandError, match="3C is not in the hand of seat 0"):
        parse_move(state, "3C")
    assert issubclass(NotInHandError, IllegalMoveError)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a move"),
        ("7", "not a move"),
        ("JDx", "must be followed by the cards taken"),
        ("7Dx7D", "names the played card"),
        ("7Dx2C,2C", "twice"),
        ("7Dx2C,,5S", "not a move"),
        ("7Dy2C", "not a move"),
        ("xx", "not a move"),
    ],
)
def test_invalid_move_text(state: GameState, text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        parse_move(state, text)


def test_no_moves_outside_a_round() -> None:
    with pytest.raises(IllegalMoveError, match="deal first"):
        parse_move(GameState(), "7D")
