# ruff: noqa: E501 - the B4 table reads best one preset a line
from __future__ import annotations

import json
from pathlib import Path

import pytest

from basra.rules import (
    PRESETS,
    SETTING_NAMES,
    VARIANT_NAMES,
    RulesError,
    load_rules_file,
    preset,
    resolve_rules,
)

pytestmark = pytest.mark.engine

STD = {"A": 1, "J": 1, "2C": 2, "10D": 3}

# RULES.md B4, row by row: pack, hand, bury, seven_diamonds, basra_mode, basra_value,
# face_values, jack_on_lone_jack, point_cards, majority_bonus, majority_tie, target, direction
B4 = {
    "cypriot_bastra": (52, 4, ["J"], "plain", "clear", "flat", {}, 0, STD, 3, "each", 100, "cw"),
    "cypriot_classic": (52, 4, ["J"], "plain", "clear", "flat", {}, 50, {**STD, "10D": 4}, 3, "each", 100, "cw"),
    "egyptian": (52, 4, ["J", "7D"], "egyptian", "clear", "flat", {}, 20, STD, 30, "abeyance", 101, "ccw"),
    "egyptian_121": (52, 4, ["J", "7D"], "egyptian", "clear", "flat", {}, 20, STD, 30, "abeyance", 121, "ccw"),
    "egyptian_mona_russel": (52, 4, ["J", "7D"], "no_basra", "clear", "flat", {}, 20, {**STD, "7D": 1}, 3, "none", 100, "ccw"),
    "saba_alkoomi": (52, 4, ["J", "7D"], "no_basra", "clear", "flat", {}, 20, STD, 3, "none", 101, "ccw"),
    "yemeni": (52, 4, ["J", "7D"], "yemeni", "clear", "flat", {}, 20, STD, 30, "abeyance", 101, "ccw"),
    "ethiopian": (52, 4, ["J", "7D"], "ethiopian", "clear", "flat", {}, 0, STD, 3, "none", 52, "ccw"),
    "lebanese": (52, 6, ["J"], "plain", "lone_match_or_sum", "flat", {}, 10, STD, 3, "none", 101, "ccw"),
    "lebanese_ashush": (52, 6, ["J"], "plain", "lone_match", "flat", {}, 10, STD, 3, "none", 101, "ccw"),
    "lebanese_alefb": (52, 6, ["J"], "plain", "lone_match", "flat", {}, 10, STD, 3, "none", 101, "ccw"),
    "palestinian": (44, 4, ["J"], "plain", "clear", "double_face", {}, 0, STD, 3, "none", 101, "ccw"),
    "jordanian": (52, 4, ["J"], "plain", "clear", "double_face", {"Q": 10, "K": 10}, 20, STD, 3, "none", 101, "ccw"),
    "syrian": (52, 4, ["J"], "plain", "clear", "double_face", {"Q": 3, "K": 4}, 25, STD, 3, "none", 101, "ccw"),
    "syrian_homsi": (44, 4, ["J"], "plain", "clear", "double_face", {}, 25, STD, 3, "none", 101, "ccw"),
}  # fmt: skip


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_presets_are_the_b4_table(name: str) -> None:
    d = preset(name).to_dict()
    got = tuple(
        d[k]
        for k in ("pack", "hand_size", "bury", "seven_diamonds", "basra_mode", "basra_value",
                  "face_values", "jack_on_lone_jack", "point_cards", "majority_bonus",
                  "majority_tie", "target", "direction")
    )  # fmt: skip
    assert got == B4[name]
    assert d["capture_policy"] == "max_cards" and d["basra_points"] == 10
    assert d["basra_on_last_play"] is True and d["end_tie"] == "extra_rounds"


def test_there_are_exactly_15_presets_and_17_settings() -> None:
    assert len(PRESETS) == 15 and set(B4) == set(VARIANT_NAMES)
    assert len(SETTING_NAMES) == 17


def test_overrides_replace_whole_values() -> None:
    rules = preset("egyptian").with_overrides({"point_cards": {"7D": 1}})
    assert rules.to_dict()["point_cards"] == {"7D": 1}
    assert sum(rules.card_points) == 1
    rules = preset("syrian").with_overrides({"face_values": {"Q": 7}})
    assert rules.to_dict()["face_values"] == {"Q": 7}


def test_card_keys_win_over_rank_keys() -> None:
    rules = preset("egyptian").with_overrides({"point_cards": {"10": 1, "10D": 3}})
    assert [rules.card_points[c] for c in range(36, 40)] == [1, 1, 3, 1]


def test_double_face_values() -> None:
    syrian = preset("syrian")
    assert syrian.basra_values[0] == 2 and syrian.basra_values[39] == 20
    assert syrian.basra_values[44] == 6 and syrian.basra_values[48] == 8
    half = syrian.with_overrides({"face_values": {"Q": 7}})
    assert (
        half.basra_values[44] == 14 and half.basra_values[48] == 10
    )  # K falls back to basra_points


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"no_such": 1}, "unknown setting 'no_such'"),
        ({"target": 10.5}, "'target' must be a positive integer"),
        ({"target": 0}, "'target' must be a positive integer"),
        ({"target": True}, "'target' must be a positive integer"),
        ({"basra_points": -1}, "'basra_points' must be a non-negative integer"),
        ({"basra_on_last_play": 1}, "'basra_on_last_play' must be true or false"),
        ({"pack": 48}, "'pack' must be one of 52, 44"),
        ({"pack": "52"}, "'pack' must be one of 52, 44"),
        ({"hand_size": 3}, "'hand_size' must be one of 4, 5, 6"),
        ({"capture_policy": "most"}, "must be one of 'max_cards', 'any_maximal'"),
        ({"seven_diamonds": "EGYPTIAN"}, "'seven_diamonds' must be one of"),
        ({"bury": ["J", "Q"]}, "'bury' must be"),
        ({"bury": "J"}, "'bury' must be"),
        ({"face_values": {"Q": 2, "q": 3}}, "'face_values' must be"),
        ({"point_cards": {"10": 1, "T": 2}}, "'point_cards' names 10 twice"),
        ({"face_values": {"J": 3}}, "'face_values' must be"),
        ({"face_values": {"Q": 2.5}}, "'face_values' must be"),
        ({"point_cards": {"ZZ": 1}}, "neither a rank"),
        ({"point_cards": {"A": -1}}, "'point_cards' must be"),
        ({"point_cards": ["A"]}, "'point_cards' must be"),
        ({"majority_tie": "split"}, "'majority_tie' must be one of 'each', 'none', 'abeyance'"),
        ({"end_tie": "extend"}, "'end_tie' must be one of"),
        ({"direction": "left"}, "'direction' must be one of 'ccw', 'cw'"),
    ],
)
def test_bad_settings_are_errors_naming_the_setting(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        preset("egyptian").with_overrides(overrides)


def test_lenient_but_checked_forms() -> None:
    assert preset("egyptian").with_overrides({"bury": []}).bury_mask == 0
    assert preset("egyptian").with_overrides({"bury": ["j", "J"]}).bury == ("J",)
    assert preset("jordanian").with_overrides({"face_values": None}).face_values == ()
    rules = preset("egyptian").with_overrides({"bury": ["7d", "j"], "face_values": {"q": 2}})
    assert rules.bury == ("J", "7D") and rules.to_dict()["face_values"] == {"Q": 2}
    assert preset("egyptian").with_overrides({"point_cards": {"t♦": 5}}).to_dict()[
        "point_cards"
    ] == {"10D": 5}


def test_unknown_variant() -> None:
    with pytest.raises(RulesError, match="unknown variant 'lebanese_a'"):
        preset("lebanese_a")


def test_rules_files(tmp_path: Path) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('variant = "syrian"\nname = "House"\n[rules]\ntarget = 61\n', encoding="utf-8")
    name, overrides, rules = resolve_rules(None, str(toml))
    assert name == "syrian" and overrides == {"target": 61} and rules.target == 61
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps({"majority_tie": "each"}), encoding="utf-8")
    name, _, rules = resolve_rules("lebanese", str(flat))
    assert name == "lebanese" and rules.majority_tie == "each"
    assert resolve_rules(None, '{"target": 121}')[2].target == 121
    with pytest.raises(RulesError, match="conflicts"):
        resolve_rules("egyptian", str(toml))
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules]\ntarget = 'high'\n", encoding="utf-8")
    with pytest.raises(RulesError, match="'target' must be a positive integer"):
        resolve_rules(None, str(bad))
    with pytest.raises(RulesError, match="cannot read rules file"):
        load_rules_file(tmp_path / "missing.toml")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(RulesError, match="is not valid"):
        load_rules_file(broken)
    dated = tmp_path / "dated.toml"
    dated.write_text("[rules]\ntarget = 1979-05-27\nend_tie = 1979-05-27\n", encoding="utf-8")
    with pytest.raises(RulesError, match="'target' must be a positive integer, not datetime"):
        resolve_rules(None, str(dated))
    extra = tmp_path / "extra.toml"
    extra.write_text('variant = "egyptian"\ntarget = 5\n', encoding="utf-8")
    with pytest.raises(RulesError, match="unknown key"):
        load_rules_file(extra)


def test_overrides_from_round_trips() -> None:
    base = preset("egyptian")
    changed = base.with_overrides({"target": 61, "bury": ["J"]})
    assert changed.overrides_from(base) == {"target": 61, "bury": ["J"]}
    assert base.with_overrides(changed.overrides_from(base)) == changed
