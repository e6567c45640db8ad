"""Reputation in the browser, in English and Arabic: Badr, who finished 44 of his 48 games
and left two rated games minutes ago, shows "91% of 48 games finished" beside his name at
Amal's table, and his own page shows the same share with the wait before his next rated
game (5 minutes, from 5 minutes doubling) in words; 0 axe-core violations on both, at
390x844 and 1366x800; screenshots go to out/screens."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, Player, ServerThread, create_table, http, new_token
from tests.web.test_browser import browser, shot  # noqa: F401  (a fixture)

from basra.server.app import AppConfig

pytestmark = pytest.mark.browser

DAY = 24 * 3600.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    database = str(tmp_path_factory.mktemp("reputation") / "basra.db")
    with ServerThread(AppConfig(database=database, service=FAST)) as running:
        yield running.url, database


def person(base: str, username: str) -> str:
    token = new_token(base)
    status, body = http(
        base + "/api/account", {"username": username, "password": "p" * 10}, token=token
    )
    assert status == 201, body
    return token


def given_history(database: str, username: str) -> None:
    """48 settled games of ``username``: 44 casual ones finished an hour ago and more, two
    rated ones left three days ago (forgotten since) and two left in the last minutes."""
    now = time.time()
    games = [(now - 2 * DAY - i * 60, False, "win") for i in range(44)]
    games += [(now - 3 * DAY, True, "forfeit"), (now - 3 * DAY + 60, True, "forfeit")]
    games += [(now - 150, True, "forfeit"), (now - 120, True, "forfeit")]
    with sqlite3.connect(database) as db:
        (identity,) = db.execute(
            "SELECT identity_id FROM accounts WHERE username = ?", (username,)
        ).fetchone()
        for index, (at, rated, outcome) in enumerate(games):
            table_id = f"r{index}{username}"[:32]
            db.execute(
                "INSERT INTO tables (id, created_at, updated_at, variant, players, teams,"
                " first_dealer, hints, status, rated, settled_at)"
                " VALUES (?, ?, ?, 'egyptian', 2, 0, 0, 0, 'over', ?, ?)",
                (table_id, at - 600, at, rated, at),
            )
            db.execute(
                "INSERT INTO results (table_id, identity_id, seat, variant, family, kind, rated,"
                " outcome, place, rounds, basras, score, ended_at)"
                " VALUES (?, ?, 0, 'egyptian', 'egyptian', '2p', ?, ?, 1, 3, 0, 0, ?)",
                (table_id, identity, rated, outcome, at),
            )


def page_of(browser: Any, token: str, name: str, width: int, height: int) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(
        f"localStorage.setItem('basra.token', {token!r});"
        f"localStorage.setItem('basra.name', {name!r});"
    )
    return context.new_page()


def no_violations(page: Any, name: str) -> None:
    violations = axe_violations(page)
    assert not violations, describe(violations)
    shot(page, name)


SHARE = {"en": "91% of 48 games finished", "ar": "نسبة الإنهاء ٩١٪ من ٤٨ لعبة"}
WAIT = {"en": "waits 5 minutes", "ar": "٥ دقائق"}


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_share_beside_a_seated_name_and_the_wait_on_ones_own_page(
    browser: Any,  # noqa: F811
    server: tuple[str, str],
    lang: str,
) -> None:
    site, database = server
    amal_token, badr_token = person(site, f"amal_r{lang}"), person(site, f"badr_r{lang}")
    given_history(database, f"badr_r{lang}")
    table = create_table(site, amal_token, seats=[{"kind": "person"}, {"kind": "person"}])
    badr = Player(site, table, badr_token, "Badr")
    badr.wait_type("state")
    badr.send({"type": "join", "seat": 1})
    amal = page_of(browser, amal_token, "Amal", 1366, 800)
    amal.goto(f"{site}/t/{table}?lang={lang}&anim=fast")
    amal.wait_for_selector("[data-finished='1']")
    assert amal.locator("[data-finished='1']").first.inner_text() == SHARE[lang]
    assert amal.locator("[data-finished='0']").count() == 0  # Amal is new: no share
    no_violations(amal, f"reputation-seat-{lang}-1366")
    amal.set_viewport_size({"width": 390, "height": 844})
    no_violations(amal, f"reputation-seat-{lang}-390")
    amal.context.close()
    badr.close()
    # His own page: the share, and the wait before his next rated game in words.
    mine = page_of(browser, badr_token, "Badr", 390, 844)
    mine.goto(f"{site}/me?lang={lang}&anim=fast")
    mine.wait_for_selector("#finished-share")
    assert mine.locator("#finished-share").inner_text() == SHARE[lang]
    assert WAIT[lang] in mine.locator("#playban").inner_text()
    no_violations(mine, f"reputation-profile-{lang}-390")
    mine.set_viewport_size({"width": 1366, "height": 800})
    no_violations(mine, f"reputation-profile-{lang}-1366")
    # Others see his share, never his wait.
    mine.goto(f"{site}/u/badr_r{lang}?lang={lang}&anim=fast")
    mine.wait_for_selector("#finished-share")
    assert mine.locator("#playban").count() == 0
    mine.context.close()
