"""Challenges in the browser (static/challenges.js), two people in one Chromium, in English
and Arabic, by keyboard: Amal and Badr are friends; Amal challenges Badr from the home
page's form (a short game); Badr's page says it at once and shows it with the menu's
unread count; he accepts and both are taken to the table; they play it to the end and
each taps Rematch (Amal's tap is said on Badr's page): a new table. A declined and an
expired challenge are shown as such, and a person Badr blocks cannot challenge him.
0 axe-core violations on the new panel at 390x844 and 1366x800; screenshots go to
out/screens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, ServerThread, http, new_token
from tests.web.test_browser import browser, play_until_over, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig
from basra.server.features.challenges import ChallengeConfig

pytestmark = pytest.mark.browser

HEARD = (
    "window.__said = [];"
    "document.addEventListener('basra:announce', (e) => window.__said.push(e.detail));"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("challenges") / "basra.db")
    with ServerThread(AppConfig(database=database, service=FAST)) as server:
        yield server.url


@pytest.fixture(scope="module")
def hasty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose challenges wait 2 seconds."""
    database = str(tmp_path_factory.mktemp("hasty") / "basra.db")
    config = AppConfig(
        database=database,
        service=FAST,
        challenges=ChallengeConfig(expire_after=2.0, sweep_every=0.2),
    )
    with ServerThread(config) as server:
        yield server.url


def person(base: str, username: str, name: str) -> str:
    token = new_token(base)
    status, body = http(
        base + "/api/account", {"username": username, "password": "p" * 10}, token=token
    )
    assert status == 201, body
    assert http(base + "/api/identity", {"name": name}, token=token, method="PATCH")[0] == 200
    return token


def friends(base: str, one: str, other: str) -> None:
    for a, b in ((one, other), (other, one)):
        code = http(base + "/api/friends/link", token=b)[1]["code"]
        assert http(base + "/api/friends/follow", {"code": code}, token=a)[0] == 200


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


def press(page: Any, selector: str, key: str = "Enter") -> None:
    page.focus(selector)
    page.keyboard.press(key)


def heard(page: Any, words: str, assertive: bool | None = None) -> None:
    check = "" if assertive is None else f"s.assertive === {str(assertive).lower()} && "
    page.wait_for_function(
        f"(words) => window.__said.some((s) => {check}s.text.includes(words))", arg=words
    )


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_challenge_accept_play_and_rematch_by_keyboard(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
) -> None:
    amal_token = person(site, f"amal_c{lang}", "Amal")
    badr_token = person(site, f"badr_c{lang}", "Badr")
    friends(site, amal_token, badr_token)
    amal = page_of(browser, amal_token, "Amal", 1366, 800)
    badr = page_of(browser, badr_token, "Badr", 390, 844)
    for page in (amal, badr):
        page.goto(f"{site}/?lang={lang}&anim=fast")
        page.wait_for_selector("#challenges-in")
    # Amal challenges Badr from the form, by keyboard: a game to 1 point.
    press(amal, "#challenge-new summary")
    amal.wait_for_selector("input[name=challenge-friend]")
    press(amal, "input[name=challenge-friend]", "Space")
    amal.focus("#challenge-target")
    amal.keyboard.type("1")
    no_violations(amal, f"challenges-form-{lang}-1366")
    press(amal, "#challenge-send")
    amal.wait_for_selector("#challenges-out li[data-status=waiting]")
    # Badr's page says it at once (assertive), lists it, and the menu counts it.
    heard(badr, "Amal", assertive=True)
    badr.wait_for_selector("#challenges-in li[data-status=waiting] [data-accept]")
    badr.wait_for_selector("#nav-notifications .badge:not([hidden])", state="attached")
    assert badr.locator("#nav-notifications .badge").text_content() == "1"
    assert badr.locator("#menu-toggle .badge").inner_text() == "1"  # the folded menu's too
    unread = "1 unread" if lang == "en" else "واحد غير مقروء"  # in words, in Arabic
    assert unread in badr.locator("#nav-notifications .sr-only").text_content()
    badr.locator("#challenges").scroll_into_view_if_needed()
    no_violations(badr, f"challenges-in-{lang}-390")
    press(badr, "#challenges-in [data-accept]")
    for page in (amal, badr):
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".hand button.card")
    table = amal.url.split("/t/")[1].split("?")[0]
    assert badr.url.split("/t/")[1].split("?")[0] == table
    play_until_over([amal, badr])
    # One tap each: Amal's is said on Badr's page; then Badr's makes the new table.
    press(amal, "#game-over #rematch")
    badr.wait_for_function("() => window.__said.some((s) => s.text.includes('Amal'))")
    press(badr, "#game-over #rematch")
    for page in (amal, badr):
        page.wait_for_function("(t) => !location.pathname.endsWith(t)", arg=table)
        page.wait_for_selector(".hand button.card")
    amal.context.close()
    badr.context.close()


def test_declined_expired_and_blocked_challenges(browser: Any, site: str) -> None:  # noqa: F811
    amal_token = person(site, "amal_d", "Amal")
    badr_token = person(site, "badr_d", "Badr")
    friends(site, amal_token, badr_token)
    amal = page_of(browser, amal_token, "Amal", 390, 844)
    badr = page_of(browser, badr_token, "Badr", 1366, 800)
    for page in (amal, badr):
        page.goto(f"{site}/?lang=en&anim=fast")
        page.wait_for_selector("#challenges-in")
    # Declined, by keyboard: Amal's page shows it declined.
    status, made = http(site + "/api/challenges", {"to": {"username": "badr_d"}}, token=amal_token)
    assert status == 200, made
    badr.wait_for_selector(f"#challenges-in li[data-challenge='{made['id']}'] [data-decline]")
    # The notification's link names the challenge: its page gives Accept the focus; Tab, Enter.
    item = http(site + "/api/notifications", token=badr_token)[1]["items"][0]
    assert item["url"] == f"/?challenge={made['id']}"
    badr.goto(f"{site}{item['url']}&lang=en&anim=fast")
    badr.wait_for_function(
        "(id) => document.activeElement && document.activeElement.dataset.accept === id",
        arg=made["id"],
    )
    badr.keyboard.press("Tab")
    badr.keyboard.press("Enter")
    amal.wait_for_selector(
        f"#challenges-out li[data-challenge='{made['id']}'][data-status=declined]"
    )
    heard(amal, "declined")
    amal.set_viewport_size({"width": 1366, "height": 800})
    no_violations(amal, "challenges-declined-en-1366")
    # Badr blocks Amal: her Challenge button on his profile is refused in words.
    code = http(site + "/api/friends/link", token=amal_token)[1]["code"]
    assert http(site + "/api/friends/block", {"code": code}, token=badr_token)[0] == 200
    amal.goto(f"{site}/u/badr_d?lang=en&anim=fast")
    amal.wait_for_selector("#challenge")
    press(amal, "#challenge")
    amal.wait_for_function(
        "() => document.querySelector('#follow-error').textContent.trim().length > 0"
    )
    listed = http(site + "/api/challenges", token=amal_token)[1]["outgoing"]
    assert [c["id"] for c in listed] == [made["id"]]
    amal.context.close()
    badr.context.close()


def test_an_unanswered_challenge_expires_and_both_pages_show_it(
    browser: Any,  # noqa: F811
    hasty: str,
) -> None:
    amal_token = person(hasty, "amal_e", "Amal")
    badr_token = person(hasty, "badr_e", "Badr")
    friends(hasty, amal_token, badr_token)
    amal = page_of(browser, amal_token, "Amal", 390, 844)
    badr = page_of(browser, badr_token, "Badr", 1366, 800)
    for page in (amal, badr):
        page.goto(f"{hasty}/?lang=ar&anim=fast")
        page.wait_for_selector("#challenges-in")
    status, late = http(hasty + "/api/challenges", {"to": {"username": "badr_e"}}, token=amal_token)
    assert status == 200, late
    for page, side in ((amal, "out"), (badr, "in")):
        page.wait_for_selector(
            f"#challenges-{side} li[data-challenge='{late['id']}'][data-status=expired]",
            timeout=20_000,
        )
    assert "منتهي" in badr.locator(f"li[data-challenge='{late['id']}']").inner_text()
    amal.wait_for_selector("#notifications-list li.unread")
    no_violations(amal, "challenges-expired-ar-390")
    no_violations(badr, "challenges-expired-ar-1366")
    amal.context.close()
    badr.context.close()
