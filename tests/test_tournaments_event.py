"""An event's settings, entrants and life: checked settings, who may enter,
withdrawals and comebacks, the round flow, seats, and standings recomputed
from the stored JSON."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from basra.tournaments import (
    Entrant,
    Event,
    EventSettings,
    GameResult,
    Member,
    TournamentError,
    seat_players,
)


def person(name: str) -> Entrant:
    return Entrant(name, name, (Member("person", f"id-{name}", name),))


def code_of(call: object) -> str:
    with pytest.raises(TournamentError) as caught:
        call()  # type: ignore[operator]
    return caught.value.code


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"format": "knockout", "rounds": 3}, "format must be one of arena, swiss, duplicate"),
        ({"format": "arena"}, "an arena needs its length in minutes"),
        ({"format": "arena", "minutes": 2}, "an arena's minutes must be a whole number from 5"),
        ({"format": "arena", "minutes": 60, "rounds": 3}, "it has no rounds"),
        ({"format": "swiss", "rounds": 0}, "a Swiss's rounds must be a whole number from 1"),
        ({"format": "swiss", "rounds": 3, "boards": 2}, "one game a round"),
        ({"format": "swiss", "rounds": 3, "seats": 5}, "2, 3 or 4 seats"),
        ({"format": "swiss", "rounds": 3, "seats": 3, "teams": True}, "tables of 4 seats"),
        ({"format": "swiss", "rounds": 3, "variant": "chess"}, "there is no variant 'chess'"),
        ({"format": "swiss", "rounds": 3, "rules": {"target": "x"}}, "setting 'target'"),
        ({"format": "swiss", "rounds": 3, "clock": {"move": 0}}, "seconds for each move"),
        ({"format": "swiss", "rounds": 3, "colour": "red"}, "unknown settings: colour"),
        ({"format": "duplicate", "rounds": 2, "max_entrants": 3}, "at least 4"),
        ("swiss", "the settings must be an object"),
    ],
)
def test_bad_settings_are_refused_in_words(form: object, words: str) -> None:
    with pytest.raises(TournamentError, match=words) as caught:
        EventSettings.from_json(form)
    assert caught.value.code == "bad_settings"


def test_settings_round_trip_and_keep_only_the_overrides_that_differ() -> None:
    form = {
        "format": "duplicate",
        "variant": "lebanese",
        "rules": {"target": 101, "majority_bonus": 30},
        "seats": 3,
        "clock": {"move": 20, "reserve": 0},
        "rated": False,
        "rounds": 4,
        "max_entrants": 30,
        "bots": True,
    }
    settings = EventSettings.from_json(form)
    assert settings.overrides == {"majority_bonus": 30}  # Lebanese plays to 101 already
    assert settings.boards == 3 and settings.sides == 3 and settings.least_field == 6
    assert EventSettings.from_json(settings.to_json()) == settings
    # A duplicate board is one round of the variant; the Swiss plays the whole game.
    assert settings.rules.target == 1 and settings.rules.majority_bonus == 30
    swiss = EventSettings("swiss", variant="lebanese", rounds=3)
    assert swiss.rules.target == 101


def test_members_and_entrants_are_checked() -> None:
    assert code_of(lambda: Member("robot", "x", "x")) == "bad_entrant"
    assert code_of(lambda: Member("bot", "grandmaster", "x")) == "bad_entrant"
    assert code_of(lambda: Member("person", "id", "  ")) == "bad_entrant"
    assert code_of(lambda: Entrant("e", "e", ())) == "bad_entrant"
    assert Member("bot", "hard", "Hard bot").identity is None


def test_who_may_enter() -> None:
    settings = EventSettings("arena", minutes=30, max_entrants=3)
    event = Event("a", settings).join(person("ann"))
    assert code_of(lambda: event.join(person("ann"))) == "already_entered"
    same_person = Entrant("ann2", "Ann again", (Member("person", "id-ann", "Ann"),))
    assert code_of(lambda: event.join(same_person)) == "already_entered"
    bot = Entrant("b1", "Hard", (Member("bot", "hard", "Hard"),))
    assert code_of(lambda: event.join(bot)) == "no_bots"
    program = Entrant("p1", "Prog", (Member("external", "prog", "Prog"),))
    assert code_of(lambda: event.join(program)) == "no_programs"
    team = Entrant("t", "t", (Member("person", "x", "x"), Member("person", "y", "y")))
    assert code_of(lambda: event.join(team)) == "bad_entrant"
    event = event.join(person("bob")).join(person("cy"))
    assert code_of(lambda: event.join(person("dan"))) == "full"
    # With bots allowed, a field may hold several bots of one level.
    open_event = Event("b", EventSettings("arena", minutes=30, bots=True, external=True))
    open_event = open_event.join(bot).join(Entrant("b2", "Hard", bot.members)).join(program)
    assert len(open_event.entrants) == 3


def test_withdrawing_before_the_start_leaves_the_event() -> None:
    event = Event("s", EventSettings("swiss", rounds=3)).join(person("ann")).join(person("bob"))
    event = event.withdraw("ann")
    assert [e.id for e in event.entrants] == ["bob"]
    assert code_of(event.start) == "too_few"
    assert code_of(lambda: event.withdraw("ann")) == "not_entered"
    event = event.join(person("ann")).start()
    event = event.withdraw("ann")
    assert event.entrant("ann").withdrawn
    assert code_of(lambda: event.withdraw("ann")) == "withdrawn"
    assert code_of(lambda: event.come_back("bob")) == "not_withdrawn"
    assert not event.come_back("ann").entrant("ann").withdrawn


def test_the_round_flow_of_a_swiss() -> None:
    event = Event("s", EventSettings("swiss", rounds=2), tuple(person(n) for n in "ABCD"))
    assert code_of(event.pair_next_round) == "not_running"
    event = event.start().pair_next_round()
    assert code_of(event.pair_next_round) == "round_running"
    assert code_of(lambda: event.pair_waiting([], 0.0)) == "not_arena"
    first = event.rounds[0].tables[0]
    swapped = GameResult(first[::-1], (1, 0), round=1, table=0)
    assert code_of(lambda: event.record(swapped)) == "bad_result"
    for t, table in enumerate(event.rounds[0].tables):
        event = event.record(GameResult(table, (1, 0), round=1, table=t))
    assert code_of(lambda: event.record(GameResult(("A", "B"), (1, 0), round=3))) == "bad_result"
    event = event.pair_next_round()
    for t, table in enumerate(event.rounds[1].tables):
        event = event.record(GameResult(table, (0, 1), round=2, table=t))
    assert code_of(event.pair_next_round) == "no_more_rounds"
    event = event.finish()
    assert code_of(lambda: event.join(person("Z"))) == "finished"
    assert code_of(lambda: event.record(GameResult(("A", "B"), (1, 0), round=1))) == "not_running"


def test_seats_of_a_table() -> None:
    teams = EventSettings("arena", minutes=30, seats=4, teams=True)
    w = Entrant("W", "W", (Member("person", "w1", "W1"), Member("person", "w2", "W2")))
    x = Entrant("X", "X", (Member("person", "x1", "X1"), Member("person", "x2", "X2")))
    seats = seat_players(teams, ("W", "X"), {"W": w, "X": x})
    # Partners sit opposite: side 0 holds seats 0 and 2.
    assert [(e, m.name) for e, m in seats] == [("W", "W1"), ("X", "X1"), ("W", "W2"), ("X", "X2")]
    three = EventSettings("arena", minutes=30, seats=3)
    people = {n: person(n) for n in "ABC"}
    assert [e for e, _ in seat_players(three, ("C", "A", "B"), people)] == ["C", "A", "B"]


@pytest.mark.parametrize("form", ["arena", "swiss", "duplicate"])
def test_standings_recomputed_from_the_stored_json_are_the_same(form: str) -> None:
    size = {"arena": {"minutes": 30}, "swiss": {"rounds": 3}, "duplicate": {"rounds": 2}}[form]
    settings = EventSettings(form, seats=3, **size)  # type: ignore[arg-type]
    rng = random.Random(11)
    event = Event("ev", settings, tuple(person(f"p{i}") for i in range(8))).start()
    if form == "arena":
        for game in range(12):
            sides = tuple(rng.sample([e.id for e in event.entrants], 3))
            scores = tuple(rng.randrange(0, 60) for _ in sides)
            event = event.record(GameResult(sides, scores, finished_at=float(game)))
    else:
        for _ in range(settings.total_rounds):
            event = event.pair_next_round()
            paired = event.rounds[-1]
            for t in range(len(paired.tables)):
                for b in range(settings.boards_per_round):
                    sides = event.sides_of(paired.number, t, b)
                    scores = tuple(rng.randrange(0, 60) for _ in sides)
                    event = event.record(
                        GameResult(sides, scores, round=paired.number, table=t, board=b)
                    )
            if paired.number == 1:
                event = event.withdraw("p3")
    stored = json.loads(json.dumps(event.to_json()))
    again = Event.from_json(stored)
    assert again == event
    assert again.standings() == event.standings()
    assert [s.to_json() for s in again.standings()] == [s.to_json() for s in event.standings()]


def test_the_tournaments_use_the_standard_library_and_the_core_only() -> None:
    code = "import sys, basra.tournaments; print(' '.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    tops = {name.split(".")[0] for name in out.split()}
    # The compiled kernel's Cython runtime and setuptools' site hook are not imports of ours.
    tops = {t for t in tops if not t.startswith("_cython_")} - {"cython_runtime", "_distutils_hack"}
    assert not tops - set(sys.stdlib_module_names) - {"basra", "__main__"}
    assert not {name for name in out.split() if name.startswith("basra.server")}
