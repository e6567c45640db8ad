"""Fixtures of the web tests: servers on free loopback ports with real SQLite files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.helpers import FAST, ServerThread

from basra.server.app import AppConfig


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The app on real SQLite, bots and deals without pauses."""
    with ServerThread(AppConfig(database=str(tmp_path / "basra.db"), service=FAST)) as running:
        yield running
