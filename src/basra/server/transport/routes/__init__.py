"""The routes: one ``APIRouter`` per part of the app, included once by
:func:`basra.server.app.create_app`.

:data:`ROUTERS` is their order: the quick-play and bot sockets (``/ws/play``,
``/ws/bot``, ``/ws/friends``) come before the table socket (``/ws/{table_id}``), which would
otherwise take their addresses. A new feature's router is one more entry. The app
includes :data:`~basra.server.transport.routes.pages.unknown` after all of them.
"""

from __future__ import annotations

from fastapi import APIRouter

from basra.server.transport.routes import (
    bots,
    daily,
    friends,
    games,
    identity,
    learn,
    meta,
    moderation,
    offline,
    ops,
    pages,
    players,
    quickplay,
    reactions,
    tables,
    talk,
    tournaments,
)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    ops.router,
    moderation.router,
    friends.router,
    meta.router,
    identity.router,
    players.router,
    quickplay.router,
    daily.router,
    reactions.router,
    talk.router,
    bots.router,
    tournaments.router,
    learn.router,
    games.router,
    offline.router,
    tables.router,
)
"""Every router of the app, in the order they are matched."""
