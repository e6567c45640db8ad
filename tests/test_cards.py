from __future__ import annotations

import pytest

from basra.cards import (
    PACK_44,
    SEVEN_DIAMONDS,
    CardError,
    CardSet,
    card_text,
    cards_of,
    format_cards,
    parse_card,
    parse_cards,
    value_of,
)

pytestmark = pytest.mark.engine


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7D", "7D"),
        ("7d", "7D"),
        ("10h", "10H"),
        ("Th", "10H"),
        ("t♠", "10S"),
        ("Q♠", "QS"),
        ("k♤", "KS"),
        ("a♡", "AH"),
        ("2♢", "2D"),
        ("J♣", "JC"),
        ("j♧", "JC"),
        (" 5 s ", "5S"),
    ],
)
def test_card_text_is_lenient_in_and_canonical_out(text: str, canonical: str) -> None:
    assert card_text(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["", "7", "D", "11H", "7X", "ZZ", "10", "1 0 H X", "♠7"])
def test_bad_card_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_canonical_order_is_rank_then_suit_s_h_d_c() -> None:
    cards = parse_cards("KC 2C AS AH 10D 2S JD")
    assert format_cards(cards) == "AS AH 2S 2C 10D JD KC"


def test_card_ints_and_the_44_card_pack() -> None:
    assert parse_card("7D") == SEVEN_DIAMONDS
    assert format_cards(PACK_44).split()[-1] == "JC"
    assert len(cards_of(PACK_44)) == 44
    assert [value_of(parse_card(t)) for t in ("AS", "10C", "JH", "QD", "KS")] == [1, 10, 0, 0, 0]


def test_cardset() -> None:
    hand = CardSet.parse("7D 2C ah")
    assert len(hand) == 3 and str(hand) == "AH 2C 7D"
    assert parse_card("2C") in hand and parse_card("2D") not in hand
    assert hand - CardSet.parse("2C") == CardSet.parse("AH 7D")
    assert hand.texts() == ["AH", "2C", "7D"]
