"""Push notifications' settings page in the browser (static/push.js), in English and
Arabic, by keyboard, with 0 axe-core violations at 390x844 and 1366x800 (screenshots in
out/screens): the kinds chosen with the keyboard reach the server and are said in the
polite status region; turning this device on asks the service worker's PushManager; a
server without VAPID keys says push is off; the subscription is posted with the page's
language (a PushManager stand-in gives it), and again in the page's language each time
the page opens.

What headless Chromium cannot do here is receive a real push: its PushManager has no
push service to register with offline, so subscribing ends in the page's words for a
failure (checked), and no push reaches the service worker (DevTools' deliverPushMessage
did not dispatch one either). So the service worker's own ``push``,
``notificationclick`` and ``pushsubscriptionchange`` handlers are run in Chromium
against a stand-in of its global scope (push_sw_harness.js); tests/web/test_push.py
holds the server's half end to end, with a push service of its own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, ROOT, ServerThread, eventually, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig
from basra.server.features.push import PushConfig, make_keys

pytestmark = pytest.mark.browser

HEARD = (
    "window.__said = [];"
    "document.addEventListener('basra:announce', (e) => window.__said.push(e.detail.text));"
)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("push")
    push = PushConfig(vapid_private_key=make_keys()[0], subject="mailto:test@example.org")
    on = AppConfig(database=str(folder / "on.db"), service=FAST, push=push)
    off = AppConfig(database=str(folder / "off.db"), service=FAST)
    with ServerThread(on) as with_keys, ServerThread(off) as without:
        yield with_keys.url, without.url


def page_of(browser: Any, site: str, token: str, width: int, height: int) -> Any:  # noqa: F811
    context = browser.new_context(
        viewport={"width": width, "height": height}, service_workers="allow"
    )
    context.grant_permissions(["notifications"], origin=site)
    context.add_init_script(f"localStorage.setItem('basra.token', {token!r});" + HEARD)
    return context.new_page()


def chosen_soon(site: str, token: str, kinds: list[str]) -> None:
    """The server holds these kinds chosen, within a few seconds."""
    eventually(lambda: _chosen_is(site, token, kinds), timeout=10)


def _chosen_is(site: str, token: str, kinds: list[str]) -> None:
    assert http(f"{site}/api/push", token=token)[1]["chosen"] == kinds


def words(page: Any, key: str, n: int = 0) -> str:
    """The page's words for ``key`` (with ``n``), in its language."""
    return str(
        page.evaluate(
            "import('/static/i18n.js').then((m) => m.translate("
            f"document.documentElement.lang, {key!r}, {{ n: {n} }}))"
        )
    )


def no_violations(page: Any, name: str) -> None:
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, name)


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1366, 800), ("ar", 390, 844)])
def test_kinds_are_chosen_by_keyboard_and_this_device_is_offered_push(
    browser: Any,  # noqa: F811
    sites: tuple[str, str],
    lang: str,
    width: int,
    height: int,
) -> None:
    site = sites[0]
    token = new_token(site)
    page = page_of(browser, site, token, width, height)
    page.goto(f"{site}/settings/notifications?lang={lang}&anim=fast")
    page.wait_for_selector("#push-kind-reply")
    page.wait_for_selector("#push-toggle:not([hidden])")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("#push-kinds input[type=checkbox]").count() == 5
    assert page.locator("#push-kinds input:checked").count() == 0  # nothing until chosen
    no_violations(page, f"push-{lang}-{width}")
    # By keyboard: to the first kind, tick it, on to the last one, tick it.
    page.focus("#push-kind-your_turn")
    page.keyboard.press("Space")
    for _ in range(4):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "push-kind-reply"
    page.keyboard.press("Space")
    chosen_soon(site, token, ["reply", "your_turn"])
    page.wait_for_function(f"window.__said.includes({words(page, 'push_saved', 2)!r})")
    # Unticked again: saved as such.
    page.keyboard.press("Space")
    chosen_soon(site, token, ["your_turn"])
    page.wait_for_function(f"window.__said.includes({words(page, 'push_saved', 1)!r})")
    # This device: the button asks the PushManager. Headless Chromium has no push service,
    # so it either subscribes (then the server holds it) or says it could not, in words.
    before = page.locator("#push-state").inner_text()
    page.focus("#push-toggle")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.querySelector('#push-error').textContent"
        " || document.querySelector('#push-toggle')?.dataset.on === '1'",
        timeout=20000,
    )
    subscribed = http(f"{site}/api/push", token=token)[1]["subscriptions"]
    if page.locator("#push-toggle").get_attribute("data-on") == "1":
        assert subscribed == 1 and page.locator("#push-state").inner_text() != before
    else:
        assert subscribed == 0
        assert page.locator("#push-error").inner_text() == words(page, "push_failed")
    assert page.evaluate("document.activeElement.id") == "push-toggle"  # the focus stays
    no_violations(page, f"push-{lang}-{width}-after")
    page.context.close()


def test_the_page_posts_its_language_with_the_subscription_and_again_when_it_opens(
    browser: Any,  # noqa: F811
    sites: tuple[str, str],
) -> None:
    """A PushManager stand-in (headless Chromium has no push service) gives a real
    subscription's JSON: the page posts it with its language, and posts it again, with
    the language of the page now, each time the settings page opens."""
    from tests.web.test_push import Browser

    site = sites[0]
    token = new_token(site)
    page = page_of(browser, site, token, 390, 844)
    given = Browser().subscription("https://push.example/page")
    page.add_init_script(
        "(() => {"
        f"  const json = {json.dumps(given)};"
        "  const made = { endpoint: json.endpoint, options: {}, toJSON: () => json,"
        "    unsubscribe: async () => true };"
        "  let held = sessionStorage.getItem('held') ? made : null;"
        "  PushManager.prototype.subscribe = async function () {"
        "    held = made; sessionStorage.setItem('held', '1'); return made; };"
        "  PushManager.prototype.getSubscription = async function () { return held; };"
        "})();"
    )
    posted: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: (
            posted.append(json.loads(r.post_data or "{}"))
            if r.url.endswith("/api/push/subscribe")
            else None
        ),
    )
    page.goto(f"{site}/settings/notifications?lang=ar&anim=fast")
    page.wait_for_selector("#push-toggle:not([hidden])")
    page.focus("#push-toggle")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#push-toggle')?.dataset.on === '1'")
    eventually(lambda: _subscriptions_are(site, token, 1), timeout=10)
    assert posted[-1]["lang"] == "ar" and posted[-1]["endpoint"] == given["endpoint"]
    # Opened again in English: this browser's subscription is posted again, in English.
    page.goto(f"{site}/settings/notifications?lang=en&anim=fast")
    page.wait_for_function("document.querySelector('#push-toggle')?.dataset.on === '1'")
    eventually(lambda: _posted_in(posted, "en"), timeout=10)
    page.context.close()


def _subscriptions_are(site: str, token: str, n: int) -> None:
    assert http(f"{site}/api/push", token=token)[1]["subscriptions"] == n


def _posted_in(posted: list[dict[str, Any]], lang: str) -> None:
    assert len(posted) >= 2 and posted[-1]["lang"] == lang, posted


def test_a_server_without_keys_says_push_is_off(browser: Any, sites: tuple[str, str]) -> None:  # noqa: F811
    site = sites[1]
    page = page_of(browser, site, new_token(site), 390, 844)
    page.goto(f"{site}/settings/notifications?lang=en&anim=fast")
    page.wait_for_selector("#push-kind-reply")
    page.wait_for_function("document.querySelector('#push-state')?.textContent")
    assert "does not send push notifications" in page.locator("#push-state").inner_text()
    assert page.locator("#push-toggle").is_hidden()
    assert page.locator("#push-kind-reply").is_disabled()  # in the disabled fieldset
    no_violations(page, "push-off-en-390")
    page.context.close()


SW_HARNESS = Path(__file__).with_name("push_sw_harness.js")
"""A stand-in of the service worker's global scope that runs sw.js and reports."""


def test_the_service_worker_shows_a_push_and_a_click_opens_its_address(browser: Any) -> None:  # noqa: F811
    """The service worker's own code (static/offline/sw.js), run in Chromium against a
    stand-in of its global scope: what a push shows, where a click goes, what a replaced
    subscription posts. (A real push cannot reach headless Chromium.)"""
    source = (ROOT / "src/basra/server/static/offline/sw.js").read_text(encoding="utf-8")
    page = browser.new_page()
    results = page.evaluate(SW_HARNESS.read_text(encoding="utf-8"), source)
    page.close()
    (show, elsewhere, backslash) = results["shown"]
    assert show[:2] == ["show", "Your turn"]
    options = show[2]
    assert options["body"] == "Table 3" and options["tag"] == "your_turn:/t/abc"
    assert options["data"] == {"url": "/t/abc", "kind": "your_turn"} and options["renotify"]
    assert options["lang"] == "ar" and options["dir"] == "auto"  # shown in its language
    assert elsewhere[2]["lang"] == ""  # a payload without one: the browser's own
    assert elsewhere[2]["data"]["url"] == "/" and backslash[2]["data"]["url"] == "/"
    origin = "https://basra.example"
    # A page already there is focused; else a page of the site goes there; else one opens.
    assert results["same"] == [["close"], ["focus", f"{origin}/t/abc"]]
    assert results["other"] == [
        ["close"],
        ["navigate", f"{origin}/games", f"{origin}/t/abc"],
        ["focus", f"{origin}/t/abc"],
    ]
    assert results["none"] == [["close"], ["open", f"{origin}/t/abc"]]
    # A replaced subscription: the new one posted with the old one; without the old, nothing.
    ((fetch, url, body),) = results["renewed"]
    assert (fetch, url) == ("fetch", "/api/push/renew")
    assert body == {
        "old": {"endpoint": "https://push.example/old", "keys": {"auth": "a"}},
        "subscription": {"endpoint": "https://push.example/renewed"},
    }
    assert results["nothing"] == []
