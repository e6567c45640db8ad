"""``basra learn`` and ``basra puzzles play`` as a new player met them (issue 35): the
footer in the chosen language, ``n`` that says why it does not go on yet, scores that say
whose they are, the partner named, a target step whose basra reaches the target, and one
meaning for ``--theme``."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from basra.learn.lessons import course_for
from basra.puzzles.format import shipped_puzzles
from basra.state import GameState

pytest.importorskip("textual")

from basra.tui.learn import LearnApp
from basra.tui.position import PositionApp
from basra.tui.puzzles import PuzzleApp


def footer_words(app: PositionApp) -> set[str]:
    from textual.widgets._footer import FooterKey

    return {key.description for key in app.query(FooterKey)}


def test_the_footer_speaks_the_chosen_language() -> None:
    async def main() -> None:
        app = LearnApp(course_for("egyptian"), lang="ar")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            words = footer_words(app)
            assert {"العب", "التالي", "خروج", "السابق"} <= words and "Quit" not in words
            # l goes round the catalogues' languages: Greek, French, then English again.
            await pilot.press("l")
            await pilot.pause()
            words = footer_words(app)
            assert {"Παίξε", "Επόμενο", "Έξοδος", "Προηγούμενο"} <= words and "خروج" not in words
            await pilot.press("l")
            await pilot.pause()
            assert {"Jouer", "Suivant", "Quitter", "Précédent"} <= footer_words(app)
            await pilot.press("l")
            await pilot.pause()
            words = footer_words(app)
            assert {"Play", "Next", "Quit", "Previous"} <= words and "Quitter" not in words
        puzzles = PuzzleApp(list(shipped_puzzles()[:1]), lang="ar")
        async with puzzles.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert "خروج" in footer_words(puzzles)

    asyncio.run(main())


def test_n_before_a_step_or_puzzle_is_done_says_why() -> None:
    async def main() -> None:
        app = LearnApp(course_for("egyptian"))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert app.index == 0
            assert app.message.plain.startswith("Play the step's move first: n goes on")
        puzzles = PuzzleApp(list(shipped_puzzles()[:2]))
        async with puzzles.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert puzzles.index == 0
            assert puzzles.message.plain.startswith("Play a move first: n shows the next")

    asyncio.run(main())


def info_of(puzzle: Any, lang: str = "en") -> str:
    async def main() -> str:
        app = PuzzleApp([puzzle], lang=lang)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            return app.info_text().plain

    return asyncio.run(main())


def test_a_puzzles_scores_say_whose_they_are_and_name_the_partner() -> None:
    puzzles = shipped_puzzles()
    two = next(p for p in puzzles if p.state().players == 2 and p.seat == 1)
    scores = list(two.state().scores)
    info = info_of(two)
    assert info.startswith(f"You are seat 2; score: you {scores[1]}, seat 1 {scores[0]}; ")
    four = next(p for p in puzzles if p.state().players == 4 and p.state().teams)
    state: GameState = four.state()
    partner = (four.seat + 2) % 4 + 1
    info = info_of(four)
    assert info.startswith(f"You are seat {four.seat + 1} (your partner: seat {partner}); ")
    mine = state.side_of[four.seat]
    theirs = "seats 2+4" if mine == 0 else "seats 1+3"
    assert f"score: you {state.scores[mine]}, {theirs} {state.scores[1 - mine]}" in info
    assert "شريكك المقعد" in info_of(four, "ar")


@pytest.mark.parametrize("variant", ["egyptian", "lebanese", "cypriot_bastra"])
def test_the_target_steps_basra_reaches_the_target(variant: str) -> None:
    course = course_for(variant)
    step = course.step("target")
    ahead = step.view().scores[step.view().seat]
    worth = step.view().rules.basra_values[step.taught.card]
    assert ahead + worth >= step.view().rules.target
    assert f"worth {worth}, to reach it" in step.goal["en"]


def test_theme_is_a_puzzles_topic_and_colours_are_plays() -> None:
    def helped(*command: str) -> str:
        run = subprocess.run(
            [sys.executable, "-m", "basra", *command, "--help"], capture_output=True, text=True
        )
        return " ".join(run.stdout.split())

    play = helped("play")
    assert "--colours {dark,light}" in play and "--theme" not in play
    assert "--theme T only puzzles of this theme, their topic" in helped("puzzles", "play")
