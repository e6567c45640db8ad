"""A table's events, and the one reducer that applies them: live, catching up, replaying.

A table is its row (settings, seats, status: :class:`~basra.server.store.rows.TableRow`)
and its log of events, numbered from 0: ``deal`` (the shuffled pack, card text
top card first) and ``play`` (move text, docs/PROTOCOL.md), each with the time it
happened and, for a person's play the server made, why (``auto``). A table's
*version* is the number of events in its log. Every path that writes a log
encodes its events here (:func:`deal_event`, :func:`play_event`: the table
master, the daily deal's fixed pack), and every path that reads one decodes
them here (:func:`apply_event`, :func:`replay`: loading a table, catching up
with another process, records, replays, reviews), so there is one text for
each.

The row's transitions are here too, as pure functions: a person *joins* an
open seat (:func:`join`, and the table starts when every seat is filled:
:func:`opening_status`), the round that ends the game *finishes* it
(:func:`status_after`, stored with its final play), and a table nobody came
back to is *abandoned* (:func:`abandoned`). Who may make them, and when, is the
business of :mod:`basra.server.table.lifecycle` and the master.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from basra.cards import CARD_NAMES
from basra.moves import Move
from basra.notation import parse_move
from basra.server.store.rows import (
    Event,
    SeatRow,
    Status,
    TableRow,
    TableStatus,
    seats_filled,
)
from basra.state import PHASE_PLAY, GameState

__all__ = [
    "EventInfo",
    "EventKind",
    "Step",
    "abandoned",
    "apply_event",
    "deal_event",
    "describe",
    "describe_last_play",
    "join",
    "new_game",
    "opening_status",
    "play",
    "play_event",
    "replay",
    "status_after",
]

EventInfo = dict[str, Any]
"""The public description of an event, for animating it (``kind``, ``round``; for a play
``seat``, ``move``, ``basra`` and, when the server made it, ``auto``)."""


class EventKind(StrEnum):
    """The kinds of events a table's log holds."""

    DEAL = "deal"
    PLAY = "play"


def new_game(row: TableRow) -> GameState:
    """The table's game before its first event."""
    return GameState(
        row.variant, row.players, teams=row.teams, first_dealer=row.first_dealer, rules=row.rules
    )


def deal_event(seq: int, pack: Sequence[int], at: float | None = None) -> Event:
    """The ``deal`` event of a shuffled pack (top card first).

    >>> from basra.cards import parse_card
    >>> deal_event(0, [parse_card("7D"), parse_card("2C")]).data
    '7D 2C'
    """
    return Event(seq, EventKind.DEAL, " ".join(CARD_NAMES[c] for c in pack), at)


def play_event(seq: int, move: Move, at: float | None = None, auto: str | None = None) -> Event:
    """The ``play`` event of a move (``auto``: why the server made a person's play)."""
    return Event(seq, EventKind.PLAY, move.text(), at, auto)


def describe(
    kind: str, round_index: int, seat: int | None = None, move: str = "", basra: int = 0
) -> EventInfo:
    """The public description of an event.

    >>> describe("play", 1, 0, "7S", 0)
    {'kind': 'play', 'round': 1, 'seat': 0, 'move': '7S', 'basra': 0}
    """
    if kind == EventKind.PLAY:
        return {"kind": "play", "round": round_index, "seat": seat, "move": move, "basra": basra}
    return {"kind": kind, "round": round_index}


def describe_last_play(state: GameState, auto: str | None = None) -> EventInfo:
    """The description of the play just pushed on ``state``."""
    play = state.rounds[-1].plays[-1]
    described = describe(EventKind.PLAY, state.round_index, play.seat, play.move.text(), play.basra)
    if auto is not None:
        described["auto"] = auto  # the server played it for the person (clocks.py)
    return described


@dataclass(frozen=True)
class Step:
    """A play just made on the game: the event to store, the status it leads to (when a
    round ended), and its public description."""

    event: Event
    status: Status | None
    info: EventInfo


def play(state: GameState, seq: int, move: Move, at: float | None, auto: str | None = None) -> Step:
    """Make a checked move on the game (``state.pop()`` takes it back if it is not stored)."""
    state.push(move)
    return Step(
        play_event(seq, move, at, auto), status_after(state), describe_last_play(state, auto)
    )


def apply_event(state: GameState, event: Event) -> EventInfo:
    """Apply a stored event to the engine; returns its public description."""
    if event.kind == EventKind.DEAL:
        state.deal(event.data.split())
        return describe(EventKind.DEAL, state.round_index)
    state.push(parse_move(state, event.data))
    return describe_last_play(state, event.auto)


def replay(row: TableRow, events: Iterable[Event]) -> GameState:
    """The game a table's log leads to."""
    state = new_game(row)
    for event in events:
        apply_event(state, event)
    return state


def status_after(state: GameState) -> Status | None:
    """Where a game stands once a round ended (over, or still playing); None mid-round."""
    if state.phase == PHASE_PLAY:
        return None
    outcome = state.outcome()
    if outcome is not None:
        return Status(TableStatus.OVER, tuple(state.scores), outcome.winner)
    return Status(TableStatus.PLAYING, tuple(state.scores), None)


def opening_status(seats: Sequence[SeatRow]) -> TableStatus:
    """A new table waits for people, or plays at once when nobody is left to join."""
    return TableStatus.PLAYING if seats_filled(seats) else TableStatus.OPEN


def join(row: TableRow, seat: int, identity: str, name: str) -> bool:
    """Seat a person in an open seat of ``row``; True when the table starts by it."""
    row.seats[seat] = replace(row.seats[seat], identity=identity, name=name)
    if row.status == TableStatus.OPEN and seats_filled(row.seats):
        row.status = TableStatus.PLAYING
        return True
    return False


def abandoned(row: TableRow) -> Status:
    """The status of a table given up before its end (its scores so far, no winner)."""
    return Status(TableStatus.ABANDONED, tuple(row.scores), None)
