"""The Swiss: a fixed number of rounds, each entrant at one table a round, paired by score.

Scores (lichess's Swiss, generalised to every table):

- a game gives **one point for every other side outscored, half for every side
  tied with, divided by the other sides**: with two sides 1 for a win, ½ for a
  draw, 0 for a loss; at a table of three 1 / ½ / 0, of four 1 / ⅔ / ⅓ / 0.
  Every table hands out on average ½ a point an entrant, whatever its size;
- a **forfeited** side scores nothing (see :func:`~basra.tournaments.results.head_to_head`);
- a **bye** (no table for it this round) is worth a win, **1**, when tables have
  two sides (as lichess and most chess events), and the mean result, **½**,
  when they have three or four: there a round can leave up to three entrants
  without a table, and a win each would pay them for not playing;
- an entrant who **joins late** gets ½ once for the rounds it missed (lichess's
  "late" round); rounds missed while withdrawn score nothing.

Tie-breaks, in order (:data:`TIE_BREAKS`), each over the entrant's finished games:

- **Sonneborn–Berger**: for each opponent at each table, what the entrant
  scored against it (1, ½, 0: :func:`~basra.tournaments.results.versus`) times
  the opponent's final score, divided by the table's other sides (so with two
  sides: the scores of the beaten plus half the scores of the drawn);
- **Buchholz**: the mean final score of the opponents at each table, summed;
- byes and missed rounds add nothing to either.

Pairing (:func:`pair_swiss`): round 1 by seed, the field cut into as many
bands as a table has sides and table ``t`` takes the ``t``-th of each band (with
two sides: 1 against n/2+1, as the Dutch system's first round). Later rounds
by score (then seed): the byes first (``n mod sides`` entrants: fewest byes so
far, then the lowest score, the lowest seed, chosen so that the rest can sit
without repeats if that can be done), then tables of the nearest in score
with the fewest repeated meetings there are
(:func:`~basra.tournaments.grouping.group_tables`): none while possible.

>>> [str(game_points(GameResult(("a", "b", "c", "d"), (10, 40, 40, 20)), s)) for s in range(4)]
['0', '5/6', '5/6', '1/3']
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from basra.tournaments.grouping import group_tables
from basra.tournaments.ranking import SheetEntry, Standing, places
from basra.tournaments.results import GameResult, Round, head_to_head, versus
from basra.tournaments.settings import Entrant, EventSettings, TournamentError

__all__ = [
    "BYE_TRIES",
    "LATE_POINTS",
    "TIE_BREAKS",
    "bye_points",
    "game_points",
    "meetings",
    "pair_by_score",
    "pair_swiss",
    "round_results",
    "swiss_standings",
]

LATE_POINTS = Fraction(1, 2)
"""What joining after the first round is worth, once."""
TIE_BREAKS = ("sonneborn_berger", "buchholz")


def bye_points(sides: int) -> Fraction:
    """A Swiss bye: a win (1) at two-sided tables, the mean result (½) at larger ones."""
    return Fraction(1) if sides == 2 else Fraction(1, 2)


def game_points(result: GameResult, side: int) -> Fraction:
    """A side's Swiss points from a game (see the module's docstring)."""
    outscored, tied = head_to_head(result.scores, result.forfeited)[side]
    return Fraction(2 * outscored + tied, 2 * (len(result.sides) - 1))


def round_results(rounds: Sequence[Round], results: Sequence[GameResult]) -> list[GameResult]:
    """The results that belong to a paired table of a round (others are ignored)."""
    tables = {(r.number, i): frozenset(t) for r in rounds for i, t in enumerate(r.tables)}
    return [r for r in results if tables.get((r.round, r.table)) == frozenset(r.sides)]


def meetings(rounds: Sequence[Round]) -> Counter[frozenset[str]]:
    """How often each pair of entrants has sat at one table (a round counts once)."""
    met: Counter[frozenset[str]] = Counter()
    for paired in rounds:
        for table in paired.tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    met[frozenset((a, b))] += 1
    return met


def _swiss_lines(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> tuple[dict[str, list[SheetEntry]], dict[str, list[tuple[GameResult, int]]]]:
    games = round_results(rounds, results)
    by_round: dict[tuple[int, str], tuple[GameResult, int]] = {}
    for result in games:
        for side, holder in enumerate(result.sides):
            by_round[(result.round, holder)] = (result, side)
    sheets: dict[str, list[SheetEntry]] = {}
    played: dict[str, list[tuple[GameResult, int]]] = {}
    bye = bye_points(settings.sides)
    for entrant in entrants:
        sheet: list[SheetEntry] = []
        mine: list[tuple[GameResult, int]] = []
        if entrant.joined_round > 0:
            sheet.append(SheetEntry("late", LATE_POINTS))
        for paired in rounds:
            if paired.number <= entrant.joined_round:
                continue
            if entrant.id in paired.byes:
                sheet.append(SheetEntry("bye", bye))
            elif (paired.number, entrant.id) in by_round:
                result, side = by_round[(paired.number, entrant.id)]
                sheet.append(SheetEntry("game", game_points(result, side)))
                mine.append((result, side))
            elif not any(entrant.id in table for table in paired.tables):
                sheet.append(SheetEntry("absent", Fraction(0)))
            # else: its game of this round is still being played
        sheets[entrant.id] = sheet
        played[entrant.id] = mine
    return sheets, played


def swiss_scores(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> dict[str, Fraction]:
    """Each entrant's Swiss points so far."""
    sheets, _ = _swiss_lines(settings, entrants, rounds, results)
    return {e: sum((s.points for s in sheet), Fraction(0)) for e, sheet in sheets.items()}


def swiss_standings(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> list[Standing]:
    """The Swiss's standings (see the module's docstring)."""
    sheets, played = _swiss_lines(settings, entrants, rounds, results)
    score = {e: sum((s.points for s in sheet), Fraction(0)) for e, sheet in sheets.items()}
    tie_breaks: dict[str, tuple[Fraction, Fraction]] = {}
    wins: dict[str, int] = {}
    for entrant in entrants:
        sonneborn_berger = buchholz = Fraction(0)
        won = 0
        for result, side in played[entrant.id]:
            others = len(result.sides) - 1
            for other, opponent in enumerate(result.sides):
                if other == side:
                    continue
                theirs = score.get(opponent, Fraction(0))
                buchholz += theirs / others
                sonneborn_berger += versus(result, side, other) * theirs / others
            won += head_to_head(result.scores, result.forfeited)[side][0] == others
        tie_breaks[entrant.id] = (sonneborn_berger, buchholz)
        wins[entrant.id] = won
    rows = [(e.id, (score[e.id], *tie_breaks[e.id])) for e in entrants]
    by_id = {e.id: e for e in entrants}
    return [
        Standing(
            rank=rank,
            entrant=entrant_id,
            score=score[entrant_id],
            tie_breaks=tie_breaks[entrant_id],
            games=len(played[entrant_id]),
            wins=wins[entrant_id],
            byes=sum(1 for s in sheets[entrant_id] if s.kind == "bye"),
            withdrawn=by_id[entrant_id].withdrawn,
            sheet=tuple(sheets[entrant_id]),
        )
        for entrant_id, rank in places(rows)
    ]


BYE_TRIES = 12
"""Choices of byes tried, neediest first, when the first leaves only repeated meetings."""


def pair_by_score(
    number: int,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    score: Callable[[str], Fraction],
    sides: int,
) -> Round:
    """Round ``number`` for the entrants not withdrawn, by ``score`` (see the module's
    docstring). Duplicate events seat their rounds with it too.

    The byes go to the entrants with the fewest byes so far (nobody gets a
    second while another has had none), then the lowest score and seed; among
    the choices that keep to this, the first that lets the rest sit without
    repeated meetings is taken (the neediest first, :data:`BYE_TRIES` at most),
    else the one with the fewest.
    """
    field = [e for e in entrants if not e.withdrawn]
    if len(field) < sides:
        raise TournamentError(
            "too_few", f"a round needs at least {sides} entrants who have not withdrawn"
        )
    entry = {e.id: i for i, e in enumerate(entrants)}
    seed = {e.id: e.seed for e in entrants}
    met = meetings(rounds)
    byes_so_far = Counter(b for paired in rounds for b in paired.byes)
    extra = len(field) % sides
    need = sorted(
        (e.id for e in field), key=lambda e: (byes_so_far[e], score(e), seed[e], -entry[e])
    )
    choices: Iterable[tuple[str, ...]] = [()]
    if extra:
        most = byes_so_far[need[extra - 1]]
        must = tuple(e for e in need if byes_so_far[e] < most)
        may = [e for e in need if byes_so_far[e] == most]
        choices = (
            must + chosen
            for chosen in itertools.islice(
                itertools.combinations(may, extra - len(must)), BYE_TRIES
            )
        )
    best: tuple[int, tuple[str, ...], list[tuple[str, ...]]] | None = None
    for byes in choices:
        ranked = sorted(
            (e for e in need if e not in byes), key=lambda e: (-score(e), -seed[e], entry[e])
        )
        if not met:
            # Nobody has met yet (the first round): table t takes the t-th of each band.
            count = len(ranked) // sides
            tables = [
                tuple(ranked[t + band * count] for band in range(sides)) for t in range(count)
            ]
            cost = 0
        else:
            tables, cost = group_tables(ranked, sides, lambda a, b: met[frozenset((a, b))])
        if best is None or cost < best[0]:
            best = (cost, byes, tables)
        if not cost:
            break
    assert best is not None
    _, byes, tables = best
    return Round(number, tuple(tables), tuple(byes))


def pair_swiss(
    settings: EventSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
) -> Round:
    """The Swiss's next round from its rounds and results so far."""
    scores = swiss_scores(settings, entrants, rounds, results)
    return pair_by_score(
        len(rounds) + 1, entrants, rounds, lambda e: scores.get(e, Fraction(0)), settings.sides
    )
