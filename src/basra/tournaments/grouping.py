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

The search is bounded (:data:`SEARCH_BUDGET` candidate tables): a field so
large and so constrained that it runs out is seated greedily instead, each
table the cheapest among its nearest candidates, then mended by swapping
entrants between nearby tables while a swap lowers the conflicts. A pairing
pass therefore always ends, in well under a second for a field of hundreds.

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

SEARCH_BUDGET = 10_000
"""Candidate tables the search may try in all (every allowance of conflicts together)."""
GREEDY_WINDOW = 4
"""Seated greedily, a table is chosen among the next ``GREEDY_WINDOW * size`` entrants."""
SWAP_REACH = 4
"""Mending a greedy seating, an entrant may swap with one up to this many tables away."""


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
    given, known = conflict, dict[tuple[str, str], int]()

    def cached(a: str, b: str) -> int:
        key = (a, b) if a < b else (b, a)
        if key not in known:
            known[key] = given(a, b)
        return known[key]

    conflict = cached
    allowance = 0
    left = [budget]
    while True:
        try:
            found = _search(tuple(ranked), size, conflict, allowance, left)
        except _OutOfBudgetError:
            return _mend(_greedy(ranked, size, conflict), conflict)
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


def _greedy(ranked: Sequence[str], size: int, conflict: Conflict) -> list[tuple[str, ...]]:
    rest = list(ranked)
    tables: list[tuple[str, ...]] = []
    while rest:
        first, window = rest[0], rest[1 : 1 + GREEDY_WINDOW * size]
        best: tuple[str, ...] = ()
        least = -1
        for chosen in itertools.combinations(window, size - 1):
            cost = _table_cost(first, chosen, conflict)
            if least < 0 or cost < least:
                best, least = chosen, cost
                if not cost:
                    break
        tables.append((first, *best))
        rest = [e for e in rest[1:] if e not in best]
    return tables


def _cost(table: Sequence[str], conflict: Conflict) -> int:
    return _table_cost(table[0], table[1:], conflict)


def _mend(tables: list[tuple[str, ...]], conflict: Conflict) -> tuple[list[tuple[str, ...]], int]:
    """Swap entrants between tables near each other while a swap lowers the conflicts."""
    improved = True
    while improved:
        improved = False
        for t, table in enumerate(tables):
            if not _cost(table, conflict):
                continue
            for u in range(max(0, t - SWAP_REACH), min(len(tables), t + SWAP_REACH + 1)):
                if u == t:
                    continue
                other = tables[u]
                before = _cost(table, conflict) + _cost(other, conflict)
                swap = _best_swap(table, other, before, conflict)
                if swap is not None:
                    table, tables[u] = swap
                    tables[t] = table
                    improved = True
                    if not _cost(table, conflict):
                        break
    return tables, sum(_cost(t, conflict) for t in tables)


def _best_swap(
    table: tuple[str, ...], other: tuple[str, ...], before: int, conflict: Conflict
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    for i, j in itertools.product(range(len(table)), range(len(other))):
        mine = (*table[:i], other[j], *table[i + 1 :])
        theirs = (*other[:j], table[i], *other[j + 1 :])
        if _cost(mine, conflict) + _cost(theirs, conflict) < before:
            return mine, theirs
    return None
