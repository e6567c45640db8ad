"""Caps on tables waiting or in play hold exactly, however many requests come at once.

The count and the insert are one transaction, under a lock per identity, per
address and per server (issue 26: requests sent at once used to beat them).
Checked at the store (SQLite with two engines, as two processes; PostgreSQL
likewise), over HTTP against one server on SQLite, and against two ``basra
serve`` processes on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from http.client import HTTPConnection
from pathlib import Path
from typing import Any, TypeVar

import pytest
from tests.web.helpers import FAST, TEST_LIMITS, ServerThread, http, new_token, server_process

from basra.server.app import AppConfig
from basra.server.runtime.devservices import postgres_cluster
from basra.server.store.rows import Cap, CapReachedError, SeatKind, SeatRow, TableRow
from basra.server.stores import SqlStore

T = TypeVar("T")

CAPS = replace(
    TEST_LIMITS,
    open_tables_per_identity=5,
    open_tables_per_address=20,
    bot_tables_per_identity=1,
    bot_tables=20,
)
"""The server's own caps (every rate roomy, so only the caps bind)."""
SLOW_BOTS = replace(FAST, limits=CAPS, bot_delay=5.0, round_pause=5.0)
"""Bots that wait, so the tables made here cost no CPU while the test runs."""
PEOPLE = {"seats": [{"kind": "person"}, {"kind": "person"}]}
ALL_BOTS = {"seats": [{"kind": "bot", "level": "easy"}] * 2, "my_seat": None}


def at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run every call in a thread of its own, all released together."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def tally(answers: list[tuple[int, Any]]) -> tuple[int, int]:
    """How many tables were made, and how many refused by a cap (nothing else allowed)."""
    made = sum(1 for status, _ in answers if status == 201)
    capped = sum(
        1
        for status, body in answers
        if status == 429 and body["error"] == "rate_limited" and body["limit"] == "open_tables"
    )
    assert made + capped == len(answers), answers
    return made, capped


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[str]:
    """A server on SQLite with the server's own caps."""
    with ServerThread(AppConfig(database=str(tmp_path / "caps.db"), service=SLOW_BOTS)) as server:
        yield server.url


def create(base: str, token: str, form: dict[str, Any]) -> Callable[[], tuple[int, Any]]:
    return lambda: http(base + "/api/tables", {"name": "Amal", **form}, token=token)


def test_one_identity_gets_exactly_its_cap_with_requests_at_once(capped: str) -> None:
    token = new_token(capped)
    assert tally(at_once([create(capped, token, PEOPLE)] * 12)) == (5, 7)
    assert tally(at_once([create(capped, new_token(capped), ALL_BOTS)] * 8)) == (1, 7)


def test_many_identities_on_one_address_get_exactly_its_cap(capped: str) -> None:
    tokens = [new_token(capped) for _ in range(28)]
    assert tally(at_once([create(capped, token, PEOPLE) for token in tokens])) == (20, 8)


def test_the_server_wide_cap_on_all_bot_tables_holds_at_once(tmp_path: Path) -> None:
    limits = replace(CAPS, open_tables_per_address=1000)
    config = AppConfig(
        database=str(tmp_path / "caps.db"), service=replace(SLOW_BOTS, limits=limits)
    )
    with ServerThread(config) as server:
        tokens = [new_token(server.url) for _ in range(30)]
        assert tally(at_once([create(server.url, t, ALL_BOTS) for t in tokens])) == (20, 10)


# ------------------------------------------------------------------ at the store


def table(table_id: str, identity: str, address: str = "192.0.2.1") -> TableRow:
    seats = [SeatRow(0, SeatKind.BOT, "easy"), SeatRow(1, SeatKind.BOT, "easy")]
    return TableRow(
        table_id,
        "egyptian",
        {},
        2,
        False,
        0,
        True,
        seats,
        created_by=identity,
        created_from=address,
    )


async def live_bot_tables(url: str) -> int:
    """All-bot tables waiting or in play in a database."""
    store = SqlStore(url)
    await store.start()
    try:
        return await store.tables.count(all_bots=True)
    finally:
        await store.close()


async def race(
    stores: list[SqlStore], caps: Callable[[TableRow], list[Cap]], n: int, name: str = "a"
) -> int:
    """Create ``n`` all-bot tables at once through the stores in turn; how many were made."""
    for store in stores:
        await store.start()
    rows = [table(f"{name}{k}", f"{name}p{k % 3}") for k in range(n)]
    outcomes = await asyncio.gather(
        *(stores[k % len(stores)].tables.create(row, caps(row)) for k, row in enumerate(rows)),
        return_exceptions=True,
    )
    for store in stores:
        await store.close()
    for outcome in outcomes:
        assert outcome is None or isinstance(outcome, CapReachedError), outcome
    return sum(1 for outcome in outcomes if outcome is None)


def store_caps(row: TableRow) -> list[Cap]:
    return [
        Cap(4, "open tables per address", created_from=row.created_from),
        Cap(1, "all-bot tables per person", created_by=row.created_by, all_bots=True),
    ]


def test_two_engines_on_one_sqlite_file_keep_the_caps(tmp_path: Path) -> None:
    """Two engines on one file: two server processes, each with its own connection."""
    path = str(tmp_path / "race.db")
    made = asyncio.run(race([SqlStore(path), SqlStore(path)], store_caps, 12))
    assert made == 3  # one all-bot table for each of the three people


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster of this module's own."""
    with postgres_cluster() as url:
        yield url


@pytest.mark.services
def test_two_engines_on_postgresql_keep_the_caps(postgres: str) -> None:
    made = asyncio.run(race([SqlStore(postgres), SqlStore(postgres)], store_caps, 12))
    assert made == 3
    server_wide = [Cap(5, "all-bot tables on this server", all_bots=True)]
    stores = [SqlStore(postgres), SqlStore(postgres)]
    made = asyncio.run(race(stores, lambda _: server_wide, 24, "b"))
    assert made == 5 - 3  # the three from before count


# ------------------------------------------------------------------ two processes


def post_from(port: int, source: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
    """A request from the loopback address ``source`` (quotas count addresses)."""
    conn = HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request("POST", path, json.dumps(body), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


@pytest.mark.services
def test_two_processes_on_postgresql_keep_every_cap(postgres: str) -> None:
    options = ("--bot-delay", "5", "--round-pause", "5", "--bot-processes", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        bases = (one, two)
        ports = [int(base.rsplit(":", 1)[1]) for base in bases]
        # One identity, its requests split between the processes: 5 tables, 1 all-bot table.
        token = new_token(one)
        people = [create(bases[k % 2], token, PEOPLE) for k in range(10)]
        assert tally(at_once(people)) == (5, 5)
        other = new_token(two)
        assert tally(at_once([create(bases[k % 2], other, ALL_BOTS) for k in range(6)])) == (1, 5)
        # 30 people on 3 addresses, an all-bot table each: the server's 20, less those there.
        room = 20 - asyncio.run(live_bot_tables(postgres))
        sources = [f"127.0.{k % 3 + 10}.1" for k in range(30)]
        tokens = [
            post_from(ports[k % 2], source, "/api/identity", {}, None)[1]["token"]
            for k, source in enumerate(sources)
        ]
        form = {"name": "P", **ALL_BOTS}
        calls = [
            partial(post_from, ports[k % 2], sources[k], "/api/tables", form, tokens[k])
            for k in range(30)
        ]
        assert tally(at_once(calls)) == (room, 30 - room)
