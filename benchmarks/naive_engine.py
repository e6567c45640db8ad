"""A straightforward Basra engine, used only as the benchmarks' same-run baseline.

It plays random 2-player Egyptian rounds the way a first implementation would:
cards as (rank, suit) tuples, hands and floor as lists, capture sets found by
trying every subset of the floor with itertools. It is not used by the
project; it exists so that `benchmarks/engine.py` can report the engine's
speed relative to a plain implementation measured on the same machine in the
same run (the machine is shared and noisy, so absolute numbers drift).
"""

from __future__ import annotations

import itertools
import random

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
DECK = [(r, s) for r in RANKS for s in SUITS]
VALUE = {r: i + 1 for i, r in enumerate(RANKS[:10])}


def is_numeral(card: tuple[str, str]) -> bool:
    return card[0] in VALUE


def capture_sets(
    card: tuple[str, str], floor: list[tuple[str, str]]
) -> list[list[tuple[str, str]]]:
    if not floor:
        return []
    if card[0] == "J" or card == ("7", "D"):
        return [list(floor)]
    if not is_numeral(card):
        same = [c for c in floor if c[0] == card[0]]
        return [same] if same else []
    value = VALUE[card[0]]
    best: list[list[tuple[str, str]]] = []
    best_size = 0
    for size in range(len(floor), 0, -1):
        for subset in itertools.combinations(floor, size):
            if can_split(card, list(subset), value):
                if size > best_size:
                    best, best_size = [list(subset)], size
                elif size == best_size:
                    best.append(list(subset))
        if best:
            break
    return best


def can_split(card: tuple[str, str], cards: list[tuple[str, str]], value: int) -> bool:
    if not cards:
        return True
    first = cards[0]
    if first[0] == card[0]:
        return can_split(card, cards[1:], value)
    if not is_numeral(first):
        return False
    rest = cards[1:]
    for size in range(1, len(rest) + 1):
        for group in itertools.combinations(rest, size):
            if VALUE[first[0]] + sum(VALUE[c[0]] for c in group if is_numeral(c)) == value and all(
                is_numeral(c) for c in group
            ):
                remaining = [c for c in rest if c not in group]
                if can_split(card, remaining, value):
                    return True
    return False


def play_random_round(rng: random.Random) -> int:
    """One random round; returns the number of plays."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[tuple[str, str]]] = [deck[0:4], deck[4:8]]
    floor = deck[8:12]
    stock = deck[12:]
    while any(c[0] == "J" or c == ("7", "D") for c in floor):
        i = next(i for i, c in enumerate(floor) if c[0] == "J" or c == ("7", "D"))
        stock.append(floor[i])
        floor[i] = stock.pop(0)
    piles: list[list[tuple[str, str]]] = [[], []]
    basras = [0, 0]
    last = None
    turn = 1
    plays = 0
    while True:
        if not hands[0] and not hands[1]:
            if not stock:
                break
            hands = [stock[0:4], stock[4:8]]
            stock = stock[8:]
        moves = []
        for card in hands[turn]:
            options = capture_sets(card, floor)
            if options:
                moves.extend((card, option) for option in options)
            else:
                moves.append((card, []))
        card, take = rng.choice(moves)
        hands[turn].remove(card)
        if take:
            if len(take) == len(floor) and card[0] != "J" and card != ("7", "D"):
                basras[turn] += 10
            for c in take:
                floor.remove(c)
            piles[turn].extend([*take, card])
            last = turn
        else:
            floor.append(card)
        plays += 1
        turn = 1 - turn
    if last is not None:
        piles[last].extend(floor)
    return plays
