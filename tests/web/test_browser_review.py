"""The coach in the browser: what a card would take before it is played, a confirming
second click, hints that show their reason and what they take, and the review page of a
finished game (English and Arabic), driven in Debian's Chromium like test_browser.py."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import FAST, ServerThread
from tests.web.test_browser import (  # noqa: F401  (browser is a fixture)
    browser,
    create,
    new_page,
    play_until_over,
    shot,
    take_turn,
)

from basra.server.app import AppConfig
from basra.server.features.reviews import ReviewConfig

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def coach_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("coach") / "basra.db")
    config = AppConfig(
        database=database,
        service=replace(FAST, bot_delay=0.05, hint_samples=200),
        reviews=ReviewConfig(samples=80, hindsight=True, progress_every=0.0),
    )
    with ServerThread(config) as server:
        yield server.url


class Frames:
    """The state messages a page receives (its seat's legal moves are in them)."""

    def __init__(self, page: Any) -> None:
        self.states: list[dict[str, Any]] = []
        self.hints: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self.take))

    def take(self, frame: Any) -> None:
        message = json.loads(frame if isinstance(frame, str) else frame.get("payload", "{}"))
        if message.get("type") == "state":
            self.states.append(message)
        elif message.get("type") == "hint":
            self.hints.append(message)

    @property
    def legal(self) -> list[str]:
        return list(self.states[-1]["view"].get("legal") or []) if self.states else []


def marked(page: Any, selector: str) -> list[str]:
    return sorted(page.locator(selector).evaluate_all("c => c.map(x => x.dataset.card)"))


def my_turn(page: Any) -> bool:
    return page.locator(".hand button.card:not([aria-disabled])").count() > 0


def test_the_table_shows_what_a_card_takes_and_the_hint_says_why(
    browser: Any,  # noqa: F811
    coach_site: str,
) -> None:
    page = new_page(browser, coach_site)
    frames = Frames(page)
    create(page, "Amal", seats=["me", "bot:easy"], target=20)
    # Hovering each playable card marks on the floor exactly what it would take.
    seen_capture = False
    deadline = time.time() + 60
    while not seen_capture:
        assert time.time() < deadline, "no card could take anything"
        page.wait_for_selector(".hand button.card:not([aria-disabled])")
        page.wait_for_timeout(150)
        legal = frames.legal
        for button in page.locator(".hand button.card:not([aria-disabled])").all():
            card = button.get_attribute("data-card")
            options = [m.split("x")[1].split(",") for m in legal if m.startswith(card + "x")]
            button.hover()
            if len(options) == 1:
                assert marked(page, ".floor .card.would-take") == sorted(options[0])
                assert "would take" in page.inner_text("#preview-line")
                seen_capture = True
            elif len(options) > 1:
                union = sorted({c for take in options for c in take})
                assert marked(page, ".floor .card.would-take") == union
                assert page.locator(".floor .card.would-take-option").count() > 0
                seen_capture = True
            elif card in legal:
                assert marked(page, ".floor .card.would-take") == []
                assert "takes nothing" in page.inner_text("#preview-line")
        page.mouse.move(0, 0)
        if not seen_capture:
            take_turn(page)
    # A hint: its reason on the page, its card suggested, what it takes marked.
    page.click("#hint")
    page.wait_for_selector("#hint-line strong")
    hint = frames.hints[-1]
    text = page.inner_text("#hint-line")
    assert text.startswith("Hint: ") and "point" in text and "1 cards" not in text
    card = hint["move"].split("x")[0]
    assert page.locator(f'.hand button.card.suggested[data-card="{card}"]').count() == 1
    assert marked(page, ".floor .card.hinted-take") == sorted(hint["take"])
    shot(page, "hint-en")
    page.select_option("#lang", "ar")
    page.wait_for_function("document.documentElement.lang === 'ar'")
    page.wait_for_selector("#hint-line strong")
    arabic = page.inner_text("#hint-line")
    assert arabic.startswith("تلميح")
    assert any(word in arabic for word in ("مقابل", "بجودة", "الوحيدة"))  # against, tie, only
    shot(page, "hint-ar")
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("#hint-line strong")
    # With the setting on, the first click only chooses the card; the second plays it.
    page.check("#confirm-play")
    version = frames.states[-1]["version"]
    first = page.locator(".hand button.card:not([aria-disabled])").first
    card = first.get_attribute("data-card")
    first.click()
    page.wait_for_selector(".hand button.card.armed")
    assert "again to play it" in page.inner_text("#preview-line")
    page.wait_for_timeout(300)
    assert frames.states[-1]["version"] == version  # nothing was played
    page.locator(f'.hand button.card[data-card="{card}"]').click()
    choice = page.locator(".choices .choice")
    if choice.count():
        choice.first.click()
    deadline = time.time() + 10
    while frames.states[-1]["version"] == version:
        assert time.time() < deadline, "the second click did not play the card"
        page.wait_for_timeout(50)
    page.uncheck("#confirm-play") if page.locator("#confirm-play").count() else None
    page.evaluate("localStorage.setItem('basra.confirm', '0')")
    page.context.close()


def test_the_review_page_of_a_finished_game(browser: Any, coach_site: str) -> None:  # noqa: F811
    page = new_page(browser, coach_site)
    table = create(page, "Amal", seats=["me", "bot:medium"], target=20)
    page.wait_for_selector(".hand button.card")
    play_until_over([page])
    page.click("#review-link")
    page.wait_for_url(f"**/review/{table}")
    page.wait_for_selector("#review-seats", timeout=120_000)
    replay = json.loads(page.evaluate(f"fetch('/api/games/{table}/replay').then(r => r.text())"))
    plays = sum(len(r["plays"]) for r in replay["result"]["rounds"])
    assert page.locator("#review-list .review-item").count() == plays
    assert page.locator("#review-seats tbody tr").count() == 2
    assert "Amal" in page.inner_text("#review-seats")
    assert "%" in page.inner_text("#review-seats .accuracy")
    dots = page.locator("#review-graph circle.step-dot").count()
    assert dots > 0 and page.locator("#review-graph circle.round-end").count() >= 1
    # Step through like the replay; each decision shows its table and options.
    step = page.locator("#review-decision").get_attribute("data-step")
    page.click("#review-next")
    assert page.locator("#review-decision").get_attribute("data-step") != step
    page.locator("#review-list .review-item").first.click()
    assert page.locator("#review-decision").get_attribute("data-step") == "0"
    graded = page.locator('#review-list .review-item:not([data-label="forced"])').first
    graded.click()
    assert page.locator("#review-options tbody tr").count() >= 2
    # The options' columns are named, and the numbers have a key in words.
    assert page.locator("#review-options thead th").first.inner_text() == "Move"
    assert "Expected round margin" in page.inner_text("#review-options thead")
    page.click("#review-words summary")
    words = page.inner_text("#review-words")
    assert "Mean loss" in words and "lower is better" in words and "± (plus or minus)" in words
    assert page.locator("#review-options tr.best").count() == 1
    assert page.locator("#review-options tr.played").count() == 1
    assert "With all cards seen" in page.inner_text("#review-decision")
    # A point of the graph is a decision: clicking it (or its label's mark) goes there.
    dot = page.locator("#review-graph circle.step-dot").nth(dots // 2)
    target = dot.get_attribute("data-step")
    dot.click(force=True)
    assert page.locator("#review-decision").get_attribute("data-step") == target
    shot(page, "review-en")
    # In Arabic: the same review, right to left, card labels still rank first.
    page.select_option("#lang", "ar")
    page.wait_for_function("document.documentElement.lang === 'ar'")
    page.wait_for_selector("#review-seats")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert "روبوت ٢ (متوسط)" in page.inner_text("#review-seats")  # the bot named in Arabic
    assert "Bot" not in page.inner_text("#review-seats")
    assert "المراجعة" in page.inner_text("main") or "مراجعة" in page.inner_text("main")
    assert page.inner_text("#review-label") in {
        "الأفضل",
        "جيدة",
        "غير دقيقة",
        "خطأ",
        "خطأ فادح",
        "لعبة وحيدة",
    }
    label = page.locator("#review-decision bdi.card-text").first
    assert label.get_attribute("dir") == "ltr" and label.inner_text()[-1] in "♠♥♦♣"
    # The graph runs right to left, as the step slider under it does: the first
    # decision's point is the rightmost.
    xs = page.eval_on_selector_all(
        "#review-graph circle.step-dot",
        "(dots) => dots.map((d) => [Number(d.dataset.step), Number(d.getAttribute('cx'))])",
    )
    first = min(xs)[1]
    last = max(xs)[1]
    assert first > last, (first, last)
    shot(page, "review-ar")
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    # My games links to it too; the stored review comes back at once.
    page.goto(f"{coach_site}/games?lang=en")
    page.wait_for_selector(f'li[data-game="{table}"] a.review-link')
    page.click(f'li[data-game="{table}"] a.review-link')
    page.wait_for_selector("#review-seats", timeout=5_000)
    # The profile shows this seat's accuracy over the reviewed games (one here).
    review = json.loads(page.evaluate(f"fetch('/api/games/{table}/review').then(r => r.text())"))
    mine = review["review"]["seats"][0]["accuracy"]
    page.goto(f"{coach_site}/me?lang=en")
    page.wait_for_selector("#review-accuracy")
    shown = f"Review accuracy: {math.floor(mine + 0.5)}% over 1 reviewed game"
    assert page.inner_text("#review-accuracy") == shown
    page.context.close()


def test_no_review_page_for_a_game_in_play(browser: Any, coach_site: str) -> None:  # noqa: F811
    page = new_page(browser, coach_site)
    table = create(page, "Amal", seats=["me", "bot:medium"])
    page.wait_for_selector(".hand button.card")
    page.goto(f"{coach_site}/review/{table}?lang=en")
    page.wait_for_selector("#review-error")
    assert "not over" in page.inner_text("#review-error")
    page.context.close()


SENTENCES = """
async ([facts, lang]) => {
  const { loadLanguage, translate, num } = await import("/static/i18n.js");
  await loadLanguage(lang);  // the page fetches a catalogue when its language is chosen
  const coach = await import("/static/coach.js");
  const node = (tag, ...kids) => {
    const e = document.createElement(tag);
    e.append(...kids.flat());
    return e;
  };
  const ui = {
    app: { lang },
    t: (key, p) => translate(lang, key, p),
    n: (v) => num(v, lang),
    h: (tag, attrs, ...kids) => node(tag, ...kids),
    cardLabel: (c) => node("bdi", c),
    cardsLabel: (cs) => cs.map((c) => node("bdi", c)),
  };
  const box = document.createElement("div");
  box.append(...coach.hintParts(facts, ui));
  return box.textContent.replace(/[\u2066-\u2069]/g, "");  // without the isolation marks
}
"""


def facts(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "move": "7Sx3C,4H", "card": "7S", "take": ["3C", "4H"], "basra": 0, "card_points": 0,
        "floor_after": ["5D"], "last": False, "value": 2.1, "exact": False,
        "reply": None,
        "alternative": {"move": "9D", "card": "9D", "take": [], "value": 0.4},
    }  # fmt: skip
    base.update(changes)
    return base


def test_hint_sentences_from_facts_in_english_and_arabic(
    browser: Any,  # noqa: F811
    coach_site: str,
) -> None:
    page = new_page(browser, coach_site)
    page.wait_for_selector("#create")

    def say(lang: str, **changes: Any) -> str:
        return str(page.evaluate(SENTENCES, [facts(**changes), lang]))

    assert say("en") == (
        "7S takes 3C4H and leaves nothing they can take: +2.1 points against +0.4 for 9D"
    )
    assert say("en", basra=10, floor_after=[]) == (
        "7S takes 3C4H for a basra (+10) and leaves the floor empty: "
        "+2.1 points against +0.4 for 9D"
    )
    reply = {"rank": "5", "take": ["5D"], "points": 10, "basra": 10}
    assert ", but a 5 would clear the floor for a basra (+10)" in say("en", reply=reply)
    jack = {"rank": "J", "take": ["5D"], "points": 1, "basra": 0}
    assert " and leaves them at most 1 point (a jack takes 5D)" in say("en", reply=jack)
    assert say("en", value=0.4).endswith(": +0.4 points, as good as 9D")
    assert say("en", alternative=None, exact=True).endswith(
        ": the only move (exact: every card is known)"
    )
    same = {"move": "7Sx2C,5H", "card": "7S", "take": ["2C", "5H"], "value": -1.0}
    assert "against -1.0 for taking 2C5H" in say("en", alternative=same)
    arabic = say("ar", reply=reply, card_points=2)
    assert arabic.startswith("7S تأكل 3C4H (نقطتان من الأوراق)")
    assert "لكن أي ٥ تمسح الأرض ببصرة" in arabic and "مقابل" in arabic
    assert "9D" in arabic
    page.context.close()
