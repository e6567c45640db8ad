"""Browser tests of what new players stumbled on (issue 16, the web page): the turn
line, names after the game, the replay's result, who won, Arabic card labels and
readable custom fields, score panels over the table, team partners, sounds."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import FAST, ServerThread, http
from tests.web.test_browser import (
    browser,
    create,
    new_page,
    play_until_over,
    shot,
    site,
    take_turn,
)

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser
__all__ = ["browser", "site"]  # the fixtures, shared with test_browser

YOUR_TURN = "Your turn: choose a card"

# Recorded in the page from its first moment: each state frame as it arrives, each
# change of the turn line, each click and each sound asked for (performance.now() ms).
TIMELINE = """
window.__timeline = [];
window.__sounds = [];
const stamp = (entry) => window.__timeline.push({ t: performance.now(), ...entry });
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "state") stamp({ kind: "frame", version: m.version, turn: m.view.turn,
        phase: m.view.phase, seat: m.view.seat, over: m.view.over, event: m.event });
    });
  }
};
let last = null;
new MutationObserver(() => {
  const line = document.querySelector(".status-line");
  const text = line ? line.textContent : null;
  if (text !== last) { last = text; stamp({ kind: "status", text }); }
}).observe(document, { subtree: true, childList: true, characterData: true });
document.addEventListener("click", (e) => {
  if (e.target.closest(".hand button.card")) stamp({ kind: "click" });
}, true);
document.addEventListener("basra:sound", (e) => window.__sounds.push(e.detail));
"""


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bots answer after 0.4 s, as people see them at a table (``site``: at once)."""
    database = str(tmp_path_factory.mktemp("page") / "basra.db")
    config = AppConfig(database=database, service=replace(FAST, bot_delay=0.4))
    with ServerThread(config) as server:
        yield server.url


def test_the_turn_line_follows_the_game_at_once(browser: Any, slow: str) -> None:
    """After a click the line says the move is on its way, then that the bot thinks,
    and "Your turn" comes back as the bot's move arrives (animations at full length)."""
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    page.add_init_script(TIMELINE)
    page.goto(f"{slow}/?lang=en")
    create(page, "Amal", seats=["me", "bot:medium"])
    clicks = 0
    deadline = time.time() + 60
    while clicks < 4:
        assert time.time() < deadline, "the bot did not answer"
        page.wait_for_selector(".hand button.card:not([aria-disabled])", timeout=20_000)
        if take_turn(page):
            clicks += 1
        page.wait_for_timeout(50)
    page.wait_for_timeout(1200)
    timeline: list[dict[str, Any]] = page.evaluate("window.__timeline")
    me = next(e["seat"] for e in timeline if e["kind"] == "frame")
    checked = {"click": 0, "thinking": 0, "turn": 0}
    for entry in timeline:
        # The page redraws as a frame arrives (or as the click lands): 250 ms is plenty,
        # where the page of issue 16 took 850 ms and more.
        after = next((e for e in timeline if e["t"] >= entry["t"] and e["kind"] == "status"), None)
        if entry["kind"] == "click":
            assert after and after["t"] - entry["t"] <= 250, (entry, after)
            assert after["text"].startswith("Playing ") and after["text"].endswith("…"), after
            checked["click"] += 1
        elif entry["kind"] == "frame" and entry["phase"] == "play" and not entry["over"]:
            assert after and after["t"] - entry["t"] <= 250, (entry, after)
            mine = entry["turn"] == me
            assert after["text"] == (YOUR_TURN if mine else "Bot 2 is thinking…"), (entry, after)
            checked["turn" if mine else "thinking"] += 1
    assert checked["click"] >= 4 and checked["thinking"] >= 3 and checked["turn"] >= 3, checked
    # Sounds: each play made one (a trail, a capture or a basra) and each turn of mine one.
    sounds = [s["name"] for s in page.evaluate("window.__sounds")]
    assert sum(1 for s in sounds if s in ("play", "capture", "basra")) >= 7, sounds
    assert "turn" in sounds
    page.context.close()


def test_the_mute_switch_is_remembered(browser: Any, site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.add_init_script(TIMELINE)
    page.goto(f"{site}/?lang=en")
    create(page, "Amal", seats=["me", "bot:easy"])
    mute = page.locator("#mute")
    assert mute.get_attribute("aria-pressed") == "false"
    assert mute.get_attribute("title") == "Sounds are on (click to mute)"
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector(".hand button.card")
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    for _ in range(2):
        page.wait_for_selector(".hand button.card:not([aria-disabled])", timeout=20_000)
        take_turn(page)
    page.wait_for_selector(".hand button.card:not([aria-disabled])", timeout=20_000)
    sounds = page.evaluate("window.__sounds")
    assert sounds and all(s["muted"] for s in sounds)
    # In another tab of the same browser too; and switched on again.
    other = context.new_page()
    other.goto(f"{site}/rules?lang=ar")
    # The switch is wired (named) by app.js once its words are loaded, which can be
    # after the page's load event: read it then.
    other.wait_for_selector("#mute[aria-label]", state="attached")
    assert other.locator("#mute").get_attribute("aria-pressed") == "true"
    assert other.locator("#mute").get_attribute("aria-label") == "الأصوات"
    other.locator("#mute").click()
    assert other.evaluate("localStorage.getItem('basra.muted')") == "0"
    context.close()


def test_team_partners_are_marked_at_the_table(browser: Any, site: str) -> None:
    page = new_page(browser, site)
    page.wait_for_selector("#create")
    page.select_option("#players", "4")
    page.check("#teams")
    create(page, "Amal", players=4, seats=["me", "bot:easy", "bot:easy", "bot:easy"])
    page.wait_for_selector(".hand button.card")
    assert page.locator(".seat.top .tag.partner").inner_text() == "partner"
    for where in ("left", "right"):
        assert page.locator(f".seat.{where} .tag.partner").count() == 0
        assert page.locator(f".seat.{where} .tag.team").inner_text() == "Team 2"
    assert page.locator(".me .tag.team").inner_text() == "Team 1"
    page.context.close()


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_a_game_to_its_end_then_the_replay_the_record_and_my_games(browser: Any, site: str) -> None:
    page = new_page(browser, site)
    page.wait_for_selector("#create")
    page.select_option("#players", "3")
    table = create(page, "Amal", players=3, seats=["me", "bot:easy", "bot:medium"], target=1)
    play_until_over([page])
    # The game-over panel lies over the table, clear of the seats at its sides.
    for width in (1280, 1024, 820, 390):
        page.set_viewport_size({"width": width, "height": 860})
        page.wait_for_timeout(100)
        sheet = page.locator("#game-over .sheet").bounding_box()
        felt = page.locator(".felt").bounding_box()
        assert inside(sheet, felt), (width, sheet, felt)
        assert sheet["x"] >= 0 and sheet["x"] + sheet["width"] <= width, width
        if width > 820:
            for seat in (".seat.left", ".seat.right"):
                assert not overlaps(sheet, page.locator(seat).bounding_box()), (width, seat)
        shot(page, f"game-over-{width}")
    page.set_viewport_size({"width": 1280, "height": 860})
    headline = page.inner_text("#game-over .winner")
    assert re.fullmatch(r"You win!|Bot [23] wins!|A draw", headline), headline
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["names"] == ["Amal", "Bot 2 (easy)", "Bot 3 (medium)"]
    # The replay names the bots as the table did, and ends with the sheet and the winner.
    page.click("#replay-link")
    page.wait_for_selector("#replay-step")
    assert "(custom rules)" in page.inner_text("h1")
    page.click("#replay-end")
    page.wait_for_selector("#replay-sheet")
    assert page.inner_text("#replay-winner") == headline.replace("You win!", "Amal wins!")
    sheet_text = page.inner_text("#replay-sheet")
    assert "Amal" in sheet_text and "Bot 2" in sheet_text and "Total" in sheet_text
    assert "seat" not in page.inner_text("main").lower()
    shot(page, "replay-end-en")
    # My games: bots by name, the result in words, custom rules said so.
    page.goto(f"{site}/games?lang=en")
    line = page.locator(f'li[data-game="{table}"]')
    line.wait_for()
    text = line.inner_text()
    assert "Bot 2 (easy)" in text and "Bot 3 (medium)" in text and "—" not in text
    assert "Egyptian Basra (custom rules)" in text
    expected = {"You win!": "You won", "A draw": "a draw"}.get(headline, "You lost")
    assert line.locator(".tag").inner_text() == expected
    page.context.close()


def test_a_team_wins_in_the_plural(browser: Any, site: str) -> None:
    """All bots in two teams, watched to the end: "Bot 1 & Bot 3 win!"; in Arabic the dual."""
    token = http(site + "/api/identity", {})[1]["token"]
    status, body = http(
        site + "/api/tables",
        {
            "name": "Amal",
            "players": 4,
            "teams": True,
            "rules": {"target": 1},
            "seats": [{"kind": "bot", "level": "easy"}] * 4,
            "my_seat": None,
        },
        token=token,
    )
    assert status == 201, body
    page = new_page(browser, f"{site}/t/{body['id']}?lang=en&anim=fast")
    page.wait_for_selector("#game-over", timeout=60_000)
    headline = page.inner_text("#game-over .winner")
    assert re.fullmatch(r"Bot 1 & Bot 3 win!|Bot 2 & Bot 4 win!|A draw", headline), headline
    assert page.locator(".seat .tag.team").count() == 4  # a spectator sees both teams
    page.select_option("#lang", "ar")
    page.wait_for_function("document.documentElement.lang === 'ar'")
    arabic = page.inner_text("#game-over .winner")
    assert arabic == "تعادل" or arabic.endswith("فازا!"), arabic
    record = http(f"{site}/api/games/{body['id']}/record")[1]
    assert record["names"] == ["Bot 1 (easy)", "Bot 2 (easy)", "Bot 3 (easy)", "Bot 4 (easy)"]
    page.context.close()


# Where a card label's first and last characters are drawn: "7♦" must read 7 then ♦.
ORDER = """(node) => {
  const text = node.firstChild;
  const range = document.createRange();
  range.setStart(text, 0); range.setEnd(text, 1);
  const first = range.getBoundingClientRect().x;
  range.setStart(text, text.length - 1); range.setEnd(text, text.length);
  return [node.textContent, first < range.getBoundingClientRect().x, node.getAttribute("dir")];
}"""


def test_arabic_settings_write_cards_as_the_game_does(browser: Any, site: str) -> None:
    page = new_page(browser, site, lang="ar")
    page.wait_for_selector("#create")
    page.click("details summary")
    label = page.locator('label[data-label="seven_diamonds"] bdi.card-text')
    assert label.evaluate(ORDER) == ["7♦", True, "ltr"]
    # No raw JSON: the point cards are rows of a card (or rank) and its points.
    fields = page.locator(".settings-grid input")
    assert not [v for v in fields.evaluate_all("f => f.map(x => x.value)") if "{" in v]
    rows = page.locator('.points-field[data-setting="point_cards"] .points-row')
    assert rows.count() == 4  # Egyptian: every A, every J, 2♣, 10♦
    assert page.locator(".faces-field input[data-face=Q]").input_value() == ""
    # Make 10♦ worth 5 and add 7♦ worth 2, then create the table: the server has it.
    ten = rows.nth(3)
    assert ten.locator("select").input_value() == "10D"
    ten.locator("input").fill("5")
    ten.locator("input").dispatch_event("change")
    page.click('button[data-add="point_cards"]')
    added = page.locator(".points-row").nth(4)
    added.locator("select").select_option("7D")
    added.locator("input").fill("2")
    added.locator("input").dispatch_event("change")
    assert "point_cards" in page.get_attribute("#rules-link", "href")
    shot(page, "custom-settings-ar")
    table = create(page, "أمل", seats=["me", "bot:easy"])
    status, info = http(f"{site}/api/tables/{table}")
    assert status == 200
    assert info["overrides"]["point_cards"] == {"A": 1, "J": 1, "2C": 2, "10D": 5, "7D": 2}
    # The rules page's settings table: cards as in the game, double_face explained.
    page.goto(f"{site}/rules/syrian?lang=ar")
    page.wait_for_selector(".settings-table")
    cell = page.locator('tr[data-setting="seven_diamonds"] th bdi.card-text')
    assert cell.evaluate(ORDER) == ["7♦", True, "ltr"]
    shot(page, "rules-syrian-ar")
    page.goto(f"{site}/rules/syrian?lang=en")
    page.wait_for_selector(".settings-table")
    basra_points = page.inner_text('tr[data-setting="basra_points"] td')
    assert "not used" in basra_points and "10" not in basra_points
    assert page.inner_text('tr[data-setting="face_values"] td') == "Q = 3 · K = 4"
    assert "twice the face value of the capturing card" in page.inner_text("main")
    page.goto(f"{site}/rules/egyptian?lang=ar")
    page.wait_for_selector(".settings-table")
    bury = page.locator('tr[data-setting="bury"] td bdi.card-text')
    assert bury.evaluate(ORDER) == ["7♦", True, "ltr"]
    points = page.inner_text('tr[data-setting="point_cards"] td')
    assert "10♦ = ٣" in points and "{" not in points
    page.context.close()


def test_the_page_speaks_the_browsers_language_first_and_remembers_a_choice(
    browser: Any,
    site: str,
) -> None:
    """No ?lang and nothing remembered: the first of the browser's languages the site has
    (fr-CA is French); the language menu (a labelled select, by keyboard) changes it and
    the choice is remembered over the browser's."""
    context = browser.new_context(locale="fr-CA", viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(f"{site}/rules")
    page.wait_for_selector(".list li a")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.inner_text("h1") == "Les règles de chaque variante"
    menu = page.locator("#lang")
    assert menu.evaluate("(m) => [...m.options].map((o) => [o.value, o.text, o.lang])") == [
        ["en", "English", "en"],
        ["ar", "العربية", "ar"],
        ["el", "Ελληνικά", "el"],
        ["fr", "Français", "fr"],
    ]
    assert page.locator("label.lang-menu").inner_text().strip().startswith("Langue")

    def open_menu() -> None:  # French and Greek words put the menu behind its button
        if page.locator("#menu-toggle").is_visible() and not menu.is_visible():
            page.click("#menu-toggle")

    open_menu()
    menu.focus()
    page.keyboard.press("ArrowDown")  # Français is the last: nothing below it
    menu.select_option("el")
    page.wait_for_function("document.documentElement.lang === 'el'")
    assert page.inner_text("h1") == "Οι κανόνες κάθε παραλλαγής"
    page.reload()
    page.wait_for_selector(".list li a")
    assert page.evaluate("document.documentElement.lang") == "el"  # remembered
    open_menu()
    menu.select_option("ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    context.close()
