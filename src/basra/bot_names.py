"""The server's bots' names: the one place that makes them and reads them back.

A bot is named in English in every record (a table's seat names, a tournament's
entrants, an offline game's upload): ``Bot 2 (hard)``. A page never shows that text:
it names the bot in its own language from the bot's *number* and level (the
catalogues' ``bot_n``, ``bot_level`` and ``bots_level``, drawn by ``static/names.js``),
and the server sends the number beside the name (:func:`bot_number`).

The number is the seat's (counted from 1) at an ordinary table and offline. A
tournament numbers its own bots in the order they were entered (``Bot 3``: the
event's third bot, whatever seat its games give it; ``Bot 3a`` and ``Bot 3b`` for
a team of two bots, entered as ``Bots 3``), and its tables keep that name, so
the pairing and the table name the same bot alike. A person's bot partner in a
team event is ``Bot (easy)``, with no number of its own (the table counts it by
its seat).

Standard library only: the page's Python (Pyodide) names its bots through here too.

>>> bot_name(3, "easy"), bots_name(3, "easy"), partner_bot_name("hard")
('Bot 3 (easy)', 'Bots 3 (easy)', 'Bot (hard)')
>>> bot_number("Bot 3 (easy)", 1), bot_number("Bot 3a (easy)", 0), bot_number(None, 1)
(3, '3a', 2)
>>> bot_number("Bot (hard)", 3), bot_number("Bots 4 (easy)")
(4, 4)
"""

from __future__ import annotations

import re

__all__ = ["bot_name", "bot_number", "bots_name", "partner_bot_name"]

_NUMBERED = re.compile(r"^Bots? ([1-9][0-9]{0,3})([ab]?)(?: \([a-z]+\))?$")
"""A numbered bot's record name (or a team of two bots'), as :func:`bot_name` and
:func:`bots_name` write it."""


def _with_level(name: str, level: str | None) -> str:
    return f"{name} ({level})" if level else name


def bot_name(number: int | str, level: str | None = None) -> str:
    """A bot's name in records: ``Bot 2 (hard)`` (``number`` counted from 1; ``3a``
    for one of a team of two bots)."""
    return _with_level(f"Bot {number}", level)


def bots_name(number: int, level: str) -> str:
    """A tournament team of two server bots, in records: ``Bots 3 (easy)``."""
    return _with_level(f"Bots {number}", level)


def partner_bot_name(level: str) -> str:
    """A person's bot partner in a team tournament, in records: ``Bot (easy)``."""
    return _with_level("Bot", level)


def bot_number(name: str | None, seat: int | None = None) -> int | str | None:
    """The number a page names a bot by: the one its record ``name`` holds (a whole
    number, or text such as ``"3a"``), else its ``seat`` counted from 1 (None without
    a seat)."""
    found = _NUMBERED.match(name or "")
    if found:
        digits, mark = found.groups()
        return f"{int(digits)}{mark}" if mark else int(digits)
    return None if seat is None else seat + 1
