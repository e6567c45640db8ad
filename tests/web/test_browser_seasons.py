"""Seasons in the browser (static/seasons.js), in English and Arabic, on a phone (390x844)
and a laptop (1366x800): the season page by keyboard (the family and division selects),
its lines to promotion and relegation said in words, and the profile's season badge, with
0 axe-core violations; screenshots go to out/screens.

The site's database is seeded before the server starts: six people play rated games
through the table master on a fake clock placed in a season that has ended (closed
there) and in the running one, so the page has a last season, a league and standings.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, ServerThread
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)
from tests.web.test_seasons import rated_game

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.seasons import SeasonConfig
from basra.server.table.clocks import FakeClock

pytestmark = pytest.mark.browser

NAMES = ("Amal", "Badr", "Carim", "Dana", "Elias", "Farah")


async def seed(database: str, seasons: SeasonConfig) -> list[str]:
    """Season 1 (ended) and season 2 (running) of six people's rated games; the tokens."""
    clock = FakeClock(seasons.first + 30)
    env = Env(AppConfig(database=database, service=replace(FAST, clock=clock), seasons=seasons))
    await env.start(resume=False)
    issued = [await env.identities.create("test") for _ in NAMES]
    people = [i.caller for i in issued]
    for a in range(6):
        await rated_game(env, people, a, (a + 1) % 6)
    calendar = seasons.calendar
    assert await env.seasons.close_season("egyptian", 1, calendar.end(1)) == 6
    clock.advance(calendar.start(2) + 5 - clock.now())
    for a in range(6):
        await rated_game(env, people, a, (a + 2) % 6)
    for person, name in zip(people, NAMES, strict=True):
        await env.store.identities.name(person.identity, name)
    await env.close()
    return [i.token for i in issued]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    database = str(tmp_path_factory.mktemp("seasons") / "basra.db")
    now = time.time()
    seasons = SeasonConfig(length="10 minutes", first=now - 700, promoted=1, relegated=1)
    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this one
        tokens = thread.submit(asyncio.run, seed(database, seasons)).result()
    with ServerThread(AppConfig(database=database, service=FAST, seasons=seasons)) as server:
        yield server.url, tokens


def page_of(browser: Any, token: str, width: int, height: int) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('basra.token', {token!r});")
    return context.new_page()


def no_violations(page: Any, name: str) -> None:
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, name)


def tab_to(page: Any, selector: str, most: int = 40) -> None:
    """Press Tab until ``selector`` has the focus (as a keyboard user gets there)."""
    for _ in range(most):
        if page.evaluate("(s) => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_season_page_by_keyboard_and_the_profiles_badge(
    browser: Any,  # noqa: F811
    site: tuple[str, list[str]],
    lang: str,
) -> None:
    base, tokens = site
    for width, height in ((390, 844), (1366, 800)):
        page = page_of(browser, tokens[0], width, height)
        page.goto(f"{base}/seasons?lang={lang}&anim=fast")
        page.wait_for_selector("#season-table")
        assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
        said = page.locator("#season-you").inner_text()
        assert page.locator("#season-last").count() == 1 and said.strip()
        division = int(page.locator("#season-division").input_value())
        mine = page.locator("#season-table tr.mine")
        assert mine.count() == 1 and mine.get_attribute("aria-current") == "true"
        lines = page.locator("#season-lines").inner_text()
        assert lines.count("\n") >= 1  # the line to promotion and the line to relegation
        no_violations(page, f"seasons-{lang}-{width}")
        # By keyboard: to the division select, and another division shown.
        page.locator("#season-family").focus()
        tab_to(page, "#season-division")
        page.keyboard.press("ArrowUp" if division else "ArrowDown")
        other = 1 if division == 0 else division - 1
        page.wait_for_function(
            f"() => document.querySelector('#season-division')?.value === '{other}'"
        )
        # The select's value changes at the key press; the new standings are drawn and said
        # once the answer is in.
        page.wait_for_function(
            "() => { const s = document.querySelector('#season-status');"
            " const h = document.querySelector('#season-standings-heading');"
            " return s && h && s.textContent !== '' && s.textContent === h.textContent; }"
        )
        assert f"division={other}" in page.url
        assert page.evaluate("() => document.activeElement?.id") == "season-division"
        heading = page.locator("#season-standings-heading").inner_text()
        assert page.locator("#season-status").inner_text() == heading  # said once
        no_violations(page, f"seasons-{lang}-{width}-division-{other}")
        # The profile's badge: the division season 1 ended in, and the move.
        page.goto(f"{base}/me?lang={lang}&anim=fast")
        page.wait_for_selector("#profile-seasons .season-badge")
        assert page.locator("#profile-seasons li").count() == 1
        no_violations(page, f"seasons-profile-{lang}-{width}")
        page.context.close()
