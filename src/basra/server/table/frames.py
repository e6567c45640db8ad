"""What each client of a table is sent, as values: snapshots per seat, the table's description.

A snapshot (:class:`StateFrame`) is built from one seat's
:class:`~basra.view.View` (:func:`basra.view.view_of`), or, for people
watching, from the table's :class:`~basra.view.PublicView`
(:func:`basra.view.public_view_of`: no hand, no legal moves, no seat at all, by
construction), in the brief form of :meth:`~basra.view.PublicView.to_json`,
plus the outcome once the game is over. The master builds each once per seat
per version, when the version is reached, and queues the same value for every
client in that seat; the transport makes its JSON text once, when first
written. A bot program's connection reads the seat's view from the frame
itself, never from the game state. Nothing is kept once sent: a table holds no
snapshots between versions (a client that arrives later gets one of its own,
without the event that led there).

The table's description (:func:`describe_table`) is its row's public side:
seats with names, kinds and levels (never who sits there: identities stay on
the server), the rules as the table's game holds them (worked out once, when
the table is loaded, never validated again per message), presence, clocks and
what each seat shows beyond its name (:func:`seat_badges`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from basra.bot_names import bot_number
from basra.server.connection import Frame
from basra.server.store.protocols import PlayerStore
from basra.server.store.rows import SeatKind, TableRow, TableStatus
from basra.server.table.presence import Presence
from basra.server.table.ratings import (
    EXTERNAL,
    FAMILY_OF,
    bot_ratings,
    new_rating,
    rating_json,
    table_kind,
)
from basra.server.table.reducer import EventInfo
from basra.state import GameState
from basra.view import PublicView, public_view_of, view_of

__all__ = [
    "StateFrame",
    "describe_table",
    "event_of",
    "presence_of",
    "seat_badges",
    "state_frame",
]


class StateFrame(Frame):
    """The ``state`` message of one seat (or of people watching) at one version.

    Its body is ``{"type": "state", "version", "view", "event"}``; the frame keeps
    the view it was made from (:attr:`view`), the seat, and the running clock's
    deadline, for a bot program's connection.
    """

    __slots__ = ("deadline", "seat", "version", "view")

    def __init__(
        self,
        version: int,
        seat: int | None,
        view: PublicView,
        body: dict[str, Any],
        deadline: float | None,
    ) -> None:
        super().__init__(body)
        self.version = version
        self.seat = seat
        self.view = view
        self.deadline = deadline
        """When the running clock reaches zero (None without a clock running)."""

    @property
    def over(self) -> bool:
        """The game is over."""
        return bool(self.body["view"]["over"])


def state_frame(
    state: GameState,
    version: int,
    seat: int | None,
    event: EventInfo | None,
    deadline: float | None = None,
    autos: Mapping[int, str] | None = None,
) -> StateFrame:
    """The ``state`` message for a seat (its :func:`~basra.view.view_of`) or a spectator.

    ``autos``: the round's plays the server made for a person (index in the round: why),
    sent as the view's ``autos`` (``{"4": "stand_in"}``) so a log credits a bot with them.
    """
    view = view_of(state, seat) if seat is not None else public_view_of(state)
    data = view.to_json(brief=True)
    data["autos"] = {str(index): why for index, why in (autos or {}).items()}
    outcome = state.outcome()
    data["sides"] = [list(side) for side in state.sides]
    data["winner"] = outcome.winner if outcome is not None else None
    data["over"] = outcome is not None
    body = {"type": "state", "version": version, "view": data, "event": event}
    return StateFrame(version, seat, view, body, deadline)


def event_of(row: TableRow) -> str | None:
    """The tournament a table's game belongs to (its page is ``/tournaments/ID``), if any:
    read from the owner key a tournament gives its tables (``tournament:EVENT:...``).

    >>> event_of(TableRow("t1", "egyptian", {}, 2, False, 0, True, [], owner="tournament:e9:1:0:0"))
    'e9'
    """
    if row.owner is None or not row.owner.startswith("tournament:"):
        return None
    return row.owner.split(":")[1] or None


def describe_table(row: TableRow, rules: dict[str, Any]) -> dict[str, Any]:
    """The public description of a table row (``rules``: the table's rules as JSON).

    Names, kinds and levels of the seats, never who sits there.
    """
    return {
        "id": row.id,
        "variant": row.variant,
        "rules": rules,
        "overrides": row.rules,
        "players": row.players,
        "teams": row.teams,
        "hints": row.hints,
        "status": row.status,
        "scores": row.scores,
        "winner": row.winner,
        "rematch": row.rematch_id,
        "rematch_of": row.rematch_of,
        "event": event_of(row),
        "fault": row.fault is not None,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                # Only a table waiting for people has seats to take (a game uploaded from
                # a device keeps its other people by name, with no identity).
                "open": s.open and row.status == TableStatus.OPEN,
                # A bot is named in the page's language by its number (a tournament's
                # bot keeps the event's number, basra.bot_names).
                **({"number": bot_number(s.name, s.seat)} if s.kind == SeatKind.BOT else {}),
            }
            for s in row.seats
        ],
    }


def presence_of(
    row: TableRow, presence: Presence, now: float, grace: float
) -> dict[int, dict[str, bool]]:
    """Per seat of a person or a program: whether they are connected, and whether the
    stand-in bot plays for them (gone past ``grace`` seconds)."""
    out = {}
    for seat in row.seats:
        if seat.kind != SeatKind.BOT and not seat.open:
            present = presence.present(seat.seat, now)
            out[seat.seat] = {
                "present": present,
                "stand_in": not present
                and now - presence.absent_since.get(seat.seat, now) >= grace,
            }
    return out


async def seat_badges(players: PlayerStore, row: TableRow) -> dict[int, dict[str, Any]]:
    """What a table shows of each seat beyond its name: a username, and at rated
    tables the rating (a bot's fixed one) and, once settled, its change."""
    people = {s.seat: s.identity for s in row.seats if s.kind == SeatKind.PERSON and s.identity}
    out: dict[int, dict[str, Any]] = {seat: {} for seat in range(row.players)}
    accounts = await players.accounts_of(list(people.values())) if people else {}
    for seat, identity in people.items():
        account = accounts.get(identity)
        out[seat]["username"] = account.username if account else None
    if not row.rated:
        return out
    family, kind = FAMILY_OF[row.variant], table_kind(row.players, row.teams)
    ratings = await players.ratings_in(family, kind, list(people.values()))
    bots = bot_ratings()
    for seat_row in row.seats:
        badge = out[seat_row.seat]
        if seat_row.kind == SeatKind.BOT:
            badge["rating"] = rating_json(*bots.of(seat_row.level or "medium", family, kind))
            badge["fixed"] = True
        elif seat_row.kind == SeatKind.EXTERNAL:  # a program through the bot API: a bot
            badge["rating"] = rating_json(*bots.of(EXTERNAL, family, kind))
            badge["fixed"] = True
        elif seat_row.identity:
            found = ratings.get(seat_row.identity)
            mu, sigma = (found.mu, found.sigma) if found else new_rating()
            badge["rating"] = rating_json(mu, sigma, found.games if found else 0)
    if row.settled_at is not None:
        for result in await players.results_at(row.id):
            if result.mu_before is not None and result.mu_after is not None:
                out[result.seat]["change"] = round(result.mu_after - result.mu_before, 3)
    return out
