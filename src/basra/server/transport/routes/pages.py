"""The page (one static file for every page route), the health check, and unknown addresses.

The page is static (no build step): ``/`` and the page routes serve
``static/index.html``, which loads the script, the styles, the card faces and the
fonts from ``/static``. ``GET /healthz`` says the process lives, with a few counts.

:data:`unknown` answers every address no route took (the app includes it after
every other router): under ``/api/``, ``/ws/``, ``/static/`` and ``/healthz`` a 404
in the one error body (``not_found``); anywhere else the page, with status 404,
which says "There is no such page" in its language with a link home.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse

from basra.server.errors import ProtocolError
from basra.server.transport.deps import provide

__all__ = ["INDEX", "NOT_PAGES", "PAGE_ROUTES", "STATIC", "HealthCheck", "router", "unknown"]

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
)
"""Every address the page answers (it reads the rest of the address itself)."""
NOT_PAGES = ("api/", "ws/", "static/", "healthz")
"""Where an unknown address is answered in JSON, not with the page (what follows ``/``)."""


@dataclass(frozen=True)
class HealthCheck:
    """How the process is doing, as ``GET /healthz`` shows it."""

    report: Callable[[], dict[str, Any]]


router = APIRouter()


async def page() -> FileResponse:
    """The page."""
    return FileResponse(INDEX, headers={"Cache-Control": "no-cache"})


for _route in PAGE_ROUTES:
    router.add_api_route(_route, page, methods=["GET"], include_in_schema=False)


@router.get("/healthz")
async def healthz(check: Annotated[HealthCheck, Depends(provide(HealthCheck))]) -> dict[str, Any]:
    """The process lives: tables held, moves made, bot jobs, reviews."""
    return {"ok": True, **check.report()}


unknown = APIRouter()
"""The last router: addresses no other route took."""


@unknown.get("/{path:path}", include_in_schema=False)
async def not_found(path: str) -> FileResponse:
    """The page with status 404 (it says there is no such page), or, for the API, a 404
    in the one error body."""
    if path.startswith(NOT_PAGES):
        raise ProtocolError("not_found", "there is no such address")
    return FileResponse(INDEX, status_code=404, headers={"Cache-Control": "no-cache"})
