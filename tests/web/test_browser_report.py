"""Reporting a player in the browser (static/report.js), in English and Arabic: from a table
and from a profile, by keyboard, with 0 axe-core violations; screenshots at 390x844 and
1366x800 go to out/screens. A refused name says so in the page's words."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, Player, ServerThread, create_table, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig
from basra.server.ops.control import OpsConfig

pytestmark = pytest.mark.browser
ADMIN = "r" * 40


@dataclass
class Site:
    url: str
    amal: str
    table: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    database = str(tmp_path_factory.mktemp("report") / "basra.db")
    config = AppConfig(
        database=database, service=replace(FAST, bot_delay=0.0), ops=OpsConfig(admin_token=ADMIN)
    )
    with ServerThread(config) as server:
        amal, badr = new_token(server.url), new_token(server.url)
        table = create_table(server.url, amal, seats=[{"kind": "person"}, {"kind": "person"}])
        Player(server.url, table, badr, "Badr").send({"type": "join", "seat": 1})
        assert (
            http(
                server.url + "/api/account", {"username": "badr", "password": "p" * 10}, token=badr
            )[0]
            == 201
        )
        yield Site(server.url, amal, table)


def page_of(browser: Any, site: Site, lang: str, width: int, height: int) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(
        f"localStorage.setItem('basra.token', {site.amal!r});"
        "localStorage.setItem('basra.name', 'Amal');"
    )
    return context.new_page()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_player_is_reported_from_a_table_and_a_profile(
    browser: Any,  # noqa: F811
    site: Site,
    lang: str,
) -> None:
    page = page_of(browser, site, lang, 1366, 800)
    page.goto(f"{site.url}/t/{site.table}?lang={lang}&anim=fast")
    page.wait_for_selector("#report summary")
    page.focus("#report summary")
    page.keyboard.press("Enter")  # opens the form by keyboard
    page.wait_for_selector("#report-reason", state="visible")
    assert page.locator("#report-seat option").all_inner_texts() == ["Badr"]
    page.select_option("#report-reason", "abuse")
    page.fill("#report-note", "rude in the chat" if lang == "en" else "كلام مسيء")
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, f"report-table-{lang}-1366")
    page.click("#report-send")
    sent = "the report was sent" if lang == "en" else "وصل البلاغ"
    page.wait_for_function(
        "(words) => document.getElementById('report-status').textContent.includes(words)", arg=sent
    )
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, f"report-table-{lang}-390")
    page.goto(f"{site.url}/u/badr?lang={lang}&anim=fast")
    page.wait_for_selector("#report summary")
    page.click("#report summary")
    page.select_option("#report-reason", "name")
    assert not page.locator("#report-seat").count()
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, f"report-profile-{lang}-390")
    page.click("#report-send")
    page.wait_for_function(
        "(words) => document.getElementById('report-status').textContent.includes(words)", arg=sent
    )
    page.context.close()
    reports = http(site.url + "/admin/reports", token=ADMIN)[1]["reports"]
    assert {r["reason"] for r in reports} >= {"abuse", "name"}


def test_a_refused_name_is_said_in_the_pages_words(browser: Any, site: Site) -> None:  # noqa: F811
    page = page_of(browser, site, "ar", 1366, 800)
    page.goto(f"{site.url}/?lang=ar&anim=fast")
    page.wait_for_selector("#create")
    page.fill("#name", "حمار")
    page.click("#create")
    page.wait_for_selector("text=هذا الاسم غير مسموح هنا")
    page.context.close()


def test_a_report_is_sent_once(browser: Any, site: Site) -> None:  # noqa: F811
    """Send pressed twice quickly files one report, and the sent form stays closed."""
    page = page_of(browser, site, "en", 1366, 800)
    page.goto(f"{site.url}/u/badr?lang=en&anim=fast")
    page.wait_for_selector("#report")
    posted: list[str] = []
    page.on(
        "request",
        lambda r: posted.append(r.url) if r.url.endswith("/api/reports") else None,
    )
    page.click("#report summary")
    page.fill("#report-note", "spoke rudely")
    page.evaluate(
        "() => { const f = document.getElementById('report-form');"
        " f.requestSubmit(); f.requestSubmit(); }"
    )
    page.wait_for_function("document.getElementById('report-note')?.disabled")
    page.wait_for_timeout(300)
    assert len(posted) == 1, posted
    assert page.locator("#report-send").is_disabled()
    page.context.close()
