"""What an event shows: the same JSON for ``GET /api/tournaments/{id}`` and the event
socket's frames, and the short form of the lists.

An event's JSON names its entrants and their players (names, kinds, bot levels,
usernames of accounts), never an identity; it holds no card. For duplicate, a
board's scores, its games' results and its table of results (who held which side
at which table, what they scored, their margin and matchpoints) are shown only
once every table of its round has played it (:meth:`Held.shown`): before, a
score would say something of a deal others are still to play. The standings are
the live ones (:meth:`Held.standings`), each line with the entrant's name.

Names the page writes in its own language travel as what they are, beside their
default text: an entrant of the server's bots carries ``bots`` (its number and
level: :mod:`basra.bot_names`; the page names it as the event's tables name the
same bot), and an event the server's schedule made carries ``names``, the
operator's name for it in each language the schedule gives
(:attr:`~basra.server.features.tournaments.schedule.ScheduleEntry.names`; none
once an operator renamed the event).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from basra.bot_names import bot_number
from basra.server.features.tournaments.store import TournamentGameRow, TournamentRow
from basra.tournaments import TIE_BREAKS, Entrant
from basra.tournaments.duplicate import board_results
from basra.tournaments.ranking import number_json

from .held import Held

__all__ = ["RECENT_GAMES", "Titles", "event_json", "summary_json"]

Titles = Mapping[str, Mapping[str, str]]
"""The schedule's events' names by language, by their default name."""

RECENT_GAMES = 60
"""Finished games an arena's JSON lists (the newest; a Swiss lists every round's)."""
RECENT_SHEET = 8
"""The points of an entrant's last games its standings line shows."""


def titles_of(row: TournamentRow, titles: Titles) -> dict[str, str]:
    """A scheduled event's names in other languages (none for a person's event, or for
    one an operator renamed since the schedule made it)."""
    if row.created_by is not None or not row.schedule_key:
        return {}
    scheduled = row.schedule_key.rpartition("|")[0]
    return dict(titles.get(row.name, {})) if scheduled == row.name else {}


def summary_json(
    row: TournamentRow, entrants: int | None = None, titles: Titles | None = None
) -> dict[str, Any]:
    """An event as the lists show it: its id, name (and its names in other languages),
    format, variant, seats, start, status."""
    settings = row.settings
    out: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "format": settings["format"],
        "variant": settings["variant"],
        "rules": settings.get("rules", {}),
        "seats": settings["seats"],
        "teams": settings.get("teams", False),
        "clock": settings.get("clock"),
        "rated": settings.get("rated", True),
        "minutes": settings.get("minutes"),
        "rounds": settings.get("rounds"),
        "max_entrants": settings.get("max_entrants"),
        "starts_at": row.starts_at,
        "ends_at": row.ends_at,
        "status": row.status,
        "ended": row.ended,
        "public": row.public,
        "scheduled": row.created_by is None,
        "url": f"/tournaments/{row.id}",
    }
    names = titles_of(row, titles or {})
    if names:
        out["names"] = names
    if entrants is not None:
        out["entrants"] = entrants
    return out


def _member_json(member: Mapping[str, Any], usernames: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": member["kind"], "name": member["name"]}
    if member["kind"] == "bot":
        out["level"] = member["ref"]
        number = bot_number(member["name"])
        if number is not None:
            out["number"] = number
    elif member["kind"] == "person" and member["ref"] in usernames:
        out["username"] = usernames[member["ref"]]
    return out


def _bots_json(entrant: Entrant) -> dict[str, Any] | None:
    """The server's bots an entrant is, as the page names them (its number, level and
    how many: ``Bot 3 (easy)``, ``Bots 3 (easy)``); None for anyone else."""
    members = entrant.members
    if not members or any(m.kind != "bot" for m in members):
        return None
    number = bot_number(entrant.name)
    if number is None:
        return None
    return {"number": number, "level": members[0].ref, "count": len(members)}


def _game_json(held: Held, game: TournamentGameRow) -> dict[str, Any]:
    out: dict[str, Any] = {
        "table": game.table_id,
        "round": game.round,
        "number": game.table,
        "board": game.board,
        "sides": list(game.sides),
        "over": game.result is not None,
        "private": held.duplicate,
        "paired_at": game.created_at,
    }
    if game.result is not None and held.shown(game):
        out["scores"] = game.result["scores"]
        out["forfeited"] = game.result.get("forfeited", [])
        out["late"] = bool(game.result.get("late"))
        out["finished_at"] = game.finished_at
        out["revealed"] = True
    elif held.duplicate:
        out["revealed"] = False
    return out


def event_json(
    held: Held, usernames: Mapping[str, str], titles: Titles | None = None
) -> dict[str, Any]:
    """Everything anyone may see of an event (no identity, no card); ``titles``: the
    schedule's names of its events in other languages."""
    row, settings = held.row, held.settings
    event = held.event
    names = {e.id: e.name for e in event.entrants}
    entrants = [
        {
            "id": e.id,
            "name": e.name,
            "members": [_member_json(m.to_json(), usernames) for m in e.members],
            "withdrawn": e.withdrawn,
            "seed": round(e.seed, 3),
            "joined_round": e.joined_round,
            **({"bots": bots} if (bots := _bots_json(e)) else {}),
        }
        for e in event.entrants
    ]
    tie_breaks = TIE_BREAKS[settings.format]
    lines = []
    for line in held.standings():
        item = line.to_json(tie_breaks)
        item["name"] = names.get(line.entrant, "?")
        # The last few games' points only: a frame goes to every watcher, often.
        item["recent"] = [number_json(entry.points) for entry in line.sheet[-RECENT_SHEET:]]
        del item["sheet"]
        lines.append(item)
    playing = [_game_json(held, g) for g in held.games.values() if g.result is None]
    playing.sort(key=lambda g: (g["round"], g["number"], g["board"]))
    finished = [g for g in held.games.values() if g.result is not None]
    finished.sort(key=lambda g: (g.finished_at or 0.0, g.table_id), reverse=True)
    rounds = []
    games_at: dict[tuple[int, int], list[TournamentGameRow]] = {}
    for game in held.games.values():
        games_at.setdefault((game.round, game.table), []).append(game)
    for paired in event.rounds:
        tables = []
        for index, sides in enumerate(paired.tables):
            games = sorted(games_at.get((paired.number, index), []), key=lambda g: g.board)
            tables.append({"sides": list(sides), "games": [_game_json(held, g) for g in games]})
        rounds.append({"number": paired.number, "tables": tables, "byes": list(paired.byes)})
    out: dict[str, Any] = {
        **summary_json(row, len(event.entrants), titles),
        "settings": settings.to_json(),
        "boards": settings.boards,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "version": held.version,
        "tie_breaks": list(tie_breaks),
        "entrants": entrants,
        "standings": lines,
        "playing": playing,
        "finished": [_game_json(held, g) for g in finished[:RECENT_GAMES]],
        "games": len(finished),
        "rounds_played": len(event.rounds),
        "pairings": rounds,
        "podium": _podium(held) if row.status == "finished" else [],
    }
    if held.duplicate:
        out["board_results"] = _boards(held)
    return out


def _podium(held: Held) -> list[dict[str, Any]]:
    names = {e.id: e.name for e in held.event.entrants}
    return [
        {
            "rank": s.rank,
            "entrant": s.entrant,
            "name": names.get(s.entrant, "?"),
            "score": number_json(s.score),
        }
        for s in held.standings()
        if s.rank <= 3 and (s.games or s.byes)
    ]


def _boards(held: Held) -> list[dict[str, Any]]:
    """Each revealed board's table of results: who held which side at which table, what
    they made of it (the table's replay shows how they played it)."""
    event, settings = held.event, held.settings
    revealed = held.revealed()
    names = {e.id: e.name for e in event.entrants}
    table_ids = {(g.round, g.table, g.board): g.table_id for g in held.games.values()}
    boards: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for row in board_results(event.rounds, event.results, settings.boards_per_round):
        if (row.round, row.board) not in revealed:
            continue
        boards.setdefault((row.round, row.board), []).append(
            {
                "side": row.side,
                "table": row.table,
                "table_id": table_ids.get((row.round, row.table, row.board)),
                "entrant": row.entrant,
                "name": names.get(row.entrant, "?"),
                "score": row.score,
                "margin": number_json(row.margin),
                "forfeited": row.forfeited,
                "matchpoints": row.matchpoints,
                "top": row.top,
                "share": number_json(row.share),
            }
        )
    return [{"round": r, "board": b, "rows": rows} for (r, b), rows in sorted(boards.items())]
