"""The transport: FastAPI routes and the WebSocket endpoint, around a :class:`MatchService`.

Handlers only parse, authenticate and delegate. The page is static (no build
step): ``/`` and the page routes serve ``static/index.html``, which loads the
script, the styles, the card faces and the fonts from ``/static``.

HTTP API (JSON):

- ``GET /api/variants``: the presets, their settings and descriptions.
- ``POST /api/rules``: check custom settings ``{"variant", "rules"}``.
- ``POST /api/tables``: create a table (``secret``, ``name`` and the form).
- ``GET /api/tables``: tables to join or watch; ``GET /api/tables/{id}``: one.
- ``GET /api/games`` (header ``X-Basra-Secret``): the caller's games.
- ``GET /api/games/{id}/record``: the record (RECORD.md) of a finished game.
- ``GET /api/games/{id}/replay``: every step of a finished game.
- ``WS /ws/{id}``: play and watch (see :mod:`basra.server.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from basra.bots import LEVELS
from basra.rules import PRESETS, SETTING_NAMES, VARIANT_DESCRIPTIONS, RulesError, preset
from basra.server.protocol import ProtocolError, error_message, parse_client_message
from basra.server.pubsub import open_hub
from basra.server.service import Client, MatchService, ServiceConfig
from basra.server.store import open_store

__all__ = ["AppConfig", "create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HELLO_TIMEOUT = 15.0
PAGE_ROUTES = ("/", "/t/{table_id}", "/games", "/replay/{table_id}", "/rules", "/rules/{name}")


@dataclass
class AppConfig:
    """Where the app keeps its games and how it behaves."""

    database: str = "memory"
    """``memory``, a SQLite path, or a database URL (``postgresql://...``)."""
    redis: str | None = None
    """A Redis URL to share tables between several processes."""
    service: ServiceConfig = field(default_factory=ServiceConfig)


def _bad(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def create_app(config: AppConfig | None = None, service: MatchService | None = None) -> FastAPI:
    """The web app. Pass a ready ``service`` (tests) or let ``config`` build one."""
    config = config or AppConfig()
    match = service or MatchService(
        open_store(config.database), open_hub(config.redis), config.service
    )

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await match.start()
        try:
            yield
        finally:
            await match.close()

    app = FastAPI(title="basra", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = match
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    index = STATIC / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    for route in PAGE_ROUTES:
        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "tables": len(match.live), "moves": match.moves}

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return {
            "variants": [
                {
                    "name": name,
                    "description": VARIANT_DESCRIPTIONS.get(name, ""),
                    "rules": rules.to_dict(),
                }
                for name, rules in PRESETS.items()
            ],
            "settings": list(SETTING_NAMES),
            "levels": list(LEVELS),
        }

    @app.post("/api/rules")
    async def check_rules(request: Request) -> Response:
        body = await _json(request)
        if not isinstance(body, dict):
            return _bad(400, "bad_settings", "send an object {variant, rules}")
        variant = body.get("variant", "egyptian")
        try:
            base = preset(variant)
            rules = base.with_overrides(body.get("rules") or {})
        except RulesError as exc:
            return _bad(400, "bad_settings", str(exc))
        return JSONResponse(
            {"variant": variant, "rules": rules.to_dict(), "overrides": rules.overrides_from(base)}
        )

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        body = await _json(request)
        if not isinstance(body, dict):
            return _bad(400, "bad_message", "send a JSON object")
        secret = body.get("secret")
        if not isinstance(secret, str) or not 16 <= len(secret) <= 128:
            return _bad(400, "bad_message", "'secret' must be 16 to 128 characters")
        try:
            row = await match.create_table(secret, body.get("name"), body)  # type: ignore[arg-type]
        except ProtocolError as error:
            return _bad(400, error.code, error.message)
        return JSONResponse({"id": row.id, "url": f"/t/{row.id}"}, status_code=201)

    @app.get("/api/tables")
    async def lobby() -> dict[str, Any]:
        return {"tables": await match.lobby()}

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> Response:
        info = await match.table_info(table_id)
        if info is None:
            return _bad(404, "no_such_table", f"there is no table {table_id!r}")
        return JSONResponse(info)

    @app.get("/api/games")
    async def games(request: Request) -> Response:
        secret = request.headers.get("x-basra-secret", "")
        if not 16 <= len(secret) <= 128:
            return _bad(400, "bad_message", "send the X-Basra-Secret header")
        return JSONResponse({"games": await match.games_of(secret)})

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str) -> Response:
        try:
            data = await match.record(table_id)
        except ProtocolError as error:
            status = 404 if error.code == "no_such_table" else 409
            return _bad(status, error.code, error.message)
        return JSONResponse(
            data,
            headers={"Content-Disposition": f'attachment; filename="basra-{table_id}.json"'},
        )

    @app.get("/api/games/{table_id}/replay")
    async def replay(table_id: str) -> Response:
        try:
            data = await match.replay(table_id)
        except ProtocolError as error:
            status = 404 if error.code == "no_such_table" else 409
            return _bad(status, error.code, error.message)
        return JSONResponse(data)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        await _serve_socket(match, websocket, table_id)

    return app


async def _json(request: Request) -> Any:
    body = await request.body()
    if len(body) > 65536:
        return None
    try:
        import json

        return json.loads(body)
    except ValueError:
        return None


async def _serve_socket(match: MatchService, websocket: WebSocket, table_id: str) -> None:
    """One connection: hello first, then messages until it closes."""
    try:
        first = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        with contextlib.suppress(Exception):
            await websocket.close(code=4000)
        return
    try:
        hello = parse_client_message(first)
        if hello["type"] != "hello":
            raise ProtocolError("bad_message", "say hello first: {type: hello, secret, name}")
        client = Client(table_id, hello["secret"], hello.get("name"))
        await match.connect(client)
    except ProtocolError as error:
        with contextlib.suppress(Exception):
            await websocket.send_json(error_message(error))
            await websocket.close(code=4004 if error.code == "no_such_table" else 4000)
        return

    async def writer() -> None:
        while True:
            text = await client.outbox.get()
            if text is None:
                await websocket.close(code=4008)
                return
            await websocket.send_text(text)

    sending = asyncio.create_task(writer())
    rate, burst = match.config.message_rate, float(match.config.message_burst)
    allowance, checked = burst, time.monotonic()
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            now = time.monotonic()
            allowance = min(burst, allowance + (now - checked) * rate)
            checked = now
            if allowance < 1:
                client.send(error_message(ProtocolError("rate_limited", "too many messages")))
                continue
            allowance -= 1
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                parsed = parse_client_message(raw)
            except ProtocolError as error:
                client.send(error_message(error))
                continue
            await match.handle(client, parsed)
            if sending.done():
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending
        await match.disconnect(client)
