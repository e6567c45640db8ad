"""Seasons and leagues (:mod:`basra.server.features.seasons`).

- ``GET /api/seasons?family=F[&division=D]``: the running season of a variant family
  (``family``: a family or a variant; egyptian when absent): ``{"family", "families",
  "season": {number, starts, ends}, "divisions": [keys, lowest first], "division": the one
  shown, "you": {division, line, last} or null (signed out), "size" (how many stand in
  it), "promotion_line", "relegation_line" (ranks, or null), "standings": [{rank, name,
  username, points, games, wins, move, you}], "points"}``. The division shown is ``D``,
  else the caller's; past its first 50, only the caller's neighbours and the lines' are
  listed.
- ``GET /api/seasons/badges[?username=U]``: the badges of an account, or of the caller:
  ``{"badges": [{family, season, division, division_key, rank, points, move}]}``.
- ``GET /api/seasons/{family}/{season}``: a closed season's final table.
- ``GET /seasons``: the page (static/seasons.js).

Refusals: ``bad_request`` (422, naming the ``field``), ``no_such_season``,
``no_such_player`` (404).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from basra.server.errors import ProtocolError
from basra.server.features.accounts import username_key
from basra.server.features.seasons import Seasons, check_family
from basra.server.transport.auth import MaybeSignedIn
from basra.server.transport.deps import provide
from basra.server.transport.routes.pages import page

__all__ = ["router"]

router = APIRouter()

SeasonsDep = Annotated[Seasons, Depends(provide(Seasons))]

router.add_api_route("/seasons", page, methods=["GET"], include_in_schema=False)


def _number(value: str | None, field: str) -> int | None:
    if value is None or value == "":
        return None
    if not value.isdigit() or len(value) > 6:
        raise ProtocolError(
            "bad_request", f"{field} must be a whole number, not {value[:20]!r}", {"field": field}
        )
    return int(value)


@router.get("/api/seasons")
async def standing(request: Request, me: MaybeSignedIn, service: SeasonsDep) -> dict[str, Any]:
    """The running season, its standings and the caller's place."""
    query = request.query_params
    family = check_family(query.get("family"))
    division = _number(query.get("division"), "division")
    identity = me.identity if me is not None else None
    return await service.standing(family, identity, division, service.clock.now())


@router.get("/api/seasons/badges")
async def badges(request: Request, me: MaybeSignedIn, service: SeasonsDep) -> dict[str, Any]:
    """An account's badges (the caller's when no username is given)."""
    username = request.query_params.get("username")
    if username:
        return {"badges": await service.badges_of_username(username_key(username[:64]))}
    if me is None:
        raise ProtocolError("bad_request", "give a username, or sign in", {"field": "username"})
    return {"badges": await service.badges(me.identity)}


@router.get("/api/seasons/{family}/{season}")
async def final(family: str, season: str, service: SeasonsDep) -> dict[str, Any]:
    """A closed season's final table."""
    number = _number(season, "season")
    return await service.final(check_family(family), number or 0)
