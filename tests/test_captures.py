"""What a card captures and what a basra is worth: RULES.md section D, literally."""

from __future__ import annotations

import itertools
import random

import pytest

from basra.captures import capture_options, clear_basra, equal_groups, seven_diamonds_basra
from basra.cards import JACK, QUEEN, RANK_MASKS, SEVEN_DIAMONDS, cards_of, format_cards, parse_card
from basra.query import QueryError, capture_query
from basra.rules import VARIANT_NAMES, Rules, preset

from .conftest import cards

pytestmark = pytest.mark.engine


def options(
    variant: str, floor: str, card: str, before: str = "", **rules: object
) -> list[tuple[str, int]]:
    """(take, basra) options of a query, with takes as card text."""
    out = capture_query(variant, dict(rules), floor.split(), before.split(), card)
    return [(" ".join(o["take"]), o["basra"]) for o in out]


CLEAR = ["cypriot_bastra", "egyptian", "yemeni", "ethiopian", "palestinian", "jordanian", "syrian"]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_d1_pairing_takes_all_of_a_rank(variant: str) -> None:
    assert options(variant, "7C 7S 3D 9H", "7H") == [("7S 7C", 0)]


def test_d2_combining() -> None:
    assert options("cypriot_bastra", "AC 6H 9D KS", "7S") == [("AC 6H", 0)]


@pytest.mark.parametrize(
    ("variant", "points"),
    [
        ("cypriot_bastra", 10),
        ("egyptian", 10),
        ("palestinian", 18),
        ("syrian", 18),
        ("lebanese", 0),
    ],
)
def test_d3_pairing_and_combining_clear(variant: str, points: int) -> None:
    assert options(variant, "9H 5D 4S", "9S") == [("4S 5D 9H", points)]


def test_d4_to_d6_alternatives_max_cards_then_any_maximal() -> None:
    floor = "2H AS 5S 4D"
    assert options("egyptian", floor, "3C") == [("AS 2H", 0)]
    assert options("egyptian", floor, "9C") == [("4D 5S", 0)]
    assert options("egyptian", floor, "7C") == [("AS 2H 4D", 0)]
    assert options("egyptian", floor, "7C", capture_policy="any_maximal") == [
        ("AS 2H 4D", 0),
        ("2H 5S", 0),
    ]


def test_d7_equal_size_alternatives_are_the_players_choice() -> None:
    assert options("cypriot_bastra", "2C 2H 5S", "7D") == [("2H 5S", 0), ("2C 5S", 0)]


def test_d8_another_choice() -> None:
    assert options("cypriot_bastra", "AS 2S 3S 4S", "6H") == [("AS 2S 3S", 0)]
    assert options("cypriot_bastra", "AS 2S 3S 4S", "6H", capture_policy="any_maximal") == [
        ("AS 2S 3S", 0),
        ("2S 4S", 0),
    ]


@pytest.mark.parametrize("variant", CLEAR)
def test_d9_d10_d11_clears(variant: str) -> None:
    nine = 18 if variant in ("palestinian", "syrian", "jordanian") else 10
    five = 10
    assert options(variant, "5S 4H 2D 7C", "9S") == [("2D 4H 5S 7C", nine)]
    assert options(variant, "3S 6H 5D 4C 9C", "9S") == [("3S 4C 5D 6H 9C", nine)]
    assert options(variant, "3S 2H", "5C") == [("2H 3S", five)]


@pytest.mark.parametrize(
    ("variant", "points"),
    [("cypriot_bastra", 10), ("egyptian", 10), ("lebanese", 10), ("lebanese_ashush", 10),
     ("lebanese_alefb", 10), ("palestinian", 14), ("syrian", 14), ("syrian_homsi", 14),
     ("jordanian", 14)],
)  # fmt: skip
def test_d12_lone_pair_clear(variant: str, points: int) -> None:
    assert options(variant, "7S", "7H") == [("7S", points)]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_d13_d14_a_jack_sweeps_without_a_basra_and_stays_on_an_empty_floor(variant: str) -> None:
    floor = "8S 3H 10C" if preset(variant).pack == 44 else "8S KH 3H"
    assert options(variant, floor, "JD")[0][1] == 0
    assert options(variant, floor, "JD")[0][0] == format_cards(cards(floor))
    assert options(variant, "", "JD") == [("", 0)]


@pytest.mark.parametrize(
    ("variant", "points"),
    [("cypriot_bastra", 0), ("cypriot_classic", 50), ("egyptian", 20), ("yemeni", 20),
     ("egyptian_mona_russel", 20), ("saba_alkoomi", 20), ("lebanese", 10), ("lebanese_ashush", 10),
     ("lebanese_alefb", 10), ("palestinian", 0), ("jordanian", 20), ("syrian", 25),
     ("syrian_homsi", 25), ("ethiopian", 0)],
)  # fmt: skip
def test_d15_jack_on_a_lone_jack(variant: str, points: int) -> None:
    assert options(variant, "JS", "JD") == [("JS", points)]
    assert options(variant, "JS", "JD", jack_on_lone_jack=30) == [("JS", 30)]


def test_d16_jack_on_a_lone_non_jack_is_no_basra() -> None:
    assert options("lebanese", "5S", "JD") == [("5S", 0)]
    assert options("egyptian", "5S", "JD") == [("5S", 0)]


def test_d17_seven_of_diamonds_on_a_small_numeral_floor() -> None:
    floor = "2S 3S 4S"
    assert options("egyptian", floor, "7D") == [("2S 3S 4S", 10)]
    assert options("yemeni", floor, "7D") == [("2S 3S 4S", 10)]
    assert options("ethiopian", floor, "7D") == [("2S 3S 4S", 10)]
    assert options("egyptian_mona_russel", floor, "7D") == [("2S 3S 4S", 0)]
    assert options("saba_alkoomi", floor, "7D") == [("2S 3S 4S", 0)]
    for plain in ("cypriot_bastra", "lebanese", "palestinian"):
        assert options(plain, floor, "7D") == [("3S 4S", 0)]


def test_d18_to_d24_the_seven_of_diamonds_conditions() -> None:
    table = {
        "6S 5S": {"egyptian": 0},
        "3S QS": {"egyptian": 0},
        "4S 6S": {"egyptian": 10, "yemeni": 0, "ethiopian": 10},
        "AS 2S 7S 8S": {"yemeni": 10, "ethiopian": 10, "egyptian": 0},
        "10S 4S 6S": {"ethiopian": 10, "yemeni": 0, "egyptian": 0},
        "10S KS QS": {"yemeni": 10, "egyptian": 0, "ethiopian": 0},
        "7S 7C": {"egyptian": 0, "yemeni": 10, "ethiopian": 10},
    }
    for floor, expected in table.items():
        for variant, points in expected.items():
            assert options(variant, floor, "7D") == [(format_cards(cards(floor)), points)], (
                floor,
                variant,
            )
    assert options("cypriot_bastra", "7S 7C", "7D") == [("7S 7C", 10)]


def test_d25_a_seven_of_diamonds_on_an_empty_floor_is_taken_like_any_seven() -> None:
    assert options("egyptian", "", "7D") == [("", 0)]
    assert options("egyptian", "", "7C", before="7D") == [("7D", 10)]
    assert options("egyptian", "2S", "7D") == [("2S", 10)]
    # a 9 takes 7♦ + 2 as a sum
    assert options("egyptian", "", "9C", before="7D 2S") == [("2S 7D", 10)]


def test_d26_ethiopian_lone_seven_of_diamonds() -> None:
    assert options("ethiopian", "7D", "3S") == [("7D", 10)]
    assert options("ethiopian", "7D", "QH") == [("7D", 10)]
    assert options("ethiopian", "7D", "JC") == [("7D", 0)]
    assert options("egyptian", "7D", "3S") == [("", 0)]


def test_d27_lebanese_lone_card_plus_a_trail() -> None:
    assert options("lebanese", "3S", "7C", before="4H") == [("3S 4H", 10)]
    assert options("lebanese_ashush", "3S", "7C", before="4H") == [("3S 4H", 0)]
    assert options("lebanese_alefb", "3S", "7C", before="4H") == [("3S 4H", 0)]
    assert options("cypriot_bastra", "3S", "7C", before="4H") == [("3S 4H", 10)]
    assert options("syrian", "3S", "7C", before="4H") == [("3S 4H", 14)]


def test_d28_a_two_card_floor_left_by_a_capture_is_not_lone() -> None:
    assert options("lebanese", "3S 4H KD", "7C", before="KCxKD") == [("3S 4H", 0)]
    assert options("cypriot_bastra", "3S 4H KD", "7C", before="KCxKD") == [("3S 4H", 10)]


def test_d29_d30_d31_pictures() -> None:
    assert options("egyptian", "QS QH", "QD") == [("QS QH", 10)]
    assert options("syrian", "QS QH", "QD") == [("QS QH", 6)]
    assert options("jordanian", "QS QH", "QD") == [("QS QH", 20)]
    assert options("egyptian", "QS QH 5S", "QD") == [("QS QH", 0)]
    assert options("syrian", "KS", "KD") == [("KS", 8)]
    assert options("palestinian", "10S", "10D") == [("10S", 20)]
    assert options("palestinian", "AS", "AD") == [("AS", 2)]
    assert options("egyptian", "6S 7S", "KD") == [("", 0)]


def test_lone_state_needs_a_trail_onto_a_lone_card() -> None:
    # 3 then 4 trailed: lone_plus_trail(3, 4); 2 + 5 formed otherwise is not.
    assert options("lebanese", "", "7C", before="3S 4H") == [("3S 4H", 10)]
    # a third trail breaks it: 3, 4 then A on the floor
    assert options("lebanese", "3S", "7C", before="4H AD") == [("3S 4H", 0)]
    # a capture that leaves one card makes it lone again
    assert options("lebanese", "3S 5H 5D", "3C", before="5Cx5H,5D") == [("3S", 10)]


def test_query_errors_are_clear() -> None:
    with pytest.raises(QueryError, match="appears more than once"):
        capture_query("egyptian", None, ["7S", "7S"], [], "7H")
    with pytest.raises(QueryError, match="not in the 44-card pack"):
        capture_query("palestinian", None, ["QS"], [], "7H")
    with pytest.raises(QueryError, match=r"before-play 1 .*say which"):
        capture_query("cypriot_bastra", None, ["2C", "2H", "5S"], ["7D"], "7H")
    with pytest.raises(QueryError, match=r"before-play 1 .*must take"):
        capture_query("egyptian", None, ["2S", "AH", "3D"], ["3Cx3D"], "7H")
    with pytest.raises(QueryError, match="unknown variant"):
        capture_query("martian", None, [], [], "7H")


def test_equal_groups() -> None:
    assert equal_groups((1, 2, 7, 8), 9)
    assert equal_groups((4, 5, 9), 9)
    assert equal_groups((5, 5), 9)
    assert not equal_groups((4, 6), 9)
    assert equal_groups((4, 6, 10), 10)
    assert not equal_groups((4, 6, 10), 9)
    assert not equal_groups((3,), 9)


def test_seven_diamonds_modes() -> None:
    assert seven_diamonds_basra("egyptian", cards("AS 9S"))
    assert not seven_diamonds_basra("egyptian", cards("JS 2S"))
    assert seven_diamonds_basra("yemeni", cards("10S 10H"))
    assert not seven_diamonds_basra("yemeni", cards("10S JH"))
    assert not seven_diamonds_basra("no_basra", cards("2S"))
    assert not seven_diamonds_basra("plain", cards("2S"))


# --------------------------------------------------------------- brute force


def _reference_options(rules: Rules, card: int, floor: int) -> set[int]:
    """RULES.md A5/A6 by brute force: every subset, every split into groups."""
    floor_cards = cards_of(floor)
    rank = card >> 2
    sweeps = rank == JACK or (card == SEVEN_DIAMONDS and rules.seven_diamonds != "plain")
    if sweeps or (floor == 1 << SEVEN_DIAMONDS and rules.seven_diamonds == "ethiopian"):
        return {floor}
    if rank >= QUEEN:
        return {floor & RANK_MASKS[rank]}

    def splits(rest: list[int]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        if first >> 2 == rank:
            return splits(others)
        if first >= 40:
            return False
        for size in range(1, len(others) + 1):
            for group in itertools.combinations(others, size):
                if (
                    all(c < 40 for c in group)
                    and (first >> 2) + 1 + sum((c >> 2) + 1 for c in group) == rank + 1
                    and splits([c for c in others if c not in group])
                ):
                    return True
        return False

    legal = set()
    for size in range(1, len(floor_cards) + 1):
        for subset in itertools.combinations(floor_cards, size):
            if splits(list(subset)):
                legal.add(sum(1 << c for c in subset))
    if not legal:
        return {0}
    if rules.capture_policy == "max_cards":
        best = max(m.bit_count() for m in legal)
        return {m for m in legal if m.bit_count() == best}
    return {m for m in legal if not any(o != m and o & m == m for o in legal)}


@pytest.mark.parametrize("policy", ["max_cards", "any_maximal"])
@pytest.mark.parametrize("sevens", ["plain", "egyptian", "ethiopian"])
def test_capture_options_match_a_brute_force_reference(policy: str, sevens: str) -> None:
    rules = preset("egyptian").with_overrides({"capture_policy": policy, "seven_diamonds": sevens})
    rng = random.Random(f"{policy}{sevens}")
    for _ in range(600):
        floor_cards = rng.sample(range(52), rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8]))
        played = rng.choice([c for c in range(52) if c not in floor_cards])
        floor = sum(1 << c for c in floor_cards)
        got = capture_options(rules, played, floor)
        assert set(got) == _reference_options(rules, played, floor), (format_cards(floor), played)
        assert list(got) == sorted(got, key=cards_of)
        assert len(set(got)) == len(got)


def test_only_a_whole_floor_capture_can_score() -> None:
    rules = preset("lebanese")
    assert clear_basra(rules, parse_card("7C"), cards("3S 4H"), lone_trail=True) == 10
    assert clear_basra(rules, parse_card("7C"), cards("3S 4H"), lone_trail=False) == 0
    assert clear_basra(rules, parse_card("6C"), cards("3S 3H"), lone_trail=True) == 10
    assert clear_basra(rules, parse_card("3C"), cards("3S 3H"), lone_trail=True) == 0
