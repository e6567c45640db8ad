"""The table behind `basra play` (no screen): seats, seeded deals and bots, save and resume."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from basra.cards import parse_card
from basra.moves import Move, Play
from basra.record import Record
from basra.state import PHASE_PLAY
from basra.tui.session import (
    SaveExistsError,
    Seat,
    Session,
    SessionError,
    default_names,
    free_path,
    parse_seats,
)
from basra.tui.text import card_label, describe_play


def play_to(session: Session, plays: int, rng: random.Random) -> None:
    """Deal as needed and make ``plays`` moves: bots choose theirs, people random ones."""
    for _ in range(plays):
        state = session.state
        if state.is_over:
            return
        if state.phase == "deal":
            session.deal()
        if session.is_bot_turn():
            session.play(session.bot_move(session.view(state.turn)))
        else:
            moves = state.legal_moves()
            session.play(moves[rng.randrange(len(moves))])


def test_seats_and_names() -> None:
    assert parse_seats("you,Medium", 2) == ["person", "medium"]
    with pytest.raises(SessionError, match="names 1 seat"):
        parse_seats("you", 2)
    with pytest.raises(SessionError, match="'bob' is not a seat"):
        parse_seats("you,bob", 2)
    assert default_names(["person", "easy", "hard"]) == ["You", "Karim", "Salma"]
    assert default_names(["person", "person"]) == ["Player 1", "Player 2"]
    with pytest.raises(SessionError, match="different name"):
        Session.new(seats=["person", "easy"], names=["A", "A"])


EXAMPLE_BOT = Path(__file__).parents[1] / "examples" / "external_bot.py"


def test_any_bot_can_take_a_seat_but_never_the_cheater() -> None:
    assert parse_seats("you,ismcts:iterations=50,c=0.5,greedy", 3) == [
        "person",
        "ismcts:iterations=50,c=0.5",
        "greedy",
    ]
    with pytest.raises(SessionError, match="measuring stick"):
        parse_seats("you,cheater", 2)
    with pytest.raises(SessionError, match="measuring stick"):
        Session.new(seats=["person", "cheater:iterations=10"])
    with pytest.raises(SessionError, match="iterations"):
        Session.new(seats=["person", "ismcts:iterations=-1"])


def test_an_external_bot_plays_a_seat() -> None:
    spec = f"cmd:{sys.executable} {EXAMPLE_BOT}"
    session = Session.new(seats=parse_seats(f"you,{spec}", 2), seed=5)
    try:
        assert session.seats[1].kind == spec
        play_to(session, 30, random.Random(1))
        assert len(session.state.plays) >= 20
    finally:
        session.close()


def test_default_table_is_two_player_egyptian_against_medium() -> None:
    session = Session.new(seed=1)
    assert session.state.variant == "egyptian" and session.state.players == 2
    assert [seat.kind for seat in session.seats] == ["person", "medium"]
    assert session.people == [0]


def test_the_seed_fixes_the_deals_and_the_bots() -> None:
    games = []
    for _ in range(2):
        session = Session.new(seats=["person", "hard", "easy"], seed=11)
        play_to(session, 60, random.Random(3))
        games.append(session.state.fingerprint())
    assert games[0] == games[1]
    other = Session.new(seats=["person", "hard", "easy"], seed=12)
    play_to(other, 60, random.Random(3))
    assert other.state.fingerprint() != games[0]


def test_save_is_a_record_and_resume_continues_the_same_game(tmp_path: Path) -> None:
    whole = Session.new("lebanese", players=4, teams=True, seats=["person", "easy"] * 2, seed=5)
    play_to(whole, 130, random.Random(8))

    first = Session.new("lebanese", players=4, teams=True, seats=["person", "easy"] * 2, seed=5)
    rng = random.Random(8)
    play_to(first, 70, rng)
    path = first.save(tmp_path / "game.json")
    data = json.loads(path.read_text())
    assert data["basra_play"]["seats"] == ["person", "easy", "person", "easy"]
    assert Record.from_json(data).replay().fingerprint() == first.state.fingerprint()

    resumed = Session.load(path)
    assert resumed.state.fingerprint() == first.state.fingerprint()
    assert resumed.names == first.names and resumed.seed == 5
    play_to(resumed, 60, rng)
    assert resumed.state.fingerprint() == whole.state.fingerprint()

    replay = subprocess.run(
        [sys.executable, "-m", "basra", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replay.returncode == 0 and "Player 1 & Player 3 vs Karim & Yusuf" in replay.stdout


def test_resume_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "basra-record/1", "variant": "nope", "players": 2, "rounds": []}')
    with pytest.raises(SessionError, match="not a game record"):
        Session.load(bad)
    session = Session.new(seed=2)
    session.deal()
    path = session.save(tmp_path / "ok.json")
    with pytest.raises(SessionError, match="do not fit"):
        Session.load(path, seats=["person"])
    with pytest.raises(SessionError, match="cannot save"):
        session.save(tmp_path / "missing" / "dir" / "x.json")


def test_saving_never_replaces_a_file_unless_asked(tmp_path: Path) -> None:
    session = Session.new(seats=["person", "easy"], seed=2, rules_name="House rules")
    session.deal()
    precious = tmp_path / "game.json"
    precious.write_text("my other game")
    with pytest.raises(SaveExistsError, match=r"game\.json' already exists"):
        session.save(precious)
    assert precious.read_text() == "my other game"
    assert free_path(precious) == tmp_path / "game-2.json"
    (tmp_path / "game-2.json").write_text("another")
    assert free_path(precious) == tmp_path / "game-3.json"
    assert session.save(precious, replace=True) == precious
    resumed = Session.load(precious)
    assert resumed.state.fingerprint() == session.state.fingerprint()
    assert resumed.rules_name == "House rules"


def test_leftovers_count_the_cards_the_last_capturer_took() -> None:
    rng = random.Random(3)
    for players in (2, 3, 4):
        session = Session.new("palestinian", players=players, seats=["random"] * players, seed=5)
        session.deal()
        while session.state.phase == PHASE_PLAY:
            floor = session.state.floor
            move = rng.choice(session.state.legal_moves())
            session.play(move)
        left = floor & ~move.take if move.take else floor | 1 << move.card
        assert session.leftovers(0) == left.bit_count()


def test_basra_of_previews_without_playing() -> None:
    from basra.state import GameState

    state = GameState.from_position("egyptian", floor=["3S", "4H"], hands=[["7C", "2D"], ["KS"]])
    session = Session(state, [Seat("You"), Seat("Nour", "easy")], seed=1)
    assert session.basra_of(Move(parse_card("7C"), state.floor)) == 10
    assert state.plays == []


def test_words() -> None:
    seven = parse_card("7D")
    take = (1 << parse_card("2C")) | (1 << parse_card("5S"))
    assert card_label(parse_card("10H")) == "10♥"
    assert (
        describe_play(Play(0, Move(seven, take), 10), ["You", "Nour"])
        == "You played 7♦ and took 2♣ 5♠. Basra! +10"
    )
