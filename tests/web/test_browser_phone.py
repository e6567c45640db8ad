"""Phone first (Chromium at 390x844, and a laptop's 1366x800), in English and Arabic:
the top bar is one line at most 64 px tall with the menu behind a button; no page
scrolls sideways; while playing, the hand and the Hint button are on the screen
without scrolling (two and four seats, a hint shown); on a laptop the whole table
and its buttons fit. Screenshots of each go to out/screens."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.helpers import create_table
from tests.web.played import Pages, Site
from tests.web.test_browser import browser, shot  # noqa: F401  (browser is a fixture)
from tests.web.test_browser_a11y import PAGES, visit

pytestmark = pytest.mark.browser

PHONE = (390, 844)
LAPTOP = (1366, 800)
BAR = "document.querySelector('.topbar').getBoundingClientRect().height"
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def bottom(page: Any, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    return float(box["y"] + box["height"])


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
def test_the_top_bar_is_one_line_with_a_menu_button(pages: Pages, played: Site, lang: str) -> None:
    page = pages.get(lang, *PHONE)
    page.goto(f"{played.url}/?lang={lang}")
    page.wait_for_selector("#create")
    assert page.evaluate(BAR) <= 64
    brand = page.locator(".brand").bounding_box()
    toggle = page.locator("#menu-toggle").bounding_box()
    assert abs(brand["y"] - toggle["y"]) < brand["height"], "brand and menu button on one line"
    assert not page.locator("#menu nav a").first.is_visible()
    # The menu opens under the bar, and closes with Escape, the focus back on its button.
    page.click("#menu-toggle")
    assert page.get_attribute("#menu-toggle", "aria-expanded") == "true"
    assert page.locator("#menu nav a").count() == 16 and page.locator("#nav-bots").is_visible()
    assert page.locator("#nav-seasons").is_visible()
    assert page.locator("#nav-turns").is_visible()  # "Your turn", with its count
    assert page.locator("#blind").is_visible() and page.locator("#lang").is_visible()
    assert page.evaluate(BAR) <= 64  # the open menu lies over the page, the bar stays one line
    shot(page, f"menu-open-{lang}-phone")
    page.keyboard.press("Escape")
    assert not page.locator("#nav-bots").is_visible()
    assert page.evaluate("document.activeElement.id") == "menu-toggle"
    # A link in the menu goes there and closes the menu.
    page.click("#menu-toggle")
    page.click("#nav-daily")
    page.wait_for_selector("[data-deal]")
    assert page.get_attribute("#menu-toggle", "aria-expanded") == "false"


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
def test_no_page_scrolls_sideways_on_a_phone(pages: Pages, played: Site, lang: str) -> None:
    page = pages.get(lang, *PHONE)
    wide = {}
    for name, (path, ready) in PAGES.items():
        address = path.format(playing=played.playing, finished=played.finished)
        visit(page, played, address, lang, name in {"not-found"})
        page.wait_for_selector(ready, timeout=20_000)
        page.wait_for_timeout(100)
        if page.evaluate(SIDEWAYS) > 0 or page.evaluate(BAR) > 64:
            wide[name] = (page.evaluate(SIDEWAYS), page.evaluate(BAR))
    assert not wide, f"pages too wide (px over, bar height): {wide}"


def my_turn_with_a_hint(page: Any) -> None:
    page.wait_for_selector(".hand button.card:not([aria-disabled])", timeout=20_000)
    page.click("#hint")
    page.wait_for_selector("#hint-line", timeout=20_000)
    page.wait_for_timeout(150)


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_hand_and_hint_are_within_reach_on_a_phone(
    pages: Pages,
    played: Site,
    players: int,
    lang: str,
) -> None:
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    table = create_table(played.url, played.token, "Amal", seats=seats, players=players)
    page = pages.get(lang, *PHONE)
    page.goto(f"{played.url}/t/{table}?lang={lang}&anim=fast")
    my_turn_with_a_hint(page)
    assert page.evaluate("window.scrollY") == 0
    assert bottom(page, ".hand") <= PHONE[1], "the hand is below the screen"
    assert bottom(page, "#hint") <= PHONE[1], "Hint is below the screen"
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"table{players}-hint-{lang}-phone")


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
def test_the_whole_table_fits_a_laptop_screen(pages: Pages, played: Site, lang: str) -> None:
    seats = [{"kind": "person"}] + [{"kind": "bot", "level": "easy"}] * 3
    table = create_table(played.url, played.token, "Amal", seats=seats, players=4)
    page = pages.get(lang, *LAPTOP)
    page.goto(f"{played.url}/t/{table}?lang={lang}&anim=fast")
    my_turn_with_a_hint(page)
    for part in (".felt", ".hand", "#hint", "#confirm-play", "#hint-line", ".seat.mine"):
        assert bottom(page, part) <= LAPTOP[1], f"{part} is below the screen"
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"table4-hint-{lang}-laptop")


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
def test_the_game_over_sheet_shows_whole_on_a_phone(pages: Pages, played: Site, lang: str) -> None:
    page = pages.get(lang, *PHONE)
    page.goto(f"{played.url}/t/{played.finished}?lang={lang}&anim=fast")
    page.wait_for_selector("#game-over")
    clipped = "(n => n.scrollHeight - n.clientHeight)(document.querySelector('#game-over .sheet'))"
    assert page.evaluate(clipped) <= 1, "the sheet hides part of itself"
    assert bottom(page, "#game-over .actions a:last-child") <= bottom(page, ".felt")
    shot(page, f"game-over-{lang}-phone")
