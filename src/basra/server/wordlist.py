"""Words refused in names, in English and Arabic (moderation).

A name (a display name, a username, a bot's name) is refused at creation when it holds
a listed word. Both are *normalised* first, so the obvious disguises match: NFKC and
case folding, Arabic diacritics and the tatweel removed, the Arabic letter variants
folded (أ إ آ to ا, ة to ه, ى to ي), common look-alike digits read as letters (0 o,
1 i, 3 e, 4 a, 5 s, 7 t, @ a, $ s), and letters repeated three times or more cut to
one. A listed word matches a whole word of the name; a word listed with a leading ``*``
also matches inside a longer word and across spaces and punctuation (``*fuck``
refuses "fuckface" and "f.u.c.k"; ``dick`` alone does not refuse "Dickens"). The
shipped list (``wordlist.json``) is short and meant to be extended: the operator adds
files (``[moderation] word_lists``, one word a line, ``#`` comments) or turns the
shipped one off.

:func:`configure` sets the list once at start (``basra serve``); :func:`refused` is
asked by :func:`basra.server.table.forms.check_name` and the username and bot-name
checks.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

__all__ = ["WordList", "configure", "normalise", "refused", "shipped"]

SHIPPED = Path(__file__).with_name("wordlist.json")
LOOKALIKES = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
ARABIC_FOLD = str.maketrans(
    {"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ة": "ه", "ى": "ي", "ؤ": "و", "ئ": "ي"}
)
REPEATS = re.compile(r"(.)\1{2,}")


def normalise(text: str) -> str:
    """A name or word as it is compared.

    >>> normalise("ŞH1T")
    'shit'
    >>> normalise("حَمـــار")
    'حمار'
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.translate(LOOKALIKES).translate(ARABIC_FOLD)
    text = "".join(
        ch
        for ch in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(ch) and ch != "\u0640"  # marks, and the tatweel
    )
    return REPEATS.sub(r"\1", text)


class WordList:
    """A set of refused words, normalised."""

    def __init__(self, words: Iterable[str]) -> None:
        entries = [w.strip() for w in words if w.strip()]
        self.words = frozenset(normalise(w.lstrip("*")) for w in entries) - {""}
        inner = {normalise(w[1:]).replace(" ", "") for w in entries if w.startswith("*")}
        self.inner = tuple(sorted(inner - {""}))

    def refuses(self, name: str) -> bool:
        """Whether ``name`` holds a refused word.

        >>> words = WordList(["idiot", "*fool"])
        >>> words.refuses("The 1d10t"), words.refuses("Idris"), words.refuses("Big F.o.o.l")
        (True, False, True)
        """
        text = normalise(name)
        tokens = re.findall(r"\w+", text)
        if any(token in self.words for token in tokens):
            return True
        spaced = f" {' '.join(tokens)} "
        if any(f" {word} " in spaced for word in self.words if " " in word):
            return True
        squashed = "".join(tokens)
        return any(word in squashed for word in self.inner)

    @classmethod
    def from_files(cls, paths: Iterable[str], shipped: bool = True) -> WordList:
        """The shipped list (unless ``shipped`` is False) and each file's words."""
        words: list[str] = list(shipped_words()) if shipped else []
        for path in paths:
            for line in Path(path).read_text(encoding="utf-8").splitlines():
                line = line.split("#", 1)[0].strip()
                if line:
                    words.append(line)
        return cls(words)


@cache
def shipped_words() -> tuple[str, ...]:
    """The shipped list's words, English and Arabic."""
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return tuple(data["en"]) + tuple(data["ar"])


@cache
def shipped() -> WordList:
    """The shipped list alone."""
    return WordList(shipped_words())


_active: list[WordList] = []


def configure(words: WordList) -> None:
    """Use ``words`` from now on (``basra serve`` sets it once, from its configuration)."""
    _active[:] = [words]


def refused(name: str) -> bool:
    """Whether a name holds a word this server refuses."""
    return (_active[0] if _active else shipped()).refuses(name)
