"""Tournaments on the server: made, entered, played to the end over real sockets.

A Swiss of people and bots is played to its end, and its live standings equal the
standings recomputed from the stored records of its games; a duplicate's boards are
the same pack at every table and stay secret (no answer or frame to someone who has
not played them holds a card, no record or replay is given) until every table has
played them; events are made within quotas, entered and left.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.helpers import (
    Player,
    ServerThread,
    cards_in,
    http,
    new_token,
    play_to_end,
)
from tests.web.test_botapi import Program, make_bot
from tests.web.tourney import (
    Entrant,
    EventWatch,
    config,
    detail,
    join,
    make_event,
    organiser,
    wait_for,
)

from basra.tournaments import Entrant as CoreEntrant
from basra.tournaments import EventSettings, GameResult, Round, standings


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("tournaments") / "basra.db")
    with ServerThread(config(database)) as running:
        yield running.url


def refused(response: tuple[int, Any], status: int, code: str, field: str | None = None) -> None:
    got, body = response
    assert got == status and body["error"] == code, body
    if field is not None:
        assert body.get("field") == field, body


def test_making_an_event_needs_an_account_and_checks_every_field(site: str) -> None:
    guest = new_token(site)
    form = {"name": "Mine", "format": "swiss", "rounds": 3}
    refused(http(site + "/api/tournaments", form, token=guest), 403, "account_needed")
    amal = organiser(site)
    bad = [
        ({"format": "swiss"}, "rounds"),
        ({"format": "arena"}, "minutes"),
        ({"format": "arena", "minutes": 10, "rounds": 2}, "rounds"),
        ({"format": "swiss", "rounds": 2, "seats": 5}, "seats"),
        ({"format": "swiss", "rounds": 2, "teams": True}, "teams"),
        ({"format": "swiss", "rounds": 2, "clock": {"move": 1}}, "clock.move"),
        ({"format": "swiss", "rounds": 2, "rules": {"basra_points": 5}}, "rules"),
        ({"format": "swiss", "rounds": 2, "rules": {"target": 10**9}}, "rules.target"),
        ({"format": "swiss", "rounds": 2, "max_entrants": 400}, "max_entrants"),
        ({"format": "swiss", "rounds": 2, "variant": "chess"}, "variant"),
        ({"format": "swiss", "rounds": 2, "starts_at": time.time() + 90 * 86400}, "starts_at"),
    ]
    for fields, field in bad:
        answer = http(site + "/api/tournaments", {"name": "x", **fields}, token=amal)
        refused(answer, 400, "bad_settings", field)
    refused(http(site + "/api/tournaments", {"format": "knockout"}, token=amal), 422, "bad_request")
    # A casual event may change any rule; a rated one only the game's length.
    casual = make_event(
        site, amal, format="swiss", rounds=2, rated=False, rules={"basra_points": 5}
    )
    assert casual["settings"]["rules"]["basra_points"] == 5 and casual["status"] == "created"


def test_entering_leaving_and_coming_back(site: str) -> None:
    amal = organiser(site)
    starts = time.time() + 3600
    event = make_event(site, amal, format="swiss", rounds=3, bots=True, starts_at=starts)
    badr = new_token(site)
    assert join(site, event["id"], badr, name="Badr")["you"]["entrant"]
    refused(
        http(f"{site}/api/tournaments/{event['id']}/join", {}, token=badr), 409, "already_entered"
    )
    refused(
        http(f"{site}/api/tournaments/{event['id']}/join", {"bot": "hard"}, token=badr),
        403,
        "not_organiser",
    )
    added = join(site, event["id"], amal, bot="hard", count=2)
    assert len(added["entrants"]) == 2
    shown = detail(site, event["id"], badr)
    assert shown["you"]["name"] == "Badr" and len(shown["entrants"]) == 3
    assert all(
        "ref" not in m and "identity" not in m for e in shown["entrants"] for m in e["members"]
    )
    listed = http(site + "/api/tournaments", token=badr)[1]
    assert event["id"] in {e["id"] for e in listed["upcoming"]}
    assert event["id"] in {e["id"] for e in listed["mine"]}
    # Before the start a withdrawal takes the entry away; the player may enter again.
    status, answer = http(f"{site}/api/tournaments/{event['id']}/withdraw", {}, token=badr)
    assert status == 200 and answer["you"]["entrant"] is None
    assert len(detail(site, event["id"])["entrants"]) == 2
    join(site, event["id"], badr, name="Badr")
    refused(
        http(f"{site}/api/tournaments/{event['id']}/come_back", {}, token=badr),
        400,
        "not_withdrawn",
    )
    # The organiser withdraws one of its bots.
    bot = added["entrants"][0]
    status, _ = http(f"{site}/api/tournaments/{event['id']}/withdraw", {"entrant": bot}, token=amal)
    assert status == 200
    refused(http(f"{site}/api/tournaments/nosuch/join", {}, token=badr), 404, "no_such_event")
    refused(http(f"{site}/api/tournaments/{event['id']}/join", {}), 401, "signed_out")
    # A bot program's token that is not valid is told so (the one bearer reading, auth.py).
    status, body = http(f"{site}/api/tournaments/{event['id']}/join", {}, token="bot_" + "x" * 40)
    assert (status, body["error"]) == (401, "signed_out") and "bot token" in body["message"]


def test_an_event_by_invitation_is_unlisted_and_entered_with_its_code(site: str) -> None:
    amal = organiser(site)
    event = make_event(
        site, amal, format="arena", minutes=10, public=False, starts_at=time.time() + 3600
    )
    invite = event["invite"]
    badr = new_token(site)
    assert event["id"] not in {e["id"] for e in http(site + "/api/tournaments")[1]["upcoming"]}
    refused(http(f"{site}/api/tournaments/{event['id']}", token=badr), 404, "no_such_event")
    assert "invite" not in detail(site, event["id"], badr, invite=invite)
    refused(
        http(f"{site}/api/tournaments/{event['id']}/join", {}, token=badr), 404, "no_such_event"
    )
    join(site, event["id"], badr, invite=invite)
    assert detail(site, event["id"], badr)["you"]["entrant"]  # an entrant sees it without


def test_teams_enter_as_a_pair(site: str) -> None:
    amal = organiser(site)
    event = make_event(
        site,
        amal,
        format="swiss",
        rounds=2,
        seats=4,
        teams=True,
        bots=True,
        starts_at=time.time() + 3600,
    )
    refused(http(f"{site}/api/tournaments/{event['id']}/join", {}, token=amal), 400, "bad_entrant")
    code = join(site, event["id"], amal, name="Amal", team="new")["team_code"]
    badr, carl = new_token(site), new_token(site)
    refused(
        http(f"{site}/api/tournaments/{event['id']}/join", {"team_code": "nope"}, token=badr),
        404,
        "bad_team_code",
    )
    join(site, event["id"], badr, name="Badr", team_code=code)
    join(site, event["id"], carl, name="Carl", partner_bot="medium")
    entrants = detail(site, event["id"])["entrants"]
    assert [e["name"] for e in entrants] == ["Amal & Badr", "Carl & Bot (medium)"]
    assert [m["kind"] for m in entrants[1]["members"]] == ["person", "bot"]
    refused(
        http(f"{site}/api/tournaments/{event['id']}/join", {"team_code": code}, token=carl),
        404,
        "bad_team_code",
    )


def test_quotas_on_events_a_person_makes(site: str) -> None:
    amal = organiser(site)
    later = time.time() + 3600
    for _ in range(3):
        make_event(site, amal, format="swiss", rounds=2, starts_at=later)
    answer = http(
        site + "/api/tournaments", {"name": "4", "format": "swiss", "rounds": 2}, token=amal
    )
    refused(answer, 429, "rate_limited")
    assert answer[1]["limit"] == "open_tournaments"


def test_a_bot_program_enters_and_plays_its_games(site: str) -> None:
    amal = organiser(site)
    event = make_event(
        site,
        amal,
        format="swiss",
        rounds=1,
        external=True,
        bots=True,
        starts_at=time.time() + 2,
    )
    bot = make_bot(site, amal, f"falcon{int(time.time() * 1000) % 100000}")
    program = Program(site, bot["token"])
    assert join(site, event["id"], bot["token"])["entrant"]
    join(site, event["id"], amal, bot="easy")
    closed = make_event(site, amal, format="swiss", rounds=1, starts_at=time.time() + 3600)
    refused(
        http(f"{site}/api/tournaments/{closed['id']}/join", {}, token=bot["token"]),
        400,
        "no_programs",
    )
    final = wait_for(
        lambda: (d := detail(site, event["id"]))["status"] == "finished" and d, "the event's end"
    )
    assert final["games"] == 1 and not program.errors
    game = final["pairings"][0]["tables"][0]["games"][0]
    assert program.wait_over(game["table"])["table"] == game["table"]
    kinds = {m["kind"] for e in final["entrants"] for m in e["members"]}
    assert kinds == {"external", "bot"}
    program.ws.close()


def test_a_swiss_of_people_and_bots_and_its_standings_recomputed_from_the_records(
    site: str,
) -> None:
    amal = organiser(site)
    event = make_event(site, amal, format="swiss", rounds=2, bots=True, starts_at=time.time() + 2.5)
    people = [Entrant(site, event["id"], amal, "Amal")]
    join(site, event["id"], amal, name="Amal")
    badr = new_token(site)
    join(site, event["id"], badr, name="Badr")
    people.append(Entrant(site, event["id"], badr, "Badr"))
    join(site, event["id"], amal, bot="easy", count=2)
    spectator = EventWatch(site, event["id"])
    deadline = time.time() + 120
    while spectator.event.get("status") != "finished":
        assert time.time() < deadline, "the Swiss did not end"
        for person in people:
            person.step()
        spectator.read(0.01)
    assert all(len(p.played) == 2 for p in people)
    spectator.read(0.3)
    live = spectator.event
    assert live["ended"] == "done" and len(live["pairings"]) == 2
    # The standings again, from the stored record of every game.
    settings = EventSettings.from_json(live["settings"])
    entrants = [
        CoreEntrant.from_json(
            {
                "id": e["id"],
                "name": e["name"],
                "seed": e["seed"],
                "joined_round": e["joined_round"],
                "withdrawn": e["withdrawn"],
                "members": [
                    {"kind": m["kind"], "ref": m.get("level") or m["name"], "name": m["name"]}
                    for m in e["members"]
                ],
            }
        )
        for e in live["entrants"]
    ]
    rounds = [
        Round(p["number"], tuple(tuple(t["sides"]) for t in p["tables"]), tuple(p["byes"]))
        for p in live["pairings"]
    ]
    # The server's bots are named by their event's number, and their tables name them so.
    bots = {e["id"]: e["bots"] for e in live["entrants"] if "bots" in e}
    assert sorted(b["number"] for b in bots.values()) == [1, 2]
    assert all(b["level"] == "easy" and b["count"] == 1 for b in bots.values())
    results = []
    for paired in live["pairings"]:
        for index, table in enumerate(paired["tables"]):
            (game,) = table["games"]
            status, replay = http(f"{site}/api/games/{game['table']}/replay")
            assert status == 200, replay
            seated = [s for s in replay["table"]["seats"] if s["kind"] == "bot"]
            assert sorted(s["number"] for s in seated) == sorted(
                bots[side]["number"] for side in table["sides"] if side in bots
            )
            for seat in seated:
                assert replay["names"][seat["seat"]] == f"Bot {seat['number']} (easy)"
            results.append(
                GameResult(
                    tuple(table["sides"]),
                    tuple(replay["result"]["score"]),
                    frozenset(),
                    paired["number"],
                    index,
                    0,
                    0.0,
                    game["table"],
                )
            )
    recomputed = standings(settings, entrants, rounds, results)
    shown = [(s["entrant"], s["rank"], s["score"]) for s in live["standings"]]
    again = [(s.to_json()["entrant"], s.rank, s.to_json()["score"]) for s in recomputed]
    assert shown == again
    assert live["podium"] and live["podium"][0]["rank"] == 1
    for person in people:
        person.close()
    spectator.close()


def test_duplicate_boards_are_the_same_pack_everywhere_and_secret_until_played(site: str) -> None:
    amal = organiser(site)
    event_id = make_event(
        site,
        amal,
        format="duplicate",
        rounds=1,
        bots=True,
        rated=False,
        starts_at=time.time() + 2,
    )["id"]
    badr = new_token(site)
    join(site, event_id, amal, name="Amal")
    join(site, event_id, badr, name="Badr")
    join(site, event_id, amal, bot="easy", count=2)
    carl = new_token(site)  # has not entered: sees nothing of a board before it is revealed
    seen: list[str] = []
    spectator = EventWatch(site, event_id, carl)
    watches = {
        name: EventWatch(site, event_id, token) for name, token in (("Amal", amal), ("Badr", badr))
    }
    for watch in watches.values():
        watch.until(lambda w: w.paired, "a first table")
    waiting = watches["Amal"].paired[0]  # Amal does not move yet: her table stays on board 0
    amal_player = Player(site, waiting, amal, "Amal")
    badr_player = (
        None
        if watches["Badr"].paired[0] == waiting
        else Player(site, watches["Badr"].paired[0], badr, "Badr")
    )
    if badr_player is not None:
        play_to_end([badr_player])  # Badr's table (against a bot) plays board 0 to its end

    def board0_done() -> Any:
        pairing = detail(site, event_id, carl)["pairings"][0]["tables"]
        for table in pairing:
            games = table["games"]
            if games[0]["table"] != waiting and len(games) == 2:
                return games
        return None

    done, second = wait_for(board0_done, "the other table's second board")
    assert done["over"] and not done["revealed"] and "scores" not in done
    amal_player.drain()
    assert amal_player.view["hand"] and not amal_player.view.get("over")
    # Nobody but those seated there sees a board-0 game: not Carl, not Amal (who is still to
    # play board 0 at her table), not a stranger; not its score, not by watching it.
    for table in (done["table"], waiting, second["table"]):
        for what in ("record", "replay", "review"):
            for token in (carl, amal, None):
                if token is amal and table == waiting:
                    continue  # her own table: its record waits for its end (not_over)
                status, body = http(f"{site}/api/games/{table}/{what}", token=token)
                seen.append(json.dumps(body))
                assert status == 403 and body["error"] == "play_first", (table, what, body)
        status, info = http(f"{site}/api/tables/{table}", token=carl)
        seen.append(json.dumps(info))
        assert status == 200 and info["private"] and info["scores"] == []
        spy = Player(site, table, carl, "Carl")
        assert spy.wait_type("error")["code"] == "private_table"
        seen.extend(spy.frames)
        spy.close()
    hidden = {done["table"], waiting, second["table"]}
    assert not hidden & {t["id"] for t in http(site + "/api/tables")[1]["tables"]}
    seen.append(json.dumps(http(site + "/api/tournaments", token=carl)[1]))
    seen.append(json.dumps(detail(site, event_id, carl)))
    spectator.read(0.2)
    seen.extend(spectator.frames)
    leaked = set().union(*(cards_in(text) for text in seen))
    assert not leaked, f"Carl saw {sorted(leaked)}"
    # Amal plays board 0 at her table: now every table has played it, and it is shown.
    play_to_end([amal_player])
    revealed = wait_for(
        lambda: (d := detail(site, event_id, carl))["board_results"] and d, "board 0 revealed"
    )
    board = revealed["board_results"][0]
    assert (board["round"], board["board"]) == (1, 0)
    assert {r["table_id"] for r in board["rows"]} == {done["table"], waiting}
    assert sorted(r["matchpoints"] for r in board["rows"] if r["side"] == 0) in ([0, 2], [1, 1])
    replays = [http(f"{site}/api/games/{t}/replay", token=carl) for t in (done["table"], waiting)]
    assert [status for status, _ in replays] == [200, 200]
    first = [replay["frames"][0] for _, replay in replays]
    assert first[0]["dealer"] == first[1]["dealer"]
    assert first[0]["floor"] == first[1]["floor"] and first[0]["hands"] == first[1]["hands"]
    # Board 1 is another deal, still secret to Carl.
    assert http(f"{site}/api/games/{second['table']}/replay", token=carl)[0] == 403
    for client in (*watches.values(), spectator, amal_player):
        client.close()
