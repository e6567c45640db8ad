"""The one policy for what people write (basra.server.words): the bypasses of the word
list that once worked, as literal strings (Latin, Cyrillic, Greek, Arabic), samples of
Unicode's confusables table itself, the stored text, and each kind's bounds and codes."""

from __future__ import annotations

import copy
import random
import unicodedata
from typing import Any

import pytest
from tests.web.test_offline import play_out, upload_of

from basra.server import words
from basra.server.errors import ProtocolError
from basra.server.features.accounts import check_username
from basra.server.features.offline_check import ForgedRecordError, check_offline_game
from basra.server.features.tournaments.config import TournamentConfig
from basra.server.features.tournaments.entries import check_event_form
from basra.server.table.forms import check_name

CGJ = "\u034f"
HANGUL_FILLER = "\u3164"


def refusal(field: str, value: Any, kind: words.Kind) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        words.check_text(field, value, kind)
    error = caught.value
    assert error.extra == {"field": field}
    assert error.message.startswith(f"{field}: ")
    return error


# ---------------------------------------------------------------------- bypasses


@pytest.mark.parametrize(
    "name",
    [
        "H\u0456tler",  # Cyrillic і
        "fu\u0441k",  # Cyrillic с
        "fu" + CGJ + "ck",  # a combining grapheme joiner inside
        "Hit" + CGJ + "ler",  # ... of a word listed whole (it split the word in two)
        "di" + CGJ + "ck",
        "Big F" + CGJ + "u" + CGJ + "c" + CGJ + "k",
        "sh\u200bit",  # a zero-width space
        "sh\u200dit",  # a zero-width joiner (kept in the stored text, not compared)
        "s\u00adh\u00adi\u00adt",  # soft hyphens
        "H\u0406TLER",  # Cyrillic І among Latin capitals
        "\u0397\u0399\u03a4L\u0395R",  # Greek capitals
        "\uff28\uff49\uff54\uff4c\uff45\uff52",  # full-width
        "\U0001d41f\U0001d42e\U0001d41c\U0001d424",  # mathematical bold "fuck"
        "Ḟṻçḱ",  # accents
        "ΝΑΖΙ",  # Greek capitals: "nazi"
        "d\u0456\u0441k",  # Cyrillic і and с
        "ni\u0261\u0261er",  # Latin script g (ɡ) twice
        "حمــار",  # tatweel
        "حَمَار",  # diacritics
        "حمـَـار",  # both
        "کلب",  # Persian keheh for kaf
        "يا ابن الکلب",  # in a phrase
        "شَرموطة",
        "ﺷﺮﻣﻮﻃﺔ",  # Arabic presentation forms
        "ك" + CGJ + "لب",
    ],
)
def test_a_disguised_word_is_still_refused(name: str) -> None:
    assert words.shipped().refuses(name), (name, words.folded(name))
    error = refusal("name", name, words.NAME)
    assert error.code == "name_not_allowed"


@pytest.mark.parametrize(
    "name",
    [
        "Amal",
        "Dickens",
        "Scunthorpe",
        "Click",  # TR39 reads d as "cl": ASCII is read as itself here
        "Pom",  # ... and m as "rn"
        "Khalil",
        "Cassandra",
        "Peacock",
        "Zoë",
        "أمل",
        "محمد",
        "سمير",
        "سرموط",  # seen, not sheen: a different letter, not a disguise
        "Ἀλέξανδρος",
        "Владимир",
        "می\u200cخواهم",  # Persian with a zero-width non-joiner
    ],
)
def test_plain_names_pass(name: str) -> None:
    assert not words.shipped().refuses(name), (name, words.folded(name))
    assert words.check_text("name", name, words.NAME)


def test_every_cyrillic_and_greek_look_alike_of_a_listed_letter_is_refused() -> None:
    """Sampled from Unicode's confusables data, not from a list kept here: each Cyrillic
    or Greek character whose prototype is a letter of a listed English word, put in
    that letter's place, is refused."""
    table = words.prototypes()
    assert len(table) > 6000
    listed = [w.lstrip("*") for w in words.shipped_words() if w.lstrip("*").isascii()]
    tried = 0
    for word in listed:
        for place, letter in enumerate(word):
            for source, prototype in table.items():
                if prototype not in (letter, letter.upper()):
                    continue
                if not unicodedata.name(source, "").startswith(("CYRILLIC", "GREEK")):
                    continue
                disguised = word[:place] + source + word[place + 1 :]
                assert words.shipped().refuses(disguised), (word, source, unicodedata.name(source))
                tried += 1
    assert tried > 300


def test_the_prototypes_are_unicodes() -> None:
    """The source to prototype mapping read back from the package's data: known entries
    of confusables.txt, and no prototype is a source itself (the skeleton is stable)."""
    table = words.prototypes()
    known = {
        "\u0456": "i",  # CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
        "\u0441": "c",  # CYRILLIC SMALL LETTER ES
        "\u03bf": "o",  # GREEK SMALL LETTER OMICRON
        "\u0501": "d",  # CYRILLIC SMALL LETTER KOMI DE
        "\u0131": "i",  # LATIN SMALL LETTER DOTLESS I
        "\u0251": "a",  # LATIN SMALL LETTER ALPHA
        "\u06a9": "\u0643",  # ARABIC LETTER KEHEH -> KAF
        "\u0634": "\u0633\u06db",  # SHEEN -> SEEN with three dots above
        "\u0406": "l",  # CYRILLIC CAPITAL I: drawn as a capital I, whose prototype is l
        "m": "rn",
        "0": "O",
    }
    assert {source: table[source] for source in known} == known
    assert not [s for s, p in table.items() if any(ch in table for ch in p)]
    assert words.skeleton(words.skeleton("Ηеllо wоrld")) == words.skeleton("Ηеllо wоrld")


# ---------------------------------------------------------------------- the stored text


def test_the_stored_text_loses_invisible_and_bidi_characters() -> None:
    hidden = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c"
    hidden += "\u200b\u2060\ufeff\u00ad" + CGJ + "\U000e0041"
    assert words.check_text("name", f"A{hidden}mal", words.NAME) == "Amal"
    assert words.check_text("name", "Amal\u3164\u3164Said\u2800", words.NAME) == "Amal Said"
    assert words.check_text("name", "\uff21mal", words.NAME) == "Amal"  # NFKC
    # An override drew "reltih" as "hitler": without it, it shows as what it is.
    assert words.check_text("name", "\u202ereltih\u202c", words.NAME) == "reltih"
    assert words.check_text("name", "e\u0301", words.NAME) == "\u00e9"
    # The joiners and variation selectors stay: spelling and emoji need them.
    assert words.check_text("name", "می\u200cخواهم", words.NAME) == "می\u200cخواهم"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert words.check_text("name", f"Amal {family}", words.NAME) == f"Amal {family}"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (HANGUL_FILLER * 3, "blank"),
        ("\u115f\u1160\uffa0\u2800\u180e \u3000\u2003", "blank"),
        ("\u200b\u202e" + CGJ, "blank"),
        ("\u200d\u200c\ufe0f", "a letter, a digit or a sign"),
        ("\u0301\u0301", "a letter, a digit or a sign"),
        ("Amal\x07", "control"),
        ("Amal\ue000", "control or unknown"),
        ("Z" + "\u0301" * 6 + "algo", "marks on a letter"),
        ("Z" + "\u0489" * 5 + "algo", "marks on a letter"),
        ("x" * 25, "1 to 24"),
        (7, "must be text"),
    ],
)
def test_a_name_that_shows_nothing_or_hides_something_is_refused(text: Any, says: str) -> None:
    error = refusal("name", text, words.NAME)
    assert error.code == "bad_name" and says in error.message


def test_each_kind_has_its_bounds_and_codes() -> None:
    assert words.check_text("note", "", words.REPORT_NOTE) == ""
    assert words.check_text("note", "he wrote f\u0441k you\u202e", words.REPORT_NOTE) == (
        "he wrote f\u0441k you"  # the operator reads a report's words as written
    )
    assert refusal("note", "x" * 501, words.REPORT_NOTE).code == "bad_report"
    assert refusal("username", "ab\u200b", words.USERNAME).code == "bad_username"
    assert refusal("username", "has space", words.USERNAME).code == "bad_username"
    assert refusal("username", "fu\u0441kit", words.USERNAME).code == "name_not_allowed"
    assert check_username("Am\u200bal_7") == "Amal_7"
    assert refusal("name", "H\u0456tler", words.BOT_NAME).code == "name_not_allowed"
    assert refusal("name", "a b", words.BOT_NAME).code == "bad_bot_name"
    assert refusal("title", "x" * 81, words.EVENT_TITLE).code == "bad_settings"
    assert check_name("  Amal \u2003 Said ") == "Amal Said"
    future = words.Kind("a chat line", 1, 200)  # a new field takes the policy as it is
    assert refusal("text", "fu\u0441k", future).code == "refused_word"


def test_an_event_title_is_checked() -> None:
    """Titles were never checked against the word list."""
    config = TournamentConfig()
    form = {"format": "arena", "variant": "egyptian", "minutes": 30}
    for title, code in (("H\u0456tler Cup", "name_not_allowed"), (HANGUL_FILLER, "bad_settings")):
        with pytest.raises(ProtocolError) as caught:
            check_event_form({**form, "name": title}, 1000.0, config)
        assert (caught.value.code, caught.value.extra) == (code, {"field": "name"})
    checked = check_event_form({**form, "name": " Friday\u202e  Cup "}, 1000.0, config)
    assert checked.name == "Friday Cup"


def test_an_offline_games_seat_names_are_checked() -> None:
    """The seat names of an uploaded offline game were never checked for words."""
    last = play_out(
        {"id": "u", "seats": ["person", "easy"], "seed": 4}, random.Random(3), stop_after=9
    )
    good = upload_of(last)
    assert check_offline_game(good).names[0] == good["save"]["names"][0]
    for name, code in (
        ("H\u0456tler", "name_not_allowed"),
        (HANGUL_FILLER * 2, "bad_name"),
        ("Am\u200bal", "bad_name"),  # stored as "Amal": the record must say what is shown
    ):
        upload = copy.deepcopy(good)
        upload["save"]["names"][0] = name
        with pytest.raises(ForgedRecordError) as caught:
            check_offline_game(upload)
        assert caught.value.code == code and caught.value.message.startswith("seat 1")
