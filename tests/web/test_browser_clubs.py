"""Clubs in the browser (static/clubs.js), in English and Arabic: Amal makes a club by
keyboard on /clubs, Badr finds it and joins it from its page, Amal (its owner) names him a
leader, and the club shows on her profile; 0 axe-core violations on /clubs, the club's
page (a visitor's, a member's and the owner's) and the profile at 390x844 and 1366x800;
screenshots go to out/screens."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import FAST, ServerThread
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)
from tests.web.test_browser_friends import no_violations, page_of, person
from tests.web.test_clubs import ROOMY_CLUBS

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("clubs") / "basra.db")
    config = AppConfig(database=database, service=replace(FAST, limits=ROOMY_CLUBS))
    with ServerThread(config) as server:
        yield server.url


def said(page: Any, words: str) -> None:
    page.wait_for_function(
        "(words) => window.__said.some((s) => s.text.includes(words))", arg=words
    )


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_club_is_made_joined_and_led_by_keyboard(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
) -> None:
    amal_token, badr_token = person(site, f"amal_club_{lang}"), person(site, f"badr_club_{lang}")
    amal = page_of(browser, amal_token, "Amal", 1366, 800)
    badr = page_of(browser, badr_token, "Badr", 390, 844)
    amal.goto(f"{site}/clubs?lang={lang}&anim=fast")
    amal.wait_for_selector("#club-name")
    no_violations(amal, f"clubs-{lang}-1366")
    # A name too short is said, naming the field, before anything is sent.
    amal.focus("#club-name")
    amal.keyboard.type("x")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#club-name[aria-invalid='true']")
    assert amal.locator("#club-make-error").inner_text().strip()
    amal.fill("#club-name", f"Friday Players {lang}")
    amal.focus("#club-description")
    amal.keyboard.type("We play on Fridays.")
    amal.focus("#club-make")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#club-title")
    slug = amal.url.split("/club/")[1].split("?")[0]
    assert slug == f"friday-players-{lang}"
    assert amal.locator("#club-your-role").is_visible()
    no_violations(amal, f"club-owner-{lang}-1366")
    # Badr searches for it and joins it, by keyboard.
    badr.goto(f"{site}/clubs?lang={lang}&anim=fast")
    badr.wait_for_selector("#clubs-q")
    badr.focus("#clubs-q")
    badr.keyboard.type("friday")
    badr.keyboard.press("Enter")
    badr.wait_for_selector(f"#clubs-list li[data-club='{slug}']")
    no_violations(badr, f"clubs-{lang}-390")
    badr.focus(f"#clubs-list li[data-club='{slug}'] a")
    badr.keyboard.press("Enter")
    badr.wait_for_selector("#club-join")
    no_violations(badr, f"club-visitor-{lang}-390")
    badr.focus("#club-join")
    badr.keyboard.press("Enter")
    badr.wait_for_selector("#club-leave")
    said(badr, "Friday Players")
    no_violations(badr, f"club-member-{lang}-390")
    # Amal names him a leader from the members' table.
    amal.reload()
    amal.wait_for_selector("#club-members tr[data-role='member'] button[id^='club-role-']")
    amal.focus("#club-members tr[data-role='member'] button[id^='club-role-']")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#club-members tr[data-role='leader']")
    no_violations(amal, f"club-leaders-{lang}-1366")
    amal.set_viewport_size({"width": 390, "height": 844})
    no_violations(amal, f"club-owner-{lang}-390")
    # Her profile shows her club.
    badr.set_viewport_size({"width": 1366, "height": 800})
    badr.goto(f"{site}/u/amal_club_{lang}?lang={lang}&anim=fast")
    badr.wait_for_selector(f"#profile-clubs li[data-club='{slug}']")
    no_violations(badr, f"club-profile-{lang}-1366")
    badr.goto(f"{site}/club/{slug}?lang={lang}&anim=fast")
    badr.wait_for_selector("#club-leaders")
    no_violations(badr, f"club-leader-{lang}-1366")
    amal.context.close()
    badr.context.close()
