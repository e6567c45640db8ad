"""One policy for every string a person writes: cleaned, bounded, and checked for words.

Every text a person sends that others will read (a display name, a username, a bot
account's name, an event's title, the seat names of an uploaded offline game, a
report's words, a line of table talk; later club names) passes :func:`check_text` with the
field it came in and its :class:`Kind` (its length bounds, which characters it may
hold, whether the word list applies, its refusal codes). The answer is the text as it
is stored and shown, or a :class:`~basra.server.errors.ProtocolError` whose ``field``
names the field.

**Stored text** (what :func:`clean` keeps):

- NFKC (full-width and mathematical letters, ligatures and compatibility spaces become
  their plain forms);
- *invisible* characters removed (:func:`invisible`): every format control (Unicode
  category Cf: the bidi marks, embeddings, overrides and isolates U+200E/F, U+061C,
  U+202A-202E, U+2066-2069; the zero-width space U+200B, word joiner U+2060, invisible
  operators U+2061-2064, byte order mark U+FEFF, soft hyphen U+00AD, tags
  U+E0000-E007F, ...), and the combining grapheme joiner U+034F, the Mongolian free
  variation selectors and the Khmer inherent vowels U+17B4/5, except the joiners
  below;
- *blank-looking* characters (:data:`BLANKS`: whitespace, and the fillers U+3164
  HANGUL FILLER, U+115F, U+1160, U+FFA0, U+2800 BRAILLE BLANK, U+180E, ...) read as
  spaces, and spaces collapsed to one: a text made only of them is empty, and refused
  where the kind needs at least one character; a text must also hold at least one
  visible character (a letter, a digit, a mark of punctuation or a symbol);
- control, private-use, unpaired surrogate and unassigned characters refused (Cc, Co,
  Cs, Cn), and more than :data:`MAX_MARKS` combining marks on one letter.

The zero-width non-joiner and joiner U+200C/D and the variation selectors stay in the
stored text (Persian and Indic spelling and emoji sequences need them) but are removed
from the *compared* text.

**Compared text** (:func:`folded`): the stored text with those joiners removed, then the
obvious disguises undone, in two readings (a letter read as itself, then case-folded;
and case-folded first): NFKC and case folding; common look-alike digits and signs read
as letters (0 o, 1 i, 3 e, 4 a, 5 s, 7 t, @ a, $ s); the Arabic letter variants folded
(أ إ آ ٱ to ا, ة to ه, ى to ي, ؤ to و, ئ to ي), diacritics, accents and the tatweel
removed; every character outside ASCII replaced by its prototype from Unicode's
confusables data (the TR39 *skeleton*: Cyrillic "і" reads as "i", Greek "ο" as "o",
Cherokee and mathematical letters as theirs, Persian "ک" as "ك"), before NFKC and again
after; letters repeated three times or more cut to one. ASCII is read as itself (TR39
would read "d" as "cl" and "m" as "rn", so "Click" would be "dick" and "Pom" "porn").

**The word list** (:class:`WordList`): a listed word matches a whole word of the
compared text; a word listed with a leading ``*`` also matches inside a longer word and
across spaces and punctuation (``*fuck`` refuses "fuckface" and "f.u.c.k"; ``dick``
alone does not refuse "Dickens"). The shipped list (``wordlist.json``) is short and
meant to be extended: the operator adds files (``[moderation] word_lists``, one word a
line, ``#`` comments) or turns the shipped one off; :func:`configure` sets it once at
start (``basra serve``).

**The confusables data** comes from the PyPI package ``confusable-homoglyphs`` (MIT;
its ``confusables.json`` is generated from Unicode's ``confusables.txt``, under the
Unicode License v3: see ``NOTICE`` beside this module). The package keeps each
confusable pair in both directions; :func:`prototypes` recovers the source to prototype
mapping: in ``confusables.txt`` every source maps to one prototype, which is never a
source, so each connected group is a star around its prototype, and a group of two is
read in the file's order (the package writes a line's source before its target). The
characters are read from the file's comments, where right-to-left ones are wrapped in
U+200E/F marks, which are removed. Read this way it gives the same prototype as
Unicode 13.0's ``confusables.txt`` for 6,307 of its 6,311 sources (the other four are
line and paragraph separators, U+3164 and a circled CC, all blank here or harmless).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from basra.server.errors import ProtocolError

__all__ = [
    "BLANKS",
    "BOT_NAME",
    "CHALLENGE",
    "CLUB_DESCRIPTION",
    "CLUB_NAME",
    "EVENT_TITLE",
    "MAX_MARKS",
    "NAME",
    "REPORT_NOTE",
    "TALK",
    "USERNAME",
    "Kind",
    "WordList",
    "check_text",
    "clean",
    "configure",
    "folded",
    "invisible",
    "normalise",
    "prototypes",
    "refused",
    "shipped",
    "skeleton",
]

SHIPPED = Path(__file__).with_name("wordlist.json")
CONFUSABLES = ("confusable_homoglyphs", "confusables.json")
"""The package and file of Unicode's confusables data."""

BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u180e\u205f\u3000"
    "\u1cbb\u1cbc\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178"
    "\U0001d179\U0001d17a"
)
"""Characters that look blank, read as a space (besides whitespace, ``str.isspace``)."""
JOINERS = frozenset("\u200c\u200d") | frozenset(chr(c) for c in range(0xFE00, 0xFE10))
"""Kept in the stored text, removed from the compared text: the zero-width non-joiner and
joiner, and the variation selectors (``U+E0100``-``U+E01EF`` too)."""
HIDDEN_MARKS = frozenset("\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")
"""Invisible characters that are not format controls: the combining grapheme joiner, the
Khmer inherent vowels and the Mongolian free variation selectors."""
REFUSED_CATEGORIES = frozenset({"Cc", "Co", "Cs", "Cn"})
MAX_MARKS = 4
"""Most combining marks on one letter (more is "zalgo" text, drawn over its neighbours)."""
LOOKALIKES = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
ARABIC_FOLD = str.maketrans(
    {"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ة": "ه", "ى": "ي", "ؤ": "و", "ئ": "ي"}
)
TATWEEL = "\u0640"
REPEATS = re.compile(r"(.)\1{2,}")


def _joiner(ch: str) -> bool:
    return ch in JOINERS or 0xE0100 <= ord(ch) <= 0xE01EF


def invisible(ch: str) -> bool:
    """Whether a character is removed from the stored text (see the module's docstring).

    >>> [invisible(ch) for ch in "a\\u200b\\u202e\\u034f\\u00ad\\u200d"]
    [False, True, True, True, True, False]
    """
    if ch in BLANKS or _joiner(ch):
        return False
    return ch in HIDDEN_MARKS or unicodedata.category(ch) == "Cf"


def _blank(ch: str) -> bool:
    return ch in BLANKS or ch.isspace()


def _visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and not _blank(ch)


def _strip(text: str) -> str:
    """NFKC, invisible characters removed, blank ones read as spaces, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if _blank(ch) else "" if invisible(ch) else ch for ch in text)
    return " ".join(unicodedata.normalize("NFKC", text).split())


def clean(text: str) -> str:
    """The text as stored: NFKC, invisible characters removed, blank ones collapsed.

    >>> clean("  A\\u200bmal\\u3164\\u3164Said\\u202e ")
    'Amal Said'
    """
    return _strip(text)


# ---------------------------------------------------------------- the skeleton


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from Unicode's confusables data (read as the
    module's docstring says).

    >>> prototypes()["\\u0456"], prototypes()["\\u03bf"]
    ('i', 'o')
    """
    source = resources.files(CONFUSABLES[0]).joinpath(CONFUSABLES[1])
    data: dict[str, list[dict[str, str]]] = json.loads(source.read_text(encoding="utf-8"))

    def bare(text: str) -> str:
        return text.replace("\u200e", "").replace("\u200f", "")

    order = {key: place for place, key in enumerate(data)}
    neighbours = {key: [entry["c"] for entry in entries] for key, entries in data.items()}
    out: dict[str, str] = {}
    seen: set[str] = set()
    for start in data:
        if start in seen:
            continue
        group: set[str] = set()
        todo = [start]
        while todo:
            key = todo.pop()
            if key not in group:
                group.add(key)
                todo.extend(neighbours.get(key, ()))
        seen |= group
        if len(group) == 2:
            centre = max(group, key=order.__getitem__)
        else:
            centres = [key for key in group if len(neighbours[key]) == len(group) - 1]
            if len(centres) != 1:
                raise ValueError(f"confusables data: a group that is not a star: {sorted(group)}")
            centre = centres[0]
        for key in group - {centre}:
            if len(bare(key)) == 1:
                out[bare(key)] = bare(centre)
    return out


def skeleton(text: str) -> str:
    """The TR39 skeleton, outside ASCII: NFD, each character not ASCII replaced by its
    prototype, NFD again.

    >>> skeleton("H\\u0456tler"), skeleton("\\u0440\\u043e\\u0440"), skeleton("dm")
    ('Hitler', 'pop', 'dm')
    """
    table = prototypes()
    mapped = "".join(
        ch if ch < "\x80" else table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)
    )
    return unicodedata.normalize("NFD", mapped)


def _fold(text: str, case_first: bool, l_as_i: bool = False) -> str:
    text = "".join(" " if _blank(ch) else "" if invisible(ch) or _joiner(ch) else ch for ch in text)
    if case_first:
        text = text.casefold()
    # Diacritics, accents and the tatweel go first (canonical marks only): the marks a
    # prototype brings stay (ش reads as س with three dots above, not as س).
    text = "".join(
        ch
        for ch in unicodedata.normalize("NFD", text)
        if not unicodedata.combining(ch) and ch != TATWEEL
    )
    # The skeleton before NFKC too: NFKC turns some look-alikes into other letters (ϲ to ς).
    text = unicodedata.normalize("NFKC", skeleton(text)).casefold()
    text = text.translate(LOOKALIKES).translate(ARABIC_FOLD)
    text = skeleton(text).casefold().translate(LOOKALIKES)
    if l_as_i:
        text = text.replace("l", "i")
    return REPEATS.sub(r"\1", " ".join(text.split()))


def folded(text: str) -> tuple[str, ...]:
    """The text as it is compared with the word list, in its readings: each character as
    its prototype, then case-folded; case-folded first; and the first with "l" read as
    "i" (a capital I and the letters drawn like it have "l" as their prototype).

    >>> folded("Ŝ Н1Т")
    ('s hit', 's ʜiᴛ')
    >>> folded("ΗΙΤLΕR")[-1]
    'hitier'
    >>> folded("حَمـــار")
    ('حمlر', 'حمiر')
    """
    readings = (_fold(text, False), _fold(text, True), _fold(text, False, True))
    return tuple(dict.fromkeys(readings))


def normalise(text: str) -> str:
    """The text's first compared reading (:func:`folded`)."""
    return folded(text)[0]


def _tokens(text: str) -> list[str]:
    """The words of a compared text: runs of letters, digits and marks."""
    return "".join(ch if unicodedata.category(ch)[0] in "LNM" else " " for ch in text).split()


# ---------------------------------------------------------------- the word list


class WordList:
    """A set of refused words, compared as :func:`folded` reads them."""

    def __init__(self, words: Iterable[str]) -> None:
        entries = [w.strip() for w in words if w.strip()]
        self.words = frozenset(f for w in entries for f in folded(w.lstrip("*"))) - {""}
        inner = {f.replace(" ", "") for w in entries if w.startswith("*") for f in folded(w[1:])}
        self.inner = tuple(sorted(inner - {""}))

    def refuses(self, name: str) -> bool:
        """Whether ``name`` holds a refused word.

        >>> words = WordList(["idiot", "*fool"])
        >>> words.refuses("The 1d10t"), words.refuses("Idris"), words.refuses("Big F.o.o.l")
        (True, False, True)
        """
        return any(self._holds(text) for text in folded(name))

    def _holds(self, text: str) -> bool:
        tokens = _tokens(text)
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


def refused(text: str) -> bool:
    """Whether a text holds a word this server refuses."""
    return (_active[0] if _active else shipped()).refuses(text)


# ---------------------------------------------------------------- kinds of text


@dataclass(frozen=True)
class Kind:
    """What one kind of text may be: its bounds in characters (of the stored text), its
    refusal codes, whether the word list applies, and any rule of its own."""

    noun: str
    """What the text is called in a refusal ("a name")."""
    low: int
    high: int
    bad: str = "bad_request"
    """The code of a text that breaks the kind's form."""
    refused: str = "refused_word"
    """The code of a text that holds a listed word."""
    words: bool = True
    """Whether the word list applies."""
    allowed: Callable[[str], bool] | None = None
    """Each character's own test, if any (with ``allowed_says`` saying it)."""
    allowed_says: str = ""


NAME = Kind("a name", 1, 24, bad="bad_name", refused="name_not_allowed")
"""A display name, a seat's name, a team's name (:func:`basra.server.table.forms.check_name`)."""
USERNAME = Kind(
    "a username",
    3,
    20,
    bad="bad_username",
    refused="name_not_allowed",
    allowed=lambda ch: ch.isalnum() or ch in "_-",
    allowed_says="only letters, digits, '_' and '-'",
)
"""An account's username."""
BOT_NAME = replace(USERNAME, noun="a bot's name", bad="bad_bot_name")
"""A bot account's name (a username's rules)."""
EVENT_TITLE = Kind("an event's name", 1, 80, bad="bad_settings", refused="name_not_allowed")
"""A tournament's title."""
CHALLENGE = Kind("a challenge's words", 0, 140, bad="bad_challenge")
"""The few words a person sends with a challenge (:mod:`basra.server.features.challenges`)."""
REPORT_NOTE = Kind("a report's words", 0, 500, bad="bad_report", words=False)
"""A report's words: read by the operator alone, and they may quote what they report, so
the word list does not apply (the rest of the policy does)."""
CLUB_NAME = Kind("a club's name", 2, 40, bad="bad_club", refused="name_not_allowed")
"""A club's name (:mod:`basra.server.features.clubs`)."""
CLUB_DESCRIPTION = Kind("a club's description", 0, 500, bad="bad_club")
"""A club's description: shown to everyone, so the word list applies."""
TALK = Kind("a line of talk", 1, 200, bad="bad_talk", refused="talk_not_allowed")
"""A line said at a table (:mod:`basra.server.features.talk`): read by the others there."""


def check_text(field: str, value: Any, kind: Kind) -> str:
    """The text as stored, or a refusal naming ``field`` (see the module's docstring).

    >>> check_text("name", "  Amal\\u200b  Said ", NAME)
    'Amal Said'
    >>> check_text("name", "\\u3164\\u3164", NAME)
    Traceback (most recent call last):
    ...
    basra.server.errors.ProtocolError: bad_name: name: a name must not be blank
    """

    def bad(message: str, code: str = kind.bad) -> ProtocolError:
        return ProtocolError(code, f"{field}: {message}", {"field": field})

    if not isinstance(value, str):
        raise bad(f"{kind.noun} must be text")
    if len(value) > 8 * kind.high + 64:
        raise bad(f"{kind.noun} has at most {kind.high} characters")
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in value if ch not in "\t\n\r"):
        raise bad(f"{kind.noun} must not hold control or unknown characters")
    text = _strip(value)
    if not text:
        if kind.low == 0:
            return text
        raise bad(f"{kind.noun} must not be blank")
    if not kind.low <= len(text) <= kind.high:
        raise bad(f"{kind.noun} has {kind.low} to {kind.high} characters")
    if not any(_visible(ch) for ch in text):
        raise bad(f"{kind.noun} must hold a letter, a digit or a sign")
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.category(ch)[0] == "M" else 0
        if marks > MAX_MARKS:
            raise bad(f"{kind.noun} has at most {MAX_MARKS} marks on a letter")
    if kind.allowed is not None and not all(kind.allowed(ch) for ch in text):
        raise bad(f"{kind.noun} has {kind.allowed_says}")
    if kind.words and refused(text):
        raise bad(f"{kind.noun} holds a word not allowed here: choose another", kind.refused)
    return text
