"""The game state: the canonical deal, turns, later deals, round end, scoring, game end."""

from __future__ import annotations

import random

import pytest

from basra.cards import card_text, cards_of, format_cards, pack_mask, parse_card, parse_cards
from basra.moves import Move
from basra.rules import preset
from basra.state import DealError, GameState, IllegalMoveError, SetupError, shuffled_pack

from .conftest import TABLES, cards, random_game

pytestmark = pytest.mark.engine


def pack_with_floor(
    floor: str, hands: list[str], rest_first: str = "", players: int = 2, variant: str = "egyptian"
) -> list[int]:
    """A pack whose first deal gives these hands (in turn order from the first player) and floor."""
    top = [c for h in hands for c in parse_cards(h)] + parse_cards(floor) + parse_cards(rest_first)
    rest = [c for c in cards_of(pack_mask(preset(variant).pack)) if c not in top]
    return top + rest


def test_first_deal_batches_in_turn_order_from_the_first_player() -> None:
    state = GameState("cypriot_bastra", 3, first_dealer=1)
    pack = pack_with_floor("5S 6S 8S 9S", ["AS AH AD AC", "2S 2H 2D 2C", "3S 3H 3D 3C"], players=3)
    state.deal(pack)
    assert state.dealer == 1 and state.first_player == 2 and state.turn == 2
    assert format_cards(state.hands[2]) == "AS AH AD AC"
    assert format_cards(state.hands[0]) == "2S 2H 2D 2C"
    assert format_cards(state.hands[1]) == "3S 3H 3D 3C"
    assert format_cards(state.floor) == "5S 6S 8S 9S"
    assert state.stock_size == 52 - 16


def test_burying_replaces_floor_cards_from_the_top_and_puts_them_at_the_bottom() -> None:
    state = GameState("egyptian", 2)
    # floor JS 5S 7D 9S; the stock starts 3C JH 4C: JS -> 3C, 7D -> JH -> 4C
    pack = pack_with_floor("JS 5S 7D 9S", ["AS AH AD AC", "2S 2H 2D 2C"], rest_first="3C JH 4C")
    state.deal(pack)
    log = state.rounds[-1]
    assert [card_text(c) for c in log.initial_floor] == ["JS", "5S", "7D", "9S"]
    assert [card_text(c) for c in log.buried] == ["JS", "7D", "JH"]
    assert format_cards(state.floor) == "3C 4C 5S 9S"
    assert [card_text(c) for c in state.stock[-3:]] == ["JS", "7D", "JH"]
    # jacks only in the Bastra family: the 7♦ stays
    plain = GameState("cypriot_bastra", 2)
    plain.deal(pack)
    assert format_cards(plain.floor) == "3C 5S 7D 9S"


def test_buried_cards_reach_the_dealer_in_the_last_deal() -> None:
    state = GameState("egyptian", 2, first_dealer=0)
    pack = pack_with_floor("JS 5S 6S 9S", ["AS AH AD AC", "2S 2H 2D 2C"])
    state.deal(pack)
    while state.stock_size:
        state.push(state.legal_moves()[0])
    assert state.hands[0] >> parse_card("JS") & 1  # seat 0 deals and is served last


@pytest.mark.parametrize(
    ("variant", "players", "hand_size", "floor", "deals"),
    [
        ("egyptian", 2, 4, 4, [4] * 6),
        ("egyptian", 3, 4, 4, [4] * 4),
        ("egyptian", 4, 4, 4, [4] * 3),
        ("lebanese", 2, 6, 4, [6] * 4),
        ("lebanese", 4, 6, 4, [6] * 2),
        ("lebanese", 3, 6, 4, [6, 6, 4]),
        ("palestinian", 2, 4, 4, [4] * 5),
        ("palestinian", 3, 4, 5, [4, 4, 4, 1]),
        ("palestinian", 4, 4, 4, [4, 4, 2]),
        ("palestinian", 4, 5, 4, [5, 5]),
    ],
)
def test_deal_schedule(
    variant: str, players: int, hand_size: int, floor: int, deals: list[int]
) -> None:
    state = GameState(variant, players, rules={"hand_size": hand_size})
    state.deal(rng=random.Random(5))
    assert state.floor.bit_count() == floor
    seen = [state.hands[state.turn].bit_count()]
    while state.phase == "play":
        before = state.stock_size
        state.push(state.legal_moves()[0])
        if state.stock_size != before:
            seen.append(state.hands[state.first_player].bit_count())
    assert seen == deals


def test_a_played_card_must_capture_if_it_can_but_any_card_may_be_played() -> None:
    state = GameState.from_position(
        "cypriot_bastra", floor=["4S", "KS"], hands=[["4H", "9C"], ["2D"]]
    )
    assert [m.text() for m in state.legal_moves()] == ["4Hx4S", "9C"]
    with pytest.raises(IllegalMoveError, match="is not allowed on floor 4S KS: play 4Hx4S"):
        state.play(Move(parse_card("4H"), 0))


def test_a_move_is_a_capture_when_it_takes_floor_cards() -> None:
    """``Move.is_capture`` (public, beside ``taken``): a trail takes nothing, a capture its
    cards; the jack sweeping the floor is a capture too."""
    state = GameState.from_position(
        "egyptian", floor=["4S", "KS"], hands=[["4H", "9C", "JD"], ["2D"]]
    )
    moves = {m.text(): m for m in state.legal_moves()}
    assert {text: m.is_capture for text, m in moves.items()} == {
        "4Hx4S": True,
        "9C": False,
        "JDx4S,KS": True,
    }
    assert all(m.is_capture == bool(m.taken()) for m in moves.values())
    assert not Move(parse_card("9C")).is_capture


def test_push_and_pop() -> None:
    state = GameState("egyptian")
    state.deal(rng=random.Random(11))
    before = state.fingerprint()
    history = []
    while state.phase == "play":
        move = state.legal_moves()[-1]
        history.append(move)
        state.push(move)
    assert state.rounds[-1].result is not None
    for move in reversed(history):
        assert state.pop() == move
    assert state.fingerprint() == before
    with pytest.raises(IndexError):
        state.pop()


def test_leftovers_go_to_the_last_capturer_and_are_no_basra() -> None:
    state = GameState.from_position(
        "egyptian",
        floor=["5S", "8S"],
        hands=[["KS"], ["QH"]],
        captured=[["2C"], []],
        last_capture_side=1,
    )
    state.push(state.legal_moves()[0])
    state.push(state.legal_moves()[0])
    result = state.rounds[-1].result
    assert result is not None
    assert result.last_capture_side == 1
    assert result.cards == (1, 4) and result.basras == (0, 0)


def test_basra_on_the_last_play_counts_unless_switched_off() -> None:
    for flag, expected in ((True, 10), (False, 0)):
        state = GameState.from_position(
            "egyptian",
            floor=["2S", "4S"],
            hands=[["6C"], []],
            rules={"basra_on_last_play": flag},
        )
        state.push(state.legal_moves()[0])
        assert state.rounds[-1].plays[-1].basra == expected
        assert state.rounds[-1].result is not None
        assert state.rounds[-1].result.basra_points[0] == expected


POINT_CARDS = cards("AS AH AD AC JS JH JD JC 2C 10D")  # 13 points in the standard table


def _finish_round(state: GameState, side0: int, side1: int) -> None:
    """Score a round in which the sides took exactly these card masks (side 1 last).

    One card of side 1 is left in seat 0's hand and trailed as the last play, so
    it reaches side 1 as a leftover.
    """
    last = cards_of(side1)[-1]
    position = GameState.from_position(
        state.variant,
        floor=[],
        hands=[[last], []],
        captured=[cards_of(side0), cards_of(side1 & ~(1 << last))],
        last_capture_side=1,
        scores=state.scores,
        carry=state.carry,
        rules=state.rules,
    )
    position.push(position.legal_moves()[0])
    state.scores, state.carry = position.scores, position.carry
    state.rounds.append(position.rounds[-1])
    state.phase, state._outcome = position.phase, position.outcome()


def _split(count0: int, pack: int = 52) -> tuple[int, int]:
    """Side 0 takes ``count0`` cards without points, side 1 the rest (13 points)."""
    plain = [c for c in range(pack) if not POINT_CARDS >> c & 1]
    side0 = sum(1 << c for c in plain[:count0])
    return side0, pack_mask(pack) & ~side0


def test_egyptian_majority_abeyance_accumulates() -> None:
    state = GameState("egyptian", 2)
    _finish_round(state, *_split(26))
    assert state.rounds[-1].result.majority == (0, 0) and state.carry == 30  # type: ignore[union-attr]
    assert state.scores == [0, 13]
    _finish_round(state, *_split(26))
    assert state.carry == 60
    _finish_round(state, *_split(29))
    assert state.rounds[-1].result.majority == (90, 0) and state.carry == 0  # type: ignore[union-attr]
    assert state.scores == [90, 39]


@pytest.mark.parametrize(
    ("variant", "majority"),
    [("cypriot_bastra", (3, 3)), ("lebanese", (0, 0)), ("palestinian", (0, 0))],
)
def test_tied_majority_each_or_none(variant: str, majority: tuple[int, int]) -> None:
    state = GameState(variant, 2)
    pack = preset(variant).pack
    _finish_round(state, *_split(pack // 2, pack))
    assert state.rounds[-1].result.majority == majority  # type: ignore[union-attr]
    assert state.carry == 0


def test_end_of_game_needs_a_unique_leader_at_or_over_the_target() -> None:
    state = GameState("egyptian", 2)
    state.scores = [104, 96]
    _finish_round(state, *_split(26))  # 26-26, side 1 takes 13 points
    assert state.scores == [104, 109]
    assert state.is_over and state.outcome().winner == 1  # type: ignore[union-attr]

    state = GameState("egyptian", 2)
    state.scores = [105, 92]
    _finish_round(state, *_split(26))
    assert state.scores == [105, 105] and not state.is_over and state.phase == "deal"


def test_draw_when_end_tie_is_draw() -> None:
    state = GameState("egyptian", 2, rules={"end_tie": "draw"})
    state.scores = [105, 92]
    _finish_round(state, *_split(26))
    assert state.is_over and state.outcome().is_draw  # type: ignore[union-attr]


def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="players must be 2, 3 or 4"):
        GameState("egyptian", 5)
    with pytest.raises(SetupError, match="teams need 4 players"):
        GameState("egyptian", 2, teams=True)
    with pytest.raises(SetupError, match="first_dealer"):
        GameState("egyptian", 2, first_dealer=2)
    with pytest.raises(SetupError, match="unknown variant"):
        GameState("klaverjas")
    with pytest.raises(SetupError, match="unknown setting"):
        GameState("egyptian", rules={"speed": 3})


def test_deal_errors() -> None:
    state = GameState("palestinian")
    with pytest.raises(DealError, match="not in the 44-card pack"):
        state.deal(cards_of(pack_mask(52)))
    with pytest.raises(DealError, match="twice"):
        state.deal([0] * 44)
    with pytest.raises(DealError, match="missing"):
        state.deal(list(range(43)))
    with pytest.raises(DealError, match="bad card"):
        state.deal(["ZZ"] * 44)
    state.deal(rng=random.Random(1))
    with pytest.raises(DealError, match="a round is being played"):
        state.deal(rng=random.Random(1))


def test_shuffled_pack_is_a_permutation_and_seeded() -> None:
    rules = preset("egyptian")
    a = shuffled_pack(rules, random.Random(9))
    assert sorted(a) == list(range(52))
    assert a == shuffled_pack(rules, random.Random(9)) != shuffled_pack(rules, random.Random(10))


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_random_games_end_with_every_card_in_one_pile(
    variant: str, players: int, teams: bool
) -> None:
    state = random_game(variant, players, teams, seed=3)
    assert state.is_over
    total = [0] * len(state.sides)
    for rnd in state.rounds:
        assert rnd.result is not None
        assert sum(rnd.result.cards) == preset(variant).pack
        total = [t + p for t, p in zip(total, rnd.result.points, strict=True)]
    assert total == state.scores


def test_copy_is_independent() -> None:
    state = random_game("lebanese", 2, seed=2, stop_after=10)
    twin = state.copy()
    twin.push(twin.legal_moves()[0])
    assert twin.fingerprint() != state.fingerprint()
    twin.pop()
    assert twin.fingerprint() == state.fingerprint()


def test_from_position_checks_cards() -> None:
    with pytest.raises(SetupError, match="twice"):
        GameState.from_position("egyptian", floor=["2S"], hands=[["2S"], []])
    with pytest.raises(SetupError, match="44-card pack"):
        GameState.from_position("palestinian", floor=["QS"], hands=[["2S"], []])
    assert (
        cards("2S") == GameState.from_position("egyptian", floor=["2S"], hands=[["3S"], []]).floor
    )
