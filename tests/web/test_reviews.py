"""Reviews in the web app: finished games only, background jobs with progress, stored and
served again without being worked out, within each person's quota."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    TEST_LIMITS,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    play_to_end,
)

from basra.kernel import search_module
from basra.server.app import AppConfig
from basra.server.features.reviews import ReviewConfig
from basra.server.quotas import Rate

QUICK = ReviewConfig(samples=40, hindsight=False, progress_every=0.0)
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]


def finished_game(base: str, token: str, target: int = 20) -> tuple[str, dict[str, Any]]:
    """An all-bot table played to its end; its id and its last state message."""
    table = create_table(base, token, seats=BOTS, my_seat=None, rules={"target": target})
    watcher = Player(base, table, watch_only=True)
    try:
        last = watcher.wait(lambda m: m["type"] == "state" and m["view"]["over"], timeout=60)
    finally:
        watcher.close()
    return table, last


def review_done(base: str, table: str, timeout: float = 120) -> dict[str, Any]:
    """Poll the review until it is done; every answer on the way is a progress report."""
    deadline = time.time() + timeout
    seen = []
    while True:
        status, body = http(base + f"/api/games/{table}/review")
        assert status == 200, body
        seen.append(body["status"])
        if body["status"] == "done":
            assert "review" in body
            return dict(body)
        assert body["status"] in ("queued", "running"), body
        assert 0 <= body["done"] <= max(body["total"], 0)
        assert time.time() < deadline, seen
        time.sleep(0.1)


def test_a_finished_game_is_reviewed_once_and_served_from_the_store(tmp_path: Path) -> None:
    # Worker processes, as served: each decision's spot travels to one and back.
    config = AppConfig(
        database=str(tmp_path / "basra.db"),
        service=replace(FAST, bot_processes=2),
        reviews=replace(QUICK, hindsight=True),
    )
    with ServerThread(config) as server:
        base = server.url
        token = new_token(base)
        table, last = finished_game(base, token)
        status, body = http(base + f"/api/games/{table}/review")
        assert (status, body["status"]) == (200, "none")
        status, body = http(base + f"/api/games/{table}/review", {}, token=token)
        assert status == 202 and body["status"] in ("queued", "running", "done")
        answer = review_done(base, table)
        review = answer["review"]
        assert answer["done"] == answer["total"] > 0
        plays = sum(
            len(r["plays"])
            for r in http(base + f"/api/games/{table}/replay")[1]["result"]["rounds"]
        )
        assert len(review["decisions"]) == plays
        assert review["format"] == "basra-review/1" and review["samples"] == QUICK.samples
        assert [s["seat"] for s in review["seats"]] == [0, 1]
        # Who sat there, for the page to name the bots in its own language.
        assert [(s["kind"], s["level"], s["number"]) for s in answer["seats"]] == [
            ("bot", "easy", 1),
            ("bot", "medium", 2),
        ]
        reviews = server.app.state.env.reviews
        assert reviews.finished == 1
        # Asked again, by anyone: served as stored.
        other = new_token(base)
        status, again = http(base + f"/api/games/{table}/review", {}, token=other)
        assert status == 200 and again["review"] == review
        assert reviews.finished == 1
        assert last["view"]["scores"] == review["rounds"][-1]["points"] or len(review["rounds"]) > 1
        # The hindsight analysis is there, and labelled as such.
        graded = [d for d in review["decisions"] if d["label"] != "forced"]
        assert all(set(d["hindsight"]) >= {"best", "points", "loss"} for d in graded)
    # A restarted server serves it without working it out again.
    with ServerThread(config) as server:
        status, body = http(server.url + f"/api/games/{table}/review")
        assert status == 200 and body["status"] == "done" and body["review"] == review
        assert server.app.state.env.reviews.finished == 0


def played_game(base: str, token: str, seat: int) -> str:
    """A person (``token``, at ``seat``) against an easy bot, played to its end."""
    seats: list[dict[str, Any]] = [{"kind": "bot", "level": "easy"}] * 2
    seats[seat] = {"kind": "person"}
    table = create_table(base, token, seats=seats, my_seat=seat, rules={"target": 20})
    player = Player(base, table, token)
    try:
        play_to_end([player])
    finally:
        player.close()
    return table


def profile_after(base: str, token: str, games: int) -> dict[str, Any]:
    """The profile once ``games`` of the person's games are settled."""
    deadline = time.time() + 10
    while True:
        status, profile = http(base + "/api/profile", token=token)
        assert status == 200, profile
        if profile["totals"]["games"] >= games:
            return dict(profile)
        assert time.time() < deadline, "the games were not settled"
        time.sleep(0.05)


@pytest.mark.parametrize("database", ["sqlite", "memory"])
def test_a_profile_shows_the_accuracy_of_the_persons_reviewed_games(
    tmp_path: Path, database: str
) -> None:
    where = str(tmp_path / "basra.db") if database == "sqlite" else "memory"
    config = AppConfig(database=where, service=FAST, reviews=QUICK)
    with ServerThread(config) as server:
        base = server.url
        amal, badr = new_token(base), new_token(base)
        first = played_game(base, amal, seat=0)
        assert profile_after(base, amal, 1)["review_accuracy"] is None
        # Asked for by someone else: the review counts for whoever played the game.
        assert http(base + f"/api/games/{first}/review", {}, token=badr)[0] == 202
        one = review_done(base, first)["review"]["seats"][0]["accuracy"]
        assert 0 <= one <= 100
        assert profile_after(base, amal, 1)["review_accuracy"] == {"mean": one, "games": 1}
        # Badr asked, but did not play: nothing of it is his.
        assert http(base + "/api/profile", token=badr)[1]["review_accuracy"] is None
        # A game at seat 2 counts that seat's accuracy; a game without a review, nothing.
        second = played_game(base, amal, seat=1)
        played_game(base, amal, seat=0)
        assert http(base + f"/api/games/{second}/review", {}, token=amal)[0] == 202
        two = review_done(base, second)["review"]["seats"][1]["accuracy"]
        accuracy = profile_after(base, amal, 3)["review_accuracy"]
        assert accuracy == {"mean": round((one + two) / 2, 1), "games": 2}


def test_no_review_of_a_game_in_play_or_of_no_game(tmp_path: Path) -> None:
    config = AppConfig(database=str(tmp_path / "basra.db"), service=FAST, reviews=QUICK)
    with ServerThread(config) as server:
        base = server.url
        token = new_token(base)
        table = create_table(base, token, seats=[{"kind": "person"}, BOTS[0]])
        amal = Player(base, table, token)
        amal.wait_type("state")
        for answer in (
            http(base + f"/api/games/{table}/review"),
            http(base + f"/api/games/{table}/review", {}, token=token),
        ):
            status, body = answer
            assert status == 409 and body["error"] == "not_over", body
        amal.close()
        status, body = http(base + "/api/games/nosuchgame/review")
        assert status == 404 and body["error"] == "no_such_table"
        status, body = http(base + "/api/games/" + "x" * 200 + "/review", {}, token=token)
        assert status == 404
        status, body = http(base + f"/api/games/{table}/review", {})
        assert status == 401 and body["error"] == "signed_out"


def test_reviews_are_rationed_per_person(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, reviews_per_identity=Rate(2, 3600))
    config = AppConfig(
        database=str(tmp_path / "basra.db"),
        service=replace(FAST, limits=limits),
        reviews=QUICK,
    )
    with ServerThread(config) as server:
        base = server.url
        token = new_token(base)
        games = [finished_game(base, token)[0] for _ in range(3)]
        for table in games[:2]:
            status, _ = http(base + f"/api/games/{table}/review", {}, token=token)
            assert status in (200, 202)
        status, body = http(base + f"/api/games/{games[2]}/review", {}, token=token)
        assert status == 429 and body["error"] == "rate_limited" and body["limit"] == "reviews"
        # Asking for a review already asked for costs nothing.
        status, _ = http(base + f"/api/games/{games[0]}/review", {}, token=token)
        assert status in (200, 202)
        # Someone else may still ask.
        status, _ = http(base + f"/api/games/{games[2]}/review", {}, token=new_token(base))
        assert status in (200, 202)
        for table in games:
            review_done(base, table)


def test_reviews_in_waiting_are_capped_per_person(tmp_path: Path) -> None:
    limits = replace(TEST_LIMITS, reviews_pending_per_identity=1)
    # Slow enough to be still waiting when the second is asked for, on either engine:
    # seconds a review (the default's 8,000 samples take about 0.8 s a round compiled),
    # against the milliseconds between the two requests.
    slow = replace(QUICK, samples=40_000 if search_module() else 300, concurrency=1)
    config = AppConfig(
        database=str(tmp_path / "basra.db"), service=replace(FAST, limits=limits), reviews=slow
    )
    with ServerThread(config) as server:
        base = server.url
        token = new_token(base)
        first, second = (finished_game(base, token)[0] for _ in range(2))
        status, body = http(base + f"/api/games/{first}/review", {}, token=token)
        assert status == 202, body
        status, body = http(base + f"/api/games/{second}/review", {}, token=token)
        assert status == 429 and body["limit"] == "reviews", body
        assert "at most 1 at once" in body["message"]
        review_done(base, first)
        status, body = http(base + f"/api/games/{second}/review", {}, token=token)
        assert status in (200, 202)
        review_done(base, second)


def test_review_work_waits_for_everything_else_and_never_takes_the_last_worker() -> None:
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from basra.server.runtime.scheduler import BACKGROUND, HINT, PLAY, REVIEW, FairScheduler

    def note(order: list[str], name: str, gate: threading.Event | None = None) -> str:
        if gate is not None:
            gate.wait(5)
        order.append(name)
        return name

    async def scenario() -> list[str]:
        scheduler = FairScheduler(lambda: ThreadPoolExecutor(2), 2)
        order: list[str] = []
        gate = threading.Event()
        first = asyncio.create_task(scheduler.run("game", REVIEW, note, order, "review0", gate))
        await asyncio.sleep(0.05)
        queued = [
            asyncio.create_task(scheduler.run("game", REVIEW, note, order, "review1")),
            asyncio.create_task(scheduler.run("bots", BACKGROUND, note, order, "background")),
            asyncio.create_task(scheduler.run("hinter", HINT, note, order, "hint")),
        ]
        await asyncio.sleep(0.05)
        assert order == []  # the second worker is kept for people's bots
        person = asyncio.create_task(scheduler.run("person", PLAY, note, order, "person"))
        await asyncio.sleep(0.05)
        assert order == ["person"]  # ... and it takes it at once
        gate.set()
        await asyncio.gather(first, person, *queued)
        scheduler.shutdown()
        return order

    assert asyncio.run(scenario()) == ["person", "review0", "hint", "background", "review1"]
