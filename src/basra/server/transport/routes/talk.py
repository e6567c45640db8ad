"""Table talk (:mod:`basra.server.features.talk`); the lines themselves go over the table's
socket (``say`` and ``talk`` messages).

- ``GET /api/talk`` (*auth*): the caller's ``{"off", "mutes": [{"id", "name"}],
  "silenced": {"until"} | null, "phrases", "max_length", "limit"}``.
- ``POST /api/talk/settings`` ``{"off": bool}``: turn one's table talk off or on.
- ``POST /api/talk/mute`` ``{"table", "seat"}``: stop hearing the person in that seat,
  at every table, until ``POST /api/talk/unmute`` (``{"table", "seat"}`` or ``{"id"}``
  from the list). Each answers the caller's settings.
- ``GET /api/tables/{id}/talk``: ``{"open", "spectators"}``: whether talk is open at the
  table (closed at a rated tournament game unless its event opens it) and whether its
  spectators read it.

Refusals: ``bad_talk`` (422, naming the ``field``), ``no_such_table``, ``signed_out``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from basra.server.features.talk import Talk
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import json_body, provide

__all__ = ["router"]

router = APIRouter()

TalkDep = Annotated[Talk, Depends(provide(Talk))]
Body = Annotated[Any, Depends(json_body)]


@router.get("/api/talk")
async def settings(me: SignedIn, talk: TalkDep) -> dict[str, Any]:
    """The caller's talk settings and mutes."""
    return await talk.settings(me.identity)


@router.post("/api/talk/settings")
async def turn(me: SignedIn, body: Body, talk: TalkDep) -> dict[str, Any]:
    """Turn the caller's table talk off or on."""
    return await talk.turn(me.identity, body)


@router.post("/api/talk/mute")
async def mute(me: SignedIn, body: Body, talk: TalkDep) -> dict[str, Any]:
    """Mute the person in a seat."""
    return await talk.mute(me.identity, body)


@router.post("/api/talk/unmute")
async def unmute(me: SignedIn, body: Body, talk: TalkDep) -> dict[str, Any]:
    """Hear a muted person again."""
    return await talk.unmute(me.identity, body)


@router.get("/api/tables/{table_id}/talk")
async def at_table(table_id: str, talk: TalkDep) -> dict[str, Any]:
    """Whether talk is open at a table, and whether its spectators read it."""
    return await talk.at_table(table_id)
