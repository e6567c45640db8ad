"""The page (one static file for every page route), the health check, and unknown addresses.

The page is static (no build step): ``/`` and the page routes serve
``static/index.html``, which loads the script, the styles, the card faces and the
fonts from ``/static``. The page names, as ``<link rel="modulepreload">``, every module
``app.js`` imports statically (:func:`preloaded`, read from the scripts themselves), so a
browser fetches them at once instead of one level of imports after another (on a slow
phone connection, each level is a round trip); a page's own module is imported when the
page opens. ``GET /healthz`` says the process lives, with a few counts.

:data:`unknown` answers every address no route took (the app includes it after
every other router): under ``/api/``, ``/ws/``, ``/static/`` and ``/healthz`` a 404
in the one error body (``not_found``); anywhere else the page, with status 404,
which says "There is no such page" in its language with a link home.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from html import escape as html_escape
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse

from basra.locales import languages
from basra.server.errors import ProtocolError
from basra.server.transport.deps import provide

__all__ = [
    "INDEX",
    "NOT_PAGES",
    "PAGE_ROUTES",
    "STATIC",
    "HealthCheck",
    "index_html",
    "preloaded",
    "router",
    "unknown",
]

STATIC = Path(__file__).parents[2] / "static"
"""The page's files."""
INDEX = STATIC / "index.html"
PAGE_ROUTES = (
    "/",
    "/t/{table_id}",
    "/games",
    "/replay/{table_id}",
    "/review/{table_id}",
    "/rules",
    "/rules/{name}",
    "/device",
    "/account",
    "/me",
    "/u/{username}",
    "/leaderboard",
    "/daily",
    "/bots",
    "/turns",
)
"""Every address the page answers (it reads the rest of the address itself)."""
NOT_PAGES = ("api/", "ws/", "static/", "healthz")
"""Where an unknown address is answered in JSON, not with the page (what follows ``/``)."""


STATIC_IMPORT = re.compile(
    r"""^\s*import\s+(?:[^;'"]*?\sfrom\s+)?["'](\.{1,2}/[^"']+\.js)["']""", re.M
)
"""A static ``import ... from "./x.js"`` (or ``import "./x.js"``) at a line's start; a
dynamic ``import("./x.js")`` is not one."""
ENTRY = "app.js"


def preloaded(entry: str = ENTRY) -> list[str]:
    """Every module ``entry`` imports statically, directly or not, as ``/static`` paths, in
    the order first met.

    >>> mods = preloaded()
    >>> "/static/i18n.js" in mods, "/static/table.js" in mods, mods[0]
    (True, False, '/static/app.js')
    """
    seen: list[str] = []
    todo = [PurePosixPath(entry)]
    while todo:
        module = todo.pop(0)
        if str(module) in seen:
            continue
        seen.append(str(module))
        text = (STATIC / module).read_text(encoding="utf-8")
        for found in STATIC_IMPORT.findall(text):
            parts: list[str] = []
            for part in (module.parent / found).parts:
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            todo.append(PurePosixPath(*parts))
    return [f"/static/{m}" for m in seen]


@cache
def index_html() -> str:
    """``static/index.html`` with its modules named for preloading and the languages of
    ``static/locales/`` named on ``<html data-languages>`` (read once)."""
    html = INDEX.read_text(encoding="utf-8")
    opening = '<html lang="en" dir="ltr">'
    if opening not in html:
        raise RuntimeError("static/index.html no longer opens with " + opening)
    names = html_escape(json.dumps(languages(), ensure_ascii=False))
    html = html.replace(opening, opening[:-1] + f' data-languages="{names}">')
    links = "".join(f'  <link rel="modulepreload" href="{m}">\n' for m in preloaded())
    script = '  <script type="module" src="/static/app.js"></script>'
    if script not in html:
        raise RuntimeError("static/index.html no longer loads /static/app.js as expected")
    return html.replace(script, links + script)


@dataclass(frozen=True)
class HealthCheck:
    """How the process is doing, as ``GET /healthz`` shows it."""

    report: Callable[[], dict[str, Any]]


router = APIRouter()


async def page() -> HTMLResponse:
    """The page."""
    return HTMLResponse(index_html(), headers={"Cache-Control": "no-cache"})


for _route in PAGE_ROUTES:
    router.add_api_route(_route, page, methods=["GET"], include_in_schema=False)


@router.get("/healthz")
async def healthz(check: Annotated[HealthCheck, Depends(provide(HealthCheck))]) -> dict[str, Any]:
    """The process lives: tables held, moves made, bot jobs, reviews."""
    return {"ok": True, **check.report()}


unknown = APIRouter()
"""The last router: addresses no other route took."""


@unknown.get("/{path:path}", include_in_schema=False)
async def not_found(path: str) -> HTMLResponse:
    """The page with status 404 (it says there is no such page), or, for the API, a 404
    in the one error body."""
    if path.startswith(NOT_PAGES):
        raise ProtocolError("not_found", "there is no such address")
    return HTMLResponse(index_html(), status_code=404, headers={"Cache-Control": "no-cache"})
