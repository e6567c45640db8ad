"""Turn-based games in the browser (static/turns.js, the table form, the menu), in English
and Arabic: Amal makes a table of two days a move against a bot from the home page's
form, finds it in the "Your turn" list from the menu (its count beside it), opens it, and
takes and ends a vacation, all by keyboard, with 0 axe-core violations at 390x844 and
1366x800; screenshots go to out/screens."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, ServerThread, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("turnbased") / "basra.db")
    config = AppConfig(database=database, service=replace(FAST, bot_delay=0.05))
    with ServerThread(config) as server:
        yield server.url


def no_violations(page: Any, name: str) -> None:
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, name)


def press(page: Any, selector: str, key: str = "Enter") -> None:
    page.focus(selector)
    page.keyboard.press(key)


@pytest.mark.parametrize(("width", "height"), [(1366, 800), (390, 844)])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_turn_based_table_from_the_form_and_the_your_turn_list(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
    width: int,
    height: int,
) -> None:
    token = new_token(site)
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(
        f"localStorage.setItem('basra.token', {token!r});"
        "localStorage.setItem('basra.name', 'Amal');"
    )
    page = context.new_page()
    page.goto(f"{site}/?lang={lang}&anim=fast")
    page.wait_for_selector("#your-turn #turns-empty:not([hidden])")
    assert page.is_hidden("#your-turn #vacation"), "no game to stop yet: no vacation control"
    paces = page.eval_on_selector_all("#quick-pace option", "(os) => os.map((o) => o.value)")
    assert paces == ["", "1", "2", "3", "7"], "quick play's pools of a turn-based game"
    # The form's clock offers days a move; chosen by keyboard (the select, then Enter on
    # the form's button).
    page.focus("#clock")
    options = page.eval_on_selector_all("#clock option", "(os) => os.map((o) => o.value)")
    assert options[-4:] == ["1d", "2d", "3d", "7d"]
    while page.eval_on_selector("#clock", "(s) => s.value") != "2d":
        page.keyboard.press("ArrowDown")
    label = page.eval_on_selector("#clock", "(s) => s.selectedOptions[0].textContent")
    assert label == ("2 days a move" if lang == "en" else "يومان للنقلة")
    page.locator("#new-table").scroll_into_view_if_needed()
    no_violations(page, f"turnbased-form-{lang}-{width}")
    press(page, "#create")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1].split("?")[0]
    status, info = http(f"{site}/api/tables/{table}")
    assert status == 200 and info["clock"] == {"move": 2 * 86400, "reserve": 0, "days": 2}
    # The bot answers in seconds: then it is Amal's turn, counted in the menu.
    page.goto(f"{site}/?lang={lang}&anim=fast")
    page.wait_for_selector(f"#turns-list li[data-turn='{table}'][data-yours='true']")
    page.wait_for_selector("#nav-turns-count:not([hidden])", state="attached")  # in the menu
    assert page.locator("#nav-turns-count").inner_text().strip() in ("1", "١")
    assert page.is_visible("#your-turn #vacation")
    page.locator("#your-turn").scroll_into_view_if_needed()
    no_violations(page, f"turnbased-home-{lang}-{width}")
    # The menu leads to the list on its own page (behind the menu's button on a phone).
    if page.is_visible("#menu-toggle"):
        press(page, "#menu-toggle")
    press(page, "#nav-turns")
    page.wait_for_selector(f"#turns-page #turns-list li[data-turn='{table}']")
    words = page.locator("#turns-count").inner_text()
    assert words == ("1 game waits for your move" if lang == "en" else "لعبة واحدة تنتظر نقلتك")
    left = page.locator("#vacation-left").inner_text()
    assert left == (
        "7 vacation days left this month." if lang == "en" else "بقيت لك ٧ أيام إجازة هذا الشهر."
    )
    no_violations(page, f"turnbased-turns-{lang}-{width}")
    # A vacation of two days, by keyboard; its words say when it ends and what is left.
    page.fill("#vacation-days", "2")
    press(page, "#vacation-take")
    page.wait_for_selector("#vacation-end:not([hidden])")
    said = page.locator("#vacation-left").inner_text()
    assert ("5 vacation days left" if lang == "en" else "بقيت لك ٥ أيام إجازة") in said
    paused = "Clock stopped: vacation" if lang == "en" else "الساعة متوقفة: إجازة"
    page.wait_for_function(
        "(words) => document.getElementById('turns-list').textContent.includes(words)", arg=paused
    )
    no_violations(page, f"turnbased-vacation-{lang}-{width}")
    press(page, "#vacation-end")
    page.wait_for_selector("#vacation-take-row:not([hidden])")
    page.wait_for_function(  # the list drawn again: the clock runs
        "(words) => !document.getElementById('turns-list').textContent.includes(words)",
        arg=paused,
    )
    # A game's link keeps the keyboard's focus while the list is drawn anew (here by a
    # vacation taken and ended by a click that moves no focus; else every 30 s).
    link = f"#turns-list a[data-table='{table}']"
    page.focus(link)
    for click, shown in (("vacation-take", True), ("vacation-end", False)):
        page.evaluate(f"document.getElementById('{click}').click()")
        page.wait_for_function(
            "([words, shown]) => document.getElementById('turns-list').textContent"
            ".includes(words) === shown",
            arg=[paused, shown],
        )
        assert page.evaluate(f"document.activeElement === document.querySelector({link!r})"), (
            "the list drawn anew lost the link's focus"
        )
    # The list's link opens the table where it stands.
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/t/{table}*")
    page.wait_for_selector(".hand button.card")
    context.close()
