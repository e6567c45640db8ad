"""Table talk: lines among the seated players through the words policy and its rates;
spectators, mutes, talk turned off, blocks, silences, reports, tournaments, and two
server processes (:mod:`basra.server.features.talk`)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import closing
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
    server_process,
    started_env,
)
from tests.web.test_services import TwoServers, postgres, redis  # noqa: F401 (fixtures)

from basra.cli import main
from basra.server.app import AppConfig
from basra.server.connection import encode
from basra.server.features.talk import PHRASES
from basra.server.features.tournaments.runner import new_event_id
from basra.server.features.tournaments.store import TournamentRow
from basra.server.ops.control import OpsConfig
from basra.server.quotas import Limits, Rate
from basra.server.store.rows import SeatKind, SeatRow
from basra.server.table.admission import Budget
from basra.server.table.forms import TableSpec
from basra.server.table.live import Client
from basra.tournaments import EventSettings

ADMIN = "k" * 40
ROOMY = Rate(1_000_000, 1)
INSULT = "you b\u0430st\u0430rd"
""""bastard" with two Cyrillic letters "а" (U+0430): the word list's folding reads it."""


def config(tmp_path: Path, **limits: Rate) -> AppConfig:
    rates = {"talk_per_identity": ROOMY, "talk_per_address": ROOMY, **limits}
    quotas: Limits = replace(TEST_LIMITS, **rates)
    return AppConfig(
        database=str(tmp_path / "talk.db"),
        service=replace(FAST, limits=quotas),
        ops=OpsConfig(admin_token=ADMIN),
    )


def seated(
    base: str, names: tuple[str, ...], other: str | None = None, **form: Any
) -> list[Player]:
    """People at one table, each in their seat (the second on ``other`` when given)."""
    token = new_token(base)
    seats = [{"kind": "person"}] * len(names)
    table = create_table(base, token, names[0], players=len(names), seats=seats, **form)
    players = [Player(base, table, token, names[0])]
    for seat, name in enumerate(names[1:], start=1):
        player = Player(other if other and seat == 1 else base, table, None, name)
        player.wait_type("state")
        player.send({"type": "join", "seat": seat})
        players.append(player)
    players[0].wait(lambda m: m["type"] == "table" and m["table"]["seats"][-1]["name"] == names[-1])
    return players


def said(player: Player, **fields: Any) -> dict[str, Any]:
    """The line with these fields that the player reads next (other messages skipped)."""
    return player.wait(
        lambda m: m["type"] == "talk" and all(m.get(k) == v for k, v in fields.items())
    )


def refused(player: Player, code: str) -> dict[str, Any]:
    error = player.wait_type("error")
    assert error["code"] == code, error
    return error


def lines_read(player: Player) -> list[dict[str, Any]]:
    """Every line the player has read so far (after what is on its way arrives)."""
    player.drain(0.3)
    return [m for m in player.others if m["type"] == "talk"]


def test_lines_reach_the_players_through_the_words_policy_and_its_rates(
    tmp_path: Path,
) -> None:
    limits = {"talk_per_identity": Rate(3, 60), "talk_per_address": Rate(5, 60)}
    with ServerThread(config(tmp_path, **limits)) as server:
        amal, badr = seated(server.url, ("Amal", "Badr"))
        table = amal.table_id
        watcher = Player(server.url, table, None, "W", watch_only=True)
        watcher.wait_type("state")
        badr.send({"type": "say", "text": "  Good   luck,\u200b Amal "})
        for player in (amal, badr):  # the speaker reads it too; cleaned by the policy
            line = said(player, seat=1, name="Badr", text="Good luck, Amal")
            assert set(line) == {"type", "id", "seat", "name", "text"}
        amal.send({"type": "say", "phrase": "good_game"})
        assert "text" not in said(badr, seat=0, phrase="good_game")
        # The words policy: a confusable insult, blank, too long, not text; names the field.
        badr.send({"type": "say", "text": INSULT})
        error = refused(badr, "talk_not_allowed")
        assert error["field"] == "text" and "text: a line of talk holds a word" in error["message"]
        for bad in ("\u3164 \u200b", "x" * 201, 7, None):
            badr.send({"type": "say", "text": bad})
            assert refused(badr, "bad_talk")["field"] == "text"
        badr.send({"type": "say", "phrase": "you_lose"})
        assert refused(badr, "bad_phrase")["phrases"] == list(PHRASES)
        watcher.send({"type": "say", "text": "hello"})
        refused(watcher, "not_seated")
        assert lines_read(watcher) == []  # spectators read nothing here
        read = [m.get("text") or m.get("phrase") for m in lines_read(amal)]
        assert read == ["Good luck, Amal", "good_game"]  # nothing refused reached her
        # Three lines a person a minute (the good luck was the first) ...
        for text in ("two", "three"):
            badr.send({"type": "say", "text": text})
            said(amal, text=text)
        badr.send({"type": "say", "phrase": "thanks"})
        limited = refused(badr, "rate_limited")
        assert limited["limit"] == "talk" and limited["retry_after"] >= 1
        # ... and five an address (all its people): Amal's second line is the fifth.
        amal.send({"type": "say", "text": "four"})
        said(badr, text="four")
        amal.send({"type": "say", "text": "five"})
        limited = refused(amal, "rate_limited")
        assert "per address" in limited["message"]
        status, info = http(f"{server.url}/api/tables/{table}/talk")
        assert status == 200 and info == {"open": True, "spectators": False}
        # No line is stored anywhere: not in the table's log, not in any row.
        for player in (amal, badr):
            player.send({"type": "say", "text": "a secret between us"})
        time.sleep(0.3)
        path = str(tmp_path / "talk.db")
        with closing(sqlite3.connect(path, timeout=30)) as conn:
            names = [
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            for name in names:
                rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
                assert "Good luck" not in repr(rows) and "three" not in repr(rows), name


def test_spectators_read_only_where_the_tables_maker_allows_it(tmp_path: Path) -> None:
    with ServerThread(config(tmp_path)) as server:
        amal, badr = seated(server.url, ("Amal", "Badr"), talk_spectators=True)
        watcher = Player(server.url, amal.table_id, None, "W", watch_only=True)
        watcher.wait_type("state")
        badr.send({"type": "say", "phrase": "good_luck"})
        said(watcher, seat=1, phrase="good_luck")
        assert http(f"{server.url}/api/tables/{amal.table_id}/talk")[1]["spectators"] is True
        token = new_token(server.url)
        form = {"name": "A", "talk_spectators": "yes"}
        status, body = http(server.url + "/api/tables", form, token=token)
        assert body["field"] == "talk_spectators", body
        assert status == 422  # a form field of the wrong type, named
        assert http(f"{server.url}/api/tables/nope/talk")[0] == 404


def test_a_mute_is_kept_and_talk_can_be_turned_off(tmp_path: Path) -> None:
    with ServerThread(config(tmp_path)) as server:
        amal, badr, carl = seated(server.url, ("Amal", "Badr", "Carl"))
        table, token = amal.table_id, amal.token
        status, mine = http(server.url + "/api/talk/mute", {"table": table, "seat": 1}, token=token)
        assert status == 200 and [m["name"] for m in mine["mutes"]] == ["Badr"]
        badr.send({"type": "say", "text": "can you hear me"})
        said(carl, text="can you hear me")
        said(badr, text="can you hear me")
        carl.send({"type": "say", "text": "I can"})
        said(amal, text="I can")  # Amal reads Carl, not Badr
        assert [m["text"] for m in lines_read(amal)] == ["I can"]
        # Kept: the list says so; unmuted by its id, Badr is heard again.
        listed = http(server.url + "/api/talk", token=token)[1]
        assert listed["off"] is False and listed["mutes"] == mine["mutes"]
        assert listed["phrases"] == list(PHRASES) and listed["max_length"] == 200
        mute = mine["mutes"][0]["id"]
        assert http(server.url + "/api/talk/unmute", {"id": mute}, token=token)[1]["mutes"] == []
        assert http(server.url + "/api/talk/unmute", {"id": mute}, token=token)[0] == 422
        badr.send({"type": "say", "text": "now?"})
        said(amal, text="now?")
        # Refusals name the field.
        for body, field in (({"table": table, "seat": 0}, "seat"), ({"table": table}, "seat")):
            status, error = http(server.url + "/api/talk/mute", body, token=token)
            assert status == 422 and error["field"] == field, error
        assert http(server.url + "/api/talk/mute", {"table": "x", "seat": 1}, token=token)[0] == 404
        assert http(server.url + "/api/talk/mute", {"table": table, "seat": 1})[0] == 401
        # Talk off: Amal reads nothing and cannot talk until she turns it on again.
        off = http(server.url + "/api/talk/settings", {"off": True}, token=token)[1]
        assert off["off"] is True
        assert (
            http(server.url + "/api/talk/settings", {"off": "yes"}, token=token)[1]["field"]
            == "off"
        )
        carl.send({"type": "say", "text": "Amal?"})
        said(badr, text="Amal?")
        amal.send({"type": "say", "text": "hi"})
        refused(amal, "talk_off")
        assert [m["text"] for m in lines_read(amal)] == ["I can", "now?"]  # not Amal?
        http(server.url + "/api/talk/settings", {"off": False}, token=token)
        carl.send({"type": "say", "text": "welcome back"})
        said(amal, text="welcome back")


def test_blocked_people_never_read_each_others_lines(tmp_path: Path) -> None:
    with ServerThread(config(tmp_path)) as server:
        amal, badr, carl = seated(server.url, ("Amal", "Badr", "Carl"))
        block = {"table": amal.table_id, "seat": 1}
        assert http(server.url + "/api/friends/block", block, token=amal.token)[0] == 200
        badr.send({"type": "say", "text": "from Badr"})
        said(carl, text="from Badr")
        amal.send({"type": "say", "text": "from Amal"})
        said(carl, text="from Amal")
        said(badr, text="from Badr")  # his own; Amal's never comes
        assert [m["text"] for m in lines_read(badr)] == ["from Badr"]
        assert [m["text"] for m in lines_read(amal)] == ["from Amal"]


def test_the_operator_silences_and_unsilences_a_persons_talk(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    with ServerThread(config(tmp_path)) as server:
        amal, badr = seated(server.url, ("Amal", "Badr"))
        report = {"table": amal.table_id, "seat": 1, "reason": "abuse"}
        assert http(server.url + "/api/reports", report, token=amal.token)[0] == 201
        who = http(server.url + "/admin/reports", token=ADMIN)[1]["reports"][0]["target"]
        badr_id = who["identity"]
        monkeypatch.setenv("BASRA_ADMIN_TOKEN", ADMIN)
        monkeypatch.delenv("BASRA_CONFIG", raising=False)
        url = ["--url", server.url]
        assert main(["admin", "silence", badr_id, "--hours", "2", "--reason", "insults", *url]) == 0
        out = capsys.readouterr().out
        assert f"({badr_id}) silenced until" in out and "(insults)" in out
        badr.send({"type": "say", "text": "hello"})
        error = refused(badr, "silenced")
        assert "insults" in error["message"] and error["until"] > time.time() + 7000
        assert http(server.url + "/api/talk", token=badr.token)[1]["silenced"] is not None
        amal.send({"type": "say", "text": "Amal may"})
        said(badr, text="Amal may")
        assert main(["admin", "unsilence", badr_id, *url]) == 0
        assert capsys.readouterr().out == f"{badr_id}: may talk again\n"
        badr.send({"type": "say", "text": "back"})
        said(amal, text="back")
        # For good, until unsilenced; a wrong hours is refused, naming the field.
        assert main(["admin", "silence", badr_id, *url]) == 0
        assert "until unsilenced" in capsys.readouterr().out
        badr.send({"type": "say", "phrase": "sorry"})
        assert refused(badr, "silenced")["until"] is None
        status, body = http(
            f"{server.url}/admin/identities/{badr_id}/silence", {"hours": "x"}, token=ADMIN
        )
        assert status == 422 and body["field"] == "hours"
        assert http(f"{server.url}/admin/identities/{badr_id}/silence", {}, token="no")[0] == 403


def test_a_line_is_reported_with_its_words(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    with ServerThread(config(tmp_path)) as server:
        amal, badr = seated(server.url, ("Amal", "Badr"))
        table = amal.table_id
        badr.send({"type": "say", "text": "you play like a potato"})
        line = said(amal, text="you play like a potato")
        report = {"table": table, "line": line["id"], "reason": "abuse", "note": "rude"}
        assert http(server.url + "/api/reports", report, token=amal.token)[0] == 201
        listed = http(server.url + "/admin/reports", token=ADMIN)[1]["reports"][0]
        assert listed["subject"] == "talk" and listed["quote"] == "you play like a potato"
        assert listed["target"]["shown_as"] == "Badr" and listed["table"] == table
        monkeypatch.setenv("BASRA_ADMIN_TOKEN", ADMIN)
        assert main(["admin", "reports", "--url", server.url]) == 0
        assert "said 'you play like a potato'" in capsys.readouterr().out
        # A phrase is quoted by its key; one's own line and an unknown one are refused.
        badr.send({"type": "say", "phrase": "oops"})
        phrase = said(amal, phrase="oops")
        report = {"table": table, "line": phrase["id"], "reason": "spam"}
        assert http(server.url + "/api/reports", report, token=amal.token)[0] == 201
        assert http(server.url + "/admin/reports", token=ADMIN)[1]["reports"][0]["quote"] == (
            "[oops]"
        )
        status, error = http(server.url + "/api/reports", report, token=badr.token)
        assert status == 422 and error["field"] == "line"
        for other in ({**report, "line": "nope"}, {**report, "table": "other"}):
            status, error = http(server.url + "/api/reports", other, token=amal.token)
            assert status == 404 and error["error"] == "no_such_line"


def test_talk_is_closed_at_rated_tournament_games_unless_the_event_opens_it() -> None:
    async def scenario() -> None:
        env = await started_env()
        now = time.time()
        events = {}
        for talk in (False, True):
            settings = EventSettings.from_json(
                {"format": "arena", "minutes": 5, "rules": {"target": 1}, "talk": talk}
            )
            assert settings.to_json().get("talk", False) is talk
            row = TournamentRow(
                new_event_id(), "Cup", settings.to_json(), "created", now + 3600, now
            )
            await env.store.tournaments.create(row, [], [])
            events[talk] = row.id
        seats = {i: SeatRow(i, SeatKind.PERSON, None, f"p{i}", f"P{i}") for i in range(2)}

        def table(event: str, rated: bool, game: int = 1) -> Any:
            spec = TableSpec("egyptian", {}, 2, False, False, ((SeatKind.PERSON, None),) * 2, None)
            spec = replace(spec, rated=rated)
            return env.lifecycle.plan(
                spec, seats, None, "tournament", owner=f"tournament:{event}:{game}:0:0"
            )

        assert await env.talk.closed_at(table(events[False], rated=True)) is True
        assert await env.talk.closed_at(table(events[True], rated=True)) is False
        assert await env.talk.closed_at(table(events[False], rated=False, game=2)) is False
        # Over the socket: a player of the closed game is refused, one of the open one talks.
        for opened, game in ((False, 3), (True, 4)):
            callers = [(await env.identities.create("127.0.0.1")).caller for _ in range(2)]
            for i, c in enumerate(callers):
                seats[i] = SeatRow(i, SeatKind.PERSON, None, c.identity, f"P{i}")
            row = table(events[opened], rated=True, game=game)
            await env.lifecycle.add_once(row, Budget(paired=True))
            client = Client(row.id, callers[0], "P0")
            await env.master.connect(client)
            await env.messages.handle(client, {"type": "say", "phrase": "good_luck"})
            sent = [m for m in drained(client) if m["type"] in ("talk", "error")]
            if opened:
                assert [m["type"] for m in sent] == ["talk"]
            else:
                assert [m.get("code") for m in sent] == ["talk_closed"]
            await env.master.disconnect(client)
        await env.close()

    asyncio.run(scenario())


def drained(client: Client) -> list[dict[str, Any]]:
    """The messages queued for a client, as JSON."""
    out = []
    while not client.outbox.empty():
        message = client.outbox.get_nowait()
        if message is not None:
            out.append(json.loads(encode(message)))
    return out


def test_a_line_crosses_to_another_server_process_and_is_reported_there() -> None:
    with TwoServers() as (one, two):
        amal, badr = seated(one, ("Amal", "Badr"), other=two)
        badr.send({"type": "say", "text": "from the other side"})
        line = said(amal, seat=1, text="from the other side")
        said(badr, text="from the other side")
        amal.send({"type": "say", "phrase": "well_played"})
        said(badr, seat=0, phrase="well_played")
        report = {"table": amal.table_id, "line": line["id"], "reason": "other"}
        assert http(one + "/api/reports", report, token=amal.token)[0] == 201
        assert http(two + "/api/reports", report, token=amal.token)[0] == 201


@pytest.mark.services
def test_lines_and_mutes_cross_two_processes_on_postgresql_and_redis(
    postgres: str,  # noqa: F811
    redis: str,  # noqa: F811
) -> None:
    options = ("--redis", redis, "--bot-delay", "0", "--round-pause", "0")
    with (
        server_process(postgres, *options) as (_, one),
        server_process(postgres, *options) as (_, two),
    ):
        amal, badr, carl = seated(one, ("Amal", "Badr", "Carl"), other=two)
        badr.send({"type": "say", "text": "over Redis"})  # said on two, read on one
        line = said(amal, seat=1, text="over Redis")
        said(carl, text="over Redis")
        amal.send({"type": "say", "phrase": "thanks"})
        said(badr, seat=0, phrase="thanks")
        # Amal mutes Badr through process two (the mute is in PostgreSQL): process one,
        # which holds her socket, no longer gives her his lines; Carl's still come.
        body = {"table": amal.table_id, "seat": 1}
        assert http(two + "/api/talk/mute", body, token=amal.token)[0] == 200
        badr.send({"type": "say", "text": "hidden from Amal"})
        said(carl, text="hidden from Amal")
        carl.send({"type": "say", "text": "after"})
        said(amal, text="after")
        assert "hidden from Amal" not in [m.get("text") for m in lines_read(amal)]
        # The line said on two is reported on one (each process keeps what it delivered).
        report = {"table": amal.table_id, "line": line["id"], "reason": "abuse"}
        assert http(one + "/api/reports", report, token=amal.token)[0] == 201


def test_the_page_knows_every_phrase_and_refusal_in_every_language() -> None:
    """talk.js sends the server's phrases and says each refusal: t("talk_phrase_" + key)
    and t("err_" + code) exist in every catalogue."""
    import re

    from tests.web.test_words_table import LANGS, STATIC, keys

    text = (STATIC / "talk.js").read_text(encoding="utf-8")
    phrases = re.findall(r"\"([a-z_]+)\"", text.split("PHRASES = [")[1].split("];")[0])
    assert tuple(phrases) == PHRASES  # the page's list is the server's
    refusals = re.findall(r"\"([a-z_]+)\"", text.split("REFUSALS = [")[1].split("];")[0])
    codes = {"talk_not_allowed", "bad_talk", "bad_phrase", "talk_closed", "silenced", "talk_off"}
    assert codes <= set(refusals)
    used = {f"talk_phrase_{key}" for key in phrases} | {f"err_{code}" for code in refusals}
    used |= {"err_no_such_line", "err_rate_limited_retry", "tour_talk_box", "talk_spectators"}
    for lang in LANGS:
        assert not used - keys(lang), (lang, sorted(used - keys(lang)))
