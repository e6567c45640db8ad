"""The arena: points at 2, 3 and 4 seats and for teams, the streak's doubling,
forfeits, tie-breaks, and pairing near in score without an immediate rematch."""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817 (reads as the literal tables do)

import pytest

from basra.tournaments import Entrant, Event, EventSettings, GameResult, Member, Waiting
from basra.tournaments.arena import arena_line, arena_standings, pair_arena

ARENA = EventSettings("arena", minutes=60)


def person(name: str, seed: float = 0.0) -> Entrant:
    return Entrant(name, name, (Member("person", name, name),), seed=seed)


def played(sides: str, scores: tuple[int, ...], at: float, **kw: object) -> GameResult:
    return GameResult(tuple(sides), scores, finished_at=at, **kw)  # type: ignore[arg-type]


def test_two_wins_in_a_row_set_the_fire_and_double_until_a_game_is_not_won() -> None:
    # A's games: win, win, win (doubled), draw (doubled, fire out), win, win, loss
    # (doubled: still nothing), win.
    results = [
        played("AB", (101, 40), 1),
        played("AC", (101, 40), 2),
        played("AB", (101, 40), 3),
        played("AC", (101, 101), 4),
        played("AB", (101, 40), 5),
        played("AC", (101, 40), 6),
        played("AB", (40, 101), 7),
        played("AC", (101, 40), 8),
    ]
    line = arena_line("A", results)
    assert [(e.kind, int(e.points)) for e in line.sheet] == [
        ("game", 2),
        ("game", 2),
        ("double", 4),
        ("double", 2),
        ("game", 2),
        ("game", 2),
        ("double", 0),
        ("game", 2),
    ]
    assert line.score == 16 and line.wins == 6 and not line.fire
    assert arena_line("A", results[:2]).fire
    # B: loss, loss, win... one win is no streak.
    assert [int(e.points) for e in arena_line("B", results).sheet] == [0, 0, 0, 2]


def test_the_order_of_games_is_when_they_finished() -> None:
    late_first = [played("AB", (40, 101), 3), played("AB", (101, 40), 1), played("AC", (101, 0), 2)]
    # In time order: win, win, loss (doubled, still 0).
    assert [int(e.points) for e in arena_line("A", late_first).sheet] == [2, 2, 0]


def test_points_at_three_and_four_seats() -> None:
    three = played("ABC", (60, 30, 10), 1)
    tie = played("ABC", (60, 60, 10), 2)
    assert [int(arena_line(e, [three]).score) for e in "ABC"] == [4, 2, 0]
    assert [int(arena_line(e, [tie]).score) for e in "ABC"] == [3, 3, 0]
    # Sharing the top is not a win: no streak starts.
    assert arena_line("A", [tie]).wins == 0
    four = played("ABCD", (10, 40, 40, 20), 1)
    assert [int(arena_line(e, [four]).score) for e in "ABCD"] == [0, 5, 5, 2]
    # Finishing alone on top of four three times: 6, 6, then 12.
    wins = [played("ABCD", (90, 40, 30, 20), t) for t in (1, 2, 3)]
    assert [int(e.points) for e in arena_line("A", wins).sheet] == [6, 6, 12]


def test_a_forfeit_scores_nothing_and_ends_the_streak() -> None:
    results = [
        played("AB", (101, 40), 1),
        played("AB", (101, 40), 2),
        played("AB", (120, 40), 3, forfeited=frozenset({0})),
        played("AB", (101, 40), 4),
    ]
    assert [int(e.points) for e in arena_line("A", results).sheet] == [2, 2, 0, 2]
    assert [int(e.points) for e in arena_line("B", results).sheet] == [0, 0, 2, 0]


def test_teams_score_as_a_two_sided_game() -> None:
    settings = EventSettings("arena", minutes=60, seats=4, teams=True)
    teams = [
        Entrant(t, t, (Member("person", f"{t}1", "x"), Member("person", f"{t}2", "y")))
        for t in "WX"
    ]
    table = arena_standings(settings, teams, [played("WX", (101, 90), 1)])
    assert [(s.entrant, int(s.score), s.wins) for s in table] == [("W", 2, 1), ("X", 0, 0)]


def test_tie_breaks_fewer_games_then_who_got_there_first() -> None:
    entrants = [person(n) for n in "ABCD"]
    results = [
        played("AB", (101, 40), 1),  # A 2
        played("CD", (101, 101), 2),  # C 1, D 1
        played("CD", (101, 101), 3),  # C 2, D 2 (in two games)
        played("AB", (0, 0), 4, forfeited=frozenset({0, 1})),  # A still 2, in two games
    ]
    table = arena_standings(ARENA, entrants, results)
    # A, C and D have 2 points in 2 games; A reached them first (at 1), C and D at 3.
    assert [(s.entrant, s.rank, int(s.score), s.games) for s in table] == [
        ("A", 1, 2, 2),
        ("C", 2, 2, 2),
        ("D", 2, 2, 2),
        ("B", 4, 0, 2),
    ]
    assert table[0].tie_breaks == (2, 1)
    fewer = arena_standings(ARENA, entrants, [*results, played("AB", (0, 0), 5)])
    # One more game (a draw: 1 point) for A and B.
    assert [(s.entrant, int(s.score)) for s in fewer][:3] == [("A", 3), ("C", 2), ("D", 2)]


# -------------------------------------------------------------------- pairing


def waiting(names: str | list[str], since: float = 0.0) -> list[Waiting]:
    return [Waiting(n, since) for n in names]


def test_the_waiting_are_paired_with_the_nearest_in_score() -> None:
    entrants = [person(n) for n in "ABCDEF"]
    results = [
        played("AE", (101, 0), 1),
        played("BF", (101, 0), 2),
        played("CA", (0, 101), 3),
        played("DE", (101, 50), 4),
    ]
    # Ranks: A 4 points; B and D 2 in one game (B first); C and F 0 in one game; E 0 in two.
    tables = pair_arena(ARENA, entrants, results, waiting("ABCDEF"), now=5)
    assert tables == [("A", "B"), ("D", "C"), ("F", "E")]


def test_at_the_start_the_level_field_is_paired_by_seed() -> None:
    entrants = [person("low", 1200), person("top", 2000), person("mid", 1500), person("hi", 1900)]
    tables = pair_arena(ARENA, entrants, [], waiting(["low", "top", "mid", "hi"]), now=0)
    assert tables == [("top", "hi"), ("mid", "low")]


def test_no_immediate_rematch_while_another_table_can_be_made() -> None:
    entrants = [person(n) for n in "ABCD"]
    results = [played("AB", (101, 40), 1), played("CD", (101, 40), 2)]
    # Ranked A, C (2 points), B, D: A and C have not just met, nor B and D.
    assert pair_arena(ARENA, entrants, results, waiting("ABCD"), now=3) == [("A", "C"), ("B", "D")]
    results.append(played("AC", (101, 40), 3))
    results.append(played("BD", (101, 40), 4))
    # Ranked A 4 (on fire), C 2 and B 2 in two games each (C scored first), D 0:
    # A-C and B-D just met, so A sits with the next nearest, B.
    assert pair_arena(ARENA, entrants, results, waiting("ABCD"), now=5) == [("A", "B"), ("C", "D")]


def test_an_immediate_rematch_waits_until_both_have_waited_long_enough() -> None:
    entrants = [person(n) for n in "ABCD"]
    results = [played("AB", (101, 40), 1)]
    assert pair_arena(ARENA, entrants, results, waiting("AB", since=1), now=3) == []
    assert pair_arena(ARENA, entrants, results, waiting("AB", since=1), now=11) == [("A", "B")]
    # With only the two of them in the event, nobody else can come: they play at once.
    pair = [person("A"), person("B")]
    assert pair_arena(ARENA, pair, results, waiting("AB", since=1), now=2) == [("A", "B")]


def test_the_latest_to_arrive_waits_when_tables_are_not_full() -> None:
    entrants = [person(n) for n in "ABCDE"]
    queue = [Waiting("A", 1), Waiting("B", 2), Waiting("C", 9), Waiting("D", 3), Waiting("E", 4)]
    tables = pair_arena(ARENA, entrants, [], queue, now=10)
    assert tables == [("A", "B"), ("D", "E")]
    four = EventSettings("arena", minutes=30, seats=4)
    field = [person(f"p{i}") for i in range(9)]
    queue = [Waiting(f"p{i}", float(i)) for i in range(9)]
    tables = pair_arena(four, field, [], queue, now=10)
    assert len(tables) == 2 and all(len(t) == 4 for t in tables)
    assert "p8" not in {e for t in tables for e in t}


def test_withdrawn_entrants_are_not_paired_and_come_back() -> None:
    event = Event("a", ARENA, tuple(person(n) for n in "ABC")).start().withdraw("C")
    assert event.pair_waiting(waiting("ABC"), now=1) == [("A", "B")]
    event = event.come_back("C")
    assert event.pair_waiting(waiting("C"), now=1) == []  # alone: waits
    assert event.entrant("C").withdrawn is False


def test_an_arena_records_results_once_and_ranks_from_them() -> None:
    event = Event("a", ARENA, tuple(person(n) for n in "AB")).start()
    result = played("AB", (101, 40), 1, table_id="t1")
    event = event.record(result)
    with pytest.raises(ValueError, match="in already"):
        event.record(result)
    with pytest.raises(ValueError, match="no rounds"):
        event.record(played("AB", (101, 40), 2, round=1))
    with pytest.raises(ValueError, match="has not entered"):
        event.record(played("AZ", (101, 40), 2))
    assert [(s.entrant, s.score) for s in event.standings()] == [("A", F(2)), ("B", F(0))]
