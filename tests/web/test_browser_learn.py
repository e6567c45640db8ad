"""Lessons and puzzles in the browser (Chromium): a course completed by pointer and
another by keyboard alone; a puzzle tried and solved, with every API answer, the page
and what a screen reader heard scanned, before the try, for a card its seat could not
see; the day's puzzle, the streak and "your mistakes" shown; the links to /learn from
the home and rules pages; axe-core finds nothing on /learn, a course, /puzzles and
/puzzles/mistakes in English and Arabic, at a phone's size and a laptop's (each
screenshot kept in out/screens for a person to look at).

All share one server and one browser.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe, raw_words
from tests.web.helpers import FAST, ServerThread, create_table, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (browser is a fixture)
from tests.web.test_learn import SHIPPED, card_texts, hidden_of, operator_set, without_rules

from basra.learn.lessons import course_for
from basra.server.app import AppConfig
from basra.server.features.puzzles import PuzzleConfig
from basra.server.identity import token_hash

pytestmark = pytest.mark.browser

LISTEN = """
window.__said = [];
document.addEventListener("basra:announce", (e) => window.__said.push(e.detail.text));
"""
RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("learnweb") / "basra.db")


@pytest.fixture(scope="module")
def site(database: str) -> Iterator[str]:
    # The rated pool: the operator's own set (here the shipped lines, whose answers the
    # test knows); the shipped set itself is practice.
    rated = operator_set(Path(database).parent)
    config = AppConfig(database=database, service=FAST, puzzles=PuzzleConfig(rated_sets=(rated,)))
    with ServerThread(config) as server:
        yield server.url


def open_page(
    browser: Any,  # noqa: F811
    site: str,
    path: str,
    lang: str = "en",
    width: int = 1366,
    height: int = 800,
    token: str | None = None,
) -> Any:
    """A person's page (a new identity unless ``token``; cards played at one click) at
    ``path``."""
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    items = {"basra.token": token or new_token(site), "basra.name": "Amal", "basra.confirm": "0"}
    script = "".join(f"localStorage.setItem({k!r}, {v!r});" for k, v in items.items())
    context.add_init_script(LISTEN + script)
    page = context.new_page()
    joiner = "&" if "?" in path else "?"
    page.goto(f"{site}{path}{joiner}lang={lang}&anim=fast")
    return page


def card_words(card: str) -> str:
    """How the page names a card in English ("7 of spades")."""
    return f"{RANKS.get(card[:-1], card[:-1])} of {SUIT_WORDS[card[-1]]}"


def focus_in_hand(page: Any) -> bool:
    return bool(page.evaluate("!!document.activeElement.closest('.hand')"))


def taught_moves(variant: str) -> dict[str, str]:
    """Each step's taught move (the core's course: the page is never told it)."""
    return {step.id: step.taught.text() for step in course_for(variant).steps}


# ------------------------------------------------------------------ lessons


def test_a_course_completed_by_pointer(browser: Any, site: str) -> None:  # noqa: F811
    # The home page leads to the lessons.
    page = open_page(browser, site, "/")
    page.click("#home-learn a")
    page.wait_for_selector('#course-list li[data-course="egyptian"]')
    page.click('#course-list li[data-course="egyptian"] a')
    taught = taught_moves("egyptian")
    steps = [s["id"] for s in http(f"{site}/api/lessons/egyptian")[1]["steps"]]
    assert steps == list(taught)
    for index, step in enumerate(steps):
        page.wait_for_selector(f'button[data-step="{step}"][aria-current="step"]')
        page.wait_for_selector("#lesson-table .hand button.card")
        move = taught[step]
        card = move.split("x")[0]
        if index == 0:
            # Another card first: refused, and the step says why in words.
            other = page.locator(f'#lesson-table .hand button.card:not([data-card="{card}"])')
            if other.count():
                other.first.click()
                if page.locator(".choices .choice").count():
                    page.locator(".choices .choice").first.click()
                page.wait_for_selector("#lesson-result.wrong #lesson-words")
                assert page.inner_text("#lesson-words").strip()
        page.click(f'#lesson-table .hand button.card[data-card="{card}"]')
        if page.locator(".choices .choice").count():
            page.click(f'.choices .choice[data-move="{move}"]')
        page.wait_for_selector("#lesson-result.right")
        if index == 0:
            shot(page, "learn-step-right-en")
        page.click("#lesson-next")
    page.wait_for_selector('#course-list li[data-course="egyptian"] .tag.win')
    page.context.close()


def test_a_course_completed_by_keyboard_alone(browser: Any, site: str) -> None:  # noqa: F811
    variant = "lebanese"
    page = open_page(browser, site, f"/learn/{variant}")
    taught = taught_moves(variant)
    steps = list(taught)
    for index, step in enumerate(steps):
        page.wait_for_selector(f'button[data-step="{step}"][aria-current="step"]')
        page.wait_for_selector("#lesson-table .hand button.card")
        if index == 0:
            # The first Tab reaches the skip link, which leads to the hand.
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "skip-link"
            assert page.inner_text("#skip-link") == "Skip to the table"
            page.keyboard.press("Enter")
            assert focus_in_hand(page)
        # Tab until the hand has the focus, as a person would.
        for _ in range(60):
            if focus_in_hand(page):
                break
            page.keyboard.press("Tab")
        assert focus_in_hand(page), f"Tab never reached the hand at step {step}"
        move = taught[step]
        hand = page.eval_on_selector_all(
            "#lesson-table .hand button.card", "cards => cards.map((c) => c.dataset.card)"
        )
        page.keyboard.press(str(hand.index(move.split("x")[0]) + 1))
        if page.locator(".choices .choice").count():
            moves = page.eval_on_selector_all(
                ".choices .choice", "choices => choices.map((c) => c.dataset.move)"
            )
            page.keyboard.press(str(moves.index(move) + 1))
        page.wait_for_selector("#lesson-result.right")
        # The focus goes to the way on; the screen reader heard it was right.
        assert page.evaluate("document.activeElement.id") == "lesson-next"
        said = page.evaluate("window.__said")
        assert any(text.startswith("Right") for text in said), said[-3:]
        if index == len(steps) - 1:
            assert page.locator("#course-done").count() == 1
        page.keyboard.press("Enter")
    page.wait_for_selector(f'#course-list li[data-course="{variant}"] .tag.win')
    page.context.close()


def course_variants(site: str) -> list[str]:
    return [c["variant"] for c in http(f"{site}/api/lessons")[1]["courses"]]


def test_the_rules_page_links_to_its_course(browser: Any, site: str) -> None:  # noqa: F811
    page = open_page(browser, site, "/rules/egyptian")
    page.click("#rules-learn a")
    page.wait_for_selector("#lesson-table .hand button.card")
    assert page.url.split("?")[0].endswith("/learn/egyptian")
    assert page.locator("#nav-learn").get_attribute("href") == "/learn"
    page.context.close()


# ------------------------------------------------------------------ puzzles


WITHOUT_THEMES = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelector("#puzzle-theme")?.remove();
  return [copy.outerHTML, copy.querySelector("body").textContent];
}"""
"""The page's HTML and text, but for the list of themes' names (fixed words)."""


def hidden_named(text: str, hidden: set[str]) -> set[str]:
    """The hidden cards a text names, as card text or in words."""
    named = card_texts(text) & hidden
    named |= {card for card in hidden if card_words(card) in text.lower()}
    return named


def test_a_puzzle_tried_and_solved_shows_no_hidden_card_before(browser: Any, site: str) -> None:  # noqa: F811
    answers: list[tuple[str, Any]] = []

    def keep(response: Any) -> None:
        if "/api/" in response.url and "json" in response.headers.get("content-type", ""):
            answers.append((response.url, response.json()))

    context = browser.new_context(viewport={"width": 1366, "height": 800})
    items = {"basra.token": new_token(site), "basra.name": "Amal", "basra.confirm": "0"}
    context.add_init_script(
        LISTEN + "".join(f"localStorage.setItem({k!r}, {v!r});" for k, v in items.items())
    )
    page = context.new_page()
    page.on("response", keep)
    page.goto(f"{site}/learn?lang=en&anim=fast")
    page.click("#go-puzzles")
    page.wait_for_selector("#puzzle-table .hand button.card")
    page.wait_for_selector("#puzzle-you #puzzle-streak")
    served = next(body for url, body in answers if "/api/puzzles/next" in url)
    puzzle = SHIPPED[served["puzzle"]["id"]]
    hidden = hidden_of(puzzle)
    assert hidden
    # Before the try: no puzzle API answer, nothing on the page, nothing said names a
    # hidden card. The themes' names are fixed words ("The 7♦"), the same for every
    # puzzle, as the rules' settings are; they are left out of the scan.
    for url, body in answers:
        if "/api/puzzles" in url:
            fixed = {k: v for k, v in body.items() if k != "themes"}
            named = card_texts(json.dumps(without_rules(fixed), ensure_ascii=False)) & hidden
            assert not named, f"{url} named {sorted(named)} before the try"
    html, text = page.evaluate(WITHOUT_THEMES)
    assert not hidden_named(html, hidden), "the page's HTML"
    assert not hidden_named(text, hidden), "the page's text"
    assert not hidden_named(" ".join(page.evaluate("window.__said")), hidden), "what was said"
    assert page.inner_text("#puzzle-streak") == "0"
    # The try: the answer, by pointer.
    card = puzzle.answer.split("x")[0]
    page.click(f'#puzzle-table .hand button.card[data-card="{card}"]')
    if page.locator(".choices .choice").count():
        page.click(f'.choices .choice[data-move="{puzzle.answer}"]')
    page.wait_for_selector("#puzzle-solution.right")
    assert page.evaluate("document.activeElement.id") == "puzzle-result-heading"
    assert "streak: 1" in page.inner_text("#puzzle-rating-after").lower()
    page.wait_for_function("document.getElementById('puzzle-streak')?.textContent === '1'")
    # Now the whole position is the solver's to see.
    shown = page.inner_text("#puzzle-position")
    assert hidden_named(page.inner_html("#puzzle-position"), hidden) == hidden, shown
    assert page.locator(f'#puzzle-moves tr[data-move="{puzzle.answer}"] .tag.win').count() == 1
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, "puzzle-solved-en")
    # The day's puzzle, and the person's mistakes (none yet: no game reviewed).
    page.click("#mode-daily")
    page.wait_for_function(
        "document.querySelector('#puzzle-heading')?.textContent.startsWith('Puzzle of the day')"
    )
    page.click("#mode-mistakes")
    page.wait_for_selector("#mistakes-empty")
    # Practice: a shipped puzzle, and the page says it is never rated.
    page.click("#mode-practice")
    page.wait_for_selector("#puzzle-table .hand button.card")
    assert page.inner_text("#puzzle-rated").startswith("Practice")
    context.close()


def test_your_mistakes_are_listed_and_open(browser: Any, site: str, database: str) -> None:  # noqa: F811
    token = new_token(site)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    table = create_table(site, token, "Amal", seats=seats)
    puzzle = next(iter(SHIPPED.values()))
    # A puzzle mined from this person's game, stored as the miner stores one (the mining
    # itself is test_learn.py's).
    with sqlite3.connect(database, timeout=10) as db:
        (identity,) = db.execute(
            "SELECT identity_id FROM devices WHERE token_hash = ?", (token_hash(token),)
        ).fetchone()
        db.execute(
            "INSERT INTO mined_puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                puzzle.id,
                json.dumps(puzzle.to_json()),
                table,
                puzzle.seat,
                identity,
                puzzle.variant,
                puzzle.theme,
                puzzle.rating,
                time.time(),
            ),
        )
    page = open_page(browser, site, "/puzzles/mistakes", token=token)
    item = page.locator(f'#mistakes-list li[data-puzzle="{puzzle.id}"]')
    item.wait_for()
    assert f"Round {puzzle.round}, play {puzzle.play}" in item.inner_text()
    item.locator("a").click()
    page.wait_for_selector("#puzzle-table .hand button.card")
    assert not hidden_named(page.content(), hidden_of(puzzle))
    page.context.close()


# ------------------------------------------------------------------ how the pages look


PAGES = {
    "learn": ("/learn", "#course-list li"),
    "course": ("/learn/egyptian", "#lesson-table .hand button.card"),
    "puzzles": ("/puzzles", "#puzzle-table .hand button.card"),
    "mistakes": ("/puzzles/mistakes", "#mistakes-empty, #mistakes-list"),
}
SIZES = {"phone": (390, 844), "laptop": (1366, 800)}


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
def test_the_pages_have_no_axe_violation_and_are_kept_as_screenshots(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
) -> None:
    found = []
    # One person's page per size, each address loaded afresh in it (a browser context per
    # page and size cost a second of CPU more than the checks): the learn page first,
    # before the course page is opened.
    kept: dict[str, Any] = {}
    for name, (path, ready) in PAGES.items():
        for size, (width, height) in SIZES.items():
            if size in kept:
                page = kept[size]
                page.goto(f"{site}{path}?lang={lang}&anim=fast")
            else:
                page = kept[size] = open_page(browser, site, path, lang, width, height)
            page.wait_for_selector(ready, timeout=20_000)
            page.wait_for_selector("#puzzle-you #puzzle-streak, #course-page, #learn-page")
            page.wait_for_timeout(150)  # a landing card's animation done
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.evaluate("document.documentElement.dir") == (
                "rtl" if lang == "ar" else "ltr"
            )
            # Nothing wider than the screen.
            assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, (
                name,
                size,
            )
            shot(page, f"{name}-{size}-{lang}")
            violations = axe_violations(page)
            if violations:
                found.append(f"{name} {size} ({lang}):\n{describe(violations)}")
            raw = raw_words(page)
            if raw:
                found.append(f"{name} {size} ({lang}) shows words not put into words: {raw}")
    for page in kept.values():
        page.context.close()
    assert not found, "\n".join(found)
