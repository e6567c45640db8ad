"""What new players stumbled on in the page (issue 35, "The web page"), one test each,
in Chromium: each fails without its fix."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    play_to_end,
)
from tests.web.played import Site
from tests.web.test_browser import browser  # noqa: F401  (a fixture)
from tests.web.test_browser_a11y import visit
from tests.web.test_browser_keyboard import LISTEN

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser


def page_of(browser: Any, played: Site) -> Any:  # noqa: F811
    return played.page(browser, 1366, 800)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_rules_page_shows_no_null(browser: Any, played: Site, lang: str) -> None:  # noqa: F811
    page = page_of(browser, played)
    visit(page, played, "/rules/egyptian", lang, inside=True)
    page.wait_for_selector(".rules h2")
    text = page.inner_text(".rules")
    assert "null" not in text and "undefined" not in text
    page.context.close()


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "No such player"), ("ar", "لا يوجد لاعب بهذا الاسم")]
)
def test_an_unknown_player_is_a_page_with_a_heading(
    browser: Any,  # noqa: F811
    played: Site,
    lang: str,
    title: str,
) -> None:
    page = page_of(browser, played)
    visit(page, played, "/u/nobody_here", lang, inside=True)
    page.wait_for_selector("#profile-error")
    assert page.inner_text("#profile-page h1") == title
    text = page.inner_text("#profile-page")
    assert "null" not in text and "undefined" not in text
    page.context.close()


def test_an_unknown_course_names_the_variant(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    visit(page, played, "/learn/foo", "en", inside=True)
    page.wait_for_selector("#lesson-error")
    text = page.inner_text("#lesson-error")
    assert text.startswith("There is no course called “foo”"), text
    assert "settings are not valid" not in text
    page.context.close()


def test_blind_mode_gathers_a_bounded_announcement_and_says_a_refusal_once(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    """Texts said within a moment are gathered, but never past a bound: a burst of key
    presses while a bot answers is heard as short announcements, each refusal once."""
    page = page_of(browser, played)
    visit(page, played, "/", "en", inside=True)
    page.wait_for_selector("#create")
    heard = page.evaluate(
        """async () => {
            const { say } = await import("/static/announce.js");
            const node = document.getElementById("announce");
            const heard = [];
            new MutationObserver(() => { if (node.textContent) heard.push(node.textContent); })
                .observe(node, { childList: true, characterData: true, subtree: true });
            const plays = ["Bot 2 plays 8 of clubs.", "Your turn.", "It is not your turn.",
                           "There is no card 5 in your hand."];
            for (let i = 0; i < 40; i++) {  // keys pressed every 40 ms for 1.6 s
                say(plays[i % plays.length]);
                await new Promise((done) => setTimeout(done, 40));
            }
            await new Promise((done) => setTimeout(done, 800));
            return heard;
        }"""
    )
    assert heard, "nothing was said"
    assert max(len(text) for text in heard) <= 200, heard
    for text in heard:
        assert text.count("It is not your turn.") <= 1, text
    page.context.close()


def test_a_newcomer_meets_play_a_bot_first_and_the_name_is_asked_beside_its_field(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    """On a phone: the first button is a casual game against a bot; pressing it without a
    name says so where the screen is (beside the field); Enter in the field starts it."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('basra.token', {played.token!r});")
    page = context.new_page()
    page.goto(f"{played.url}/?lang=en&anim=fast")
    page.wait_for_selector("#create")
    first = page.evaluate("document.querySelector('main button').id")
    assert first == "play-bot", first
    box = page.locator("#play-bot").bounding_box()
    assert box["y"] + box["height"] <= 844, "Play a bot is below the first screen"
    page.fill("#name", "")
    page.click("#play-bot")
    page.wait_for_function("document.getElementById('name-error')?.textContent.length > 0")
    assert page.inner_text("#name-error") == "Say your name first."
    message = page.locator("#name-error").bounding_box()
    assert message["y"] >= 0 and message["y"] + message["height"] <= 844, message
    assert page.evaluate("document.activeElement.id") == "name"
    page.fill("#name", "Nadia")
    page.press("#name", "Enter")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".hand button.card")
    context.close()


def test_the_daily_board_shows_the_name_people_gave(browser: Any, played: Site) -> None:  # noqa: F811
    """The daily board names a player as they named themselves at the table (their
    username only as the link to their profile)."""
    token = new_token(played.url)
    assert (
        http(
            f"{played.url}/api/account", {"username": "zaina_k", "password": "p" * 10}, token=token
        )[0]
        == 201
    )
    deal = http(played.url + "/api/daily")[1]["deals"][0]["id"]
    started = http(f"{played.url}/api/daily/{deal}", {"name": "Zaina"}, token=token)[1]
    player = Player(played.url, started["table"], token, "Zaina")
    play_to_end([player])
    player.close()
    page = page_of(browser, played)
    visit(page, played, "/daily", "en", inside=True)
    page.wait_for_selector('tr[data-entry="Zaina"]')
    cell = page.locator('tr[data-entry="Zaina"] td.player a')
    assert cell.inner_text() == "Zaina"
    assert cell.get_attribute("href") == "/u/zaina_k"
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 800)])
def test_a_raised_card_and_its_number_cover_neither_its_rank_nor_what_it_takes(
    browser: Any,  # noqa: F811
    played: Site,
    width: int,
    height: int,
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('basra.token', {played.token!r});")
    page = context.new_page()
    page.goto(f"{played.url}/t/{played.playing}?lang=en&anim=fast")
    page.wait_for_selector(".hand button.card:not([aria-disabled])")
    page.focus(".hand button.card")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)  # the raise's transition
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.hand button.card')].map((b) => {
            const r = (n) => { const x = n.getBoundingClientRect();
                               return [x.left, x.top, x.right, x.bottom]; };
            return { card: r(b.querySelector('img')), badge: r(b.querySelector('.key-badge')),
                     raised: b.matches(':focus, .selected') };
        })"""
    )
    line = page.locator("#preview-line").bounding_box()

    def overlap(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    assert any(box["raised"] for box in boxes)
    for box in boxes:
        left, top, right, bottom = box["card"]
        corners = [  # each corner's rank and suit, a fifth of the card each way
            [left, top, left + (right - left) / 4, top + (bottom - top) / 4],
            [right - (right - left) / 4, top, right, top + (bottom - top) / 4],
        ]
        for other in boxes:
            assert not any(overlap(other["badge"], corner) for corner in corners), (box, other)
        assert line["y"] + line["height"] <= min(top, box["badge"][1]) + 0.5, (line, box)
    context.close()


def test_coming_back_says_a_bot_played_for_you_and_the_log_marks_its_plays(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A person away past the grace comes back to a table where the stand-in played for
    them: the page says so (heard and seen), and the log credits those plays to a bot."""
    config = AppConfig(
        database=str(tmp_path / "away.db"), service=replace(FAST, grace=0.3, bot_delay=0.05)
    )
    with ServerThread(config) as server:
        token = new_token(server.url)
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        table = create_table(server.url, token, "Amal", seats=seats)
        assert http(f"{server.url}/api/tables/{table}", token=token)[1]["status"] == "playing"
        time.sleep(3)  # never connected: past the grace, the stand-in plays her turns
        context = browser.new_context(viewport={"width": 1366, "height": 800})
        context.add_init_script(
            LISTEN + f"localStorage.setItem('basra.token', {token!r});"
            "localStorage.setItem('basra.name', 'Amal');"
        )
        page = context.new_page()
        page.goto(f"{server.url}/t/{table}?lang=en&anim=fast")
        page.wait_for_selector("#log-panel li[data-auto='stand_in']")
        said = page.evaluate("window.__said.map((d) => d.text).join(' ')")
        assert re.search(r"While you were away, a bot played (1 card|\d+ cards) for you\.", said)
        marked = page.locator("#log-panel li[data-auto='stand_in']")
        assert "a bot played (away)" in marked.first.inner_text()
        assert marked.first.inner_text().startswith("Amal")
        context.close()
