"""Ratings, leaderboards and profiles: rated games move ratings by openskill's own values.

The expected numbers are computed here with openskill (Plackett-Luce, its
defaults) from the game's outcome; bots enter at their fixed ratings of
``basra/bots/ratings.json``; profiles show finished games only.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import update
from tests.web.helpers import (
    FAST,
    Player,
    ServerThread,
    create_table,
    file_store,
    http,
    new_token,
    play_to_end,
    sharing,
    started_env,
)

from basra.rules import PRESETS
from basra.server.env import AppConfig, Env
from basra.server.errors import ProtocolError
from basra.server.store.rows import RatingRow, SeatRow, TableRow
from basra.server.store.sql import schema
from basra.server.table.forms import TableForm, check_table_form
from basra.server.table.ratings import (
    FAMILIES,
    FAMILY_OF,
    bot_ratings,
    load_bot_ratings,
    settle,
    standings,
)
from basra.state import GameState

PASSWORD = "correct horse battery"


def with_account(base: str, username: str) -> str:
    token = new_token(base)
    body = {"username": username, "password": PASSWORD}
    assert http(base + "/api/account", body, token=token)[0] == 201
    return token


def settled_profile(base: str, token: str, games: int = 1) -> dict[str, Any]:
    deadline = time.time() + 10
    while True:
        profile = http(base + "/api/profile", token=token)[1]
        if profile["totals"]["games"] >= games:
            return dict(profile)
        assert time.time() < deadline, "the game was not settled"
        time.sleep(0.05)


def outcome_of(player: Player) -> tuple[int | None, list[int]]:
    view = player.view
    return view["winner"], list(view["scores"])


def test_a_rated_game_changes_both_ratings_by_openskills_values(server: ServerThread) -> None:
    base = server.url
    amal, badr = with_account(base, "amal"), with_account(base, "badr")
    seats = [{"kind": "person"}, {"kind": "person"}]
    table = create_table(base, amal, "Amal", rated=True, rules={"target": 20}, seats=seats)
    info = http(base + f"/api/tables/{table}")[1]
    assert info["rated"] and info["clock"] == {"move": 30, "reserve": 60} and not info["hints"]
    assert info["seats"][0]["rating"] == {"mu": 25.0, "sigma": 8.333, "ordinal": 0.0, "games": 0}
    players = [Player(base, table, amal, "Amal"), Player(base, table, badr, "Badr")]
    players[1].send({"type": "join", "seat": 1})
    play_to_end(players)
    winner, scores = outcome_of(players[0])
    places = [0 if winner == seat else 1 for seat in range(2)]
    if winner is None:
        places = [0, 0]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=places)
    for seat, token in enumerate((amal, badr)):
        profile = settled_profile(base, token)
        (rating,) = profile["ratings"]
        assert rating["family"] == "egyptian" and rating["kind"] == "2p" and rating["games"] == 1
        assert rating["mu"] == pytest.approx(expected[seat][0].mu, abs=1e-3)
        assert rating["sigma"] == pytest.approx(expected[seat][0].sigma, abs=1e-3)
        (game,) = profile["games"]
        assert game["id"] == table and game["rated"] and game["score"] == scores[seat]
        won = "draw" if winner is None else "win" if winner == seat else "loss"
        assert game["outcome"] == won
        assert game["rating"]["before"]["mu"] == 25.0
        assert game["rating"]["after"]["mu"] == rating["mu"]
        assert [point["mu"] for point in profile["history"]] == [rating["mu"]]
        assert profile["totals"]["games"] == 1 and profile["totals"]["rounds"] >= 1
        assert profile["review_accuracy"] is None
    shown = players[0].wait(lambda m: m["type"] == "table" and "change" in m["table"]["seats"][0])
    change = shown["table"]["seats"][0]["change"]
    assert change == pytest.approx(expected[0][0].mu - 25.0, abs=1e-3)
    # The leaderboard of the pool: both, best first, and the bots at their fixed ratings.
    status, board = http(base + "/api/leaderboard?variant=egyptian_121&players=2")
    assert status == 200 and board["family"] == "egyptian" and board["kind"] == "2p"
    assert {e["username"] for e in board["entries"]} == {"amal", "badr"}
    ordinals = [e["ordinal"] for e in board["entries"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [b["level"] for b in board["bots"]] == ["easy", "medium", "hard", "expert"]
    assert http(base + "/api/leaderboard?variant=lebanese&players=2")[1]["entries"] == []
    public = http(base + "/api/players/AMAL")[1]
    assert (
        public["username"] == "amal" and public["ratings"] == settled_profile(base, amal)["ratings"]
    )


def test_a_rated_game_against_a_bot_counts_at_the_bots_fixed_rating(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    seats = [{"kind": "person"}, {"kind": "bot", "level": "expert"}]
    table = create_table(
        base, token, "Amal", variant="syrian", rated=True, rules={"target": 15}, seats=seats
    )
    amal = Player(base, table, token)
    amal.wait_type("table")
    fixed = bot_ratings().of("expert", "double_face", "2p")
    assert amal.table["seats"][1]["rating"]["mu"] == fixed[0] and amal.table["seats"][1]["fixed"]
    play_to_end([amal])
    winner, _ = outcome_of(amal)
    places = [0, 0] if winner is None else [0 if winner == seat else 1 for seat in range(2)]
    model = PlackettLuce()
    person, bot = model.rating(), model.rating(mu=fixed[0], sigma=fixed[1])
    expected = model.rate([[person], [bot]], ranks=places)
    (rating,) = settled_profile(base, token)["ratings"]
    assert rating["family"] == "double_face"
    assert rating["mu"] == pytest.approx(expected[0][0].mu, abs=1e-3)
    assert rating["sigma"] == pytest.approx(expected[0][0].sigma, abs=1e-3)
    board = http(base + "/api/leaderboard?variant=double_face&players=2")[1]
    assert board["entries"] == [], "guests have no public name: rated, but not listed"
    assert board["bots"][-1] == {
        "level": "expert",
        "mu": fixed[0],
        "sigma": fixed[1],
        "ordinal": pytest.approx(fixed[0] - 3 * fixed[1], abs=1e-3),
    }


def test_what_a_rated_table_refuses(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)

    def refused(**form: Any) -> dict[str, Any]:
        body = {"name": "Amal", "rated": True, **form}
        status, body = http(base + "/api/tables", body, token=token)
        assert status in (400, 422), body
        return dict(body)

    assert refused(hints=True)["field"] == "hints"
    assert refused(rules={"majority_bonus": 0})["field"] == "rules"
    assert refused(clock=None)["field"] == "clock"
    assert refused(clock={"move": 2, "reserve": 0})["field"] == "clock.move"
    assert refused(clock={"move": 30, "reserve": 99999})["field"] == "clock.reserve"
    assert refused(clock={"move": "30"})["error"] == "bad_request"
    bots = [{"kind": "bot"}, {"kind": "bot"}]
    assert refused(seats=bots, my_seat=None)["field"] == "rated"
    casual = http(base + "/api/tables", {"name": "A", "clock": {"move": 5}}, token=token)
    assert casual[0] == 201


def test_profiles_show_finished_games_only(server: ServerThread) -> None:
    base = server.url
    token = new_token(base)
    create_table(base, token, "Amal", rules={"target": 10})
    profile = http(base + "/api/profile", token=token)[1]
    assert profile["games"] == [] and profile["totals"]["games"] == 0
    assert profile["totals"]["basras_per_round"] is None
    assert http(base + "/api/profile")[0] == 401
    table = create_table(base, token, "Amal", rules={"target": 10})
    amal = Player(base, table, token)
    play_to_end([amal])
    profile = settled_profile(base, token)
    (game,) = profile["games"]
    assert game["id"] == table and not game["rated"] and game["rating"] is None
    assert profile["ratings"] == [] and profile["history"] == []
    totals = profile["totals"]
    assert totals["basras_per_round"] == round(totals["basras"] / totals["rounds"], 3)


def test_leaderboard_queries_name_the_wrong_field(server: ServerThread) -> None:
    base = server.url
    for query, field in [
        ("", "variant"),
        ("variant=chess&players=2", "variant"),
        ("variant=egyptian", "players"),
        ("variant=egyptian&players=5", "players"),
        ("variant=egyptian&players=2&teams=1", "teams"),
        ("variant=egyptian&players=4&teams=maybe", "teams"),
        ("variant=egyptian&players=2&limit=0", "limit"),
    ]:
        status, body = http(base + f"/api/leaderboard?{query}")
        assert status == 422 and body["field"] == field, query
    status, body = http(base + "/api/leaderboard?variant=lebanese&players=4&teams=1&limit=5")
    assert status == 200 and body["kind"] == "2v2" and body["teams"] is True


def test_every_preset_is_in_one_family_and_every_level_has_a_rating() -> None:
    assert sorted(FAMILY_OF) == sorted(PRESETS)
    assert sum(len(v) for v in FAMILIES.values()) == len(PRESETS)
    ratings = load_bot_ratings()
    mus = [ratings.default[level][0] for level in ("easy", "medium", "hard", "expert")]
    assert mus == sorted(mus), "stronger levels are rated higher"


def test_a_forfeit_in_teams_leaves_the_partner_unrated() -> None:
    row = TableRow(
        "t",
        "lebanese",
        {},
        4,
        True,
        0,
        False,
        [SeatRow(i, "person", identity=f"p{i}") for i in range(4)],
        rated=True,
    )
    state = GameState("lebanese", 4, teams=True)
    state.deal()
    game = standings(row, state, forfeited=[2])
    assert game.places == (1, 0)
    outcomes = {s.seat: (s.outcome, s.held) for s in game.seats}
    assert outcomes == {
        0: ("loss", True),
        1: ("win", False),
        2: ("forfeit", False),
        3: ("win", False),
    }
    current = {"p0": RatingRow("p0", "lebanese", "2v2", 30.0, 2.0, 7, 0.0)}
    settlement = settle(game, current, now=5.0)
    changed = {r.identity: r for r in settlement.ratings}
    assert set(changed) == {"p1", "p2", "p3"}
    assert changed["p2"].mu < 25.0 < changed["p1"].mu
    partner = next(r for r in settlement.results if r.identity == "p0")
    assert partner.mu_before == partner.mu_after == 30.0


def test_a_game_a_crash_left_unsettled_is_settled_at_start() -> None:
    async def scenario() -> None:
        store = file_store()
        first = await started_env(FAST, store)
        amal = (await first.identities.create("test")).caller
        form = {"name": "Amal", "rated": True, "rules": {"target": 10}}
        spec = check_table_form(TableForm.model_validate(form))[1]
        row = await first.lifecycle.create(amal, "test", "Amal", spec)
        live = first.master.live[row.id]
        while not live.state.is_over:  # play every seat to the end, as the crash left it
            async with live.lock:
                if live.state.phase == "deal":
                    await first.master.deal(live)
                else:
                    await first.master.play(live, live.state.turn, live.state.legal_moves()[0])
        for task in list(first.master._tasks):
            task.cancel()  # the crash: the settlement never ran
        await asyncio.sleep(0)
        stored = await store.tables.load(row.id)
        assert stored is not None and stored.status == "over"
        tables = schema.tables
        async with store.db.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == row.id).values(settled_at=None))
        assert await store.tables.unsettled() == [row.id]
        second = Env(AppConfig(service=FAST), store=sharing(store))
        await second.start()
        assert await store.tables.unsettled() == []
        (result,) = await store.players.results_at(row.id)
        assert result.rated and result.mu_after is not None
        await first.close()
        await second.close()

    asyncio.run(scenario())


def test_an_unknown_table_kind_query_is_a_protocol_error() -> None:
    from basra.server.features.profiles import check_board_query

    with pytest.raises(ProtocolError) as caught:
        check_board_query({"variant": "egyptian", "players": "3", "teams": "1"})
    assert caught.value.extra == {"field": "teams"}
