"""Deals derived from a secret: the same pack for everyone who plays a deal, known to nobody.

Duplicate play (the web app's daily deal, a duplicate tournament's boards)
deals the same pack to many tables. The pack must be the same at every table
and must not be guessable before it is played, so it is never derived from
public facts alone (a date, an event id): it comes from a *secret* (random
bytes the operator keeps) and a public *label* naming the deal, through
HMAC-SHA256. The same secret and label always give the same pack; without
the secret the pack is as unpredictable as a shuffle.

>>> from basra.rules import preset
>>> rules = preset("egyptian")
>>> first = derived_pack(b"secret", "basra-duplicate/1|event|1|0|pack", rules)
>>> first == derived_pack(b"secret", "basra-duplicate/1|event|1|0|pack", rules)
True
>>> first == derived_pack(b"other secret", "basra-duplicate/1|event|1|0|pack", rules)
False
>>> sorted(first) == list(range(52))
True
"""

from __future__ import annotations

import hashlib
import hmac
import random

from basra.cards import Card
from basra.rules import Rules
from basra.state import shuffled_pack

__all__ = ["derived_bytes", "derived_pack"]


def derived_bytes(secret: bytes, label: str) -> bytes:
    """32 bytes that only the holder of ``secret`` can compute for ``label`` (HMAC-SHA256)."""
    if not secret:
        raise ValueError("a derived deal needs a secret: an empty one would make it public")
    return hmac.new(secret, label.encode(), hashlib.sha256).digest()


def derived_pack(secret: bytes, label: str, rules: Rules) -> list[Card]:
    """The effective pack of ``rules`` (top card first) shuffled by ``secret`` and ``label``.

    The shuffle is :func:`basra.state.shuffled_pack` seeded with the HMAC of
    the label read as one big-endian integer, so a caller that seeded
    :class:`random.Random` that way before gets the very same packs.
    """
    seed = int.from_bytes(derived_bytes(secret, label))
    return shuffled_pack(rules, random.Random(seed))
