"""Moves and plays: small hashable values with a context-free text form.

A :class:`Move` is the card played and the mask of floor cards it takes (0 for
a trail). Its text is always explicit (RECORD.md): ``7Sx2C,AH,4D`` or ``7S``.
Reading text, where a bare card may mean a capture, needs the position: see
:func:`basra.notation.parse_move`.

>>> from basra.cards import parse_card, mask_of, parse_cards
>>> Move(parse_card("7S"), mask_of(parse_cards("2C AH 4D"))).text()
'7SxAH,2C,4D'
"""

from __future__ import annotations

from typing import NamedTuple

from basra.cards import CARD_NAMES, Card, cards_of

__all__ = ["Move", "Play"]


class Move(NamedTuple):
    """A play of ``card`` taking the floor cards in the mask ``take`` (0: a trail)."""

    card: Card
    take: int = 0

    @property
    def is_capture(self) -> bool:
        """True when the move takes cards from the floor."""
        return self.take != 0

    def taken(self) -> list[Card]:
        """The floor cards taken, in canonical order."""
        return cards_of(self.take)

    def text(self) -> str:
        """Canonical move text: the bare card for a trail, else ``CARDxC1,C2,...``."""
        text = _TEXTS.get(self)
        if text is None:
            if not self.take:
                text = CARD_NAMES[self.card]
            else:
                text = (
                    CARD_NAMES[self.card]
                    + "x"
                    + ",".join(CARD_NAMES[c] for c in cards_of(self.take))
                )
            if len(_TEXTS) >= 1 << 16:
                _TEXTS.clear()
            _TEXTS[self] = text
        return text

    def __str__(self) -> str:
        return self.text()


_TEXTS: dict[Move, str] = {}


class Play(NamedTuple):
    """A move as it was played: by which seat, and the basra points it scored."""

    seat: int
    move: Move
    basra: int = 0
