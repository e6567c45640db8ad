"""Browser tests of quick play, the daily deal, reactions and bot accounts (Chromium).

Two browsers press "Play now" and meet at one table, where reactions are sent,
shown, muted (and the mute survives a reload) and said in Arabic; a person
plays the daily deal without any answer holding a card before, then compares
their decisions with another player's; a bot account is made and seated.
Screenshots go to out/screens.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    ROOT,
    Player,
    ServerThread,
    cards_in,
    http,
    new_token,
    play_to_end,
)
from tests.web.test_browser import browser, new_page, play_until_over, shot

from basra.server.app import AppConfig
from basra.server.features.pairing import QuickPlayConfig

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the module's Chromium, shared by the tests below

STATIC = ROOT / "src" / "basra" / "server" / "static"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("play") / "basra.db")
    config = AppConfig(
        database=database,
        service=replace(FAST, bot_delay=0.05),
        quickplay=QuickPlayConfig(pair_every=0.2, heartbeat=0.5),
    )
    with ServerThread(config) as server:
        yield server.url


def play_now(page: Any, name: str, variant: str = "egyptian", kind: str = "2") -> None:
    page.wait_for_selector("#play-now")
    page.fill("#name", name)
    page.dispatch_event("#name", "input")
    page.select_option("#quick-variant", variant)
    page.select_option("#quick-kind", kind)
    page.select_option("#quick-bot", "")
    page.click("#play-now")


def test_every_word_the_new_pages_use_exists_in_every_language() -> None:
    from tests.web.test_words_table import LANGS, keys

    for module in ("quickplay.js", "daily.js", "reactions.js", "bots.js"):
        text = (STATIC / module).read_text(encoding="utf-8")
        used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
        if module == "reactions.js":  # t("react_" + code) for every phrase and emoji
            codes = re.findall(r"\b([a-z_]+)\b", text.split("PHRASES = [")[1].split("];")[0])
            codes += re.findall(r"\b([a-z]+): \"", text.split("EMOJI = {")[1].split("};")[0])
            used |= {f"react_{code}" for code in codes}
        assert used, module
        for lang in LANGS:
            assert not used - keys(lang), (module, lang, sorted(used - keys(lang)))


def test_two_browsers_press_play_now_meet_and_react(browser: Any, site: str) -> None:
    amal = new_page(browser, site)
    badr = new_page(browser, site, lang="ar", phone=True)
    play_now(amal, "Amal")
    amal.wait_for_selector("#quick-cancel:not([hidden])")
    assert "Amal" not in amal.inner_text("#quick-status")
    shot(amal, "quick-play-seeking-en")
    play_now(badr, "Badr")
    for page in (amal, badr):
        page.wait_for_url("**/t/*", timeout=20_000)
        page.wait_for_selector(".hand button.card")
    assert amal.url.rsplit("/t/", 1)[1].split("?")[0] == badr.url.rsplit("/t/", 1)[1].split("?")[0]
    assert amal.locator("#table-kind .tag").count() == 1  # rated, with a clock
    # Amal reacts; both see it (Badr in Arabic).
    amal.click("#react")
    amal.click('button[data-react="well_played"]')
    amal.wait_for_selector('.reaction[data-code="well_played"]')
    badr.wait_for_selector('.reaction[data-code="well_played"]')
    assert "Well played!" in amal.inner_text("#reactions")
    assert "أحسنت!" in badr.inner_text("#reactions")
    shot(badr, "reaction-ar-phone")
    # Badr mutes reactions: none shows, and the switch is remembered after a reload.
    badr.click("#reactions-mute")
    assert badr.get_attribute("#reactions-mute", "aria-pressed") == "true"
    badr.reload()
    badr.wait_for_selector("#reactions-mute")
    assert badr.get_attribute("#reactions-mute", "aria-pressed") == "true"
    amal.click("#react")
    amal.click('button[data-react="clap"]')
    amal.wait_for_selector('.reaction[data-code="clap"]')
    badr.wait_for_timeout(600)
    assert badr.locator(".reaction").count() == 0
    badr.click("#reactions-mute")
    amal.click("#react")
    amal.click('button[data-react="thanks"]')
    badr.wait_for_selector('.reaction[data-code="thanks"]')
    assert "شكرًا!" in badr.inner_text("#reactions")
    amal.context.close()
    badr.context.close()


def test_the_home_page_shows_who_waits_and_a_search_survives_a_reload(
    browser: Any, site: str
) -> None:
    page = new_page(browser, site, phone=True)
    play_now(page, "Chadi", variant="lebanese", kind="3")
    page.wait_for_selector("#quick-cancel:not([hidden])")
    page.wait_for_selector('#quick-pools li[data-pool="lebanese/3"]', timeout=10_000)
    shot(page, "quick-play-phone")
    page.reload()
    page.wait_for_selector("#quick-cancel:not([hidden])")
    page.wait_for_function(
        "() => /[1-9]/.test(document.querySelector('#quick-status').textContent)"
    )
    # The reloaded page renews its place in the pool; the count follows within moments.
    expected = [{"variant": "lebanese", "players": 3, "teams": False, "waiting": 1}]
    deadline = time.time() + 10
    pools = http(site + "/api/quickplay")[1]["pools"]
    while pools != expected and time.time() < deadline:
        time.sleep(0.1)
        pools = http(site + "/api/quickplay")[1]["pools"]
    assert pools == expected
    page.click("#quick-cancel")
    page.wait_for_selector("#play-now:not([hidden])")
    page.context.close()


def test_the_daily_deal_in_the_browser(browser: Any, site: str) -> None:
    # Another player finishes the deal first, over a socket.
    other = new_token(site)
    deal = http(site + "/api/daily")[1]["deals"][0]["id"]
    started = http(f"{site}/api/daily/{deal}", {"name": "Dalia"}, token=other)[1]
    player = Player(site, started["table"], other, "Dalia")
    play_to_end([player])
    # Every answer the page gets before its own attempt is free of cards.
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    responses: list[Any] = []

    def keep(response: Any) -> None:
        responses.append(response)

    page.on("response", keep)  # from the first request on
    page.goto(f"{site}/daily?lang=en&anim=fast")
    page.wait_for_selector(f'[data-deal="{deal}"] button[data-play]')
    assert page.locator("#daily-hidden").count() >= 1
    shot(page, "daily-en")
    page.remove_listener("response", keep)
    answers = [r.text() for r in responses if "/api/" in r.url and r.status < 300]
    assert any('"deals"' in a for a in answers) and any('"entries"' in a for a in answers)
    assert not set().union(*(cards_in(a) for a in answers if a.startswith(("{", "["))))
    page.click(f'[data-deal="{deal}"] button[data-play]')
    page.wait_for_url("**/t/*")
    play_until_over([page])
    assert page.locator("#game-over #rematch").count() == 0
    page.click("#daily-board-link")
    page.wait_for_selector(f'[data-deal="{deal}"] .daily-result')
    page.click(f'[data-deal="{deal}"] button[data-see]')
    page.wait_for_selector("#daily-decisions tbody tr")
    assert page.locator("#daily-decisions tbody tr").count() >= 4
    shot(page, "daily-compare-en")
    page.context.close()


def test_a_bot_account_is_made_and_seated(browser: Any, site: str) -> None:
    page = new_page(browser, f"{site}/bots?lang=ar&anim=fast", phone=True)
    page.wait_for_selector("#make-bot")
    page.fill("#bot-name", "Falcon")
    page.click("#make-bot")
    page.wait_for_selector("#bot-token-value")
    token = page.input_value("#bot-token-value")
    assert token.startswith("bot_")
    page.wait_for_selector('li[data-bot="Falcon"]')
    shot(page, "bots-ar-phone")
    status, account = http(site + "/api/bot/account", token=token)
    assert status == 200 and account["name"] == "Falcon"
    page.goto(f"{site}/?lang=en&anim=fast")
    page.wait_for_selector(
        'select[data-seat="1"] option[value="external:Falcon"]', state="attached"
    )
    page.fill("#name", "Amal")
    page.dispatch_event("#name", "input")
    page.select_option('select[data-seat="1"]', "external:Falcon")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seat .tag.program")
    assert "Falcon" in page.inner_text(".felt")
    page.context.close()
