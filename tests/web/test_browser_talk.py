"""Table talk in the browser (static/talk.js): three people at one table, two of them in
one Chromium (one reads English, the other Arabic) and one over its socket. By keyboard
only: a line typed and sent, a quick phrase each reads in their own language, a
confusable insult refused under its field, a person muted, a line reported; each line
said aloud in blind mode; 0 axe-core violations at 390x844 and 1366x800 in English and
Arabic; screenshots go to out/screens."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, TEST_LIMITS, Player, ServerThread, create_table, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig
from basra.server.ops.control import OpsConfig
from basra.server.quotas import Rate

pytestmark = pytest.mark.browser

ADMIN = "w" * 40
HEARD = (
    "window.__said = [];"
    "document.addEventListener('basra:announce', (e) => window.__said.push(e.detail));"
)
INSULT = "you b\u0430st\u0430rd"
""""bastard" with two Cyrillic letters "а": the words policy reads it as the word."""
GOOD_GAME = {"en": "Good game!", "ar": "لعبة حلوة!"}
REFUSED = {"en": "holds a word not allowed", "ar": "كلمة غير مسموحة"}
SAYS = {"en": "says:", "ar": "يقول:"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("talk") / "basra.db")
    roomy = Rate(1000, 1)
    limits = replace(TEST_LIMITS, talk_per_identity=roomy, talk_per_address=roomy)
    config = AppConfig(
        database=database,
        service=replace(FAST, limits=limits),
        ops=OpsConfig(admin_token=ADMIN),
    )
    with ServerThread(config) as server:
        yield server.url


def page_of(browser: Any, token: str, name: str, size: tuple[int, int], blind: bool) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(
        f"localStorage.setItem('basra.token', {token!r});"
        f"localStorage.setItem('basra.name', {name!r});"
        f"localStorage.setItem('basra.blind', {'1' if blind else '0'!r});" + HEARD
    )
    return context.new_page()


def no_violations(page: Any, name: str) -> None:
    page.locator("#talk").scroll_into_view_if_needed()
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, name)


def press(page: Any, selector: str, key: str = "Enter") -> None:
    """The keyboard on an element (focused the way Tab would reach it)."""
    page.focus(selector)
    page.keyboard.press(key)


def log_text(page: Any) -> str:
    return str(page.locator("#talk-log").inner_text())


def reads(page: Any, words: str) -> None:
    """Wait until the page's talk log shows ``words``."""
    page.wait_for_function(
        "(words) => document.querySelector('#talk-log').innerText.includes(words)", arg=words
    )


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_three_people_talk_mute_and_report_by_keyboard(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
) -> None:
    other = "ar" if lang == "en" else "en"
    amal_token, badr_token, carl_token = (new_token(site) for _ in range(3))
    seats = [{"kind": "person"}] * 3
    table = create_table(site, amal_token, "Amal", players=3, seats=seats)
    for token, name, seat in ((badr_token, "Badr", 1), (carl_token, "Carl", 2)):
        joining = Player(site, table, token, name)
        joining.wait_type("state")
        joining.send({"type": "join", "seat": seat})
        joining.wait(lambda m, s=seat: m["type"] == "table" and m["table"]["you"] == s)
        if name == "Badr":
            joining.close()
        else:
            carl = joining
    amal = page_of(browser, amal_token, "Amal", (1366, 800), blind=False)
    badr = page_of(browser, badr_token, "Badr", (390, 844), blind=True)
    amal.goto(f"{site}/t/{table}?lang={lang}&anim=fast")
    badr.goto(f"{site}/t/{table}?lang={other}&anim=fast")
    for page in (amal, badr):
        page.wait_for_selector("#talk-text")
    # Amal types a line and sends it with Enter; Badr reads it, and hears it (blind mode).
    amal.focus("#talk-text")
    amal.keyboard.type("Salam Badr")
    amal.keyboard.press("Enter")
    badr.wait_for_function(
        "() => document.querySelector('#talk-log').innerText.includes('Salam Badr')"
    )
    badr.wait_for_function(
        "(words) => window.__said.some((s) => s.text.includes(words) && s.text.includes('Amal'))",
        arg=SAYS[other],
    )
    assert carl.wait(lambda m: m["type"] == "talk")["text"] == "Salam Badr"
    assert amal.locator("#talk-log").get_attribute("aria-live") == "polite"  # a live region
    assert badr.locator("#talk-log").get_attribute("aria-live") == "off"  # said by nvui instead
    # Badr sends a quick phrase by keyboard: each reads it in their own language.
    press(badr, "#talk-phrases summary")
    press(badr, "#talk-phrases button[data-phrase='good_game']")
    amal.wait_for_function(
        f"() => document.querySelector('#talk-log').innerText.includes({GOOD_GAME[lang]!r})"
    )
    badr.wait_for_function(
        f"() => document.querySelector('#talk-log').innerText.includes({GOOD_GAME[other]!r})"
    )
    assert carl.wait(lambda m: m["type"] == "talk")["phrase"] == "good_game"
    # A confusable insult is refused under the field, which is marked; nobody reads it.
    amal.focus("#talk-text")
    amal.keyboard.type(INSULT)
    amal.keyboard.press("Enter")
    amal.wait_for_function(
        f"() => document.querySelector('#talk-status').innerText.includes({REFUSED[lang]!r})"
    )
    assert amal.locator("#talk-text").get_attribute("aria-invalid") == "true"
    assert amal.locator("#talk-text").input_value() == INSULT  # to be written another way
    amal.keyboard.press("Control+a")  # the refusal left the focus in the field
    amal.keyboard.press("Backspace")
    no_violations(amal, f"talk-refused-{lang}-1366")
    no_violations(badr, f"talk-{other}-390")
    # Amal mutes Badr from his line's actions: his next line reaches Carl, not her.
    press(amal, "#talk-log .talk-line[data-seat='1'] button.talk-more")
    press(amal, "#talk-log button[data-mute='1']")
    amal.wait_for_selector("#talk-mutes")
    assert "Badr" in amal.locator("#talk-status").inner_text()
    badr.focus("#talk-text")
    badr.keyboard.type("are you there")
    badr.keyboard.press("Enter")
    assert carl.wait(lambda m: m["type"] == "talk")["text"] == "are you there"
    # Carl's line reaches Amal; Badr's (sent before it) never did.
    carl.send({"type": "say", "text": "you play like a potato"})
    reads(amal, "potato")
    assert "are you there" not in log_text(amal) and "Salam Badr" in log_text(amal)
    # Amal reports Carl's line, by keyboard; the report quotes it.
    press(amal, "#talk-log .talk-line[data-seat='2'] button.talk-more")
    press(amal, "#talk-log button[data-report]")
    amal.wait_for_function(
        "() => document.querySelector('#talk-status').innerText.length > 0"
        " && !document.querySelector('#talk-log button[data-report]')"
    )
    reports = http(site + "/admin/reports", token=ADMIN)[1]["reports"]
    assert any(r["subject"] == "talk" and r["quote"] == "you play like a potato" for r in reports)
    # The other sizes, in both languages.
    amal.set_viewport_size({"width": 390, "height": 844})
    no_violations(amal, f"talk-muted-{lang}-390")
    badr.set_viewport_size({"width": 1366, "height": 800})
    no_violations(badr, f"talk-{other}-1366")
    time.sleep(0.1)
    carl.close()
    amal.context.close()
    badr.context.close()
