"""The tournament pages' words (static/words-tournaments.js): every word in English and
Arabic, none overriding another module's, and every word tournaments.js asks for there."""

from __future__ import annotations

import re

from tests.web.test_words_table import DICTIONARIES, STATIC, dictionary

OURS = "words-tournaments.js"


def test_the_tournament_words_are_in_both_languages_and_override_none() -> None:
    english, arabic = dictionary(OURS)
    assert english and english == arabic
    for other in DICTIONARIES:
        overlap = english & dictionary(other)[0]
        assert not overlap, (other, sorted(overlap))


def test_every_word_the_tournament_pages_ask_for_exists_in_both_languages() -> None:
    english: set[str] = set()
    arabic: set[str] = set()
    for name in (*DICTIONARIES, OURS):
        en, ar = dictionary(name)
        english |= en
        arabic |= ar
    text = (STATIC / "tournaments.js").read_text(encoding="utf-8")
    used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
    used |= set(re.findall(r"\btn\(\"([a-z_0-9]+)\"[,)]", text))
    # Words named with a part filled in: each format, status, place and tie-break.
    for prefix, parts in (
        ("tour_format_", ("arena", "swiss", "duplicate")),
        ("tour_status_", ("created", "running", "finished")),
        ("tour_place_", ("1", "2", "3")),
        ("tour_tb_", ("games", "sonneborn_berger", "buchholz", "margin")),
        ("level_", ("easy", "medium", "hard", "expert")),
    ):
        assert f"`{prefix}${{" in text, prefix
        used |= {prefix + part for part in parts}
    assert len(used) > 40
    assert not used - english, sorted(used - english)
    assert not used - arabic, sorted(used - arabic)
    # Nav link's word.
    assert "nav_tournaments" in english and "nav_tournaments" in arabic


def test_the_tournament_pages_are_served_and_linked() -> None:
    from fastapi.testclient import TestClient
    from tests.web.helpers import FAST

    from basra.server.app import AppConfig, create_app

    with TestClient(create_app(AppConfig(service=FAST))) as client:
        for path in ("/tournaments", "/tournaments/AbC123xy"):
            answer = client.get(path)
            assert answer.status_code == 200, path
            assert 'id="app"' in answer.text and 'href="/tournaments"' in answer.text
        assert client.get("/tournaments/a/b").status_code == 404
    app_js = (STATIC / "app.js").read_text(encoding="utf-8")
    assert "tournamentsPage(root, ui, m[1])" in app_js and "tournamentsPanel(ui)" in app_js
