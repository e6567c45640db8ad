"""Lobby and history: read-only questions answered from the store.

The lobby lists tables to join or watch; a person's games come from their
identity's seats. A finished game's record and its replay show every hand, so
both are shown only as the disclosure policy allows
(:class:`~basra.server.table.disclosure.Disclosure`: never while the game is not
over, a hidden table's only to those it lets see it). Records and replays replay
the log through the one reducer (:mod:`basra.server.table.reducer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from basra.bot_names import bot_name, bot_number
from basra.cards import CARD_NAMES, cards_of
from basra.record import record_of, result_json
from basra.server.errors import ProtocolError
from basra.server.store.protocols import TableStore
from basra.server.store.rows import LIVE_STATUSES, Event, SeatKind, SeatRow, TableRow
from basra.server.table.disclosure import Disclosure, Viewer
from basra.server.table.frames import describe_table
from basra.server.table.reducer import apply_event, new_game
from basra.server.table.reducer import replay as replay_log
from basra.state import PHASE_PLAY, GameState

__all__ = ["Queries", "seat_names"]


def seat_names(seats: Sequence[SeatRow]) -> list[str]:
    """The names people saw at a table, for its record: a person's name, a bot as
    ``Bot 2 (expert)`` (seats counted from 1, as the page counts them); a seat nobody
    ever took is ``Seat 3``.

    >>> seat_names([SeatRow(0, SeatKind.PERSON, name="Amal"), SeatRow(1, SeatKind.BOT, "expert")])
    ['Amal', 'Bot 2 (expert)']
    """
    out = []
    for index, seat in enumerate(seats):
        if seat.kind == SeatKind.BOT:
            out.append(bot_name(bot_number(seat.name, index) or index + 1, seat.level))
        else:
            out.append(seat.name or f"Seat {index + 1}")
    return out


def bot_numbers(names: Sequence[str | None], kinds: Sequence[str]) -> list[int | str | None]:
    """The number the page names each bot seat by (None for the others): a
    tournament's bot keeps the event's (:mod:`basra.bot_names`).

    >>> bot_numbers(["Amal", "Bot 3 (easy)", None], ["person", "bot", "bot"])
    [None, 3, 3]
    """
    return [
        bot_number(name, seat) if kind == SeatKind.BOT else None
        for seat, (name, kind) in enumerate(zip(names, kinds, strict=False))
    ]


class Queries:
    """Read-only questions about tables, answered from their store."""

    def __init__(self, tables: TableStore, disclosure: Disclosure) -> None:
        self.tables = tables
        self.disclosure = disclosure

    async def lobby(self, limit: int = 40) -> list[dict[str, Any]]:
        """Tables waiting for people and tables in play (to join or watch), newest first
        (private tables, daily deal attempts among them, are left out)."""
        out = []
        for row in await self.tables.find(LIVE_STATUSES, limit=limit, private=False):
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
                    "numbers": bot_numbers(
                        [s.name for s in row.seats], [s.kind for s in row.seats]
                    ),
                    "open": sum(1 for s in row.seats if s.open),
                    "scores": row.scores,
                    "created_at": row.created_at,
                    "rated": row.rated,
                    "clock": None
                    if row.clock_move is None
                    else {"move": row.clock_move, "reserve": row.clock_reserve or 0},
                }
            )
        return out

    async def seats_of(self, table_id: str) -> list[dict[str, Any]] | None:
        """Who sat at a table, as the page names them in its language (None for no such
        table): each seat's ``kind``, a bot's ``level`` and ``number``, a person's ``name``."""
        row = await self.tables.load(table_id)
        if row is None:
            return None
        numbers = bot_numbers([s.name for s in row.seats], [s.kind for s in row.seats])
        return [
            {"kind": s.kind, "level": s.level, "number": n, "name": s.name}
            if s.kind == SeatKind.BOT
            else {"kind": s.kind, "name": s.name}
            for s, n in zip(row.seats, numbers, strict=True)
        ]

    async def games_of(self, identity: str) -> list[dict[str, Any]]:
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
                "numbers": bot_numbers(game.names, game.kinds),
                "rules": game.rules,
                "scores": game.scores,
                "winner": game.winner,
                "created_at": game.created_at,
                "updated_at": game.updated_at,
                "daily": game.daily,
                "offline": game.offline,
            }
            for game in await self.tables.games_of(identity)
        ]

    async def finished_game(
        self, table_id: str, viewer: Viewer
    ) -> tuple[TableRow, GameState, list[Event]]:
        """A finished game's row, final state and log, as the disclosure policy lets
        ``viewer`` see them; ``no_such_table``, ``play_first`` or ``not_over`` else."""
        row = await self.disclosure.check_id(table_id, viewer)
        events = await self.tables.events(table_id)
        state = replay_log(row, events)
        if not state.is_over:  # a status the log contradicts: the log is the truth
            raise ProtocolError(
                "not_over", "the game is not over: its record holds cards that are still hidden"
            )
        return row, state, events

    async def record(self, table_id: str, viewer: Viewer) -> dict[str, Any]:
        """The game's record (RECORD.md) once it is over, if ``viewer`` may see it."""
        row, state, _ = await self.finished_game(table_id, viewer)
        return record_of(state, seat_names(row.seats)).to_json()

    async def replay(self, table_id: str, viewer: Viewer) -> dict[str, Any]:
        """Every step of a finished game, all hands shown, for the replay page, if
        ``viewer`` may see it."""
        row, final, events = await self.finished_game(table_id, viewer)
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
            "table": describe_table(row, final.rules.to_dict()),
            "names": seat_names(row.seats),
            "sides": [list(side) for side in final.sides],
            "result": result_json(final),
            "frames": frames,
        }
