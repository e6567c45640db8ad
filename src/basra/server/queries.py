"""Lobby and history: read-only questions answered from the store.

The lobby lists tables to join or watch; a person's games come from their
identity's seats. A finished game's record and its replay show every hand, so
both are refused until the game is over (an abandoned or unfinished game's
record would still hide cards someone could use).
"""

from __future__ import annotations

from typing import Any

from basra.cards import CARD_NAMES, cards_of
from basra.notation import parse_move
from basra.record import record_of, result_json
from basra.server.protocol import ProtocolError, event_json, seat_names, table_json
from basra.server.store import Event, Store, TableRow
from basra.state import PHASE_PLAY, GameState

__all__ = ["apply_event", "games_of", "lobby", "new_game", "record", "replay"]


def new_game(row: TableRow) -> GameState:
    """The table's game before its first event."""
    return GameState(
        row.variant, row.players, teams=row.teams, first_dealer=row.first_dealer, rules=row.rules
    )


def apply_event(state: GameState, event: Event) -> dict[str, Any]:
    """Apply a stored event to the engine; returns its public description."""
    if event.kind == "deal":
        state.deal(event.data.split())
        return event_json("deal", state.round_index)
    move = parse_move(state, event.data)
    seat = state.turn
    state.push(move)
    play = state.rounds[-1].plays[-1]
    described = event_json("play", state.round_index, seat, move.text(), play.basra)
    if event.auto is not None:
        described["auto"] = event.auto  # the server played it for the person (clocks.py)
    return described


async def lobby(store: Store, limit: int = 40) -> list[dict[str, Any]]:
    """Tables waiting for people and tables in play (to join or watch), newest first
    (daily deal attempts are private)."""
    out = []
    for row in await store.list_tables(["open", "playing"], limit=limit, daily=False):
        out.append(
            {
                "id": row.id,
                "variant": row.variant,
                "rules": row.rules,
                "players": row.players,
                "teams": row.teams,
                "status": row.status,
                "names": [s.name for s in row.seats],
                "kinds": [s.kind for s in row.seats],
                "levels": [s.level for s in row.seats],
                "open": sum(1 for s in row.seats if s.kind == "person" and not s.identity),
                "scores": row.scores,
                "created_at": row.created_at,
                "rated": row.rated,
                "clock": None
                if row.clock_move is None
                else {"move": row.clock_move, "reserve": row.clock_reserve or 0},
            }
        )
    return out


async def games_of(store: Store, identity: str) -> list[dict[str, Any]]:
    """A person's tables, newest first."""
    return [
        {
            "id": game.id,
            "variant": game.variant,
            "players": game.players,
            "teams": game.teams,
            "status": game.status,
            "seat": game.seat,
            "names": game.names,
            "kinds": game.kinds,
            "levels": game.levels,
            "rules": game.rules,
            "scores": game.scores,
            "winner": game.winner,
            "created_at": game.created_at,
            "updated_at": game.updated_at,
        }
        for game in await store.games_of(identity)
    ]


async def _finished(store: Store, table_id: str) -> tuple[TableRow, GameState, list[Event]]:
    row = await store.load_table(table_id) if len(table_id) <= 32 else None
    if row is None:
        raise ProtocolError("no_such_table", f"there is no table {table_id!r}")
    events = await store.events(table_id)
    state = new_game(row)
    for event in events:
        apply_event(state, event)
    if not state.is_over:
        raise ProtocolError(
            "not_over", "the game is not over: its record holds cards that are still hidden"
        )
    return row, state, events


async def record(store: Store, table_id: str) -> dict[str, Any]:
    """The game's record (RECORD.md) once it is over."""
    row, state, _ = await _finished(store, table_id)
    return record_of(state, seat_names(row.seats)).to_json()


async def replay(store: Store, table_id: str) -> dict[str, Any]:
    """Every step of a finished game, all hands shown, for the replay page."""
    row, final, events = await _finished(store, table_id)
    state = new_game(row)
    frames = []
    for event in events:
        described = apply_event(state, event)
        frames.append(
            {
                "event": described,
                "dealer": state.dealer,
                "turn": state.turn if state.phase == PHASE_PLAY else None,
                "floor": [CARD_NAMES[c] for c in cards_of(state.floor)],
                "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in state.hands],
                "piles": [p.bit_count() for p in state.piles],
                "basras": list(state.basras),
                "scores": list(state.scores),
                "stock": state.stock_size,
                "round_over": state.phase != PHASE_PLAY,
            }
        )
    return {
        "table": table_json(row),
        "names": seat_names(row.seats),
        "sides": [list(side) for side in final.sides],
        "result": result_json(final),
        "frames": frames,
    }
