"""Operations: ``GET /readyz``, ``GET /metrics`` and the operator's ``/admin`` API
(:mod:`basra.server.ops`; ``GET /healthz`` is in :mod:`.pages`).

- ``GET /readyz``: 200 ``{"ready": true, ...}`` when the database and Redis answer and the
  schema is current, else 503 with each check's result (and during a drain);
- ``GET /metrics``: the Prometheus text format (allowed addresses only, else 403);
- ``/admin`` (allowed addresses and ``Authorization: Bearer <admin token>``; what
  ``basra admin`` calls): ``POST /admin/drain``; ``GET
  /admin/reports[?all=1&limit=N&after=CURSOR]`` (a page, newest first, with the
  ``next`` page's cursor, null on the last), ``POST /admin/reports/{id}/close``
  ``{"resolution"}``; ``POST /admin/tables/{id}/close``;
  ``POST /admin/identities/{who}/suspend`` ``{"hours", "reason"}``,
  ``.../ban`` ``{"reason"}``, ``.../lift``, ``.../rename`` ``{"name"}`` (``who``: an
  identity id or ``@username``); ``POST /admin/tournaments/{id}/cancel`` (an event not
  finished ends as ``cancelled``, the tables of its games in play end as abandoned),
  ``POST /admin/tournaments/{id}/rename`` ``{"name"}`` (a new title, checked as a
  maker's is); ``POST /admin/identities/{who}/silence`` ``{"hours" | null, "reason"}``
  (no table talk until then, or until ``.../unsilence``: :mod:`basra.server.features.talk`).
- ``POST /admin/clubs/{slug}/remove`` ``{"reason"}`` (the club is shown nowhere and joined
  by nobody; kept for the record) and ``POST /admin/clubs/{slug}/clear-description``
  (:mod:`basra.server.features.clubs`).
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from basra.server.errors import ProtocolError
from basra.server.features.clubs import Clubs
from basra.server.features.moderation import Moderation
from basra.server.features.talk import Talk
from basra.server.features.tournaments import Tournaments
from basra.server.ops.control import Operations
from basra.server.ops.metrics import CONTENT_TYPE
from basra.server.transport.auth import bearer
from basra.server.transport.deps import json_body, provide

__all__ = ["router"]

router = APIRouter()
Ops = Annotated[Operations, Depends(provide(Operations))]
Mod = Annotated[Moderation, Depends(provide(Moderation))]
Events = Annotated[Tournaments, Depends(provide(Tournaments))]
ClubsDep = Annotated[Clubs, Depends(provide(Clubs))]
Talks = Annotated[Talk, Depends(provide(Talk))]
REPORTS_PAGE = 500
"""The most reports one page of ``GET /admin/reports`` holds."""


def _host(request: Request) -> str | None:
    return request.client.host if request.client else None


def _admin(request: Request, ops: Operations) -> None:
    ops.check(_host(request), bearer(request), admin=True)


async def _body(request: Request) -> dict[str, Any]:
    """The body, read once the caller is known to be the admin."""
    body = await json_body(request)
    if not isinstance(body, dict):
        raise ProtocolError("bad_request", "send a JSON object")
    return body


@router.get("/readyz")
async def readyz(ops: Ops) -> JSONResponse:
    """Whether this process can serve now."""
    report = await ops.readiness.report(ops.drain.draining)
    return JSONResponse(report, status_code=200 if report["ready"] else 503)


@router.get("/metrics")
async def metrics(request: Request, ops: Ops) -> Response:
    """The Prometheus text format."""
    ops.check(_host(request), None, admin=False)
    return Response(ops.metrics.expose(), media_type=CONTENT_TYPE)


@router.post("/admin/drain")
async def drain(request: Request, ops: Ops) -> JSONResponse:
    """Start this process's drain (it exits when done; systemd starts it again)."""
    _admin(request, ops)
    started = ops.drain.start("basra admin drain")
    return JSONResponse({"draining": started}, status_code=202 if started else 409)


@router.get("/admin/reports")
async def reports(request: Request, ops: Ops, moderation: Mod) -> dict[str, Any]:
    """A page of reports, newest first (open ones unless ``all=1``; ``limit``, 1 to
    500, 100 unless given; ``after``: the cursor ``next`` of the page before)."""
    _admin(request, ops)
    query = request.query_params
    everything = query.get("all") == "1"
    limit = query.get("limit", "100")
    if not limit.isdigit() or not 1 <= int(limit) <= REPORTS_PAGE:
        raise ProtocolError(
            "bad_request", f"limit: a whole number, 1 to {REPORTS_PAGE}", {"field": "limit"}
        )
    after = query.get("after")
    page, following = await moderation.reports(
        open_only=not everything, limit=int(limit), after=after[:40] if after else None
    )
    return {"reports": page, "next": following}


@router.post("/admin/reports/{report_id}/close")
async def close_report(
    report_id: str, request: Request, ops: Ops, moderation: Mod
) -> dict[str, Any]:
    """Close a report with what was done."""
    _admin(request, ops)
    body = await _body(request)
    await moderation.close_report(report_id, str(body.get("resolution") or "closed"))
    return {"closed": report_id}


@router.post("/admin/tables/{table_id}/close")
async def close_table(table_id: str, request: Request, ops: Ops, moderation: Mod) -> dict[str, Any]:
    """End a table as abandoned."""
    _admin(request, ops)
    return {"table": table_id, "status": await moderation.close_table(table_id)}


@router.post("/admin/identities/{who}/silence")
async def silence(who: str, request: Request, ops: Ops, moderation: Mod, talk: Talks) -> Any:
    """Silence an identity's table talk (for some hours, or until lifted)."""
    _admin(request, ops)
    body = await _body(request)
    hours = body.get("hours")
    if hours is not None and (not isinstance(hours, int | float) or isinstance(hours, bool)):
        raise ProtocolError("bad_request", "hours: a number, or null", {"field": "hours"})
    identity = await moderation.resolve(who)
    row = await talk.silence(identity, str(body.get("reason") or ""), hours)
    return {"identity": row.identity, "silenced": True, "until": row.until, "reason": row.reason}


@router.post("/admin/identities/{who}/unsilence")
async def unsilence(who: str, request: Request, ops: Ops, moderation: Mod, talk: Talks) -> Any:
    """Let a silenced identity talk again."""
    _admin(request, ops)
    identity = await moderation.resolve(who)
    return {"identity": identity, "lifted": await talk.unsilence(identity)}


@router.post("/admin/identities/{who}/{action}")
async def identity_action(
    who: str, action: str, request: Request, ops: Ops, moderation: Mod
) -> dict[str, Any]:
    """Suspend, ban, lift or rename an identity."""
    _admin(request, ops)
    body = await _body(request)
    reason = str(body.get("reason") or "")
    if action == "suspend":
        hours = body.get("hours")
        if not isinstance(hours, int | float) or isinstance(hours, bool):
            raise ProtocolError("bad_request", "hours: a number", {"field": "hours"})
        row = await moderation.sanction(who, "suspended", reason, float(hours))
    elif action == "ban":
        row = await moderation.sanction(who, "banned", reason, None)
    elif action == "lift":
        return {"lifted": await moderation.lift(who)}
    elif action == "rename":
        tables = await moderation.rename(who, body.get("name"))  # type: ignore[arg-type]
        return {"renamed": len(tables)}
    else:
        raise ProtocolError("bad_request", "suspend, ban, lift or rename")
    return {"identity": row.identity, "kind": row.kind, "until": row.until, "reason": row.reason}


@router.post("/admin/tournaments/{event_id}/{action}")
async def event_action(
    event_id: str, action: str, request: Request, ops: Ops, moderation: Mod, events: Events
) -> dict[str, Any]:
    """Cancel an event not finished, or give it a new title."""
    _admin(request, ops)
    body = await _body(request)
    if action == "cancel":
        closed = []
        for table_id in await events.cancel(event_id):
            with contextlib.suppress(ProtocolError):  # a table not made yet
                await moderation.close_table(table_id)
                closed.append(table_id)
        return {"tournament": event_id, "cancelled": True, "tables_closed": closed}
    if action == "rename":
        return {"tournament": event_id, "name": await events.retitle(event_id, body.get("name"))}
    raise ProtocolError("bad_request", "cancel or rename")


@router.post("/admin/clubs/{slug}/{action}")
async def club_action(
    slug: str, action: str, request: Request, ops: Ops, clubs: ClubsDep
) -> dict[str, Any]:
    """Remove a club, or clear its description."""
    _admin(request, ops)
    body = await _body(request)
    if action == "remove":
        return await clubs.remove_club(slug, str(body.get("reason") or ""))
    if action == "clear-description":
        return await clubs.clear_description(slug)
    raise ProtocolError("bad_request", "remove or clear-description")
