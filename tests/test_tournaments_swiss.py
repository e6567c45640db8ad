"""The Swiss: points at 2, 3 and 4 seats and for teams, byes, late joins,
withdrawals, tie-breaks on literal tables, and pairing without repeats while possible."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction as F  # noqa: N817 (reads as the literal tables do)

import pytest

from basra.tournaments import Entrant, Event, EventSettings, GameResult, Member, Round
from basra.tournaments.swiss import (
    bye_points,
    game_points,
    meetings,
    pair_by_score,
    pair_swiss,
    swiss_standings,
)


def person(name: str, seed: float = 0.0) -> Entrant:
    return Entrant(name, name, (Member("person", name, name),), seed=seed)


def line(standings: list, entrant: str):  # type: ignore[no-untyped-def]
    return next(s for s in standings if s.entrant == entrant)


def game(sides: str, scores: tuple[int, ...], rnd: int, table: int, **kw: object) -> GameResult:
    return GameResult(tuple(sides), scores, round=rnd, table=table, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------- points


def test_game_points_at_two_three_and_four_seats() -> None:
    assert [game_points(game("AB", (101, 50), 1, 0), s) for s in (0, 1)] == [1, 0]
    assert [game_points(game("AB", (101, 101), 1, 0), s) for s in (0, 1)] == [F(1, 2)] * 2
    three = game("ABC", (60, 30, 30), 1, 0)
    # Second and third tie: each outscored nobody and tied one of two others.
    assert [game_points(three, s) for s in range(3)] == [1, F(1, 4), F(1, 4)]
    four = game("ABCD", (10, 40, 40, 20), 1, 0)
    points = [game_points(four, s) for s in range(4)]
    assert points == [0, F(5, 6), F(5, 6), F(1, 3)]
    assert sum(points) == 2  # every table hands out half a point an entrant


def test_a_forfeited_side_scores_nothing_and_is_beaten_by_all() -> None:
    result = game("ABC", (90, 40, 10), 1, 0, forfeited=frozenset({0}))
    assert [game_points(result, s) for s in range(3)] == [0, 1, F(1, 2)]
    both = game("AB", (90, 40), 1, 0, forfeited=frozenset({0, 1}))
    assert [game_points(both, s) for s in range(2)] == [0, 0]


def test_the_bye_is_a_win_at_two_sides_and_the_mean_at_more() -> None:
    assert bye_points(2) == 1
    assert bye_points(3) == bye_points(4) == F(1, 2)


# ----------------------------------------------------------------- tie-breaks


def four_player_round_robin() -> tuple[list[Entrant], list[Round], list[GameResult]]:
    entrants = [person(n) for n in "ABCD"]
    rounds = [
        Round(1, (("A", "B"), ("C", "D"))),
        Round(2, (("A", "C"), ("B", "D"))),
        Round(3, (("A", "D"), ("B", "C"))),
    ]
    results = [
        game("AB", (101, 50), 1, 0),  # A beats B
        game("CD", (101, 101), 1, 1),  # C and D draw
        game("AC", (104, 104), 2, 0),  # A and C draw
        game("BD", (121, 30), 2, 1),  # B beats D
        game("AD", (20, 101), 3, 0),  # D beats A
        game("BC", (110, 99), 3, 1),  # B beats C
    ]
    return entrants, rounds, results


def test_sonneborn_berger_and_buchholz_on_a_literal_table() -> None:
    entrants, rounds, results = four_player_round_robin()
    table = swiss_standings(EventSettings("swiss", rounds=3), entrants, rounds, results)
    # Scores: B 2, A 1½, D 1½, C 1.
    # Sonneborn-Berger: A = B's 2 (beaten) + C's 1 / 2 (drawn) = 2½; D = C's 1 / 2 + A's 1½ = 2.
    # Buchholz: A = 2 + 1 + 1½ = 4½; D = 1 + 2 + 1½ = 4½; B = 1½ + 1½ + 1 = 4; C = 5.
    assert [(s.entrant, s.rank, s.score, s.tie_breaks) for s in table] == [
        ("B", 1, 2, (F(5, 2), 4)),
        ("A", 2, F(3, 2), (F(5, 2), F(9, 2))),
        ("D", 3, F(3, 2), (2, F(9, 2))),
        ("C", 4, 1, (F(3, 2), 5)),
    ]
    assert line(table, "B").wins == 2 and line(table, "C").wins == 0


def test_tie_breaks_at_a_table_of_three() -> None:
    entrants = [person(n) for n in "XYZ"]
    rounds = [Round(1, (("X", "Y", "Z"),))]
    results = [game("XYZ", (60, 30, 30), 1, 0)]
    table = swiss_standings(EventSettings("swiss", rounds=1, seats=3), entrants, rounds, results)
    # Scores X 1, Y ¼, Z ¼. X beat both: SB = (1·¼ + 1·¼) / 2, Buchholz = (¼ + ¼) / 2.
    # Y lost to X and tied Z: SB = (0·1 + ½·¼) / 2, Buchholz = (1 + ¼) / 2.
    assert [(s.entrant, s.rank, s.score, s.tie_breaks) for s in table] == [
        ("X", 1, 1, (F(1, 4), F(1, 4))),
        ("Y", 2, F(1, 4), (F(1, 16), F(5, 8))),
        ("Z", 2, F(1, 4), (F(1, 16), F(5, 8))),
    ]


def test_entrants_equal_on_everything_share_a_place() -> None:
    entrants = [person(n) for n in "AB"]
    rounds = [Round(1, (("A", "B"),))]
    table = swiss_standings(
        EventSettings("swiss", rounds=1), entrants, rounds, [game("AB", (50, 50), 1, 0)]
    )
    assert [(s.entrant, s.rank) for s in table] == [("A", 1), ("B", 1)]


# ---------------------------------------------------------------------- byes


def test_an_odd_field_gives_the_lowest_seed_a_bye_worth_a_win() -> None:
    entrants = [
        person(n, seed) for n, seed in zip("ABCDE", (1900, 1800, 1700, 1600, 1500), strict=True)
    ]
    settings = EventSettings("swiss", rounds=3)
    first = pair_swiss(settings, entrants, [], [])
    # Round 1 by seed, the top half against the bottom half; the lowest seed sits out.
    assert first == Round(1, (("A", "C"), ("B", "D")), ("E",))
    results = [game("AC", (101, 20), 1, 0), game("BD", (30, 101), 1, 1)]
    table = swiss_standings(settings, entrants, [first], results)
    assert [(s.entrant, s.score, s.byes) for s in table] == [
        ("A", 1, 0),
        ("D", 1, 0),
        ("E", 1, 1),
        ("B", 0, 0),
        ("C", 0, 0),
    ]
    assert line(table, "E").sheet[0].kind == "bye"
    # Byes add nothing to the tie-breaks.
    assert line(table, "E").tie_breaks == (0, 0)


def test_nobody_gets_a_second_bye_while_another_has_had_none() -> None:
    settings = EventSettings("swiss", rounds=5)
    entrants = [person(n) for n in "ABCDE"]
    event = Event("bye", settings, tuple(entrants)).start()
    rng = random.Random(5)
    for _ in range(5):
        event = event.pair_next_round()
        paired = event.rounds[-1]
        for t, table in enumerate(paired.tables):
            event = event.record(game("".join(table), (rng.randint(0, 120), 60), paired.number, t))
    assert sorted(b for r in event.rounds for b in r.byes) == list("ABCDE")


def test_byes_at_three_and_four_seats_are_the_remainder_worth_a_half() -> None:
    three = [person(n) for n in "ABCDEFG"]
    paired = pair_by_score(1, three, [], lambda e: F(0), 3)
    assert len(paired.tables) == 2 and len(paired.byes) == 1
    four = [person(n) for n in "ABCDEFG"]
    paired = pair_by_score(1, four, [], lambda e: F(0), 4)
    assert len(paired.tables) == 1 and paired.byes == ("G", "F", "E")
    table = swiss_standings(EventSettings("swiss", rounds=2, seats=4), four, [paired], [])
    assert line(table, "E").score == F(1, 2)


def test_first_round_bands_at_three_seats() -> None:
    entrants = [person(n, -i) for i, n in enumerate("ABCDEF")]
    paired = pair_by_score(1, entrants, [], lambda e: F(0), 3)
    assert paired.tables == (("A", "C", "E"), ("B", "D", "F"))


# --------------------------------------------------- late joins, withdrawals


def test_late_join_gets_a_half_once_and_closes_after_half_the_rounds() -> None:
    settings = EventSettings("swiss", rounds=5)
    event = Event("late", settings)
    for n in "ABCD":
        event = event.join(person(n))
    event = event.start()
    for number in (1, 2):
        event = event.pair_next_round()
        for t, table in enumerate(event.rounds[-1].tables):
            event = event.record(game("".join(table), (101, 40), number, t))
    event = event.join(person("L"))  # two rounds of five paired: still open
    assert event.entrant("L").joined_round == 2
    assert line(event.standings(), "L").sheet[0].kind == "late"
    assert line(event.standings(), "L").score == F(1, 2)
    event = event.pair_next_round()
    assert "L" in event.rounds[-1].entrants()
    with pytest.raises(ValueError, match="more than half of the rounds") as caught:
        event.join(person("M"))
    assert caught.value.code == "too_late"  # type: ignore[attr-defined]


def test_a_withdrawn_entrant_is_not_paired_scores_nothing_and_can_come_back() -> None:
    settings = EventSettings("swiss", rounds=3)
    event = Event("w", settings, tuple(person(n) for n in "ABCD")).start().pair_next_round()
    for t, table in enumerate(event.rounds[0].tables):
        event = event.record(game("".join(table), (101, 40), 1, t))
    event = event.withdraw("D").pair_next_round()
    assert "D" not in event.rounds[1].entrants()
    assert len(event.rounds[1].byes) == 1  # three left: one sits out
    for t, table in enumerate(event.rounds[1].tables):
        event = event.record(game("".join(table), (101, 40), 2, t))
    d_line = line(event.standings(), "D")
    assert d_line.withdrawn and [e.kind for e in d_line.sheet] == ["game", "absent"]
    event = event.come_back("D").pair_next_round()
    assert "D" in event.rounds[2].entrants()
    # Its first game still counts for its opponent's tie-breaks.
    assert line(event.standings(), "D").games == 1


# ----------------------------------------------------------------- pairing


def test_later_rounds_pair_by_score_and_avoid_a_rematch() -> None:
    entrants = [person(n) for n in "ABCD"]
    rounds = [Round(1, (("A", "B"), ("C", "D")))]
    results = [game("AB", (101, 40), 1, 0), game("CD", (101, 40), 1, 1)]
    paired = pair_swiss(EventSettings("swiss", rounds=3), entrants, rounds, results)
    # The winners meet, the losers meet.
    assert paired.tables == (("A", "C"), ("B", "D"))
    rounds.append(paired)
    results += [game("AC", (101, 40), 2, 0), game("BD", (101, 40), 2, 1)]
    third = pair_swiss(EventSettings("swiss", rounds=3), entrants, rounds, results)
    # A has met B and C; B and C (1 point each, B entered first) have not met.
    assert third.tables == (("A", "D"), ("B", "C"))


def repeat_free_exists(field: list[str], size: int, met: Counter[frozenset[str]]) -> bool:
    """Brute force: can ``field`` sit at tables of ``size`` with no pair that has met?"""
    if not field:
        return True
    first, rest = field[0], field[1:]
    for chosen in itertools.combinations(rest, size - 1):
        table = (first, *chosen)
        if any(met[frozenset(pair)] for pair in itertools.combinations(table, 2)):
            continue
        if repeat_free_exists([e for e in rest if e not in chosen], size, met):
            return True
    return False


@pytest.mark.parametrize(
    ("seats", "teams", "field", "rounds"),
    [(2, False, 8, 7), (2, False, 7, 7), (2, False, 6, 5), (3, False, 9, 4), (4, False, 8, 3),
     (4, True, 6, 5)],
)  # fmt: skip
def test_no_repeated_meeting_while_one_can_be_avoided(
    seats: int, teams: bool, field: int, rounds: int
) -> None:
    settings = EventSettings("swiss", rounds=rounds, seats=seats, teams=teams)
    names = [f"p{i}" for i in range(field)]
    for trial in range(4):
        rng = random.Random(trial)
        members = 2 if teams else 1
        event = Event(
            "r",
            settings,
            tuple(
                Entrant(n, n, tuple(Member("person", f"{n}.{m}", n) for m in range(members)))
                for n in names
            ),
        ).start()
        for _ in range(rounds):
            before = meetings(event.rounds)
            event = event.pair_next_round()
            paired = event.rounds[-1]
            repeats = sum(
                before[frozenset(pair)]
                for table in paired.tables
                for pair in itertools.combinations(table, 2)
            )
            if repeats:
                # Every allowed choice of byes (fewest byes so far) leaves no repeat-free seating.
                byes = Counter(b for r in event.rounds[:-1] for b in r.byes)
                extra = field % settings.sides
                fewest = sorted(byes[n] for n in names)[extra - 1] if extra else 0
                must = [n for n in names if byes[n] < fewest]
                may = [n for n in names if byes[n] == fewest]
                for chosen in itertools.combinations(may, extra - len(must)):
                    rest = [n for n in names if n not in must and n not in chosen]
                    assert not repeat_free_exists(rest, settings.sides, before)
            for t, table in enumerate(paired.tables):
                scores = tuple(rng.randint(0, 3) * 30 for _ in table)
                event = event.record(GameResult(table, scores, round=paired.number, table=t))
        assert len(event.standings()) == field


def test_teams_are_paired_and_scored_as_one_side() -> None:
    settings = EventSettings("swiss", rounds=2, seats=4, teams=True)
    teams = [
        Entrant(t, t, (Member("person", f"{t}1", f"{t}1"), Member("person", f"{t}2", f"{t}2")))
        for t in "WXYZ"
    ]
    event = Event("teams", settings, tuple(teams)).start().pair_next_round()
    assert event.rounds[0].tables == (("W", "Y"), ("X", "Z"))
    event = event.record(GameResult(("W", "Y"), (101, 70), round=1, table=0))
    with pytest.raises(ValueError, match="2 sides"):
        event.record(GameResult(("X", "Z", "W", "Y"), (1, 2, 3, 4), round=1, table=1))
    assert line(event.standings(), "W").score == 1
