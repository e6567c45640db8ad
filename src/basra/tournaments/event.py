"""An event as one value, and every change to it as a function returning the next value.

:class:`Event` holds what an event must store and nothing else: its settings,
its entrants, its rounds as paired (Swiss, duplicate) and its finished games'
results. Its standings are recomputed from these (:meth:`Event.standings`);
the cards of a duplicate's boards are never in it (they are derived from the
server's secret when a table is dealt, :func:`~basra.tournaments.duplicate.board_deal`),
so an event's JSON can be stored and shown without hiding anything.

Its life: ``created`` (entries open) → :meth:`~Event.start` → ``running``
(an arena pairs whoever waits, :meth:`~Event.pair_waiting`; a Swiss or
duplicate pairs round after round, :meth:`~Event.pair_next_round`, each when
the last is complete) → :meth:`~Event.finish` → ``finished``. Entrants may
:meth:`~Event.join` late (an arena until it ends; a Swiss or duplicate until
more than half its rounds have been paired, as lichess), :meth:`~Event.withdraw`
(before the start: the entry is gone; after: not paired again, its games
still count) and :meth:`~Event.come_back`.

>>> from basra.tournaments.settings import Entrant, Member
>>> event = Event("e1", EventSettings("swiss", rounds=3))
>>> for name in ("ann", "bob", "cy"):
...     event = event.join(Entrant(name, name, (Member("person", name, name),)))
>>> event = event.start().pair_next_round()
>>> event.rounds[0].tables, event.rounds[0].byes
((('ann', 'bob'),), ('cy',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from basra.tournaments import arena, duplicate, swiss
from basra.tournaments.ranking import Standing
from basra.tournaments.results import GameResult, Round
from basra.tournaments.settings import Entrant, EventSettings, Member, TournamentError
from basra.tournaments.standings import standings

__all__ = ["STATUSES", "Event", "seat_players"]

STATUSES = ("created", "running", "finished")


def seat_players(
    settings: EventSettings, sides: Sequence[str], entrants: Mapping[str, Entrant]
) -> tuple[tuple[str, Member], ...]:
    """Who plays each seat of a table whose sides ``sides`` holds: side ``s`` is seat
    ``s``, or with teams seats ``s`` (the team's first member) and ``s + 2`` (its second)."""
    if settings.teams:
        first, second = sides
        order = [(first, 0), (second, 0), (first, 1), (second, 1)]
    else:
        order = [(entrant, 0) for entrant in sides]
    return tuple((e, entrants[e].members[m]) for e, m in order)


@dataclass(frozen=True)
class Event:
    """A tournament's stored state (see the module's docstring)."""

    id: str
    settings: EventSettings
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    results: tuple[GameResult, ...] = ()
    status: str = "created"

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise TournamentError("bad_event", f"an event's status is not {self.status!r}")

    # ---------------------------------------------------------------- entrants

    def entrant(self, entrant_id: str) -> Entrant:
        """An entrant by id (``not_entered`` if there is none)."""
        for entrant in self.entrants:
            if entrant.id == entrant_id:
                return entrant
        raise TournamentError("not_entered", f"{entrant_id[:40]!r} has not entered this event")

    def _replace_entrant(self, entrant: Entrant) -> Event:
        return replace(
            self, entrants=tuple(entrant if e.id == entrant.id else e for e in self.entrants)
        )

    @property
    def joins_open(self) -> bool:
        """Whether a new entrant may join now."""
        if self.status == "finished":
            return False
        if self.status == "created" or self.settings.format == "arena":
            return True
        return 2 * len(self.rounds) <= self.settings.total_rounds

    def join(self, entrant: Entrant) -> Event:
        """The event with ``entrant`` entered (see the module's docstring for when)."""
        settings = self.settings
        if self.status == "finished":
            raise TournamentError("finished", "this event is over")
        if not self.joins_open:
            raise TournamentError(
                "too_late", "entries close once more than half of the rounds have been paired"
            )
        if len(self.entrants) >= settings.max_entrants:
            raise TournamentError("full", f"this event is full ({settings.max_entrants} entrants)")
        if len(entrant.members) != settings.members:
            raise TournamentError(
                "bad_entrant",
                "this event is for teams of two" if settings.teams else "this event is for players",
            )
        for member in entrant.members:
            if member.kind == "bot" and not settings.bots:
                raise TournamentError("no_bots", "this event does not take the server's bots")
            if member.kind == "external" and not settings.external:
                raise TournamentError("no_programs", "this event does not take bot programs")
        if any(e.id == entrant.id for e in self.entrants):
            raise TournamentError("already_entered", f"{entrant.id[:40]!r} has entered already")
        known = {m.identity for e in self.entrants for m in e.members} - {None}
        mine = [m.identity for m in entrant.members if m.identity is not None]
        if len(set(mine)) != len(mine) or any(who in known for who in mine):
            raise TournamentError(
                "already_entered", "a player can enter an event once (a withdrawn entry comes back)"
            )
        joined_round = len(self.rounds) if self.status == "running" else 0
        entered = replace(entrant, joined_round=joined_round, withdrawn=False)
        return replace(self, entrants=(*self.entrants, entered))

    def withdraw(self, entrant_id: str) -> Event:
        """The event with the entrant withdrawn: before the start the entry is gone;
        after it, the entrant is not paired again until it comes back."""
        entrant = self.entrant(entrant_id)
        if self.status == "finished":
            raise TournamentError("finished", "this event is over")
        if self.status == "created":
            return replace(self, entrants=tuple(e for e in self.entrants if e.id != entrant_id))
        if entrant.withdrawn:
            raise TournamentError("withdrawn", "this entrant has withdrawn already")
        return self._replace_entrant(entrant.with_status(withdrawn=True))

    def come_back(self, entrant_id: str) -> Event:
        """The event with a withdrawn entrant paired again from the next pairing."""
        entrant = self.entrant(entrant_id)
        if self.status == "finished":
            raise TournamentError("finished", "this event is over")
        if not entrant.withdrawn:
            raise TournamentError("not_withdrawn", "this entrant has not withdrawn")
        return self._replace_entrant(entrant.with_status(withdrawn=False))

    def active(self) -> list[Entrant]:
        """The entrants not withdrawn."""
        return [e for e in self.entrants if not e.withdrawn]

    # ----------------------------------------------------------------- its life

    def start(self) -> Event:
        """The event running (``too_few`` without a first table's worth of entrants,
        two tables' for duplicate)."""
        if self.status != "created":
            raise TournamentError("started", "this event has started already")
        least = self.settings.least_field
        if len(self.active()) < least:
            raise TournamentError("too_few", f"this event needs {least} entrants to start")
        return replace(self, status="running")

    def finish(self) -> Event:
        """The event over (its last standings are final)."""
        if self.status == "finished":
            raise TournamentError("finished", "this event is over")
        return replace(self, status="finished")

    def round_complete(self) -> bool:
        """True when the last paired round (if any) has every result it awaits."""
        if not self.rounds:
            return True
        last = self.rounds[-1]
        if self.settings.format == "duplicate":
            return duplicate.round_complete(last, self.results, self.settings.boards_per_round)
        done = {r.table for r in swiss.round_results([last], self.results)}
        return all(t in done for t in range(len(last.tables)))

    def pair_next_round(self) -> Event:
        """The event with its next Swiss or duplicate round paired."""
        settings = self.settings
        if settings.format == "arena":
            raise TournamentError("arena", "an arena pairs entrants as their games end")
        if self.status != "running":
            raise TournamentError("not_running", "the event is not running")
        if len(self.rounds) >= settings.total_rounds:
            raise TournamentError("no_more_rounds", "every round has been paired")
        if not self.round_complete():
            raise TournamentError("round_running", "the last round's games are not all over")
        pair = swiss.pair_swiss if settings.format == "swiss" else duplicate.pair_duplicate
        paired = pair(settings, self.entrants, self.rounds, self.results)
        return replace(self, rounds=(*self.rounds, paired))

    def pair_waiting(self, waiting: Sequence[arena.Waiting], now: float) -> list[tuple[str, ...]]:
        """An arena's tables to make now from the entrants waiting (the event is unchanged:
        the server makes the tables and records their results)."""
        if self.settings.format != "arena":
            raise TournamentError("not_arena", "only an arena pairs entrants as they wait")
        if self.status != "running":
            raise TournamentError("not_running", "the event is not running")
        return arena.pair_arena(self.settings, self.entrants, self.results, waiting, now)

    def sides_of(self, round_number: int, table: int, board: int = 0) -> tuple[str, ...]:
        """Who holds each side of a paired table (on a duplicate board, rotated)."""
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentError("bad_result", f"round {round_number} has not been paired")
        tables = self.rounds[round_number - 1].tables
        if not 0 <= table < len(tables):
            raise TournamentError("bad_result", f"round {round_number} has no table {table}")
        if self.settings.format == "duplicate":
            if not 0 <= board < self.settings.boards_per_round:
                raise TournamentError("bad_result", f"a round has no board {board}")
            return duplicate.board_sides(tables[table], board)
        if board:
            raise TournamentError("bad_result", "only a duplicate has boards")
        return tables[table]

    def record(self, result: GameResult) -> Event:
        """The event with a finished game's result, checked against its pairing."""
        settings = self.settings
        if self.status != "running":
            raise TournamentError("not_running", "results are recorded while the event runs")
        if len(result.sides) != settings.sides:
            raise TournamentError("bad_result", f"a table of this event has {settings.sides} sides")
        known = {e.id for e in self.entrants}
        if not set(result.sides) <= known:
            raise TournamentError("bad_result", "a side of this game has not entered the event")
        if settings.format == "arena":
            if result.round or result.board:
                raise TournamentError("bad_result", "an arena has no rounds or boards")
            if result.table_id and any(r.table_id == result.table_id for r in self.results):
                raise TournamentError("already_recorded", "this game's result is in already")
        else:
            if self.sides_of(result.round, result.table, result.board) != result.sides:
                raise TournamentError(
                    "bad_result", "these sides are not the ones paired at that table"
                )
            place = (result.round, result.table, result.board)
            if any((r.round, r.table, r.board) == place for r in self.results):
                raise TournamentError("already_recorded", "this game's result is in already")
        return replace(self, results=(*self.results, result))

    def standings(self) -> list[Standing]:
        """The standings, recomputed from the stored rounds and results."""
        return standings(self.settings, self.entrants, self.rounds, self.results)

    # ------------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """Everything the event stores, as JSON (no card is ever in it)."""
        return {
            "id": self.id,
            "status": self.status,
            "settings": self.settings.to_json(),
            "entrants": [e.to_json() for e in self.entrants],
            "rounds": [r.to_json() for r in self.rounds],
            "results": [r.to_json() for r in self.results],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """An event from :meth:`to_json`."""
        return cls(
            str(data["id"]),
            EventSettings.from_json(data["settings"]),
            tuple(Entrant.from_json(e) for e in data.get("entrants", ())),
            tuple(Round.from_json(r) for r in data.get("rounds", ())),
            tuple(GameResult.from_json(r) for r in data.get("results", ())),
            str(data.get("status", "created")),
        )
