"""Words and colours for the table: cards, plays, previews and score sheets.

Everything here is built from what a seat may know (a
:class:`~basra.view.View`, public plays and round scores), so the screen
cannot show a hand it should not. Cards are drawn as small white faces with
red or black ink, which reads the same on dark and light terminals.

>>> from basra.cards import parse_card
>>> card_label(parse_card("10D"))
'10♦'
>>> describe_play(Play(1, Move(parse_card("7S"), 0)), ["You", "Nour"])
'Nour laid 7♠ on the floor.'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.table import Table
from rich.text import Text

from basra.cards import Card, cards_of
from basra.describe import SUIT_SYMBOLS, card_label, variant_title
from basra.moves import Move, Play
from basra.rules import Rules
from basra.scoring import RoundScore

__all__ = [
    "FACE",
    "SUIT_SYMBOLS",
    "card_chip",
    "card_label",
    "cards_chips",
    "describe_move",
    "describe_play",
    "is_red",
    "point_cards_text",
    "score_sheet",
    "variant_title",
]

FACE = "#fbfbf4"
"""The colour of a card's face: every card carries its own background."""
RED_INK = "#c0001a"
BLACK_INK = "#111111"
EDGE = "#8a8a80"


def is_red(card: Card) -> bool:
    """True for hearts and diamonds."""
    return card & 3 in (1, 2)


def ink(card: Card, face: str = FACE) -> Style:
    """The style of a card's rank and suit on a face colour."""
    return Style(color=RED_INK if is_red(card) else BLACK_INK, bgcolor=face, bold=True)


def card_chip(card: Card, face: str = FACE) -> Text:
    """A card as a one-line chip: `` 7♦ `` in its ink on a white face."""
    return Text(f" {card_label(card)} ", style=ink(card, face))


def cards_chips(cards: Sequence[Card] | int, face: str = FACE) -> Text:
    """Several cards as chips separated by spaces (a mask or a list)."""
    items = cards_of(cards) if isinstance(cards, int) else list(cards)
    out = Text()
    for index, card in enumerate(items):
        if index:
            out.append(" ")
        out.append_text(card_chip(card, face))
    return out


def _list(cards: Sequence[Card]) -> str:
    return " ".join(card_label(c) for c in cards)


def describe_move(move: Move, basra: int = 0) -> str:
    """What a move does, without who makes it: ``takes 2♣ A♥ 4♦, a basra worth 10``."""
    if not move.take:
        return f"lays {card_label(move.card)} on the floor"
    text = f"takes {_list(move.taken())}"
    if basra:
        text += f", a basra worth {basra}"
    return text


def describe_play(play: Play, names: Sequence[str]) -> str:
    """A play in words: ``Nour played 7♦ and took 2♣ A♥ 4♦. Basra! +10``."""
    seat, move, basra = play
    who = names[seat]
    if not move.take:
        return f"{who} laid {card_label(move.card)} on the floor."
    text = f"{who} played {card_label(move.card)} and took {_list(move.taken())}."
    if basra:
        text += f" Basra! +{basra}"
    return text


def point_cards_text(rules: Rules, cards: Sequence[Card]) -> str:
    """The point cards among ``cards`` and their worth, like ``2♣ 2 pts, A♥ 1 pt``."""
    parts = []
    for card in cards:
        points = rules.card_points[card]
        if points:
            parts.append(f"{card_label(card)} {points} pt{'s' if points != 1 else ''}")
    return ", ".join(parts)


def score_sheet(result: RoundScore, sides: Sequence[str], rules: Rules, target: int) -> Table:
    """The end-of-round sheet: a column per side, a row per kind of points."""
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False)
    table.add_column("", style="bold")
    for name in sides:
        table.add_column(name, justify="right", style="bold", max_width=24, overflow="ellipsis")
    n = len(sides)
    most = max(result.cards)

    def row(label: str, values: Sequence[str]) -> None:
        table.add_row(label, *values)

    row("Cards taken", [str(c) + (" ★" if c == most else "") for c in result.cards])
    row("Most cards", [str(result.majority[s]) for s in range(n)])
    row("Point cards", [str(result.card_points[s]) for s in range(n)])
    row(
        "Basras",
        [
            f"{result.basras[s]} = {result.basra_points[s]}" if result.basras[s] else "0"
            for s in range(n)
        ],
    )
    row("This round", [f"+{result.points[s]}" for s in range(n)])
    table.add_row("Score", *[Text(str(s), style="bold reverse") for s in result.score])
    table.add_row(Text(f"(to {target})", style="dim"), *[""] * n)
    return table
