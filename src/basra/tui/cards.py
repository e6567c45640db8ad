"""The card row widget: cards drawn as small faces, wrapped to the width, clickable."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from basra.cards import RANK_NAMES, Card
from basra.tui.text import EDGE, FACE, SUIT_SYMBOLS, ink

__all__ = ["CardRow"]

GAP = 1


class CardRow(Widget):
    """A row of cards (it wraps onto more rows when the width runs out).

    Small cards are 5 cells by 3 lines; ``big`` cards are 7 by 5. With
    ``numbered`` each card has its key (1, 2, ...) under it. A click on a card
    posts :class:`CardRow.Picked` with the card's index.
    """

    DEFAULT_CSS = """
    CardRow { height: auto; width: 1fr; }
    """

    class Picked(Message):
        """A card of the row was clicked."""

        def __init__(self, row: CardRow, index: int) -> None:
            super().__init__()
            self.row = row
            self.index = index

    def __init__(
        self, *, numbered: bool = False, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.numbered = numbered
        self.big = False
        self.cards: list[Card] = []
        self.faces: dict[Card, str] = {}
        self.selected: int | None = None
        self.empty_text = ""

    def show(
        self,
        cards: Sequence[Card],
        *,
        faces: Mapping[Card, str] | None = None,
        selected: int | None = None,
        empty_text: str = "",
    ) -> None:
        """Show ``cards``, some on other face colours, one maybe selected."""
        changed_height = len(cards) != len(self.cards)
        self.cards = list(cards)
        self.faces = dict(faces or {})
        self.selected = selected
        self.empty_text = empty_text
        self.refresh(layout=changed_height)

    def set_big(self, big: bool) -> None:
        """Draw big cards (for large terminals) or small ones."""
        if big != self.big:
            self.big = big
            self.refresh(layout=True)

    @property
    def card_size(self) -> tuple[int, int]:
        """Width and height of one card in cells."""
        return (7, 5) if self.big else (5, 3)

    def per_line(self, width: int) -> int:
        """How many cards fit side by side in ``width`` cells."""
        card_width = self.card_size[0]
        return max(1, (width + GAP) // (card_width + GAP))

    def _lines_per_row(self) -> int:
        return self.card_size[1] + (1 if self.numbered else 0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Enough lines for every row of cards at this width."""
        rows = max(1, -(-len(self.cards) // self.per_line(width)))
        return rows * self._lines_per_row()

    def card_at(self, x: int, y: int) -> int | None:
        """The index of the card under a cell of the widget, if any."""
        card_width, _ = self.card_size
        per = self.per_line(self.size.width)
        column, within = divmod(x, card_width + GAP)
        if within >= card_width or column >= per:
            return None
        index = (y // self._lines_per_row()) * per + column
        return index if 0 <= index < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        """Post :class:`Picked` for the card clicked."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.card_at(offset.x, offset.y)
        if index is not None:
            event.stop()
            self.post_message(self.Picked(self, index))

    def _card_lines(self, index: int, card: Card) -> list[Text]:
        face = self.faces.get(card, FACE)
        if index == self.selected:
            face = SELECTED
        edge = Style(color=EDGE, bgcolor=face)
        text_style = ink(card, face)
        rank, suit = RANK_NAMES[card >> 2], SUIT_SYMBOLS[card & 3]
        if self.big:
            inner = 5
            lines = [
                Text("╭" + "─" * inner + "╮", style=edge),
                _middle(f"{rank:<{inner}}", text_style, edge),
                _middle(f"{suit:^{inner}}", text_style, edge),
                _middle(f"{rank:>{inner}}", text_style, edge),
                Text("╰" + "─" * inner + "╯", style=edge),
            ]
        else:
            inner = 3
            lines = [
                Text("╭" + "─" * inner + "╮", style=edge),
                _middle(f"{rank + suit:<{inner}}", text_style, edge),
                Text("╰" + "─" * inner + "╯", style=edge),
            ]
        if self.numbered:
            width = inner + 2
            if index == self.selected:
                label = Text(f"▲{index + 1}".center(width), style="bold reverse")
            else:
                label = Text(str(index + 1).center(width), style="bold")
            lines.append(label)
        return lines

    def render(self) -> Text:
        """The cards, row after row."""
        if not self.cards:
            blank = [""] * self._lines_per_row()
            blank[min(1, len(blank) - 1)] = self.empty_text
            return Text("\n".join(blank), style="italic", no_wrap=True)
        per = self.per_line(self.size.width or 80)
        out = Text(no_wrap=True, overflow="crop")
        for start in range(0, len(self.cards), per):
            chunk = [
                self._card_lines(start + i, card)
                for i, card in enumerate(self.cards[start : start + per])
            ]
            for line in range(self._lines_per_row()):
                if start or line:
                    out.append("\n")
                for i, lines in enumerate(chunk):
                    if i:
                        out.append(" " * GAP)
                    out.append_text(lines[line])
        return out


SELECTED = "#ffd75f"
"""The face colour of the selected card of a hand."""


def _middle(content: str, text_style: Style, edge: Style) -> Text:
    line = Text("│", style=edge)
    line.append(content, style=text_style)
    line.append("│", style=edge)
    return line
