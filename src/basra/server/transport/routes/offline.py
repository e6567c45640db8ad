"""Offline play: the installable app's files, and offline games coming home.

- ``GET /sw.js``: the service worker with this deploy's precache list
  (:class:`~basra.server.features.offline_files.Precache`);
- ``GET /manifest.webmanifest[?lang=ar]``: the web app manifest in English or Arabic;
- ``GET /offline/runtime.json``: whether offline play is installed, and where its
  runtime and the core's sources are;
- ``GET /offline/core/{hash}.zip``: the core's sources (404 ``no_such_file`` naming
  the current one when the rules changed since);
- ``GET /offline/pyodide/{version}/{file}``: the Pyodide runtime (gzip when the
  browser takes it; 404 ``not_installed`` on a server without it);
- ``GET /offline`` and ``/offline/g/{id}``: the page;
- ``POST /api/offline/games`` (auth) ``{"save", "seat", "result": {"scores",
  "winner", "finished"}}``: a finished or unfinished offline game, checked and
  kept (:mod:`basra.server.features.offline`): 201 when stored, 200 when it was
  (with what it played since added), ``{"id", "url", "status", "scores",
  "winner", "rated": false}`` (``url``: its replay, once over); a forged game is
  refused with 422 and the reason (``wrong_deal``, ``wrong_bot_play``,
  ``illegal_play``, ``wrong_result``, ``bad_seat``, ``bad_name``, ``bad_record``; a
  seat's name holding a listed word, ``name_not_allowed``: :mod:`basra.server.words`);
  ``rate_limited`` (429) past the uploads rationed per person and per address, or
  while as many of the person's (or the address's) uploads are still being checked.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict

from basra.server.errors import ProtocolError
from basra.server.features.offline import OfflineGames
from basra.server.features.offline_check import ForgedRecordError
from basra.server.features.offline_files import PIN, OfflineFiles, manifest
from basra.server.store.rows import TableStatus
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import address, form, provide
from basra.server.transport.errors import error_body
from basra.server.transport.routes.pages import page

__all__ = ["UploadForm", "router"]

router = APIRouter()

FilesDep = Annotated[OfflineFiles, Depends(provide(OfflineFiles))]
GamesDep = Annotated[OfflineGames, Depends(provide(OfflineGames))]
NO_CACHE = {"Cache-Control": "no-cache"}
FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}


class UploadForm(BaseModel):
    """``POST /api/offline/games``: the game's save (its record and the offline table's
    settings), the uploader's seat, and the result the page showed."""

    model_config = ConfigDict(extra="forbid", strict=True)
    save: dict[str, Any]
    seat: int | None = None
    result: dict[str, Any]


def _missing(code: str, message: str, **extra: Any) -> JSONResponse:
    """A 404 in the one error body."""
    return JSONResponse(error_body(ProtocolError(code, message, extra or None)), 404)


@router.get("/sw.js", include_in_schema=False)
async def service_worker(files: FilesDep) -> Response:
    """The service worker, its precache list in front."""
    body = await asyncio.to_thread(files.service_worker)
    return Response(
        body,
        media_type="text/javascript",
        headers={**NO_CACHE, "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def web_manifest(lang: str = "en") -> Response:
    """The web app manifest in the page's language."""
    return Response(
        json.dumps(manifest(lang), ensure_ascii=False),
        media_type="application/manifest+json",
        headers=NO_CACHE,
    )


@router.get("/offline/runtime.json", include_in_schema=False)
async def runtime_json(files: FilesDep) -> Response:
    """Whether offline play is installed, and where its files are."""
    info = await asyncio.to_thread(files.precache.runtime_info)
    return JSONResponse(info, headers=NO_CACHE)


@router.get("/offline/core/{name}", include_in_schema=False)
async def core_zip(request: Request, name: str, files: FilesDep) -> Response:
    """The core's sources, named by their hash (kept by browsers for good)."""
    data, digest = await asyncio.to_thread(files.core.build)
    if name != f"{digest}.zip":
        return _missing(
            "no_such_file",
            "this server runs other rules now: reload the page for the current ones",
            current=f"/offline/core/{digest}.zip",
        )
    headers = {**FOREVER, "ETag": f'"{digest}"'}
    if request.headers.get("if-none-match") == headers["ETag"]:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type="application/zip", headers=headers)


@router.get("/offline/pyodide/{version}/{name}", include_in_schema=False)
async def pyodide_file(request: Request, version: str, name: str, files: FilesDep) -> Response:
    """A file of the pinned runtime."""
    gzip = "gzip" in request.headers.get("accept-encoding", "")
    found = files.runtime_file(version, name, gzip)
    if found is None:
        return _missing("no_such_file", f"no runtime file {version[:20]}/{name[:40]}")
    if files.missing():
        return _missing(
            "not_installed",
            f"offline play is not installed on this server (Pyodide {PIN['version']}): "
            "scripts/setup fetches it",
        )
    headers = {**FOREVER, "Vary": "Accept-Encoding"}
    if found.gzip:
        headers["Content-Encoding"] = "gzip"
    return FileResponse(found.path, media_type=found.media, headers=headers)


router.add_api_route("/offline", page, methods=["GET"], include_in_schema=False)
router.add_api_route("/offline/g/{game_id}", page, methods=["GET"], include_in_schema=False)


@router.post("/api/offline/games")
async def upload(
    me: SignedIn,
    body: Annotated[UploadForm, Depends(form(UploadForm))],
    games: GamesDep,
    where: Annotated[str, Depends(address)],
) -> JSONResponse:
    """Check an offline game and keep it in the caller's games (201 new, 200 kept before)."""
    sent: dict[str, Any] = {"save": body.save, "result": body.result}
    if body.seat is not None:
        sent["seat"] = body.seat
    try:
        stored = await games.upload(me, sent, where)
    except ForgedRecordError as forged:
        refused = ProtocolError(forged.code, forged.message, forged.where or None)
        return JSONResponse(error_body(refused), 422)
    over = stored.status == TableStatus.OVER
    return JSONResponse(
        {
            "id": stored.table_id,
            "url": f"/replay/{stored.table_id}" if over else None,
            "status": stored.status,
            "scores": list(stored.scores),
            "winner": stored.winner,
            "rated": False,
            "appended": stored.appended,
        },
        status_code=201 if stored.created else 200,
    )
