"""Admission: every table anyone makes is counted in the one place the caps live.

Issue 30: an event's tables were made with no caps, so one account's two arenas of
32 bots each held 32 all-bot tables at once (caps: 1 per person, 20 on the server)
while another person's plain all-bot table was refused. Now an event's bots-only
tables count against the event, its maker and the server, and wait for room; its
tables with a person seated are made even when the caps are full. Events are capped
per address beside per person (four accounts on one address held 12 unfinished
events), and so are reports (one address filed 110 in seconds); the operator's list
of reports pages with a cursor.

Checked over HTTP on SQLite, with tournaments, quick play and uploads at once, and
against two ``basra serve`` processes on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import (
    FAST,
    ROOMY,
    TEST_LIMITS,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    play_to_end,
    server_process,
)
from tests.web.test_caps import ALL_BOTS, PEOPLE, at_once, create, live_bot_tables, tally
from tests.web.test_offline import play_out, upload_of
from tests.web.test_quickplay import QUICK as QUICK_PLAY
from tests.web.test_quickplay import Seeker
from tests.web.test_services import postgres, redis  # noqa: F401 (fixtures)
from tests.web.tourney import QUICK, join, make_event, organiser, wait_for

from basra.server.app import AppConfig
from basra.server.features.tournaments.store import TournamentRow
from basra.server.ops.control import OpsConfig
from basra.server.quotas import Rate
from basra.server.store.rows import LIVE_STATUSES, CapReachedError, EventCap, TableRow, TableStatus
from basra.server.stores import SqlStore

CAPS = replace(
    TEST_LIMITS,
    open_tables_per_identity=5,
    open_tables_per_address=1000,
    bot_tables_per_identity=1,
    bot_tables=4,
    bot_tables_per_event=1,
)
"""The all-bot caps as the server has them (a server-wide cap of 4, to reach it)."""
SLOW = replace(FAST, limits=CAPS, bot_delay=5.0, round_pause=5.0)
"""Bots that wait, so every table made here stays in play while the test looks."""


@pytest.fixture
def database(tmp_path: Path) -> str:
    return str(tmp_path / "admission.db")


def served(database: str, limits: Any = CAPS) -> ServerThread:
    service = replace(SLOW, limits=limits)
    return ServerThread(AppConfig(database=database, service=service, tournaments=QUICK))


async def table_status(database: str, table_id: str) -> TableStatus | None:
    store = SqlStore(database)
    await store.start()
    try:
        row = await store.tables.load(table_id)
        return None if row is None else row.status
    finally:
        await store.close()


def bot_tables(database: str) -> int:
    return asyncio.run(live_bot_tables(database))


def test_an_events_bot_tables_count_against_its_maker_and_the_server(database: str) -> None:
    with served(database) as server:
        base = server.url
        maker = organiser(base)
        soon = time.time() + 1.5
        events = [
            make_event(base, maker, format="arena", minutes=30, bots=True, starts_at=soon)["id"]
            for _ in range(2)
        ]
        for event in events:
            join(base, event, maker, bot="easy", count=16)
        # 16 bots-only games are paired; one table (the maker's one all-bot table) is made.
        wait_for(lambda: bot_tables(database) >= 1, "the first bot table")
        time.sleep(1.5)  # many passes of the events' clock (QUICK: every 0.1 s)
        assert bot_tables(database) == 1
        # The server's cap is not the maker's to fill: three others get theirs, the fifth
        # all-bot table on the server is refused.
        others = [create(base, new_token(base), ALL_BOTS) for _ in range(4)]
        assert tally([call() for call in others]) == (3, 1)


def test_an_events_table_with_a_person_is_made_even_when_the_caps_are_full(
    database: str,
) -> None:
    with served(database) as server:
        base = server.url
        assert tally(at_once([create(base, new_token(base), ALL_BOTS) for _ in range(4)])) == (
            4,
            0,
        )
        maker, person = organiser(base), organiser(base, "rana")  # accounts: slow hashes
        # Both join before it starts (an arena nobody is in when it starts is over).
        event = make_event(
            base, maker, format="arena", minutes=30, bots=True, starts_at=time.time() + 1.5
        )["id"]
        join(base, event, person, name="Rana")
        join(base, event, maker, bot="easy", count=3)

        def paired() -> str | None:
            status, body = http(f"{base}/api/tournaments/{event}", token=person)
            assert status == 200, body
            table = body["you"]["table"]
            return table if isinstance(table, str) else None

        table = wait_for(paired, "the person's game")
        status = wait_for(
            lambda: asyncio.run(table_status(database, table)), "the person's table made"
        )
        assert status in (TableStatus.OPEN, TableStatus.PLAYING)
        time.sleep(1.0)
        assert bot_tables(database) == 4  # the event's two bots wait for room


def test_events_are_capped_per_address_beside_per_person(database: str) -> None:
    limits = replace(CAPS, open_events_per_address=4, events_per_address=6)
    with served(database, limits) as server:
        base = server.url
        later = time.time() + 3600
        accounts = [organiser(base, f"a{k}") for k in range(4)]

        def make(token: str) -> Any:
            form = {"name": "Mine", "format": "swiss", "rounds": 2, "starts_at": later}
            return lambda: http(base + "/api/tournaments", form, token=token)

        # Four accounts on one address, three events each, sent at once: the address's 4.
        answers = at_once([make(token) for token in accounts for _ in range(3)])
        made = [body for status, body in answers if status == 201]
        refused = [body for status, body in answers if status != 201]
        assert len(made) == 4, answers
        assert all(b["error"] == "rate_limited" for b in refused), refused
        assert any("per address" in b["message"] for b in refused), refused
        assert {b["limit"] for b in refused} <= {"open_tournaments"}, refused


def test_a_rematch_is_admitted_against_the_person_who_asks(database: str) -> None:
    limits = replace(TEST_LIMITS, open_tables_per_identity=2)
    with ServerThread(AppConfig(database=database, service=replace(FAST, limits=limits))) as server:
        base, token = server.url, new_token(server.url)
        against_a_bot = {"seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
        first = create_table(base, token, rules={"target": 1}, **against_a_bot)
        create_table(base, token, **against_a_bot)
        player = Player(base, first, token)
        play_to_end([player])
        create_table(base, token, **against_a_bot)  # the first is over: room for one
        # Two tables in play: a rematch would be a third (it was made without a count).
        player.send({"type": "rematch"})
        refused = player.wait(lambda m: m["type"] in ("error", "rematch"))
        assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
        assert "open tables per person: at most 2" in refused["message"]


async def event_race(stores: list[SqlStore]) -> int:
    """Twelve events from four people on one address, sent at once through the stores in
    turn, within 3 per person and 4 per address; how many were made."""
    for store in stores:
        await store.start()
    now = time.time()

    def event(k: int) -> TournamentRow:
        return TournamentRow(
            f"ev{k}x{secrets.token_hex(3)}",
            "E",
            {},
            "created",
            now + 3600,
            now,
            created_by=f"maker{k % 4}",
            created_from="192.0.2.9",
        )

    def caps(row: TournamentRow) -> list[EventCap]:
        return [
            EventCap(3, "events not finished per person", row.created_by),
            EventCap(4, "events not finished per address", None, row.created_from),
        ]

    rows = [event(k) for k in range(12)]
    outcomes = await asyncio.gather(
        *(
            stores[k % len(stores)].tournaments.create(row, caps=caps(row))
            for k, row in enumerate(rows)
        ),
        return_exceptions=True,
    )
    for store in stores:
        await store.close()
    for outcome in outcomes:
        assert isinstance(outcome, TournamentRow | CapReachedError), outcome
    return sum(1 for outcome in outcomes if isinstance(outcome, TournamentRow))


def test_two_engines_on_one_sqlite_file_keep_the_event_caps(database: str) -> None:
    assert asyncio.run(event_race([SqlStore(database), SqlStore(database)])) == 4


@pytest.mark.services
def test_two_engines_on_postgresql_keep_the_event_caps(postgres: str) -> None:  # noqa: F811
    assert asyncio.run(event_race([SqlStore(postgres), SqlStore(postgres)])) == 4


# ------------------------------------------------------------------ reports

ADMIN = "m" * 40


def report_site(database: str, limits: Any) -> ServerThread:
    service = replace(FAST, limits=limits)
    return ServerThread(
        AppConfig(database=database, service=service, ops=OpsConfig(admin_token=ADMIN))
    )


def target(base: str) -> str:
    """A player with a username, to report."""
    username = f"t{secrets.token_hex(4)}"
    token = new_token(base)
    status, body = http(
        base + "/api/account", {"username": username, "password": "p" * 10}, token=token
    )
    assert status == 201, body
    return username


def test_reports_are_capped_per_address_beside_per_person(database: str) -> None:
    limits = replace(
        TEST_LIMITS, reports_per_identity=Rate(10, 3600), reports_per_address=Rate(20, 3600)
    )
    with report_site(database, limits) as server:
        base = server.url
        about = {"username": target(base), "reason": "spam"}
        answers = [http(base + "/api/reports", about, token=new_token(base)) for _ in range(30)]
        assert [status for status, _ in answers] == [201] * 20 + [429] * 10
        refused = answers[-1][1]
        assert refused["limit"] == "reports" and "reports per address" in refused["message"]


def test_the_operator_pages_through_every_report(database: str, tmp_path: Path) -> None:
    with report_site(database, replace(TEST_LIMITS, reports_per_identity=ROOMY)) as server:
        base = server.url
        about = {"username": target(base), "reason": "spam"}
        reporter = new_token(base)
        made = [http(base + "/api/reports", about, token=reporter)[1]["report"] for _ in range(110)]
        seen: list[str] = []
        cursor: str | None = None
        pages = 0
        while True:
            query = "?limit=40" + (f"&after={cursor}" if cursor else "")
            status, page = http(base + "/admin/reports" + query, token=ADMIN)
            assert status == 200, page
            seen += [r["id"] for r in page["reports"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
        assert pages == 3 and seen == made[::-1]  # every one once, newest first
        status, body = http(base + "/admin/reports?after=nosuchreport", token=ADMIN)
        assert (status, body["error"], body["field"]) == (400, "bad_cursor", "after")
        status, body = http(base + "/admin/reports?limit=0", token=ADMIN)
        assert (status, body["field"]) == (422, "limit")
        # ``basra admin reports`` follows the pages (the server's are 100 long).
        token_file = tmp_path / "admin-token"
        token_file.write_text(ADMIN)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "basra",
                "admin",
                "reports",
                "--url",
                base,
                "--token-file",
                str(token_file),
            ],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[-1] == "110 reports"
        assert [line.split()[0] for line in lines[:-1]] == made[::-1]


# ------------------------------------------------------------------ everything at once

BURST = replace(
    TEST_LIMITS,
    open_tables_per_identity=5,
    bot_tables_per_identity=1,
    bot_tables=4,
    bot_tables_per_event=1,
)
"""The all-bot caps, reachable: 4 on the server."""


def unfinished_upload(number: int) -> dict[str, Any]:
    """An offline game against the easy bot, stopped after a few plays (cheap to check)."""
    settings = {"id": f"burst-{number}", "seats": ["person", "easy"], "seed": number}
    return upload_of(play_out(settings, random.Random(number), stop_after=9))


async def live_tables(url: str) -> list[TableRow]:
    store = SqlStore(url)
    await store.start()
    try:
        return await store.tables.find(LIVE_STATUSES, limit=10_000)
    finally:
        await store.close()


def everything_at_once(bases: list[str], database: str) -> None:
    """An event's bots, plain all-bot tables, a person's tables, two people pressing play
    and offline uploads, all sent at once (spread over the processes of ``bases``)."""

    def base(k: int) -> str:
        return bases[k % len(bases)]

    maker = organiser(base(0))
    starts = time.time() + 2.0
    event = make_event(base(0), maker, format="arena", minutes=30, bots=True, starts_at=starts)
    join(base(0), event["id"], maker, bot="easy", count=8)
    all_bots = [create(base(k), new_token(base(k)), ALL_BOTS) for k in range(6)]
    person = new_token(base(1))
    people = [create(base(k), person, PEOPLE) for k in range(8)]
    seekers = [Seeker(base(k), name=f"S{k}") for k in range(2)]
    uploads = [unfinished_upload(k) for k in range(3)]
    uploader = new_token(base(0))
    sent = [
        (lambda k=k: http(base(k) + "/api/offline/games", uploads[k], token=uploader))
        for k in range(3)
    ]
    seeks = [(lambda s=s: s.seek(variant="egyptian", players=2)) for s in seekers]
    time.sleep(max(0.0, starts - time.time()))  # the event's bots are being paired now
    answers: list[Any] = at_once([*all_bots, *people, *seeks, *sent])
    plain = answers[:6]
    mine = answers[6:14]
    uploaded = answers[16:]
    assert tally(mine) == (5, 3)  # the person's own cap
    assert all(status in (200, 201) for status, _ in uploaded), uploaded  # never live
    matched = [
        first if first["type"] == "matched" else seeker.wait("matched")
        for first, seeker in zip(answers[14:16], seekers, strict=True)
    ]
    tables = {m["table"] for m in matched}
    assert len(tables) == 1, tables  # made though the caps are full: two people, paired
    time.sleep(1.5)  # the events' clock passes many times
    live = asyncio.run(live_tables(database))
    bots = [t for t in live if t.all_bots]
    event_bots = [t for t in bots if (t.owner or "").startswith(f"tournament:{event['id']}:")]
    made, refused = tally(plain)
    assert len(event_bots) <= 1  # the event's one at a time, the maker's one
    assert len(bots) == 4 and made == 4 - len(event_bots) and refused == 6 - made
    quick = [t for t in live if t.id in tables]
    assert len(quick) == 1 and quick[0].created_from == "quickplay"
    for seeker in seekers:
        seeker.close()


def test_caps_with_tournaments_quick_play_and_uploads_at_once(database: str) -> None:
    config = AppConfig(
        database=database,
        service=replace(SLOW, limits=BURST),
        tournaments=QUICK,
        quickplay=QUICK_PLAY,
    )
    with ServerThread(config) as server:
        everything_at_once([server.url], database)


@pytest.mark.services
def test_caps_at_once_on_postgresql_with_two_processes(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    settings = tmp_path / "basra.toml"
    settings.write_text(
        f'[database]\nurl = "{postgres}"\n[redis]\nurl = "{redis}"\n'
        "[tables]\nbot_delay = 5\nround_pause = 5\n[workers]\nbot_processes = 0\n"
        "[quickplay]\npair_every = 0.1\n"
        "[quotas]\nopen_tables_per_identity = 5\nopen_tables_per_address = 1000\n"
        "bot_tables_per_identity = 1\nbot_tables = 4\nbot_tables_per_event = 1\n"
        "tables_per_identity = { count = 1000, per = 1 }\n"
        "tables_per_address = { count = 1000, per = 1 }\n"
        "identities_per_address = { count = 1000, per = 1 }\n"
        "accounts_per_address = { count = 1000, per = 1 }\n"
        "http_per_address = { count = 100000, per = 1 }\n"
    )
    options = ("--config", str(settings))
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        everything_at_once([one, two], postgres)
