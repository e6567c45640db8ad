"""An event's games as tables of the table master: made, dealt, hidden, and read back.

Each game an event pairs is a table the lifecycle makes
(:meth:`~basra.server.table.lifecycle.Lifecycle.add_once`) under an *owner key*,
``tournament:EVENT:ROUND:TABLE:BOARD`` (an arena's games: ``tournament:EVENT:arena:N``),
from which its id is derived: making it twice (a pairing re-applied after a
crash, or by another process) opens the first. A tournament table:

- seats the entrants as :func:`basra.tournaments.seat_players` says (a team's
  first member at seat ``s``, its second at ``s + 2``): people by identity,
  server bots at their level, bot programs by their bot account;
- is admitted (:func:`budget_of`): a table with a person or a program seated is
  always made, even when the caps are full (its people entered and were paired,
  and each sits at one table of the event at a time, so they bound it
  themselves), and counts against nobody; a table of bots only counts against
  the event (``bot_tables_per_event``), its maker's all-bot tables and open
  tables (with their own: one budget per person, from the address the event was
  made from) and the server's all-bot tables, and waits for room: the clock makes
  it on a later pass. So one maker's bots never hold more of the server than that
  maker's own all-bot table could, and a round of many bots plays their games
  among themselves a few at a time (at the scheduler's background rank, as every
  all-bot table: nobody at a seat waits for them);
- is clocked (the event's control), rated or not as the event says, without
  hints, applies the forfeit rule even unrated (``forfeits``), and is never
  abandoned (``lasting``): the autopilot plays absent seats to the end, so every
  game yields a result;
- for duplicate, is *private* and dealt the board's pack and first dealer, derived
  from the server's secret and the board's public label
  (:func:`basra.tournaments.duplicate.deal_of_board`, the one place): the same at
  every table, and unknown until a table is dealt it. Its record, replay, review
  and score stay hidden from everyone not seated there until every table of its
  round has played the board: it is then *revealed to all* (this class is the
  disclosure policy's :class:`~basra.server.table.disclosure.Secret` for boards, and a
  board's games may then become puzzles).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from basra.rules import preset
from basra.server.errors import ProtocolError
from basra.server.features.tournaments.store import TournamentGameRow
from basra.server.identity import Caller
from basra.server.store.rows import SeatKind, SeatRow, TableRow
from basra.server.table.admission import Budget
from basra.server.table.clocks import CONTROL_BOUNDS, TimeControl
from basra.server.table.disclosure import Secret
from basra.server.table.forms import TableSpec
from basra.server.table.lifecycle import Lifecycle, owned_table_id
from basra.tournaments import EventSettings, seat_players
from basra.tournaments.duplicate import deal_of_board

from .held import Held, HeldEvents

__all__ = [
    "FEATURE",
    "Owner",
    "ProgramsSeated",
    "TournamentTables",
    "budget_of",
    "control_of",
    "paired_game",
    "parse_owner",
]

FEATURE = "tournament"

ProgramsSeated = Callable[[str, dict[int, SeatRow]], Awaitable[None]]
"""Tells bot programs' connections of a table made for them (the bot API's)."""


@dataclass(frozen=True)
class Owner:
    """What a tournament table is: the event's game at a round (0: an arena's), a table
    (an arena's game number) and a board."""

    event_id: str
    round: int
    table: int
    board: int

    @property
    def key(self) -> str:
        """The owner key the table is made under."""
        return f"{FEATURE}:{self.event_id}:{self.round}:{self.table}:{self.board}"


def parse_owner(key: str | None) -> Owner | None:
    """The tournament game of an owner key (None for any other table)."""
    if key is None or not key.startswith(f"{FEATURE}:"):
        return None
    parts = key.split(":")
    if len(parts) != 5:
        return None
    try:
        return Owner(parts[1], int(parts[2]), int(parts[3]), int(parts[4]))
    except ValueError:
        return None


def paired_game(
    event_id: str, round_number: int, table: int, board: int, sides: Sequence[str], now: float
) -> TournamentGameRow:
    """A game as paired (its table's id derived from its place: an arena's round is 0 and
    its table the game's number), not yet made."""
    owner = Owner(event_id, round_number, table, board)
    return TournamentGameRow(
        owned_table_id(owner.key), round_number, table, board, tuple(sides), now
    )


def budget_of(held: Held) -> Budget:
    """Whom an event's tables count against: its maker (from the address the event was
    made from; nobody for the schedule's), the event, and the server
    (:meth:`~basra.server.table.admission.Admission.admit`)."""
    row = held.row
    return Budget(row.created_by, row.created_from, f"{FEATURE}:{held.id}:", paired=True)


def control_of(settings: EventSettings) -> TimeControl:
    """The event's clock, within the server's bounds."""
    low, high = CONTROL_BOUNDS["move"]
    move = min(max(settings.move_seconds, low), high)
    low, high = CONTROL_BOUNDS["reserve"]
    return TimeControl(move, min(max(settings.reserve_seconds, low), high))


class TournamentTables(Secret):
    """Makes an event's tables, deals its boards, and decides who sees a private one."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        events: HeldEvents,
        programs: ProgramsSeated | None = None,
    ) -> None:
        self.lifecycle = lifecycle
        self.events = events
        self.programs = programs
        self.secret: bytes | None = None
        """The server's secret the boards are derived from (read when the feature starts)."""
        lifecycle.deal_with(self.pack_of)
        lifecycle.disclosure.keep(self)

    # ---------------------------------------------------------------- making them

    def plan(self, held: Held, game: TournamentGameRow) -> TableRow:
        """The table of a paired game (not stored)."""
        settings = held.settings
        entrants = {e.id: e for e in held.event.entrants}
        kinds: list[tuple[SeatKind, str | None]] = []
        seated: dict[int, SeatRow] = {}
        for seat, (entrant_id, member) in enumerate(seat_players(settings, game.sides, entrants)):
            entrant = entrants[entrant_id]
            name = (member.name if len(entrant.members) > 1 else entrant.name)[:64]
            if member.kind == "bot":
                kinds.append((SeatKind.BOT, member.ref))
                seated[seat] = SeatRow(seat, SeatKind.BOT, member.ref, None, name)
            else:
                kind = SeatKind.PERSON if member.kind == "person" else SeatKind.EXTERNAL
                kinds.append((kind, None))
                seated[seat] = SeatRow(seat, kind, None, member.ref, name)
        rules = settings.rules
        spec = TableSpec(
            variant=settings.variant,
            overrides=rules.overrides_from(preset(settings.variant)),
            players=settings.game_players,
            teams=settings.teams,
            hints=False,
            seats=tuple(kinds),
            my_seat=None,
            rated=settings.rated,
            clock=control_of(settings),
        )
        first_dealer = None
        if held.duplicate:
            deal = deal_of_board(
                self._secret(), held.id, rules, settings.game_players, game.round, game.board
            )
            first_dealer = deal.first_dealer
        owner = Owner(held.id, game.round, game.table, game.board).key
        row = self.lifecycle.plan(
            spec,
            seated,
            None,
            FEATURE,
            first_dealer=first_dealer,
            owner=owner,
            private=held.duplicate,
            forfeits=True,
            lasting=True,
        )
        if row.id != game.table_id:
            raise RuntimeError(f"table {game.table_id} was paired under another key than {owner}")
        return row

    def bots_only(self, held: Held, game: TournamentGameRow) -> bool:
        """Whether a game's sides are all the server's bots (its table is all-bot; a
        program is no server bot)."""
        entrants = {e.id: e for e in held.event.entrants}
        sides = [entrants.get(side) for side in game.sides]
        return all(e is not None and all(m.kind == "bot" for m in e.members) for e in sides)

    async def make(self, held: Held, game: TournamentGameRow) -> str:
        """Make (or open, if made already) a game's table; its id. A table of bots only is
        admitted against the event's budget (``rate_limited`` while it is full: the clock
        makes it on a later pass); one with a person or program is always made."""
        row = self.plan(held, game)
        live = await self.lifecycle.add_once(row, budget_of(held))
        programs = {s.seat: s for s in row.seats if s.kind == SeatKind.EXTERNAL}
        if programs and self.programs is not None and live is not None:
            await self.programs(row.id, programs)
        return row.id

    # ---------------------------------------------------------------- dealing them

    def _secret(self) -> bytes:
        if self.secret is None:
            raise RuntimeError("the tournaments are not started")
        return self.secret

    def pack_of(self, row: TableRow, round_index: int) -> list[int] | None:
        """A duplicate board's pack, for its table's one round (the master deals it)."""
        owner = parse_owner(row.owner)
        if owner is None or not row.private or round_index != 0:
            return None
        rules = preset(row.variant).with_overrides(row.rules)
        deal = deal_of_board(
            self._secret(), owner.event_id, rules, row.players, owner.round, owner.board
        )
        return list(deal.pack)

    # ---------------------------------------------------------------- who sees them

    def claims(self, row: TableRow) -> bool:
        """A duplicate board's table (private, of a round)."""
        owner = parse_owner(row.owner)
        return row.private and owner is not None and owner.round != 0

    async def revealed_to_all(self, row: TableRow) -> bool:
        """A board is shown to anyone once every table of its round has played it (its
        results are then shown to everyone too)."""
        owner = parse_owner(row.owner)
        if owner is None:
            return False
        held = await self.events.get(owner.event_id)
        return held is not None and (owner.round, owner.board) in held.revealed()

    async def tell_revealed(self, event_id: str, round_number: int, board: int) -> None:
        """A game of this board was just recorded: if that revealed the board (every table
        of its round has played it), tell the disclosure policy which tables it shows."""
        held = await self.events.get(event_id)
        if held is None or not held.duplicate or (round_number, board) not in held.revealed():
            return
        tables = [
            g.table_id for g in held.games.values() if (g.round, g.board) == (round_number, board)
        ]
        await self.lifecycle.disclosure.revealed(tables)

    async def earned(self, row: TableRow, caller: Caller) -> bool:
        """Nobody not seated at a board's table sees it before every table has played it."""
        return False

    def refusal(self, row: TableRow) -> ProtocolError:
        """``play_first``, naming the event."""
        owner = parse_owner(row.owner)
        return ProtocolError(
            "play_first",
            "this board is still being played at other tables: its games stay hidden until then",
            {"tournament": owner.event_id if owner else None},
        )
