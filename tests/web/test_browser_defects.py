"""The defects of issue 20 (items 4 to 9), one test each, in Chromium: each fails
without its fix. Item 10 (the command line) is tested in tests/test_cli_words.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.web.helpers import Player, create_table, http, new_token, play_to_end
from tests.web.played import Site
from tests.web.test_browser import browser  # noqa: F401  (a fixture)
from tests.web.test_browser_a11y import visit

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def daily(played: Site) -> tuple[str, str]:
    """Today's first deal played to its end by a new person: (their token, the table)."""
    token = new_token(played.url)
    deal = http(played.url + "/api/daily")[1]["deals"][0]["id"]
    started = http(f"{played.url}/api/daily/{deal}", {"name": "Dalia"}, token=token)[1]
    player = Player(played.url, started["table"], token, "Dalia")
    play_to_end([player])
    player.close()
    return token, started["table"]


def page_of(browser: Any, played: Site, token: str | None = None, **size: int) -> Any:  # noqa: F811
    site = Site(played.url, token or played.token, played.finished, played.playing)
    return site.page(browser, size.get("width", 1366), size.get("height", 800))


# 4 ---------------------------------------------------------------------------------


def test_4_the_daily_deals_game_over_sheet_shows_no_null(
    browser: Any,  # noqa: F811
    played: Site,
    daily: tuple[str, str],
) -> None:
    token, table = daily
    page = page_of(browser, played, token)
    page.goto(f"{played.url}/t/{table}?lang=en&anim=fast")
    page.wait_for_selector("#game-over")
    actions = page.inner_text("#game-over .actions")
    assert "null" not in actions and "undefined" not in actions
    assert page.locator("#game-over #daily-board-link").count() == 1
    assert page.locator("#game-over #replay-link").count() == 1
    page.context.close()


# 5 ---------------------------------------------------------------------------------


def test_5_the_review_opens_at_its_summary(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    page.goto(f"{played.url}/review/{played.finished}?lang=en")
    page.wait_for_selector("#review-seats")
    page.wait_for_timeout(200)
    assert page.evaluate("window.scrollY") == 0, "the page opened scrolled down"
    # The list of plays scrolled itself to the decision shown.
    shown = page.locator("#review-list .review-item.current").bounding_box()
    frame = page.locator("#review-list").bounding_box()
    assert frame["y"] <= shown["y"] and shown["y"] + shown["height"] <= frame["y"] + frame["height"]
    page.context.close()


# 6 ---------------------------------------------------------------------------------

PAINT = """
const read = CanvasRenderingContext2D.prototype.getImageData;
CanvasRenderingContext2D.prototype.getImageData = function (...args) {
  const image = read.apply(this, args);
  for (let i = 0; i < image.data.length; i += 4) image.data.set(PIXEL, i);
  return image;
};
"""
"""What this system's fonts draw, whatever fonts it has: PIXEL everywhere."""
NO_EMOJI_FONT = PAINT.replace("PIXEL", "[0, 0, 0, 0]")
COLOUR_EMOJI_FONT = PAINT.replace("PIXEL", "[250, 40, 40, 255]")


def test_6_reactions_hide_and_emoji_read_as_words_without_a_font(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    page = page_of(browser, played)
    page.context.add_init_script(NO_EMOJI_FONT)
    page.goto(f"{played.url}/t/{played.playing}?lang=en&anim=fast")
    page.wait_for_selector("#react")
    assert not page.locator("#reaction-choices").is_visible()
    page.click("#react")
    assert page.locator("#reaction-choices").is_visible()
    assert page.inner_text('button[data-react="clap"]') == "applause"
    page.click("#react")
    assert not page.locator("#reaction-choices").is_visible()
    # Whatever display a class gives it, an element marked hidden stays hidden.
    shown = page.evaluate(
        "() => { const n = document.createElement('div'); n.className = 'reaction-choices';"
        " n.hidden = true; document.body.append(n); return getComputedStyle(n).display; }"
    )
    assert shown == "none"
    page.context.close()
    # Where a font draws them, emoji show as themselves, named for screen readers.
    page = page_of(browser, played)
    page.context.add_init_script(COLOUR_EMOJI_FONT)
    page.goto(f"{played.url}/t/{played.playing}?lang=en&anim=fast")
    page.click("#react")
    clap = page.locator('button[data-react="clap"]')
    assert clap.inner_text() == "👏" and clap.get_attribute("aria-label") == "applause"
    page.context.close()


# 7 ---------------------------------------------------------------------------------


def test_7_a_setting_out_of_bounds_is_named_by_its_label_and_marked(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    page = page_of(browser, played)
    page.goto(f"{played.url}/?lang=en")
    page.wait_for_selector("#create")
    field = 'input[data-setting="basra_points"]'
    page.click("#custom-settings summary")
    page.fill(field, "500")
    page.dispatch_event(field, "change")
    page.click("#create")
    assert page.inner_text("#create-error") == "Basra points must be from 0 to 100."
    assert page.get_attribute(field, "aria-invalid") == "true"
    assert "create-error" in page.get_attribute(field, "aria-describedby")
    assert page.evaluate("document.activeElement.dataset.setting") == "basra_points"
    # The server's refusal reads the same, naming the field it names.
    page.evaluate(f"document.querySelector('{field}').removeAttribute('max')")
    page.click("#create")
    page.wait_for_function("document.getElementById('create')?.textContent === 'Create table'")
    assert page.inner_text("#create-error") == "Basra points must be from 0 to 100."
    assert page.get_attribute(field, "aria-invalid") == "true"
    assert "basra_points" not in page.inner_text("#create-error")
    page.fill(field, "10")
    page.dispatch_event(field, "change")
    assert page.get_attribute(field, "aria-invalid") is None
    # In Arabic, the label and the words are Arabic.
    page.goto(f"{played.url}/?lang=ar")
    page.wait_for_selector("#create")
    page.click("#custom-settings summary")
    page.fill(field, "500")
    page.dispatch_event(field, "change")
    page.click("#create")
    assert page.inner_text("#create-error") == "نقاط البصرة يجب أن يكون من ٠ إلى ١٠٠."
    page.context.close()


def test_7_a_mistyped_variant_says_there_is_no_such_variant(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    page = page_of(browser, played)
    page.goto(f"{played.url}/rules/egyptain?lang=en")
    page.wait_for_selector("#rules-error")
    assert page.inner_text("#rules-error") == (
        "There is no variant called “egyptain”. These are the variants:"
    )
    assert page.locator('#variant-list a[href="/rules/egyptian"]').count() == 1
    page.context.close()


def test_7_an_unknown_game_is_said_once(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    for path, error in (("review", "#review-error"), ("replay", "#replay-error")):
        page.goto(f"{played.url}/{path}/doesnotexist?lang=en")
        page.wait_for_selector(error)
        text = page.inner_text(error)
        assert text == "There is no such table. Go to the home page", text
    page.context.close()


def test_7_an_unknown_address_is_a_page_with_a_way_home(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    page = page_of(browser, played)
    for lang, title in (("en", "There is no such page"), ("ar", "لا توجد صفحة كهذه")):
        visit(page, played, "/no/such/page", lang, inside=True)
        page.wait_for_selector("#not-found")
        assert page.inner_text("#not-found h1") == title
        page.click("#go-home")
        page.wait_for_selector("#create")
    page.context.close()


def test_7_the_account_forms_say_what_is_wrong_with_each_field(
    browser: Any,  # noqa: F811
    played: Site,
) -> None:
    other = new_token(played.url)
    assert (
        http(
            f"{played.url}/api/account",
            {"username": "taken_name", "password": "a long password"},
            token=other,
        )[0]
        < 300
    )
    page = page_of(browser, played, new_token(played.url))
    page.goto(f"{played.url}/account?lang=en")
    page.wait_for_selector("#claim")
    page.fill("#claim-username", "ab")
    page.fill("#claim-password", "short")
    page.click("#claim")
    error = page.locator("#claim-panel #claim-error")
    assert error.inner_text() == (
        "Username needs at least 3 characters. Password needs at least 8 characters."
    )
    for field in ("#claim-username", "#claim-password"):
        assert page.get_attribute(field, "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "claim-username"
    # The server's refusal: under the claim, naming the field it is about, said once.
    page.fill("#claim-username", "taken_name")
    page.fill("#claim-password", "a long password")
    page.click("#claim")
    page.wait_for_function("(document.getElementById('claim-error')?.textContent ?? '') !== ''")
    assert error.inner_text() == "That username is taken."
    assert page.get_attribute("#claim-username", "aria-invalid") == "true"
    assert page.get_attribute("#claim-password", "aria-invalid") is None
    # Signed in, the page no longer offers to sign in with a username.
    page.fill("#claim-username", "fresh_name")
    page.click("#claim")
    page.wait_for_selector("#sign-out")
    assert page.locator("#login-panel").count() == 0
    page.context.close()


# 8 ---------------------------------------------------------------------------------


def test_8_ratings_and_searches_are_in_words(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    page.goto(f"{played.url}/leaderboard?lang=en")
    page.wait_for_selector("#board-bots tr")
    text = page.inner_text("main")
    assert not re.search("[μσ±]", text), "Greek letters or ± on the leaderboard"
    for cell in page.locator("#board-bots td.num").all_inner_texts():
        assert re.fullmatch(r"\d+\.\d, (provisional|uncertain by \d+\.\d)", cell), cell
    # A rated table's link is for watching, not an invitation.
    token = new_token(played.url)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    table = create_table(played.url, token, "Amal", seats=seats, rated=True)
    page.context.close()
    page = page_of(browser, played, token)
    page.goto(f"{played.url}/t/{table}?lang=en&anim=fast")
    page.wait_for_selector("#invite-heading")
    assert page.inner_text("#invite-heading") == "A link to watch this game"
    assert not re.search("[μσ±]", page.inner_text(".felt"))
    page.context.close()
    # The search for players says whom it looks for in words (a person of its own: a
    # search that outlives the page may seat its person at a rated table).
    page = page_of(browser, played, new_token(played.url))
    page.goto(f"{played.url}/?lang=en")
    page.wait_for_selector("#play-now")
    page.click("#play-now")
    page.wait_for_function("document.getElementById('quick-status')?.textContent.includes('·')")
    status = page.inner_text("#quick-status")
    assert "±" not in status
    # The range of ratings in numbers a person has seen (their own rating's scale), not a
    # bare distance ("within 2.64 of you").
    assert re.search(r"players rated \d+\.\d to \d+\.\d \(yours: 25\.0", status) or (
        "any rating" in status
    ), status
    page.click("#quick-cancel")
    page.context.close()


# 9 ---------------------------------------------------------------------------------


def test_9_the_daily_deal_has_one_name(
    browser: Any,  # noqa: F811
    played: Site,
    daily: tuple[str, str],
) -> None:
    token, table = daily
    page = page_of(browser, played, token)
    page.goto(f"{played.url}/t/{table}?lang=en&anim=fast")
    page.wait_for_selector("#rules-of-table")
    assert page.inner_text("#rules-of-table") == "The daily deal · Egyptian Basra"
    assert "custom" not in page.inner_text("#table-title")
    # My games names it so too (GET /api/games says which games are daily deals).
    page.goto(f"{played.url}/games?lang=en")
    title = page.locator(f'li[data-game="{table}"] strong').first
    title.wait_for()
    assert title.inner_text() == "The daily deal · Egyptian Basra"
    page.context.close()


def test_9_the_lobby_takes_me_back_to_my_table(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    page.goto(f"{played.url}/?lang=en")
    link = page.locator(f'#lobby a[data-table="{played.playing}"]')
    link.wait_for()
    assert link.inner_text() == "Back to the table"
    page.context.close()


def test_9_my_games_rows_keep_off_the_panel_edge(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    page.goto(f"{played.url}/games?lang=en")
    page.wait_for_selector("li[data-game]")
    panel = page.locator("#server-games").bounding_box()
    row = page.locator("li[data-game] > span").first.bounding_box()
    assert row["x"] - panel["x"] >= 12
    page.context.close()


def test_9_the_daily_board_has_no_empty_column(
    browser: Any,  # noqa: F811
    played: Site,
    daily: tuple[str, str],
) -> None:
    for token in (played.token, daily[0]):  # before playing it (no buttons), and after
        page = page_of(browser, played, token)
        page.goto(f"{played.url}/daily?lang=en")
        page.wait_for_selector(".daily-board table")
        heads = page.locator(".daily-board th").all_inner_texts()
        cells = page.locator(".daily-board tbody tr").first.locator("td").count()
        assert all(h.strip() for h in heads) and cells == len(heads), heads
        page.context.close()


def test_9_the_game_over_sheet_says_which_round(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played)
    page.goto(f"{played.url}/t/{played.finished}?lang=en&anim=fast")
    page.wait_for_selector("#game-over")
    assert page.inner_text("#last-round") == "The last round: round 1"
    page.context.close()


PLACEHOLDER_FITS = """
() => {
  const input = document.getElementById("name");
  const style = getComputedStyle(input);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [ctx.measureText(input.placeholder).width, room];
}
"""


@pytest.mark.parametrize("width", [390, 1366])
def test_9_the_name_box_shows_its_whole_placeholder(
    browser: Any,  # noqa: F811
    played: Site,
    width: int,
) -> None:
    for lang in ("en", "ar"):
        page = page_of(browser, played, width=width)
        page.context.add_init_script("localStorage.removeItem('basra.name')")
        page.goto(f"{played.url}/?lang={lang}")
        page.wait_for_selector("#name")
        page.evaluate("document.fonts.ready")
        text, room = page.evaluate(PLACEHOLDER_FITS)
        assert text <= room, f"{lang}: the placeholder needs {text:.0f}px, the box has {room:.0f}px"
        page.context.close()


def test_7_every_form_marks_the_field_it_refuses(browser: Any, played: Site) -> None:  # noqa: F811
    page = page_of(browser, played, new_token(played.url))
    page.goto(f"{played.url}/bots?lang=en")
    page.wait_for_selector("#make-bot")
    page.fill("#bot-name", "x")
    page.press("#bot-name", "Enter")  # a form: Enter sends it
    page.wait_for_selector("#bot-name[aria-invalid='true']")
    assert page.inner_text("#bots-error") == "A bot name has 3 to 20 letters, digits, _ or -."
    assert page.evaluate("document.activeElement.id") == "bot-name"
    page.goto(f"{played.url}/device?lang=en")
    page.wait_for_selector("#code-input")
    page.fill("#code-input", "NOPE-NOPE")
    page.click("#check-code")
    page.wait_for_selector("#code-input[aria-invalid='true']")
    assert page.inner_text("#device-error").startswith("No such code")
    # The error is under the field it is about, not at the foot of the page.
    assert page.locator("#code-input ~ #device-error, .invite + #device-error").count() == 1
    page.context.close()
