"""Seasons and leagues: the calendar, the points, promotion and relegation, the final table.

The season test compresses a season to ten minutes of a :class:`FakeClock` (the tables'
time source, so the results' ``ended_at`` fall where the test puts them): ten people and a
bot play rated games through the table master (results settled by its real path), an
arena's placings are recorded, the season closes in two processes at once, and the final
table is held to one recomputed here from the stored ``results`` rows.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.web.conftest import ServerThread
from tests.web.helpers import FAST, file_store, http, new_token, sharing
from tests.web.test_service import spec
from tests.web.test_words_table import LANGS, STATIC, keys

import basra.server.features.seasons as seasons_module
from basra.pools import FAMILIES
from basra.server.app import create_app
from basra.server.env import AppConfig, Env
from basra.server.features.seasons import ArenaPlacing, SeasonConfig
from basra.server.features.seasons.rules import (
    DIVISIONS,
    Entry,
    SeasonCalendar,
    Total,
    arena_points,
    parse_length,
    table_of,
    totals_of,
)
from basra.server.features.tournaments.held import Held
from basra.server.features.tournaments.store import EntrantRow, TournamentRow
from basra.server.store.rows import SeatKind, SeatRow
from basra.server.store.sql import schema
from basra.server.table.clocks import FakeClock
from basra.tournaments import Entrant, EventSettings, Member

START = 1_800_000_000.0
"""The fake clock's start: season 1 begins here in the season test."""


# ---------------------------------------------------------------------- the rule


def test_the_calendar_counts_calendar_months_and_fixed_lengths() -> None:
    quarters = SeasonCalendar(1767225600.0)  # 2026-01-01 00:00 UTC, "3 months"
    assert quarters.start(2) == 1775001600.0  # 2026-04-01
    assert quarters.start(5) == 1798761600.0  # 2027-01-01
    assert quarters.number_at(1767225599.0) == 0
    assert quarters.number_at(1767225600.0) == 1
    assert quarters.number_at(1775001599.0) == 1 and quarters.number_at(1775001600.0) == 2
    minutes = SeasonCalendar(100.0, "10 minutes")
    assert [minutes.number_at(t) for t in (100.0, 699.0, 700.0, 1300.0)] == [1, 1, 2, 3]
    assert minutes.end(1) == 700.0
    assert parse_length("1 day") == (1, "day")
    with pytest.raises(ValueError, match="3 months"):
        parse_length("a quarter")
    with pytest.raises(ValueError, match="divisions"):
        SeasonConfig(divisions=7)


def test_promotion_and_relegation_take_at_most_half_of_a_division() -> None:
    def entries(points: dict[str, int]) -> list[Total]:
        return totals_of(
            Entry(who, p, p == 3, float(i)) for i, (who, p) in enumerate(points.items())
        )

    # Five in the middle division: two up, two down (half of five is two).
    five = table_of(
        entries({"a": 9, "b": 6, "c": 3, "d": 1, "e": 0}), dict.fromkeys("abcde", 2), 5, 3, 3
    )
    assert [(line.identity, line.rank, line.move) for line in five] == [
        ("a", 1, 1), ("b", 2, 1), ("c", 3, 0), ("d", 4, -1), ("e", 5, -1)
    ]  # fmt: skip
    # The lowest division relegates nobody; the highest promotes nobody.
    low = table_of(entries({"a": 3, "b": 0}), {}, 5, 1, 1)
    assert [line.move for line in low] == [1, 0]
    top = table_of(entries({"a": 3, "b": 0}), {"a": 4, "b": 4}, 5, 1, 1)
    assert [line.move for line in top] == [0, -1]
    # Equal points: more wins first, then whoever reached the total first.
    tied = table_of(
        totals_of([Entry("x", 3, False, 5.0), Entry("y", 3, True, 9.0), Entry("z", 3, False, 1.0)]),
        {}, 5, 1, 1,
    )  # fmt: skip
    assert [line.identity for line in tied] == ["y", "z", "x"]
    assert [arena_points(place, 3) for place in range(5)] == [5, 3, 2, 1, 1]
    assert arena_points(0, 0) == 0  # an entrant who finished no game gets nothing


# ---------------------------------------------------------------------- a compressed season


async def play_out(env: Env, table_id: str) -> None:
    """Play a table to its end: the people's seats their first legal move, the bots their
    own; then wait for its results to be settled."""
    live = env.master.live[table_id]
    deadline = time.monotonic() + 60
    while not live.state.is_over:
        assert time.monotonic() < deadline, "the game did not end"
        async with live.lock:
            state = live.state
            if state.is_over:
                break
            if state.phase == "deal":
                await env.master.deal(live)
            elif live.row.seats[state.turn].kind == SeatKind.PERSON:
                await env.master.play(live, state.turn, state.legal_moves()[0])
        env.master.schedule(live)  # as a person's message does: a bot's turn next
        await asyncio.sleep(0.002)  # a bot's turn: it plays it
    while not await env.store.players.results_at(table_id):
        assert time.monotonic() < deadline, "the game was not settled"
        await asyncio.sleep(0.01)


async def rated_game(env: Env, people: list[Any], a: int, b: int | None) -> None:
    """A rated Egyptian game of person ``a`` against person ``b`` (None: an easy bot)."""
    seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "person"}]
    seated = {}
    if b is None:
        seats[1] = {"kind": "bot", "level": "easy"}
    else:
        seated[1] = SeatRow(1, SeatKind.PERSON, None, people[b].identity, f"P{b}")
    form = spec(rated=True, rules={"target": 11}, seats=seats)
    row = await env.lifecycle.create(people[a], "test", f"P{a}", form, seated)
    await play_out(env, row.id)


def expected_table(
    rows: list[dict[str, Any]],
    arena: list[tuple[str, int, int]],
    starts_in: dict[str, int],
    promoted: int,
    relegated: int,
) -> dict[str, tuple[int, int, int, int]]:
    """The final table as the rule in docs/WEB.md says, worked out here from the stored
    result rows: per person ``(division, rank, points, next division)``."""
    worth = {"win": 3, "draw": 1, "loss": 0, "forfeit": 0}
    totals: dict[str, list[float]] = {}
    for row in rows:
        total = totals.setdefault(row["identity_id"], [0, 0, 0.0])
        total[0] += worth[row["outcome"]]
        total[1] += row["outcome"] == "win"
        if worth[row["outcome"]]:
            total[2] = max(total[2], row["ended_at"])
    for who, place, at in arena:
        total = totals.setdefault(who, [0, 0, 0.0])
        total[0] += [5, 3, 2][place] if place < 3 else 1
        total[1] += place == 0
        total[2] = max(total[2], at)
    out = {}
    for division in range(5):
        people = [who for who in totals if starts_in.get(who, 0) == division]
        people.sort(key=lambda w: (-totals[w][0], -totals[w][1], totals[w][2], w))
        half = len(people) // 2
        up = min(promoted, half) if division < 4 else 0
        down = min(relegated, half) if division > 0 else 0
        for index, who in enumerate(people):
            move = 1 if index < up else -1 if index >= len(people) - down else 0
            out[who] = (division, index + 1, int(totals[who][0]), division + move)
    return out


def test_a_season_compressed_to_minutes_promotes_relegates_and_keeps_its_final_table() -> None:
    async def scenario() -> None:
        clock = FakeClock(START + 10)
        config = AppConfig(
            service=replace(FAST, clock=clock),
            seasons=SeasonConfig(
                length="10 minutes", first=START, promoted=2, relegated=2, tick=3600
            ),
        )
        store = file_store()
        first = Env(config, store=store, origin="one")
        await first.start(resume=False)
        seasons = first.seasons.calendar
        people = [(await first.identities.create("test")).caller for _ in range(10)]
        ids = [p.identity for p in people]
        closed_here: list[tuple[str, int]] = []

        async def results_in(season: int) -> list[dict[str, Any]]:
            res = schema.results
            async with store.db.engine.connect() as conn:
                rows = await conn.execute(
                    select(res).where(
                        res.c.rated.is_(True),
                        res.c.ended_at >= seasons.start(season),
                        res.c.ended_at < seasons.end(season),
                    )
                )
                return [dict(r._mapping) for r in rows]

        async def close_in_two_processes(season: int) -> None:
            """Close the season from this process and a second one at the same moment (the
            second started for it: the games are played in one, where the test drives them)."""
            second = Env(config, store=sharing(store), origin="two")
            await second.start(resume=False)
            after = seasons.end(season) + config.seasons.grace
            closed = await asyncio.gather(first.seasons.step(after), second.seasons.step(after))
            assert sum(len(c) for c in closed) == len(FAMILIES)  # one process closed them all
            assert [] in closed
            assert ("egyptian", season) in closed[0] + closed[1]
            # Past the lease too: closing it again, from both at once, writes nothing.
            again = await asyncio.gather(
                first.seasons.close_season("egyptian", season, after),
                second.seasons.close_season("egyptian", season, after),
            )
            assert again == [None, None]
            closed_here.extend(closed[0] + closed[1])
            await second.close()

        # Season 1: everyone in Bronze; ten games between people, five against a bot.
        for a in range(10):
            await rated_game(first, people, a, (a + 1) % 10)
        for a in range(5):
            await rated_game(first, people, a, None)
        arena = [(ids[9], 0, START + 20), (ids[8], 1, START + 20), (ids[7], 5, START + 20)]
        placings = [ArenaPlacing(who, place, 4) for who, place, _ in arena]
        assert await first.seasons.record_arena("ev1", "egyptian_121", placings, START + 20) == 3
        assert await first.seasons.record_arena("ev1", "egyptian", placings, START + 20) == 0
        live = await first.seasons.standing("egyptian", ids[0], None, clock.now())
        assert live["season"]["number"] == 1 and live["division"] == 0
        assert len(live["standings"]) == 10 and live["promotion_line"] == 2
        assert live["relegation_line"] is None  # nobody goes down from Bronze
        assert sum(line["you"] for line in live["standings"]) == 1 and live["size"] == 10
        # A long division is shown in part: its head, the caller's neighbours, its last.
        mine = next(line["rank"] for line in live["standings"] if line["you"])
        head, seasons_module.SHOWN = seasons_module.SHOWN, 2
        try:
            part = await first.seasons.standing("egyptian", ids[0], None, clock.now())
        finally:
            seasons_module.SHOWN = head
        ranks = {line["rank"] for line in part["standings"]}
        assert ranks == {1, 2, 10} | set(range(mine - 3, mine + 4)) & set(range(1, 11))
        assert part["size"] == 10
        rows = await results_in(1)
        assert len(rows) == 25  # 10 games of two people, 5 of one
        expected = expected_table(rows, arena, {}, 2, 2)
        await close_in_two_processes(1)
        final = {line.identity: line for line in await store.seasons.final("egyptian", 1)}
        assert {w: (f.division, f.rank, f.points, f.next_division) for w, f in final.items()} == (
            expected
        )
        assert sorted(f.move for f in final.values()) == [0] * 8 + [1, 1]
        # The final table is the live standings as they stood at the end.
        assert [(s["rank"], s["points"]) for s in live["standings"]] == sorted(
            (f.rank, f.points) for f in final.values()
        )

        # Season 2: the two promoted play in Silver, the eight others in Bronze.
        clock.advance(seasons.end(1) - clock.now() + 100)
        silver = [w for w, f in final.items() if f.next_division == 1]
        for a in range(0, 10, 2):
            await rated_game(first, people, a, a + 1)
        await rated_game(first, people, ids.index(silver[0]), ids.index(silver[1]))
        mine = await first.seasons.standing("egyptian", silver[0], None, clock.now())
        assert mine["season"]["number"] == 2 and mine["division"] == 1
        assert mine["you"]["last"]["season"] == 1 and mine["you"]["last"]["move"] == 1
        assert (mine["promotion_line"], mine["relegation_line"]) == (1, 2)
        rows = await results_in(2)
        expected = expected_table(rows, [], {w: f.next_division for w, f in final.items()}, 2, 2)
        await close_in_two_processes(2)
        second_final = await store.seasons.final("egyptian", 2)
        got = {f.identity: (f.division, f.rank, f.points, f.next_division) for f in second_final}
        assert got == expected
        moves = {(f.division, f.move) for f in second_final if f.move}
        assert moves == {(1, 1), (1, -1), (0, 1)}  # Silver: one up, one down; Bronze: two up
        assert sum(1 for f in second_final if (f.division, f.move) == (0, 1)) == 2
        # The badge: each family's latest final line.
        (badge,) = await first.seasons.badges(silver[0])
        assert badge["season"] == 2 and badge["division"] == 1
        assert badge["division_key"] == DIVISIONS[1]
        # Nothing was closed twice, and the other families closed empty.
        assert closed_here.count(("egyptian", 1)) == 1
        await first.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------------- the routes


def test_the_season_routes_answer_and_name_the_wrong_field(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    status, body = http(base + "/api/seasons?family=lebanese_ashush", token=token)
    assert status == 200 and body["family"] == "lebanese" and body["you"]["division"] == 0
    assert body["divisions"] == list(DIVISIONS) and body["standings"] == []
    assert http(base + "/api/seasons")[1]["you"] is None
    status, body = http(base + "/api/seasons?family=chess")
    assert status == 422 and body["field"] == "family"
    status, body = http(base + "/api/seasons?division=x")
    assert status == 422 and body["field"] == "division"
    status, body = http(base + "/api/seasons?division=9")
    assert status == 422 and body["field"] == "division"
    assert http(base + "/api/seasons/egyptian/99999")[0] == 404
    assert http(base + "/api/seasons/egyptian/x")[0] == 422
    assert http(base + "/api/seasons/badges", token=token)[1] == {"badges": []}
    assert http(base + "/api/seasons/badges?username=nobody")[0] == 404


def test_an_arenas_final_standings_give_its_people_their_places() -> None:
    """What the tournaments feature tells the seasons when an arena ends: its people's
    places (a team's two share its line), without its bots."""
    settings = EventSettings(format="arena", variant="egyptian_121", minutes=10)
    row = TournamentRow("ev", "Arena", settings.to_json(), "finished", START, START)
    people = (
        Entrant("e1", "Amal", (Member("person", "amal-id", "Amal"),)),
        Entrant("e2", "Bot", (Member("bot", "easy", "Bot"),)),
    )
    held = Held(row)
    for position, entrant in enumerate(people):
        held.entrants[entrant.id] = EntrantRow(entrant.id, position, entrant.to_json())
    assert held.people_placed() == [("amal-id", 0, 0)]  # no game: both first, equal
    assert arena_points(0, 0) == 0  # ... and an arena without a game is worth nothing


# ---------------------------------------------------------------------- the page's words


def test_every_word_the_season_page_asks_for_exists_in_every_language() -> None:
    text = (STATIC / "seasons.js").read_text(encoding="utf-8")
    used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
    for prefix, parts in (
        ("season_division_", DIVISIONS),
        ("season_status_", ("up", "down", "stay")),
        ("season_move_", ("up", "down", "stay")),
        ("family_", tuple(FAMILIES)),
    ):
        assert f'"{prefix}" +' in text, prefix
        used |= {prefix + part for part in parts}
    used |= {"nav_seasons", "err_no_such_season"}
    assert len(used) > 30
    for lang in LANGS:
        assert not used - keys(lang), (lang, sorted(used - keys(lang)))
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    assert 'href="/seasons"' in index and "seasonsPage(root, ui)" in (STATIC / "app.js").read_text(
        encoding="utf-8"
    )


def test_the_season_page_is_served() -> None:
    with TestClient(create_app(AppConfig(service=FAST))) as client:
        answer = client.get("/seasons")
        assert answer.status_code == 200 and 'id="app"' in answer.text
