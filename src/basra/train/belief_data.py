"""Training data for the belief model: self-play rounds, every decision a labelled example.

:func:`generate` plays single rounds between bots drawn from :data:`MIX` (each
seat its own draw: the searches, the heuristic, greedy) in each of the six
tables of the strength work (:data:`TABLES`), and at every decision with a
choice records the mover's :func:`~basra.belief.features.encode` d view and
where each card it could not see really was. Rounds are seeded from the seed,
the table and the round's number alone, so the data is the same wherever it is
made; the compiled kernel makes it fast (the bots' searches) but is not needed.

With ``reading`` each example also carries the location probabilities of
today's hand reading (the search's weighted pool, ``read`` 0.15, with
:data:`READING_POOL` deals; needs the compiled kernel) for the comparison in
:mod:`basra.train.belief_report`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from basra.belief.features import CARDS, FEATURES, LOCATIONS, encode, locations
from basra.bots.base import Bot, make_bot
from basra.bots.ismcts import view_problem
from basra.state import PHASE_PLAY, GameState
from basra.view import view_of

__all__ = ["MIX", "READING_POOL", "TABLES", "Examples", "Table", "generate", "table_named"]


@dataclass(frozen=True)
class Table:
    """A table of the strength work."""

    name: str
    variant: str
    players: int
    teams: bool


TABLES: tuple[Table, ...] = (
    Table("egyptian-2p", "egyptian", 2, False),
    Table("egyptian-3p", "egyptian", 3, False),
    Table("egyptian-4p-teams", "egyptian", 4, True),
    Table("lebanese-2p", "lebanese", 2, False),
    Table("cypriot-2p", "cypriot_bastra", 2, False),
    Table("syrian-2p", "syrian", 2, False),
)
"""The six tables the model is trained and measured on."""

MIX: tuple[tuple[str, float], ...] = (
    ("ismcts:iterations=1000", 0.40),
    ("expert", 0.15),
    ("heuristic", 0.25),
    ("greedy", 0.20),
)
"""The players of the self-play rounds, each seat drawn with these chances."""

READING_POOL = 3000
"""Deals in the pool that estimates today's hand reading's probabilities."""


def table_named(name: str) -> Table:
    """The table called ``name`` (one of :data:`TABLES`)."""
    for table in TABLES:
        if table.name == name:
            return table
    raise ValueError(f"no table {name!r}: {', '.join(t.name for t in TABLES)}")


@dataclass
class Examples:
    """Labelled examples as arrays (numpy)."""

    features: Any
    """(n, FEATURES) float16."""
    targets: Any
    """(n, 52) int8: each card's location, -1 for a card the seat could place."""
    counts: Any
    """(n, 4) int8: unseen cards per location."""
    table: Any
    """(n,) int8: the index of the table in :data:`TABLES`."""
    reading: Any | None = None
    """(n, 52, 4) float32: today's hand reading's probabilities (with ``reading``)."""

    def save(self, path: Path) -> None:
        """Write the arrays to an ``.npz`` file."""
        import numpy

        arrays = {
            "features": self.features,
            "targets": self.targets,
            "counts": self.counts,
            "table": self.table,
        }
        if self.reading is not None:
            arrays["reading"] = self.reading
        numpy.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> Examples:
        """Read arrays written by :meth:`save`."""
        import numpy

        with numpy.load(path) as data:
            return cls(
                data["features"],
                data["targets"],
                data["counts"],
                data["table"],
                data.get("reading", None),
            )

    @classmethod
    def concatenate(cls, parts: Sequence[Examples]) -> Examples:
        """All the examples of ``parts``, in order."""
        import numpy

        readings: list[Any] = [p.reading for p in parts]
        return cls(
            numpy.concatenate([p.features for p in parts]),
            numpy.concatenate([p.targets for p in parts]),
            numpy.concatenate([p.counts for p in parts]),
            numpy.concatenate([p.table for p in parts]),
            numpy.concatenate(readings) if all(r is not None for r in readings) else None,
        )

    def __len__(self) -> int:
        return len(self.table)


def _bots(rng: random.Random, players: int, mix: Sequence[tuple[str, float]]) -> list[Bot]:
    names = [name for name, _ in mix]
    weights = [weight for _, weight in mix]
    return [
        make_bot(rng.choices(names, weights)[0], seed=rng.getrandbits(64)) for _ in range(players)
    ]


def reading_probabilities(state: GameState, seat: int, seed: int) -> list[list[float]]:
    """Today's hand reading's chance of each card in each location (0 the stock, then the
    seats after ``seat`` in turn): from the search's weighted pool (compiled kernel)."""
    view = view_of(state, seat)
    problem = view_problem(view, 0.15, READING_POOL, seed)
    by_seat = problem.location_probabilities(READING_POOL)
    out = []
    for card in range(CARDS):
        row = by_seat[card]
        places = [row[4]] + [row[(seat + r) % state.players] for r in range(1, LOCATIONS)]
        out.append([p if r < state.players else 0.0 for r, p in enumerate(places)])
    return out


def generate(
    table: Table,
    rounds: int | range,
    seed: int | str,
    *,
    reading: bool = False,
    progress: Callable[[int], None] | None = None,
    mix: Sequence[tuple[str, float]] = MIX,
) -> Examples:
    """The examples of ``rounds`` self-play rounds at ``table`` (a count, or the range of the
    rounds' numbers: a part of a bigger set; see the module docstring), the players drawn
    from ``mix``."""
    import numpy

    index = TABLES.index(table)
    features: list[list[float]] = []
    targets: list[list[int]] = []
    counts: list[list[int]] = []
    readings: list[list[list[float]]] = []
    numbers = range(rounds) if isinstance(rounds, int) else rounds
    for done, number in enumerate(numbers):
        rng = random.Random(f"basra-belief/{seed}/{table.name}/{number}")
        bots = _bots(rng, table.players, mix)
        state = GameState(
            table.variant,
            table.players,
            teams=table.teams,
            first_dealer=rng.randrange(table.players),
        )
        state.deal(rng=rng)
        cache: dict[Any, Any] = {}
        try:
            while state.phase == PHASE_PLAY:
                seat = state.turn
                view = view_of(state, seat)
                if len(view.legal_moves()) > 1 and view.unseen():
                    encoded = encode(view, cache)
                    features.append(encoded.features)
                    targets.append(locations(encoded, state.hands))
                    counts.append(encoded.counts)
                    if reading:
                        readings.append(reading_probabilities(state, seat, rng.getrandbits(64)))
                state.push(bots[seat].choose(view))
        finally:
            for bot in bots:
                bot.close()
        if progress is not None:
            progress(done + 1)
    n = len(targets)
    return Examples(
        numpy.asarray(features, dtype=numpy.float16).reshape(n, FEATURES),
        numpy.asarray(targets, dtype=numpy.int8).reshape(n, CARDS),
        numpy.asarray(counts, dtype=numpy.int8).reshape(n, LOCATIONS),
        numpy.full(n, index, dtype=numpy.int8),
        numpy.asarray(readings, dtype=numpy.float32).reshape(n, CARDS, LOCATIONS)
        if reading
        else None,
    )
