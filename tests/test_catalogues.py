"""The catalogues of words (basra/server/static/locales/): every language has every key of
the English one and nothing else, every message parses, names the same values as the
English one, and gives every plural form its language's CLDR rules use."""

from __future__ import annotations

import json

import pytest

from basra.locales import (
    CATALOGUES,
    Argument,
    Part,
    catalogue,
    check_language,
    default_language,
    languages,
    message,
    parse,
    plural_form,
)

LANGS = tuple(languages())


def arguments(parts: tuple[Part, ...]) -> set[str]:
    """Every value a message names (a translation may count what English only shows)."""
    out: set[str] = set()
    for part in parts:
        if isinstance(part, Argument):
            out.add(part.name)
            for _, branch in part.options:
                out |= arguments(branch)
    return out


def plurals(parts: tuple[Part, ...]) -> list[Argument]:
    out = []
    for part in parts:
        if isinstance(part, Argument) and part.kind:
            out.append(part)
            for _, branch in part.options:
                out.extend(plurals(branch))
    return out


def forms(lang: str) -> set[str]:
    """The plural forms whole numbers up to 1000 take in ``lang``."""
    return {plural_form(lang, n) for n in range(1001)}


def test_the_four_languages_are_there_english_first() -> None:
    assert LANGS[0] == "en" and {"en", "ar", "el", "fr"} <= set(LANGS)
    assert languages()["ar"] == "العربية" and languages()["el"] == "Ελληνικά"
    assert forms("ar") == {"zero", "one", "two", "few", "many", "other"}
    assert forms("el") == forms("en") == {"one", "other"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_has_every_english_key_and_well_formed_messages(lang: str) -> None:
    pairs = json.loads(
        (CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"), object_pairs_hook=list
    )
    keys = [key for key, _ in pairs]
    assert len(keys) == len(set(keys)), "a key given twice"
    english = catalogue("en")
    ours = catalogue(lang)
    assert not set(english) - set(ours), sorted(set(english) - set(ours))
    assert not set(ours) - set(english), sorted(set(ours) - set(english))
    needed = forms(lang)
    for key, text in english.items():
        theirs = parse(ours[key])
        assert arguments(theirs) == arguments(parse(text)), (lang, key)
        for part in plurals(theirs):
            branches = {selector for selector, _ in part.options}
            if part.kind == "plural":
                assert needed <= branches | {"other"}, (lang, key, needed - branches)
            assert branches - {"other"} <= needed | {"zero", "one", "two", "few", "many"} | {
                b for b in branches if b.startswith("=")
            }, (lang, key)
        assert ours[key].strip() or not text.strip(), (lang, key, "empty")


@pytest.mark.parametrize("lang", LANGS)
def test_the_plural_rules_and_numbers_are_cldrs_as_babel_gives_them(lang: str) -> None:
    from babel import Locale
    from babel.numbers import get_decimal_symbol

    rule = Locale.parse(lang).plural_form
    rules = [r.partition(":") for r in catalogue(lang)["plural_rules"].split(";") if r.strip()]
    ours = {form.strip(): condition.strip() for form, _, condition in rules}
    assert ours == rule.rules
    for count in [*range(1200), 0.5, 1.5, 2.5, 12.5, 101.5]:
        assert plural_form(lang, count) == rule(count), (lang, count)
    if not catalogue(lang)["number_locale"].startswith("ar"):  # Babel's ar-EG writes 0-9
        assert catalogue(lang)["decimal_mark"] == get_decimal_symbol(lang)


def test_messages_are_parsed_as_icu_reads_them() -> None:
    assert message("en", "cards_n", n=1) == "1 card"
    assert message("en", "read_pile", name="Amal", n=3, b=1) == "Amal: 3 cards, 1 basra"
    assert message("ar", "cards_n", n=2) == "ورقتان"
    assert message("ar", "cards_n", n=5) == "٥ ورقات"
    assert message("ar", "cards_n", n=11) == "١١ ورقة"
    assert message("el", "cards_n", n=1) == "1 χαρτί"
    assert message("fr", "cards_n", n=0) == "0 carte"  # French: 0 takes the singular
    assert message("fr", "cards_n", n=2) == "2 cartes"
    assert message("fr", "read_stock", n=1.5) == "1,5 carte reste au talon."
    # English counts that once said "1 basras", "1 entrants", "1 deals a round":
    assert message("en", "read_pile", name="you", n=1, b=1) == "you: 1 card, 1 basra"
    assert message("en", "tour_entrants_n", n=1) == "1 entrant"
    assert message("en", "tour_boards_n", n=1) == "1 deal a round"
    quoted = parse("it''s '{'literal'}' {n, plural, =0 {none} other {# left}}")
    assert quoted[0] == "it's {literal} "
    broken_ones = (
        "{n, plural, one {x}}",
        "{n",
        "a}b",
        "{n, plural, one x}",
        "{n, list, other {x}}",
    )
    for broken in broken_ones:
        with pytest.raises(ValueError):
            parse(broken)


def test_the_terminal_follows_the_locale_and_refuses_an_unknown_language() -> None:
    assert default_language({"LANG": "el_GR.UTF-8"}) == "el"
    assert default_language({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US"}) == "fr"
    assert default_language({"LANG": "C.UTF-8"}) == "en"
    assert default_language({"LANGUAGE": "de:ar"}) == "ar"
    with pytest.raises(ValueError, match="language must be one of ar, el, en, fr"):
        check_language("de")
    with pytest.raises(ValueError):
        check_language("../en")


def test_the_terminal_speaks_greek_and_french() -> None:
    """`--lang el` and `--lang fr` are offered; what a move does is said in each."""
    from basra.cards import parse_card
    from basra.cli.learn import run_learn  # noqa: F401  (the command exists)
    from basra.learn.words import LANGUAGES, count_words, in_lang, rank_words, words

    assert LANGUAGES[:1] == ("en",) and {"el", "fr"} <= set(LANGUAGES)
    assert count_words(1, "point", "el") == "1 πόντος" and count_words(3, "card", "fr") == (
        "3 cartes"
    )
    assert rank_words(parse_card("JS") >> 2, "el") == "ένας βαλές"
    text = words("facts_takes", card="7♦", cards="3♣ 4♦")
    assert text["el"] == "7♦ μαζεύει 3♣ 4♦" and text["fr"] == "7♦ prend 3♣ 4♦"
    assert in_lang({"en": "only English"}, "fr") == "only English"


def test_a_puzzles_proof_is_said_without_statistics_jargon() -> None:
    """Issue 35: "four standard errors" meant nothing to a player; the sentence says what
    it means (a clear margin, beyond the search's own uncertainty)."""
    text = message("en", "puzzle_proof_search")
    assert "standard error" not in text and "clear margin" in text
