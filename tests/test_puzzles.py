"""Puzzles (issue 23): theme detectors on literal positions, the exact solver against
exhaustive searches written here and on the reference engine, the basra-puzzle/1 line,
mining, and a public view that never names a card the seat could not see."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from math import factorial
from pathlib import Path
from typing import Any

import pytest
from tests.reference.refsolve import solve_record

from basra.bots import make_bot, play_game, play_round
from basra.cards import CARD_NAMES, cards_of, parse_card
from basra.moves import Move
from basra.notation import parse_move
from basra.puzzles.format import (
    CLEAR_MARGIN,
    Puzzle,
    PuzzleError,
    decision_record,
    parse_puzzles,
    shipped_puzzles,
)
from basra.puzzles.mine import (
    MineSettings,
    MineStats,
    mine_record,
    proof_samples,
    rate,
)
from basra.puzzles.public import attempt, puzzle_view, solution
from basra.puzzles.solve import (
    SolveError,
    arrangement_count,
    arrangements,
    solve_round,
    solve_view,
)
from basra.puzzles.themes import OTHER, THEMES, themes_of
from basra.record import Record, record_of
from basra.state import PHASE_PLAY, GameState
from basra.transition import next_deal_size
from basra.view import view_of

from .conftest import random_game

pytestmark = pytest.mark.engine

# ------------------------------------------------------------------ themes


def themes(
    variant: str, floor: str, hand: str, other: str, answer: str, rival: str, **kw: Any
) -> tuple[str, ...]:
    state = GameState.from_position(
        variant, floor=floor.split(), hands=[hand.split(), other.split()], turn=0, **kw
    )
    view = view_of(state, 0)
    return themes_of(view, parse_move(state, answer), parse_move(state, rival))


def test_basra_theme() -> None:
    assert themes("egyptian", "3S 6H", "9D 5C", "2H KS", "9D", "5C")[0] == "basra"
    assert "basra" not in themes("egyptian", "3S 6H", "9D 5C", "2H KS", "5C", "9D")


def test_deny_basra_theme() -> None:
    # Laying the 6♥ on the 4♠ lets the 10♥ clear the floor; the K♣ leaves nothing to clear.
    assert themes("egyptian", "4S", "6H KC", "10H 2D", "KC", "6H")[0] == "deny_basra"
    assert "deny_basra" not in themes("egyptian", "4S", "6H KC", "10H 2D", "6H", "KC")
    # With no 10 the seat cannot place, there is nothing to deny.
    assert "deny_basra" not in themes("egyptian", "4S", "6H KC", "9H 2D", "KC", "6H")


def test_seven_diamonds_theme() -> None:
    found = themes("egyptian", "2S 3H 4C", "7D 8H", "9C 5S", "7D", "8H")
    assert found[:2] == ("basra", "seven_diamonds")
    plain = themes("cypriot_bastra", "2S 3H 4C", "7D 8H", "9C 5S", "7D", "8H")
    assert "seven_diamonds" not in plain
    # Ethiopian: any card but a jack takes a lone 7♦ for a basra.
    lone = themes("ethiopian", "7D", "2H JC", "9C 5S", "2H", "JC")
    assert "seven_diamonds" in lone and lone[0] == "basra"


def test_jack_theme() -> None:
    found = themes("cypriot_bastra", "3S 8H 9C 5D", "JH 2C", "9S 5S", "JH", "2C")
    assert found[0] == "jack" and "clear_floor" in found
    assert "jack" not in themes("cypriot_bastra", "3S 8H 9C 5D", "8D 2C", "9S 5S", "8D", "2C")


def test_big_cards_theme() -> None:
    assert themes("egyptian", "10D 6S", "10H 6H", "9C 5S", "10H", "6H")[0] == "big_cards"
    assert "big_cards" not in themes("egyptian", "10S 6S", "10H 6H", "9C 5S", "10H", "6H")
    # Keeping the 2♣ from the next player counts too: the 2♥ would let a 4 take 2♣ and 2♥.
    kept = themes("egyptian", "2C", "2H 9S", "4D 5S", "2Hx2C", "9S")
    assert "big_cards" in kept


def test_lone_card_theme() -> None:
    assert themes("cypriot_bastra", "5S 9H", "9D 2C", "8C 3D", "2C", "9D")[0] == "lone_card"
    assert themes("cypriot_bastra", "5S 9H", "9D 2C", "8C 5D", "2C", "9D")[:2] == (
        "deny_basra",
        "lone_card",
    )
    assert "lone_card" not in themes("cypriot_bastra", "5S 9H", "9D 2C", "8C 5D", "9D", "2C")
    assert "lone_card" in themes("lebanese", "6S", "6C 9D", "8C 5D", "6C", "9D")


def test_clear_floor_theme() -> None:
    # Lebanese: taking two cards is no basra, but the next player must lay a card down.
    assert themes("lebanese_ashush", "2S 4H", "6D 9C", "8C 5D", "6D", "9C")[0] == "clear_floor"
    assert "clear_floor" not in themes("egyptian", "2S 4H", "6D 9C", "8C 5D", "6D", "9C")


def test_majority_theme() -> None:
    found = themes("egyptian", "2S 3H 5C 9D", "5D 9H", "8C 4D", "5D", "9H")
    assert found == ("majority",)
    no_bonus = themes(
        "egyptian", "2S 3H 5C 9D", "5D 9H", "8C 4D", "5D", "9H", rules={"majority_bonus": 0}
    )
    assert no_bonus == (OTHER,)
    taken = [CARD_NAMES[c] for c in range(40, 52)]
    taken += [CARD_NAMES[c] for c in range(24) if c >> 2 in (0, 5)]  # the aces and sixes
    taken += ["7S", "7H", "7C"]
    taken += ["8S", "8H", "8D", "10S"]  # 27 cards: more than half the pack
    settled = GameState.from_position(
        "egyptian",
        floor=["2S", "3H", "5C", "9D"],
        hands=[["5D", "9H"], ["8C", "4D"]],
        captured=[taken, []],
    )
    view = view_of(settled, 0)
    assert "majority" not in themes_of(view, parse_move(settled, "5D"), parse_move(settled, "9H"))


def test_every_theme_has_a_detector_and_a_title() -> None:
    from basra.puzzles.public import THEME_TITLES

    assert set(THEME_TITLES) == {*THEMES, OTHER}
    assert len(THEMES) == 8


# ------------------------------------------------------------------ the solver


def naive_margin(state: GameState, side: int) -> int:
    """Exhaustive minimax written here: every line to the round's end, no table."""
    if state.phase != PHASE_PLAY:
        points = state.rounds[-1].result.points  # type: ignore[union-attr]
        return points[side] - points[1 - side]
    values = []
    for move in state.legal_moves():
        state.push(move)
        values.append(naive_margin(state, side))
        state.pop()
    return max(values) if state.side_of[state.turn] == side else min(values)


def late_positions(variant: str, players: int, teams: bool, most: int) -> Iterator[GameState]:
    """Positions of random games with the stock empty and at most ``most`` cards in hands."""
    for seed in range(40):
        state = random_game(variant, players, teams, seed=seed, stop_after=0)
        state.deal(rng=random.Random(seed))
        rng = random.Random(seed)
        while state.phase == PHASE_PLAY:
            if state.stock_size == 0 and state.in_hands <= most and len(state.legal_moves()) > 1:
                yield state.copy()
                break
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize(
    ("variant", "players", "teams", "most"),
    [
        ("egyptian", 2, False, 8),
        ("cypriot_classic", 2, False, 8),
        ("lebanese", 2, False, 7),
        ("syrian", 2, False, 8),
        ("ethiopian", 2, False, 8),
        ("lebanese", 4, True, 7),
        ("egyptian", 4, True, 8),
    ],
)
def test_solve_round_equals_an_exhaustive_minimax(
    variant: str, players: int, teams: bool, most: int
) -> None:
    checked = 0
    for state in late_positions(variant, players, teams, most):
        side = state.side_of[state.turn]
        solved = solve_round(state)
        for move, value in solved.items():
            state.push(move)
            assert value == naive_margin(state, side), (variant, move.text())
            state.pop()
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_solve_round_needs_two_sides_and_a_round() -> None:
    state = random_game("egyptian", 3, seed=1, stop_after=40)
    with pytest.raises(SolveError, match="two sides"):
        solve_round(state)
    over = random_game("egyptian", 2, seed=1, rules={"target": 1})
    with pytest.raises(SolveError, match="no round"):
        solve_round(over)


def test_solve_round_leaves_the_state_as_it_was() -> None:
    state = next(late_positions("egyptian", 2, False, 7))
    before = state.fingerprint()
    solve_round(state)
    assert state.fingerprint() == before


def _penultimate(variant: str, players: int, teams: bool, limit: int) -> GameState:
    """A position whose seat to move cannot see a few hidden cards (a few arrangements)."""
    for seed in range(200):
        state = GameState(variant, players, teams=teams)
        state.deal(rng=random.Random(seed))
        rng = random.Random(seed)
        while state.phase == PHASE_PLAY:
            view = view_of(state, state.turn)
            count = arrangement_count(view)
            if (
                1 < count <= limit
                and len(state.legal_moves()) > 1
                and (state.stock_size or players == 4)
            ):
                return state
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
    raise AssertionError("no position with few arrangements")


def dealt(state: GameState) -> tuple[object, ...]:
    """The hands, and the cards each player will get in each deal to come (a batch is dealt
    into a hand: its order does not matter)."""
    stock = state.stock[state.stock_pos :]
    batches = []
    while stock:
        each = next_deal_size(state.rules, state.players, len(stock))
        for _ in range(state.players):
            batches.append(frozenset(stock[:each]))
            stock = stock[each:]
    return (tuple(state.hands), tuple(batches))


@pytest.mark.parametrize(
    ("variant", "players", "teams"), [("egyptian", 2, False), ("lebanese", 4, True)]
)
def test_arrangements_are_every_position_the_seat_cannot_tell_apart(
    variant: str, players: int, teams: bool
) -> None:
    state = _penultimate(variant, players, teams, 80)
    seat = state.turn
    view = view_of(state, seat)
    seen = view.to_json()
    made = list(arrangements(view, state))
    assert len(made) == arrangement_count(view) > 1
    keys = set()
    for position in made:
        assert view_of(position, seat).to_json() == seen
        keys.add(dealt(position))
    assert len(keys) == len(made)
    assert dealt(state) in keys
    # The count is the multinomial of where the hidden cards go.
    hidden = view.unseen().bit_count()
    assert factorial(hidden) % len(made) == 0


@pytest.mark.parametrize(
    ("variant", "players", "teams"), [("egyptian", 2, False), ("lebanese", 4, True)]
)
def test_solve_view_agrees_with_the_reference_solver(
    variant: str, players: int, teams: bool
) -> None:
    state = _penultimate(variant, players, teams, 40)
    view = view_of(state, state.turn)
    mine = solve_view(view, state, limit=40)
    assert mine is not None
    record = record_of(state).to_json()
    values, everywhere, count = solve_record(record)
    assert count == mine.arrangements
    assert {m.text(): v for m, v in mine.values.items()} == pytest.approx(values)
    assert {m.text() for m in mine.best_everywhere} == everywhere


def test_solve_view_stops_when_the_answer_loses_somewhere() -> None:
    state = _penultimate("egyptian", 2, False, 40)
    view = view_of(state, state.turn)
    full = solve_view(view, state, limit=40)
    assert full is not None
    for move in state.legal_moves():
        proven = solve_view(view, state, limit=40, answer=move)
        assert (proven is not None) == (move in full.best_everywhere)
    with pytest.raises(SolveError, match="arrangements of the hidden cards"):
        solve_view(view, state, limit=1)


# ------------------------------------------------------------------ the puzzle line


def one_round_game(variant: str, seed: int, players: int = 2, teams: bool = False) -> Record:
    state = GameState(variant, players, teams=teams, rules={"target": 1})
    bots = [make_bot("hard", seed=seed + seat) for seat in range(players)]
    play_round(state, bots, random.Random(seed))
    return record_of(state)


ONE_ROUND_GAMES = Path(__file__).parent / "data" / "puzzles" / "one_round_games.jsonl"
"""Two one-round games between ``hard`` bots (``one_round_game("egyptian", 3)`` and
``("lebanese", 5)`` on the compiled kernel), stored: the pure engine's search draws
other samples, so its bots play other games, and the puzzles must come from the same
games whichever engine mines them."""

PLAYED_GAMES = Path(__file__).parent / "data" / "puzzles" / "played_games.jsonl"
"""More one-round games between ``hard`` bots, stored as :func:`one_round_game` played them
on the compiled kernel (``("egyptian", 9)``, ``("cypriot_bastra", 11)``, ``("syrian",
21)``): the tests of cutting, reviewing and the command mine or cut a game, and need not
play one first (on the pure engine, 4 s of CPU a game); both passes use the same games."""


def played_game(variant: str) -> Record:
    """The stored game of ``variant`` from :data:`PLAYED_GAMES`."""
    for line in PLAYED_GAMES.read_text().splitlines():
        record = Record.from_json(json.loads(line))
        if record.variant == variant:
            return record
    raise LookupError(variant)


@pytest.fixture(scope="module")
def mined() -> list[Puzzle]:
    """Puzzles mined from two stored one-round games, on a small budget."""
    settings = MineSettings(screen_samples=1200, proof_samples=4 * 1200, rate=False)
    puzzles = []
    for line in ONE_ROUND_GAMES.read_text().splitlines():
        record = Record.from_json(json.loads(line))
        puzzles += mine_record(record, settings=settings, source=f"test {record.variant}")
    return puzzles


@pytest.mark.slow
def test_mined_puzzles_are_clear_decisions_of_their_games(mined: list[Puzzle]) -> None:
    assert len(mined) >= 4 and any(p.exact for p in mined) and not all(p.exact for p in mined)
    for puzzle in mined:
        state = puzzle.state()
        assert state.phase == PHASE_PLAY and state.turn == puzzle.seat
        assert sorted(m.move for m in puzzle.moves) == sorted(m.text() for m in state.legal_moves())
        assert puzzle.answer == puzzle.moves[0].move
        assert puzzle.margin >= CLEAR_MARGIN
        assert puzzle.record.names is None
        assert puzzle.source is not None and puzzle.source.startswith("test ")
        if not puzzle.exact:
            assert puzzle.proof == "search" and puzzle.samples == 4 * 1200
            best = puzzle.moves[0]
            for other in puzzle.moves[1:]:
                spread = (best.stderr**2 + other.stderr**2) ** 0.5
                assert best.points - other.points >= 4 * spread


def test_exact_puzzles_are_solved_again(mined: list[Puzzle]) -> None:
    """Every exact puzzle, mined here or shipped, solved again: by the package's solver in
    every arrangement, and (where it is quick: ten cards or fewer in the hands) by the
    independent one on the reference engine. benchmarks/puzzles.py re-solves them all."""
    exact = [p for p in [*mined, *shipped_puzzles()] if p.exact]
    assert exact
    independent = 0
    for puzzle in exact:
        state = puzzle.state()
        again = solve_view(view_of(state, puzzle.seat), state, limit=puzzle.arrangements)
        assert again is not None and again.arrangements == puzzle.arrangements
        assert puzzle.answer in {m.text() for m in again.best_everywhere}
        assert {m.text(): v for m, v in again.values.items()} == pytest.approx(
            {m.move: m.points for m in puzzle.moves}, abs=0.01
        )
        if state.in_hands * puzzle.arrangements > 10:
            continue
        values, everywhere, count = solve_record(puzzle.record.to_json())
        assert count == puzzle.arrangements
        assert puzzle.answer in everywhere
        assert values == pytest.approx({m.move: m.points for m in puzzle.moves}, abs=0.01)
        independent += 1
    assert independent >= 2


def test_the_line_reads_back_and_is_checked(mined: list[Puzzle]) -> None:
    puzzle = mined[0]
    data = json.loads(puzzle.line())
    assert data["format"] == "basra-puzzle/1" and data["id"] == puzzle.id
    assert data["round"] == puzzle.round
    assert data["play"] == len(data["record"]["rounds"][-1]["plays"]) + 1
    again = Puzzle.from_json(data)
    assert again == puzzle and again.id == puzzle.id

    def broken(**change: Any) -> str:
        bad = {**json.loads(puzzle.line()), **change}
        with pytest.raises(PuzzleError) as caught:
            Puzzle.from_json(bad)
        return str(caught.value)

    assert "'format' must be" in broken(format="basra-puzzle/0")
    assert "seat" in broken(seat=1 - puzzle.seat)
    assert "every legal move" in broken(moves=data["moves"][:-1] + data["moves"][:1])
    assert "best first" in broken(moves=list(reversed(data["moves"])))
    assert "the one move of the highest value" in broken(answer=data["moves"][1]["move"])
    assert "'exact' must be" in broken(exact=not data["exact"])
    assert "'themes'" in broken(themes=["checkmate"])
    assert "'rating'" in broken(rating="easy")
    assert "variant" in broken(variant="syrian")
    record = json.loads(json.dumps(data["record"]))
    record["rounds"][-1]["plays"].append("KS")
    assert "does not replay" in broken(record=record) or "seat" in broken(record=record)
    lines = list(parse_puzzles(puzzle.line() + "\n\nnot json\n" + '{"format": 1}\n'))
    assert lines[0] == puzzle
    assert isinstance(lines[1], PuzzleError) and lines[1].line == 3
    assert isinstance(lines[2], PuzzleError) and lines[2].line == 4


def test_decision_record_stops_before_the_play() -> None:
    record = played_game("egyptian")
    cut = decision_record(record, 0, 5)
    assert cut.rounds[0].plays == record.rounds[0].plays[:5] and cut.names is None
    assert len(cut.replay().plays) == 5


@pytest.mark.slow
def test_mining_a_reviewed_game_gives_the_same_puzzles() -> None:
    from basra.coach.review import review_record

    record = played_game("cypriot_bastra")
    settings = MineSettings(screen_samples=800, proof_samples=4 * 800, rate=False)
    alone_stats, reviewed_stats = MineStats(), MineStats()
    alone = mine_record(record, settings=settings, stats=alone_stats)
    review = review_record(record, samples=800)
    from_review = mine_record(record, settings=settings, review=review, stats=reviewed_stats)
    from_json = mine_record(record, settings=settings, review=review.to_json())
    assert [p.line() for p in alone] == [p.line() for p in from_review]
    assert [p.line() for p in from_json] == [p.line() for p in alone]
    assert alone_stats.decisions == reviewed_stats.decisions > 0
    assert reviewed_stats.screen_seconds < alone_stats.screen_seconds


def test_the_rating_is_the_weakest_bot_that_finds_the_answer() -> None:
    state = GameState.from_position(
        "egyptian", floor=["3S", "6H"], hands=[["9D", "5C"], ["2H", "KS"]], turn=0
    )
    view = view_of(state, 0)
    assert rate(view, parse_move(state, "9D")) == 1000  # a greedy player takes the basra
    assert rate(view, parse_move(state, "5C")) == 2200  # nobody lays it down
    assert proof_samples() == 10 * 3000 * 4


# ------------------------------------------------------------------ what is shown


CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC♠♥♦♣])(?![A-Za-z])")
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def named_cards(value: Any, skip: str = "rules") -> set[str]:
    """Every card named anywhere in a JSON value (text or symbols), outside ``skip`` keys."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key != skip:
                found |= named_cards(item, skip)
    elif isinstance(value, list):
        for item in value:
            found |= named_cards(item, skip)
    elif isinstance(value, str):
        for rank, suit in CARD.findall(value):
            found.add(rank + SYMBOLS.get(suit, suit))
    return found


def seen_by_seat(puzzle: Puzzle) -> set[str]:
    """Cards the seat saw, worked out from the record: its hand, the round's first floor (with
    the cards buried from it and their replacements), every card played or taken this round,
    and the cards it was dealt earlier in the round."""
    state = puzzle.state()
    log = state.rounds[-1]
    seen = set(cards_of(state.hands[puzzle.seat])) | set(log.initial_floor) | set(log.buried)
    seen |= set(cards_of(state.floor))
    for play in log.plays:
        seen.add(play.move.card)
        seen |= set(cards_of(play.move.take))
    for pile in state.piles:
        seen |= set(cards_of(pile))
    return {CARD_NAMES[c] for c in seen}


def hidden_from_seat(puzzle: Puzzle) -> set[str]:
    state = puzzle.state()
    hidden = set()
    for seat, hand in enumerate(state.hands):
        if seat != puzzle.seat:
            hidden |= set(cards_of(hand))
    hidden |= set(state.stock[state.stock_pos :])
    return {CARD_NAMES[c] for c in hidden} - seen_by_seat(puzzle)


def test_no_public_view_names_a_card_the_seat_could_not_see(mined: list[Puzzle]) -> None:
    puzzles = [*shipped_puzzles(), *mined]
    for puzzle in puzzles:
        shown = json.loads(json.dumps(puzzle_view(puzzle)))
        named = named_cards(shown)
        assert named <= seen_by_seat(puzzle), (puzzle.id, named - seen_by_seat(puzzle))
        assert not named & hidden_from_seat(puzzle)
        assert "answer" not in shown and "moves" not in shown and "themes" not in shown
        assert shown["view"]["hand"] == [
            CARD_NAMES[c] for c in cards_of(puzzle.state().hands[puzzle.seat])
        ]
        # The rules name cards (point cards, 7♦), never where they are.
        assert shown["view"]["rules"] == puzzle.state().rules.to_dict()
        # After the puzzle everything may be shown: the hidden cards are in the solution.
        after = named_cards(solution(puzzle))
        assert hidden_from_seat(puzzle) <= after
    assert any(hidden_from_seat(p) for p in puzzles)


def test_an_attempt_says_right_or_wrong_and_what_it_cost(mined: list[Puzzle]) -> None:
    puzzle = mined[0]
    right = attempt(puzzle, puzzle.answer.lower())
    assert right["legal"] and right["correct"] and right["loss"] == 0
    assert right["words"]["en"].startswith("Right: ")
    other = puzzle.moves[1]
    wrong = attempt(puzzle, other.move)
    assert wrong["legal"] and not wrong["correct"]
    assert wrong["loss"] == pytest.approx(puzzle.moves[0].points - other.points, abs=0.01)
    assert "is not the best: it gives away" in wrong["words"]["en"]
    bad = attempt(puzzle, "XX")
    assert not bad["legal"] and bad["move"] is None and "Type a card" in bad["words"]["en"]
    shown = solution(puzzle)
    assert shown["answer"] == puzzle.answer and shown["why"]["en"] and shown["why"]["ar"]
    assert [m["move"] for m in shown["moves"]] == [m.move for m in puzzle.moves]
    assert len(shown["position"]["hands"]) == puzzle.record.players


# ------------------------------------------------------------------ the shipped set


def test_the_shipped_set_reads_and_covers_the_variants() -> None:
    puzzles = shipped_puzzles()
    assert len(puzzles) >= 18
    ids = [p.id for p in puzzles]
    assert len(set(ids)) == len(ids)
    assert any(p.exact for p in puzzles)
    for puzzle in puzzles:
        assert puzzle.margin >= CLEAR_MARGIN and puzzle.source and "selfplay" in puzzle.source


# ------------------------------------------------------------------ the command line


def basra(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "basra", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )


@pytest.mark.slow
def test_basra_puzzles_make_list_and_check(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(played_game("syrian").to_json()) + "\n")
    out = tmp_path / "puzzles.jsonl"
    run = basra(
        "puzzles",
        "make",
        str(games),
        *("--out", str(out), "--samples", "600", "--proof-samples", "2400", "--no-rate", "-q"),
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("1 games, ") and f"written to {out}" in run.stdout
    lines = out.read_text().splitlines()
    assert lines and all(json.loads(line)["source"] == "games.jsonl game 1" for line in lines)
    listed = basra("puzzles", "list", str(out))
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == len(lines)
    views = basra("puzzles", "list", str(out), "--json")
    assert all("answer" not in json.loads(line) for line in views.stdout.splitlines())
    checked = basra("puzzles", "check", str(out))
    assert checked.returncode == 0, checked.stdout
    assert f"{len(lines)} puzzles read" in checked.stdout


def test_basra_puzzles_says_what_is_wrong(tmp_path: Path) -> None:
    run = basra("puzzles", "list", "--theme", "checkmate")
    assert run.returncode == 2 and "unknown theme 'checkmate'; the themes are: basra" in run.stderr
    run = basra("puzzles", "list", str(tmp_path / "none.jsonl"))
    assert run.returncode == 2 and "no puzzle file at" in run.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "basra-puzzle/1"}\n')
    run = basra("puzzles", "check", str(bad))
    assert run.returncode == 2 and "line 1: 'record'" in run.stderr
    run = basra("puzzles", "play")
    assert run.returncode == 2 and "played in a terminal" in run.stderr
    run = basra("puzzles", "list", "--variant", "egyptian", "--min-rating", "9999")
    assert run.returncode == 2 and "no puzzle matches" in run.stderr
    run = basra("puzzles", "make", str(bad), "--out", str(tmp_path / "x.jsonl"))
    assert run.returncode == 1 and "game 0" in run.stderr


def test_the_terminal_shows_the_seats_view_then_the_solution() -> None:
    pytest.importorskip("textual")
    from basra.tui.puzzles import PuzzleApp

    puzzles = list(shipped_puzzles()[:2])

    async def main() -> None:
        app = PuzzleApp(puzzles)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            puzzle = puzzles[0]
            hidden = hidden_from_seat(puzzle)
            shown = app.info_text().plain + app.goal_text()
            screen_text = shown + app.takes_text(app.card_moves()).plain
            assert not named_cards(screen_text) & hidden
            answer = parse_move(puzzle.state(), puzzle.answer)
            hand = cards_of(puzzle.state().hands[puzzle.seat])
            await pilot.press(str(hand.index(answer.card) + 1), "enter")
            await pilot.pause()
            if app.screen.__class__.__name__ == "ChoiceScreen":
                moves = app.card_moves()
                await pilot.press(str(moves.index(answer) + 1))
                await pilot.pause()
            assert app.message.plain.startswith("Right: ")
            assert "The hands were:" in app.message.plain
            assert app.right == app.played == 1
            await pilot.press("n")
            await pilot.pause()
            assert app.index == 1 and not app.locked

    asyncio.run(main())


def test_parse_card_of_puzzle_answers() -> None:
    for puzzle in shipped_puzzles():
        card, _, _ = puzzle.answer.partition("x")
        assert parse_card(card) == puzzle.answer_move().card
    assert Move(parse_card("5H"), 0).text() == "5H"
    assert play_game is not None


def test_lessons_and_puzzle_views_need_only_the_standard_library() -> None:
    """What the web pages and the offline app call runs under Pyodide: no third-party module
    is imported, and it works on the pure-Python engine."""
    code = (
        "import sys, json\n"
        "from basra.learn.lessons import courses_json, course_for, check_step\n"
        "from basra.puzzles.format import shipped_puzzles\n"
        "from basra.puzzles.public import puzzle_view, attempt, solution\n"
        "course = course_for('lebanese')\n"
        "step = course.steps[0]\n"
        "assert check_step(step, step.taught.text()).correct\n"
        "json.dumps(courses_json())\n"
        "puzzle = shipped_puzzles()[0]\n"
        "json.dumps([puzzle_view(puzzle), attempt(puzzle, puzzle.answer), solution(puzzle)])\n"
        "names = {m.split('.')[0] for m in sys.modules}\n"
        "site = {'basra', '__main__', '_distutils_hack'}  # the venv's start-up hook\n"
        "print(sorted(names - set(sys.stdlib_module_names) - site))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "BASRA_KERNEL": "0"},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_position_too_large_to_solve_is_proven_by_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import basra.puzzles.mine as mine

    state = GameState.from_position(
        "egyptian", floor=["3S", "6H"], hands=[["9D", "5C"], ["2H", "KS"]], turn=0
    )
    view = view_of(state, 0)
    settings = MineSettings(screen_samples=400, proof_samples=4 * 400, rate=False)
    exact = mine.prove(view, state, settings)
    assert exact is not None and exact.proof == "solved" and exact.answer == "9Dx3S,6H"

    def too_large(*args: Any, **kw: Any) -> None:
        raise SolveError("the rest of this round is too large to solve exactly")

    monkeypatch.setattr(mine, "solve_view", too_large)
    # Nothing is hidden here, so the coach's analysis is exact too: the search does not prove
    # what the solver could not.
    assert mine.prove(view, state, settings) is None
