"""Playing by keyboard and hearing the table (Chromium): a whole game against a bot with
keys alone, every play said once in words; the table module's keys on a position of
our own (1-6, arrows, the confirm setting, a numbered list of sets, Escape, typed
commands in blind mode); the skip links and the focus ring.

What a screen reader would say is read from the page's "basra:announce" events and
its live region; sounds from its "basra:sound" events (announce.js, sound.js).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import FAST, ServerThread, create_table, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (browser is a fixture)

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser

LISTEN = """
window.__said = []; window.__sounds = [];
document.addEventListener("basra:announce", (e) => window.__said.push(e.detail));
document.addEventListener("basra:sound", (e) => window.__sounds.push(e.detail.name));
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("keys") / "basra.db")
    config = AppConfig(database=database, service=replace(FAST, bot_delay=0.02))
    with ServerThread(config) as server:
        yield server.url


def open_page(browser: Any, url: str, token: str | None = None, **extra: str) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    script = LISTEN + "localStorage.setItem('basra.name', 'Amal');"
    if token:
        script += f"localStorage.setItem('basra.token', {token!r});"
    for key, value in extra.items():
        script += f"localStorage.setItem({key!r}, {value!r});"
    context.add_init_script(script)
    page = context.new_page()
    page.goto(url)
    return page


def said(page: Any) -> list[str]:
    return [d["text"] for d in page.evaluate("window.__said") if d["assertive"]]


def focus_in_hand(page: Any) -> bool:
    return bool(page.evaluate("!!document.activeElement.closest('.hand')"))


def test_a_whole_game_against_a_bot_by_keyboard_alone(browser: Any, site: str) -> None:  # noqa: F811
    token = new_token(site)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    table = create_table(site, token, "Amal", seats=seats, rules={"target": 1})
    url = f"{site}/t/{table}?lang=en&anim=fast"
    page = open_page(browser, url, token, **{"basra.confirm": "0"})
    page.wait_for_selector(".hand button.card")
    # Nothing on the page is one big live region; the log is never read again by itself.
    live = "document.querySelectorAll('main[aria-live], .log[aria-live]').length"
    assert page.evaluate(live) == 0
    # The first Tab reaches the skip link, which leads to the hand.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip-link"
    assert page.inner_text("#skip-link") == "Skip to the table"
    page.keyboard.press("Enter")
    assert focus_in_hand(page)
    presses = 0
    deadline = time.time() + 120
    while not page.locator("#game-over").count():
        assert time.time() < deadline, "the game did not end in time"
        if not page.locator(".hand button.card:not([aria-disabled])").count():
            page.wait_for_timeout(20)
            continue
        assert focus_in_hand(page), "the focus left the hand"
        # The focused card is ringed where anyone can see it.
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineWidth")
        assert float(ring.removesuffix("px")) >= 3
        page.keyboard.press("1")
        if page.locator(".choices .choice").count():
            page.keyboard.press("1")
        presses += 1
        page.wait_for_function(
            f"window.__said.filter((d) => d.text.startsWith('You play ')).length >= {presses}"
        )
    page.wait_for_function("document.getElementById('announce')?.textContent.includes('Game over')")
    # The game-over sheet takes the focus once, so the result is read first.
    assert page.evaluate("document.activeElement.id") == "game-over-title"
    record = http(f"{site}/api/games/{table}/replay", token=token)[1]
    plays = [f["event"] for f in record["frames"] if f["event"]["kind"] == "play"]
    mine = [p for p in plays if p["seat"] == 0]
    theirs = [p for p in plays if p["seat"] == 1]
    assert presses == len(mine)
    words = said(page)
    # Every play after the page opened is said once, in words: who, which card, what it took.
    heard_mine = [w for w in words if w.startswith("You play ")]
    heard_theirs = [w for w in words if w.startswith("Bot 2 plays ")]
    assert len(heard_mine) == len(mine)
    first_bot = 1 if plays[0]["seat"] == 1 else 0
    assert len(theirs) - first_bot <= len(heard_theirs) <= len(theirs)
    card, _, takes = theirs[-1]["move"].partition("x")
    names = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    ranks = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
    word = f"{ranks.get(card[:-1], card[:-1])} of {names[card[-1]]}"
    assert any(word in w for w in heard_theirs), (word, heard_theirs[-3:])
    if takes:
        assert any(" and takes " in w for w in heard_theirs)
    assert any("Your turn." in w for w in words)
    assert any(w.startswith("Game over.") or "Game over." in w for w in words)
    # Every deal within the round is said (the round's one of 2 players: 6 deals of 4 each,
    # the first before the page opened), and never more than once.
    dealt = [w for w in words if "New cards: 4 in your hand." in w]
    assert len(dealt) in (5, 6), words
    shot(page, "keyboard-game-over-en")
    page.context.close()


HARNESS = "\n".join(
    line
    for line in (Path(__file__).parent / "table_harness.js")
    .read_text(encoding="utf-8")
    .splitlines()
    if not line.startswith("//")
)
"""A table of our own: table.js on hand-made frames (window.frame(turn, version, event))."""


def event(page: Any, turn: int, version: int, seat: int, move: str, basra: int = 0) -> None:
    """A snapshot of the harness's table after ``seat`` played ``move``."""
    page.evaluate(
        "([turn, version, seat, move, basra]) => window.tableView.accept("
        "window.frame(turn, version, { kind: 'play', round: 0, seat, move, basra }))",
        [turn, version, seat, move, basra],
    )


def harness(browser: Any, site: str, lang: str = "en", blind: bool = False) -> Any:  # noqa: F811
    page = open_page(browser, f"{site}/rules?lang={lang}", **{"basra.confirm": "0"})
    page.wait_for_selector(".list li a")
    page.evaluate(HARNESS, [lang, blind])
    page.wait_for_selector("#harness .hand button.card")
    return page


def test_the_tables_keys_on_a_position_of_our_own(browser: Any, site: str) -> None:  # noqa: F811
    page = harness(browser, site)
    cards = page.locator("#harness .hand button.card")
    assert cards.count() == 3
    # One Tab stop for the hand; the arrows move along it, Home and End to its ends.
    assert page.locator("#harness .hand button.card[tabindex='0']").count() == 1
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "KD"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.card") == "2C"
    page.keyboard.press("ArrowRight")  # round the end, back to the first
    assert page.evaluate("document.activeElement.dataset.card") == "7S"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.card") == "2C"
    # Each card says what it would take.
    seven = page.locator('#harness [data-card="7S"]')
    assert seven.locator("img").get_attribute("alt") == "7 of spades"
    assert seven.inner_text().endswith(
        ", can take 1: 3 of clubs, 4 of diamonds or 2: 5 of hearts, 2 of spades"
    )
    # 1: the seven can take different sets, so a numbered list opens; 2 picks the second.
    page.keyboard.press("1")
    assert page.locator("#harness .choices .choice").count() == 2
    assert page.locator("#harness .choices").evaluate("n => n.tagName") == "OL"
    assert "press 1 to 2 to choose" in said(page)[-1]
    assert page.evaluate("window.__sounds").count("select") == 1
    # Escape cancels the list; the focus goes back to the card.
    page.keyboard.press("Escape")
    assert page.locator("#harness .choices").count() == 0
    assert page.evaluate("document.activeElement.dataset.card") == "7S"
    page.keyboard.press("1")
    page.keyboard.press("2")
    assert page.evaluate("window.played") == [["7Sx5H,2S", 7]]
    # Until the next snapshot the seat waits: another key is refused, said, and sounded.
    page.keyboard.press("3")
    assert said(page)[-1] == "It is not your turn."
    assert page.evaluate("window.__sounds")[-1] == "error"
    # The bot's play is said once, with whose turn it is now; the table is changed in
    # place, not drawn again (the same card buttons, the focus where it was).
    page.evaluate("window.kept = [...document.querySelectorAll('#harness .hand button.card')]")
    event(page, 0, 8, 1, "KSxKH")
    now = "document.querySelectorAll('#harness .hand button.card')"
    same = f"window.kept.every((b, i) => b === {now}[i])"
    assert page.evaluate(same)
    assert said(page)[-1] == "Bot 2 plays king of spades and takes king of hearts. Your turn."
    event(page, 0, 8, 1, "KSxKH")
    assert said(page)[-1] == "Bot 2 plays king of spades and takes king of hearts. Your turn."
    assert sum(w.startswith("Bot 2 plays") for w in said(page)) == 1
    # A card beyond the hand is said to be missing.
    page.keyboard.press("5")
    assert said(page)[-1] == "There is no card 5 in your hand."
    # The confirm setting: the first press selects (said, and a sound), the second plays.
    page.evaluate("window.tableView.confirm = true; window.tableView.render()")
    page.keyboard.press("2")
    assert page.evaluate("window.played")[-1][0] != "KD"
    assert said(page)[-1].startswith("king of diamonds selected: king of diamonds takes nothing")
    assert page.locator("#harness [data-card='KD'][aria-pressed='true']").count() == 1
    page.keyboard.press("Enter")
    assert page.evaluate("window.played")[-1] == ["KD", 8]
    page.context.close()


def test_typed_commands_read_the_table_in_blind_mode(browser: Any, site: str) -> None:  # noqa: F811
    page = harness(browser, site, blind=True)
    # Cards are words: the hand as numbered buttons, the floor as a list.
    assert page.inner_text("#harness .hand button.card >> nth=0").startswith("1. 7 of spades")
    assert page.locator("#harness ul.floor li.card").count() == 4
    answers = {}
    for command in ("h", "f", "s", "p", "l", "c", "t", "a", "?", "xyz"):
        page.fill("#command", command)
        page.press("#command", "Enter")
        answers[command] = page.inner_text("#command-output")
        assert said(page)[-1] == answers[command]
    assert answers["h"] == "Your hand: 1 7 of spades, 2 king of diamonds, 3 2 of clubs."
    assert answers["f"] == "The floor: 3 of clubs, 4 of diamonds, 5 of hearts, 2 of spades."
    assert answers["s"] == "Scores: you: 12, Bot 2: 3. The game ends at 101."
    assert answers["p"].startswith(
        "Piles: you: 6 cards, 1 basra, Bot 2: 2 cards, 0 basras."
    )  # not "1 basras", nor "Bot 2 2 cards" run together
    assert answers["l"] == "Nobody has played yet this round."
    assert answers["c"] == "There is no clock at this table."
    assert answers["t"] == "Your turn."
    assert answers["a"] == "Players: You, 3 cards in your hand, Bot 2, 4 cards in hand."
    assert answers["?"].startswith("Commands:")
    assert answers["xyz"] == "“xyz” is not a command. Type ? for the list."
    # A number plays that card, as its key does.
    page.fill("#command", "3")
    page.press("#command", "Enter")
    assert page.evaluate("window.played") == [["2C", 7]]
    page.context.close()


def test_the_commands_and_announcements_in_arabic(browser: Any, site: str) -> None:  # noqa: F811
    page = harness(browser, site, lang="ar", blind=True)
    page.fill("#command", "أرض")
    page.press("#command", "Enter")
    assert page.inner_text("#command-output") == "الأرض: ٣ سباتي، ٤ ديناري، ٥ كبة، ٢ بستوني."
    event(page, 1, 8, 0, "7Sx3C,4D", basra=10)
    assert said(page)[-1] == "تلعب ٧ بستوني وتأكل ٣ سباتي، ٤ ديناري. بصرة، ١٠ نقاط! دور روبوت ٢."
    page.context.close()


@pytest.mark.parametrize(
    ("lang", "commands", "floor", "piles", "announced"),
    [
        (
            "el",
            ("κάτω", "μ", "f"),
            "Κάτω: 3 σπαθί, 4 καρό, 5 κούπα, 2 μπαστούνι.",
            "Μαζεμένα: εσύ: 6 χαρτιά, 1 πάστρα, Μποτ 2: 2 χαρτιά, 0 πάστρες.",
            "Παίζεις 7 μπαστούνι και μαζεύεις 3 σπαθί, 4 καρό. Πάστρα, 10 πόντοι! "
            "Παίζει ο/η Μποτ 2.",
        ),
        (
            "fr",
            ("tapis", "l", "t"),
            "Le tapis : 3 de trèfle, 4 de carreau, 5 de cœur, 2 de pique.",
            "Levées : vous : 6 cartes, 1 basra, Bot 2 : 2 cartes, 0 basra.",
            "Vous jouez 7 de pique et prenez 3 de trèfle, 4 de carreau. Basra, 10 points ! "
            "À Bot 2 de jouer.",
        ),
    ],
)
def test_the_commands_and_announcements_in_greek_and_french(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
    commands: tuple[str, str, str],
    floor: str,
    piles: str,
    announced: str,
) -> None:
    """Typed commands in the page's language (and English's letters where they are free),
    cards in words and counts by the language's plural rules (French: "0 basra")."""
    page = harness(browser, site, lang=lang, blind=True)
    answers = []
    for command in commands:
        page.fill("#command", command)
        page.press("#command", "Enter")
        answers.append(page.inner_text("#command-output"))
    assert answers[0] == floor
    assert answers[1].startswith(piles)
    assert answers[2] == floor  # the other language's word for the floor works too
    event(page, 1, 8, 0, "7Sx3C,4D", basra=10)
    assert said(page)[-1] == announced
    page.context.close()


def test_the_skip_link_leads_to_the_form(browser: Any, site: str) -> None:  # noqa: F811
    page = open_page(browser, f"{site}/?lang=en")
    page.wait_for_selector("#create")
    page.keyboard.press("Tab")
    assert page.inner_text("#skip-link") == "Skip to the form"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "new-table-heading"
    tabs = 0
    while page.evaluate("document.activeElement.id") != "create":
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 12, "Create table is too far from the skip link"
    page.keyboard.press("Enter")  # the form is a form: Enter creates the table
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".hand button.card")
    page.context.close()


def test_the_blind_mode_switch_and_link(browser: Any, site: str) -> None:  # noqa: F811
    page = open_page(browser, f"{site}/rules?lang=en", **{"basra.blind": "0"})
    page.wait_for_selector(".list li a")
    assert page.get_attribute("#blind", "aria-pressed") == "false"
    page.click("#blind")
    assert page.get_attribute("#blind", "aria-pressed") == "true"
    assert page.evaluate("document.documentElement.classList.contains('blind')")
    assert page.evaluate("localStorage.getItem('basra.blind')") == "1"  # remembered here
    page.goto(f"{site}/rules?lang=en#blind=off")
    page.wait_for_selector(".list li a")
    assert page.get_attribute("#blind", "aria-pressed") == "false"
    assert page.evaluate("location.hash") == ""  # the fragment did its work and went
    page.goto(f"{site}/rules/egyptian?lang=ar#blind")
    page.wait_for_selector(".rules h2")
    assert page.get_attribute("#blind", "aria-pressed") == "true"
    assert page.inner_text("#blind") == "وضع المكفوفين"
    page.context.close()


def test_the_arabic_help_names_the_arabic_commands(browser: Any, site: str) -> None:  # noqa: F811
    """Arabic's help lists its own words first (each one works), English's letters after."""
    page = harness(browser, site, lang="ar", blind=True)
    page.fill("#command", "مساعدة")
    page.press("#command", "Enter")
    help_text = page.inner_text("#command-output")
    for word in ("«يد»", "«أرض»", "«آخر»", "«نتيجة»", "«مكسب»", "«ساعة»", "«دور»", "«لاعبون»"):
        assert word in help_text, word
        page.fill("#command", word.strip("«»"))
        page.press("#command", "Enter")
        assert "ليس أمرًا" not in page.inner_text("#command-output"), word
    page.context.close()
