"""The terminal's table: the core's :mod:`basra.session`, with what only the terminal needs.

A game at one table (who sits where, seeded deals and bots, saving and
resuming) is :class:`basra.session.Session`, part of the core so that the
page's offline table plays through the same code; this module re-exports it
for the terminal and adds the ``--seats`` text (:func:`parse_seats`) and the
file names a save may take (:func:`free_path`, :func:`same_file`).

>>> session = Session.new(seats=parse_seats("you,easy", 2), seed=4)
>>> session.deal()
>>> session.state.phase, session.people
('play', [0])
"""

from __future__ import annotations

from pathlib import Path

from basra.session import (
    BOT_NAMES,
    PERSON,
    SAVE_FORMAT,
    SAVE_KEY,
    SaveExistsError,
    Seat,
    Session,
    SessionError,
    check_seat_kind,
    default_names,
)

__all__ = [
    "BOT_NAMES",
    "PERSON",
    "PERSON_WORDS",
    "SAVE_FORMAT",
    "SAVE_KEY",
    "SaveExistsError",
    "Seat",
    "Session",
    "SessionError",
    "check_seat_kind",
    "default_names",
    "free_path",
    "parse_seats",
    "same_file",
]

PERSON_WORDS = ("person", "you", "me", "human", "p")
"""Words accepted for a person in ``--seats``."""


def free_path(path: Path) -> Path:
    """``path`` if nothing is there, else the first free ``NAME-2.json``, ``NAME-3.json`` ...

    >>> free_path(Path("/no/such/folder/game.json"))
    PosixPath('/no/such/folder/game.json')
    """
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate


def same_file(a: Path, b: Path) -> bool:
    """True when two paths name the same file (whether or not it exists yet)."""
    return a.expanduser().resolve() == b.expanduser().resolve()


def parse_seats(text: str, players: int) -> list[str]:
    """Seat kinds from ``--seats`` text such as ``you,medium`` (one per seat).

    A seat is ``you`` (a person), a level, or any bot spec of ``basra bots``,
    options included (``ismcts:iterations=500,c=0.5``; a ``key=value`` item
    after a spec belongs to it) or an external program (``cmd:python3 bot.py``).

    >>> parse_seats("you, Hard ,p", 3)
    ['person', 'hard', 'person']
    >>> parse_seats("you,ismcts:iterations=300,c=0.5,greedy", 3)
    ['person', 'ismcts:iterations=300,c=0.5', 'greedy']
    """
    items: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if items and ":" in items[-1] and "=" in item and ":" not in item:
            items[-1] += "," + item
        else:
            items.append(item)
    if len(items) != players:
        raise SessionError(
            f"--seats names {len(items)} seat(s) for {players} players; "
            f"give one per seat, like 'you,{','.join(['medium'] * (players - 1))}'"
        )
    out = []
    for item in items:
        kind = item.lower() if ":" not in item else item
        if kind in PERSON_WORDS:
            out.append(PERSON)
        else:
            check_seat_kind(kind)
            out.append(kind)
    return out
