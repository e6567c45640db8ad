"""The tournament pages' words (static/locales/): every word tournaments.js asks for, in
every language."""

from __future__ import annotations

import re

from tests.web.test_words_table import LANGS, STATIC, keys


def test_every_word_the_tournament_pages_ask_for_exists_in_every_language() -> None:
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
    used.add("nav_tournaments")  # the nav link's word
    for lang in LANGS:
        assert not used - keys(lang), (lang, sorted(used - keys(lang)))


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
