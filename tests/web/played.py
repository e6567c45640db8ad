"""A server with one person's games in it, shared by the accessibility and phone tests
(conftest.py's ``played`` fixture): one game finished and reviewed, one being played."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from tests.web.helpers import FAST, Player, ServerThread, create_table, http, new_token, play_to_end

from basra.server.app import AppConfig
from basra.server.features.reviews import ReviewConfig

ONE_ROUND = {"target": 1}


@dataclass(frozen=True)
class Site:
    """The server's address, the person's token, and their two tables."""

    url: str
    token: str
    finished: str
    playing: str

    def init_script(self, **extra: str) -> str:
        """A script that makes a new browser context this person (and sets ``extra``)."""
        items = {"basra.token": self.token, "basra.name": "Amal", "basra.blind": "0", **extra}
        return "".join(f"localStorage.setItem({k!r}, {v!r});" for k, v in items.items())

    def page(self, browser: Any, width: int = 1366, height: int = 800, **extra: str) -> Any:
        """A new page of this person's, in a context of that size."""
        phone = width < 600
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
        )
        context.add_init_script(self.init_script(**extra))
        return context.new_page()


class Pages:
    """The person's pages kept for a module's tests, one per language and size: each
    test loads its own address afresh (``goto``) in the page of its kind. A browser
    context per test (a renderer started, every script fetched and compiled again) cost
    more CPU than these tests' own checks (test_browser_a11y's English tests: 50 s of
    CPU, 27 s with one page)."""

    def __init__(self, site: Site, browser: Any) -> None:
        self.site, self.browser = site, browser
        self.kept: dict[tuple[str, int, int], Any] = {}

    def get(self, lang: str, width: int = 1366, height: int = 800) -> Any:
        """The page for tests in ``lang`` at this size (the address gives the language)."""
        key = (lang, width, height)
        if key not in self.kept:
            self.kept[key] = self.site.page(self.browser, width, height)
        return self.kept[key]

    def close(self) -> None:
        for page in self.kept.values():
            page.context.close()


@contextmanager
def played_site(database: str) -> Iterator[Site]:
    """Serve ``database`` with a fast bot, play one round against it, and have it reviewed."""
    # No stand-in ever plays the person's seat while the tests are away from it (a long
    # grace): the table being played stays at its first turn for every test.
    config = AppConfig(
        database=database,
        service=replace(FAST, bot_delay=0.05, grace=7200.0),
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
