"""Quick play, the daily deal, reactions and the bot API: their part of the web app.

:class:`Play` holds the four around one :class:`~basra.server.service.MatchService`
(:mod:`~basra.server.quickplay`, :mod:`~basra.server.daily`,
:mod:`~basra.server.reactions`, :mod:`~basra.server.botapi`), and
:func:`add_routes` adds their routes to the app (the transport: parse,
authenticate, delegate):

- ``GET /api/quickplay``: how many wait in each pool, and how the pool pairs;
  ``WS /ws/play``: join the pool (:data:`basra.server.quickplay.PROTOCOL`).
- ``GET /api/daily``: today's deals, without their cards (and the caller's
  attempts, with a token); ``GET /api/daily/{deal}``: a deal's leaderboard by
  margin (with the attempts' tables for a caller who played it);
  ``POST /api/daily/{deal}`` (auth) ``{"name"}``: start or resume the
  caller's one attempt (201 when new).
- ``GET /api/reactions``: the reaction codes.
- ``POST /api/bots`` (auth) ``{"name"}``: a bot account and its token;
  ``GET /api/bots`` (auth): the caller's bots; ``POST /api/bots/{id}/token``
  (auth): a new token; ``DELETE /api/bots/{id}`` (auth): revoke.
- ``GET /api/bot/account``, ``GET /api/bot/games`` (bot token): the bot and
  its tables; ``WS /ws/bot``: play (:data:`basra.server.botapi.PROTOCOL`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict

from basra.server.botapi import PROTOCOL_NAME, BotApi, bot_json
from basra.server.daily import Daily
from basra.server.identity import Caller
from basra.server.quickplay import QuickPlay, QuickPlayConfig
from basra.server.quotas import RateLimitError
from basra.server.reactions import CODES, EMOJI, PHRASES, Reactions
from basra.server.service import MatchService
from basra.server.sockets import refuse

__all__ = ["BotForm", "DailyForm", "Play", "add_routes"]


@dataclass
class Play:
    """Quick play, the daily deal, reactions and the bot API of one service."""

    match: MatchService
    config: QuickPlayConfig = field(default_factory=QuickPlayConfig)

    def __post_init__(self) -> None:
        self.quickplay = QuickPlay(self.match, self.config)
        self.daily = Daily(self.match)
        self.reactions = Reactions(self.match)
        self.bots = BotApi(self.match)

    async def start(self) -> None:
        """Start after the service: the daily secret, the pairing loop."""
        await self.daily.start()
        await self.quickplay.start()

    async def close(self) -> None:
        """Stop before the service closes."""
        await self.quickplay.close()
        await self.bots.close()


class BotForm(BaseModel):
    """``POST /api/bots``: the bot account's name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str


class DailyForm(BaseModel):
    """``POST /api/daily/{deal}``: the name to play under (the identity's by default)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = None


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


def add_routes(
    app: FastAPI,
    play: Play,
    caller: Callable[[Request], Awaitable[Caller]],
    address: Callable[[Request | WebSocket], str],
) -> None:
    """Add the routes of quick play, the daily deal, reactions and the bot API."""
    from basra.server.app import read_form  # the app imports this module from create_app

    match = play.match

    async def maybe_caller(request: Request) -> Caller | None:
        return await match.identities.authenticate(_bearer(request))

    @app.get("/api/quickplay")
    async def quickplay() -> Response:
        config = play.config
        return JSONResponse(
            {
                "pools": await play.quickplay.counts(),
                "pair_every": config.pair_every,
                "window": {
                    "start": config.window_start,
                    "growth": config.window_growth,
                    "full_after": config.window_full_after,
                },
                "bot_after": list(config.bot_after_bounds),
                "clock": config.control.to_json(),
            }
        )

    @app.get("/api/daily")
    async def daily_today(request: Request) -> Response:
        return JSONResponse(await play.daily.today_json(await maybe_caller(request)))

    @app.get("/api/daily/{deal_id}")
    async def daily_board(request: Request, deal_id: str) -> Response:
        return JSONResponse(await play.daily.board(deal_id, await maybe_caller(request)))

    @app.post("/api/daily/{deal_id}")
    async def daily_play(request: Request, deal_id: str) -> Response:
        me = await caller(request)
        form = await read_form(request, DailyForm)
        new, attempt = await play.daily.play(me, deal_id, form.name)
        return JSONResponse(
            {"table": attempt.table_id, "url": f"/t/{attempt.table_id}", "status": attempt.status},
            status_code=201 if new else 200,
        )

    @app.get("/api/reactions")
    async def reactions() -> Response:
        rate = match.quotas.limits.reactions_per_identity
        return JSONResponse(
            {
                "codes": list(CODES),
                "phrases": list(PHRASES),
                "emoji": list(EMOJI),
                "limit": {"count": rate.count, "per": rate.per},
            }
        )

    @app.post("/api/bots")
    async def make_bot(request: Request) -> Response:
        me = await caller(request)
        form = await read_form(request, BotForm)
        return JSONResponse(await play.bots.create(me, form.name), status_code=201)

    @app.get("/api/bots")
    async def my_bots(request: Request) -> Response:
        me = await caller(request)
        return JSONResponse({"bots": await play.bots.mine(me)})

    @app.post("/api/bots/{bot_id}/token")
    async def renew_bot(request: Request, bot_id: str) -> Response:
        me = await caller(request)
        return JSONResponse(await play.bots.renew(me, bot_id), status_code=201)

    @app.delete("/api/bots/{bot_id}")
    async def revoke_bot(request: Request, bot_id: str) -> Response:
        me = await caller(request)
        await play.bots.revoke(me, bot_id)
        return JSONResponse({"revoked": True})

    @app.get("/api/bot/account")
    async def bot_account(request: Request) -> Response:
        bot = await play.bots.bot_of(_bearer(request))
        return JSONResponse({**bot_json(bot), "protocol": PROTOCOL_NAME})

    @app.get("/api/bot/games")
    async def bot_games(request: Request) -> Response:
        bot = await play.bots.bot_of(_bearer(request))
        return JSONResponse({"games": await play.bots.games(bot)})

    async def socket(websocket: WebSocket, serve: Callable[..., Awaitable[None]]) -> None:
        where = address(websocket)
        limits = match.quotas.limits
        await websocket.accept()
        try:
            match.quotas.hold(
                "connections", where, limits.connections_per_address, "connections per address"
            )
        except RateLimitError as error:
            await refuse(websocket, error, 1013)
            return
        try:
            await serve(websocket, where)
        finally:
            match.quotas.release("connections", where)

    @app.websocket("/ws/play")
    async def play_now(websocket: WebSocket) -> None:
        await socket(websocket, play.quickplay.serve)

    @app.websocket("/ws/bot")
    async def bot_socket(websocket: WebSocket) -> None:
        await socket(websocket, play.bots.serve)
