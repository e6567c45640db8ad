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

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from basra.cards import cards_of, parse_card
from basra.coach import hint
from basra.record import Record
from basra.state import GameState
from basra.tui.app import BasraApp
from basra.tui.cards import CardRow
from basra.tui.dialogs import (
    ChoiceScreen,
    GameOverScreen,
    HelpScreen,
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


def ready(screen: PassScreen) -> Callable[[], bool]:
    return lambda: screen.is_ready


def status(app: BasraApp) -> str:
    return str(app.table.query_one("#status").render())


def log_text(app: BasraApp) -> str:
    return str(app.table.query_one("#log-text").render())


def lines_of(widget: Widget) -> list[str]:
    """The lines a widget draws on the screen (its padding included), as text."""
    width, height = widget.region.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def hand_label(app: BasraApp) -> str:
    return str(app.table.query_one("#hand-label").render())


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
    assert app.return_value == f"The finished game is saved to {path}."  # nothing to continue
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
        # The floor shows what the highlighted set takes, and only that.
        assert set(floor.faces) == {parse_card(c) for c in ("AS", "6D")}
        await pilot.press("down")
        assert set(floor.faces) == {parse_card(c) for c in ("AH", "6D")}
        await pilot.press("escape")  # back to the hand: nothing was played
        assert app.session.state.plays == []
        assert set(floor.faces) == {parse_card(c) for c in ("AH", "AS", "6D")}
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
            await until(pilot, ready(screen))
            await pilot.press("enter")
            await until(pilot, my_turn(app))
            assert hand_row(app).cards == cards_of(session.state.hands[seat])
            await pilot.press("enter")
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")

    drive(app, test)


def test_enter_twice_never_skips_the_pass_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second Enter typed with the move stays on the pass screen: the next person's
    hand is not shown to the one who just played."""
    # Longer than the keys below take on a busy machine, so they all come too soon.
    monkeypatch.setattr(PassScreen, "READY_DELAY", 2.0)
    session = Session.new(seats=["person", "person"], names=["Amal", "Omar"], seed=6)
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, PassScreen))
        first = app.screen
        assert isinstance(first, PassScreen)
        await pilot.press("enter", "enter", "space")  # too soon: the screen stays
        assert app.screen is first and hand_row(app).cards == []
        await until(pilot, ready(first))
        await pilot.press("enter")
        await until(pilot, my_turn(app))
        player = session.state.turn
        await pilot.press("enter", "enter")  # play, and a second Enter at once
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter", "enter")
        await until(pilot, lambda: isinstance(app.screen, PassScreen))
        second = app.screen
        assert isinstance(second, PassScreen) and second.person != session.names[player]
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert app.screen is second and not second.is_ready
        assert hand_row(app).cards == [] and app.viewer is None
        await until(pilot, ready(second))
        await pilot.click("#ready")
        await until(pilot, my_turn(app))
        assert app.viewer == session.state.turn != player

    drive(app, test)


def test_a_key_typed_before_the_pass_screen_showed_does_nothing() -> None:
    """Keys wait in a queue while the app is busy: an Enter typed before the screen
    showed may arrive after its delay, and must still not dismiss it."""
    from textual import events

    app = BasraApp(Session.new(seats=["person", "person"], seed=6), pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, PassScreen))
        screen = app.screen
        assert isinstance(screen, PassScreen)
        await until(pilot, ready(screen))
        early = events.Key("enter", "\r")
        early.time = screen.shown_at - 0.01
        app.post_message(early)
        await pilot.pause(0.1)
        assert app.screen is screen
        app.post_message(events.Key("enter", "\r"))
        await until(pilot, my_turn(app))

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


def last_cards(players: int = 2, names: list[str] | None = None, **kwargs: Any) -> Session:
    """Your turn with one card each and an empty stock: the round ends after one card each."""
    hands = [["7S"], ["3C"], ["4D"], ["5H"]][:players]
    state = GameState.from_position(
        "egyptian", players, floor=["KD"], hands=hands, stock=[], turn=0, **kwargs
    )
    names = names or ["You", "Nour", "Karim", "Salma"][:players]
    return Session(state, [Seat(names[0])] + [Seat(n, "easy") for n in names[1:]], seed=1)


def test_the_help_tells_the_rules_in_play() -> None:
    state = GameState("egyptian", 2, rules={"target": 61, "majority_tie": "none"})
    session = Session(state, [Seat("You"), Seat("Nour", "easy")], seed=3, rules_name="House rules")
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        title = str(app.table.query_one("#title").render())
        assert title.startswith("House rules · 2 players · to 61")
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert help_screen.heading == "House rules (Egyptian Basra with custom settings)"
        words = " ".join(" ".join(s.items) for s in help_screen.sections)
        assert "A basra is clearing the whole floor with any card but a jack." in words
        assert "Card points: each A = 1, each J = 1, 2♣ = 2, 10♦ = 3." in words
        assert "a side reaches 61" in words and "On a tie nobody gets it." in words
        assert "101" not in words
        shown = "\n".join(lines_of(help_screen.query("VerticalScroll Static").last()))
        assert "House rules (Egyptian Basra with custom settings)" in shown
        assert "The basra" in shown and "Card points: each A = 1" in shown
        await pilot.press("escape")
        assert app.at_table

    drive(app, test)


def test_the_round_sheet_says_who_took_the_leftovers_only_when_there_were_some() -> None:
    found: dict[bool, Session] = {}
    for seed in range(1, 400):
        session = Session.new(seats=["person", "easy"], seed=seed)
        session.deal()
        while session.state.phase == "play":
            view = session.view(session.state.turn)
            move = view.legal_moves()[-1] if view.seat == 0 else session.bot_move(view)
            session.play(move)
        left = session.leftovers(0)
        assert left is not None
        found.setdefault(left > 0, session)
        if len(found) == 2:
            break
    assert set(found) == {True, False}
    for some, session in found.items():
        drive(BasraApp(session, pace=0), round_notes_test(some))


def round_notes_test(some: bool) -> Test:
    """The round sheet's notes name the leftovers when ``some`` were left, else not."""

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, RoundScreen))
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        notes = " ".join(screen.notes)
        result = app.session.state.rounds[0].result
        assert result is not None and result.last_capture_side is not None
        left = app.session.leftovers(0)
        if some:
            cards = "the card" if left == 1 else f"the {left} cards"
            name = app.session.side_name(result.last_capture_side)
            assert f"{name} took {cards} left on the floor" in notes
        else:
            assert "left on the floor" not in notes

    return test


def test_the_whole_round_is_in_the_log_and_it_scrolls() -> None:
    session = Session.new(seats=["person", "easy"], seed=5)
    session.deal()
    rng = random.Random(2)
    state = session.state
    while len(state.plays) < 30 or state.turn != 0 or state.hands[0].bit_count() < 2:
        session.play(rng.choice(session.state.legal_moves()))
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.pause(0.1)
        text = log_text(app).splitlines()
        plays = len(app.session.state.plays)
        assert len(text) == 1 + plays and text[0].startswith("Round 1: ")
        assert "earlier plays" not in log_text(app)
        log = app.table.query_one("#log")
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y  # the newest shows
        await pilot.press("pageup")
        assert log.scroll_y < log.max_scroll_y
        await pilot.press("pageup", "pageup", "pageup", "pageup")
        assert log.scroll_y == 0  # back to the first play
        await pilot.press("right")  # the arrows still pick cards
        assert app.selected == 1
        await pilot.press("enter")
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")
        await until(pilot, lambda: len(app.session.state.plays) >= plays + 2)
        await pilot.pause(0.1)
        assert log.scroll_y == log.max_scroll_y  # a new play scrolls to the end

    drive(app, test)


def shown_actions(app: BasraApp) -> set[str]:
    return {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show}


def test_watching_bots_offers_no_keys_to_play() -> None:
    app = BasraApp(Session.new(seats=["easy", "easy"], seed=2), pace=0.5)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.session.state.phase == "play")
        assert shown_actions(app) == {"save", "help", "leave"}
        await pilot.press("enter", "h", "t")
        assert app.message is None  # nothing to answer: those keys are not offered

    drive(app, test)
    app = BasraApp(Session.new(seats=["person", "easy"], seed=2), pace=0)

    async def with_a_person(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        assert {"play", "trail", "hint", "save", "help", "leave"} <= shown_actions(app)

    drive(app, with_a_person)


def test_the_hand_label_with_one_card_and_at_the_end() -> None:
    app = BasraApp(last_cards(scores=[150, 0]), pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        assert hand_label(app) == "Your hand · Enter to play your last card"
        assert "1-1" not in status(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RoundScreen))
        assert "pick" not in hand_label(app) and "Enter" not in hand_label(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert hand_label(app) == "Your hand" and status(app) == "The game is over."

    drive(app, test)


def test_the_round_sheet_fits_a_small_terminal() -> None:
    names = ["You", "Bartholomew the Bot", "Alexandria Nour", "Karim of Damascus"]
    app = BasraApp(last_cards(4, names), pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RoundScreen))
        await pilot.pause(0.05)
        box = app.screen.query_one("Vertical").region
        assert box.x >= 0 and box.right <= 60 and box.bottom <= 20
        sheet = lines_of(app.screen.query_one("#sheet"))
        assert all(len(line.rstrip()) <= box.width for line in sheet)
        assert any(line.lstrip().startswith("Score") for line in sheet)

    drive(app, test, size=(60, 20))


def seat_lines(app: BasraApp) -> list[str]:
    return [line.rstrip() for line in lines_of(app.table.query_one("#seats"))]


def test_the_scores_stay_near_the_names_and_in_their_columns() -> None:
    long_name = "Bartholomew Alexander the Third of Basra"
    state = GameState.from_position(
        "egyptian", floor=["5H"], hands=[["5S", "9C"], ["KD", "QC"]], stock=[], turn=0
    )
    session = Session(state, [Seat("You"), Seat(long_name, "easy")], seed=1)
    app = BasraApp(session, pace=1)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        wide = seat_lines(app)  # 160 columns: the numbers follow the longest name closely
        assert wide[0].split() == ["Player", "Hand", "Taken", "Basras", "Score"]
        longest = len(f"  {long_name} (easy) · deals")
        assert long_name in wide[2] and wide[0].index("Hand") <= 1 + longest + 4
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        before = seat_lines(app)
        header = before[0]
        # A long name is cut short; its level and its card count still show.
        assert "Bartholomew" in before[2] and "…" in before[2] and "(easy)" in before[2]
        assert before[2].split()[-4:] == ["2", "0", "0", "0"]
        assert all(len(line) <= 80 for line in before)
        await pilot.press("enter")  # 5♠ takes the lone 5♥: a basra
        await until(pilot, lambda: app.session.state.basras[0] == 1)
        await pilot.pause(0.1)
        after = seat_lines(app)
        assert "1 (+10)" in after[1]
        assert after[0] == header  # no column moved
        for line in (after[1], before[1]):
            assert line.index("You") == header.index("Player") + 2

    drive(app, test, size=(160, 50))


def test_quit_from_the_command_palette_offers_to_save(tmp_path: Path) -> None:
    app = BasraApp(Session.new(seed=4), pace=0, save_path=tmp_path / "left.json")

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.press("ctrl+p")
        await pilot.press(*"quit")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
        assert app.is_running
        await pilot.press("s")
        await until(pilot, lambda: not app.is_running)

    drive(app, test)
    assert (tmp_path / "left.json").exists()


def test_saving_never_replaces_another_file_silently(tmp_path: Path) -> None:
    precious = tmp_path / "game.json"
    precious.write_text("another game")
    app = BasraApp(Session.new(seed=4), pace=0, save_path=precious)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.press("s", "enter")  # the name offered is taken: ask first
        assert isinstance(app.screen, SaveScreen)
        assert "already exists" in str(app.screen.query_one("#error").render())
        assert precious.read_text() == "another game"
        await pilot.press("escape")
        await pilot.press("q")  # leaving saves under a new name instead
        leave = app.screen
        assert isinstance(leave, LeaveScreen) and leave.path == tmp_path / "game-2.json"
        await pilot.press("s")
        await until(pilot, lambda: not app.is_running)

    drive(app, test)
    assert precious.read_text() == "another game"
    assert app.return_value is not None and "game-2.json" in app.return_value
    saved = tmp_path / "game-2.json"
    assert Session.load(saved).state.fingerprint() == app.session.state.fingerprint()

    # Asked twice, the file is replaced; and the game resumed from a file goes back there.
    app = BasraApp(Session.load(saved), pace=0, save_path=saved, resumed_from=saved)

    async def again(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, my_turn(app))
        await pilot.press("enter")
        await until(pilot, my_turn(app))
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, SaveScreen)
        screen.query_one("Input").value = str(precious)  # type: ignore[attr-defined]
        await pilot.press("enter", "enter")
        await until(pilot, lambda: app.at_table)
        await pilot.press("ctrl+c")
        leave = app.screen
        assert isinstance(leave, LeaveScreen) and leave.path == precious
        await pilot.press("s")
        await until(pilot, lambda: not app.is_running)

    drive(app, again)
    assert Session.load(precious).state.fingerprint() == app.session.state.fingerprint()
    assert not (tmp_path / "game-3.json").exists()


def test_r_on_the_score_sheet_reviews_the_round_and_comes_back() -> None:
    from basra.tui.review import ReviewScreen

    session = Session.new(overrides={"target": 200}, seats=["medium", "easy"], seed=5)
    app = BasraApp(session, pace=0)
    app.review_samples = 60

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, RoundScreen), timeout=30)
        sheet = app.screen
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: screen.review is not None, timeout=60)
        review = screen.review
        assert review is not None
        plays = session.state.rounds[0].plays
        assert len(review.decisions) == len(plays)
        assert [d.spot.played for d in review.decisions] == [p.move for p in plays]
        await pilot.pause(0.05)
        options = screen.query_one("#decisions")
        assert options.option_count == len(plays)  # type: ignore[attr-defined]
        detail = str(screen.query_one("#detail").render())
        assert detail.startswith("Round 1, play ") and "Floor" in detail and "Hand" in detail
        summary = "\n".join(lines_of(screen.query_one("#summary")))
        assert "accuracy" in summary and "seat 1 (" in summary and "seat 2 (" in summary
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is sheet)
        await pilot.press("enter")
        await until(pilot, lambda: len(session.state.rounds) == 2)  # the next round is dealt

    drive(app, test, size=(100, 40))


def test_r_at_the_end_reviews_the_whole_game() -> None:
    from basra.tui.review import ReviewScreen

    session = Session.new(overrides={"target": 1}, seats=["easy", "easy"], seed=6)
    app = BasraApp(session, pace=0)
    app.review_samples = 40

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, RoundScreen), timeout=30)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.screen
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.title_text == "Review of the game"
        await until(pilot, lambda: screen.review is not None, timeout=60)
        assert screen.review is not None
        plays = [p for log in session.state.rounds for p in log.plays]
        assert len(screen.review.decisions) == len(plays)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is over)

    drive(app, test, size=(100, 40))
