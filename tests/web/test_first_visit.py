"""A slow phone's first visit (issue 35): what the app serves is compressed, the page names
every module the home page imports for preloading (no round trip per level of imports),
and the other pages' modules are not among them (they load when their page opens).
The time itself is measured by benchmarks/firstvisit.py."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import FAST

from basra.server.app import AppConfig, create_app
from basra.server.transport.routes import pages


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(AppConfig(service=FAST))) as test_client:
        yield test_client


def test_scripts_styles_and_json_are_compressed(client: TestClient) -> None:
    for path in ("/static/app.js", "/static/style.css", "/static/i18n.js", "/api/variants"):
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        packed = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert plain.status_code == packed.status_code == 200, path
        assert "content-encoding" not in plain.headers, path
        assert packed.headers["content-encoding"] == "gzip", path
        # httpx decodes it: the same bytes, sent in far fewer.
        assert packed.content == plain.content, path
        sent = len(gzip.compress(plain.content, 6))
        assert sent < len(plain.content) / 2, path


def test_the_page_preloads_the_english_catalogue_and_names_its_languages(
    client: TestClient,
) -> None:
    html = client.get("/").text
    assert '<link rel="preload" href="/static/locales/en.json" as="fetch" crossorigin>' in html
    named = re.search(r'data-languages="([^"]+)"', html)
    assert named and "Ελληνικά" in named.group(1) and "Français" in named.group(1)
    assert client.get("/static/locales/el.json").json()["language_name"] == "Ελληνικά"


def test_the_page_preloads_exactly_what_app_js_imports_statically(client: TestClient) -> None:
    html = client.get("/").text
    named = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert named == pages.preloaded()
    assert "/static/app.js" in named and "/static/i18n.js" in named
    # Every module named exists, and a 404 page names them too.
    for module in named:
        assert client.get(module).status_code == 200, module
    assert re.findall(r'rel="modulepreload" href="([^"]+)"', client.get("/no/such").text) == named


@pytest.mark.parametrize(
    "module",
    [
        "table.js",
        "table/view.js",
        "table/input.js",
        "table/nvui.js",
        "review.js",
        "tournaments.js",
        "learn.js",
        "offline/page.js",
    ],
)
def test_other_pages_modules_wait_for_their_page(module: str) -> None:
    assert f"/static/{module}" not in pages.preloaded()


def test_static_imports_are_read_as_the_browser_reads_them() -> None:
    found = pages.STATIC_IMPORT.findall(
        'import { a } from "./a.js";\nimport "./b.js";\n'
        'import {\n  c,\n  d,\n} from "../c.js";\nconst e = () => import("./e.js");\n'
    )
    assert found == ["./a.js", "./b.js", "../c.js"]
