"""The web app: the environment's parts behind FastAPI routes (``basra serve``).

:func:`create_app` takes an :class:`~basra.server.env.Env` (or the
:class:`~basra.server.env.AppConfig` to make one), starts and stops it with the
app, guards the HTTP API (:class:`~basra.server.transport.guard.BodyGuard`),
serves the page's files under ``/static``, answers every refusal in one way
(:mod:`basra.server.transport.errors`) and includes every router of
:data:`~basra.server.transport.routes.ROUTERS`, then, last, the one that answers
an unknown address (:data:`~basra.server.transport.routes.pages.unknown`). The
routes and what they answer are in each router's module, and in docs/WEB.md.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

from basra.server.env import AppConfig, Env
from basra.server.features.pairing import QuickPlayConfig
from basra.server.features.reviews import ReviewConfig
from basra.server.ops.logs import RequestIds
from basra.server.quotas import Limits, Rate
from basra.server.table.live import ServiceConfig
from basra.server.transport import errors
from basra.server.transport.deps import MAX_BODY
from basra.server.transport.guard import BodyGuard
from basra.server.transport.logs import quiet_uvicorn
from basra.server.transport.routes import ROUTERS, pages

__all__ = [
    "MAX_BODY",
    "AppConfig",
    "Env",
    "Limits",
    "QuickPlayConfig",
    "Rate",
    "ReviewConfig",
    "ServiceConfig",
    "create_app",
]


def create_app(config: AppConfig | None = None, env: Env | None = None) -> FastAPI:
    """The web app. Pass a ready ``env`` (tests: two on one store) or let ``config`` make one."""
    env = env or Env(config)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await env.start()
        try:
            yield
        finally:
            await env.close()

    quiet_uvicorn()
    app = FastAPI(title="basra", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.env = env
    app.state.services = env.services()
    app.add_middleware(BodyGuard, quotas=env.quotas, limit=MAX_BODY)
    app.add_middleware(RequestIds)
    # The page's scripts, styles and JSON compressed for browsers that take gzip (a slow
    # phone's first visit: 454 KiB became about 130); what is compressed already (the
    # offline runtime's files) passes as it is, and so does every WebSocket.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    errors.install(app, env.metrics.error)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(pages.unknown)  # last: it takes every address no router above took
    return app
