"""The disclosure policy (issue 30): nobody sees a hidden table's cards, not through a
puzzle either, and rated puzzles are secret until tried.

- A daily deal's game, reviewed and mined, gives nobody a puzzle (with its pack) while
  the deal is secret; it is mined once the deal is revealed to all (its day over), and
  then the puzzle names neither the game nor its table, nor carries its record.
- The same for a duplicate board: table 2's entrant gets nothing of table 1's pack.
- The shipped puzzles (answers public) are practice: a fresh identity answering them
  all right stays at 1500; the rated pool is the puzzles mined here and the operator's.
- The puzzle of the day is chosen with the server's secret, not from the date alone.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from tests.web.helpers import FAST, ServerThread, http, new_token
from tests.web.test_learn import SHIPPED, blundered_games, operator_set, until

from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.errors import ProtocolError
from basra.server.features.learn_store import MinedPuzzleRow
from basra.server.features.puzzles import PuzzleConfig
from basra.server.features.reviews import ReviewConfig
from basra.server.features.tournaments.tables import Owner
from basra.server.identity import Caller
from basra.server.store.rows import ReviewStatus, SeatKind, SeatRow, TableRow
from basra.server.table.forms import TableSpec
from basra.server.table.lifecycle import Budget
from basra.state import PHASE_PLAY


def mining_config(tmp_path: Path, recheck: float = 0.2) -> AppConfig:
    return AppConfig(
        database=str(tmp_path / "d.db"),
        service=FAST,
        reviews=ReviewConfig(samples=40, hindsight=False, progress_every=0.0),
        puzzles=PuzzleConfig(proof_samples=400, rate=False, recheck=recheck),
    )


async def play_hidden(
    env: Env,
    people: list[Caller],
    pack: list[int],
    plays: list[str],
    *,
    daily: str | None = None,
    owner: str | None = None,
) -> str:
    """A one-round table of two people, hidden as asked (a daily deal's, a duplicate
    board's), dealt ``pack`` and played to its end; its id."""
    seats = {
        i: SeatRow(i, SeatKind.PERSON, None, caller.identity, f"P{i}")
        for i, caller in enumerate(people)
    }
    spec = TableSpec(
        "egyptian", {"target": 1}, 2, False, False, ((SeatKind.PERSON, None),) * 2, None
    )
    row = env.lifecycle.plan(
        spec, seats, None, None, first_dealer=1, owner=owner, private=owner is not None
    )
    row.daily = daily
    assert row.hidden

    def fixed(table: TableRow, round_index: int) -> list[int] | None:
        return pack if table.id == row.id and round_index == 0 else None

    env.master.pack_sources.insert(0, fixed)  # before the feature's own pack
    live = await env.lifecycle.add(row, Budget(paired=True))
    assert live is not None
    for text in plays:

        async def ready() -> bool:
            return live.state.phase == PHASE_PLAY

        await until(ready, "the turn")
        await env.master.play_text(live, live.state.turn, text, live.version)
    assert live.state.is_over
    return row.id


async def reviewed_and_looked_at(env: Env, reviewer: Caller, table_id: str) -> None:
    """Ask for the game's review (its player may) and wait until the miner has looked at
    it: mined, or held back because its deal is secret."""
    await env.reviews.request(reviewer, table_id)

    async def looked_at() -> bool:
        row = (await env.store.puzzles.mining([table_id])).get(table_id)
        if row is None:
            return False
        return row.status == ReviewStatus.DONE or table_id in getattr(env.mistakes, "held", ())

    await until(looked_at, "the miner's look", timeout=240)


async def nothing_reaches(env: Env, stranger: Caller, table_id: str) -> None:
    """``stranger`` (not seated, has not played the deal) gets no card of the game: no
    record, and no puzzle from it in the pool, the day's or anywhere."""
    assert await env.store.puzzles.mined_pool() == [], "the hidden game was mined"
    served = await env.puzzles.next(stranger)
    assert served["practice"] and served["puzzle"]["id"] in SHIPPED
    assert (await env.puzzles.daily(stranger))["puzzle"]["id"] in SHIPPED
    try:
        await env.queries.record(table_id, stranger)
    except ProtocolError as refused:
        assert refused.code == "play_first"
    else:
        raise AssertionError("the stranger got the hidden game's record")


async def mined_after_reveal(env: Env, stranger: Caller, table_id: str) -> None:
    """Revealed to all: the game is mined, and its puzzle serves the stranger rated, with
    nothing that leads back to the game."""

    async def done() -> bool:
        row = (await env.store.puzzles.mining([table_id])).get(table_id)
        return row is not None and row.status == ReviewStatus.DONE

    await until(done, "the mining once revealed", timeout=240)
    pool = await env.store.puzzles.mined_pool()
    assert pool, "the revealed game's blunder was not mined"
    await env.queries.record(table_id, stranger)  # anyone's to see now
    served = await env.puzzles.next(stranger)
    assert served["rated"] and not served["practice"]
    assert served["puzzle"]["id"] in {r.puzzle_id for r in pool}
    puzzle, _ = await env.puzzles.find(served["puzzle"]["id"])
    answer = await env.puzzles.answer(stranger, puzzle.id, puzzle.moves[-1].move)
    assert answer["rated"] and answer["solution"]["answer"] == puzzle.answer
    for shown in (served, answer):
        text = json.dumps(shown)
        assert table_id not in text and "table" not in shown, shown
        assert not {"record", "source", "table"} & set(shown.get("solution", {}))
        assert "P0" not in text and "P1" not in text  # no name of its players
    for row in pool:
        assert "source" not in json.loads(row.line)


def test_a_daily_deals_pack_never_reaches_a_newcomer_through_a_puzzle(tmp_path: Path) -> None:
    (pack, plays, _, _, _) = blundered_games(1)[0]

    async def scenario() -> None:
        env = Env(mining_config(tmp_path))
        await env.start(resume=False)
        amal = (await env.identities.create("127.0.0.1")).caller
        badr = (await env.identities.create("127.0.0.1")).caller
        carl = (await env.identities.create("127.0.0.1")).caller
        deal = env.daily.deals(env.daily.today())[0].id
        table_id = await play_hidden(env, [amal, badr], pack, plays, daily=deal)
        await reviewed_and_looked_at(env, amal, table_id)
        await nothing_reaches(env, carl, table_id)
        # The day ends with no attempt in play: the deal is revealed to all, and mined.
        real = env.daily.clock
        env.daily.clock = lambda: real() + 86_400
        await mined_after_reveal(env, carl, table_id)
        await env.close()

    asyncio.run(scenario())


def test_a_duplicate_boards_pack_never_reaches_another_tables_entrant(tmp_path: Path) -> None:
    (pack, plays, _, _, _) = blundered_games(1)[0]

    async def scenario() -> None:
        env = Env(mining_config(tmp_path, recheck=3600))  # told, not looking again
        await env.start(resume=False)
        amal = (await env.identities.create("127.0.0.1")).caller
        badr = (await env.identities.create("127.0.0.1")).caller
        entrant = (await env.identities.create("127.0.0.1")).caller  # at table 2
        owner = Owner("e1", 1, 0, 0).key  # round 1, table 0 (table 1), board 0
        table_id = await play_hidden(env, [amal, badr], pack, plays, owner=owner)
        await reviewed_and_looked_at(env, amal, table_id)
        await nothing_reaches(env, entrant, table_id)
        # Every table has played the board (stood in for): the tournament tells the policy,
        # and the game held back is mined at once.
        boards = env.tournaments.tables

        async def revealed(row: TableRow) -> bool:
            return True

        boards.revealed_to_all = revealed  # type: ignore[method-assign]
        await env.lifecycle.disclosure.revealed([table_id])
        await mined_after_reveal(env, entrant, table_id)
        await env.close()

    asyncio.run(scenario())


def test_the_shipped_answers_rate_nobody(tmp_path: Path) -> None:
    config = AppConfig(database=str(tmp_path / "s.db"), service=FAST)
    with ServerThread(config) as server:
        site = server.url
        token = new_token(site)
        hardest = sorted(SHIPPED.values(), key=lambda p: (-p.rating, p.id))[:10]
        for puzzle in hardest:
            status, tried = http(
                f"{site}/api/puzzles/{puzzle.id}/attempt", {"move": puzzle.answer}, token=token
            )
            assert status == 200 and tried["attempt"]["correct"]
            assert not tried["rated"] and tried["practice"] and "you" not in tried
        summary = http(f"{site}/api/puzzles", token=token)[1]
        assert summary["you"]["rating"] == 1500 and summary["you"]["tries"] == 0
        assert summary["daily"]["practice"]
        # Nothing mined yet: ``next`` says it serves practice; asked for, practice too.
        for path in ("/api/puzzles/next", "/api/puzzles/next?practice=1"):
            served = http(site + path, token=token)[1]
            assert served["practice"] and not served["rated"] and served["mode"] == "practice"
        daily = http(f"{site}/api/puzzles/daily", token=token)[1]
        assert daily["practice"] and not daily["rated"]


def test_the_puzzle_of_the_day_comes_from_the_servers_secret(tmp_path: Path) -> None:
    path = operator_set(tmp_path)

    async def daily_with(secret: bytes, clock: Any = time.time) -> tuple[str, bool]:
        env = Env(AppConfig(service=FAST, puzzles=PuzzleConfig(rated_sets=(path,))))
        await env.start(resume=False)
        env.puzzles._secret = secret
        env.puzzles.clock = clock
        caller = (await env.identities.create("127.0.0.1")).caller
        served = await env.puzzles.daily(caller)
        summary = await env.puzzles.summary(caller)
        await env.close()
        assert summary["daily"]["id"] == served["puzzle"]["id"]
        return served["puzzle"]["id"], served["rated"]

    async def scenario() -> None:
        same_day = [await daily_with(bytes([k]) * 32) for k in range(5)]
        assert all(rated for _, rated in same_day)  # of the rated pool (the operator's set)
        assert len({chosen for chosen, _ in same_day}) > 1, same_day
        assert await daily_with(bytes([0]) * 32) == same_day[0]  # the same all day
        tomorrow = await daily_with(bytes([0]) * 32, lambda: time.time() + 86_400)
        assert tomorrow[1]

    asyncio.run(scenario())


def test_the_puzzle_of_the_day_stays_the_same_all_day() -> None:
    """Chosen among the puzzles mined before the day began: one mined during the day
    never replaces it."""
    puzzles = sorted(SHIPPED.values(), key=lambda p: p.id)
    now = time.time()

    async def scenario() -> None:
        env = Env(AppConfig(service=FAST))
        await env.start(resume=False)
        caller = (await env.identities.create("127.0.0.1")).caller
        seats = [SeatRow(i, SeatKind.BOT, "easy") for i in range(2)]
        await env.store.tables.create(TableRow("x", "egyptian", {}, 2, False, 0, False, seats))

        def row(puzzle: Any, at: float) -> MinedPuzzleRow:  # mined from game "x"
            line = json.dumps(puzzle.to_json())
            return MinedPuzzleRow(
                puzzle.id, line, "x", puzzle.seat, None, puzzle.variant, puzzle.theme, 1500, at
            )

        await env.store.puzzles.add_mined([row(p, now - 86_400 * 2) for p in puzzles[:3]])
        before = {}
        for k in range(8):
            env.puzzles._secret = bytes([k]) * 32
            before[k] = (await env.puzzles.daily(caller))["puzzle"]["id"]
        assert set(before.values()) <= {p.id for p in puzzles[:3]}
        assert len(set(before.values())) > 1
        await env.store.puzzles.add_mined([row(p, now) for p in puzzles[3:40]])
        for k in range(8):
            env.puzzles._secret = bytes([k]) * 32
            served = await env.puzzles.daily(caller)
            assert served["puzzle"]["id"] == before[k] and served["rated"]
        await env.close()

    asyncio.run(scenario())
