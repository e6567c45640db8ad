"""Accessibility in the browser: axe-core's WCAG 2.1 A and AA rules find nothing on any
page, in English, Arabic, Greek and French, and none shows a catalogue key or an unfilled
hole of a message (the home page, a table while playing, in blind mode
and at its end, a review, a replay, the rules, the daily deal, the leaderboard, a
profile, the account, devices and bots pages, My games, an unknown address).

The games they show are played over the socket first (a person and a fast bot, one
round), so every page has real content; the browser is that person, with one page per
language that loads each test's address afresh (:class:`~tests.web.played.Pages`).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.axe import axe_violations, describe, raw_words
from tests.web.played import Pages, Site
from tests.web.test_browser import browser  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser

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
    "seasons": ("/seasons", "#season-standings"),
    "profile": ("/me", "#profile-ratings"),
    "account": ("/account", "#account-status"),
    "devices": ("/device", "#devices li"),
    "bots": ("/bots", "#bots li"),
    "games": ("/games", "li[data-game]"),
    "clubs": ("/clubs", "#clubs-make"),
    "not-found": ("/no/such/page", "#not-found"),
}
INSIDE: set[str] = set()
"""Pages reached by a link inside the page (none: the server answers an unknown address
with the page, status 404, which says there is no such page)."""


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


@pytest.mark.parametrize("lang", ["en", "ar", "el", "fr"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_page_has_an_axe_violation(played: Site, pages: Pages, name: str, lang: str) -> None:
    path, ready = PAGES[name]
    address = path.format(playing=played.playing, finished=played.finished)
    page = pages.get(lang)
    visit(page, played, address, lang, name in INSIDE)
    page.wait_for_selector(ready, timeout=20_000)
    page.wait_for_timeout(150)  # a landing card's animation done
    assert page.evaluate("document.documentElement.lang") == lang
    violations = axe_violations(page)
    raw = raw_words(page)
    assert not violations, f"{name} ({lang}):\n{describe(violations)}"
    assert not raw, f"{name} ({lang}) shows words not put into words: {raw}"
