"""The transport: FastAPI routes and the WebSocket endpoint, around a :class:`MatchService`.

Handlers only parse, authenticate and delegate. The page is static (no build
step): ``/`` and the page routes serve ``static/index.html``, which loads the
script, the styles, the card faces and the fonts from ``/static``.

HTTP API (JSON; ``Authorization: Bearer <device token>`` where marked *auth*):

- ``GET /api/variants``: the presets, their settings and descriptions.
- ``POST /api/rules``: check custom settings ``{"variant", "rules"}``.
- ``POST /api/identity``: a new identity and this device's token
  (``{"legacy_secret"}`` exchanges a secret of the old scheme, once).
- ``GET /api/identity`` (auth): the identity's name and signed-in devices;
  ``DELETE /api/identity`` (auth) revokes it and every device.
- ``POST /api/identity/transfer`` (auth): a one-time code for another device;
  ``POST /api/identity/transfer/preview`` ``{"code"}``: whose identity it is;
  ``POST /api/identity/transfer/accept`` ``{"code"}``: a token for this device.
- ``DELETE /api/devices/{id}`` (auth): sign one of the identity's devices out.
- ``PATCH /api/identity`` (auth) ``{"name"}``: change the display name.
- ``POST /api/account`` (auth) ``{"username", "password"}``: claim a username
  for the caller's identity; ``POST /api/account/login`` ``{"username",
  "password"}``: a token for this device, signed in to that account's identity.
- ``GET /api/profile`` (auth): the caller's profile; ``GET /api/players/{username}``:
  an account's profile.
- ``GET /api/leaderboard?variant=V&players=N[&teams=1][&limit=L]``: a pool's ratings.
- ``POST /api/tables`` (auth): create a table (:class:`~basra.server.forms.TableForm`).
- ``GET /api/tables``: tables to join or watch; ``GET /api/tables/{id}``: one.
- ``GET /api/games`` (auth): the caller's games.
- ``GET /api/games/{id}/record``: the record (RECORD.md) of a finished game.
- ``GET /api/games/{id}/replay``: every step of a finished game.
- ``POST /api/games/{id}/review`` (auth): ask for a finished game's review (a
  background job, :mod:`basra.server.reviews`); ``GET /api/games/{id}/review``:
  where it stands (``status``, ``done`` of ``total`` decisions) and, once done,
  the ``review`` itself.
- ``WS /ws/{id}``: play and watch (see :mod:`basra.server.protocol`).
- Quick play, the daily deal, reactions and the bot API: :mod:`basra.server.play`.

Every refusal is ``{"error": code, "message": ..., ...}``: 400 for a bad
request, 401 ``signed_out``, 404, 409 ``not_over``, 413 ``too_large``, 422
``bad_request`` naming the ``field`` of the wrong JSON type, 429
``rate_limited`` with ``Retry-After``; a bad username or password at sign-in is
401 ``bad_login`` either way. Request bodies are refused while they
stream in, as soon as they pass :data:`MAX_BODY` bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.websockets import WebSocketDisconnect

from basra.bots import LEVELS
from basra.rules import PRESETS, SETTING_NAMES, VARIANT_DESCRIPTIONS
from basra.server import profiles, queries
from basra.server.clocks import CONTROL_BOUNDS, DEFAULT_CONTROL, forfeit_rule
from basra.server.forms import (
    RATED_SETTINGS,
    RULE_BOUNDS,
    TableForm,
    check_rules,
    check_table_form,
)
from basra.server.identity import Caller, Issued
from basra.server.offline import offline_router
from basra.server.protocol import (
    ProtocolError,
    check_json,
    error_message,
    parse_client_message,
)
from basra.server.pubsub import open_hub
from basra.server.quickplay import QuickPlayConfig
from basra.server.quotas import Allowance, Quotas, RateLimitError, address_key
from basra.server.ratings import FAMILIES
from basra.server.reviews import ReviewConfig, ReviewService
from basra.server.service import Client, MatchService, ServiceConfig
from basra.server.sockets import FLUSH_TIMEOUT
from basra.server.store import open_store

__all__ = ["MAX_BODY", "AppConfig", "BodyGuard", "create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HELLO_TIMEOUT = 15.0
"""Seconds a new connection has to say hello."""
MAX_BODY = 16_384
"""Largest HTTP request body accepted, in bytes."""
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
STATUS_OF = {
    "rate_limited": 429,
    "signed_out": 401,
    "no_such_table": 404,
    "bad_code": 404,
    "no_such_device": 404,
    "no_such_player": 404,
    "bad_login": 401,
    "has_account": 409,
    "username_taken": 409,
    "bad_username": 422,
    "bad_password": 422,
    "not_over": 409,
    "too_large": 413,
    "bad_request": 422,
    "play_first": 403,
    "already_played": 409,
    "not_today": 409,
    "no_such_deal": 404,
    "bot_name_taken": 409,
    "bad_bot_name": 422,
    "no_such_bot": 404,
}
"""HTTP status of each refusal code (400 for any other)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
M = TypeVar("M", bound=BaseModel)


@dataclass
class AppConfig:
    """Where the app keeps its games and how it behaves."""

    database: str = "memory"
    """``memory``, a SQLite path, or a database URL (``postgresql://...``)."""
    redis: str | None = None
    """A Redis URL to share tables between several processes."""
    service: ServiceConfig = field(default_factory=ServiceConfig)
    quickplay: QuickPlayConfig = field(default_factory=QuickPlayConfig)
    """How quick play pairs people (:mod:`basra.server.quickplay`)."""
    reviews: ReviewConfig = field(default_factory=ReviewConfig)
    """How finished games are reviewed (:mod:`basra.server.reviews`)."""


def refusal(error: ProtocolError) -> JSONResponse:
    """The HTTP answer to a refused request."""
    body: dict[str, Any] = {"error": error.code, "message": error.message, **(error.extra or {})}
    headers = {}
    if isinstance(error, RateLimitError):
        headers["Retry-After"] = str(error.retry_after)
    return JSONResponse(body, status_code=STATUS_OF.get(error.code, 400), headers=headers)


class BodyGuard:
    """ASGI middleware for the HTTP API: a rate per client address, and bodies refused
    while they stream in, once past ``limit`` bytes (never read whole first)."""

    def __init__(self, app: Callable[..., Awaitable[None]], quotas: Quotas, limit: int) -> None:
        self.app = app
        self.quotas = quotas
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then hand it on with its body replayed."""
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = address_key(client[0] if client else None)
        try:
            limits = self.quotas.limits
            self.quotas.take("http", address, limits.http_per_address, "requests per address")
        except RateLimitError as error:
            await refusal(error)(scope, receive, send)
            return
        too_large = ProtocolError("too_large", f"request bodies must be at most {self.limit} bytes")
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await refusal(too_large)(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await refusal(too_large)(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class RulesForm(BaseModel):
    """``POST /api/rules``: a variant and settings to check."""

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str = "egyptian"
    rules: dict[str, Any] | None = None


class IdentityForm(BaseModel):
    """``POST /api/identity``: optionally, a secret of the old scheme to exchange."""

    model_config = ConfigDict(extra="forbid", strict=True)
    legacy_secret: str | None = None


class CodeForm(BaseModel):
    """A transfer code typed or opened on the receiving device."""

    model_config = ConfigDict(extra="forbid", strict=True)
    code: str


class AccountForm(BaseModel):
    """A username and a password: to claim an account, or to sign in to one."""

    model_config = ConfigDict(extra="forbid", strict=True)
    username: str
    password: str


class NameForm(BaseModel):
    """``PATCH /api/identity``: a new display name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str


def _field(error: dict[str, Any]) -> str:
    return ".".join(str(part) for part in error.get("loc", ())) or "body"


async def read_form(request: Request, model: type[M]) -> M:
    """The request's JSON body as ``model``: 422 naming the field of a wrong type."""
    body = await request.body()
    data = check_json(body or b"{}", MAX_BODY, "the request body") if body else {}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        first = errors[0]
        name = _field(dict(first))
        raise ProtocolError(
            "bad_request",
            f"{name}: {first['msg']}",
            {"field": name, "fields": [_field(dict(e)) for e in errors]},
        ) from None


def _issued(issued: Issued) -> dict[str, Any]:
    return {"token": issued.token, "device": issued.caller.device, "name": issued.caller.name}


def create_app(config: AppConfig | None = None, service: MatchService | None = None) -> FastAPI:
    """The web app. Pass a ready ``service`` (tests) or let ``config`` build one."""
    config = config or AppConfig()
    from basra.server import play as extra

    match = service or MatchService(
        open_store(config.database), open_hub(config.redis), config.service
    )
    extras = extra.Play(match, config.quickplay)

    reviews = ReviewService(match, config.redis, config.reviews)
    match.review_accuracy = reviews.accuracy_of  # profiles show the coach's accuracy

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await match.start()
        await reviews.start()
        await extras.start()
        try:
            yield
        finally:
            await extras.close()
            await reviews.close()
            await match.close()

    app = FastAPI(title="basra", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = match
    app.state.play = extras
    app.state.reviews = reviews
    app.add_middleware(BodyGuard, quotas=match.quotas, limit=MAX_BODY)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(offline_router(STATIC, authenticate=match.identities.authenticate))

    @app.exception_handler(ProtocolError)
    async def refused(_: Request, error: ProtocolError) -> JSONResponse:
        return refusal(error)

    index = STATIC / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    for route in PAGE_ROUTES:
        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)

    def address(request: Request | WebSocket) -> str:
        return address_key(request.client.host if request.client else None)

    async def caller(request: Request) -> Caller:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else None
        found = await match.identities.authenticate(token)
        if found is None:
            raise ProtocolError("signed_out", "sign in first: POST /api/identity gives a token")
        return found

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        scheduler = match.scheduler
        return {
            "ok": True,
            "tables": len(match.live),
            "moves": match.moves,
            "jobs": {"running": scheduler.running, "queued": scheduler.queued},
            "reviews": {"running": len(reviews.running), "finished": reviews.finished},
        }

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
            "bounds": {name: list(bound) for name, bound in RULE_BOUNDS.items()},
            "families": {name: list(variants) for name, variants in FAMILIES.items()},
            "clock_bounds": {name: list(bound) for name, bound in CONTROL_BOUNDS.items()},
            "rated": {
                "settings": sorted(RATED_SETTINGS),
                "clock": DEFAULT_CONTROL.to_json(),
                "forfeit": forfeit_rule(),
            },
        }

    @app.post("/api/rules")
    async def check(request: Request) -> Response:
        form = await read_form(request, RulesForm)
        rules, overrides = check_rules(form.variant, form.rules)
        return JSONResponse(
            {"variant": form.variant, "rules": rules.to_dict(), "overrides": overrides}
        )

    @app.post("/api/identity")
    async def new_identity(request: Request) -> Response:
        form = await read_form(request, IdentityForm)
        agent = request.headers.get("user-agent")
        issued = await match.identities.create(address(request), agent, form.legacy_secret)
        return JSONResponse(_issued(issued), status_code=201)

    @app.get("/api/identity")
    async def my_identity(request: Request) -> Response:
        me = await caller(request)
        devices = await match.identities.devices(me)
        username = await match.accounts.username_of(me.identity)
        return JSONResponse(
            {"name": me.name, "username": username, "device": me.device, "devices": devices}
        )

    @app.patch("/api/identity")
    async def rename(request: Request) -> Response:
        me = await caller(request)
        form = await read_form(request, NameForm)
        return JSONResponse({"name": await match.accounts.rename(me, form.name)})

    @app.post("/api/account")
    async def claim(request: Request) -> Response:
        me = await caller(request)
        form = await read_form(request, AccountForm)
        username = await match.accounts.claim(me, form.username, form.password, address(request))
        return JSONResponse({"username": username}, status_code=201)

    @app.post("/api/account/login")
    async def login(request: Request) -> Response:
        form = await read_form(request, AccountForm)
        agent = request.headers.get("user-agent")
        issued, username = await match.accounts.sign_in(
            form.username, form.password, address(request), agent
        )
        return JSONResponse({**_issued(issued), "username": username}, status_code=201)

    @app.get("/api/profile")
    async def my_profile(request: Request) -> Response:
        me = await caller(request)
        return JSONResponse(await profiles.profile(match.store, me.identity, match.review_accuracy))

    @app.get("/api/players/{username}")
    async def player(username: str) -> Response:
        return JSONResponse(
            await profiles.public_profile(match.store, username, match.review_accuracy)
        )

    @app.get("/api/leaderboard")
    async def leaderboard(request: Request) -> Response:
        family, kind, limit = profiles.check_board_query(request.query_params)
        return JSONResponse(await profiles.leaderboard(match.store, family, kind, limit))

    @app.delete("/api/identity")
    async def revoke_identity(request: Request) -> Response:
        me = await caller(request)
        await match.sign_out(await match.identities.revoke(me))
        return JSONResponse({"revoked": True})

    @app.post("/api/identity/transfer")
    async def transfer(request: Request) -> Response:
        me = await caller(request)
        return JSONResponse(await match.identities.transfer_code(me), status_code=201)

    @app.post("/api/identity/transfer/preview")
    async def preview(request: Request) -> Response:
        form = await read_form(request, CodeForm)
        return JSONResponse(await match.identities.preview(form.code, address(request)))

    @app.post("/api/identity/transfer/accept")
    async def accept(request: Request) -> Response:
        form = await read_form(request, CodeForm)
        agent = request.headers.get("user-agent")
        issued = await match.identities.accept(form.code, address(request), agent)
        return JSONResponse(_issued(issued), status_code=201)

    @app.delete("/api/devices/{device_id}")
    async def sign_out(request: Request, device_id: str) -> Response:
        me = await caller(request)
        gone = await match.identities.sign_out(me, [device_id[:64]])
        if not gone:
            raise ProtocolError("no_such_device", f"you have no signed-in device {device_id!r}")
        await match.sign_out(gone)
        return JSONResponse({"signed_out": gone})

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        me = await caller(request)
        form = await read_form(request, TableForm)
        name, spec = check_table_form(form)
        seated = await extras.bots.seat(me, spec) if spec.bots else None
        row = await match.create_table(me, address(request), name, spec, seated)
        if seated:
            await extras.bots.seated(row.id, seated)
        return JSONResponse({"id": row.id, "url": f"/t/{row.id}"}, status_code=201)

    @app.get("/api/tables")
    async def lobby() -> dict[str, Any]:
        return {"tables": await queries.lobby(match.store)}

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> Response:
        info = await match.table_info(table_id)
        if info is None:
            raise ProtocolError("no_such_table", f"there is no table {table_id[:40]!r}")
        return JSONResponse(info)

    @app.get("/api/games")
    async def games(request: Request) -> Response:
        me = await caller(request)
        return JSONResponse({"games": await queries.games_of(match.store, me.identity)})

    async def may_see(request: Request, table_id: str) -> None:
        """A daily deal's games stay hidden until the caller has played it."""
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else None
        await extras.daily.may_see(table_id, await match.identities.authenticate(token))

    @app.get("/api/games/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        await may_see(request, table_id)
        data = await queries.record(match.store, table_id)
        return JSONResponse(
            data,
            headers={"Content-Disposition": f'attachment; filename="basra-{table_id}.json"'},
        )

    @app.get("/api/games/{table_id}/replay")
    async def replay(request: Request, table_id: str) -> Response:
        await may_see(request, table_id)
        return JSONResponse(await queries.replay(match.store, table_id))

    def review_answer(status: dict[str, Any], data: str | None, code: int = 200) -> Response:
        """The status, with the stored review spliced in as it is (never parsed again)."""
        text = json.dumps(status)
        if data is not None:
            text = text[:-1] + ', "review": ' + data + "}"
        return Response(text, status_code=code, media_type="application/json")

    @app.post("/api/games/{table_id}/review")
    async def ask_review(request: Request, table_id: str) -> Response:
        me = await caller(request)
        await may_see(request, table_id)  # a review shows every hand
        status, data = await reviews.request(me, table_id)
        return review_answer(status, data, 200 if status["status"] == "done" else 202)

    @app.get("/api/games/{table_id}/review")
    async def review(request: Request, table_id: str) -> Response:
        await may_see(request, table_id)
        status, data = await reviews.status(table_id)
        return review_answer(status, data)

    extra.add_routes(app, extras, caller, address)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        where = address(websocket)
        limits = match.quotas.limits
        await websocket.accept()
        try:
            match.quotas.hold(
                "connections", where, limits.connections_per_address, "connections per address"
            )
        except RateLimitError as error:
            await _refuse(websocket, error, 1013)
            return
        try:
            await _serve_socket(match, websocket, table_id, where)
        finally:
            match.quotas.release("connections", where)

    return app


async def _refuse(websocket: WebSocket, error: ProtocolError, code: int) -> None:
    """Say why, then close the connection."""
    with contextlib.suppress(Exception):
        await websocket.send_json(error_message(error))
        await websocket.close(code=code)


CLOSE_CODES = {"no_such_table": 4004, "signed_out": 4001, "rate_limited": 1013}
"""WebSocket close codes after a refused hello (4000 for any other)."""


def _frame(message: Message) -> str | bytes:
    """A received frame's text, or its bytes for a binary frame."""
    text = message.get("text")
    return text if isinstance(text, str) else bytes(message.get("bytes") or b"")


async def _hello(match: MatchService, websocket: WebSocket, table_id: str, where: str) -> Client:
    """The first message must be a text ``hello``; returns the attached client."""
    message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    hello = parse_client_message(_frame(message))
    if hello["type"] != "hello":
        raise ProtocolError("bad_message", "say hello first: {type: hello, token, name}")
    caller = await match.identities.authenticate(hello.get("token"))
    client = Client(table_id, caller, hello.get("name"), where)
    await match.connect(client)
    return client


async def _serve_socket(
    match: MatchService, websocket: WebSocket, table_id: str, where: str
) -> None:
    """One connection: hello first, then messages until it closes."""
    try:
        client = await _hello(match, websocket, table_id, where)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        with contextlib.suppress(Exception):
            await websocket.close(code=4000)
        return
    except ProtocolError as error:
        await _refuse(websocket, error, CLOSE_CODES.get(error.code, 4000))
        return

    close_code = 4008  # 1008 once the client floods

    async def writer() -> None:
        while True:
            text = await client.outbox.get()
            if text is None:
                await websocket.close(code=close_code)
                return
            await websocket.send_text(text)

    sending = asyncio.create_task(writer())
    allowance = Allowance(match.quotas.limits.messages_per_connection)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            wait = allowance.take()
            if wait is not None:
                if allowance.deaf:  # it does not listen: stop hearing it, once told why
                    close_code = 1008
                    client.close()  # after the refusals queued (frames read in a burst
                    # would otherwise close it before the writer ran at all)
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(asyncio.shield(sending), FLUSH_TIMEOUT)
                    break
                client.send(
                    error_message(RateLimitError("messages", wait, "messages per connection"))
                )
                continue
            try:
                parsed = parse_client_message(_frame(message))
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
