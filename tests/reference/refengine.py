"""Independent reference implementation of the Basra rules (test oracle).

Written only from the specification (docs/RULES.md: sections A, B4, B5, with C
and D as explanation; docs/RECORD.md), without reading the engine, so that
tests/test_differential.py can compare the two.  Standard library only.  The code
aims to be obviously correct rather than fast: capture sets are found by brute
force over subsets of the floor.

Cards are kept as canonical strings: rank ("A", "2".."10", "J", "Q", "K") followed
by suit ("S", "H", "D", "C"), e.g. "7D", "10H", "QS".
"""

from __future__ import annotations

import copy
from itertools import combinations

__all__ = ["PRESETS", "RefError", "RefGame", "captures", "replay_record"]


class RefError(Exception):
    """Any error the spec says must be reported (bad setup, bad move, bad record)."""


# --------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
NUMERAL_RANKS = RANKS[:10]  # A .. 10
SUIT_INPUT = {
    "S": "S",
    "H": "H",
    "D": "D",
    "C": "C",
    "\u2660": "S",
    "\u2664": "S",  # ♠ ♤
    "\u2665": "H",
    "\u2661": "H",  # ♥ ♡
    "\u2666": "D",
    "\u2662": "D",  # ♦ ♢
    "\u2663": "C",
    "\u2667": "C",  # ♣ ♧
}


def parse_rank(text: str) -> str:
    """Lenient rank text -> canonical rank, or RefError."""
    if not isinstance(text, str):
        raise RefError(f"rank must be text, got {text!r}")
    r = text.strip().upper()
    if r == "T":
        r = "10"
    if r not in RANKS:
        raise RefError(f"unknown rank {text!r}")
    return r


def parse_card(text) -> str:
    """Lenient card text (case, T for 10, suit symbols) -> canonical card text."""
    if not isinstance(text, str):
        raise RefError(f"card must be text, got {text!r}")
    t = text.strip()
    if len(t) < 2:
        raise RefError(f"unparsable card {text!r}")
    suit_ch = t[-1]
    suit = SUIT_INPUT.get(suit_ch.upper(), SUIT_INPUT.get(suit_ch))
    if suit is None:
        raise RefError(f"unparsable card {text!r} (bad suit)")
    rank_txt = t[:-1]
    if rank_txt != rank_txt.strip():
        raise RefError(f"unparsable card {text!r}")
    try:
        rank = parse_rank(rank_txt)
    except RefError:
        raise RefError(f"unparsable card {text!r} (bad rank)") from None
    return rank + suit


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


def is_numeral(card: str) -> bool:
    return rank_of(card) in NUMERAL_RANKS


def value_of(card: str) -> int:
    """Numeric value of a numeral (A = 1, 2..10 pips)."""
    r = rank_of(card)
    assert r in NUMERAL_RANKS, card
    return 1 if r == "A" else int(r)


def card_key(card: str):
    return (RANKS.index(rank_of(card)), SUITS.index(suit_of(card)))


def canon_sorted(cards) -> list:
    return sorted(cards, key=card_key)


def full_pack(size: int) -> list:
    ranks = RANKS if size == 52 else [r for r in RANKS if r not in ("Q", "K")]
    return [r + s for r in ranks for s in SUITS]


# --------------------------------------------------------------------------
# Settings (RULES.md B4 / B5)
# --------------------------------------------------------------------------

STD_POINTS = {"A": 1, "J": 1, "2C": 2, "10D": 3}

# First row of the B4 preset table (cypriot_bastra) plus the settings that every
# preset shares.
_BASE = {
    "pack": 52,
    "hand_size": 4,
    "bury": ["J"],
    "capture_policy": "max_cards",
    "seven_diamonds": "plain",
    "basra_mode": "clear",
    "basra_value": "flat",
    "basra_points": 10,
    "face_values": None,  # absent
    "jack_on_lone_jack": 0,
    "basra_on_last_play": True,
    "point_cards": dict(STD_POINTS),
    "majority_bonus": 3,
    "majority_tie": "each",
    "target": 100,
    "end_tie": "extra_rounds",
    "direction": "cw",
}


def _preset(**kw):
    d = copy.deepcopy(_BASE)
    for k, v in kw.items():
        assert k in d, k
        d[k] = v
    return d


_EGY = {"bury": ["J", "7D"], "direction": "ccw"}

PRESETS = {
    "cypriot_bastra": _preset(),
    "cypriot_classic": _preset(
        jack_on_lone_jack=50, point_cards={"A": 1, "J": 1, "2C": 2, "10D": 4}
    ),
    "egyptian": _preset(
        seven_diamonds="egyptian",
        jack_on_lone_jack=20,
        majority_bonus=30,
        majority_tie="abeyance",
        target=101,
        **_EGY,
    ),
    "egyptian_121": _preset(
        seven_diamonds="egyptian",
        jack_on_lone_jack=20,
        majority_bonus=30,
        majority_tie="abeyance",
        target=121,
        **_EGY,
    ),
    "egyptian_mona_russel": _preset(
        seven_diamonds="no_basra",
        jack_on_lone_jack=20,
        point_cards={"A": 1, "J": 1, "2C": 2, "10D": 3, "7D": 1},
        majority_bonus=3,
        majority_tie="none",
        target=100,
        **_EGY,
    ),
    "saba_alkoomi": _preset(
        seven_diamonds="no_basra",
        jack_on_lone_jack=20,
        majority_bonus=3,
        majority_tie="none",
        target=101,
        **_EGY,
    ),
    "yemeni": _preset(
        seven_diamonds="yemeni",
        jack_on_lone_jack=20,
        majority_bonus=30,
        majority_tie="abeyance",
        target=101,
        **_EGY,
    ),
    "ethiopian": _preset(
        seven_diamonds="ethiopian",
        jack_on_lone_jack=0,
        majority_bonus=3,
        majority_tie="none",
        target=52,
        **_EGY,
    ),
    "lebanese": _preset(
        hand_size=6,
        basra_mode="lone_match_or_sum",
        jack_on_lone_jack=10,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
    "lebanese_ashush": _preset(
        hand_size=6,
        basra_mode="lone_match",
        jack_on_lone_jack=10,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
    "lebanese_alefb": _preset(
        hand_size=6,
        basra_mode="lone_match",
        jack_on_lone_jack=10,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
    "palestinian": _preset(
        pack=44,
        basra_value="double_face",
        jack_on_lone_jack=0,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
    "jordanian": _preset(
        basra_value="double_face",
        face_values={"Q": 10, "K": 10},
        jack_on_lone_jack=20,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
    "syrian": _preset(
        basra_value="double_face",
        face_values={"Q": 3, "K": 4},
        jack_on_lone_jack=25,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
    "syrian_homsi": _preset(
        pack=44,
        basra_value="double_face",
        jack_on_lone_jack=25,
        majority_tie="none",
        target=101,
        direction="ccw",
    ),
}
assert len(PRESETS) == 15

ENUMS = {
    "capture_policy": ("max_cards", "any_maximal"),
    "seven_diamonds": ("plain", "egyptian", "yemeni", "ethiopian", "no_basra"),
    "basra_mode": ("clear", "lone_match", "lone_match_or_sum"),
    "basra_value": ("flat", "double_face"),
    "majority_tie": ("each", "none", "abeyance"),
    "end_tie": ("extra_rounds", "draw"),
    "direction": ("ccw", "cw"),
}
INT_SETTINGS = ("basra_points", "jack_on_lone_jack", "majority_bonus", "target")


def _is_int(x) -> bool:
    return type(x) is int  # excludes bool and float


def _check_setting(name: str, value):
    """Validate one setting value (B4, B5.2, B5.13) and return its normal form."""

    def bad(why):
        raise RefError(f"setting {name!r}: {why} (got {value!r})")

    if name == "pack":
        if not _is_int(value) or value not in (52, 44):
            bad("must be 52 or 44")
        return value
    if name == "hand_size":
        if not _is_int(value) or value not in (4, 5, 6):
            bad("must be 4, 5 or 6")
        return value
    if name in ENUMS:
        if not isinstance(value, str) or value not in ENUMS[name]:
            bad("must be one of " + ", ".join(ENUMS[name]))
        return value
    if name in INT_SETTINGS:
        if not _is_int(value):
            bad("must be a JSON integer")
        if name == "target":
            if value <= 0:
                bad("must be a positive integer")
        elif value < 0:
            bad("must be a non-negative integer")
        return value
    if name == "basra_on_last_play":
        if not isinstance(value, bool):
            bad("must be a JSON boolean")
        return value
    if name == "bury":
        # Project decision: any list whose entries are J or 7D (empty: nothing is
        # buried; an entry named twice is the same entry).
        if not isinstance(value, list):
            bad('must be a list of "J" and/or "7D"')
        out = []
        for e in value:
            if not isinstance(e, str) or e.upper() not in ("J", "7D"):
                bad('entries must be "J" or "7D"')
            if e.upper() not in out:
                out.append(e.upper())
        return out
    if name == "face_values":
        if value is None:
            return None  # project decision: null is "absent" (B4)
        if not isinstance(value, dict):
            bad("must be an object with keys Q and/or K")
        out = {}
        for k, v in value.items():
            if not isinstance(k, str) or k.upper() not in ("Q", "K"):
                bad("keys must be Q or K")
            if not _is_int(v) or v < 0:
                bad("values must be integers >= 0")
            if k.upper() in out:
                bad("key named twice")
            out[k.upper()] = v
        return out
    if name == "point_cards":
        if not isinstance(value, dict):
            bad("must be an object of rank/card -> points")
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                bad("keys must be a rank or a card")
            try:
                key = parse_rank(k)
            except RefError:
                try:
                    key = parse_card(k)
                except RefError:
                    bad(f"key {k!r} is neither a rank nor a card")
            if not _is_int(v) or v < 0:
                bad("values must be integers >= 0")
            if key in out:
                bad(f"key {k!r} named twice")
            out[key] = v
        return out
    raise RefError(f"unknown setting {name!r}")


def make_settings(variant, rules) -> dict:
    if not isinstance(variant, str) or variant not in PRESETS:
        raise RefError(f"unknown variant {variant!r}")
    s = copy.deepcopy(PRESETS[variant])
    if rules is None:
        return s
    if not isinstance(rules, dict):
        raise RefError("rules must be an object of setting overrides")
    for name, value in rules.items():
        if name not in _BASE:
            raise RefError(f"unknown setting {name!r}")
        s[name] = _check_setting(name, copy.deepcopy(value))  # whole value replaced (B5.10)
    return s


# --------------------------------------------------------------------------
# Capturing and basras (RULES.md A5, A6, A7, B4, B5)
# --------------------------------------------------------------------------


def _sweeping_7d(s) -> bool:
    return s["seven_diamonds"] != "plain"


def _partitions_into_legal_groups(cards: tuple, played: str) -> bool:
    """True if `cards` splits into groups, each either one card of the played
    card's rank, or >= 2 numerals summing to the played numeral's value."""
    if not cards:
        return True
    a, rest = cards[0], cards[1:]
    # group (i): a alone, same rank as the played card
    if rank_of(a) == rank_of(played) and _partitions_into_legal_groups(rest, played):
        return True
    # group (ii): a plus >= 1 other cards, all numerals, summing to value(played)
    if is_numeral(played) and is_numeral(a):
        for k in range(1, len(rest) + 1):
            for combo in combinations(rest, k):
                if not all(is_numeral(c) for c in combo):
                    continue
                if value_of(a) + sum(value_of(c) for c in combo) != value_of(played):
                    continue
                remaining = tuple(c for c in rest if c not in combo)
                if _partitions_into_legal_groups(remaining, played):
                    return True
    return False


def allowed_takes(s, floor: list, card: str) -> list:
    """All capture sets the card is allowed to take (each a canonical list).
    An empty result means the card captures nothing (it is trailed)."""
    if not floor:
        return []
    if rank_of(card) == "J":  # a jack sweeps a non-empty floor
        return [canon_sorted(floor)]
    if card == "7D" and _sweeping_7d(s):  # a sweeping 7D sweeps a non-empty floor
        return [canon_sorted(floor)]
    if s["seven_diamonds"] == "ethiopian" and floor == ["7D"]:
        return [["7D"]]  # Ethiopian lone 7D: any non-J card captures it
    # Brute force: every non-empty subset of the floor that partitions into groups.
    # (Cards that can be in no group at all are skipped only to keep this fast:
    #  a group member is either of the played card's rank or a numeral worth less
    #  than the played numeral.)
    cand = [
        c
        for c in floor
        if rank_of(c) == rank_of(card)
        or (is_numeral(card) and is_numeral(c) and value_of(c) < value_of(card))
    ]
    legal = []
    for k in range(1, len(cand) + 1):
        for sub in combinations(cand, k):
            if _partitions_into_legal_groups(tuple(sub), card):
                legal.append(frozenset(sub))
    if not legal:
        return []
    if s["capture_policy"] == "max_cards":
        m = max(len(x) for x in legal)
        chosen = [x for x in legal if len(x) == m]
    else:  # any_maximal: not contained in a larger legal set
        chosen = [x for x in legal if not any(x < y for y in legal)]
    return sorted((canon_sorted(x) for x in chosen), key=lambda t: [card_key(c) for c in t])


def _equal_groups(values: list, max_sum: int) -> bool:
    """The values split into >= 2 groups with one common sum s <= max_sum."""
    total = sum(values)

    def split(vals: tuple, s: int) -> bool:
        if not vals:
            return True
        a, rest = vals[0], vals[1:]
        idx = range(len(rest))
        for k in range(len(rest) + 1):
            for combo in combinations(idx, k):
                if a + sum(rest[i] for i in combo) == s:
                    remaining = tuple(rest[i] for i in idx if i not in combo)
                    if split(remaining, s):
                        return True
        return False

    for s in range(1, max_sum + 1):
        if total % s == 0 and total // s >= 2 and split(tuple(values), s):
            return True
    return False


def seven_diamonds_basra(mode: str, floor: list) -> bool:
    """The sweeping 7D basra condition, checked on the floor before the capture."""
    numerals = all(is_numeral(c) for c in floor)
    total = sum(value_of(c) for c in floor) if numerals else None
    if mode == "egyptian":
        return numerals and total <= 10
    if mode == "yemeni":
        a = numerals and total < 10
        b = all(rank_of(c) in ("10", "Q", "K") for c in floor)
        c = numerals and _equal_groups([value_of(x) for x in floor], 9)
        return bool(floor) and (a or b or c)
    if mode == "ethiopian":
        return numerals and (total <= 10 or _equal_groups([value_of(x) for x in floor], 10))
    if mode == "no_basra":
        return False
    raise AssertionError(mode)


def basra_value(s, card: str) -> int:
    """What a basra made with this card is worth (B4 basra_value, B5.8)."""
    if s["basra_value"] == "flat":
        return s["basra_points"]
    # double_face
    if is_numeral(card):
        return 2 * value_of(card)
    r = rank_of(card)
    fv = s["face_values"]
    if r in ("Q", "K") and fv is not None and r in fv:
        return 2 * fv[r]
    return s["basra_points"]


def basra_of_play(s, floor_before: list, lone_state, card: str, take: list) -> int:
    """Basra points of a capture (before the basra_on_last_play rule)."""
    if not take:
        return 0
    if rank_of(card) == "J":
        if len(floor_before) == 1 and rank_of(floor_before[0]) == "J":
            return s["jack_on_lone_jack"]  # B5.5 (0 means no basra)
        return 0
    if card == "7D" and _sweeping_7d(s):  # B5.4
        return (
            basra_value(s, card) if seven_diamonds_basra(s["seven_diamonds"], floor_before) else 0
        )
    if s["seven_diamonds"] == "ethiopian" and floor_before == ["7D"]:  # B5.4, B5.11
        return basra_value(s, card)
    after = [c for c in floor_before if c not in take]
    mode = s["basra_mode"]
    if mode == "clear":
        return basra_value(s, card) if not after else 0
    # lone-card modes
    if lone_state is not None and lone_state[0] == "lone":
        x = lone_state[1]
        if take == [x] and rank_of(card) == rank_of(x):
            return basra_value(s, card)
        return 0
    if mode == "lone_match_or_sum" and lone_state is not None and lone_state[0] == "pair":
        x, y = lone_state[1], lone_state[2]
        if (
            is_numeral(x)
            and is_numeral(y)
            and is_numeral(card)
            and sorted(take, key=card_key) == canon_sorted([x, y])
            and value_of(card) == value_of(x) + value_of(y)
        ):
            return basra_value(s, card)
    return 0


def next_lone_state(lone_state, floor_after: list, trailed: bool, card: str):
    """C12 / B5.9: lone(X), lone_plus_trail(X, Y) or None."""
    if len(floor_after) == 1:
        return ("lone", floor_after[0])
    if trailed and lone_state is not None and lone_state[0] == "lone":
        return ("pair", lone_state[1], card)
    return None


# --------------------------------------------------------------------------
# Move text
# --------------------------------------------------------------------------


def parse_move(text):
    """-> (card, take list or None when no 'x' part)."""
    if not isinstance(text, str):
        raise RefError(f"unparsable move {text!r}")
    t = text.strip()
    if not t:
        raise RefError("unparsable move: empty text")
    low = t.lower()
    if low.count("x") > 1:
        raise RefError(f"unparsable move {text!r}")
    if "x" not in low:
        return parse_card(t), None
    i = low.index("x")
    card = parse_card(t[:i])
    rest = t[i + 1 :].strip()
    if not rest:
        raise RefError(f"unparsable move {text!r}: empty capture list")
    take = []
    for item in rest.split(","):
        if not item.strip():
            raise RefError(f"unparsable move {text!r}: empty item in capture list")
        c = parse_card(item)
        if c == card:
            raise RefError(f"move {text!r}: the capture list names the played card")
        if c in take:
            raise RefError(f"move {text!r}: {c} is named twice")
        take.append(c)
    return card, take


def move_text(card: str, take: list) -> str:
    if not take:
        return card
    return card + "x" + ",".join(canon_sorted(take))


def resolve_move(s, floor: list, card: str, take):
    """Pick the allowed capture set meant by the move (or [] for a trail)."""
    options = allowed_takes(s, floor, card)
    if not options:
        if take is not None:
            raise RefError(
                f"{card} captures nothing on this floor, yet the move names cards to take"
            )
        return []
    if take is None:
        if len(options) == 1:
            return options[0]
        raise RefError(
            f"ambiguous move {card}: choose one of "
            + ", ".join(move_text(card, o) for o in options)
        )
    want = set(take)
    for o in options:
        if set(o) == want:
            return o
    raise RefError(
        f"{card} may not take {','.join(canon_sorted(take))}; legal: "
        + ", ".join(move_text(card, o) for o in options)
    )


# --------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------


class RefGame:
    def __init__(
        self,
        variant: str,
        players: int,
        teams: bool = False,
        first_dealer: int = 0,
        rules: dict | None = None,
    ):
        self.settings = make_settings(variant, rules)
        self.variant = variant
        if not _is_int(players) or players not in (2, 3, 4):
            raise RefError(f"players must be 2, 3 or 4 (got {players!r})")
        if not isinstance(teams, bool):
            raise RefError(f"teams must be a boolean (got {teams!r})")
        if teams and players != 4:
            raise RefError("teams need 4 players")
        if not _is_int(first_dealer) or not (0 <= first_dealer < players):
            raise RefError(f"first_dealer must be a seat 0..{players - 1} (got {first_dealer!r})")
        self.n = players
        self.teams = teams
        self.first_dealer = first_dealer
        if teams:
            self.sides = [[0, 2], [1, 3]]
        else:
            self.sides = [[i] for i in range(players)]
        self.nsides = len(self.sides)
        self.score = [0] * self.nsides
        self.carry = 0  # abeyance majority carried to the next round
        self.rounds_out = []  # completed rounds' result objects
        self.rounds_started = 0
        self._phase = "deal"
        self.finished = False
        self.winner = None
        # current round
        self.hands = None
        self.stock = None
        self.floor = None
        self.piles = None
        self.lone = None
        self.last_capture_side = None
        self.cur_plays = None
        self._turn = (first_dealer + 1) % players

    # -- helpers --
    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def turn(self) -> int:
        return self._turn

    # -- dealing --
    def deal(self, pack) -> None:
        if self._phase != "deal":
            raise RefError(f"dealing is not allowed now (phase {self._phase})")
        s = self.settings
        if not isinstance(pack, list):
            raise RefError("pack must be a list of cards")
        cards = [parse_card(c) for c in pack]
        effective = full_pack(s["pack"])
        if (
            len(cards) != len(effective)
            or set(cards) != set(effective)
            or len(set(cards)) != len(cards)
        ):
            bad = [c for c in cards if c not in effective]
            dup = sorted({c for c in cards if cards.count(c) > 1})
            raise RefError(
                f"pack must be the {s['pack']}-card pack, each card once"
                f" (got {len(cards)} cards; foreign {bad}; repeated {dup})"
            )
        n = self.n
        dealer = (self.first_dealer + self.rounds_started) % n
        first = (dealer + 1) % n
        r = (s["pack"] - 4) % n
        h = s["hand_size"]
        stock = list(cards)
        hands = [[] for _ in range(n)]
        for i in range(n):
            seat = (first + i) % n
            hands[seat] = stock[:h]
            stock = stock[h:]
        floor = stock[: 4 + r]
        stock = stock[4 + r :]
        bury = s["bury"]

        def buried(c):
            return ("J" in bury and rank_of(c) == "J") or ("7D" in bury and c == "7D")

        guard = 0
        while any(buried(c) for c in floor):
            guard += 1
            if guard > 10000:
                raise RefError("burying never ends")
            idx = next(i for i, c in enumerate(floor) if buried(c))
            stock.append(floor[idx])
            floor[idx] = stock.pop(0)
        self.hands = hands
        self.stock = stock
        self.floor = floor
        self.piles = [[] for _ in range(self.nsides)]
        self.lone = None  # a dealt floor has no lone history (4+ cards)
        if len(floor) == 1:
            self.lone = ("lone", floor[0])
        self.last_capture_side = None
        self.cur_plays = []
        self._turn = first
        self.rounds_started += 1
        self._phase = "play"

    # -- playing --
    def legal_moves(self) -> list:
        if self._phase != "play":
            return []
        out = []
        for card in canon_sorted(self.hands[self._turn]):
            opts = allowed_takes(self.settings, self.floor, card)
            if not opts:
                out.append(card)
            else:
                out.extend(move_text(card, o) for o in opts)
        return out

    def play(self, text: str) -> int:
        if self._phase != "play":
            raise RefError(f"no play is allowed now (phase {self._phase})")
        s = self.settings
        card, take = parse_move(text)
        seat = self._turn
        if card not in self.hands[seat]:
            raise RefError(f"{card} is not in the hand of seat {seat}")
        take = resolve_move(s, self.floor, card, take)
        floor_before = list(self.floor)
        basra = basra_of_play(s, floor_before, self.lone, card, take)
        # apply
        self.hands[seat].remove(card)
        side = self.side_of(seat)
        if take:
            self.floor = [c for c in self.floor if c not in take]
            self.piles[side].extend([*take, card])
            self.last_capture_side = side
        else:
            self.floor.append(card)
        self.lone = next_lone_state(self.lone, self.floor, not take, card)
        last_play = all(not hand for hand in self.hands) and not self.stock
        if last_play and not s["basra_on_last_play"]:
            basra = 0
        self.cur_plays.append({"seat": seat, "move": move_text(card, take), "basra": basra})
        self._turn = (seat + 1) % self.n
        if all(not hand for hand in self.hands):
            if self.stock:
                self._later_deal()
            else:
                self._end_round()
        return basra

    def _later_deal(self):
        n = self.n
        k = min(self.settings["hand_size"], len(self.stock) // n)
        if k <= 0:
            raise RefError("internal: stock cannot be dealt evenly")
        # same order as the first deal: starting with the round's first player
        dealer = (self.first_dealer + self.rounds_started - 1) % n
        first = (dealer + 1) % n
        for i in range(n):
            seat = (first + i) % n
            self.hands[seat] = self.stock[:k]
            self.stock = self.stock[k:]

    def _end_round(self):
        s = self.settings
        if self.floor and self.last_capture_side is not None:
            self.piles[self.last_capture_side].extend(self.floor)
            self.floor = []
        ns = self.nsides
        cards = [len(p) for p in self.piles]
        pc = s["point_cards"]

        def points(c):
            if c in pc:
                return pc[c]
            return pc.get(rank_of(c), 0)

        card_points = [sum(points(c) for c in p) for p in self.piles]
        majority = [0] * ns
        top = max(cards)
        leaders = [i for i in range(ns) if cards[i] == top]
        if len(leaders) == 1:
            majority[leaders[0]] = s["majority_bonus"] + self.carry
            self.carry = 0
        else:
            tie = s["majority_tie"]
            if tie == "each":
                for i in leaders:
                    majority[i] = s["majority_bonus"]
            elif tie == "abeyance":
                self.carry += s["majority_bonus"]
        basras = [0] * ns
        basra_points = [0] * ns
        for p in self.cur_plays:
            if p["basra"] > 0:
                sd = self.side_of(p["seat"])
                basras[sd] += 1
                basra_points[sd] += p["basra"]
        pts = [card_points[i] + majority[i] + basra_points[i] for i in range(ns)]
        self.score = [self.score[i] + pts[i] for i in range(ns)]
        self.rounds_out.append(
            {
                "plays": self.cur_plays,
                "last_capture_side": self.last_capture_side,
                "cards": cards,
                "card_points": card_points,
                "majority": majority,
                "basras": basras,
                "basra_points": basra_points,
                "points": pts,
                "score": list(self.score),
            }
        )
        self.cur_plays = None
        self.hands = self.stock = self.floor = self.piles = None
        self.lone = None
        # end of game (A10)
        best = max(self.score)
        if best >= s["target"]:
            tops = [i for i in range(ns) if self.score[i] == best]
            if len(tops) == 1:
                self.finished, self.winner = True, tops[0]
            elif s["end_tie"] == "draw":
                self.finished, self.winner = True, None
        if self.finished:
            self._phase = "over"
            self.carry = 0  # dropped
        else:
            self._phase = "deal"
            self._turn = (self.first_dealer + self.rounds_started + 1) % self.n

    def result_json(self) -> dict:
        rounds = copy.deepcopy(self.rounds_out)
        if self._phase == "play":
            rounds.append({"plays": copy.deepcopy(self.cur_plays)})
        return {
            "format": "basra-result/1",
            "variant": self.variant,
            "sides": copy.deepcopy(self.sides),
            "rounds": rounds,
            "score": list(self.score),
            "finished": self.finished,
            "winner": self.winner,
        }


# --------------------------------------------------------------------------
# Records (RECORD.md)
# --------------------------------------------------------------------------


def replay_record(record: dict) -> dict:
    if not isinstance(record, dict):
        raise RefError("a record must be a JSON object")
    for key in ("format", "variant", "players", "rounds"):
        if key not in record:
            raise RefError(f"record lacks {key!r}")
    if record["format"] != "basra-record/1":
        raise RefError(f"unknown record format {record['format']!r}")
    teams = record.get("teams", False)
    first_dealer = record.get("first_dealer", 0)
    rules = record.get("rules")
    game = RefGame(record["variant"], record["players"], teams, first_dealer, rules)
    if "names" in record:
        names = record["names"]
        if (
            not isinstance(names, list)
            or len(names) != game.n
            or not all(isinstance(x, str) for x in names)
        ):
            raise RefError("names must be a list of one text per seat")
    rounds = record["rounds"]
    if not isinstance(rounds, list):
        raise RefError("rounds must be a list")
    for ri, rnd in enumerate(rounds):
        if not isinstance(rnd, dict) or "pack" not in rnd or "plays" not in rnd:
            raise RefError(f"round {ri}: must be an object with 'pack' and 'plays'")
        if game.phase == "over":
            raise RefError(f"round {ri}: the game had already ended")
        if game.phase == "play":
            raise RefError(f"round {ri}: the previous round was cut short")
        try:
            game.deal(rnd["pack"])
        except RefError as e:
            raise RefError(f"round {ri}: {e}") from None
        plays = rnd["plays"]
        if not isinstance(plays, list):
            raise RefError(f"round {ri}: plays must be a list")
        for pi, text in enumerate(plays):
            if game.phase != "play":
                raise RefError(f"round {ri}, play {pi}: the round is already over")
            try:
                game.play(text)
            except RefError as e:
                raise RefError(f"round {ri}, play {pi}: {e}") from None
    return game.result_json()


# --------------------------------------------------------------------------
# Position queries (RECORD.md "Position queries")
# --------------------------------------------------------------------------


def captures(variant: str, rules: dict | None, floor: list, before: list, card: str) -> list:
    s = make_settings(variant, rules)
    effective = set(full_pack(s["pack"]))
    seen = set()

    def use(c):
        c = parse_card(c)
        if c not in effective:
            raise RefError(f"{c} is not in the {s['pack']}-card pack")
        if c in seen:
            raise RefError(f"{c} appears more than once")
        seen.add(c)
        return c

    if not isinstance(floor, list) or not isinstance(before, list):
        raise RefError("floor and before must be lists")
    fl = [use(c) for c in floor]
    lone = ("lone", fl[0]) if len(fl) == 1 else None
    for text in before:
        c, take = parse_move(text)
        c = use(c)
        take = resolve_move(s, fl, c, take)
        if take:
            fl = [x for x in fl if x not in take]
        else:
            fl.append(c)
        lone = next_lone_state(lone, fl, not take, c)
    c = use(card)
    opts = allowed_takes(s, fl, c)
    if not opts:
        return [{"take": [], "basra": 0}]
    out = [{"take": o, "basra": basra_of_play(s, fl, lone, c, o)} for o in opts]
    out.sort(key=lambda d: [card_key(x) for x in d["take"]])
    return out
