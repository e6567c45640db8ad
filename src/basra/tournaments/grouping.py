"""Cutting a ranked list of entrants into tables: near in rank, with the fewest conflicts.

Every format seats its tables the same way. The entrants come ranked (best
first); a *conflict* between two of them is a number (how often they have met
before in a Swiss, whether they have just played in an arena). :func:`group_tables`
seats them top-down: the best-ranked unseated entrant takes the nearest
entrants below it whose table adds no more conflicts than allowed, and when
the rest cannot be seated within the allowance it backtracks (a depth-first
search, nearest candidates first). It asks for no conflict at all first, then
one, then two...: the first table plan found has the fewest conflicts there
are, and among those it keeps the top of the ranking together (for two
seats, the Monrad or "Danish" way: 1 with 2, 3 with 4, unless they met).

The search is bounded (:data:`SEARCH_BUDGET` candidate tables for each
allowance): a field so large and so constrained that it runs out is seated
greedily instead, each table the cheapest among its nearest candidates. A
pairing pass therefore always ends, in a few milliseconds for a field of
hundreds.

>>> met = {frozenset({"a", "b"})}
>>> group_tables(["a", "b", "c", "d"], 2, lambda x, y: int(frozenset({x, y}) in met))
([('a', 'c'), ('b', 'd')], 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

__all__ = ["SEARCH_BUDGET", "Conflict", "group_tables"]

Conflict = Callable[[str, str], int]
"""How much seating two entrants together costs (0: nothing against it)."""

SEARCH_BUDGET = 20_000
"""Candidate tables the search may try for each allowance of conflicts."""
GREEDY_WINDOW = 4
"""Seated greedily, a table is chosen among the next ``GREEDY_WINDOW * size`` entrants."""


class _OutOfBudgetError(Exception):
    pass


def _table_cost(first: str, others: Sequence[str], conflict: Conflict) -> int:
    members = (first, *others)
    return sum(conflict(a, b) for a, b in itertools.combinations(members, 2))


def group_tables(
    ranked: Sequence[str], size: int, conflict: Conflict, *, budget: int = SEARCH_BUDGET
) -> tuple[list[tuple[str, ...]], int]:
    """Seat ``ranked`` (its length a multiple of ``size``) at tables of ``size``.

    Returns the tables (each in rank order) and their total conflict.
    """
    if size < 2 or len(ranked) % size:
        raise ValueError(f"{len(ranked)} entrants cannot sit at tables of {size}")
    if not ranked:
        return [], 0
    allowance = 0
    while True:
        left = [budget]
        try:
            found = _search(tuple(ranked), size, conflict, allowance, left)
        except _OutOfBudgetError:
            return _greedy(ranked, size, conflict)
        if found is not None:
            return found, sum(_table_cost(t[0], t[1:], conflict) for t in found)
        allowance += 1


def _search(
    rest: tuple[str, ...], size: int, conflict: Conflict, allowance: int, left: list[int]
) -> list[tuple[str, ...]] | None:
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for chosen in itertools.combinations(others, size - 1):
        left[0] -= 1
        if left[0] < 0:
            raise _OutOfBudgetError
        cost = _table_cost(first, chosen, conflict)
        if cost > allowance:
            continue
        taken = set(chosen)
        below = _search(
            tuple(e for e in others if e not in taken), size, conflict, allowance - cost, left
        )
        if below is not None:
            return [(first, *chosen), *below]
    return None


def _greedy(
    ranked: Sequence[str], size: int, conflict: Conflict
) -> tuple[list[tuple[str, ...]], int]:
    rest = list(ranked)
    tables: list[tuple[str, ...]] = []
    total = 0
    while rest:
        first, window = rest[0], rest[1 : 1 + GREEDY_WINDOW * size]
        best = min(
            itertools.combinations(window, size - 1),
            key=lambda chosen: _table_cost(first, chosen, conflict),
        )
        total += _table_cost(first, best, conflict)
        tables.append((first, *best))
        rest = [e for e in rest[1:] if e not in best]
    return tables, total
