"""Duplicate: every table of a round plays the same packs, and a result is compared
with everyone who held the same cards.

A round seats the field at tables (as a Swiss does: :func:`~basra.tournaments.swiss.pair_by_score`,
by the duplicate score, fewest repeated meetings) and plays ``boards`` deals,
each one round of the variant (:data:`~basra.tournaments.settings.DUPLICATE_OVERRIDES`).
Board ``b`` of round ``r`` is the same pack with the same first dealer at every
table; the pack comes from the server's secret (:func:`board_deal`, through
:func:`basra.deals.derived_pack`), so nobody knows it before it is dealt. At a
table the entrants *rotate*: on board ``b`` the entrant at place ``p`` holds
side ``(p + b) mod sides`` (:func:`board_sides`), so with as many boards as
sides (the default) everyone holds every side's cards once a round.

Scores, board by board:

- a side's **margin** is its points less the mean of the other sides' points
  at its table (with two sides: its points less its opponent's), because a
  fishing game's total is not fixed: what a side scored depends on what the
  others let it take;
- the **matchpoints** of a side are counted among everyone who held that side
  of that board in that round (one per table): 2 for each margin it beat, 1
  for each it equalled, of a top of 2 for each other holder. A forfeited side
  gets 0 and every other holder counts as beating it;
- the board's **share** is matchpoints / top (1: best at every table); a
  side held at one table only (the others' games are missing) gets ½.

An entrant's score is the sum of its boards' shares (its percentage is that
over the boards it played). A **bye** (``n mod sides`` entrants a round, the
same order as a Swiss's) is worth ½ a board for each board of the round, the
mean share. Rounds missed (joining late, withdrawn) score nothing. Tie-break
(:data:`TIE_BREAKS`): the sum of the margins (in points; a forfeited board adds
nothing), else a shared place.

>>> board_sides(("north", "east", "south"), 1)
('south', 'north', 'east')
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from basra.cards import Card
from basra.deals import derived_bytes, derived_pack
from basra.tournaments.ranking import SheetEntry, Standing, places
from basra.tournaments.results import GameResult, Round, order_key
from basra.tournaments.settings import Entrant, EventSettings
from basra.tournaments.swiss import pair_by_score

__all__ = [
    "BYE_SHARE",
    "TIE_BREAKS",
    "BoardDeal",
    "BoardRow",
    "board_deal",
    "board_label",
    "board_results",
    "board_sides",
    "duplicate_standings",
    "margin",
    "pair_duplicate",
    "played_boards",
    "revealed_boards",
    "round_complete",
]

BYE_SHARE = Fraction(1, 2)
"""A bye's share of each board of its round."""
TIE_BREAKS = ("margin",)


def board_sides(table: Sequence[str], board: int) -> tuple[str, ...]:
    """Who holds each side of a table on ``board``: the entrant at place ``p`` holds
    side ``(p + board) mod sides``."""
    size = len(table)
    return tuple(table[(side - board) % size] for side in range(size))


def board_label(event_id: str, round_number: int, board: int) -> str:
    """The public name of a board, from which its secret deal is derived."""
    return f"basra-duplicate/1|{event_id}|{round_number}|{board}"


@dataclass(frozen=True)
class BoardDeal:
    """A board's deal: the pack (top card first) and the first dealer's seat."""

    pack: tuple[Card, ...]
    first_dealer: int


def board_deal(
    secret: bytes, event_id: str, settings: EventSettings, round_number: int, board: int
) -> BoardDeal:
    """The deal of a board, the same at every table: derived from the server's
    ``secret``, so it stays unknown until a table is dealt it."""
    label = board_label(event_id, round_number, board)
    pack = derived_pack(secret, f"{label}|pack", settings.rules)
    dealer = derived_bytes(secret, f"{label}|dealer")[0] % settings.game_players
    return BoardDeal(tuple(pack), dealer)


def margin(result: GameResult, side: int) -> Fraction:
    """A side's points less the mean of the other sides' points."""
    others = [s for i, s in enumerate(result.scores) if i != side]
    return result.scores[side] - Fraction(sum(others), len(others))


@dataclass(frozen=True)
class BoardRow:
    """One side of one table on one board: who held it, what they made of it."""

    round: int
    board: int
    side: int
    table: int
    entrant: str
    score: int
    margin: Fraction
    forfeited: bool
    matchpoints: int
    top: int
    """The most matchpoints there were: 2 for each other holder of the side."""

    @property
    def share(self) -> Fraction:
        """Matchpoints over the top (½ when nobody else held the side)."""
        return Fraction(self.matchpoints, self.top) if self.top else Fraction(1, 2)


def played_boards(
    rounds: Sequence[Round], results: Sequence[GameResult], boards: int
) -> list[GameResult]:
    """The results that belong to a board of a paired table, seated as rotated."""
    seats = {
        (r.number, i, b): board_sides(t, b)
        for r in rounds
        for i, t in enumerate(r.tables)
        for b in range(boards)
    }
    return [r for r in results if seats.get((r.round, r.table, r.board)) == r.sides]


def board_results(
    rounds: Sequence[Round], results: Sequence[GameResult], boards: int
) -> list[BoardRow]:
    """Every side of every played board, with its matchpoints, board by board
    (a deal's table of results: who held what, how they scored)."""
    holders: dict[tuple[int, int, int], list[tuple[GameResult, int]]] = defaultdict(list)
    for result in played_boards(rounds, results, boards):
        for side in range(len(result.sides)):
            holders[(result.round, result.board, side)].append((result, side))
    rows = []
    for (round_number, board, side), group in sorted(holders.items()):
        keys = [order_key(margin(r, s), s in r.forfeited) for r, s in group]
        ordered = sorted(keys)
        for (result, _), key in zip(group, keys, strict=True):
            forfeited = side in result.forfeited
            below = bisect.bisect_left(ordered, key)
            level = bisect.bisect_right(ordered, key) - below - 1  # the others equal to it
            points = 0 if forfeited else 2 * below + level
            rows.append(
                BoardRow(
                    round_number,
                    board,
                    side,
                    result.table,
                    result.sides[side],
                    result.scores[side],
                    margin(result, side),
                    forfeited,
                    points,
                    2 * (len(group) - 1),
                )
            )
    return rows


def revealed_boards(
    rounds: Sequence[Round], results: Sequence[GameResult], boards: int
) -> set[tuple[int, int]]:
    """The ``(round, board)`` whose deal may be shown: every table of its round has
    played it, so nobody still to play it can learn its cards (its records,
    replays and table of results stay hidden until then)."""
    done: dict[tuple[int, int], set[int]] = defaultdict(set)
    for result in played_boards(rounds, results, boards):
        done[(result.round, result.board)].add(result.table)
    return {
        (paired.number, board)
        for paired in rounds
        for board in range(boards)
        if len(done[(paired.number, board)]) == len(paired.tables)
    }


def round_complete(paired: Round, results: Sequence[GameResult], boards: int) -> bool:
    """True when every table of the round has played every board."""
    done = {(r.table, r.board) for r in played_boards([paired], results, boards)}
    return all((t, b) in done for t in range(len(paired.tables)) for b in range(boards))


def _duplicate_lines(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> dict[str, tuple[list[SheetEntry], list[BoardRow]]]:
    boards = settings.boards_per_round
    rows_of: dict[str, list[BoardRow]] = defaultdict(list)
    for row in board_results(rounds, results, boards):
        rows_of[row.entrant].append(row)
    lines = {}
    for entrant in entrants:
        sheet = []
        for paired in rounds:
            if paired.number <= entrant.joined_round:
                continue  # paired before it joined: nothing to show
            if entrant.id in paired.byes:
                sheet.append(SheetEntry("bye", BYE_SHARE * boards))
                continue
            mine = [r for r in rows_of[entrant.id] if r.round == paired.number]
            if mine:
                sheet.append(SheetEntry("round", sum((r.share for r in mine), Fraction(0))))
            elif not any(entrant.id in table for table in paired.tables):
                sheet.append(SheetEntry("absent", Fraction(0)))
        lines[entrant.id] = (sheet, rows_of[entrant.id])
    return lines


def duplicate_standings(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> list[Standing]:
    """The duplicate's standings (see the module's docstring)."""
    lines = _duplicate_lines(settings, entrants, rounds, results)
    score = {e: sum((s.points for s in sheet), Fraction(0)) for e, (sheet, _) in lines.items()}
    margins = {
        e: sum((r.margin for r in rows if not r.forfeited), Fraction(0))
        for e, (_, rows) in lines.items()
    }
    rows = [(e.id, (score[e.id], margins[e.id])) for e in entrants]
    by_id = {e.id: e for e in entrants}
    return [
        Standing(
            rank=rank,
            entrant=entrant_id,
            score=score[entrant_id],
            tie_breaks=(margins[entrant_id],),
            games=len(lines[entrant_id][1]),
            wins=sum(1 for r in lines[entrant_id][1] if r.top and r.matchpoints == r.top),
            byes=sum(1 for s in lines[entrant_id][0] if s.kind == "bye"),
            withdrawn=by_id[entrant_id].withdrawn,
            sheet=tuple(lines[entrant_id][0]),
        )
        for entrant_id, rank in places(rows)
    ]


def pair_duplicate(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> Round:
    """The duplicate's next round: tables by score, fewest repeated meetings."""
    scores = {s.entrant: s.score for s in duplicate_standings(settings, entrants, rounds, results)}
    return pair_by_score(
        len(rounds) + 1, entrants, rounds, lambda e: scores.get(e, Fraction(0)), settings.sides
    )
