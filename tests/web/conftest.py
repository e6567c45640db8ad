"""Fixtures of the web tests: servers on free loopback ports with real SQLite files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import FAST, ServerThread
from tests.web.played import Pages, Site, played_site

from basra.server.app import AppConfig


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The app on real SQLite, bots and deals without pauses."""
    with ServerThread(AppConfig(database=str(tmp_path / "basra.db"), service=FAST)) as running:
        yield running


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One server for the accessibility and phone tests, with a person's games in it."""
    with played_site(str(tmp_path_factory.mktemp("played") / "basra.db")) as site:
        yield site


@pytest.fixture(scope="module")
def pages(browser: Any, played: Site) -> Iterator[Pages]:
    """The person's pages of ``played``, one per language and size, for a module's tests
    (``browser`` is the module's: tests.web.test_browser's fixture)."""
    kept = Pages(played, browser)
    yield kept
    kept.close()
