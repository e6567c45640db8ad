"""The words of the table's keyboard and screen-reader parts (static/words-table.js):
every word in English and Arabic, none overriding another module's, and every word
the page's modules ask for there in both languages."""

from __future__ import annotations

import re

from tests.web.helpers import ROOT

STATIC = ROOT / "src" / "basra" / "server" / "static"
DICTIONARIES = (
    "i18n.js",
    "words-players.js",
    "words-play.js",
    "coach.js",
    "words-learn.js",
    "offline/words.js",
    "words-moderation.js",
    "words-table.js",
)
KEY = r"\b([a-z_0-9]+): \""


def dictionary(name: str) -> tuple[set[str], set[str]]:
    """The English and the Arabic keys of a words module (``const EN = {...}``, ``const AR``)."""
    english, arabic = (STATIC / name).read_text(encoding="utf-8").split("const AR = {")
    return set(re.findall(KEY, english)), set(re.findall(KEY, arabic))


def test_the_tables_words_are_in_both_languages_and_override_none() -> None:
    english, arabic = dictionary("words-table.js")
    assert english and english == arabic
    for other in DICTIONARIES[:-1]:
        assert not english & dictionary(other)[0], other


def test_every_word_asked_for_exists_in_both_languages() -> None:
    english: set[str] = set()
    arabic: set[str] = set()
    for name in DICTIONARIES:
        en, ar = dictionary(name)
        english |= en
        arabic |= ar
    for module in ("table.js", "app.js", "fields.js", "blind.js", "settings.js", "profile.js"):
        text = (STATIC / module).read_text(encoding="utf-8")
        used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
        used |= set(re.findall(r"setSkip\(\"([a-z_0-9]+)\"", text))
        assert used, module
        assert not used - english, (module, sorted(used - english))
        assert not used - arabic, (module, sorted(used - arabic))
