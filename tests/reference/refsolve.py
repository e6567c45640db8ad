"""An independent exhaustive solver of the rest of a round, on the reference engine.

Written for the puzzle tests and ``benchmarks/puzzles.py`` without the
engine or its solver (``basra.puzzles.solve``): it replays a puzzle's record
on ``tests/reference/refengine.py`` (written from the rules alone), lists the
arrangements of the cards the seat to move could not see by its own means,
and solves each by plain minimax to the end of the round. Two sides only.
Standard library only; slow but plain.
"""

from __future__ import annotations

from itertools import combinations

from tests.reference import refengine
from tests.reference.refengine import RefGame, rank_of

__all__ = ["replay_to", "solve_game", "solve_record"]


def replay_to(record: dict) -> RefGame:
    """The reference game after every play of ``record`` (a basra-record/1 object)."""
    game = RefGame(
        record["variant"],
        record["players"],
        record.get("teams", False),
        record.get("first_dealer", 0),
        record.get("rules") or None,
    )
    for rnd in record["rounds"]:
        game.deal(rnd["pack"])
        for text in rnd["plays"]:
            game.play(text)
    return game


def _buried(game: RefGame, pack: list) -> list:
    """The cards re-buried from the round's first floor (they were seen by everyone)."""
    s = game.settings
    n = game.n
    h = s["hand_size"]
    stock = list(pack[n * h :])
    r = (s["pack"] - 4) % n
    floor, stock = stock[: 4 + r], stock[4 + r :]
    bury = s["bury"]
    out = []

    def buried(c):
        return ("J" in bury and rank_of(c) == "J") or ("7D" in bury and c == "7D")

    while any(buried(c) for c in floor):
        i = next(i for i, c in enumerate(floor) if buried(c))
        out.append(floor[i])
        stock.append(floor[i])
        floor[i] = stock.pop(0)
    return out


def _clone(game: RefGame) -> RefGame:
    other = object.__new__(RefGame)
    other.__dict__.update(game.__dict__)
    other.hands = [list(h) for h in game.hands]
    other.stock = list(game.stock)
    other.floor = list(game.floor)
    other.piles = [list(p) for p in game.piles]
    other.cur_plays = list(game.cur_plays)
    other.rounds_out = list(game.rounds_out)
    other.score = list(game.score)
    return other


_WORTH: dict[int, dict] = {}


def _points(game: RefGame, cards: list) -> int:
    worth = _WORTH.get(id(game.settings))
    if worth is None:
        pc = game.settings["point_cards"]
        worth = {c: pc[c] if c in pc else pc.get(rank_of(c), 0) for c in refengine.full_pack(52)}
        _WORTH.clear()
        _WORTH[id(game.settings)] = worth
    return sum(worth[c] for c in cards)


class _CachedTakes:
    """The reference engine's capture sets, remembered while a solve runs (they depend only
    on the settings, the floor and the card: the same positions come up again and again)."""

    def __init__(self) -> None:
        self.original = refengine.allowed_takes
        self.cache: dict = {}

    def __call__(self, s: dict, floor: list, card: str) -> list:
        key = (id(s), tuple(floor), card)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self.original(s, floor, card)
        return [list(option) for option in found]

    def __enter__(self) -> _CachedTakes:
        refengine.allowed_takes = self
        return self

    def __exit__(self, *exc: object) -> None:
        refengine.allowed_takes = self.original


def _banked(game: RefGame) -> int:
    """Side 0's card points in its pile and basra points so far this round, less side 1's."""
    out = [_points(game, pile) for pile in game.piles]
    for play in game.cur_plays:
        out[game.side_of(play["seat"])] += play["basra"]
    return out[0] - out[1]


def _play(game: RefGame, text: str, banked: int) -> tuple[RefGame, int]:
    """A copy of ``game`` after ``text``, and side 0's banked margin after it."""
    child = _clone(game)
    side = game.side_of(game.turn)
    before = len(game.piles[side])
    basra = child.play(text)
    if child.phase == "play":
        gained = _points(child, child.piles[side][before:]) + basra
        banked += gained if side == 0 else -gained
    return child, banked


def _margin(game: RefGame, table: dict, banked: int) -> int:
    """Side 0's round margin under perfect play from ``game`` (a round being played), where
    side 0's banked margin (card points and basras so far) is ``banked``."""
    counts = [len(p) for p in game.piles]
    key = (
        tuple(tuple(sorted(h)) for h in game.hands),
        tuple(sorted(game.floor)),
        tuple(game.stock),
        game.turn,
        repr(game.lone),
        game.last_capture_side,
        counts[0] - counts[1],
    )
    if key in table:
        return banked + table[key]
    values = []
    for text in game.legal_moves():
        child, after = _play(game, text, banked)
        values.append(_after(child, table, after))
    best = max(values) if game.side_of(game.turn) == 0 else min(values)
    table[key] = best - banked
    return best


def _after(game: RefGame, table: dict, banked: int) -> int:
    if game.phase == "play":
        return _margin(game, table, banked)
    points = game.rounds_out[-1]["points"]
    return points[0] - points[1]


def _arrangements(game: RefGame, seat: int, pack: list):
    """Every game the seat cannot tell from ``game``: the unseen cards (other hands and the
    stock, less the re-buried cards, whose places everyone knows) placed every way."""
    known = set(_buried(game, pack))
    n, k_full = game.n, game.settings["hand_size"]
    groups = []  # (where, size): where = ("hand", seat) or ("batch", index)
    hidden = []
    for other in range(n):
        if other == seat:
            continue
        mine = [c for c in game.hands[other] if c not in known]
        hidden += mine
        groups.append((("hand", other), len(mine)))
    stock = game.stock
    batches = []
    pos = 0
    while pos < len(stock):
        k = min(k_full, (len(stock) - pos) // n)
        for _ in range(n):
            batches.append(stock[pos : pos + k])
            pos += k
    for index, batch in enumerate(batches):
        mine = [c for c in batch if c not in known]
        hidden += mine
        groups.append((("batch", index), len(mine)))

    def place(cards, groups):
        if not groups:
            yield {}
            return
        (where, size), rest = groups[0], groups[1:]
        for chosen in combinations(cards, size):
            left = [c for c in cards if c not in chosen]
            for tail in place(left, rest):
                yield {where: list(chosen), **tail}

    for placed in place(sorted(hidden), groups):
        child = _clone(game)
        for other in range(n):
            if other != seat:
                child.hands[other] = [c for c in game.hands[other] if c in known] + placed[
                    ("hand", other)
                ]
        child.stock = [
            card
            for index, batch in enumerate(batches)
            for card in placed[("batch", index)] + [c for c in batch if c in known]
        ]
        yield child


def solve_game(game: RefGame, pack: list) -> tuple[dict, set, int]:
    """Every legal move of the seat to move: its round margin for that seat's side averaged
    over the arrangements, the moves best in every arrangement, and how many there are."""
    seat = game.turn
    sign = 1 if game.side_of(seat) == 0 else -1
    totals: dict = {}
    everywhere = None
    count = 0
    with _CachedTakes():
        for position in _arrangements(game, seat, pack):
            values = _solve_one(position, sign)
            top = max(values.values())
            best = {m for m, v in values.items() if v == top}
            everywhere = best if everywhere is None else everywhere & best
            for m, v in values.items():
                totals[m] = totals.get(m, 0) + v
            count += 1
    return {m: t / count for m, t in totals.items()}, everywhere or set(), count


def _solve_one(position: RefGame, sign: int) -> dict:
    table: dict = {}
    values = {}
    banked = _banked(position)
    for text in position.legal_moves():
        child, after = _play(position, text, banked)
        values[text] = sign * _after(child, table, after)
    return values


def solve_record(record: dict) -> tuple[dict, set, int]:
    """:func:`solve_game` at the end of ``record`` (a puzzle's record)."""
    if record["players"] == 3:
        raise refengine.RefError("three sides: no exact solve")
    game = replay_to(record)
    return solve_game(game, [refengine.parse_card(c) for c in record["rounds"][-1]["pack"]])
