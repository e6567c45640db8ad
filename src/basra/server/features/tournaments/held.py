"""An event as one process holds it: its rows, merged as they change, and the values of
:mod:`basra.tournaments` made from them.

A process reads an event once, then only what changed since the version it holds
(:meth:`~basra.server.features.tournaments.store.TournamentStore.changes`), merging rows by
their keys (so a row read twice is harmless). The core's :class:`~basra.tournaments.Event`,
its standings and, for duplicate, the boards every table has played are made
from the rows when first asked for after a change, and kept until the next one.
Nothing here holds a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from basra.server.features.tournaments.store import (
    EntrantRow,
    TournamentChanges,
    TournamentGameRow,
    TournamentRow,
    TournamentStore,
)
from basra.tournaments import (
    Entrant,
    Event,
    EventSettings,
    GameResult,
    Round,
    Standing,
    Waiting,
    standings,
)
from basra.tournaments.duplicate import revealed_boards

__all__ = ["Held", "HeldEvents", "game_result"]


def game_result(game: TournamentGameRow) -> GameResult | None:
    """The result of a game that counts (None while it is played, or when it ended after its
    event: such a game is recorded ``late`` and scores nothing)."""
    if game.result is None or game.result.get("late"):
        return None
    return GameResult.from_json(game.result)


@dataclass
class Held:
    """One event's rows in this process (see the module's docstring)."""

    row: TournamentRow
    version: int = 0
    entrants: dict[str, EntrantRow] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)
    games: dict[str, TournamentGameRow] = field(default_factory=dict)
    _settings: EventSettings | None = None
    _event: Event | None = None
    _standings: list[Standing] | None = None
    _revealed: set[tuple[int, int]] | None = None

    @property
    def id(self) -> str:
        """The event's id."""
        return self.row.id

    @property
    def settings(self) -> EventSettings:
        """The event's settings (checked once)."""
        if self._settings is None:
            self._settings = EventSettings.from_json(self.row.settings)
        return self._settings

    @property
    def duplicate(self) -> bool:
        """Whether its boards are secret until every table has played them."""
        return self.settings.format == "duplicate"

    def merge(self, changes: TournamentChanges) -> bool:
        """Take what changed; True if anything did."""
        if changes.event.version == self.version and self.version:
            return False
        self.row = changes.event
        for entrant in changes.entrants:
            self.entrants[entrant.entrant_id] = entrant
        for paired in changes.rounds:
            found = Round.from_json(paired)
            self.rounds[found.number] = found
        for game in changes.games:
            self.games[game.table_id] = game
        self.version = changes.event.version
        self._event = self._standings = self._revealed = None
        return True

    # ---------------------------------------------------------------- the core's values

    def ordered_entrants(self) -> list[EntrantRow]:
        """The entries still there, in entry order."""
        return sorted((e for e in self.entrants.values() if not e.gone), key=lambda e: e.position)

    @property
    def event(self) -> Event:
        """The event as :mod:`basra.tournaments` sees it (every counted result)."""
        if self._event is None:
            games = sorted(
                (g for g in self.games.values() if g.result is not None),
                key=lambda g: (g.finished_at or 0.0, g.table_id),
            )
            results = tuple(r for r in (game_result(g) for g in games) if r is not None)
            self._event = Event(
                self.id,
                self.settings,
                tuple(Entrant.from_json(e.data) for e in self.ordered_entrants()),
                tuple(self.rounds[n] for n in sorted(self.rounds)),
                results,
                self.row.status,
            )
        return self._event

    def revealed(self) -> set[tuple[int, int]]:
        """Duplicate: the ``(round, board)`` every table of its round has played."""
        if self._revealed is None:
            event = self.event
            self._revealed = (
                revealed_boards(event.rounds, event.results, self.settings.boards_per_round)
                if self.duplicate
                else set()
            )
        return self._revealed

    def shown(self, game: TournamentGameRow) -> bool:
        """Whether a game's score may be shown: any game but a duplicate board still played
        at another table."""
        return not self.duplicate or (game.round, game.board) in self.revealed()

    def shown_results(self) -> list[GameResult]:
        """The results anyone may see (duplicate: of the boards every table has played)."""
        results = self.event.results
        if not self.duplicate:
            return list(results)
        revealed = self.revealed()
        return [r for r in results if (r.round, r.board) in revealed]

    def standings(self) -> list[Standing]:
        """The live standings: recomputed from the results anyone may see."""
        if self._standings is None:
            event = self.event
            self._standings = standings(
                self.settings, event.entrants, event.rounds, self.shown_results()
            )
        return self._standings

    def people_placed(self) -> list[tuple[str, int, int]]:
        """The final standings' people: ``(identity, place, games)``, place 0 the first
        (a team entry's people share its line); bots and programs are left out."""
        out = []
        for line in self.standings():
            entrant = self.entrants.get(line.entrant)
            if entrant is None:
                continue
            for member in Entrant.from_json(entrant.data).members:
                if member.kind == "person":
                    out.append((member.ref, line.rank - 1, line.games))
        return out

    # ---------------------------------------------------------------- the tables

    def open_games(self) -> list[TournamentGameRow]:
        """The games paired and not over."""
        return [g for g in self.games.values() if g.result is None]

    def waiting(self) -> list[Waiting]:
        """An arena's entrants free to play (not withdrawn, at no table), each since when:
        it entered or came back, or its last game ended, whichever is later."""
        last: dict[str, float] = {}
        for game in self.games.values():
            if game.finished_at is not None:
                for side in game.sides:
                    last[side] = max(last.get(side, 0.0), game.finished_at)
        out = []
        for row in self.ordered_entrants():
            if row.playing is None and not row.data.get("withdrawn"):
                out.append(
                    Waiting(row.entrant_id, max(row.ready_at, last.get(row.entrant_id, 0.0)))
                )
        return out

    def table_of(self, entrant_id: str) -> str | None:
        """The table an entrant plays at now, if any."""
        row = self.entrants.get(entrant_id)
        if row is not None and row.playing is not None:
            return row.playing
        for game in self.games.values():
            if game.result is None and entrant_id in game.sides:
                return game.table_id
        return None


class HeldEvents:
    """The events this process holds, each brought up to date from the store on demand."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        self.held: dict[str, Held] = {}

    async def get(self, event_id: str) -> Held | None:
        """The event, up to date (None if there is no such event)."""
        if len(event_id) > 16:
            return None
        held = self.held.get(event_id)
        changes = await self.store.changes(event_id, held.version if held else 0)
        if changes is None:
            return None
        if held is None:
            held = self.held[event_id] = Held(changes.event)
        held.merge(changes)
        return held

    def peek(self, event_id: str) -> Held | None:
        """The event as held now, without reading the store."""
        return self.held.get(event_id)

    def forget(self, keep: Sequence[str]) -> None:
        """Let go of every event but those (finished events nobody looks at)."""
        for event_id in [e for e in self.held if e not in keep]:
            del self.held[event_id]
