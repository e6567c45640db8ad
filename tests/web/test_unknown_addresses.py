"""Unknown addresses (issue 20): the page says "There is no such page" with a 404, the API
keeps its JSON errors, and the catch-all never takes an address a router answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from tests.web.helpers import FAST

from basra.server.app import AppConfig, create_app
from basra.server.transport.routes import pages

NOT_FOUND = {"error": "not_found", "message": "there is no such address"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(AppConfig(service=FAST))) as test_client:
        yield test_client


def test_an_unknown_page_is_the_page_with_404(client: TestClient) -> None:
    for path in ("/no/such/page", "/gamez", "/t/abc/extra", "/api"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.headers["content-type"].startswith("text/html")
        assert answer.headers["cache-control"] == "no-cache"
        assert 'id="app"' in answer.text


def test_an_unknown_api_address_is_a_json_404_in_the_one_error_body(client: TestClient) -> None:
    for path in ("/api/nope", "/api/games/x/y/z", "/ws/nope/more", "/static/nope.js", "/healthzz"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.json() == NOT_FOUND, path
    wrong = client.delete("/api/games")
    assert wrong.status_code == 405 and wrong.json()["error"] == "method_not_allowed"


def test_the_catch_all_is_the_last_route_and_shadows_none(client: TestClient) -> None:
    (catch_all,) = pages.unknown.routes
    assert isinstance(catch_all, APIRoute) and catch_all.path == "/{path:path}"
    assert not catch_all.include_in_schema
    last = client.app.routes[-1]  # type: ignore[attr-defined]
    # FastAPI keeps an included router as one route (or, in older releases, its routes).
    assert last is catch_all or getattr(last, "original_router", None) is pages.unknown
    for path in ("/", "/games", "/healthz", "/offline", "/sw.js", "/manifest.webmanifest"):
        assert client.get(path).status_code == 200, path
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/api/variants").status_code == 200
    assert client.get("/api/games").json()["error"] == "signed_out"
