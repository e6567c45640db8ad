"""The rules in words: written from the settings, the same sentences as the web rules page."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from basra.describe import (
    VARIANT_TITLES,
    point_cards_sentence,
    rules_heading,
    rules_sections,
    rules_text,
    setting_key_label,
)
from basra.rules import PRESETS, Rules, preset

I18N = Path(__file__).parents[1] / "src" / "basra" / "server" / "static" / "i18n.js"


def sentences(overrides: dict[str, object]) -> list[str]:
    """Every sentence of Egyptian Basra with these settings changed."""
    rules = preset("egyptian").with_overrides(overrides)
    return [item for section in rules_sections(rules) for item in section.items]


def test_every_preset_has_a_name_and_four_sections() -> None:
    assert set(VARIANT_TITLES) == set(PRESETS)
    for rules in PRESETS.values():
        sections = rules_sections(rules)
        assert [s.title for s in sections] == [
            "The pack and the deal",
            "Capturing",
            "The basra",
            "Scoring",
        ]
        assert all(s.items for s in sections)


def test_what_a_basra_is_and_what_it_scores() -> None:
    assert "A basra is clearing the whole floor with any card but a jack." in sentences({})
    assert "Each basra scores 10." in sentences({})
    lone = sentences({"basra_mode": "lone_match", "basra_points": 5})
    assert "A basra is taking a lone card on the floor by pairing it." in lone
    assert "Each basra scores 5." in lone
    jordanian = rules_sections(preset("jordanian"))[2].items
    assert "(ace 1, numerals their pips, Q = 10, K = 10)" in jordanian[1]
    # Without a face value a queen's or king's basra is worth basra_points (the engine's rule).
    double = sentences({"basra_value": "double_face", "face_values": {"K": 4}})
    assert (
        "A basra scores twice the face value of the capturing card (ace 1, numerals their "
        "pips, K = 4; with a queen it scores 10)." in double
    )
    assert "A jack taking a lone jack is a basra worth 20." in sentences({})
    assert "A jack taking a lone jack is no basra." in sentences({"jack_on_lone_jack": 0})


def test_which_cards_score_points() -> None:
    assert point_cards_sentence(preset("egyptian")) == (
        "Card points: each A = 1, each J = 1, 2♣ = 2, 10♦ = 3."
    )
    custom = preset("egyptian").with_overrides({"point_cards": {"7D": 2, "10": 1}})
    assert point_cards_sentence(custom) == "Card points: each 10 = 1, 7♦ = 2."
    none = preset("egyptian").with_overrides({"point_cards": {}})
    assert point_cards_sentence(none) == "Card points: none."
    assert setting_key_label("10D") == "10♦" and setting_key_label("Q") == "Q"


def test_settings_change_the_words() -> None:
    assert "Nothing is buried from the first floor." in sentences({"bury": []})
    assert "If the first floor shows jacks or the 7♦, it is buried" in " ".join(sentences({}))
    assert "The side with the most cards scores 30. On a tie it is held over" in " ".join(
        sentences({})
    )
    assert "If the top scores are tied, the game is a draw." in sentences({"end_tie": "draw"})
    assert "a side reaches 61;" in " ".join(sentences({"target": 61}))


def test_headings_and_the_printable_text() -> None:
    egyptian = preset("egyptian")
    assert rules_heading("egyptian", egyptian) == "Egyptian Basra"
    assert rules_heading("egyptian", egyptian, "House") == "House (Egyptian Basra)"
    text = rules_text("egyptian", egyptian.with_overrides({"target": 61}), width=60)
    lines = text.splitlines()
    assert lines[0] == "How to play: Egyptian Basra with custom settings"
    assert all(len(line) <= 60 for line in lines)
    assert "  target              61 *" in lines
    assert '  bury                ["J", "7D"]' in lines


CUSTOM: list[dict[str, object]] = [
    {"basra_value": "double_face", "face_values": {"K": 4}},
    {"basra_value": "double_face", "face_values": {}},
    {"basra_value": "double_face", "face_values": {"Q": 3, "K": 4}, "pack": 44},
    {"point_cards": {"7D": 2, "10": 1}, "bury": [], "jack_on_lone_jack": 0},
    {"point_cards": {}, "majority_bonus": 5, "majority_tie": "none", "end_tie": "draw"},
    {"basra_mode": "lone_match_or_sum", "capture_policy": "any_maximal", "direction": "ccw"},
]
"""Custom settings the web page must write as the core does, on top of every preset."""


def web_rules(tmp_path: Path, rules: dict[str, dict[str, object]], lang: str) -> dict[str, object]:
    """The web page's rules sections (``rulesText`` of i18n.js) for each set of settings."""
    script = tmp_path / "rules.mjs"
    # The page fetches its catalogues; here they are read from the files beside i18n.js.
    script.write_text(
        "import { readFileSync } from 'node:fs';\n"
        "globalThis.fetch = async (url) => ({ ok: true, json: async () => "
        "JSON.parse(readFileSync(new URL(url), 'utf8')) });\n"
        "globalThis.document = { documentElement: { dataset: { languages: "
        "JSON.stringify({ en: 'English', [process.argv[4]]: process.argv[4] }) } } };\n"
        "globalThis.location = { search: '?lang=' + process.argv[4] };\n"
        "const m = await import(process.argv[2]);\n"
        "const all = JSON.parse(process.argv[3]);\n"
        "const out = {};\n"
        "for (const [name, rules] of Object.entries(all)) "
        "out[name] = m.rulesText(rules, 2, process.argv[4]);\n"
        "console.log(JSON.stringify(out));\n"
    )
    run = subprocess.run(
        ["node", str(script), I18N.as_uri(), json.dumps(rules), lang],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    # The page wraps card labels in left-to-right isolates (U+2066 ... U+2069) for Arabic.
    out: dict[str, object] = json.loads(run.stdout.replace("\u2066", "").replace("\u2069", ""))
    return out


def every_rules() -> dict[str, Rules]:
    """The 15 presets, and each with every custom change of :data:`CUSTOM`."""
    out = dict(PRESETS)
    for name, rules in PRESETS.items():
        for index, overrides in enumerate(CUSTOM):
            out[f"{name}+{index}"] = rules.with_overrides(overrides)
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the web page's code")
def test_the_same_sentences_as_the_web_rules_page(tmp_path: Path) -> None:
    """The web page writes its rules from the catalogues; its English must stay the text
    of :mod:`basra.describe` for every preset and custom settings, and Arabic, Greek and
    French must say as many things, in their own words."""
    cases = every_rules()
    settings = {name: rules.to_dict() for name, rules in cases.items()}
    web = web_rules(tmp_path, settings, "en")
    others = {lang: web_rules(tmp_path, settings, lang) for lang in ("ar", "el", "fr")}
    for name, rules in cases.items():
        ours = [{"title": s.title, "items": list(s.items)} for s in rules_sections(rules)]
        assert ours == web[name], name
        for lang, sections in others.items():
            shape = [len(section["items"]) for section in sections[name]]  # type: ignore[attr-defined]
            assert shape == [len(section.items) for section in rules_sections(rules)], (name, lang)
            assert sections[name] != web[name], (name, lang)  # in its own words
    # A double_face basra is described as such (the Syrian preset: Q = 3, K = 4).
    syrian = " ".join(web["syrian"][2]["items"])  # type: ignore[index]
    assert "twice the face value of the capturing card" in syrian and "Q = 3, K = 4" in syrian
    assert "Each basra scores" not in syrian
    assert "with a queen it scores 10" in " ".join(web["syrian+0"][2]["items"])  # type: ignore[index]
