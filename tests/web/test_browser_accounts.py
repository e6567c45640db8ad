"""Browser tests of accounts, profiles, leaderboards and clocks (Debian's Chromium).

A guest plays a rated game, claims a username, and a second browser context
signs in with it and sees the same rating, history and games; a clocked table
shows every seat's countdown and says in the tab's title whose turn it is.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import FAST, Player, ServerThread, create_table, http, play_to_end
from tests.web.test_browser import browser, new_page, shot

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the module's Chromium, shared by the tests below

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("accounts") / "basra.db")
    config = AppConfig(database=database, service=replace(FAST, bot_delay=0.05))
    with ServerThread(config) as server:
        yield server.url


def token_of(page: Any) -> str:
    page.wait_for_function("() => localStorage.getItem('basra.token')")
    return str(page.evaluate("() => localStorage.getItem('basra.token')"))


def profile_seen(page: Any) -> dict[str, Any]:
    page.wait_for_selector("#profile-ratings .rating-value")
    return {
        "rating": page.inner_text("#profile-ratings .rating-value"),
        "games": page.locator("#profile-games li").evaluate_all(
            "items => items.map(li => li.dataset.game)"
        ),
        "points": page.locator("#rating-chart circle").count(),
        "totals": page.inner_text("#total-games .stat-value"),
    }


def test_sign_up_then_sign_in_on_another_browser_with_the_same_rating(
    browser: Any, site: str
) -> None:
    amal = new_page(browser, site)
    token = token_of(amal)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    table = create_table(site, token, "Amal", rated=True, rules={"target": 10}, seats=seats)
    player = Player(site, table, token, "Amal")
    play_to_end([player])
    player.close()
    deadline = time.time() + 10
    while not http(site + "/api/profile", token=token)[1]["ratings"]:
        assert time.time() < deadline, "the rated game was not settled"
        time.sleep(0.05)
    amal.goto(f"{site}/account?lang=en")
    amal.wait_for_selector("#claim")
    assert "guest" in amal.inner_text("#account-status")
    amal.fill("#claim-username", "amal_b")
    amal.fill("#claim-password", PASSWORD)
    amal.click("#claim")
    amal.wait_for_selector("#sign-out")
    assert "amal_b" in amal.inner_text("#account-status")
    shot(amal, "account-en")
    amal.goto(f"{site}/me?lang=en")
    mine = profile_seen(amal)
    assert mine["games"] == [table] and mine["points"] == 2 and mine["totals"] == "1"
    assert re.fullmatch(r"\d+\.\d, (provisional|uncertain by \d+\.\d)", mine["rating"])
    assert "No reviewed games yet" in amal.inner_text("#review-accuracy")
    shot(amal, "profile-en")
    # A second browser: a wrong password first (said plainly), then the right one.
    phone = new_page(browser, f"{site}/account?lang=en", phone=True)
    phone.wait_for_selector("#login")
    phone.fill("#login-username", "AMAL_B")
    phone.fill("#login-password", "wrong password")
    phone.click("#login")
    phone.wait_for_selector("#login-error:has-text('No account has that username and password')")
    phone.fill("#login-password", PASSWORD)
    phone.click("#login")
    phone.wait_for_url("**/me")
    assert profile_seen(phone) == mine
    assert phone.inner_text("#profile-username") == "amal_b"
    shot(phone, "profile-phone")
    # The leaderboard lists the account; its name links to the public profile.
    phone.goto(f"{site}/leaderboard?variant=egyptian&kind=2p")
    phone.wait_for_selector('#board tr[data-username="amal_b"]')
    assert phone.locator("#board-bots tr").count() == 4
    phone.click('#board tr[data-username="amal_b"] a')
    phone.wait_for_url("**/u/amal_b")
    assert profile_seen(phone) == mine
    # Signing out leaves this browser a guest again; the account signs in again.
    phone.goto(f"{site}/account")
    phone.click("#sign-out")
    phone.wait_for_selector("#claim")
    assert "guest" in phone.inner_text("#account-status")
    amal.goto(f"{site}/t/{table}")
    amal.wait_for_selector("#game-over #rating-after")
    assert mine["rating"] in amal.inner_text("#rating-after")
    amal.context.close()
    phone.context.close()


def test_a_clocked_table_counts_down_and_the_title_tells_whose_turn(
    browser: Any, site: str
) -> None:
    page = new_page(browser, site)
    token = token_of(page)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    table = create_table(site, token, "Amal", seats=seats, clock={"move": 30, "reserve": 60})
    page.goto(f"{site}/t/{table}?lang=en&anim=fast")
    page.wait_for_selector(".hand button.card:not([aria-disabled])")
    page.wait_for_function("() => document.title.includes('Your turn')")
    mine = page.locator(".me .clock.running")
    first = mine.inner_text()
    assert re.fullmatch(r"0:[0-3]\d \+1:00", first), first
    page.wait_for_function(
        "(first) => document.querySelector('.me .clock.running')?.textContent !== first", arg=first
    )
    assert page.locator(".seat.top .clock").count() == 0, "bots have no clock"
    assert page.locator("#mute").count() == 1, "the turn's sound follows the page's one mute switch"
    shot(page, "clock-en")
    # Record every title the tab shows: the bot may answer before a poll could see its turn.
    page.evaluate(
        """() => { window.__titles = [];
        new MutationObserver(() => window.__titles.push(document.title))
          .observe(document.querySelector('title'), { childList: true, characterData: true,
                                                      subtree: true }); }"""
    )
    page.locator(".hand button.card:not([aria-disabled])").first.click()
    if page.locator(".choices .choice").count():
        page.locator(".choices .choice").first.click()
    page.wait_for_function(
        "() => window.__titles.some((title) => !title.includes('Your turn'))", timeout=5000
    )
    page.goto(f"{site}/t/{table}?lang=ar&anim=fast")
    page.wait_for_selector(".me .clock")
    assert "٠" in page.inner_text(".me .clock") or "١" in page.inner_text(".me .clock")
    shot(page, "clock-ar")
    page.context.close()


def test_the_arabic_account_page(browser: Any, site: str) -> None:
    page = new_page(browser, f"{site}/account", lang="ar")
    page.wait_for_selector("#claim")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert "ضيف" in page.inner_text("#account-status")
    shot(page, "account-ar")
    page.context.close()
