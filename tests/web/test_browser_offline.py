"""Browser tests of offline play: the app loaded once online, then played with no network.

Chromium loads the app, its service worker keeps everything, the network is cut
(``context.set_offline(True)``) and the page reloaded: a whole game against a bot, a
reload in the middle, a pass-and-play game, "My games" from the device, then the
upload once online (checked by the server's replay), kept in "My games" with the
server's replay agreeing with the page and a review by the coach. The conformance cases run
through the engine in the page and must answer as the server's engine does. A
deploy that changes a file is offered as "reload to update" and fetches only that
file. Screenshots (English, Arabic, phone) go to out/screens.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import CONFORMANCE
from tests.web.axe import axe_violations, describe
from tests.web.helpers import FAST, ServerThread
from tests.web.test_browser import browser, play_until_over, shot, take_turn

import basra.server.app as app_module
from basra.offline import call
from basra.record import Record, result_json
from basra.server.features.offline_check import check_offline_game
from basra.server.features.offline_files import runtime_folder, runtime_missing
from basra.server.features.reviews import ReviewConfig
from basra.server.transport.routes import pages

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the module's Chromium, shared with test_browser

# The service worker's cache is whole: its listing is written after every file.
KEPT = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration || !registration.active) return false;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    if (await cache.match("/__precache.json")) return true;
  }
  return false;
}"""
ENGINE_START = """async () => {
  const { offlineEngine } = await import("/static/offline/engine.js");
  return await (await offlineEngine()).start();
}"""
SNAPSHOTS = "caches.open('engine-snapshots').then((c) => c.keys()).then((k) => k.map((r) => r.url))"
# Every text the engine's status region shows, and its bar, as they change.
SAID = """window.__said = [];
new MutationObserver(() => {
  const region = document.getElementById("offline-loading");
  const words = region?.textContent;
  if (!words || window.__said.at(-1)?.words === words) return;
  const bar = document.getElementById("offline-progress");
  window.__said.push({ words, role: region.getAttribute("role"),
    live: region.getAttribute("aria-live"), bar: [bar.value, bar.max],
    barHidden: bar.getAttribute("aria-hidden") });
}).observe(document, { subtree: true, childList: true, characterData: true });"""
STORED = """async () => {
  const { listGames } = await import("/static/offline/store.js");
  return await listGames();
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if runtime_missing(runtime_folder()):
        pytest.fail(
            "the Pyodide runtime is not installed: run scripts/setup (scripts/fetch-pyodide)"
        )
    database = str(tmp_path_factory.mktemp("offline") / "basra.db")
    quick = ReviewConfig(samples=40, hindsight=False, progress_every=0.0)
    config = app_module.AppConfig(database=database, service=FAST, reviews=quick)
    with ServerThread(config) as server:
        yield server.url


def installed(page: Any, timeout: float = 120) -> None:
    """Wait until the service worker is active with every file kept."""
    deadline = time.time() + timeout
    while not page.evaluate(KEPT):  # evaluate awaits the check (wait_for_function would not)
        assert time.time() < deadline, "the service worker did not keep the app in time"
        time.sleep(0.25)


def accessible(page: Any, where: str) -> None:
    """No WCAG 2.1 A/AA violation (axe-core) on the page as it is now."""
    violations = axe_violations(page)
    assert not violations, f"{where}:\n{describe(violations)}"


def wait_for(check: Any, what: str, timeout: float = 120) -> Any:
    deadline = time.time() + timeout
    while not (found := check()):
        assert time.time() < deadline, f"no {what} in time"
        time.sleep(0.25)
    return found


def start_from_form(page: Any, seats: list[str], names: list[str], target: int) -> None:
    page.wait_for_selector("#offline-start")
    page.select_option("#offline-players", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"#offline-seat-{seat}", kind)
    for seat, name in enumerate(names):
        if name:
            page.fill(f"#offline-name-{seat}", name)
    page.click("details summary")
    page.fill("[data-setting=target]", str(target))
    page.dispatch_event("[data-setting=target]", "change")
    page.click("#offline-start")
    page.wait_for_url("**/offline/g/*", timeout=30_000)


def stored(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate(STORED))


def test_offline_bot_game_resume_pass_and_play_then_upload(browser: Any, site: str) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 800}, service_workers="allow")
    page = context.new_page()
    page.goto(f"{site}/?lang=en&anim=fast")
    page.wait_for_selector("#offline-panel")
    installed(page)
    # The home page says when the app is kept for offline play (it said nothing before).
    page.wait_for_function(
        "document.getElementById('offline-ready').textContent.includes('Ready to play offline')",
        timeout=60_000,
    )
    # Installable: Chromium finds nothing missing (manifest, icons, a worker that serves offline).
    devtools = context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest?lang=en") and not manifest["errors"]
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito profiles, where Chromium installs nothing at all.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []

    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#offline-state")
    assert "No connection" in page.inner_text("#offline-state")
    page.wait_for_selector("#offline-start", timeout=120_000)
    shot(page, "offline-home-en")
    accessible(page, "the offline home")

    # A whole game against a bot, with a reload in the middle.
    start_from_form(page, ["person", "medium"], ["Amal", ""], target=21)
    page.wait_for_selector(".hand button.card")
    page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])", timeout=30_000)
    page.click("#hint")  # the coach's hint, from the same analysis as online
    page.wait_for_selector("#hint-line", timeout=60_000)
    assert page.inner_text("#hint-line").startswith("Hint")
    for _ in range(4):  # by keyboard, as online: the digit plays that card of the hand
        page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])", timeout=30_000)
        card = page.locator(".hand button.card").first.get_attribute("data-card")
        page.keyboard.press("1")
        if page.locator(".choices .choice").count():
            page.keyboard.press("1")
        page.wait_for_selector(f".hand button.card[data-card='{card}']", state="detached")
    page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])", timeout=30_000)
    before = sorted(
        page.locator(".hand button.card").evaluate_all("b => b.map(x => x.dataset.card)")
    )
    plays_before = page.locator(".log > *").count()
    shot(page, "offline-table-en")
    accessible(page, "the offline table")
    wait_for(lambda: page.evaluate(SNAPSHOTS), "the engine's snapshot")
    page.reload()
    page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])", timeout=60_000)
    assert page.evaluate(ENGINE_START)["snapshot"] is True  # the engine came back from its snapshot
    after = sorted(
        page.locator(".hand button.card").evaluate_all("b => b.map(x => x.dataset.card)")
    )
    assert after == before and page.locator(".log > *").count() == plays_before
    play_until_over([page])
    shot(page, "offline-game-over-en")
    accessible(page, "the offline game's end")
    (game,) = stored(page)
    summary = game["summary"]
    assert summary["status"] == "over" and summary["names"] == ["Amal", "Bot 2 (medium)"]
    replayed = result_json(Record.from_json(game["save"]).replay())
    assert replayed["finished"] and replayed["score"] == summary["scores"]
    # The server's check makes every medium play again, on CPython: the page's are the same.
    result = {"scores": summary["scores"], "winner": summary["winner"], "finished": True}
    checked = check_offline_game({"save": game["save"], "seat": 0, "result": result})
    assert len(checked.bots_checked) >= 10

    # Pass and play: each hand hidden until its owner taps.
    page.goto(f"{site}/offline?lang=en&anim=fast")
    start_from_form(page, ["person", "person"], ["Amal", "Badr"], target=1)
    covers = 0
    while not page.locator("#game-over").count():
        page.wait_for_selector("#pass-cover, #game-over", timeout=30_000)
        if page.locator("#game-over").count():
            break
        title = page.inner_text("#pass-cover h1")
        assert (
            page.locator(".hand button.card").count() == 0
            or not page.locator(".hand button.card").first.is_visible()
        )
        if covers == 0:
            shot(page, "offline-pass-cover-en")
            accessible(page, "the pass-and-play cover")
            page.select_option("#lang", "ar")  # Arabic from here on: the cover and the table follow
            page.wait_for_function("document.documentElement.lang === 'ar'")
            page.wait_for_selector("html[dir=rtl] #pass-cover")
            title = page.inner_text("#pass-cover h1")
            assert "ناوِل الجهاز" in title
            shot(page, "offline-pass-cover-ar")
        covers += 1
        name = "Amal" if "Amal" in title else "Badr"
        page.click("#pass-ready")
        page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])", timeout=30_000)
        assert page.locator(".me .name").first.inner_text().startswith(name)
        if covers == 1:
            shot(page, "offline-table-ar")
        assert take_turn(page)
        page.wait_for_selector("#pass-cover, #game-over", timeout=30_000)
    assert covers >= 8  # one per play of the round
    page.select_option("#lang", "en")  # back to English
    page.wait_for_function("document.documentElement.lang === 'en'")
    games = stored(page)
    assert {g["summary"]["status"] for g in games} == {"over"} and len(games) == 2

    # "My games" offline: the games kept here.
    page.goto(f"{site}/games?lang=en")
    page.wait_for_selector("#offline-games")
    assert page.locator("#offline-games [data-offline-game]").count() == 2
    shot(page, "offline-my-games-en")
    accessible(page, "My games with the games kept here")
    # The table's rules link works offline too: the engine in the page knows the presets.
    page.goto(f"{site}/rules/egyptian?lang=en&rules=%7B%22target%22%3A21%7D")
    page.wait_for_selector(".rules [data-setting=target]")
    assert "21" in page.inner_text(".rules [data-setting=target]")

    # Online again: the games go to the server with this device's identity, and come back
    # in My games, the server's replay agreeing with the page.
    context.set_offline(False)
    with page.expect_request("**/api/offline/games", timeout=30_000) as sent:
        page.goto(f"{site}/games?lang=en")
    body = json.loads(sent.value.post_data or "{}")
    checked = check_offline_game(body)
    uploaded = next(g for g in games if g["id"] == checked.client_id)
    assert checked.result["score"] == uploaded["summary"]["scores"]
    assert checked.result["winner"] == uploaded["summary"]["winner"]
    assert sent.value.headers.get("authorization", "").startswith("Bearer ")
    response = sent.value.response()
    assert response is not None and response.status == 201
    kept = wait_for(
        lambda: (found := stored(page)) and all(g["uploaded"] for g in found) and found,
        "both games uploaded",
    )
    page.reload()
    page.wait_for_selector("li[data-game]")
    for game in kept:
        table_id = game["uploaded"]["id"]
        row = page.locator(f"li[data-game='{table_id}']")
        assert row.count() == 1 and "offline" in row.inner_text()
        replay = page.evaluate(
            "(id) => fetch(`/api/games/${id}/replay`).then((r) => r.json())", table_id
        )
        assert replay["result"]["score"] == game["summary"]["scores"]
        assert replay["result"]["winner"] == game["summary"]["winner"]
        assert replay["names"] == game["summary"]["names"]
    assert "uploaded" in page.inner_text("#offline-games")
    # Each game once (where it is kept: its upload is the same row), and every list has a
    # heading.
    assert page.locator("li[data-game], li[data-offline-game]").count() == len(kept)
    assert page.locator("main ul.list:not(section ul)").count() == 0
    shot(page, "offline-my-games-uploaded-en")
    accessible(page, "My games with the games uploaded")
    # The coach reviews the game against the bot.
    bot_game = next(g for g in kept if g["summary"]["kinds"] == ["person", "bot"])
    page.click(f"li[data-game='{bot_game['uploaded']['id']}'] a.review-link")
    page.wait_for_selector("#review-seats", timeout=120_000)
    assert "Amal" in page.inner_text("#review-seats")
    context.close()


def test_the_engine_start_says_how_far_it_is(browser: Any, site: str) -> None:
    """Starting the engine, the page says each step in words once, in a polite status
    region, with a bar for the eyes; the same once the snapshot makes it quick, and in
    Arabic in its words and digits."""
    context = browser.new_context(service_workers="allow")
    context.add_init_script(SAID)
    page = context.new_page()
    page.goto(f"{site}/offline?lang=en")
    page.wait_for_selector("#offline-start", timeout=120_000)
    said = page.evaluate("window.__said")
    steps = [
        "Starting the game engine, step 1 of 3: loading its files…",
        "Starting the game engine, step 2 of 3: starting Python…",
        "Starting the game engine, step 3 of 3: loading the rules and the bots…",
    ]
    assert [entry["words"] for entry in said] == ["Starting the game engine…", *steps]
    assert [entry["bar"] for entry in said] == [[0, 3], [1, 3], [2, 3], [3, 3]]
    for entry in said:  # announced politely (a status region), the bar only seen
        assert entry["role"] == "status" and entry["live"] in (None, "polite")
        assert entry["barHidden"] == "true"
    assert page.locator("#offline-loading").count() == 0  # gone with the form
    wait_for(lambda: page.evaluate(SNAPSHOTS), "the engine's snapshot")
    page.goto(f"{site}/offline?lang=ar")
    page.wait_for_selector("#offline-start", timeout=120_000)
    said = [entry["words"] for entry in page.evaluate("window.__said")]
    assert said[0] == "نشغّل محرّك اللعبة…" and len(said) == 4 and len(set(said)) == 4
    assert said[2] == "نشغّل محرّك اللعبة، الخطوة ٢ من ٣: نشغّل بايثون…"
    context.close()


def test_conformance_cases_in_the_page_answer_as_the_server(browser: Any, site: str) -> None:
    positions = json.loads((CONFORMANCE / "positions.json").read_text(encoding="utf-8"))
    games = []
    for path in sorted((CONFORMANCE / "games").glob("*.jsonl")):
        if not path.name.endswith(".results.jsonl"):
            games += [
                line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
            ]
    request = {"op": "conformance", "positions": positions, "games": games}
    server = call(request)
    page = browser.new_page()
    # A snapshot that does not load is dropped, and the engine starts the long way.
    page.goto(f"{site}/games?lang=en")
    page.evaluate(
        """async () => {
          const runtime = await (await fetch("/offline/runtime.json")).json();
          const { version, stdlib } = runtime.pyodide;
          const key = `/snapshot/${version}/${runtime.core.hash}/${stdlib.hash}`;
          await (await caches.open("engine-snapshots")).put(key, new Response("junk"));
        }"""
    )
    page.goto(f"{site}/offline?lang=en")
    page.wait_for_selector("#offline-start", timeout=120_000)
    assert page.evaluate(ENGINE_START)["snapshot"] is False
    size = """async () => {
      const cache = await caches.open("engine-snapshots");
      const [key] = await cache.keys();
      return key ? (await (await cache.match(key)).blob()).size : 0;
    }"""
    wait_for(lambda: page.evaluate(size) > 1_000_000, "new snapshot")  # kept again, whole
    in_page = page.evaluate(
        """async (request) => {
          const { offlineEngine } = await import("/static/offline/engine.js");
          const engine = await offlineEngine();
          const answer = await engine.call(request);
          const hello = await engine.call({ op: "hello" });
          return { answer, engine: hello.engine, python: hello.python };
        }""",
        request,
    )
    page.close()
    assert in_page["engine"] == "pure Python (the kernel is not built)"
    assert in_page["python"].startswith("3.")
    assert len(server["games"]) == len(games) > 200
    assert in_page["answer"]["positions"] == server["positions"]
    assert in_page["answer"]["games"] == server["games"]
    assert sum("error" in g for g in server["games"]) == 7  # errors.jsonl's unsound records


def test_a_new_deploy_is_offered_and_fetches_only_what_changed(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    static = tmp_path / "static"
    shutil.copytree(pages.STATIC, static)
    monkeypatch.setattr(pages, "STATIC", static)
    with ServerThread(app_module.AppConfig(database="memory", service=FAST)) as server:
        context = browser.new_context(service_workers="allow")
        page = context.new_page()
        page.goto(f"{server.url}/?lang=en")
        installed(page)
        page.reload()  # now the page runs on the kept files
        style = static / "offline" / "offline.css"
        old = style.read_text(encoding="utf-8")
        style.write_text(old + "\n/* a new deploy */\n", encoding="utf-8")
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.wait_for_selector("#update-bar", timeout=120_000)
        assert "new version" in page.inner_text("#update-bar")
        # Until the person chooses, the page keeps running on the old files, whole.
        kept = page.evaluate("fetch('/static/offline/offline.css').then((r) => r.text())")
        assert "a new deploy" not in kept
        shot(page, "offline-update-offer-en")
        with page.expect_navigation(timeout=60_000):
            page.click("#update-reload")
        installed(page)
        now = page.evaluate("fetch('/static/offline/offline.css').then((r) => r.text())")
        assert "a new deploy" in now
        listing = page.evaluate(
            """async () => {
              const names = (await caches.keys()).filter((n) => n.startsWith("basra-"));
              const cache = await caches.open(names[0]);
              return { names, listing: await (await cache.match("/__precache.json")).json() };
            }"""
        )
        assert len(listing["names"]) == 1  # the old version's cache is gone
        assert listing["listing"]["fetched"] == len(style.read_bytes())  # only the changed file
        context.close()


def test_a_server_without_the_runtime_says_so(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BASRA_PYODIDE", str(tmp_path / "none"))
    with ServerThread(app_module.AppConfig(database="memory", service=FAST)) as server:
        page = browser.new_page()
        page.goto(f"{server.url}/offline?lang=en")
        page.wait_for_selector("#offline-error")
        assert "not installed" in page.inner_text("#offline-error")
        page.goto(f"{server.url}/?lang=en")
        page.wait_for_selector("#create")  # online play is all there
        page.close()


def test_direct_link_and_the_pages_on_a_phone(browser: Any, site: str) -> None:
    """``/offline?variant=V&level=L`` starts a 2-player game against that bot at once;
    the offline pages at 390x844 in Arabic and English."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        service_workers="allow",
    )
    # Run as an installed app (standalone): the engine gets ready in the background.
    context.add_init_script(
        """const matchMedia = window.matchMedia.bind(window);
        window.matchMedia = (query) => query === "(display-mode: standalone)"
          ? { matches: true, media: query, addEventListener() {}, removeEventListener() {} }
          : matchMedia(query);"""
    )
    page = context.new_page()
    page.goto(f"{site}/?lang=ar")
    wait_for(lambda: page.evaluate(SNAPSHOTS), "the engine's snapshot, made in the background")
    page.goto(f"{site}/offline?variant=lebanese&level=hard&lang=ar&anim=fast")
    page.wait_for_selector(".hand button.card", timeout=120_000)
    assert page.evaluate(ENGINE_START)["snapshot"] is True  # its first start here
    assert "/offline/g/" in page.url
    assert page.evaluate("document.documentElement.dir") == "rtl"
    (game,) = stored(page)
    assert game["summary"]["variant"] == "lebanese"
    assert game["summary"]["levels"] == [None, "hard"] and game["summary"]["players"] == 2
    time.sleep(0.3)
    shot(page, "offline-table-ar-phone")
    accessible(page, "the offline table (ar, phone)")
    # The hard bot's search in WebAssembly decides as the server's does (its seed is a
    # stable hash, not hash()): the server makes each of its plays again and agrees.
    while len(stored(page)[0]["save"]["rounds"][0]["plays"]) < 6:
        page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])")
        take_turn(page)
        page.wait_for_timeout(200)
    (game,) = stored(page)
    summary = game["summary"]
    result = {"scores": summary["scores"], "winner": summary["winner"], "finished": False}
    checked = check_offline_game({"save": game["save"], "seat": 0, "result": result})
    assert len(checked.bots_checked) >= 2
    for lang in ("ar", "en"):
        page.goto(f"{site}/offline?lang={lang}&anim=fast")
        page.wait_for_selector("#offline-start", timeout=60_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing overflows
        shot(page, f"offline-home-{lang}-phone")
        accessible(page, f"the offline home ({lang}, phone)")
    start_from_form(page, ["person", "person"], ["Amal", "Badr"], 31)
    page.wait_for_selector("#pass-cover")
    shot(page, "offline-pass-cover-en-phone")
    page.click("#pass-ready")
    page.wait_for_selector(".me.turn .hand button.card:not([aria-disabled])")
    time.sleep(0.3)
    shot(page, "offline-table-en-phone")
    context.close()
