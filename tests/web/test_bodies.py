"""Every request body goes through the one bounded parser, on every route of the app.

The routes are found in the app itself (every route that takes POST, PUT, PATCH
or DELETE, as routers include them), so a route added later is tried too: each
is sent a body nested 3,000 and 8,000 deep, one far over the size limit, and
one that is not UTF-8, and must answer a 4xx in the one error body with the
parser's code (the route's own checks never see such a body), never a 500, a
reset connection or a traceback in the log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import BaseRoute
from tests.web.helpers import FAST, ServerThread, new_token

from basra.server.app import AppConfig, create_app
from basra.server.transport.deps import MAX_BODY

BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def routes_of(routes: Iterable[BaseRoute], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) of every route taking a body, through included routers."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            context = getattr(route, "include_context", None)
            yield from routes_of(included.routes, prefix + (getattr(context, "prefix", "") or ""))
            continue
        for method in sorted(set(getattr(route, "methods", None) or ()) & BODY_METHODS):
            yield method, prefix + getattr(route, "path", "")


def filled(path: str) -> str:
    """A path with a made-up value in each of its parameters."""
    parts = [part if not part.startswith("{") else "x1" for part in path.split("/")]
    return "/".join(parts)


ROUTES = sorted(set(routes_of(create_app().routes)))


def test_the_app_has_routes_with_bodies() -> None:
    paths = {path for _, path in ROUTES}
    assert len(ROUTES) >= 25, ROUTES
    assert {"/api/reports", "/api/offline/games", "/api/tables"} <= paths
    assert any(path.startswith("/admin/") for path in paths)


class Records(logging.Handler):
    """Keeps every record a logger lets through."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    folder: Path = tmp_path_factory.mktemp("bodies")
    with ServerThread(AppConfig(database=str(folder / "basra.db"), service=FAST)) as server:
        yield server


@pytest.fixture(scope="module")
def token(running: ServerThread) -> str:
    return new_token(running.url)


def send(server: ServerThread, method: str, path: str, body: bytes, token: str) -> tuple[int, Any]:
    """One request on a fresh connection; its status and JSON (a reset raises)."""
    connection = HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(
            method,
            path,
            body,
            {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


BAD_BODIES = {
    "3000_deep": (b"[" * 3000 + b"]" * 3000, 400, "too_deep"),
    "8000_deep": (b'{"reason": ' + b"[" * 8000 + b"]" * 8000 + b"}", 400, "too_deep"),
    "huge": (b'{"name": "' + b"a" * (4 * MAX_BODY) + b'"}', 413, "too_large"),
    "not_utf8": (b'{"reason": "spam", "note": "\xff\xfe\xc3"}', 400, "bad_message"),
}


@pytest.mark.parametrize("kind", sorted(BAD_BODIES))
def test_every_route_refuses_a_bad_body_before_reading_it(
    running: ServerThread, token: str, kind: str
) -> None:
    body, status, code = BAD_BODIES[kind]
    records = Records()
    watched = [logging.getLogger(), logging.getLogger("uvicorn.error")]
    for logger in watched:
        logger.addHandler(records)
    wrong = []
    try:
        for method, path in ROUTES:
            answered, answer = send(running, method, filled(path), body, token)
            if answered != status or answer.get("error") != code or not answer.get("message"):
                wrong.append((method, path, answered, answer))
    finally:
        for logger in watched:
            logger.removeHandler(records)
    assert not wrong, wrong
    tracebacks = [r.getMessage() for r in records.records if r.exc_info]
    assert not tracebacks, tracebacks


def test_a_good_body_still_reaches_the_route(running: ServerThread, token: str) -> None:
    """The report route reads the body the parser read: its own checks name the field."""
    status, answer = send(
        running, "POST", "/api/reports", b'{"username": "nobody", "reason": "spam"}', token
    )
    assert status == 404 and answer["error"] == "no_such_player", answer
    status, answer = send(running, "POST", "/api/reports", b'{"reason": "fun"}', token)
    assert status == 422 and answer["error"] == "bad_report", answer
    status, answer = send(running, "POST", "/api/reports", b"[1, 2]", token)
    assert status == 422 and answer["error"] == "bad_report", answer
