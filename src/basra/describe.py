"""The rules of a game in words, written from its settings, and names for people.

The one Python source of the rules text that the web rules page shows (its
English sentences), for ``basra rules`` and the terminal's help. Every sentence
comes from a setting, so custom rules read as they are played:

>>> from basra.rules import preset
>>> sections = rules_sections(preset("syrian"))
>>> [section.title for section in sections]
['The pack and the deal', 'Capturing', 'The basra', 'Scoring']
>>> sections[2].items[1][-58:]
'capturing card (ace 1, numerals their pips, Q = 3, K = 4).'
>>> point_cards_sentence(preset("egyptian"))
'Card points: each A = 1, each J = 1, 2♣ = 2, 10♦ = 3.'
>>> card_label(parse_card("10D")), variant_title("lebanese_ashush")
('10♦', 'Lebanese Basra (Ashush)')
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

from basra.cards import RANK_NAMES, Card, parse_card
from basra.rules import SETTING_NAMES, Rules, preset

__all__ = [
    "SUIT_SYMBOLS",
    "VARIANT_TITLES",
    "Section",
    "card_label",
    "point_cards_sentence",
    "rules_heading",
    "rules_sections",
    "rules_text",
    "setting_key_label",
    "variant_title",
]

SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
"""Suit symbols in suit order (spades, hearts, diamonds, clubs)."""

VARIANT_TITLES: Mapping[str, str] = {
    "cypriot_bastra": "Cypriot Bastra",
    "cypriot_classic": "Cypriot Bastra (classic)",
    "egyptian": "Egyptian Basra",
    "egyptian_121": "Egyptian Basra to 121",
    "egyptian_mona_russel": "Egyptian (Mona Russel)",
    "saba_alkoomi": "Sab'a Alkoomi",
    "yemeni": "Yemeni Basra",
    "ethiopian": "Ethiopian Basra",
    "lebanese": "Lebanese Basra",
    "lebanese_ashush": "Lebanese Basra (Ashush)",
    "lebanese_alefb": "Lebanese Basra (children's)",
    "palestinian": "Palestinian Basra",
    "jordanian": "Jordanian Basra (Haddad)",
    "syrian": "Syrian Basra",
    "syrian_homsi": "Syrian Basra (Homsi)",
}
"""Each preset's name for people, as the web page writes it in English."""

SEVEN = "7♦"


def card_label(card: Card) -> str:
    """A card as people write it: ``7♦``, ``10♠``, ``Q♥``."""
    return RANK_NAMES[card >> 2] + SUIT_SYMBOLS[card & 3]


def _is_card_key(key: str) -> bool:
    return key[-1:].upper() in ("S", "H", "D", "C")


def setting_key_label(key: str) -> str:
    """A ``point_cards`` or ``face_values`` key as shown: a card (``10D``) as ``10♦``,
    a rank (``10``, ``Q``) as it is."""
    return card_label(parse_card(key)) if _is_card_key(key) else key


def variant_title(variant: str) -> str:
    """A preset's name for people: ``egyptian`` -> ``Egyptian Basra``."""
    return VARIANT_TITLES.get(variant, variant.replace("_", " ").title())


@dataclass(frozen=True)
class Section:
    """One part of the rules: a title and its sentences."""

    title: str
    items: tuple[str, ...]


def point_cards_sentence(rules: Rules) -> str:
    """Which cards score points, and how many: ``Card points: each A = 1, 2♣ = 2.``."""
    parts = [
        f"{'' if _is_card_key(key) else 'each '}{setting_key_label(key)} = {points}"
        for key, points in rules.point_cards
    ]
    return f"Card points: {', '.join(parts) or 'none'}."


def _deal(rules: Rules) -> Section:
    items = [
        "A 44-card pack: queens and kings are taken out."
        if rules.pack == 44
        else "A full 52-card pack.",
        f"Each deal gives every player {rules.hand_size} cards; the first deal also turns "
        "4 cards face up on the floor. When all hands are empty, the next deal comes from "
        "the stock, with nothing more to the floor.",
    ]
    buried = [("jacks" if name == "J" else SEVEN) for name in rules.bury]
    if buried:
        items.append(
            f"If the first floor shows {' or the '.join(buried)}, it is buried under the "
            "stock and replaced by the next card."
        )
    else:
        items.append("Nothing is buried from the first floor.")
    items.append(
        "Play goes anticlockwise (to the right), starting with the player after the dealer."
        if rules.direction == "ccw"
        else "Play goes clockwise (to the left), starting with the player after the dealer."
    )
    return Section("The pack and the deal", tuple(items))


_SEVEN_TEXT = {
    "plain": f"The {SEVEN} is an ordinary seven.",
    "egyptian": f"The {SEVEN} sweeps the floor like a jack; it is a basra when every floor "
    "card is a numeral and they add up to 10 or less.",
    "yemeni": f"The {SEVEN} sweeps the floor; it is a basra when the floor is numerals adding "
    "up to less than 10, or only tens, queens and kings, or splits into groups with equal "
    "sums under 10.",
    "ethiopian": f"The {SEVEN} sweeps the floor; it is a basra when the floor is numerals "
    f"adding up to 10 or less, or groups with equal sums up to 10. A lone {SEVEN} on the "
    "floor gives a basra to any card but a jack that takes it.",
    "no_basra": f"The {SEVEN} sweeps the floor like a jack, but never makes a basra.",
}


def _capturing(rules: Rules) -> Section:
    items = [
        "On your turn you play one card. If it can capture it must; otherwise it stays on "
        "the floor.",
        "A card takes every floor card of its own rank. A numeral (ace = 1 to 10) also takes "
        "groups of numerals that add up to its value.",
    ]
    if rules.pack != 44:
        items.append("Queens and kings capture only by pairing.")
    items.append("A jack sweeps the whole floor; on an empty floor it stays there.")
    items.append(
        "When a card could take different sets, it takes as many cards as it can; among "
        "equally big sets the player chooses."
        if rules.capture_policy == "max_cards"
        else "When a card could take different sets, the player chooses any set that cannot "
        "be made bigger."
    )
    items.append(_SEVEN_TEXT[rules.seven_diamonds])
    if rules.sweeping_seven:
        items.append(f"A {SEVEN} played on an empty floor stays there and is taken like any seven.")
    return Section("Capturing", tuple(items))


_BASRA_TEXT = {
    "clear": "A basra is clearing the whole floor with any card but a jack.",
    "lone_match": "A basra is taking a lone card on the floor by pairing it.",
    "lone_match_or_sum": "A basra is taking a lone card on the floor by pairing it, or, after "
    "a card was trailed onto a lone card, taking both with a card worth their sum.",
}


def _basra(rules: Rules) -> Section:
    items = [_BASRA_TEXT[rules.basra_mode]]
    if rules.basra_value == "flat":
        items.append(f"Each basra scores {rules.basra_points}.")
    else:
        faces = dict(rules.face_values)
        values = "ace 1, numerals their pips" + "".join(
            f", {rank} = {value}" for rank, value in rules.face_values
        )
        unvalued = [rank for rank in ("Q", "K") if rank not in faces]
        if rules.pack != 44 and unvalued:
            pictures = " or ".join({"Q": "queen", "K": "king"}[rank] for rank in unvalued)
            values += f"; with a {pictures} it scores {rules.basra_points}"
        items.append(f"A basra scores twice the face value of the capturing card ({values}).")
    items.append(
        f"A jack taking a lone jack is a basra worth {rules.jack_on_lone_jack}."
        if rules.jack_on_lone_jack > 0
        else "A jack taking a lone jack is no basra."
    )
    items.append(
        "A basra with the round's last card counts."
        if rules.basra_on_last_play
        else "A basra with the round's last card does not count."
    )
    return Section("The basra", tuple(items))


_TIE_TEXT = {
    "each": "On a tie every tied side gets it.",
    "none": "On a tie nobody gets it.",
    "abeyance": "On a tie it is held over and added to the next round's bonus.",
}


def _scoring(rules: Rules) -> Section:
    items = (
        "After the last card, whoever captured last takes what is left on the floor (not a basra).",
        point_cards_sentence(rules),
        f"The side with the most cards scores {rules.majority_bonus}. "
        + _TIE_TEXT[rules.majority_tie],
        f"The game ends after a round in which a side reaches {rules.target}; the highest "
        "score wins.",
        "If the top scores are tied, the game is a draw."
        if rules.end_tie == "draw"
        else "If the top scores are tied, more rounds are played until one side leads.",
        "With four players you may play in two teams: partners sit opposite and share their pile.",
    )
    return Section("Scoring", items)


def rules_sections(rules: Rules) -> list[Section]:
    """The rules in words, in four sections: the deal, capturing, the basra, scoring."""
    return [_deal(rules), _capturing(rules), _basra(rules), _scoring(rules)]


def rules_heading(variant: str, rules: Rules, name: str | None = None) -> str:
    """What the rules are called: a rules file's ``name`` or the variant's, and whether
    the settings differ from the variant's preset.

    >>> rules_heading("egyptian", preset("egyptian"))
    'Egyptian Basra'
    >>> rules_heading("egyptian", preset("egyptian").with_overrides({"target": 61}), "House")
    'House (Egyptian Basra with custom settings)'
    """
    base = variant_title(variant)
    if rules != preset(variant):
        base += " with custom settings"
    return f"{name} ({base})" if name else base


def rules_text(variant: str, rules: Rules, *, name: str | None = None, width: int = 78) -> str:
    """The rules as plain text for a terminal: a title, the sections, the settings.

    ``name`` is a custom rules file's name for them. Settings that differ from
    the variant's preset are marked with ``*``; their values are written as
    ``--rules`` takes them (JSON).
    """
    changed = set(rules.overrides_from(preset(variant)))
    lines = textwrap.wrap(f"How to play: {rules_heading(variant, rules, name)}", width)
    lines.append("Every rule below is written from the settings.")
    for section in rules_sections(rules):
        lines += ["", section.title]
        for item in section.items:
            lines += textwrap.wrap(item, width, initial_indent="- ", subsequent_indent="  ")
    lines += ["", "The settings" + (" (* changed from the preset)" if changed else "")]
    settings = rules.to_dict()
    column = max(map(len, SETTING_NAMES)) + 2
    for key in SETTING_NAMES:
        mark = " *" if key in changed else ""
        value = json.dumps(settings[key], ensure_ascii=False)
        lines.append(f"  {key:<{column}}{value}{mark}")
    return "\n".join(lines)
