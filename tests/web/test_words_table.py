"""The words of the page's modules (static/locales/, one catalogue per language): every
word a module asks for is in every catalogue, and no catalogue holds a key twice (a key
given twice would silently change another page's word)."""

from __future__ import annotations

import json
import re

from tests.web.helpers import ROOT

STATIC = ROOT / "src" / "basra" / "server" / "static"
LOCALES = STATIC / "locales"
LANGS = tuple(sorted(p.stem for p in LOCALES.glob("*.json")))


def _unique(pairs: list[tuple[str, str]]) -> dict[str, str]:
    keys = [key for key, _ in pairs]
    twice = {key for key in keys if keys.count(key) > 1}
    assert not twice, sorted(twice)
    return dict(pairs)


def catalogue(lang: str) -> dict[str, str]:
    """A catalogue's messages, refusing a key given twice."""
    path = LOCALES / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_unique)
    return data


def keys(lang: str) -> set[str]:
    return set(catalogue(lang))


def used_words(module: str) -> set[str]:
    """The keys a module names literally: t("key"), tn("key"), setSkip("key")."""
    text = (STATIC / module).read_text(encoding="utf-8")
    used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
    used |= set(re.findall(r"\btn\(\"([a-z_0-9]+)\"[,)]", text))
    used |= set(re.findall(r"setSkip\(\"([a-z_0-9]+)\"", text))
    return used


def test_the_catalogues_hold_each_key_once_and_english_and_arabic_the_same_keys() -> None:
    assert {"en", "ar", "el", "fr"} <= set(LANGS)
    english = keys("en")
    assert len(english) > 900
    for lang in LANGS:
        assert keys(lang) == english, lang


def test_every_word_asked_for_exists_in_every_language() -> None:
    modules = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js"))
    asked = 0
    for module in modules:
        used = used_words(module)
        asked += len(used)
        for lang in LANGS:
            assert not used - keys(lang), (module, lang, sorted(used - keys(lang)))
    for module in ("table.js", "app.js", "fields.js", "blind.js", "settings.js", "profile.js"):
        assert used_words(module), module
    assert asked > 500
