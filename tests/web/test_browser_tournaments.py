"""Tournaments in the browser: a whole small Swiss of server bots and a person who enters,
plays each of their games and sees the standings and the podium on the event's page
(live over its socket); the lists on the home page and at /tournaments; the form to
make an event; axe-core's rules on the tournament pages in English and Arabic; and
screenshots of them at a phone's and a laptop's size (out/screens/tournament-*.png).

One server serves every test here (quick event clock, fast bots, one-round games).
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe, raw_words
from tests.web.helpers import ServerThread, http, new_token
from tests.web.test_browser import browser, shot, take_turn  # noqa: F401  (a fixture)
from tests.web.tourney import QUICK, config, detail, join, make_event, organiser, wait_for

from basra.server.features.tournaments import read_schedule

pytestmark = pytest.mark.browser


class Swiss:
    """The shared server, the organiser's token and a Swiss of three bots and a person."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.organiser = organiser(url)
        self.person = new_token(url)
        self.event: dict[str, Any] = {}


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Swiss]:
    database = str(tmp_path_factory.mktemp("tournaments") / "basra.db")
    with ServerThread(config(database)) as server:
        yield Swiss(server.url)


def person_page(
    browser: Any,  # noqa: F811
    swiss: Swiss,
    lang: str = "en",
    width: int = 1366,
    height: int = 800,
    token: str | None = None,
) -> Any:
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    context.add_init_script(
        f"localStorage.setItem('basra.token', {token or swiss.person!r});"
        "localStorage.setItem('basra.name', 'Amal'); localStorage.setItem('basra.blind', '0');"
        f"localStorage.setItem('basra.lang', {lang!r});"
    )
    return context.new_page()


def play_my_game(page: Any, timeout: float = 120) -> None:
    """Click playable cards until the game-over sheet shows."""
    deadline = time.time() + timeout
    while not page.locator("#game-over").count():
        assert time.time() < deadline, "the tournament game did not end in time"
        if not take_turn(page):
            time.sleep(0.05)


def test_a_whole_swiss_of_bots_and_a_person_in_the_browser(browser: Any, swiss: Swiss) -> None:  # noqa: F811
    url = swiss.url
    event = make_event(
        url,
        swiss.organiser,
        name="Friday Swiss",
        format="swiss",
        rounds=2,
        bots=True,
        starts_at=time.time() + 12,
    )
    swiss.event = event
    join(url, event["id"], swiss.organiser, bot="easy", count=3)
    page = person_page(browser, swiss)
    # The home page lists the event; its link leads to the event's page.
    page.goto(f"{url}/?lang=en&anim=fast")
    page.wait_for_selector(f'#home-tournaments [data-event="{event["id"]}"] a')
    page.click(f'#home-tournaments [data-event="{event["id"]}"] a')
    page.wait_for_url(f"**/tournaments/{event['id']}")
    page.wait_for_selector("#event-join")
    assert page.inner_text("#entrant-list").count("easy") == 3
    page.click("#event-join")
    page.wait_for_selector("#event-entered")
    assert "Amal" in page.inner_text("#event-entered")
    assert page.locator("#event-withdraw").count() == 1
    # Withdrawing before the start and entering again.
    page.click("#event-withdraw")
    page.wait_for_selector("#event-join")
    page.click("#event-join")
    page.wait_for_selector("#event-withdraw")
    # It starts at its time (12 s after it was made) on the page, live.
    for round_number in (1, 2):
        page.wait_for_selector("#event-play", timeout=30_000)
        # The live pairing is on the page over the socket, with the person's table.
        page.wait_for_selector(f'#event-pairings [data-round="{round_number}"]')
        page.click("#event-play")
        page.wait_for_url("**/t/*")
        play_my_game(page)
        # The game-over sheet leads back to the event (its games are paired there), and
        # offers no rematch.
        assert page.locator("#game-over #rematch").count() == 0
        page.click("#game-over #event-link")
        page.wait_for_url(f"**/tournaments/{event['id']}")
        page.wait_for_selector("#standings")
    page.wait_for_selector("#event-podium", timeout=60_000)
    final = detail(url, event["id"], swiss.person)
    assert final["status"] == "finished"
    # The page's standings are the server's: names and points in order.
    rows = page.locator("#standings tbody tr").evaluate_all(
        "rows => rows.map(r => [r.querySelector('th').textContent.trim(),"
        " r.cells[2].textContent.trim()])"
    )
    assert [name for name, _ in rows] == [line["name"] for line in final["standings"]]
    assert [float(points) for _, points in rows] == [
        float(line["score"]) for line in final["standings"]
    ]
    assert page.locator("#event-podium li").count() == len(final["podium"]) >= 1
    # Every finished game links to its replay, review and record.
    games = final["games"]
    assert games == 4 and page.locator("#finished-games tbody tr").count() == 4
    first = final["finished"][0]["table"]
    assert page.locator(f'a[data-replay="{first}"]').count() == 1
    assert page.locator(f'a[data-record="{first}"]').count() == 1
    page.click(f'a[data-review="{first}"]')
    page.wait_for_url(f"**/review/{first}")
    page.context.close()


def test_the_make_form_makes_an_event_and_explains_a_refusal(browser: Any, swiss: Swiss) -> None:  # noqa: F811
    page = person_page(browser, swiss, token=swiss.organiser)
    page.goto(f"{swiss.url}/tournaments?lang=en")
    page.wait_for_selector("#tour-form")
    shot(page, "tournament-form-en-1366")
    # An empty name is named by its label, and nothing is sent.
    page.click("#tour-create")
    page.wait_for_selector("#tour-name[aria-invalid='true']")
    assert "Name" in page.inner_text("#tour-new-error")
    page.fill("#tour-name", "Arena by form")
    page.select_option("#tour-format", "arena")
    assert page.locator("#tour-rounds").is_hidden() and page.locator("#tour-minutes").is_visible()
    page.fill("#tour-minutes", "20")
    page.fill("#tour-starts-in", "30")
    page.focus("#tour-talk")  # table talk at its rated games, by keyboard
    page.keyboard.press("Space")
    page.click("#tour-create")
    page.wait_for_url("**/tournaments/*")
    page.wait_for_selector("#event-facts")
    assert "Arena" in page.inner_text("#event-facts") and "20 minutes" in page.inner_text(
        "#event-facts"
    )
    made = page.url.rsplit("/", 1)[1]
    assert detail(swiss.url, made)["settings"]["minutes"] == 20
    assert detail(swiss.url, made)["settings"]["talk"] is True
    # A guest is told how to become an organiser, not given the form.
    guest = person_page(browser, swiss)
    guest.goto(f"{swiss.url}/tournaments?lang=en")
    guest.wait_for_selector("#tour-new a[href='/account']")
    assert guest.locator("#tour-form").count() == 0
    guest.context.close()
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
def test_the_tournament_pages_pass_axe_and_are_looked_at(
    browser: Any,  # noqa: F811
    swiss: Swiss,
    lang: str,
) -> None:
    event = (
        swiss.event["id"]
        if swiss.event
        else make_event(swiss.url, swiss.organiser, format="swiss", rounds=2)["id"]
    )
    # One page per size, each address loaded afresh in it (a browser context per page and
    # size cost a second of CPU more than the checks).
    kept: dict[int, Any] = {}
    for name, path, ready in (
        ("list", "/tournaments", "#tour-running"),
        ("event", f"/tournaments/{event}", "#event-standings"),
    ):
        for width, height in ((390, 844), (1366, 800)):
            if width not in kept:
                kept[width] = person_page(browser, swiss, lang=lang, width=width, height=height)
            page = kept[width]
            page.goto(f"{swiss.url}{path}?lang={lang}&anim=fast")
            page.wait_for_selector(ready)
            page.wait_for_timeout(150)
            assert page.evaluate("document.documentElement.dir") == (
                "rtl" if lang == "ar" else "ltr"
            )
            shot(page, f"tournament-{name}-{lang}-{width}")
            violations = axe_violations(page)
            assert not violations, f"{name} ({lang}, {width}):\n{describe(violations)}"
            assert not raw_words(page), (name, lang, raw_words(page))
    for page in kept.values():
        page.context.close()


def test_a_duplicate_of_bots_shows_each_deals_table_of_results(
    browser: Any,  # noqa: F811
    swiss: Swiss,
) -> None:
    url = swiss.url
    event = make_event(
        url,
        swiss.organiser,
        name="Duplicate night",
        format="duplicate",
        rounds=1,
        boards=2,
        bots=True,
        starts_at=time.time() + 2,
    )
    join(url, event["id"], swiss.organiser, bot="easy", count=4)
    page = person_page(browser, swiss, token=swiss.organiser)
    page.goto(f"{url}/tournaments/{event['id']}?lang=en&anim=fast")
    page.wait_for_selector("#event-podium", timeout=60_000)
    final = detail(url, event["id"])
    boards = final["board_results"]
    assert len(boards) == 2
    # Each deal's table: one row a side of each table, as the server counted them.
    for board in boards:
        rows = page.locator(f'[data-board="{board["round"]}.{board["board"]}"] tbody tr')
        assert rows.count() == len(board["rows"]) == 4
        names = rows.evaluate_all("rs => rs.map(r => r.querySelector('th').textContent)")
        assert names == [row["name"] for row in board["rows"]]
    shot(page, "tournament-duplicate-en-1366")
    violations = axe_violations(page)
    assert not violations, describe(violations)
    page.context.close()


ARABIC_DIGITS = "٠١٢٣٤٥٦٧٨٩"


def arabic(number: int) -> str:
    return "".join(ARABIC_DIGITS[int(d)] for d in str(number))


def test_in_arabic_a_scheduled_events_name_and_its_bots_are_arabic_and_the_same_at_the_table(
    browser: Any,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    schedule = read_schedule(
        tomllib.loads(
            '[[tournaments]]\nname = "Test arena"\nnames = { ar = "ساحة التجربة" }\n'
            'format = "arena"\nminutes = 30\nevery = "hour"\nat = ":00"\nannounce = 120\n'
            'bots = true\nbot_entrants = ["easy", "hard"]\n'
        )
    )
    database = str(tmp_path_factory.mktemp("schedule") / "basra.db")
    tournaments = replace(QUICK, schedule=schedule, schedule_every=0.1)
    with ServerThread(config(database, tournaments)) as server:
        url = server.url
        scheduled = wait_for(
            lambda: http(f"{url}/api/tournaments")[1]["upcoming"], "the scheduled event"
        )[0]
        swiss = Swiss(url)
        page = person_page(browser, swiss, lang="ar")
        # The scheduled event: its Arabic name in the list, as the heading and the title; its
        # bots named in Arabic, by the numbers and levels of the event.
        page.goto(f"{url}/tournaments?lang=ar&anim=fast")
        item = page.locator(f'[data-event="{scheduled["id"]}"] a').first
        item.wait_for()
        assert item.inner_text() == "ساحة التجربة"
        item.click()
        page.wait_for_selector("#entrant-list")
        assert page.inner_text("h1") == "ساحة التجربة" and "ساحة التجربة" in page.title()
        entrants = page.inner_text("#entrant-list")
        assert "روبوت ١ (سهل)" in entrants and "روبوت ٢ (صعب)" in entrants
        assert "Bot" not in entrants and "easy" not in entrants
        # An event of four bots: each table names its bots as the pairing does (a bot is
        # "Bot 3" at its tables, whatever seat it takes), in Arabic.
        event = make_event(
            url, swiss.organiser, format="swiss", rounds=1, bots=True, starts_at=time.time() + 2
        )
        join(url, event["id"], swiss.organiser, bot="easy", count=4)
        page.goto(f"{url}/tournaments/{event['id']}?lang=ar&anim=fast")
        page.wait_for_selector('#event-pairings [data-round="1"]', timeout=30_000)
        paired = detail(url, event["id"])
        numbers = {e["id"]: e["bots"]["number"] for e in paired["entrants"]}
        assert sorted(numbers.values()) == [1, 2, 3, 4]

        def tables() -> list[dict[str, Any]]:
            found = detail(url, event["id"])["pairings"][0]["tables"]
            return found if all(t["games"] for t in found) else []

        pairing = page.inner_text("#event-pairings")
        for table in wait_for(tables, "the round's tables"):
            names = {f"روبوت {arabic(numbers[side])}" for side in table["sides"]}
            assert all(f"{name} (سهل)" in pairing for name in names), (names, pairing)
            page.goto(f"{url}/t/{table['games'][0]['table']}?lang=ar&anim=fast")
            page.wait_for_selector(".seat h3.name")
            seated = page.locator(".seat h3.name bdi").evaluate_all(
                "nodes => nodes.map((n) => n.textContent)"
            )
            assert set(seated) == names, (seated, names)
        page.context.close()
