"""Friends in the browser (static/friends.js), two people in one Chromium, in English and
Arabic: Amal follows Badr from his profile, Badr follows her back from her follow-me link,
and each sees the other online on the home page (the change said in the polite status
region), by keyboard, with 0 axe-core violations on the profile and the home page at
390x844 and 1366x800; screenshots go to out/screens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, Player, ServerThread, create_table, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser

HEARD = (
    "window.__said = [];"
    "document.addEventListener('basra:announce', (e) => window.__said.push(e.detail));"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("friends") / "basra.db")
    with ServerThread(AppConfig(database=database, service=FAST)) as server:
        yield server.url


def person(base: str, username: str) -> str:
    token = new_token(base)
    status, body = http(
        base + "/api/account", {"username": username, "password": "p" * 10}, token=token
    )
    assert status == 201, body
    return token


def page_of(browser: Any, token: str, name: str, width: int, height: int) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(
        f"localStorage.setItem('basra.token', {token!r});"
        f"localStorage.setItem('basra.name', {name!r});" + HEARD
    )
    return context.new_page()


def no_violations(page: Any, name: str) -> None:
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, name)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_two_people_follow_each_other_and_see_each_other_online(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
) -> None:
    amal_token, badr_token = person(site, f"amal_{lang}"), person(site, f"badr_{lang}")
    amal = page_of(browser, amal_token, "Amal", 1366, 800)
    badr = page_of(browser, badr_token, "Badr", 390, 844)
    # Amal follows Badr from his profile, by keyboard.
    amal.goto(f"{site}/u/badr_{lang}?lang={lang}&anim=fast")
    amal.wait_for_selector("#follow")
    no_violations(amal, f"friends-profile-{lang}-1366")
    amal.focus("#follow")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#unfollow")
    assert amal.locator("#follow-status").inner_text().strip()
    # Badr opens her follow-me link and follows her back.
    link = http(site + "/api/friends/link", token=amal_token)[1]
    assert link["url"].endswith(f"/?follow={link['code']}")
    badr.goto(f"{site}/?follow={link['code']}&lang={lang}&anim=fast")
    badr.wait_for_selector("#follow-link-offer #follow")
    badr.focus("#follow-link-offer #follow")
    badr.keyboard.press("Enter")
    badr.wait_for_selector("#follow-link-offer #unfollow")
    friends = "friends" if lang == "en" else "صديقان"
    assert friends in badr.locator("#follow-status").inner_text()
    # Amal comes home: Badr's page holds its socket, so he is online; and she is, to him.
    amal.goto(f"{site}/?lang={lang}&anim=fast")
    amal.wait_for_selector("#friends-list li[data-status='online']")
    assert f"badr_{lang}" in amal.locator("#friends-list").inner_text()
    online = "online" if lang == "en" else "متصل"
    assert online in amal.locator("#friends-list").inner_text()
    badr.wait_for_selector("#friends-list li[data-status='online']", timeout=20_000)
    badr.wait_for_function(
        "(words) => window.__said.some((s) => !s.assertive && s.text.includes(words))",
        arg=online,
    )
    for page, who in ((amal, "amal"), (badr, "badr")):
        page.locator("#friends").scroll_into_view_if_needed()
        no_violations(page, f"friends-home-{who}-{lang}-{page.viewport_size['width']}")
    amal.set_viewport_size({"width": 390, "height": 844})
    no_violations(amal, f"friends-home-amal-{lang}-390")
    badr.set_viewport_size({"width": 1366, "height": 800})
    badr.goto(f"{site}/u/amal_{lang}?lang={lang}&anim=fast")
    badr.wait_for_selector("#unfollow")
    no_violations(badr, f"friends-profile-{lang}-1366-friends")
    amal.context.close()
    badr.context.close()


def test_a_seated_person_is_followed_from_the_table(browser: Any, site: str) -> None:  # noqa: F811
    amal_token, badr_token = person(site, "amal_t"), person(site, "badr_t")
    table = create_table(site, amal_token, seats=[{"kind": "person"}, {"kind": "person"}])
    badr = Player(site, table, badr_token, "Badr")
    badr.wait_type("state")
    badr.send({"type": "join", "seat": 1})
    amal = page_of(browser, amal_token, "Amal", 1366, 800)
    amal.goto(f"{site}/t/{table}?lang=en&anim=fast")
    amal.wait_for_selector("#follow-seats summary")
    amal.focus("#follow-seats summary")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#seat-1-follow")
    assert "Badr" in amal.locator("#seat-1-follow").inner_text()
    amal.focus("#seat-1-follow")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#seat-1-unfollow")
    no_violations(amal, "friends-table-en-1366")
    relation = http(site + "/api/friends/relation", {"username": "badr_t"}, token=amal_token)[1]
    assert relation["following"] and not relation["friends"]
    badr.ws.close()
    amal.context.close()
