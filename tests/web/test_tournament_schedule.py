"""The server's own events: the operator's TOML schedule, read and checked, and each of its
events made once, by whichever process holds the lease, before its start."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from tests.web.helpers import file_store, sharing
from tests.web.tourney import QUICK, SERVICE

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.tournaments import (
    DEFAULT_SCHEDULE,
    ScheduleError,
    load_schedule,
    read_schedule,
)
from basra.server.runtime.pubsub import MemoryHub

ENTRY = """
[[tournaments]]
name = "Evening Swiss"
format = "swiss"
variant = "lebanese"
seats = 4
teams = true
every = "day"
at = "19:30"
announce = "2h"
rounds = 4
clock = { move = 20, reserve = 40 }
"""


def utc(*parts: int) -> float:
    return dt.datetime(*parts, tzinfo=dt.UTC).timestamp()


def test_the_shipped_schedule_reads_and_names_every_format() -> None:
    entries = load_schedule(DEFAULT_SCHEDULE)
    assert {e.settings.format for e in entries} == {"arena", "swiss", "duplicate"}
    assert {e.every for e in entries} == {"hour", "day", "week"}


def test_an_entry_and_its_starts() -> None:
    (entry,) = read_schedule(tomllib.loads(ENTRY))
    assert entry.name == "Evening Swiss" and entry.settings.teams and entry.settings.rounds == 4
    assert (entry.settings.move_seconds, entry.settings.reserve_seconds) == (20, 40)
    assert entry.announce == 7200
    starts = entry.starts(utc(2026, 11, 27, 12, 0), utc(2026, 11, 29, 12, 0))
    assert starts == [utc(2026, 11, 27, 19, 30), utc(2026, 11, 28, 19, 30)]
    assert entry.key(starts[0]) == "Evening Swiss|2026-11-27T19:30Z"
    weekly = read_schedule(
        tomllib.loads(
            '[[tournaments]]\nname = "W"\nformat = "duplicate"\nrounds = 3\nevery = "week"\n'
            'at = "sun 18:00"\n'
        )
    )[0]
    (sunday,) = weekly.starts(utc(2026, 11, 26, 0, 0), utc(2026, 12, 2, 0, 0))
    assert dt.datetime.fromtimestamp(sunday, dt.UTC) == dt.datetime(
        2026, 11, 29, 18, 0, tzinfo=dt.UTC
    )
    hourly = read_schedule(
        tomllib.loads(
            '[[tournaments]]\nname = "H"\nformat = "arena"\nminutes = 30\n'
            'every = "hour"\nat = ":15"\n'
        )
    )[0]
    assert hourly.starts(utc(2026, 11, 27, 10, 20), utc(2026, 11, 27, 12, 0)) == [
        utc(2026, 11, 27, 11, 15)
    ]
    assert read_schedule({}) == ()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ('every = "month"', "every must be one of hour, day, week"),
        ('at = "25:00"', 'at must be "HH:MM"'),
        ("rounds = 99", "rounds must be a whole number from 1 to 30"),
        ('announce = "soon"', "announce is minutes"),
        ('bot_entrants = ["genius"]', "bot_entrants is a list of levels"),
        ('bot_entrants = ["easy"]', "bot_entrants needs bots = true"),
        ('colour = "red"', "unknown settings: colour"),
    ],
)
def test_a_bad_entry_is_refused_naming_it(change: str, words: str) -> None:
    key = change.split(" = ")[0]
    lines = [line for line in ENTRY.splitlines() if not line.startswith(f"{key} =")]
    with pytest.raises(ScheduleError) as refused:
        read_schedule(tomllib.loads("\n".join([*lines, change])))
    assert "'Evening Swiss'" in str(refused.value) and words in str(refused.value)


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text("[[tournaments]\nname = ", encoding="utf-8")
    with pytest.raises(ScheduleError, match="not TOML"):
        load_schedule(path)
    with pytest.raises(ScheduleError, match="two entries are named"):
        read_schedule(tomllib.loads(ENTRY + ENTRY))


def test_the_schedules_events_are_made_once_across_processes() -> None:
    text = (
        '[[tournaments]]\nname = "Hourly"\nformat = "arena"\nminutes = 30\nevery = "hour"\n'
        'at = ":00"\nannounce = 120\nbots = true\nbot_entrants = ["easy", "hard"]\n'
    )
    config = AppConfig(
        service=SERVICE,
        tournaments=replace(QUICK, schedule=read_schedule(tomllib.loads(text)), schedule_every=0.1),
    )

    async def scenario() -> None:
        store, hub = file_store(), MemoryHub()
        envs = [
            Env(config, store=store, hub=hub, origin="one"),
            Env(config, store=sharing(store), hub=hub.attach(), origin="two"),
        ]
        for env in envs:
            await env.start(resume=False)
        await asyncio.sleep(1.0)
        for env in envs:
            await env.close()
        store = sharing(store)  # the database, read once both processes have stopped
        await store.start()
        upcoming = await store.tournaments.listing(("created",), 50)
        now = time.time()
        # The next two hours' starts, each made once, with its bots entered.
        assert len(upcoming) == 2 and all(now < r.starts_at <= now + 7200 for r in upcoming)
        assert len({r.schedule_key for r in upcoming}) == 2
        changes = await store.tournaments.changes(upcoming[0].id, 0)
        assert changes is not None
        assert sorted(e.data["members"][0]["ref"] for e in changes.entrants) == ["easy", "hard"]
        await store.close()

    asyncio.run(scenario())


def test_an_entry_names_its_events_in_other_languages() -> None:
    text = ENTRY.replace(
        'name = "Evening Swiss"\n',
        'name = "Evening Swiss"\nnames = { ar = " سويسري المساء ", fr = "Suisse du soir" }\n',
    )
    (entry,) = read_schedule(tomllib.loads(text))
    assert entry.name == "Evening Swiss"
    assert entry.names == {"ar": "سويسري المساء", "fr": "Suisse du soir"}
    assert read_schedule(tomllib.loads(ENTRY))[0].names == {}


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ('"Suisse"', "names is a table of names by language"),
        ('{ xx = "Swiss" }', "names.xx: not a language of the page (en, ar, el, fr)"),
        ('{ fr = "" }', "names.fr must be text of 1 to 80 characters"),
        ("{ fr = 3 }", "names.fr must be text"),
        (f'{{ fr = "{"x" * 81}" }}', "names.fr must be text of 1 to 80 characters"),
    ],
)
def test_a_bad_name_in_another_language_is_refused_naming_it(names: str, words: str) -> None:
    with pytest.raises(ScheduleError) as refused:
        read_schedule(tomllib.loads(ENTRY + f"names = {names}\n"))
    assert "'Evening Swiss'" in str(refused.value) and words in str(refused.value)


def test_the_shipped_schedule_names_every_event_in_every_language() -> None:
    for entry in load_schedule(DEFAULT_SCHEDULE):
        assert set(entry.names) == {"ar", "el", "fr"}, entry.name
        assert all(name != entry.name for name in entry.names.values()), entry.name


def test_a_scheduled_event_carries_its_names_until_an_operator_renames_it() -> None:
    text = (
        '[[tournaments]]\nname = "Hourly"\nnames = { ar = "كل ساعة", el = "Ωριαίο" }\n'
        'format = "arena"\nminutes = 30\nevery = "hour"\nat = ":00"\nannounce = 120\n'
    )
    config = AppConfig(
        service=SERVICE,
        tournaments=replace(QUICK, schedule=read_schedule(tomllib.loads(text)), schedule_every=0.1),
    )

    async def scenario() -> None:
        env = Env(config, hub=MemoryHub(), origin="one")
        await env.start(resume=False)
        try:
            for _ in range(100):
                listed = (await env.tournaments.listing(None))["upcoming"]
                if listed:
                    break
                await asyncio.sleep(0.05)
            first = listed[0]
            assert first["name"] == "Hourly" and first["scheduled"]
            assert first["names"] == {"ar": "كل ساعة", "el": "Ωριαίο"}
            detail = await env.tournaments.detail(first["id"], None)
            assert detail["names"] == first["names"]
            # An operator's new title is the event's in every language.
            await env.tournaments.retitle(first["id"], "Hourly, renamed")
            renamed = await env.tournaments.detail(first["id"], None)
            assert renamed["name"] == "Hourly, renamed" and "names" not in renamed
        finally:
            await env.close()

    asyncio.run(scenario())
