"""Tournaments (:mod:`basra.server.features.tournaments`).

- ``GET /api/tournaments``: upcoming, running and recent events (and, with a token,
  the caller's own);
- ``GET /api/tournaments/{id}`` (``?invite=CODE`` for an event by invitation): its
  settings, entrants, standings, pairings and games;
- ``POST /api/tournaments`` (auth, an account): make an event;
- ``POST /api/tournaments/{id}/join`` (auth: a device token, or a bot program's
  ``bot_...`` token): enter it; ``.../withdraw`` and ``.../come_back``;
- ``WS /ws/tournaments/{id}``: the event's live frames
  (:data:`basra.server.features.tournaments.PROTOCOL`);
- ``GET /tournaments`` and ``GET /tournaments/{id}``: the page (static/tournaments.js).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from basra.server.connection import Connection
from basra.server.errors import ProtocolError
from basra.server.features.botapi_store import BotRow
from basra.server.features.tournaments import TYPES, Player, Tournaments, Watcher
from basra.server.identity import Identities
from basra.server.table.forms import ClockForm
from basra.server.transport.auth import MaybeSignedIn, PersonOrProgram, SignedIn
from basra.server.transport.deps import address, form, provide
from basra.server.transport.routes.pages import page
from basra.server.transport.socket import SocketPump

__all__ = ["EventForm", "EventSocket", "JoinForm", "StepForm", "router"]

router = APIRouter()

# The page's addresses (the page reads the event's id from the address itself).
router.add_api_route("/tournaments", page, methods=["GET"], include_in_schema=False)
router.add_api_route("/tournaments/{event_id}", page, methods=["GET"], include_in_schema=False)

TournamentsDep = Annotated[Tournaments, Depends(provide(Tournaments))]


class EventForm(BaseModel):
    """``POST /api/tournaments``: an event's name, start, visibility and settings."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=200)
    starts_at: float | int | None = None
    """Seconds since 1970 (UTC); now (or a past time) starts it at the clock's next pass."""
    public: bool = True
    format: Literal["arena", "swiss", "duplicate"]
    variant: str = "egyptian"
    rules: dict[str, Any] | None = None
    seats: int = 2
    teams: bool = False
    clock: ClockForm | None = None
    rated: bool = True
    minutes: int | None = None
    rounds: int | None = None
    boards: int | None = None
    max_entrants: int = 32
    bots: bool = False
    external: bool = False
    talk: bool = False
    """Table talk at the event's rated games (:mod:`basra.server.features.talk`)."""


class JoinForm(BaseModel):
    """``POST /api/tournaments/{id}/join``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = None
    """The name to enter under (the caller's by default)."""
    invite: str | None = Field(default=None, max_length=40)
    """The invitation code of an event that is not listed."""
    team: Literal["new"] | None = None
    """Teams: make a team code for a partner to enter with."""
    team_code: str | None = Field(default=None, max_length=40)
    """Teams: enter with the code a partner made."""
    partner_bot: str | None = None
    """Teams: a server bot at this level as one's partner."""
    bot: str | None = None
    """The event's maker: enter server bots at this level..."""
    count: int = 1
    """...this many."""


class StepForm(BaseModel):
    """``POST /api/tournaments/{id}/withdraw`` and ``.../come_back``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    entrant: str | None = Field(default=None, max_length=40)
    """The event's maker: one of its bots (the caller's own entry by default)."""


async def player(who: PersonOrProgram) -> Player:
    """A person (a device token) or a bot program (its ``bot_...`` token), as an entrant."""
    return Player.program(who.identity, who.name) if isinstance(who, BotRow) else Player.of(who)


PlayerDep = Annotated[Player, Depends(player)]


@router.get("/api/tournaments")
async def listing(caller: MaybeSignedIn, tournaments: TournamentsDep) -> dict[str, Any]:
    """Upcoming, running and recent events."""
    return await tournaments.listing(caller)


@router.get("/api/tournaments/{event_id}")
async def detail(
    event_id: str, caller: MaybeSignedIn, tournaments: TournamentsDep, invite: str | None = None
) -> dict[str, Any]:
    """One event."""
    return await tournaments.detail(event_id, caller, invite[:40] if invite else None)


@router.post("/api/tournaments")
async def create(
    me: SignedIn,
    where: Annotated[str, Depends(address)],
    body: Annotated[EventForm, Depends(form(EventForm))],
    tournaments: TournamentsDep,
) -> JSONResponse:
    """Make an event (201)."""
    data = body.model_dump(exclude_none=True)
    return JSONResponse(await tournaments.create(me, data, where), status_code=201)


@router.post("/api/tournaments/{event_id}/join")
async def join(
    event_id: str,
    who: PlayerDep,
    body: Annotated[JoinForm, Depends(form(JoinForm))],
    tournaments: TournamentsDep,
) -> JSONResponse:
    """Enter the event (201)."""
    status, answer = await tournaments.join(who, event_id, body.model_dump(exclude_none=True))
    return JSONResponse(answer, status_code=status)


@router.post("/api/tournaments/{event_id}/withdraw")
async def withdraw(
    event_id: str,
    who: PlayerDep,
    body: Annotated[StepForm, Depends(form(StepForm))],
    tournaments: TournamentsDep,
) -> dict[str, Any]:
    """Leave the event (or pause, once it runs)."""
    return await tournaments.withdraw(who, event_id, body.entrant)


@router.post("/api/tournaments/{event_id}/come_back")
async def come_back(
    event_id: str,
    who: PlayerDep,
    body: Annotated[StepForm, Depends(form(StepForm))],
    tournaments: TournamentsDep,
) -> dict[str, Any]:
    """Be paired again."""
    return await tournaments.come_back(who, event_id, body.entrant)


class EventSocket:
    """``WS /ws/tournaments/{id}``: an event's live frames (a token only says who you are)."""

    types = TYPES
    hello = "{type: hello, token, invite}"

    def __init__(self, event_id: str, tournaments: Tournaments, identities: Identities) -> None:
        self.event_id = event_id
        self.tournaments = tournaments
        self.identities = identities
        self.invite: str | None = None
        self.watcher: Watcher | None = None

    async def admit(self, hello: dict[str, Any], address: str) -> Connection:
        """Who watches (a device token, or nobody)."""
        token, invite = hello.get("token"), hello.get("invite")
        if token is not None and not isinstance(token, str):
            raise ProtocolError("bad_message", "token must be text")
        if invite is not None and (not isinstance(invite, str) or len(invite) > 40):
            raise ProtocolError("bad_message", "invite must be the event's invitation code")
        self.invite = invite
        caller = await self.identities.authenticate(token)
        return Connection(caller, None, address)

    async def attach(self, connection: Connection) -> None:
        """Send the event and the watcher's part in it."""
        self.watcher = await self.tournaments.watch(connection, self.event_id, self.invite)

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """A ping."""
        if message["type"] == "ping":
            connection.send({"type": "pong"})
        else:
            raise ProtocolError("bad_message", "hello was already said on this connection")

    async def detach(self, connection: Connection) -> None:
        """The connection closed."""
        if self.watcher is not None:
            self.tournaments.unwatch(self.watcher)


@router.websocket("/ws/tournaments/{event_id}")
async def watch(
    websocket: WebSocket,
    event_id: str,
    tournaments: TournamentsDep,
    identities: Annotated[Identities, Depends(provide(Identities))],
    pump: Annotated[SocketPump, Depends(provide(SocketPump))],
) -> None:
    """Watch an event live."""
    await pump.serve(websocket, EventSocket(event_id, tournaments, identities))
