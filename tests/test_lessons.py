"""Lessons (issue 23): a course for every preset and for custom rules, built from the settings;
each step completed by its taught move and refusing every other, in English and Arabic."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from typing import Any

import pytest

from basra.cards import cards_of, parse_card
from basra.learn.lessons import Course, Step, check_step, course_for, courses, courses_json
from basra.learn.words import LANGUAGES
from basra.rules import PRESETS, VARIANT_NAMES, preset
from basra.transition import play_basra

pytestmark = pytest.mark.engine

ARABIC = re.compile("[\u0600-\u06ff]")


def basra(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "basra", *args], capture_output=True, text=True, timeout=120
    )


def assert_step_teaches(step: Step) -> None:
    """The taught move completes the step; every other legal move and a non-move are refused,
    each with words in every language."""
    state = step.state()
    legal = state.legal_moves()
    assert step.taught in legal
    done = check_step(step, step.taught.text())
    assert done.correct and done.move == step.taught.text()
    others = [m for m in legal if m != step.taught]
    assert others, f"{step.id}: a step needs a wrong move to refuse"
    for move in others:
        result = check_step(step, move.text())
        assert not result.correct and result.move == move.text()
        for lang in LANGUAGES:
            assert result.words[lang], (step.id, lang)
        assert result.words["en"].startswith("Not that one: ")
        assert ARABIC.search(result.words["ar"])
    foreign = next(c for c in range(52) if not (state.hands[0] >> c & 1) and c < 40)
    refused = check_step(step, f"{'A23456789'[foreign >> 2] if foreign < 36 else '10'}S")
    assert not refused.correct
    nonsense = check_step(step, "take the floor")
    assert not nonsense.correct and nonsense.move is None
    assert "Type a card" in nonsense.words["en"] and ARABIC.search(nonsense.words["ar"])


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_step_of_every_preset_is_completed_by_its_taught_move_alone(variant: str) -> None:
    course = course_for(variant)
    assert course.variant == variant and not course.custom
    ids = [step.id for step in course.steps]
    assert len(ids) == len(set(ids)) >= 10
    for step in course.steps:
        assert_step_teaches(step)
        for text in (step.title, step.goal, step.rule):
            assert text["en"] and ARABIC.search(text["ar"]), step.id
            assert not ARABIC.search(text["en"]), step.id


def test_the_steps_follow_the_settings_not_the_name() -> None:
    ids = {course.variant: [s.id for s in course.steps] for course in courses()}
    assert {"seven", "seven_basra"} <= set(ids["egyptian"])
    assert "seven" in ids["saba_alkoomi"] and "seven_basra" not in ids["saba_alkoomi"]
    assert "lone_seven" in ids["ethiopian"] and "lone_seven" not in ids["yemeni"]
    assert "lone_sum" in ids["lebanese"] and "lone_sum" not in ids["lebanese_ashush"]
    assert "pictures" not in ids["palestinian"] and "pictures" in ids["jordanian"]
    assert "jack_on_jack" not in ids["cypriot_bastra"] and "jack_on_jack" in ids["syrian"]
    # Same settings, same steps: only the titles say which variant it is.
    ashush, alefb = course_for("lebanese_ashush"), course_for("lebanese_alefb")
    assert PRESETS["lebanese_ashush"] == PRESETS["lebanese_alefb"]
    assert [s.id for s in ashush.steps] == [s.id for s in alefb.steps]
    assert [s.rule for s in ashush.steps] == [s.rule for s in alefb.steps]
    # Egyptian settings under the Cypriot name teach what Egyptian teaches.
    egyptian_rules = course_for("cypriot_bastra", preset("egyptian"))
    assert egyptian_rules.custom
    assert [s.id for s in egyptian_rules.steps] == ids["egyptian"]


def test_the_numbers_in_the_words_come_from_the_settings() -> None:
    syrian = course_for("syrian")
    worth = syrian.step("jack_on_jack")
    assert "25" in worth.rule["en"] and "٢٥" in worth.rule["ar"]
    basra = syrian.step("basra")
    state = basra.state()
    taught = basra.taught
    points = play_basra(
        state.rules, taught.card, taught.take, state.floor, lone_trail=False, last_play=False
    )
    assert points == 2 * 9 and "18 here" in basra.rule["en"]  # twice the 9♦
    classic = course_for("cypriot_classic").step("points")
    assert "10♦" in classic.rule["en"] and "4 points" in classic.rule["en"]
    assert "Card points: each A = 1, each J = 1, 2♣ = 2, 10♦ = 4." in classic.rule["en"]
    target = course_for("ethiopian").step("target")
    assert "52" in target.goal["en"] and "٥٢" in target.goal["ar"]


@pytest.mark.parametrize(
    ("overrides", "present", "absent"),
    [
        ({"capture_policy": "any_maximal"}, {"choose"}, {"most"}),
        ({"pack": 44}, set(), {"pictures"}),
        ({"point_cards": {}}, set(), {"points"}),
        ({"point_cards": {"5H": 2}}, {"points"}, set()),
        ({"majority_bonus": 0}, set(), {"majority"}),
        ({"jack_on_lone_jack": 0}, set(), {"jack_on_jack"}),
        ({"seven_diamonds": "yemeni"}, {"seven", "seven_basra"}, {"lone_seven"}),
        ({"seven_diamonds": "ethiopian", "basra_mode": "lone_match"}, {"lone_seven"}, set()),
        ({"basra_mode": "lone_match_or_sum"}, {"lone_sum"}, set()),
    ],
)
def test_custom_rules_get_the_steps_their_settings_imply(
    overrides: dict[str, Any], present: set[str], absent: set[str]
) -> None:
    rules = preset("lebanese" if "seven_diamonds" in overrides else "egyptian").with_overrides(
        overrides
    )
    course = course_for("lebanese" if "seven_diamonds" in overrides else "egyptian", rules)
    ids = {s.id for s in course.steps}
    assert course.custom and present <= ids and not absent & ids, ids
    assert "custom rules" in course.title["en"] and "قواعد خاصة" in course.title["ar"]
    for step in course.steps:
        assert step.rules == rules
        assert_step_teaches(step)


def test_a_wrong_move_is_explained_by_what_it_does_and_the_rule() -> None:
    step = course_for("egyptian").step("jack_no_basra")
    wrong = check_step(step, "JH")
    assert not wrong.correct and wrong.move == "JHx6S"
    assert wrong.words["en"] == (
        "Not that one: J♥ takes 6♠ (1 point in cards). A jack takes a lone card too, but a jack "
        "makes no basra, except on a lone jack (20). Try again."
    )
    assert wrong.words["ar"].startswith("ليست هذه: ") and "\u20666♠\u2069" in wrong.words["ar"]
    right = check_step(step, "6c")
    assert right.correct and right.words["en"].startswith("Right: 6♣ takes 6♠ for a basra (+10)")
    choosing = preset("egyptian").with_overrides({"capture_policy": "any_maximal"})
    ambiguous = course_for("egyptian", choosing).step("choose")
    which = check_step(ambiguous, "7C")
    assert not which.correct and "say which: 7CxAS,2H,4D / 7Cx2H,5S" in which.words["en"]
    not_mine = check_step(step, "KS")
    assert not_mine.words["en"] == "K♠ is not in your hand: play one of 6♣ J♥."


def test_a_step_shows_the_learners_cards_and_what_each_would_take_not_the_answer() -> None:
    course = course_for("lebanese")
    listed = course.to_json()
    assert [s["id"] for s in listed["steps"]] == [s.id for s in course.steps]
    full = json.loads(json.dumps(course.to_json(steps=True)))
    for step, shown in zip(course.steps, full["steps"], strict=True):
        assert "taught" not in json.dumps(shown)
        view = shown["view"]
        assert view["seat"] == 0 and view["hand"] == list(_texts(step.hand))
        assert "hand" not in view["known"][1] and view["known"][1] == []
        assert view["hand_sizes"][1] == len(step.other)
        options = {o["card"]: o["options"] for o in shown["hand_options"]}
        assert set(options) == set(view["hand"])
        taught = step.taught.text()
        assert any(o["move"] == taught for o in options[taught.partition("x")[0]])
    lone = course.step("lone_sum").to_json()
    seven = lone["hand_options"][1]
    assert seven["card"] == "7C" and seven["options"][0]["basra"] == 10
    assert lone["view"]["floor"] == ["3S", "4H"]


def _texts(cards: tuple[int, ...]) -> list[str]:
    from basra.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in sorted(cards)]


def test_courses_json_lists_every_preset() -> None:
    listed = courses_json()
    assert [c["variant"] for c in listed] == list(VARIANT_NAMES)
    assert all(c["steps"] and "view" not in c["steps"][0] for c in listed)
    json.dumps(listed)


def test_basra_learn_lists_and_prints_the_course() -> None:
    run = basra("learn", "--variant", "ethiopian", "--list")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "Learn Ethiopian Basra"
    assert any("The lone 7♦: Take the lone 7♦ for a basra." in line for line in lines)
    arabic = basra("learn", "--variant", "ethiopian", "--list", "--lang", "ar")
    assert arabic.stdout.splitlines()[0] == "تعلّم البصرة الإثيوبية"
    assert "\u2066" not in arabic.stdout
    custom = basra("learn", "--rules", '{"capture_policy": "any_maximal"}', "--json")
    data = json.loads(custom.stdout)
    assert data["custom"] and "choose" in [s["id"] for s in data["steps"]]
    everything = basra("learn", "--all", "--json")
    assert len(json.loads(everything.stdout)) == len(VARIANT_NAMES)


def test_basra_learn_says_what_is_wrong() -> None:
    run = basra("learn", "--variant", "klondike", "--list")
    assert run.returncode == 2 and "unknown variant 'klondike'" in run.stderr
    run = basra("learn", "--rules", '{"pack": 40}', "--list")
    assert run.returncode == 2 and "setting 'pack' must be one of 52, 44" in run.stderr
    run = basra("learn")  # no terminal here
    assert run.returncode == 2 and "needs a terminal" in run.stderr
    run = basra("learn", "--all")
    assert run.returncode == 2 and "--all goes with --list or --json" in run.stderr


def test_the_terminal_course_accepts_the_taught_move_and_explains_another() -> None:
    pytest.importorskip("textual")
    from basra.tui.learn import LearnApp

    course: Course = course_for("egyptian")

    async def main() -> None:
        app = LearnApp(course)
        async with app.run_test(size=(90, 30)) as pilot:
            await pilot.pause()
            for index in range(3):
                step = course.steps[index]
                assert app.index == index and app.goal_text() == step.goal["en"]
                hand = cards_of(app.view.hand) if app.view else []
                wrong = next(i for i, c in enumerate(hand) if c != step.taught.card)
                await pilot.press(str(wrong + 1), "enter")
                await pilot.pause()
                assert app.message.plain.startswith("Not that one: ")
                await pilot.press("n")  # not before the step is done
                assert app.index == index
                await pilot.press(str(hand.index(step.taught.card) + 1), "enter")
                await pilot.pause()
                assert app.message.plain.startswith("Right: ")
                assert index in app.done
                await pilot.press("n")
                await pilot.pause()
            await pilot.press("p")
            assert app.index == 2
            await pilot.press("l")
            await pilot.pause()
            assert app.title_text().startswith("تعلّم البصرة المصرية · الخطوة ٣ من ")

    asyncio.run(main())


def test_card_words_read_left_to_right_in_arabic() -> None:
    step = course_for("egyptian").step("match")
    assert "\u20665♠\u2069" in step.goal["ar"]
    assert parse_card("5S") in step.floor
