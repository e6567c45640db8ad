"""Ratings: rated tables, pools by variant family and table kind, bots at fixed ratings.

A person has one openskill rating (Plackett-Luce, the library's defaults: a
newcomer starts at mu 25, sigma 25/3) per *pool*: a variant family
(:data:`FAMILIES`) and a table kind (:data:`KINDS`: 2, 3 or 4 players, or 4 in
two teams). Families group the presets whose play rewards the same skills:

- ``egyptian``: the 7♦ sweeps (Egyptian, its 121 and Mona Russel forms, Sab'a
  Alkoomi, Yemeni, Ethiopian);
- ``lebanese``: 6-card hands, basras by matching a lone card (Lebanese,
  Ashush, alefb);
- ``cypriot``: clear-the-floor basras worth 10 (Cypriot Bastra, classic);
- ``double_face``: a basra scores twice the card's face (Syrian, Homsi,
  Palestinian, Jordanian).

A rated table plays its variant's own rules (only ``target`` may change, which
sets the game's length), has no hints and has a clock. When the game ends, the
sides are placed by the outcome (the winner first, the others by score, equal
scores tied) and every person's rating in the pool moves by
``PlackettLuce().rate(teams, ranks=places)``; a side's team holds the ratings
of its seats. Bots are rated players at fixed ratings: they enter the
calculation with the numbers of :data:`BOT_RATINGS_FILE` (one data file, so
the arena's calibration can replace them) and never change, so a game against
bots counts. A program playing through the bot API (:mod:`basra.server.features.botapi`)
is rated as a bot too, at the file's :data:`EXTERNAL` entry (a newcomer's
numbers when it has none: nothing is known of an unknown program).

What counts when a game does not end normally:

- a seat that *forfeits* (see :mod:`basra.server.table.clocks`: the server played too
  many of its moves) loses: the game is rated at once with its side last, the
  other sides placed by the score so far; a partner of a forfeiting person
  keeps their rating unchanged (they did not leave);
- a table *abandoned* (nobody connected for ``--abandon-after``, or stopped by
  a server fault) is not rated: a person who leaves a game in play forfeits
  long before, since the stand-in's moves count toward the forfeit;
- casual tables are never rated, but their results still go to profiles.

Results are settled once per table (:meth:`~basra.server.store.protocols.PlayerStore.settle_game`),
whichever process or restart gets there first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import basra.bots
from basra.bots import LEVELS
from basra.pools import FAMILIES, FAMILY_OF, KINDS, family_of, table_kind
from basra.server.store.rows import RatingRow, ResultRow, SeatKind, Settlement, TableRow
from basra.state import GameState

__all__ = [
    "BOT_RATINGS_FILE",
    "EXTERNAL",
    "FAMILIES",
    "FAMILY_OF",
    "KINDS",
    "BotRatings",
    "SeatStanding",
    "Standings",
    "bot_ratings",
    "family_of",
    "load_bot_ratings",
    "new_rating",
    "rating_json",
    "settle",
    "standings",
    "table_kind",
]

EXTERNAL = SeatKind.EXTERNAL.value
"""The ratings file's entry for programs playing through the bot API (a seat kind too)."""

BOT_RATINGS_FILE = Path(basra.bots.__file__).parent / "ratings.json"
"""The bots' fixed ratings (``basra-bot-ratings/1``): the one place the arena's calibration
replaces."""


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_rating() -> tuple[float, float]:
    """A newcomer's mu and sigma (the library's defaults)."""
    rating = _model().rating()
    return float(rating.mu), float(rating.sigma)


def rating_json(mu: float, sigma: float, games: int | None = None) -> dict[str, Any]:
    """A rating as the API shows it: mu, sigma and ``ordinal`` = mu - 3 sigma (the sort key).

    >>> rating_json(25.0, 25 / 3)
    {'mu': 25.0, 'sigma': 8.333, 'ordinal': 0.0}
    """
    out: dict[str, Any] = {
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "ordinal": round(mu - 3 * sigma, 3),
    }
    if games is not None:
        out["games"] = games
    return out


@dataclass(frozen=True)
class BotRatings:
    """The bots' fixed ratings: per level, with overrides per pool (``family/kind``)."""

    default: Mapping[str, tuple[float, float]]
    pools: Mapping[str, Mapping[str, tuple[float, float]]]
    source: str

    def of(self, level: str, family: str, kind: str) -> tuple[float, float]:
        """The mu and sigma of a bot level in a pool."""
        pool = self.pools.get(f"{family}/{kind}", {})
        return pool.get(level) or self.default[level]


def _pair(where: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected {{'mu': ..., 'sigma': ...}}")
    mu, sigma = value.get("mu"), value.get("sigma")
    if not isinstance(mu, int | float) or not isinstance(sigma, int | float) or sigma <= 0:
        raise ValueError(f"{where}: mu must be a number and sigma a positive number")
    return float(mu), float(sigma)


def load_bot_ratings(path: Path = BOT_RATINGS_FILE) -> BotRatings:
    """Read and check a ``basra-bot-ratings/1`` file (every level needs a default)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != "basra-bot-ratings/1":
        raise ValueError(f"{path}: format must be basra-bot-ratings/1")
    default = {
        level: _pair(f"{path}: default.{level}", data.get("default", {}).get(level))
        for level in LEVELS
    }
    external = data.get("default", {}).get(EXTERNAL)
    default[EXTERNAL] = (
        _pair(f"{path}: default.{EXTERNAL}", external) if external is not None else new_rating()
    )
    pools: dict[str, dict[str, tuple[float, float]]] = {}
    for pool, levels in (data.get("pools") or {}).items():
        family, _, kind = pool.partition("/")
        if family not in FAMILIES or kind not in KINDS:
            raise ValueError(f"{path}: pool {pool!r} is not FAMILY/KIND")
        pools[pool] = {
            level: _pair(f"{path}: pools.{pool}.{level}", value) for level, value in levels.items()
        }
    return BotRatings(default, pools, str(data.get("source", "")))


@cache
def bot_ratings() -> BotRatings:
    """The bots' fixed ratings of :data:`BOT_RATINGS_FILE` (read once)."""
    return load_bot_ratings()


@dataclass(frozen=True)
class SeatStanding:
    """Where one seat finished."""

    seat: int
    identity: str | None
    """The person sitting there (None for a bot)."""
    level: str | None
    """The bot's level (None for a person)."""
    side: int
    place: int
    outcome: str
    basras: int
    held: bool
    """True when this person's rating stays as it is (the partner of a forfeiting person)."""
    left: bool = False
    """Their person left the game (see :meth:`basra.server.table.clocks.ClockState.walked_out`)."""


@dataclass(frozen=True)
class Standings:
    """A game's result as it is settled (at its end, or when a seat forfeits)."""

    table_id: str
    variant: str
    family: str
    kind: str
    rated: bool
    rounds: int
    scores: tuple[int, ...]
    places: tuple[int, ...]
    """Per side: 0 for the first, tied sides share a place."""
    seats: tuple[SeatStanding, ...]

    @property
    def identities(self) -> list[str]:
        """The people at the table."""
        return [s.identity for s in self.seats if s.identity is not None]


def standings(
    row: TableRow, state: GameState, forfeited: Sequence[int] = (), left: Sequence[int] = ()
) -> Standings:
    """Place the sides: forfeiting sides last, the winner first, the rest by score; a seat
    that forfeited or is among ``left`` is marked as left."""
    sides = state.sides
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    lost = {side_of[seat] for seat in forfeited}
    outcome = state.outcome()
    scores = tuple(state.scores)

    def key(side: int) -> tuple[bool, bool, int]:
        won = outcome is not None and outcome.winner == side
        return side in lost, not won, -scores[side]

    keys = [key(side) for side in range(len(sides))]
    places = tuple(sum(1 for other in set(keys) if other < mine) for mine in keys)
    everyone_tied = len(set(places)) == 1
    basras = [0] * state.players
    for round_log in state.rounds:
        for play in round_log.plays:
            if play.basra:
                basras[play.seat] += 1
    seats = []
    for seat_row in row.seats:
        side = side_of[seat_row.seat]
        if seat_row.seat in forfeited:
            result = "forfeit"
        elif everyone_tied:
            result = "draw"
        else:
            result = "win" if places[side] == 0 else "loss"
        seats.append(
            SeatStanding(
                seat=seat_row.seat,
                identity=seat_row.identity if seat_row.kind == SeatKind.PERSON else None,
                level=seat_row.level
                if seat_row.kind == SeatKind.BOT
                else EXTERNAL
                if seat_row.kind == SeatKind.EXTERNAL
                else None,
                side=side,
                place=places[side],
                outcome=result,
                basras=basras[seat_row.seat],
                held=side in lost and seat_row.seat not in forfeited,
                left=seat_row.seat in forfeited or seat_row.seat in left,
            )
        )
    rounds = sum(1 for r in state.rounds if r.result is not None)
    return Standings(
        table_id=row.id,
        variant=row.variant,
        family=family_of(row.variant),
        kind=table_kind(row.players, row.teams),
        rated=row.rated,
        rounds=rounds,
        scores=scores,
        places=places,
        seats=tuple(seats),
    )


def settle(
    game: Standings,
    current: Mapping[str, RatingRow],
    now: float,
    bots: BotRatings | None = None,
) -> Settlement:
    """The new ratings (rated games) and every person's result, from the current ratings.

    A person seated twice (never by the server's own rules) makes the game
    unrated, and has one result.
    """
    bots = bots or bot_ratings()
    people = game.identities
    rated = game.rated and len(set(people)) == len(people)
    after: dict[int, tuple[float, float]] = {}
    before: dict[int, tuple[float, float]] = {}
    for seat in game.seats:
        if seat.identity is not None:
            found = current.get(seat.identity)
            before[seat.seat] = (found.mu, found.sigma) if found else new_rating()
    ratings: list[RatingRow] = []
    if rated:
        model = _model()
        sides = sorted({s.side for s in game.seats})
        teams = []
        for side in sides:
            team = []
            for seat in game.seats:
                if seat.side != side:
                    continue
                if seat.identity is None:
                    mu, sigma = bots.of(seat.level or "medium", game.family, game.kind)
                else:
                    mu, sigma = before[seat.seat]
                team.append(model.rating(mu=mu, sigma=sigma))
            teams.append(team)
        new = model.rate(teams, ranks=[game.places[side] for side in sides])
        for side, team in zip(sides, new, strict=True):
            members = [s for s in game.seats if s.side == side]
            for seat, rating in zip(members, team, strict=True):
                if seat.identity is not None and not seat.held:
                    after[seat.seat] = (float(rating.mu), float(rating.sigma))
        for seat in game.seats:
            if seat.seat in after and seat.identity is not None:
                mu, sigma = after[seat.seat]
                found = current.get(seat.identity)
                ratings.append(
                    RatingRow(
                        identity=seat.identity,
                        family=game.family,
                        kind=game.kind,
                        mu=mu,
                        sigma=sigma,
                        games=(found.games if found else 0) + 1,
                        updated_at=now,
                    )
                )
    results = []
    seen: set[str] = set()
    for seat in game.seats:
        if seat.identity is None or seat.identity in seen:
            continue
        seen.add(seat.identity)
        was = before[seat.seat] if rated else (None, None)
        now_is = after.get(seat.seat, was) if rated else (None, None)
        results.append(
            ResultRow(
                table_id=game.table_id,
                identity=seat.identity,
                seat=seat.seat,
                variant=game.variant,
                family=game.family,
                kind=game.kind,
                rated=rated,
                outcome=seat.outcome,
                place=seat.place,
                rounds=game.rounds,
                basras=seat.basras,
                score=game.scores[seat.side],
                ended_at=now,
                mu_before=was[0],
                sigma_before=was[1],
                mu_after=now_is[0],
                sigma_after=now_is[1],
                left=seat.left,
            )
        )
    return Settlement(ratings, results)
