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
    challenges,
    clubs,
    daily,
    friends,
    games,
    identity,
    learn,
    meta,
    moderation,
    notifications,
    offline,
    ops,
    pages,
    players,
    push,
    quickplay,
    reactions,
    seasons,
    tables,
    talk,
    tournaments,
    turns,
)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    ops.router,
    moderation.router,
    friends.router,
    push.router,
    clubs.router,
    notifications.router,
    challenges.router,
    turns.router,
    meta.router,
    identity.router,
    players.router,
    quickplay.router,
    daily.router,
    reactions.router,
    talk.router,
    bots.router,
    tournaments.router,
    seasons.router,
    learn.router,
    games.router,
    offline.router,
    tables.router,
)
"""Every router of the app, in the order they are matched."""
