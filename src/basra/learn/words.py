"""Words for people in every language: cards, numbers, counts and what a move does.

The words themselves are messages of the catalogues (:mod:`basra.locales`).

Every text the lessons and puzzles give is a :data:`Words` mapping, one
string per language of :data:`LANGUAGES` (a catalogue's message in each), so that a front
end picks the person's language without asking the core again. Arabic text writes numbers
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

from collections.abc import Iterable
from functools import cache

from basra.cards import RANK_NAMES, Card, cards_of, parse_card
from basra.coach.hints import MoveFacts
from basra.describe import card_label
from basra.locales import Argument, catalogue, format_number, languages, message, parse
from basra.locales import check_language as locales_check_language

__all__ = [
    "LANGUAGES",
    "Words",
    "card_words",
    "cards_words",
    "check_language",
    "count_words",
    "facts_words",
    "in_lang",
    "num",
    "plain",
    "signed",
    "words",
]

LANGUAGES = tuple(languages())
"""The languages of the catalogues (:func:`basra.locales.languages`), English first."""

Words = dict[str, str]
"""One text in every language of :data:`LANGUAGES` (``{"en": ..., "ar": ..., "el": ...,
"fr": ...}``), from a catalogue's message (:func:`words`); a front end shows
:func:`in_lang` (English where a language lacks the text)."""

_ISOLATE = ("\u2066", "\u2069")


def words(key: str, **params: object) -> Words:
    """A catalogue's message in every language, its values filled: a callable value is
    called with the language, and each ``{c_7D}`` hole is that card as the language
    writes it (isolated in Arabic)."""
    out = {}
    for lang in LANGUAGES:
        values = {k: v(lang) if callable(v) else v for k, v in params.items()}
        for name in _card_holes(key):
            values.setdefault(name, card_words(parse_card(name[2:]), lang))
        out[lang] = message(lang, key, **values)
    return out


@cache
def _card_holes(key: str) -> tuple[str, ...]:
    """The ``c_...`` holes of the English message ``key`` (each names a card)."""
    named: set[str] = set()
    todo = list(parse(catalogue("en")[key]))
    while todo:
        part = todo.pop()
        if isinstance(part, Argument):
            named.add(part.name)
            todo.extend(p for _, branch in part.options for p in branch)
    return tuple(sorted(name for name in named if name.startswith("c_")))


def in_lang(text: Words, lang: str) -> str:
    """``text`` in ``lang``, or in English where it has no ``lang``."""
    return text.get(lang) or text["en"]


def check_language(lang: str) -> str:
    """``lang`` if a catalogue has it; otherwise a ValueError saying which do."""
    return locales_check_language(lang)


def plain(text: str) -> str:
    """``text`` without the direction isolates (for terminals)."""
    return text.replace(_ISOLATE[0], "").replace(_ISOLATE[1], "")


def num(value: float, lang: str) -> str:
    """A number as written in ``lang`` (:func:`basra.locales.format_number`): Arabic-Indic
    digits in Arabic, a decimal comma in Greek and French; at most one decimal, none for a
    whole number."""
    return format_number(value, lang)


def signed(value: float, lang: str) -> str:
    """A number with its sign (``+3``, ``-1.5``), written as :func:`num` writes it."""
    return ("+" if value > 0 else "") + num(value, lang)


def card_words(card: Card, lang: str) -> str:
    """A card as people write it (``7♦``), isolated left to right in Arabic."""
    label = card_label(card)
    rtl = catalogue(lang).get("language_dir") == "rtl"
    return _ISOLATE[0] + label + _ISOLATE[1] if rtl else label


def cards_words(cards: Iterable[Card] | int, lang: str) -> str:
    """Several cards, in canonical order (a mask or an iterable)."""
    ordered = cards_of(cards) if isinstance(cards, int) else sorted(cards)
    return " ".join(card_words(c, lang) for c in ordered)


def count_words(count: int, noun: str, lang: str) -> str:
    """``count`` of a noun (``card`` or ``point``), in the plural form ``lang``'s CLDR rules
    give it (the catalogue's ``count_card`` and ``count_point``)."""
    return message(lang, f"count_{noun}", n=count)


def rank_words(rank: int, lang: str) -> str:
    """A card of a rank, never naming its suit: ``a jack``, ``an 8``; ``ولد``, ``ورقة ٣``."""
    name = RANK_NAMES[rank]
    if f"rank_a_{name}" in catalogue(lang) or f"rank_a_{name}" in catalogue("en"):
        return message(lang, f"rank_a_{name}")
    return message(lang, "rank_a", rank=int(name))


def facts_words(facts: MoveFacts, lang: str, *, reply: bool = True) -> str:
    """What a move does, in one clause: what it takes, its basra or points, and (with
    ``reply``) what it leaves the next player (a rank, never a hidden card)."""
    move = facts.move
    card = card_words(move.card, lang)
    if not move.take:
        head = message(lang, "facts_goes_down", card=card)
    else:
        head = message(lang, "facts_takes", card=card, cards=cards_words(move.take, lang))
        if facts.basra:
            head += message(lang, "facts_basra", gain=signed(facts.basra, lang))
        elif facts.card_points:
            head += message(lang, "facts_points", n=facts.card_points)
    if not reply:
        return head
    if facts.last:
        return head + message(lang, "facts_last")
    if not facts.floor_after:
        return head + message(lang, "facts_empty")
    answer = facts.reply
    if answer is None:
        return head + message(lang, "facts_nothing")
    who = rank_words(answer.rank, lang)
    if answer.basra:
        return head + message(lang, "facts_reply_basra", who=who, gain=signed(answer.basra, lang))
    if answer.points:
        return head + message(lang, "facts_reply_points", n=answer.points)
    return head + message(lang, "facts_reply_none")
