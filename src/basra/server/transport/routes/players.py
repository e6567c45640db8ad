"""Profiles and leaderboards.

- ``GET /api/profile`` (auth): the caller's profile;
  ``GET /api/players/{username}``: an account's profile.
- ``GET /api/leaderboard?variant=V&players=N[&teams=1][&limit=L]``: a pool's ratings.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from basra.server.features.profiles import Profiles, check_board_query
from basra.server.transport.auth import SignedIn
from basra.server.transport.deps import provide

__all__ = ["router"]

router = APIRouter()

ProfilesDep = Annotated[Profiles, Depends(provide(Profiles))]


@router.get("/api/profile")
async def my_profile(me: SignedIn, profiles: ProfilesDep) -> dict[str, Any]:
    """The caller's profile."""
    return await profiles.profile(me.identity)


@router.get("/api/players/{username}")
async def player(username: str, profiles: ProfilesDep) -> dict[str, Any]:
    """An account's profile (guests have none: ``no_such_player``)."""
    return await profiles.public_profile(username)


@router.get("/api/leaderboard")
async def leaderboard(request: Request, profiles: ProfilesDep) -> dict[str, Any]:
    """A pool's leaderboard."""
    family, kind, limit = check_board_query(request.query_params)
    return await profiles.leaderboard(family, kind, limit)
