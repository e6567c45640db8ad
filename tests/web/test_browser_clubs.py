"""Clubs in the browser (static/clubs.js), in English and Arabic: Amal makes a club by
keyboard on /clubs, Badr finds it and joins it from its page (where he is present to
the other members), reports it, Amal (its owner) names him a leader, and the club shows
on her profile; a club battle of two clubs of three members, made on the club's page by
keyboard and played to its standings (on the event page and the clubs' pages) and the
weekly board; 0 axe-core violations on every page at 390x844 and 1366x800; screenshots
go to out/screens."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import FAST, ServerThread, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)
from tests.web.test_browser_friends import no_violations, page_of, person
from tests.web.test_clubs import ROOMY_CLUBS
from tests.web.tourney import Entrant, wait_for
from tests.web.tourney import config as tourney_config

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("clubs") / "basra.db")
    config = AppConfig(database=database, service=replace(FAST, limits=ROOMY_CLUBS))
    with ServerThread(config) as server:
        yield server.url


def said(page: Any, words: str) -> None:
    page.wait_for_function(
        "(words) => window.__said.some((s) => s.text.includes(words))", arg=words
    )


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_club_is_made_joined_and_led_by_keyboard(
    browser: Any,  # noqa: F811
    site: str,
    lang: str,
) -> None:
    amal_token, badr_token = person(site, f"amal_club_{lang}"), person(site, f"badr_club_{lang}")
    amal = page_of(browser, amal_token, "Amal", 1366, 800)
    badr = page_of(browser, badr_token, "Badr", 390, 844)
    amal.goto(f"{site}/clubs?lang={lang}&anim=fast")
    amal.wait_for_selector("#club-name")
    no_violations(amal, f"clubs-{lang}-1366")
    # A name too short is said, naming the field, before anything is sent.
    amal.focus("#club-name")
    amal.keyboard.type("x")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#club-name[aria-invalid='true']")
    assert amal.locator("#club-make-error").inner_text().strip()
    amal.fill("#club-name", f"Friday Players {lang}")
    amal.focus("#club-description")
    amal.keyboard.type("We play on Fridays.")
    amal.focus("#club-make")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#club-title")
    slug = amal.url.split("/club/")[1].split("?")[0]
    assert slug == f"friday-players-{lang}"
    assert amal.locator("#club-your-role").is_visible()
    no_violations(amal, f"club-owner-{lang}-1366")
    # Badr searches for it and joins it, by keyboard.
    badr.goto(f"{site}/clubs?lang={lang}&anim=fast")
    badr.wait_for_selector("#clubs-q")
    badr.focus("#clubs-q")
    badr.keyboard.type("friday")
    badr.keyboard.press("Enter")
    badr.wait_for_selector(f"#clubs-list li[data-club='{slug}']")
    no_violations(badr, f"clubs-{lang}-390")
    badr.focus(f"#clubs-list li[data-club='{slug}'] a")
    badr.keyboard.press("Enter")
    badr.wait_for_selector("#club-join")
    no_violations(badr, f"club-visitor-{lang}-390")
    badr.focus("#club-join")
    badr.keyboard.press("Enter")
    badr.wait_for_selector("#club-leave")
    said(badr, "Friday Players")
    no_violations(badr, f"club-member-{lang}-390")
    # He reports the club's name, by keyboard.
    badr.focus("#report summary")
    badr.keyboard.press("Enter")
    badr.select_option("#report-reason", "name")
    badr.focus("#report-send")
    badr.keyboard.press("Enter")
    badr.wait_for_function("() => document.querySelector('#report-status')?.textContent.trim()")
    assert badr.locator("#report-reason").is_disabled()
    # Amal names him a leader from the members' table; his page of the club holds his
    # presence, so she sees him online.
    amal.reload()
    amal.wait_for_selector("#club-members tr[data-role='member'] .presence.online")
    amal.wait_for_selector("#club-members tr[data-role='member'] button[id^='club-role-']")
    amal.focus("#club-members tr[data-role='member'] button[id^='club-role-']")
    amal.keyboard.press("Enter")
    amal.wait_for_selector("#club-members tr[data-role='leader']")
    no_violations(amal, f"club-leaders-{lang}-1366")
    amal.set_viewport_size({"width": 390, "height": 844})
    no_violations(amal, f"club-owner-{lang}-390")
    # Her profile shows her club.
    badr.set_viewport_size({"width": 1366, "height": 800})
    badr.goto(f"{site}/u/amal_club_{lang}?lang={lang}&anim=fast")
    badr.wait_for_selector(f"#profile-clubs li[data-club='{slug}']")
    no_violations(badr, f"club-profile-{lang}-1366")
    badr.goto(f"{site}/club/{slug}?lang={lang}&anim=fast")
    badr.wait_for_selector("#club-leaders")
    no_violations(badr, f"club-leader-{lang}-1366")
    # A member opens a club-only table from the club's page.
    badr.focus("#club-table")
    badr.keyboard.press("Enter")
    badr.wait_for_url("**/t/**")
    amal.context.close()
    badr.context.close()


@pytest.fixture(scope="module")
def arena_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    made = tourney_config(str(tmp_path_factory.mktemp("battles") / "basra.db"))
    config = replace(made, service=replace(made.service, limits=ROOMY_CLUBS))
    with ServerThread(config) as server:
        yield server.url


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_club_battle_of_two_clubs_of_three_to_its_standings(
    browser: Any,  # noqa: F811
    arena_site: str,
    lang: str,
) -> None:
    site = arena_site
    leaders = [person(site, f"red_{lang}"), person(site, f"blue_{lang}")]
    names = (f"Red {lang}", f"Blue {lang}")
    slugs = [
        http(site + "/api/clubs", {"name": name}, token=token)[1]["slug"]
        for name, token in zip(names, leaders, strict=True)
    ]
    members = {slug: [leader] for slug, leader in zip(slugs, leaders, strict=True)}
    for slug in slugs:
        for _ in range(2):
            token = new_token(site)
            assert http(f"{site}/api/clubs/{slug}/join", {}, token=token)[0] == 200
            members[slug].append(token)
    # The red club's owner makes the battle on the club's page, by keyboard.
    red = page_of(browser, leaders[0], "Red", 1366, 800)
    red.goto(f"{site}/club/{slugs[0]}?lang={lang}&anim=fast")
    red.wait_for_selector("#club-event-details summary")
    red.focus("#club-event-details summary")
    red.keyboard.press("Enter")
    red.focus("#club-event-name")
    red.keyboard.type(f"Red v Blue {lang}")
    red.fill("#club-event-minutes", "5")
    red.fill("#club-event-starts", "0.1")  # six seconds: time for the six to enter
    red.focus("#club-event-clubs")
    red.keyboard.type(slugs[1])
    red.fill("#club-event-best", "2")
    no_violations(red, f"club-event-form-{lang}-1366")
    red.focus("#club-event-make")
    red.keyboard.press("Enter")
    red.wait_for_url("**/tournaments/**")
    event = red.url.split("/tournaments/")[1].split("?")[0]
    invite = red.url.split("invite=")[1].split("&")[0]
    red.wait_for_selector("#club-battle")
    # All six enter through their clubs and play (socket clients, one-round games).
    people = []
    for slug in slugs:
        for n, token in enumerate(members[slug]):
            body = {"invite": invite, "name": f"{slug[:4]}{n}"}
            joined = http(f"{site}/api/tournaments/{event}/join", body, token=token)
            assert joined[0] == 201, joined
            people.append(Entrant(site, event, token, f"{slug[:4]}{n}"))
    deadline = time.time() + 120
    while not all(len(p.played) >= 1 and p.player is None for p in people):
        assert time.time() < deadline, [p.played for p in people]
        for one in people:
            if not (len(one.played) >= 1 and one.player is None):
                one.step()
    for one in people:
        one.close()

    def scored() -> bool:
        standings = http(f"{site}/api/clubs/battles/{event}")[1]
        return sum(len(c["players"]) for c in standings["clubs"]) == 6 and any(
            c["score"] for c in standings["clubs"]
        )

    wait_for(scored, "the battle's points")
    # The event page shows the standings per club and per player.
    red.wait_for_function(
        "() => document.querySelectorAll('#club-battle tbody tr').length >= 8", timeout=20_000
    )
    clubs_table = red.locator(f"#battle-clubs-{event}")
    for name in names:
        assert name in clubs_table.inner_text()
    no_violations(red, f"club-battle-event-{lang}-1366")
    red.set_viewport_size({"width": 390, "height": 844})
    no_violations(red, f"club-battle-event-{lang}-390")
    # ... and so does each club's page; the weekly board lists them.
    blue = page_of(browser, members[slugs[1]][2], "Blue", 390, 844)
    blue.goto(f"{site}/club/{slugs[1]}?lang={lang}&anim=fast")
    blue.wait_for_selector(f"section[data-battle='{event}'] #battle-clubs-{event}")
    assert blue.locator(f"#club-events-list li[data-event='{event}'] a").count() == 1
    no_violations(blue, f"club-battle-club-{lang}-390")
    blue.set_viewport_size({"width": 1366, "height": 800})
    no_violations(blue, f"club-battle-club-{lang}-1366")
    blue.goto(f"{site}/clubs?lang={lang}&anim=fast")
    blue.wait_for_selector("#clubs-weekly tbody tr")
    no_violations(blue, f"clubs-weekly-{lang}-1366")
    red.context.close()
    blue.context.close()
