"""Words for people in English and Arabic: cards, numbers, counts and what a move does.

Every text the lessons and puzzles give is a :data:`Words` mapping, one
string per language of :data:`LANGUAGES`, so that a front end picks the
person's language without asking the core again. Arabic text writes numbers
in Arabic-Indic digits and isolates each card label left to right (U+2066 ...
U+2069), so that ``7♦`` never reads ``♦7`` inside a right-to-left sentence;
:func:`plain` takes the isolates out for terminals that do not know them.

>>> from basra.cards import parse_card
>>> card_words(parse_card("10D"), "en"), plain(card_words(parse_card("10D"), "ar"))
('10♦', '10♦')
>>> num(-12.5, "ar"), count_words(3, "card", "en"), count_words(2, "card", "ar")
('-١٢٫٥', '3 cards', 'ورقتان')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from basra.cards import RANK_NAMES, Card, cards_of
from basra.coach.hints import MoveFacts
from basra.describe import card_label

__all__ = [
    "LANGUAGES",
    "Words",
    "both",
    "card_words",
    "cards_words",
    "check_language",
    "count_words",
    "facts_words",
    "num",
    "plain",
    "signed",
]

LANGUAGES = ("en", "ar")
"""The languages of every text: English and Arabic."""

Words = dict[str, str]
"""One text in every language of :data:`LANGUAGES` (``{"en": ..., "ar": ...}``)."""

_ISOLATE = ("\u2066", "\u2069")
_ARABIC_DIGITS = str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫")


def both(en: str, ar: str) -> Words:
    """A text in both languages."""
    return {"en": en, "ar": ar}


def check_language(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`; otherwise a ValueError saying which are."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


def plain(text: str) -> str:
    """``text`` without the direction isolates (for terminals)."""
    return text.replace(_ISOLATE[0], "").replace(_ISOLATE[1], "")


def num(value: float, lang: str) -> str:
    """A number as written in ``lang``: Arabic-Indic digits in Arabic; at most one decimal,
    none for a whole number."""
    text = f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return text.translate(_ARABIC_DIGITS) if lang == "ar" else text


def signed(value: float, lang: str) -> str:
    """A number with its sign (``+3``, ``-1.5``), written as :func:`num` writes it."""
    return ("+" if value > 0 else "") + num(value, lang)


def card_words(card: Card, lang: str) -> str:
    """A card as people write it (``7♦``), isolated left to right in Arabic."""
    label = card_label(card)
    return _ISOLATE[0] + label + _ISOLATE[1] if lang == "ar" else label


def cards_words(cards: Iterable[Card] | int, lang: str) -> str:
    """Several cards, in canonical order (a mask or an iterable)."""
    ordered = cards_of(cards) if isinstance(cards, int) else sorted(cards)
    return " ".join(card_words(c, lang) for c in ordered)


_COUNTS: Mapping[str, tuple[str, str, tuple[str, str, str, str]]] = {
    # English singular, plural; Arabic one, two, three to ten, eleven and more.
    "card": ("card", "cards", ("ورقة واحدة", "ورقتان", "أوراق", "ورقة")),
    "point": ("point", "points", ("نقطة واحدة", "نقطتان", "نقاط", "نقطة")),
}


def count_words(count: int, noun: str, lang: str) -> str:
    """``count`` of a noun (``card`` or ``point``), with the plural each language uses."""
    en_one, en_many, (one, two, few, many) = _COUNTS[noun]
    if lang != "ar":
        return f"{count} {en_one if abs(count) == 1 else en_many}"
    if abs(count) == 1:
        return one
    if abs(count) == 2:
        return two
    return f"{num(count, 'ar')} {few if 3 <= abs(count) <= 10 else many}"


_RANK_AR = {"A": "آس", "J": "ولد", "Q": "بنت", "K": "شايب"}
_RANK_EN = {"A": "an ace", "J": "a jack", "Q": "a queen", "K": "a king", "8": "an 8"}


def rank_words(rank: int, lang: str) -> str:
    """A card of a rank, never naming its suit: ``a jack``, ``an 8``; ``ولد``, ``٨``."""
    name = RANK_NAMES[rank]
    if lang == "ar":
        return _RANK_AR.get(name) or f"ورقة {num(int(name), 'ar')}"
    return _RANK_EN.get(name, f"a {name}")


def facts_words(facts: MoveFacts, lang: str, *, reply: bool = True) -> str:
    """What a move does, in one clause: what it takes, its basra or points, and (with
    ``reply``) what it leaves the next player (a rank, never a hidden card)."""
    move = facts.move
    card = card_words(move.card, lang)
    ar = lang == "ar"
    if not move.take:
        head = f"{card} تبقى على الأرض" if ar else f"{card} goes on the floor"
    else:
        taken = cards_words(move.take, lang)
        head = f"{card} تأكل {taken}" if ar else f"{card} takes {taken}"
        if facts.basra:
            head += (
                f" وتعمل بصرة ({signed(facts.basra, lang)})"
                if ar
                else f" for a basra ({signed(facts.basra, lang)})"
            )
        elif facts.card_points:
            points = count_words(facts.card_points, "point", lang)
            head += f" ({points} في الأوراق)" if ar else f" ({points} in cards)"
    if not reply:
        return head
    if facts.last:
        return head + ("، وهي آخر ورقة في الجولة" if ar else ", the round's last card")
    if not facts.floor_after:
        return head + (" وتترك الأرض فارغة" if ar else " and leaves the floor empty")
    answer = facts.reply
    if answer is None:
        return head + (
            " ولا تترك للاعب التالي شيئًا يأكله"
            if ar
            else " and leaves the next player nothing to take"
        )
    who = rank_words(answer.rank, lang)
    if answer.basra:
        gain = signed(answer.basra, lang)
        return head + (
            f"، لكن {who} يكنس الأرض ببصرة ({gain})"
            if ar
            else f", but {who} would clear the floor for a basra ({gain})"
        )
    if answer.points:
        points = count_words(answer.points, "point", lang)
        return head + (
            f" وتترك للاعب التالي {points} على الأكثر"
            if ar
            else f" and leaves the next player at most {points}"
        )
    return head + (
        " ولا تترك إلا أوراقًا بلا نقاط" if ar else " and leaves only cards worth no points"
    )
