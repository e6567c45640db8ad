"""Clubs (:mod:`basra.server.features.clubs`).

- ``GET /api/clubs[?q=TEXT]``: ``{"clubs": [{slug, name, description, open, members}]}``,
  most members first (those whose name holds ``q``);
- ``POST /api/clubs`` (auth) ``{"name", "description", "open"}``: make a club (201; its page);
- ``GET /api/clubs/{slug}`` (a token optional): the club's page ``{slug, name,
  description, open, members, owner, member_list: [{name, username, code, role, since,
  rating, status?, table?}], games, events, you: {role, invited, requested}, invites,
  requests}`` (``status`` to members only; ``invites`` and ``requests`` to leaders only);
- ``POST /api/clubs/{slug}/join``, ``.../decline``, ``.../leave`` (auth): what the caller is
  after, ``{role, invited, requested}``;
- ``POST /api/clubs/{slug}/edit`` ``{"description"?, "open"?}``, ``.../invite``,
  ``.../remove``, ``.../role`` (``{"role": "leader" | "member"}`` too), ``.../hand-over``
  (auth, a leader; the owner for ``role`` and ``hand-over``), naming the person by
  ``{"username"}``, ``{"code"}`` or ``{"table", "seat"}``: the page after;
- ``GET /api/clubs/of/{username}``: ``{"clubs": [{..., role}]}`` (a profile's clubs);
- ``GET /api/clubs/mine`` (auth): the caller's clubs and the invitations waiting for them;
- ``POST /api/clubs/{slug}/events`` (auth, a leader): a tournament's form (as ``POST
  /api/tournaments``), and ``battle: {"clubs": [slugs], "best": N}`` for a club battle (an
  arena of this club and those); 201 ``{"id", "invite", "kind", "clubs", "best"}``. Only
  the clubs' members enter (``not_club_member``, 403);
- ``GET /api/clubs/battles/{event_id}``: a battle's standings, ``{"event", "name",
  "status", "best", "clubs": [{slug, name, score, rank, players: [{name, username, club,
  points, counted}]}], "players": [...]}``;
- ``GET /api/clubs/weekly``: the week's club leaderboard, ``{"since", "until", "clubs":
  [{slug, name, ..., battle_points, rated_wins, points}]}``;
- ``GET /clubs`` and ``GET /club/{slug}``: the page (static/clubs.js).

Refusals: ``bad_club`` (422, naming the ``field``), ``club_taken`` (409),
``no_such_club`` (404), ``not_club_leader`` (403), ``name_not_allowed``,
``no_such_player``, ``rate_limited``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from basra.server.features.clubs import Clubs
from basra.server.transport.auth import MaybeSignedIn, SignedIn
from basra.server.transport.deps import address, json_body, provide
from basra.server.transport.routes.pages import page

__all__ = ["router"]

router = APIRouter()
router.add_api_route("/clubs", page, methods=["GET"], include_in_schema=False)
router.add_api_route("/club/{slug}", page, methods=["GET"], include_in_schema=False)

ClubsDep = Annotated[Clubs, Depends(provide(Clubs))]
Body = Annotated[Any, Depends(json_body)]
Address = Annotated[str, Depends(address)]


@router.get("/api/clubs")
async def listing(request: Request, service: ClubsDep) -> dict[str, Any]:
    """Clubs, most members first, those whose name holds ``q``."""
    return await service.search(request.query_params.get("q"))


@router.post("/api/clubs")
async def make(me: SignedIn, body: Body, where: Address, service: ClubsDep) -> JSONResponse:
    """Make a club."""
    return JSONResponse(await service.make(me.identity, body, where), status_code=201)


@router.get("/api/clubs/mine")
async def mine(me: SignedIn, service: ClubsDep) -> dict[str, Any]:
    """The caller's clubs and the invitations waiting for them."""
    return await service.mine(me.identity)


@router.get("/api/clubs/weekly")
async def weekly(service: ClubsDep) -> dict[str, Any]:
    """The week's club leaderboard."""
    return await service.weekly()


@router.get("/api/clubs/battles/{event_id}")
async def battle(event_id: str, service: ClubsDep) -> dict[str, Any]:
    """A club battle's standings per club and per player."""
    return await service.battle(event_id)


@router.get("/api/clubs/of/{username}")
async def of(username: str, service: ClubsDep) -> dict[str, Any]:
    """A person's clubs."""
    return await service.of_username(username)


@router.get("/api/clubs/{slug}")
async def club(slug: str, me: MaybeSignedIn, service: ClubsDep) -> dict[str, Any]:
    """The club's page."""
    return await service.page(slug, me.identity if me else None)


@router.post("/api/clubs/{slug}/join")
async def join(slug: str, me: SignedIn, where: Address, service: ClubsDep) -> dict[str, Any]:
    """Join, accept an invitation, or ask to join."""
    return await service.join(me.identity, slug, where)


@router.post("/api/clubs/{slug}/decline")
async def decline(slug: str, me: SignedIn, service: ClubsDep) -> dict[str, Any]:
    """Decline an invitation or withdraw a request."""
    return await service.decline(me.identity, slug)


@router.post("/api/clubs/{slug}/leave")
async def leave(slug: str, me: SignedIn, service: ClubsDep) -> dict[str, Any]:
    """Leave the club."""
    return await service.leave(me.identity, slug)


@router.post("/api/clubs/{slug}/edit")
async def edit(slug: str, me: SignedIn, body: Body, service: ClubsDep) -> dict[str, Any]:
    """Change the description or whether the club is open."""
    return await service.edit(me.identity, slug, body)


@router.post("/api/clubs/{slug}/invite")
async def invite(slug: str, me: SignedIn, body: Body, service: ClubsDep) -> dict[str, Any]:
    """Invite a person, or accept their request."""
    return await service.invite(me.identity, slug, body)


@router.post("/api/clubs/{slug}/remove")
async def remove(slug: str, me: SignedIn, body: Body, service: ClubsDep) -> dict[str, Any]:
    """Remove a member, refuse a request, or take back an invitation."""
    return await service.remove(me.identity, slug, body)


@router.post("/api/clubs/{slug}/role")
async def role(slug: str, me: SignedIn, body: Body, service: ClubsDep) -> dict[str, Any]:
    """Name a leader, or make a leader a member again."""
    return await service.role(me.identity, slug, body)


@router.post("/api/clubs/{slug}/hand-over")
async def hand_over(slug: str, me: SignedIn, body: Body, service: ClubsDep) -> dict[str, Any]:
    """Hand the club over to a member."""
    return await service.hand_over(me.identity, slug, body)


@router.post("/api/clubs/{slug}/events")
async def make_event(
    slug: str, me: SignedIn, body: Body, where: Address, service: ClubsDep
) -> JSONResponse:
    """Make a club-only tournament, or a club battle."""
    return JSONResponse(await service.make_event(me, slug, body, where), status_code=201)
