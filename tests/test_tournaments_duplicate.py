"""Duplicate: the same packs at every table, seats rotated, matchpoints on a literal
example, byes, forfeits, secrecy, and a whole small event played by bots."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
from fractions import Fraction as F  # noqa: N817 (reads as the literal tables do)

import pytest

from basra.bots import make_bot, play_round
from basra.cards import CARD_NAMES
from basra.deals import derived_pack
from basra.rules import preset
from basra.state import GameState
from basra.tournaments import Entrant, Event, EventSettings, GameResult, Member, Round
from basra.tournaments.duplicate import (
    board_deal,
    board_results,
    board_sides,
    duplicate_standings,
    margin,
    revealed_boards,
    round_complete,
)

pytestmark = pytest.mark.engine

SECRET = b"\x07" * 32
DUPLICATE = EventSettings("duplicate", rounds=2)


def person(name: str) -> Entrant:
    return Entrant(name, name, (Member("person", name, name),))


def on_board(table: tuple[str, ...], scores: tuple[int, ...], t: int, b: int, **kw: object):  # type: ignore[no-untyped-def]
    return GameResult(board_sides(table, b), scores, round=1, table=t, board=b, **kw)  # type: ignore[arg-type]


def test_seats_rotate_so_each_entrant_holds_each_side_once_a_round() -> None:
    table = ("A", "B", "C")
    assert [board_sides(table, b) for b in range(3)] == [
        ("A", "B", "C"),
        ("C", "A", "B"),
        ("B", "C", "A"),
    ]
    assert {board_sides(table, b).index("A") for b in range(3)} == {0, 1, 2}
    assert EventSettings("duplicate", rounds=1, seats=3).boards_per_round == 3
    assert EventSettings("duplicate", rounds=1, seats=4, teams=True).boards_per_round == 2


def test_margin_is_points_less_the_mean_of_the_others() -> None:
    result = GameResult(("A", "B", "C"), (30, 12, 6))
    assert [margin(result, s) for s in range(3)] == [21, -6, -15]
    assert margin(GameResult(("A", "B"), (60, 40)), 1) == -20


def literal_round() -> tuple[list[Entrant], list[Round], list[GameResult]]:
    tables = (("A", "B"), ("C", "D"), ("E", "F"))
    results = [
        # Board 0: A, C, E hold side 0.
        on_board(tables[0], (60, 40), 0, 0),  # margins +20 / -20
        on_board(tables[1], (55, 30), 1, 0),  # +25 / -25
        on_board(tables[2], (45, 20), 2, 0),  # +25 / -25
        # Board 1, rotated: B, D, F hold side 0.
        on_board(tables[0], (30, 30), 0, 1),  # 0 / 0
        on_board(tables[1], (50, 10), 1, 1),  # +40 / -40
        on_board(tables[2], (70, 20), 2, 1, forfeited=frozenset({0})),  # F forfeited
    ]
    return [person(n) for n in "ABCDEF"], [Round(1, tables)], results


def test_matchpoints_on_a_literal_example() -> None:
    _, rounds, results = literal_round()
    rows = {
        (r.board, r.entrant): (r.side, r.matchpoints, r.top)
        for r in board_results(rounds, results, 2)
    }
    assert rows == {
        # Board 0, side 0: C and E (+25) tie each other and beat A (+20).
        (0, "A"): (0, 0, 4),
        (0, "C"): (0, 3, 4),
        (0, "E"): (0, 3, 4),
        # Board 0, side 1: B (-20) beats D and F (-25, tied).
        (0, "B"): (1, 4, 4),
        (0, "D"): (1, 1, 4),
        (0, "F"): (1, 1, 4),
        # Board 1, side 0: D (+40) beats B (0) and F (forfeited); B beats F.
        (1, "D"): (0, 4, 4),
        (1, "B"): (0, 2, 4),
        (1, "F"): (0, 0, 4),
        # Board 1, side 1: A (0) beats C (-40) and E (-50, a side that did not forfeit).
        (1, "A"): (1, 4, 4),
        (1, "C"): (1, 2, 4),
        (1, "E"): (1, 0, 4),
    }


def test_standings_from_the_literal_example() -> None:
    entrants, rounds, results = literal_round()
    table = duplicate_standings(DUPLICATE, entrants, rounds, results)
    # Shares: B 4/4 + 2/4; C 3/4 + 2/4 and D 1/4 + 4/4 tie, D's margins (-25 + 40)
    # beat C's (25 - 40); A 0 + 4/4; E 3/4 + 0; F 1/4 + 0 (its forfeited board's margin,
    # +50 by the autopilot, adds nothing).
    assert [(s.entrant, s.rank, s.score, s.tie_breaks) for s in table] == [
        ("B", 1, F(3, 2), (-20,)),
        ("D", 2, F(5, 4), (15,)),
        ("C", 3, F(5, 4), (-15,)),
        ("A", 4, 1, (20,)),
        ("E", 5, F(3, 4), (-25,)),
        ("F", 6, F(1, 4), (-25,)),
    ]
    assert [(s.entrant, s.wins, s.games) for s in table if s.entrant in "BD"] == [
        ("B", 1, 2),
        ("D", 1, 2),
    ]


def test_a_side_held_at_one_table_only_scores_half() -> None:
    _, rounds, results = literal_round()
    rows = board_results(rounds, results[:1], 2)
    assert {(r.entrant, r.share) for r in rows} == {("A", F(1, 2)), ("B", F(1, 2))}


def test_a_bye_is_worth_half_of_each_board() -> None:
    event = Event("d", DUPLICATE, tuple(person(n) for n in "ABCDE")).start().pair_next_round()
    (bye,) = event.rounds[0].byes
    line = next(s for s in event.standings() if s.entrant == bye)
    assert line.score == 1 and line.byes == 1  # two boards, half each


def test_rounds_complete_and_boards_are_revealed_only_when_every_table_played_them() -> None:
    _, rounds, results = literal_round()
    assert revealed_boards(rounds, results[:5], 2) == {(1, 0)}
    assert not round_complete(rounds[0], results[:5], 2)
    assert revealed_boards(rounds, results, 2) == {(1, 0), (1, 1)}
    assert round_complete(rounds[0], results, 2)


def test_a_result_must_hold_the_rotated_seats() -> None:
    event = Event("d", DUPLICATE, tuple(person(n) for n in "ABCD")).start().pair_next_round()
    table = event.rounds[0].tables[0]
    with pytest.raises(ValueError, match="not the ones paired"):
        event.record(GameResult(table, (10, 5), round=1, table=0, board=1))
    event = event.record(GameResult(board_sides(table, 1), (10, 5), round=1, table=0, board=1))
    with pytest.raises(ValueError, match="in already"):
        event.record(GameResult(board_sides(table, 1), (10, 5), round=1, table=0, board=1))
    with pytest.raises(ValueError, match="no board 2"):
        event.record(GameResult(board_sides(table, 2), (10, 5), round=1, table=0, board=2))


def test_a_duplicate_needs_two_tables_to_start() -> None:
    event = Event("d", DUPLICATE, tuple(person(n) for n in "ABC"))
    with pytest.raises(ValueError, match="needs 4 entrants"):
        event.start()


# -------------------------------------------------------------- the deals


def test_a_board_is_the_same_deal_at_every_table_and_differs_from_the_others() -> None:
    settings = EventSettings("duplicate", rounds=2, seats=3)
    deal = board_deal(SECRET, "ev1", settings, 1, 0)
    assert deal == board_deal(SECRET, "ev1", settings, 1, 0)
    assert 0 <= deal.first_dealer < 3
    assert sorted(deal.pack) == list(range(52))
    others = [
        board_deal(SECRET, "ev1", settings, 1, 1),
        board_deal(SECRET, "ev1", settings, 2, 0),
        board_deal(SECRET, "ev2", settings, 1, 0),
        board_deal(b"another secret", "ev1", settings, 1, 0),
    ]
    assert all(other.pack != deal.pack for other in others)
    # The variant's pack: 44 cards without queens and kings.
    homsi = EventSettings("duplicate", rounds=1, variant="syrian_homsi")
    assert len(board_deal(SECRET, "ev1", homsi, 1, 0).pack) == 44
    # The deal's rules are one round of the variant, as the daily deal's.
    assert (settings.rules.target, settings.rules.end_tie) == (1, "draw")


def test_the_event_stores_no_card() -> None:
    event = Event("ev1", DUPLICATE, tuple(person(n) for n in "ABCD")).start().pair_next_round()
    text = json.dumps(event.to_json())
    pack = board_deal(SECRET, "ev1", DUPLICATE, 1, 0).pack
    assert "pack" not in text
    assert " ".join(CARD_NAMES[c] for c in pack[:8]) not in text
    assert Event.from_json(json.loads(text)) == event


def test_derived_packs_are_the_daily_deals_own() -> None:
    # basra.deals.derived_pack seeds the shuffle as the daily deal does: the daily
    # deal can use it and deal the very same packs.
    from basra.server.features.daily import DAILY_RULES, Daily, Deal

    daily = Daily.__new__(Daily)
    daily._secret = SECRET
    deal = Deal("2026-11-27.egyptian", dt.date(2026, 11, 27), "egyptian")
    rules = preset("egyptian").with_overrides(DAILY_RULES)
    label = f"basra-daily/1|{deal.id}|pack"
    assert daily.pack(deal) == derived_pack(SECRET, label, rules)


@pytest.mark.parametrize(("seats", "teams", "field"), [(2, False, 5), (3, False, 6), (4, True, 4)])
def test_a_small_event_played_by_bots_deals_every_holder_the_same_cards(
    seats: int, teams: bool, field: int
) -> None:
    settings = EventSettings("duplicate", rounds=2, seats=seats, teams=teams)
    members = 2 if teams else 1
    entrants = tuple(
        Entrant(f"e{i}", f"e{i}", tuple(Member("bot", "easy", "bot") for _ in range(members)))
        for i in range(field)
    )
    settings = dataclasses.replace(settings, bots=True)
    event = Event("ev", settings, entrants).start()
    rng = random.Random(3)
    for _ in range(settings.total_rounds):
        event = event.pair_next_round()
        paired = event.rounds[-1]
        for board in range(settings.boards_per_round):
            deal = board_deal(SECRET, event.id, settings, paired.number, board)
            hands_by_side: list[set[tuple[int, ...]]] = [set() for _ in range(settings.sides)]
            for t, table in enumerate(paired.tables):
                state = GameState(
                    settings.variant,
                    settings.seats,
                    teams=settings.teams,
                    first_dealer=deal.first_dealer,
                    rules=settings.rules,
                )
                state.deal(list(deal.pack))
                for side in range(settings.sides):
                    seats_of_side = range(side, settings.seats, settings.sides)
                    hands_by_side[side].add(tuple(state.hands[s] for s in seats_of_side))
                bots = [make_bot("greedy", seed=rng.randrange(1000)) for _ in range(settings.seats)]
                play_round(state, bots, rng)
                assert state.is_over
                scores = tuple(state.scores)
                event = event.record(
                    GameResult(
                        board_sides(table, board), scores, round=paired.number, table=t, board=board
                    )
                )
            # Every holder of a side of this board was dealt the very same cards.
            assert all(len(hands) == 1 for hands in hands_by_side)
        assert event.round_complete()
    table = event.standings()
    played = sum(s.games for s in table)
    assert played == settings.sides * settings.boards_per_round * sum(
        len(r.tables) for r in event.rounds
    )
    # Matchpoint shares hand out half a board on average: every board's holders share
    # (tables - 1) tops among themselves, and byes get half.
    total = sum(s.score for s in table)
    expected = F(0)
    for paired in event.rounds:
        expected += F(settings.sides * len(paired.tables) * settings.boards_per_round, 2)
        expected += F(len(paired.byes) * settings.boards_per_round, 2)
    assert total == expected


def test_a_late_entrant_scores_nothing_for_the_rounds_it_missed() -> None:
    event = Event("d", DUPLICATE, tuple(person(n) for n in "ABCD")).start().pair_next_round()
    for t, table in enumerate(event.rounds[0].tables):
        for b in range(2):
            event = event.record(
                GameResult(board_sides(table, b), (20, 10), round=1, table=t, board=b)
            )
    event = event.join(person("E")).pair_next_round()
    line = next(s for s in event.standings() if s.entrant == "E")
    assert event.entrant("E").joined_round == 1
    # Paired in round 2 (a table or the bye), nothing shown or scored for round 1.
    assert "E" in event.rounds[1].entrants()
    assert [entry.kind for entry in line.sheet] in ([], ["bye"])
