"""Clubs: making one through the words policy, joining (open and by invitation), roles,
quotas, the club's page (members, ratings, presence to members, recent games), search,
a profile's clubs, and the operator's removal; through the service and over HTTP."""

from __future__ import annotations

import asyncio
import json
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
    code,
    create_table,
    eventually,
    http,
    new_token,
    play_to_end,
    refusal,
    server_process,
    started_env,
)
from tests.web.test_services import postgres, redis  # noqa: F401 (fixtures)
from tests.web.tourney import ONE_ROUND, Entrant, organiser, wait_for
from tests.web.tourney import config as tourney_config

from basra.cli import main
from basra.server.app import AppConfig
from basra.server.env import Env
from basra.server.features.clubs import slug_of
from basra.server.ops.control import OpsConfig
from basra.server.quotas import Rate

ROOMY_CLUBS = replace(
    TEST_LIMITS, clubs_per_address=Rate(1000, 60), club_joins_per_address=Rate(1000, 60)
)


async def person(env: Env) -> str:
    return (await env.identities.create("127.0.0.1")).caller.identity


def test_an_open_club_is_made_joined_and_left_and_its_owner_hands_it_over() -> None:
    async def scenario() -> None:
        env = await started_env()
        clubs = env.clubs
        amal, badr, carl = await person(env), await person(env), await person(env)
        made = await clubs.make(amal, {"name": " Café  Basra ", "description": "Evenings"})
        assert made["slug"] == "cafe-basra" and made["name"] == "Café Basra"
        assert made["open"] is True and made["you"]["role"] == "owner"
        assert [m["role"] for m in made["member_list"]] == ["owner"]
        assert (await clubs.join(badr, "cafe-basra"))["role"] == "member"
        assert (await clubs.join(badr, "cafe-basra"))["role"] == "member"  # once
        await clubs.join(carl, "cafe-basra")
        page = await clubs.page("cafe-basra", None)
        assert page["members"] == 3 and page["you"]["role"] is None
        assert "status" not in page["member_list"][0]  # presence: to members only
        # The owner cannot leave while others are in it: they hand it over first.
        error = await refusal(clubs.leave(amal, "cafe-basra"))
        assert error.code == "bad_club" and error.extra["field"] == "slug"
        after = await clubs.hand_over(amal, "cafe-basra", await code(env, badr))
        roles = {m["code"]: m["role"] for m in after["member_list"]}
        assert roles[(await code(env, badr))["code"]] == "owner"
        assert roles[(await code(env, amal))["code"]] == "leader"
        assert (await clubs.leave(amal, "cafe-basra"))["role"] is None
        assert (await clubs.leave(carl, "cafe-basra"))["role"] is None
        # Alone in it, the owner leaves and the club is closed.
        await clubs.leave(badr, "cafe-basra")
        assert (await refusal(clubs.page("cafe-basra", None))).code == "no_such_club"
        assert (await clubs.search(None))["clubs"] == []
        await env.close()

    asyncio.run(scenario())


def test_a_club_by_invitation_is_joined_by_an_invitation_or_an_accepted_request() -> None:
    async def scenario() -> None:
        env = await started_env()
        clubs = env.clubs
        amal, badr, carl, dana = [await person(env) for _ in range(4)]
        await clubs.make(amal, {"name": "Family", "open": False})
        # Badr asks: a request, not a membership, until a leader accepts it.
        asked = await clubs.join(badr, "family")
        assert asked == {"role": None, "invited": False, "requested": True}
        page = await clubs.page("family", amal)
        assert [p["code"] for p in page["requests"]] == [(await code(env, badr))["code"]]
        assert (await clubs.page("family", carl))["requests"] == []  # leaders only
        accepted = await clubs.invite(amal, "family", await code(env, badr))
        assert accepted["members"] == 2 and accepted["requests"] == []
        # Carl is invited, sees it, and accepts it; Dana's request is refused.
        await clubs.invite(amal, "family", await code(env, carl))
        assert (await clubs.page("family", carl))["you"]["invited"] is True
        assert (await clubs.join(carl, "family"))["role"] == "member"
        await clubs.join(dana, "family")
        refused = await clubs.remove(amal, "family", await code(env, dana))
        assert refused["requests"] == [] and refused["members"] == 3
        assert (await clubs.page("family", dana))["you"]["requested"] is False
        # An invitation may be declined.
        await clubs.invite(amal, "family", await code(env, dana))
        assert (await clubs.decline(dana, "family"))["invited"] is False
        await env.close()

    asyncio.run(scenario())


def test_leaders_invite_and_remove_members_and_only_the_owner_names_leaders() -> None:
    async def scenario() -> None:
        env = await started_env()
        clubs = env.clubs
        amal, badr, carl, dana = [await person(env) for _ in range(4)]
        await clubs.make(amal, {"name": "Leaders"})
        for who in (badr, carl, dana):
            await clubs.join(who, "leaders")
        # A member cannot invite, remove or name leaders.
        for work in (
            clubs.invite(badr, "leaders", await code(env, carl)),
            clubs.remove(badr, "leaders", await code(env, carl)),
            clubs.role(badr, "leaders", {**await code(env, carl), "role": "leader"}),
            clubs.edit(badr, "leaders", {"description": "mine"}),
        ):
            assert (await refusal(work)).code == "not_club_leader"
        await clubs.role(amal, "leaders", {**await code(env, badr), "role": "leader"})
        # A leader removes a member, but not another leader, nor the owner, nor names one.
        await clubs.role(amal, "leaders", {**await code(env, carl), "role": "leader"})
        assert (await refusal(clubs.remove(badr, "leaders", await code(env, carl)))).code == (
            "not_club_leader"
        )
        assert (await refusal(clubs.remove(badr, "leaders", await code(env, amal)))).code == (
            "not_club_leader"
        )
        assert (
            await refusal(clubs.role(badr, "leaders", {**await code(env, dana), "role": "leader"}))
        ).code == "not_club_leader"
        after = await clubs.remove(badr, "leaders", await code(env, dana))
        assert after["members"] == 3
        edited = await clubs.edit(badr, "leaders", {"description": "Fridays", "open": False})
        assert edited["description"] == "Fridays" and edited["open"] is False
        # The owner makes a leader a member again, and removes a leader.
        await clubs.role(amal, "leaders", {**await code(env, carl), "role": "member"})
        await clubs.remove(amal, "leaders", await code(env, badr))
        roles = [m["role"] for m in (await clubs.page("leaders", amal))["member_list"]]
        assert roles == ["owner", "member"]
        bad = await refusal(clubs.role(amal, "leaders", {**await code(env, carl), "role": "king"}))
        assert bad.code == "bad_club" and bad.extra["field"] == "role"
        await env.close()

    asyncio.run(scenario())


def test_names_and_descriptions_pass_the_words_policy_and_names_are_unique() -> None:
    async def scenario() -> None:
        env = await started_env()
        clubs = env.clubs
        amal = await person(env)
        for body, code_, field in (
            ({"name": "H\u0456tler Fans"}, "name_not_allowed", "name"),
            ({"name": "x"}, "bad_club", "name"),
            ({"name": "\u3164\u3164"}, "bad_club", "name"),
            ({"name": 5}, "bad_club", "name"),
            ({"name": "Fine", "description": "H\u0456tler"}, "refused_word", "description"),
            ({"name": "Fine", "description": "x" * 501}, "bad_club", "description"),
            ({"name": "Fine", "open": "yes"}, "bad_club", "open"),
            ([], "bad_club", "name"),
        ):
            error = await refusal(clubs.make(amal, body))
            assert (error.code, (error.extra or {}).get("field")) == (code_, field), body
        await clubs.make(amal, {"name": "Basra Stars"})
        # A confusable copy of the name is the same name.
        taken = await refusal(clubs.make(amal, {"name": "B\u0430sra Stars"}))
        assert taken.code == "club_taken" and taken.extra["field"] == "name"
        # A name without ASCII letters still has an address.
        arabic = await clubs.make(amal, {"name": "نادي البصرة"})
        assert arabic["slug"].startswith("club-") and arabic["name"] == "نادي البصرة"
        assert slug_of("Basra Stars!") == "basra-stars"
        found = await clubs.search("STARS")
        assert [c["slug"] for c in found["clubs"]] == ["basra-stars"]
        assert len((await clubs.search(""))["clubs"]) == 2
        await env.close()

    asyncio.run(scenario())


def test_clubs_made_and_joined_are_quotas_per_person_and_per_address() -> None:
    async def scenario() -> None:
        limits = replace(
            TEST_LIMITS,
            clubs_per_identity=Rate(2, 86400),
            clubs_per_address=Rate(3, 86400),
            club_joins_per_identity=Rate(1, 86400),
            clubs_per_member=2,
        )
        env = await started_env(replace(FAST, limits=limits))
        clubs = env.clubs
        amal, badr, carl = [await person(env) for _ in range(3)]
        await clubs.make(amal, {"name": "One"}, "10.0.0.1")
        await clubs.make(amal, {"name": "Two"}, "10.0.0.1")
        # Amal belongs to two clubs: no room for a third, whatever the day's quota.
        assert (await refusal(clubs.make(amal, {"name": "Three"}, "10.0.0.1"))).code == (
            "rate_limited"
        )
        await clubs.make(badr, {"name": "Three"}, "10.0.0.1")
        over = await refusal(clubs.make(carl, {"name": "Four"}, "10.0.0.1"))
        assert over.code == "rate_limited" and "per address" in over.message
        await clubs.join(carl, "one")
        assert (await refusal(clubs.join(carl, "two"))).code == "rate_limited"
        await env.close()

    asyncio.run(scenario())


def test_the_club_page_shows_ratings_games_presence_and_a_profile_its_clubs(
    tmp_path: Path,
) -> None:
    config = AppConfig(
        database=str(tmp_path / "basra.db"),
        service=replace(FAST, limits=ROOMY_CLUBS, bot_delay=0.0),
    )
    with ServerThread(config) as server:
        base = server.url
        amal, badr, carl = new_token(base), new_token(base), new_token(base)
        assert (
            http(
                base + "/api/account",
                {"username": "amal_c", "password": "a long pass 1"},
                token=amal,
            )[0]
            == 201
        )
        status, made = http(base + "/api/clubs", {"name": "Night Owls", "open": True}, token=amal)
        assert status == 201, made
        slug = made["slug"]
        assert http(f"{base}/api/clubs/{slug}/join", {}, token=badr)[1]["role"] == "member"
        # Amal plays a rated one-round game against a bot: a rating and a game on the page.
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        table = create_table(base, amal, "Amal", seats=seats, rated=True, rules={"target": 1})
        player = Player(base, table, amal)
        play_to_end([player])
        player.close()
        status, page = http(f"{base}/api/clubs/{slug}", token=badr)
        assert status == 200, page
        owner = page["member_list"][0]
        assert owner["username"] == "amal_c" and owner["rating"]["ordinal"] is not None
        assert owner["status"] in ("online", "away")  # Badr is a member: he sees presence
        assert [g["id"] for g in page["games"]] == [table]
        assert page["games"][0]["members"][0]["username"] == "amal_c"
        assert "status" not in http(f"{base}/api/clubs/{slug}", token=carl)[1]["member_list"][0]
        assert "status" not in http(f"{base}/api/clubs/{slug}")[1]["member_list"][0]
        # A profile's clubs; the caller's own, with invitations waiting.
        status, theirs = http(f"{base}/api/clubs/of/amal_c")
        assert status == 200 and [(c["slug"], c["role"]) for c in theirs["clubs"]] == [
            (slug, "owner")
        ]
        assert http(f"{base}/api/clubs/of/nobody_here")[0] == 404
        http(f"{base}/api/clubs/{slug}/invite", {"code": _code(base, carl)}, token=amal)
        mine = http(f"{base}/api/clubs/mine", token=carl)[1]
        assert mine == {"clubs": [], "invited": [{"slug": slug, "name": "Night Owls"}]}
        # The weekly board: Amal's rated game counts for her club this week if she won it,
        # and not in a week after.
        outcome = http(base + "/api/profile", token=amal)[1]["games"][0]["outcome"]
        board = http(base + "/api/clubs/weekly")[1]
        wins = {c["slug"]: c["rated_wins"] for c in board["clubs"]}
        assert wins.get(slug, 0) == (1 if outcome == "win" else 0), (outcome, board)
        clubs = server.app.state.env.clubs
        clubs.clock = lambda: time.time() + 8 * 86400
        clubs._board = None
        assert http(base + "/api/clubs/weekly")[1]["clubs"] == []
        # The page's addresses serve the page.
        for path in ("/clubs", f"/club/{slug}"):
            with __import__("urllib.request").request.urlopen(base + path) as answer:
                assert answer.status == 200 and b"<html" in answer.read()


def _code(base: str, token: str) -> str:
    return str(http(base + "/api/friends/link", token=token)[1]["code"])


@pytest.mark.parametrize(
    ("path", "body", "status", "field"),
    [
        ("/api/clubs", {"name": ""}, 422, "name"),
        ("/api/clubs", "text", 422, "name"),
        ("/api/clubs", {"name": "Good", "description": 5}, 422, "description"),
        ("/api/clubs/no-such/join", {}, 404, None),
        ("/api/clubs/BAD SLUG/join", {}, 404, None),
        ("/api/clubs/odd-bodies/invite", {"username": 5}, 403, None),
    ],
)
def test_odd_bodies_are_refused_in_words_naming_the_field(
    server: ServerThread, path: str, body: Any, status: int, field: str | None
) -> None:
    base = server.url
    token = new_token(base)
    http(base + "/api/clubs", {"name": "Odd Bodies"}, token=new_token(base))
    got, answer = http(base + path.replace(" ", "%20"), body, token=token)
    assert got == status, answer
    assert answer.get("field") == field or answer.get("detail", {}).get("field") == field, answer
    assert http(base + "/api/clubs", {"name": "Signed out"})[0] == 401


def test_a_club_is_reported_and_the_operator_removes_it_or_clears_its_description(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    admin = "a-long-admin-token-for-the-clubs-test"
    config = AppConfig(
        database=str(tmp_path / "basra.db"),
        service=replace(FAST, limits=ROOMY_CLUBS),
        ops=OpsConfig(admin_token=admin),
    )
    with ServerThread(config) as server:
        base = server.url
        amal, badr = new_token(base), new_token(base)
        body = {"name": "Rude Club", "description": "Words to clear"}
        slug = http(base + "/api/clubs", body, token=amal)[1]["slug"]
        other = http(base + "/api/clubs", {"name": "Kind Club"}, token=amal)[1]["slug"]
        http(f"{base}/api/clubs/{slug}/join", {}, token=badr)
        # A report names the club; the operator reads it as the club's.
        report = {"club": slug, "reason": "name", "note": "rude"}
        assert http(base + "/api/reports", report, token=badr)[0] == 201
        missing = {"club": "no-such-club", "reason": "name"}
        assert http(base + "/api/reports", missing, token=badr)[0] == 404
        listed = http(base + "/admin/reports", token=admin)[1]["reports"]
        assert listed[0]["target"]["identity"] == f"club:{slug}"
        assert listed[0]["target"]["shown_as"] == "Rude Club"
        # The admin CLI against the running process.
        flags = ["--url", base]
        env = {"BASRA_ADMIN_TOKEN": admin}
        with pytest.MonkeyPatch.context() as patch:
            for key, value in env.items():
                patch.setenv(key, value)
            assert main(["admin", "club", "clear-description", other, *flags]) == 0
            assert capsys.readouterr().out == f"club {other} has no description now\n"
            assert http(f"{base}/api/clubs/{other}")[1]["description"] == ""
            reason = ["--reason", "an abusive name"]
            assert main(["admin", "club", "remove", slug, *reason, *flags]) == 0
            assert capsys.readouterr().out == f"club {slug} removed\n"
            assert main(["admin", "club", "remove", slug, *flags]) == 2  # gone already
            assert "no_such_club" in capsys.readouterr().err
        # Removed: shown nowhere, joined by nobody, not on its members' profiles.
        assert http(f"{base}/api/clubs/{slug}")[0] == 404
        assert http(f"{base}/api/clubs/{slug}/join", {}, token=new_token(base))[0] == 404
        assert [c["slug"] for c in http(base + "/api/clubs")[1]["clubs"]] == [other]
        assert http(f"{base}/api/clubs/mine", token=badr)[1]["clubs"] == []
        unauthorised = http(f"{base}/admin/clubs/{other}/remove", {}, token="wrong")
        assert unauthorised[0] in (401, 403)


def test_only_members_sit_at_a_club_only_table(server: ServerThread) -> None:
    base = server.url
    amal, badr, carl = new_token(base), new_token(base), new_token(base)
    slug = http(base + "/api/clubs", {"name": "Table Club"}, token=amal)[1]["slug"]
    http(f"{base}/api/clubs/{slug}/join", {}, token=badr)
    two = {"seats": [{"kind": "person"}, {"kind": "person"}]}
    # A person not a member cannot make a table for the club.
    status, refused = http(base + "/api/tables", {"name": "Carl", "club": slug, **two}, token=carl)
    assert status == 403 and refused["error"] == "not_club_member", refused
    assert refused["field"] == "club"
    gone = http(base + "/api/tables", {"name": "Carl", "club": "no-such", **two}, token=carl)
    assert gone[0] == 404 and gone[1]["error"] == "no_such_club"
    table = create_table(base, amal, "Amal", club=slug, **two)
    # Carl is refused the open seat, saying why; Badr, a member, takes it.
    stranger = Player(base, table, carl, "Carl")
    stranger.wait_type("state")
    stranger.send({"type": "join", "seat": 1})
    error = stranger.wait_type("error")
    assert error["code"] == "not_club_member" and "Table Club" in error["message"], error
    stranger.close()
    member = Player(base, table, badr, "Badr")
    member.wait_type("state")
    member.send({"type": "join", "seat": 1})
    member.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
    assert member.errors == []
    member.close()
    # An ordinary table keeps nobody out.
    open_table = create_table(base, amal, "Amal", **two)
    anyone = Player(base, open_table, carl, "Carl")
    anyone.wait_type("state")
    anyone.send({"type": "join", "seat": 1})
    anyone.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
    assert anyone.errors == []
    anyone.close()


def battle_site(tmp_path: Path) -> ServerThread:
    """A server with quick tournaments and the clubs' quotas out of the way."""
    made = tourney_config(str(tmp_path / "basra.db"))
    return ServerThread(replace(made, service=replace(made.service, limits=ROOMY_CLUBS)))


def test_a_club_battle_counts_each_clubs_best_players_and_the_weekly_board_shows_it(
    tmp_path: Path,
) -> None:
    with battle_site(tmp_path) as server:
        base = server.url
        leaders = [organiser(base, "lead"), organiser(base, "head")]
        slugs = [
            http(base + "/api/clubs", {"name": name}, token=token)[1]["slug"]
            for name, token in zip(("Red Club", "Blue Club"), leaders, strict=True)
        ]
        members = {slugs[0]: [leaders[0]], slugs[1]: [leaders[1]]}
        for slug in slugs:
            for _ in range(2):
                token = new_token(base)
                http(f"{base}/api/clubs/{slug}/join", {}, token=token)
                members[slug].append(token)
        form = {"name": "Red v Blue", "rules": ONE_ROUND, "minutes": 5}
        # Checked: the clubs, N, the format; only a leader makes one.
        for battle, field in (
            ({"clubs": [], "best": 2}, "clubs"),
            ({"clubs": ["no-such-club"], "best": 2}, "clubs"),
            ({"clubs": [slugs[1]], "best": 0}, "best"),
            ({"clubs": slugs[1], "best": 2}, "clubs"),
        ):
            status, body = http(
                f"{base}/api/clubs/{slugs[0]}/events", {**form, "battle": battle}, token=leaders[0]
            )
            assert (status, body["field"]) == (422, field), body
        battle = {"clubs": [slugs[1]], "best": 2}
        refused = http(
            f"{base}/api/clubs/{slugs[0]}/events",
            {**form, "battle": battle},
            token=members[slugs[0]][1],
        )
        assert refused[0] == 403 and refused[1]["error"] == "not_club_leader"
        status, made = http(
            f"{base}/api/clubs/{slugs[0]}/events",
            {**form, "battle": battle, "starts_at": time.time() + 2},
            token=leaders[0],
        )
        assert status == 201 and made["kind"] == "battle", made
        event, invite = made["id"], made["invite"]
        # Not listed; the clubs' pages give their members the link, and nobody else enters.
        listed = http(base + "/api/tournaments")[1]
        assert event not in json.dumps(listed)
        shown = http(f"{base}/api/clubs/{slugs[1]}", token=members[slugs[1]][2])[1]["events"]
        assert shown[0]["url"] == f"/tournaments/{event}?invite={invite}"
        assert http(f"{base}/api/clubs/{slugs[1]}")[1]["events"][0]["url"] is None
        outsider = new_token(base)
        status, body = http(
            f"{base}/api/tournaments/{event}/join", {"invite": invite}, token=outsider
        )
        assert status == 403 and body["error"] == "not_club_member", body
        people = []
        for slug in slugs:
            for n, token in enumerate(members[slug]):
                joined = http(
                    f"{base}/api/tournaments/{event}/join",
                    {"invite": invite, "name": f"{slug[:3]}{n}"},
                    token=token,
                )
                assert joined[0] == 201, joined
                people.append(Entrant(base, event, token, f"{slug[:3]}{n}"))
        deadline = time.time() + 120
        while not all(len(p.played) >= 1 and p.player is None for p in people):
            assert time.time() < deadline, [p.played for p in people]
            for person in people:
                if not (len(person.played) >= 1 and person.player is None):
                    person.step()
        for person in people:
            person.close()

        def counted() -> dict[str, Any] | None:
            standings = http(f"{base}/api/clubs/battles/{event}")[1]
            players = sum(len(c["players"]) for c in standings["clubs"])
            total = sum(p["points"] for p in standings["players"])
            return standings if players == 6 and total > 0 else None

        standings = wait_for(counted, "every player's points in the battle's standings")
        assert {c["slug"] for c in standings["clubs"]} == set(slugs) and standings["best"] == 2
        for club in standings["clubs"]:
            points = sorted((p["points"] for p in club["players"]), reverse=True)
            assert club["score"] == sum(points[:2])  # the best two of three count
            assert [p["counted"] for p in club["players"]] == [True, True, False]
        first, second = standings["clubs"]
        assert first["score"] >= second["score"] and first["rank"] == 1
        assert second["rank"] == (1 if first["score"] == second["score"] else 2)
        assert http(f"{base}/api/clubs/battles/nothing-here")[0] == 404
        # The weekly board: each club's battle points and its members' rated wins (the
        # battle's games are rated: each game won is one).
        board = http(base + "/api/clubs/weekly")[1]
        scores = {c["slug"]: c for c in board["clubs"]}
        assert [c["points"] for c in board["clubs"]] == sorted(
            (c["points"] for c in board["clubs"]), reverse=True
        )
        for club in standings["clubs"]:
            nothing = {"battle_points": 0, "rated_wins": 0, "points": 0}
            line = scores.get(club["slug"], nothing)  # a club with no points is not listed
            assert line["battle_points"] == club["score"]
            assert line["points"] == line["battle_points"] + line["rated_wins"]
            assert line["rated_wins"] >= 0
        assert board["until"] - board["since"] == 7 * 86400


def test_a_club_only_tournament_is_entered_by_members_only(tmp_path: Path) -> None:
    with battle_site(tmp_path) as server:
        base = server.url
        amal = organiser(base, "amal")
        slug = http(base + "/api/clubs", {"name": "Cup Club"}, token=amal)[1]["slug"]
        badr = new_token(base)
        http(f"{base}/api/clubs/{slug}/join", {}, token=badr)
        form = {"name": "Club Cup", "format": "swiss", "rounds": 1, "starts_at": time.time() + 600}
        status, made = http(f"{base}/api/clubs/{slug}/events", form, token=amal)
        assert status == 201 and made["kind"] == "club", made
        # Its members are told (a club_event item, linking with the invitation); its maker not.
        eventually(lambda: _told(base, badr), timeout=10)
        (item,) = http(f"{base}/api/notifications", token=badr)[1]["items"]
        assert item["kind"] == "club_event"
        assert item["url"] == f"/tournaments/{made['id']}?invite={made['invite']}"
        assert item["data"] == {
            "club": "Cup Club",
            "slug": slug,
            "event": made["id"],
            "name": "Club Cup",
            "what": "club",
        }
        assert http(f"{base}/api/notifications", token=amal)[1]["items"] == []
        joined = http(
            f"{base}/api/tournaments/{made['id']}/join", {"invite": made["invite"]}, token=badr
        )
        assert joined[0] == 201, joined
        status, body = http(
            f"{base}/api/tournaments/{made['id']}/join",
            {"invite": made["invite"]},
            token=new_token(base),
        )
        assert status == 403 and body["error"] == "not_club_member", body
        assert "Cup Club" in body["message"]
        page = http(f"{base}/api/clubs/{slug}", token=badr)[1]
        assert [(e["id"], e["kind"]) for e in page["events"]] == [(made["id"], "club")]


@pytest.mark.services
def test_clubs_on_postgresql_across_two_processes(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
) -> None:
    options = ("--redis", redis, "--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        amal, badr, carl = new_token(one), new_token(two), new_token(two)
        status, made = http(one + "/api/clubs", {"name": "Ports Club", "open": False}, token=amal)
        assert status == 201, made
        slug = made["slug"]
        copy = http(two + "/api/clubs", {"name": "P\u043erts Club"}, token=carl)  # Cyrillic o
        assert copy[0] == 409 and copy[1]["error"] == "club_taken", copy
        # Badr asks on one process, Amal admits him on the other.
        assert http(f"{two}/api/clubs/{slug}/join", {}, token=badr)[1]["requested"] is True
        page = http(f"{one}/api/clubs/{slug}", token=amal)[1]
        (request,) = page["requests"]
        admitted = http(f"{one}/api/clubs/{slug}/invite", {"code": request["code"]}, token=amal)
        assert admitted[1]["members"] == 2, admitted
        assert [c["slug"] for c in http(f"{two}/api/clubs?q=ports")[1]["clubs"]] == [slug]
        assert http(f"{two}/api/clubs/mine", token=badr)[1]["clubs"][0]["role"] == "member"
        # A club table made on one process refuses Carl on the other.
        two_seats = {"seats": [{"kind": "person"}, {"kind": "person"}]}
        table = create_table(one, amal, "Amal", club=slug, **two_seats)
        stranger = Player(two, table, carl, "Carl")
        stranger.wait_type("state")
        stranger.send({"type": "join", "seat": 1})
        assert stranger.wait_type("error")["code"] == "not_club_member"
        stranger.close()
        handed = http(f"{two}/api/clubs/{slug}/hand-over", {"code": request["code"]}, token=amal)
        assert [m["role"] for m in handed[1]["member_list"]] == ["owner", "leader"]


ODD_BODIES: list[Any] = [
    None,
    [],
    "text",
    5,
    {"username": 5},
    {"code": ""},
    {"table": 5, "seat": "x"},
    {"role": ["leader"]},
    {"description": {"x": 1}},
    {"open": "no"},
    {"battle": "yes"},
    {"battle": {"clubs": [1, 2], "best": "two"}},
    {"name": "x" * 10_000},
]


def test_no_odd_body_on_any_club_route_is_answered_with_a_crash(server: ServerThread) -> None:
    base = server.url
    owner = new_token(base)
    slug = http(base + "/api/clubs", {"name": "Odd Routes"}, token=owner)[1]["slug"]
    actions = ("join", "decline", "edit", "invite", "remove", "role", "hand-over", "events")
    for body in ODD_BODIES:
        for path in ["/api/clubs", *(f"/api/clubs/{slug}/{a}" for a in actions)]:
            status, answer = http(base + path, body, token=owner)
            assert status < 500, (path, body, answer)
            if status >= 400:
                assert answer["error"] and answer["message"], (path, body, answer)
    assert http(f"{base}/api/clubs/{slug}", token=owner)[1]["you"]["role"] == "owner"


def _told(base: str, token: str) -> None:
    assert http(f"{base}/api/notifications", token=token)[1]["items"]
