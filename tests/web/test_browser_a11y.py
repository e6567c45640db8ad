"""Accessibility in the browser: axe-core's WCAG 2.1 A and AA rules find nothing on any
page, in English and in Arabic (the home page, a table while playing, in blind mode
and at its end, a review, a replay, the rules, the daily deal, the leaderboard, a
profile, the account, devices and bots pages, My games, an unknown address).

The games they show are played over the socket first (a person and a fast bot, one
round), so every page has real content; the browser is that person.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, Player, ServerThread, create_table, http, new_token, play_to_end
from tests.web.test_browser import browser  # noqa: F401  (a fixture)

from basra.server.app import AppConfig
from basra.server.reviews import ReviewConfig

pytestmark = pytest.mark.browser

ONE_ROUND = {"target": 1}


@dataclass(frozen=True)
class Site:
    """A server with one person's games in it: one finished (and reviewed), one being played."""

    url: str
    token: str
    finished: str
    playing: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    database = str(tmp_path_factory.mktemp("a11y") / "basra.db")
    config = AppConfig(
        database=database,
        service=replace(FAST, bot_delay=0.05),
        reviews=ReviewConfig(samples=20, hindsight=False, progress_every=0.0),
    )
    with ServerThread(config) as server:
        url = server.url
        token = new_token(url)
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        finished = create_table(url, token, "Amal", seats=seats, rules=ONE_ROUND)
        player = Player(url, finished, token)
        play_to_end([player])
        player.close()
        assert http(f"{url}/api/games/{finished}/review", {}, token=token)[0] < 300
        deadline = time.time() + 120
        while http(f"{url}/api/games/{finished}/review", token=token)[1]["status"] != "done":
            assert time.time() < deadline, "the review was not worked out in time"
            time.sleep(0.2)
        playing = create_table(url, token, "Amal", seats=seats)
        yield Site(url, token, finished, playing)


def signed_in_page(browser: Any, site: Site, width: int = 1366, height: int = 800) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(
        f"localStorage.setItem('basra.token', {site.token!r});"
        "localStorage.setItem('basra.name', 'Amal'); localStorage.setItem('basra.blind', '0');"
    )
    return context.new_page()


# Each page: its address and what shows once it is drawn.
PAGES: dict[str, tuple[str, str]] = {
    "home": ("/", "#create"),
    "table": ("/t/{playing}", ".hand button.card"),
    "table-blind": ("/t/{playing}#blind", ".hand button.card .card-words"),
    "table-end": ("/t/{finished}", "#game-over"),
    "review": ("/review/{finished}", "#review-seats"),
    "replay": ("/replay/{finished}", "#replay-step"),
    "rules": ("/rules/egyptian", ".rules h2"),
    "rules-index": ("/rules", ".list li a"),
    "daily": ("/daily", "[data-deal]"),
    "leaderboard": ("/leaderboard", "#board, #board-empty"),
    "profile": ("/me", "#profile-ratings"),
    "account": ("/account", "#account-status"),
    "devices": ("/device", "#devices li"),
    "bots": ("/bots", "#bots li"),
    "games": ("/games", "li[data-game]"),
    "not-found": ("/no/such/page", "#not-found"),
}
INSIDE = {"not-found"}
"""Pages reached by a link inside the page (the server answers an unknown address itself)."""


def visit(page: Any, site: Site, address: str, lang: str, inside: bool) -> None:
    """Open ``address`` in the page's language (``inside``: from the home page, as a link does)."""
    base, _, fragment = address.partition("#")
    tail = f"#{fragment}" if fragment else ""
    if not inside:
        page.goto(f"{site.url}{base}?lang={lang}&anim=fast{tail}")
        return
    page.goto(f"{site.url}/?lang={lang}&anim=fast")
    page.wait_for_selector("#create")
    page.evaluate(
        "(path) => { history.pushState(null, '', path);"
        " dispatchEvent(new PopStateEvent('popstate')); }",
        base,
    )


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_page_has_an_axe_violation(browser: Any, site: Site, name: str, lang: str) -> None:  # noqa: F811
    path, ready = PAGES[name]
    address = path.format(playing=site.playing, finished=site.finished)
    page = signed_in_page(browser, site)
    visit(page, site, address, lang, name in INSIDE)
    page.wait_for_selector(ready, timeout=20_000)
    page.wait_for_timeout(150)  # a landing card's animation done
    assert page.evaluate("document.documentElement.lang") == lang
    violations = axe_violations(page)
    page.context.close()
    assert not violations, f"{name} ({lang}):\n{describe(violations)}"
