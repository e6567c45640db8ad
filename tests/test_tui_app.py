"""`basra play` driven end to end with Textual's test pilot: keys and clicks, as a person."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from basra.bots import hint
from basra.cards import cards_of, parse_card
from basra.record import Record
from basra.state import GameState
from basra.tui.app import BasraApp
from basra.tui.cards import CardRow
from basra.tui.dialogs import (
    ChoiceScreen,
    GameOverScreen,
    LeaveScreen,
    PassScreen,
    RoundScreen,
    SaveScreen,
)
from basra.tui.session import Seat, Session
from basra.tui.text import card_label

Test = Callable[[BasraApp, Pilot[Any]], Coroutine[Any, Any, None]]


def drive(app: BasraApp, test: Test, size: tuple[int, int] = (80, 24)) -> None:
    """Run ``test`` against ``app`` in a headless terminal of ``size``."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await test(app, pilot)

    asyncio.run(main())


async def until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``condition`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the app did not get there in time")
        await pilot.pause(0.01)


def my_turn(app: BasraApp) -> Callable[[], bool]:
    return lambda: app.my_view() is not None and app.selected is not None


def status(app: BasraApp) -> str:
    return str(app.table.query_one("#status").render())


def log_text(app: BasraApp) -> str:
    return str(app.table.query_one("#log-text").render())


def hand_row(app: BasraApp) -> CardRow:
    return app.table.query_one("#hand", CardRow)


def test_a_whole_game_against_bots_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "finished.json"
    session = Session.new(overrides={"target": 40}, seats=["person", "easy"], seed=21)
    app = BasraApp(session, pace=0)
    rng = random.Random(4)
    seen = {"rounds": 0, "choices": 0, "plays": 0}

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        for _ in range(2000):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if isinstance(screen, RoundScreen):
                seen["rounds"] += 1
                await pilot.press("enter")
            elif isinstance(screen, ChoiceScreen):
                seen["choices"] += 1
                await pilot.press(str(rng.randint(1, len(screen.moves))))
            elif app.my_view() is not None:
                view = app.my_view()
                assert view is not None
                # The hand on the screen is the person's hand, and only theirs.
                assert hand_row(app).cards == cards_of(session.state.hands[0])
                await pilot.press(str(rng.randint(1, view.hand.bit_count())), "enter")
                seen["plays"] += 1
            else:
                await pilot.pause(0.01)
        assert isinstance(app.screen, GameOverScreen)
        state = app.session.state
        outcome = state.outcome()
        assert state.is_over and outcome is not None
        winner = app.session.side_name(outcome.winner) if outcome.winner is not None else None
        assert winner is not None and winner in app.screen.headline
        assert str(max(state.scores)) in app.screen.headline
        assert seen["rounds"] == len(state.rounds)
        assert seen["plays"] == sum(1 for r in state.rounds for p in r.plays if p.seat == 0)
        app.save_path = path
        await pilot.press("s")  # save the finished game, then back to the end screen
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)

    drive(app, test)
    assert app.return_value == f"Game saved to {path}. Continue with: basra play --resume {path}"
    finished = Session.load(path).state
    assert finished.is_over and finished.fingerprint() == app.session.state.fingerprint()


def choice_position() -> Session:
    """Your turn: 7♠ can take A♥+6♦ or A♠+6♦; K♦ takes nothing."""
    state = GameState.from_position(
        "egyptian",
        floor=["AH", "AS", "6D", "QC"],
        hands=[["7S", "KD"], ["3C", "4C"]],
        stock=[],
        turn=0,
    )
    return Session(state, [Seat("You"), Seat("Nour", "easy")], seed=1)


def test_choosing_among_capture_sets() -> None:
    app = BasraApp(choice_position(), pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        assert "2 different sets" in status(app)
        floor = app.table.query_one("#floor", CardRow)
        assert set(floor.faces) == {parse_card(c) for c in ("AH", "AS", "6D")}
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        choice = app.screen
        assert isinstance(choice, ChoiceScreen)
        assert [m.text() for m in choice.moves] == ["7SxAS,6D", "7SxAH,6D"]
        assert "A♥" in str(choice.labels[1]) and "6♦" in str(choice.labels[1])
        await pilot.press("escape")  # back to the hand: nothing was played
        assert app.session.state.plays == []
        await pilot.press("enter", "down", "enter")
        await until(pilot, lambda: len(app.session.state.plays) >= 1)
        assert app.session.state.plays[0].move.text() == "7SxAH,6D"
        assert "You played 7♠ and took A♥ 6♦." in log_text(app)

    drive(app, test)


def test_a_card_that_must_take_cannot_be_laid_down() -> None:
    app = BasraApp(choice_position(), pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.press("1", "t")
        assert "so it must" in status(app) and "cannot be laid on the floor" in status(app)
        assert app.session.state.plays == []
        await pilot.press("2")
        assert "K♦ takes nothing here" in status(app)
        await pilot.press("t")
        await until(pilot, lambda: len(app.session.state.plays) >= 1)
        assert app.session.state.plays[0].move.text() == "KD"

    drive(app, test)


def test_a_hint_names_the_move_and_why() -> None:
    session = Session.new(seats=["person", "medium"], seed=8)
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        view = app.my_view()
        assert view is not None
        expected = hint(view)
        await pilot.press("h")
        await until(pilot, lambda: status(app).startswith("Hint: "))
        text = status(app)
        assert text.startswith("Hint: ") and expected.reason in text
        assert card_label(expected.move.card) in text
        assert app.hinted == expected.move
        assert hand_row(app).cards[hand_row(app).selected or 0] == expected.move.card
        plays = len(session.state.plays)
        await pilot.press("enter")
        if isinstance(app.screen, ChoiceScreen):  # the hinted set is the one offered first
            await pilot.press("enter")
        await until(pilot, lambda: len(session.state.plays) > plays)
        assert session.state.plays[plays].move == expected.move

    drive(app, test)


def test_the_mouse_picks_and_plays_a_card() -> None:
    app = BasraApp(choice_position(), pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        hand = hand_row(app)
        # The second card (K♦) starts 6 cells in; the row has one cell of padding.
        assert await pilot.click("#hand", offset=(1 + 6 + 2, 1))
        assert app.selected == 1
        assert await pilot.click("#hand", offset=(1 + 6 + 2, 1))
        await until(pilot, lambda: len(app.session.state.plays) >= 1)
        assert app.session.state.plays[0].move.text() == "KD"
        assert hand.card_at(3, 1) == 0 and hand.card_at(5, 1) is None

    drive(app, test)


def test_save_and_resume_reproduce_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"

    def new() -> Session:
        return Session.new("cypriot_bastra", players=3, seats=["person", "easy", "hard"], seed=3)

    async def play(app: BasraApp, pilot: Pilot[Any], moves: int) -> None:
        for _ in range(moves):
            await until(pilot, lambda: my_turn(app)() or isinstance(app.screen, RoundScreen))
            if isinstance(app.screen, RoundScreen):
                await pilot.press("enter")
                await until(pilot, my_turn(app))
            await pilot.press("enter")
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
        await until(pilot, my_turn(app))

    fingerprints: dict[str, object] = {}

    async def first(app: BasraApp, pilot: Pilot[Any]) -> None:
        await play(app, pilot, 5)
        app.save_path = path
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("enter")
        await until(pilot, lambda: app.at_table)
        assert f"Saved to {path}" in status(app)
        fingerprints["saved"] = app.session.state.fingerprint()
        await play(app, pilot, 20)
        fingerprints["went on"] = app.session.state.fingerprint()

    drive(BasraApp(new(), pace=0), first)
    assert Record.from_json(__import__("json").loads(path.read_text())).replay()

    async def second(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        assert app.session.state.fingerprint() == fingerprints["saved"]
        assert hand_row(app).cards == cards_of(app.session.state.hands[0])
        await play(app, pilot, 20)
        assert app.session.state.fingerprint() == fingerprints["went on"]

    drive(BasraApp(Session.load(path), pace=0), second)


def test_ctrl_c_offers_to_save(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    app = BasraApp(Session.new(seed=4), pace=0, save_path=path)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, LeaveScreen)
        await pilot.press("escape")
        assert app.at_table and app.is_running
        await pilot.press("enter")
        await pilot.press("s")  # Ctrl+C still leaves while typing a file name
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, LeaveScreen)
        await pilot.press("s")
        await until(pilot, lambda: not app.is_running)

    drive(app, test)
    assert app.return_value is not None and "basra play --resume" in app.return_value
    resumed = Session.load(path)
    assert resumed.state.fingerprint() == app.session.state.fingerprint()
    assert len(resumed.state.plays) >= 1


def test_people_pass_the_keyboard_and_see_only_their_own_hand() -> None:
    session = Session.new(seats=["person", "person"], seed=6)
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        for _ in range(3):
            await until(pilot, lambda: isinstance(app.screen, PassScreen))
            screen = app.screen
            assert isinstance(screen, PassScreen)
            seat = session.state.turn
            assert screen.person == f"Player {seat + 1}"
            assert hand_row(app).cards == []  # nobody's hand under the pass screen
            await pilot.press("enter")
            await until(pilot, my_turn(app))
            assert hand_row(app).cards == cards_of(session.state.hands[seat])
            await pilot.press("enter")
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")

    drive(app, test)


def test_the_table_fits_small_and_grows_on_big_terminals() -> None:
    session = Session.new(
        "lebanese", players=4, teams=True, seats=["person"] + ["easy"] * 3, seed=2
    )
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        for size in ((80, 24), (120, 40), (60, 20), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.05)
            hand, status_line = app.table.query_one("#hand"), app.table.query_one("#status")
            assert hand.region.bottom <= status_line.region.y <= size[1] - 2
            assert hand_row(app).big == (size == (120, 40))
            assert len(hand_row(app).cards) == 6
        await pilot.press("enter")
        await until(pilot, my_turn(app))

    drive(app, test)
