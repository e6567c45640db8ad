"""The terminal game's ends and edges (issue 35): ``q`` on the pass-the-keyboard screen
leaves (offering to save), a finished game is not offered to be continued, and the game's
review shows its whole headings at 120 columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from basra.tui.app import BasraApp
from basra.tui.dialogs import GameOverScreen, LeaveScreen, PassScreen, RoundScreen
from basra.tui.session import Session

from .test_tui_app import drive, lines_of, ready, until


def test_q_on_the_pass_screen_offers_to_leave() -> None:
    session = Session.new(seats=["person", "person"], seed=6)
    app = BasraApp(session, pace=0)

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, PassScreen))
        screen = app.screen
        assert isinstance(screen, PassScreen)
        await until(pilot, ready(screen))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
        await pilot.press("escape")  # keep playing: back to the pass screen, hand unseen
        await until(pilot, lambda: app.screen is screen)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)

    drive(app, test)


def test_a_finished_game_is_not_offered_to_be_continued(tmp_path: Path) -> None:
    session = Session.new(overrides={"target": 1}, seats=["easy", "easy"], seed=6)
    app = BasraApp(session, pace=0, save_path=tmp_path / "g.json")

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, RoundScreen), timeout=30)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("s")
        await until(pilot, lambda: not isinstance(app.screen, GameOverScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not isinstance(app.screen, LeaveScreen)
        await until(pilot, lambda: not app.is_running)

    drive(app, test)
    assert app.return_value is not None and "--resume" not in app.return_value
    assert "saved to" in app.return_value


def test_the_games_review_shows_whole_headings_at_120_columns() -> None:
    from basra.tui.review import ReviewScreen

    session = Session.new(overrides={"target": 1}, seats=["easy", "easy"], seed=6)
    app = BasraApp(session, pace=0)
    app.review_samples = 20

    async def test(app: BasraApp, pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, RoundScreen), timeout=30)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: screen.review is not None, timeout=60)
        await pilot.pause()
        drawn = "\n".join(lines_of(screen.query_one("#summary")))
        for heading in ("decisions", "mean loss", "accuracy", "mistakes", "blunders", "basras"):
            assert heading in drawn, drawn
        assert "…" not in drawn, drawn

    drive(app, test, size=(120, 40))
