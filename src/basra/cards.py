"""Cards as small ints, sets of cards as int bit masks, and their text forms.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``, with ranks in the order
``A 2 3 4 5 6 7 8 9 10 J Q K`` (0-12) and suits ``S H D C`` (0-3). That order
is also the canonical order of RECORD.md, so sorting card ints sorts cards
canonically, and the 44-card pack (no queens or kings) is exactly cards 0-43.

A set of cards is an ``int`` bit mask (bit ``c`` set when card ``c`` is in it).
:class:`CardSet` wraps a mask for readable code and printing.

>>> parse_card("7♦") == SEVEN_DIAMONDS
True
>>> card_text(parse_card("t d"))
'10D'
>>> format_cards(parse_cards("2c ah 4d"))
'AH 2C 4D'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = [
    "ACE",
    "CARD_NAMES",
    "FULL_PACK",
    "JACK",
    "KING",
    "NUMERAL",
    "PACK_44",
    "PACK_52",
    "QUEEN",
    "RANK_MASKS",
    "RANK_NAMES",
    "SEVEN_DIAMONDS",
    "SUIT_NAMES",
    "TEN",
    "Card",
    "CardError",
    "CardSet",
    "card_text",
    "cards_of",
    "format_cards",
    "is_numeral",
    "mask_of",
    "pack_mask",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "rank_of",
    "suit_of",
    "value_of",
]

Card = int
"""A card: ``rank * 4 + suit`` (0-51)."""

RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_NAMES: tuple[str, ...] = ("S", "H", "D", "C")

ACE = 0
TEN = 9
JACK = 10
QUEEN = 11
KING = 12

_SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}  # fmt: skip
_RANK_ALIASES = {name: index for index, name in enumerate(RANK_NAMES)}
_RANK_ALIASES["T"] = TEN
_RANK_ALIASES["1"] = ACE  # nobody writes "1S", but it is unambiguous


def rank_of(card: Card) -> int:
    """The rank index of a card (0 = ace ... 9 = ten, 10 = J, 11 = Q, 12 = K)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The suit index of a card (0 = S, 1 = H, 2 = D, 3 = C)."""
    return card & 3


CARD_NAMES: tuple[str, ...] = tuple(RANK_NAMES[c >> 2] + SUIT_NAMES[c & 3] for c in range(52))

SEVEN_DIAMONDS: Card = 6 * 4 + 2

PACK_52: int = (1 << 52) - 1
PACK_44: int = (1 << 44) - 1
FULL_PACK = PACK_52

RANK_MASKS: tuple[int, ...] = tuple(0b1111 << (4 * rank) for rank in range(13))
NUMERAL: int = (1 << 40) - 1
"""The mask of all numerals (A-10): the only cards with a value."""

_VALUES: tuple[int, ...] = tuple((c >> 2) + 1 if c < 40 else 0 for c in range(52))


def value_of(card: Card) -> int:
    """The numeric value of a numeral (A = 1 ... 10 = 10); 0 for J, Q and K."""
    return _VALUES[card]


def is_numeral(card: Card) -> bool:
    """True for A-10, the cards that can be summed."""
    return card < 40


def pack_mask(size: int) -> int:
    """The mask of the 52-card pack or of the 44-card pack without Q and K."""
    if size == 52:
        return PACK_52
    if size == 44:
        return PACK_44
    raise ValueError(f"pack size must be 52 or 44, not {size!r}")


class CardError(ValueError):
    """Card text that does not name a card."""


def parse_rank(text: str) -> int:
    """Parse a rank (``A``, ``2``-``10``, ``T``, ``J``, ``Q``, ``K``; any case)."""
    key = text.strip().upper()
    try:
        return _RANK_ALIASES[key]
    except KeyError:
        raise CardError(f"{text!r} is not a rank (ranks are A 2 3 4 5 6 7 8 9 10 J Q K)") from None


def parse_card(text: str) -> Card:
    """Parse card text such as ``7D``, ``10h``, ``Ts``, ``Q♠``.

    Input is case-insensitive and accepts ``T`` for ``10`` and the suit symbols
    ``♠ ♥ ♦ ♣`` (also ``♤ ♡ ♢ ♧``). Raises :class:`CardError` with the reason.

    >>> card_text(parse_card("ts"))
    '10S'
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be text like '7D', not {text!r}")
    s = "".join(text.split()).upper()
    if len(s) < 2:
        raise CardError(f"{text!r} is not a card: write rank then suit, like '7D' or '10H'")
    suit = _SUIT_ALIASES.get(s[-1])
    if suit is None:
        raise CardError(f"{text!r} is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣)")
    rank = _RANK_ALIASES.get(s[:-1])
    if rank is None:
        raise CardError(
            f"{text!r} is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K (or T)"
        )
    return rank * 4 + suit


def card_text(card: Card) -> str:
    """Canonical card text: upper case ASCII with ``10`` (``7D``, ``10D``, ``QS``)."""
    return CARD_NAMES[card]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse whitespace- or comma-separated card text, or an iterable of card texts."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in canonical order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_cards(cards: Iterable[Card] | int, sep: str = " ") -> str:
    """Card text of several cards in canonical order (a mask or an iterable)."""
    ordered = cards_of(cards) if isinstance(cards, int) else sorted(cards)
    return sep.join(CARD_NAMES[c] for c in ordered)


class CardSet:
    """An immutable set of cards backed by a bit mask.

    >>> hand = CardSet.parse("7D 2C ah")
    >>> len(hand), str(hand)
    (3, 'AH 2C 7D')
    >>> parse_card("2c") in hand
    True
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        object.__setattr__(self, "mask", cards if isinstance(cards, int) else mask_of(cards))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """A set from card text (see :func:`parse_cards`)."""
        return cls(parse_cards(text))

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def texts(self) -> list[str]:
        """Canonical card texts in canonical order."""
        return [CARD_NAMES[c] for c in cards_of(self.mask)]

    def __str__(self) -> str:
        return format_cards(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
