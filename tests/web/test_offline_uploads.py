"""Offline uploads cost the server a bounded share, never its loop (issue 30, hole 6).

An upload is refused on its shape before any replay; the replay runs as one job
on the workers' fair scheduler, in the person's own queue; a hard bot's
decisions go there a few at a time, never the whole game's at once; and the
checks under way are capped per person, per address and per process, the
uploads rationed per person and per address.
"""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import FAST
from tests.web.test_offline import play_out, upload_of

from basra.server.app import AppConfig, create_app
from basra.server.env import Env
from basra.server.features import offline_check
from basra.server.features.offline import OfflineConfig
from basra.server.features.offline_check import ForgedRecordError, check_offline_game
from basra.server.identity import Caller
from basra.server.quotas import Rate, RateLimitError
from basra.server.runtime.scheduler import BACKGROUND, FairScheduler


def roomy(**changes: Any) -> OfflineConfig:
    """Uploads rationed so that no test meets the rations unless it means to."""
    return OfflineConfig(
        **{"uploads_per_identity": Rate(1000, 1), "uploads_per_address": Rate(1000, 1), **changes}
    )


@pytest.fixture(scope="module")
def long_game() -> dict[str, Any]:
    """A whole 2-player game against the medium bot, to 301 (hundreds of plays)."""
    settings = {"id": "long", "seats": ["person", "medium"], "names": ["Amal", None], "seed": 3}
    return upload_of(play_out({**settings, "rules": {"target": 301}}, random.Random(4)))


@pytest.fixture(scope="module")
def hard_game() -> dict[str, Any]:
    """The start of a game against the hard bot, played as the page plays it."""
    settings = {"id": "hard", "seats": ["person", "hard"], "names": ["Amal", None], "seed": 5}
    with pytest.MonkeyPatch.context() as page:  # the page's search has no compiled kernel
        page.setattr("basra.bots.ismcts.search_module", lambda: None)
        return upload_of(play_out(settings, random.Random(1), stop_after=12))


async def started(offline: OfflineConfig | None = None) -> Env:
    env = Env(AppConfig(service=FAST, offline=offline or roomy()))
    await env.start(resume=False)
    return env


async def person(env: Env, where: str = "203.0.113.1") -> Caller:
    return (await env.identities.create(where)).caller


class Watched:
    """The environment's scheduler, noting each job asked of it and how many wait at once
    (a ``gate`` holds every job until it is set)."""

    def __init__(self, inner: FairScheduler, gate: asyncio.Event | None = None) -> None:
        self.inner = inner
        self.jobs: list[tuple[str, int, str]] = []
        self.waiting = 0
        self.most_waiting = 0
        self.gate = gate

    async def run(self, table: str, rank: int, fn: Callable[..., Any], *args: Any) -> Any:
        self.jobs.append((table, rank, fn.__name__))
        self.waiting += 1
        self.most_waiting = max(self.most_waiting, self.waiting)
        try:
            if self.gate is not None:
                await self.gate.wait()
            return await self.inner.run(table, rank, fn, *args)
        finally:
            self.waiting -= 1


def watched(env: Env, gate: asyncio.Event | None = None) -> Watched:
    scheduler = Watched(env.scheduler, gate)
    env.offline.scheduler = scheduler  # type: ignore[assignment]
    return scheduler


def cut(upload: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    changed = copy.deepcopy(upload)
    edit(changed["save"])
    return changed


def test_a_malformed_upload_is_refused_before_any_replay(
    long_game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds = len(long_game["save"]["rounds"])
    assert rounds >= 4 and sum(len(r["plays"]) for r in long_game["save"]["rounds"]) > 150
    replayed: list[str] = []
    parse_move = offline_check.parse_move

    def counted(state: Any, text: str) -> Any:
        replayed.append(text)
        return parse_move(state, text)

    monkeypatch.setattr(offline_check, "parse_move", counted)
    malformed = {
        "too_many_plays": lambda s: s["rounds"][-1]["plays"].extend(["7S"] * 60),
        "short_pack": lambda s: s["rounds"][-1]["pack"].pop(),
        "round_cut_short": lambda s: s["rounds"][1]["plays"].pop(),
        "too_many_rounds": lambda s: s["rounds"].extend(s["rounds"] * 10),
    }

    async def scenario() -> dict[str, str]:
        env = await started()
        scheduler = watched(env)
        caller = await person(env)
        codes = {}
        try:
            for name, edit in malformed.items():
                with pytest.raises(ForgedRecordError) as refused:
                    await env.offline.upload(caller, cut(long_game, edit), "203.0.113.1")
                codes[name] = f"{refused.value.code}: {refused.value.message}"
            bad_result = copy.deepcopy(long_game)
            bad_result["result"]["scores"] = "many"
            with pytest.raises(ForgedRecordError) as refused:
                await env.offline.upload(caller, bad_result, "203.0.113.1")
            codes["bad_result"] = refused.value.code
            assert scheduler.jobs == [], scheduler.jobs
        finally:
            await env.close()
        return codes

    codes = asyncio.run(scenario())
    assert replayed == [], f"{len(replayed)} plays replayed before the refusal"
    assert codes["too_many_plays"].startswith("bad_record: round ")
    assert "at most 48 plays" in codes["too_many_plays"]
    assert "a pack has 52 cards" in codes["short_pack"]
    assert codes["round_cut_short"] == "bad_record: round 2 ends before its 48 plays"
    assert "at most 60 rounds" in codes["too_many_rounds"]
    assert codes["bad_result"] == "bad_request"
    # The same game whole is sound, and the check sees it so too.
    assert check_offline_game(long_game).finished


def test_the_replay_runs_on_the_workers_in_the_persons_queue(
    long_game: dict[str, Any], hard_game: dict[str, Any]
) -> None:
    async def scenario() -> list[tuple[str, int, str]]:
        env = await started()
        scheduler = watched(env)
        try:
            caller = await person(env)
            stored = await env.offline.upload(caller, long_game, "203.0.113.1")
            assert stored.created and stored.status == "over"
            hard = await env.offline.upload(caller, hard_game, "203.0.113.1")
            assert hard.created and hard.status == "unfinished"
            queue = f"offline:{caller.identity}"
            assert {(table, rank) for table, rank, _ in scheduler.jobs} == {(queue, BACKGROUND)}
            return scheduler.jobs
        finally:
            await env.close()

    jobs = asyncio.run(scenario())
    names = [name for _, _, name in jobs]
    assert names[0] == names[1] == "replay_upload"
    assert names[2:] and set(names[2:]) == {"page_bot_move"}  # the hard bot's, one by one


def test_a_hard_games_decisions_queue_a_few_at_a_time(hard_game: dict[str, Any]) -> None:
    """Offline games against hard bots once put every decision of the game (hundreds) on
    the workers' queue at once; now at most ``decisions_at_once`` of an upload wait there,
    and the first that differs drops the rest."""
    decisions = check_offline_game(hard_game, defer=("hard",)).deferred
    assert len(decisions) >= 4
    many = list(decisions) * 20  # a long game's worth: the same decisions, made again

    async def scenario() -> tuple[Watched, Watched, int]:
        env = await started()
        try:
            scheduler = watched(env)
            await env.offline.make_again("someone", many)
            forged_at = 7
            wrong = replace(many[forged_at], move=many[forged_at + 1].move)
            if wrong.move == many[forged_at].move:
                wrong = replace(many[forged_at], move=many[forged_at + 2].move)
            assert wrong.move != many[forged_at].move
            stopped = watched(env)
            with pytest.raises(ForgedRecordError) as refused:
                await env.offline.make_again(
                    "someone", [*many[:forged_at], wrong, *many[forged_at + 1 :]]
                )
            assert refused.value.code == "wrong_bot_play"
            return scheduler, stopped, len(many)
        finally:
            await env.close()

    scheduler, stopped, count = asyncio.run(scenario())
    assert len(scheduler.jobs) == count and scheduler.most_waiting == 2
    assert stopped.most_waiting <= 2 and len(stopped.jobs) <= 7 + 1 + 2


def test_checks_under_way_are_capped_per_person_address_and_server(
    long_game: dict[str, Any],
) -> None:
    config = roomy(checks_per_identity=2, checks_per_address=3, checks=4)

    async def scenario() -> list[str]:
        env = await started(config)
        gate = asyncio.Event()
        watched(env, gate)
        upload = env.offline.upload
        refusals: list[str] = []

        async def refused(attempt: Awaitable[Any]) -> None:
            with pytest.raises(RateLimitError) as caught:
                await attempt
            assert caught.value.retry_after > 0 and "at most" in caught.value.message
            refusals.append(caught.value.limit)

        def game(number: int) -> dict[str, Any]:
            return cut(long_game, lambda s: s["basra_offline"].update(id=f"g{number}"))

        try:
            amal, badr, carim = [await person(env, "198.51.100.7") for _ in range(3)]
            dana = await person(env, "192.0.2.9")
            first = [asyncio.create_task(upload(amal, game(n), "198.51.100.7")) for n in (1, 2)]
            await asyncio.sleep(0.05)
            await refused(upload(amal, game(3), "198.51.100.7"))
            second = asyncio.create_task(upload(badr, game(4), "198.51.100.7"))
            await asyncio.sleep(0.05)
            await refused(upload(carim, game(5), "198.51.100.7"))
            third = asyncio.create_task(upload(dana, game(6), "192.0.2.9"))
            await asyncio.sleep(0.05)
            await refused(upload(await person(env, "192.0.2.10"), game(7), "192.0.2.10"))
            gate.set()
            kept = await asyncio.gather(*first, second, third)
            assert all(stored.created for stored in kept)
            # Once they are done, each may upload again.
            assert (await upload(amal, game(8), "198.51.100.7")).created
            return refusals
        finally:
            await env.close()

    assert asyncio.run(scenario()) == [
        "offline_checks",
        "offline_checks_address",
        "offline_checks_server",
    ]


def test_uploads_are_rationed_per_person_and_per_address(long_game: dict[str, Any]) -> None:
    config = OfflineConfig(uploads_per_identity=Rate(2, 3600), uploads_per_address=Rate(3, 3600))

    async def scenario() -> list[str]:
        env = await started(config)
        limits = []
        try:
            amal, badr = [await person(env, "198.51.100.8") for _ in range(2)]
            for who in (amal, amal, amal, badr, badr):
                try:
                    await env.offline.upload(who, long_game, "198.51.100.8")
                    limits.append("kept")
                except RateLimitError as error:
                    limits.append(error.limit)
        finally:
            await env.close()
        return limits

    assert asyncio.run(scenario()) == ["kept", "kept", "offline", "kept", "offline_address"]
    # By default an address may upload 60 an hour (it was 1,200: 60 per person, 20 people).
    assert OfflineConfig().uploads_per_address.count == 60


def test_a_round_cut_short_is_a_clear_refusal_not_a_server_error(
    long_game: dict[str, Any],
) -> None:
    """A round cut short with another after it once reached the replay's next deal, which
    raised past the check: a 500 with a traceback."""
    cut_short = cut(long_game, lambda s: s["rounds"][1]["plays"].pop())
    app = create_app(AppConfig(service=FAST))
    with TestClient(app, raise_server_exceptions=False) as client:
        token = client.post("/api/identity", json={}).json()["token"]
        answer = client.post(
            "/api/offline/games", json=cut_short, headers={"Authorization": f"Bearer {token}"}
        )
    assert answer.status_code == 422, answer.text
    assert answer.json() == {
        "error": "bad_record",
        "message": "round 2 ends before its 48 plays",
        "round": 1,
    }


def test_the_same_upload_sent_twice_at_once_is_checked_once(long_game: dict[str, Any]) -> None:
    """An upload's check is a job of the server's job queue keyed by the person and the
    upload: the same game sent twice at once (a retry while the first is still checked)
    is replayed once and both requests are answered; another person's is their own."""

    async def scenario() -> tuple[list[str], list[bool], bool]:
        env = await started()
        gate = asyncio.Event()
        scheduler = watched(env, gate)
        try:
            amal, badr = await person(env), await person(env)
            both = [
                asyncio.create_task(env.offline.upload(amal, long_game, "203.0.113.1"))
                for _ in range(2)
            ]
            other = asyncio.create_task(env.offline.upload(badr, long_game, "203.0.113.2"))
            await asyncio.sleep(0.1)
            gate.set()
            kept = await asyncio.gather(*both)
            mine = await other
            names = [name for _, _, name in scheduler.jobs]
            same = kept[0].table_id == kept[1].table_id != mine.table_id
            return names, sorted(stored.created for stored in kept), same
        finally:
            await env.close()

    names, created, same = asyncio.run(scenario())
    assert names == ["replay_upload", "replay_upload"]  # Amal's once, Badr's once
    assert created == [False, True] and same
