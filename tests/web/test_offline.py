"""Offline play without a browser: the page's engine (basra.offline, run here on CPython),
the check of uploaded games, keeping them as tables, and the routes of offline play."""

from __future__ import annotations

import ast
import copy
import hashlib
import io
import json
import random
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import FAST

from basra import offline
from basra.cards import CARD_NAMES, cards_of, parse_card
from basra.notation import parse_move
from basra.offline import OfflineTable, call, handle
from basra.record import Record, result_json
from basra.server.app import AppConfig, create_app
from basra.server.features.offline import offline_table_id
from basra.server.features.offline_check import (
    CheckedGame,
    ForgedRecordError,
    check_offline_game,
)
from basra.server.features.offline_files import (
    COMPILED_STDLIB,
    CORE_BYTECODE,
    LAZY_IMPORTS,
    PIN,
    CoreSources,
    manifest,
    runtime_folder,
)
from basra.server.table.frames import state_frame
from basra.server.transport.routes.pages import STATIC
from basra.view import view_of

ROOT = Path(__file__).resolve().parents[2]


def play_out(
    table_settings: dict[str, Any], rng: random.Random, *, stop_after: int | None = None
) -> dict[str, Any]:
    """Play a game through the engine's calls as the page does: people move at random."""
    answer = call({"op": "new", **table_settings})
    assert answer["ok"], answer
    last = answer
    events = 0
    while stop_after is None or events < stop_after:
        if last.get("over"):
            break
        step = call({"op": "next"})
        if not step["ok"]:
            assert step["error"] == "not_pending", step
            seat = table_of().state.turn
            frames = call({"op": "frames", "viewer": seat})
            view = frames["state"]["view"]
            assert view["seat"] == seat and view["hand"], view
            step = call(
                {
                    "op": "move",
                    "seat": seat,
                    "move": rng.choice(view["legal"]),
                    "version": frames["state"]["version"],
                }
            )
            assert step["ok"], step
        last = step
        events += 1
    return last


def table_of() -> OfflineTable:
    table = offline._table
    assert table is not None
    return table


def upload_of(last: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    summary = last["summary"]
    return {
        "save": last["save"],
        "seat": seat,
        "result": {
            "scores": summary["scores"],
            "winner": summary["winner"],
            "finished": summary["status"] == "over",
        },
    }


@pytest.fixture(scope="module")
def medium_game() -> dict[str, Any]:
    """A whole 2-player game against the medium bot."""
    settings = {"id": "g-medium", "seats": ["person", "medium"], "names": ["Amal", None]}
    return play_out({**settings, "seed": 11}, random.Random(2))


# ---------------------------------------------------------------- the page's engine


def test_frames_are_the_servers_frames() -> None:
    """Every state the page draws is the server's state frame for that seat."""
    rng = random.Random(4)
    play_out(
        {"id": "g", "seats": ["person", "easy", "person", "medium"], "teams": True, "seed": 9},
        rng,
        stop_after=30,
    )
    table = table_of()
    for viewer in (0, 2):
        mine = table.state_message(viewer)
        theirs = state_frame(table.state, table.version, viewer, table.last_event()).body
        assert json.loads(json.dumps(mine)) == json.loads(json.dumps(theirs))
    assert table.state_message(None)["view"].get("hand") is None


def test_hidden_cards_stay_hidden() -> None:
    """A bot's seat is never a viewer; a person's frame holds only that person's hand."""
    rng = random.Random(5)
    play_out({"id": "g", "seats": ["person", "hard"], "seed": 3}, rng, stop_after=2)
    assert call({"op": "frames", "viewer": 1}) == {
        "ok": False,
        "error": "not_seated",
        "message": "seat 1 is not played at this device",
    }
    frame = call({"op": "frames", "viewer": 0})
    text = json.dumps(frame)
    bot_hand = table_of().state.hands[1]
    for card in cards_of(bot_hand):
        assert f'"{CARD_NAMES[card]}"' not in json.dumps(frame["state"]["view"]["hand"])
    assert frame["state"]["view"]["hand_sizes"][1] == len(cards_of(bot_hand))
    assert "known" in text


def test_a_whole_game_and_its_record(medium_game: dict[str, Any]) -> None:
    assert medium_game["over"] and medium_game["summary"]["status"] == "over"
    record = Record.from_json(medium_game["save"])
    replayed = result_json(record.replay())
    assert replayed["score"] == medium_game["summary"]["scores"]
    assert replayed["finished"] and replayed["winner"] == medium_game["summary"]["winner"]
    assert record.names == ["Amal", "Bot 2 (medium)"]


def test_resume_continues_exactly() -> None:
    """A game reopened from its save goes on as it would have without the break."""
    settings = {"id": "g", "seats": ["person", "medium", "easy"], "seed": 21}
    straight = play_out(settings, random.Random(8), stop_after=80)
    people = random.Random(8)
    half = play_out(settings, people, stop_after=40)
    opened = call({"op": "open", "save": json.loads(json.dumps(half["save"]))})
    assert opened["ok"] and opened["summary"]["version"] == half["version"]
    while table_of().version < straight["version"]:
        step = call({"op": "next"})
        if not step["ok"]:
            seat = table_of().state.turn
            frames = call({"op": "frames", "viewer": seat})
            legal = frames["state"]["view"]["legal"]
            version = frames["state"]["version"]
            step = call(
                {"op": "move", "seat": seat, "move": people.choice(legal), "version": version}
            )
            assert step["ok"], step
    assert table_of().save()["rounds"] == straight["save"]["rounds"]


def test_moves_are_checked_like_the_servers() -> None:
    play_out({"id": "g", "seats": ["person", "easy"], "seed": 2}, random.Random(1), stop_after=1)
    table = table_of()
    while table.state.turn != 0:
        call({"op": "next"})
    version = table.version
    assert call({"op": "move", "seat": 0, "move": "ZZ", "version": version})["error"] == "bad_move"
    assert call({"op": "move", "seat": 0, "move": "7S", "version": version - 1})["error"] == "stale"
    assert call({"op": "move", "seat": 1, "move": "7S", "version": version})["error"] == (
        "not_seated"
    )
    hint = call({"op": "hint", "seat": 0, "version": version})
    legal = [m.text() for m in view_of(table.state, 0).legal_moves()]
    assert hint["ok"] and hint["type"] == "hint" and hint["move"] in legal
    assert hint["reason"] and hint["facts"]


def test_refusals_say_why() -> None:
    def refused(request: dict[str, Any]) -> str:
        answer = call(request)
        assert not answer["ok"], answer
        assert answer["message"]
        return str(answer["error"])

    assert refused({"op": "new", "id": "g", "seats": ["medium", "hard"]}) == "bad_seat"
    assert refused({"op": "new", "id": "g", "seats": ["person", "expert"]}) == "bad_seat"
    assert refused({"op": "new", "id": "g", "seats": ["person"]}) == "bad_request"
    assert (
        refused({"op": "new", "id": "g", "seats": ["person", "easy"], "rules": {"target": -1}})
        == "bad_settings"
    )
    assert (
        refused({"op": "new", "id": "g", "seats": ["person", "person"], "names": ["A", "A"]})
        == "bad_name"
    )
    assert refused({"op": "open", "save": {"format": "basra-record/1"}}) == "bad_save"
    assert refused({"op": "fly"}) == "unknown_op"
    assert json.loads(handle("[1]"))["error"] == "bad_request"
    assert call({"op": "rules", "variant": "lebanese", "rules": {"target": 61}})["overrides"] == {
        "target": 61
    }
    assert refused({"op": "rules", "variant": "nowhere"}) == "bad_settings"


def test_a_bad_save_is_refused_without_the_command_line(
    medium_game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page has no basra.cli: a save with an illegal play is refused all the same, in
    words people count in (from 1)."""
    monkeypatch.setitem(sys.modules, "basra.cli.records", None)  # importing it fails
    save = copy.deepcopy(medium_game["save"])
    save["rounds"][0]["plays"][0] = "AS" if save["rounds"][0]["plays"][0] != "AS" else "2S"
    answer = call({"op": "open", "save": save})
    assert answer["error"] == "bad_save" and "round 1, play 1" in answer["message"]


def test_hello_lists_presets_and_levels() -> None:
    answer = call({"op": "hello"})
    assert answer["levels"] == ["easy", "medium", "hard"]
    assert len(answer["variants"]) == 15 and answer["python"].startswith("3.")


def test_conformance_call_matches_the_expected_results() -> None:
    from tests.conftest import CONFORMANCE

    positions = json.loads((CONFORMANCE / "positions.json").read_text())[:30]
    path = CONFORMANCE / "games" / "egyptian.jsonl"
    games = [line for line in path.read_text().splitlines() if line.strip()]
    expected = [
        json.loads(line)
        for line in (CONFORMANCE / "games" / "egyptian.results.jsonl").read_text().splitlines()
        if line.strip()
    ]
    answer = call({"op": "conformance", "positions": positions, "games": games})
    assert [p["options"] for p in answer["positions"]] == [c["options"] for c in positions]
    assert answer["games"] == expected


# ---------------------------------------------------------------- the page's sources


def test_core_zip_is_the_standard_library_and_basra() -> None:
    """Every module the page gets imports the standard library or basra at its top; a
    non-standard import inside a function is a known lazy one. No front end goes (the
    offline table and the session it plays through are the core's)."""
    core = CoreSources()
    data, digest = core.build()
    assert core.build() == (data, digest)  # cached while no file changes
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "basra/offline.py" in names and "basra/session.py" in names
    assert "basra/state.py" in names and "basra/bots/ratings.json" in names
    front_ends = ("server/", "cli/", "tui/", "env/")
    assert not any(n.startswith(f"basra/{front}") for n in names for front in front_ends)
    modules = {
        n[:-3].replace("/", ".").removesuffix(".__init__") for n in names if n.endswith(".py")
    }
    for name, source in _sources(core):
        tree = ast.parse(source)
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported = [node.module]
            else:
                continue
            for module in imported:
                root = module.split(".")[0]
                if root in sys.stdlib_module_names or root == "__future__":
                    continue
                if root == "basra" and (module in modules or module.rsplit(".", 1)[0] in modules):
                    continue
                assert id(node) not in top, f"{name} imports {module} at its top"
                lazy = LAZY_IMPORTS.get(module, LAZY_IMPORTS.get(root, ()))
                assert name.removeprefix("basra/") in lazy, (name, module)


def test_core_zip_carries_bytecode_only_of_the_very_sources_compiled(tmp_path: Path) -> None:
    """Compiled at setup (by the sha256 of each source), a module's bytecode goes beside it
    in the core's zip, in its ``__pycache__`` as the page's Python names it; a module whose
    source changed since goes as its source alone."""
    package = Path(offline.__file__).parent
    offline_source = (package / "offline.py").read_bytes()
    bots_source = (package / "bots" / "__init__.py").read_bytes()
    bytecode = tmp_path / CORE_BYTECODE
    with zipfile.ZipFile(bytecode, "w") as archive:
        archive.writestr("cache_tag", "cpython-399")
        archive.writestr(hashlib.sha256(offline_source).hexdigest() + ".pyc", b"offline code")
        archive.writestr(hashlib.sha256(bots_source).hexdigest() + ".pyc", b"bots code")
        archive.writestr(hashlib.sha256(b"an older state.py").hexdigest() + ".pyc", b"old")
    plain, plain_digest = CoreSources().build()
    data, digest = CoreSources(bytecode=bytecode).build()
    assert digest != plain_digest
    archive = zipfile.ZipFile(io.BytesIO(data))
    compiled = {n: archive.read(n) for n in archive.namelist() if n.endswith(".pyc")}
    assert compiled == {
        "basra/__pycache__/offline.cpython-399.pyc": b"offline code",
        "basra/bots/__pycache__/__init__.cpython-399.pyc": b"bots code",
    }
    assert archive.read("basra/offline.py") == offline_source  # the sources go all the same
    assert set(archive.namelist()) - set(compiled) == set(
        zipfile.ZipFile(io.BytesIO(plain)).namelist()
    )
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    assert CoreSources(bytecode=tmp_path / "junk.zip").build() == (plain, plain_digest)


def _sources(core: CoreSources) -> Iterator[tuple[str, str]]:
    for name, path in core.files():
        if name.endswith(".py"):
            yield name, path.read_text(encoding="utf-8")


# ---------------------------------------------------------------- checking uploads


def test_a_sound_game_is_accepted(medium_game: dict[str, Any]) -> None:
    checked = check_offline_game(upload_of(medium_game))
    assert isinstance(checked, CheckedGame)
    assert checked.status == "over" and checked.uploader_seat == 0
    assert checked.result["score"] == medium_game["summary"]["scores"]
    assert len(checked.bots_checked) > 10  # every medium play was made again
    assert "basra_offline" not in checked.record and checked.record["names"][0] == "Amal"


def test_an_unfinished_game_is_accepted() -> None:
    last = play_out(
        {"id": "u", "seats": ["person", "easy"], "seed": 4}, random.Random(3), stop_after=9
    )
    checked = check_offline_game(upload_of(last))
    assert checked.status == "unfinished" and not checked.finished


def forged(upload: dict[str, Any]) -> ForgedRecordError:
    with pytest.raises(ForgedRecordError) as caught:
        check_offline_game(upload)
    assert caught.value.message
    return caught.value


def test_forged_games_are_refused_with_the_reason(medium_game: dict[str, Any]) -> None:
    good = upload_of(medium_game)

    def changed(edit: Any) -> dict[str, Any]:
        upload = copy.deepcopy(good)
        edit(upload)
        return upload

    def swap_pack(u: dict[str, Any]) -> None:
        pack = u["save"]["rounds"][1]["pack"]
        pack[0], pack[-1] = pack[-1], pack[0]

    error = forged(changed(swap_pack))
    assert error.code == "wrong_deal" and "round 2" in error.message

    def better_bot_play(u: dict[str, Any]) -> None:
        record = Record.from_json(u["save"])
        state = record.new_state()
        state.deal(_pack(record, 0))
        plays = u["save"]["rounds"][0]["plays"]
        for index, text in enumerate(plays):
            others = [m.text() for m in state.legal_moves() if m.text() != text]
            if state.turn == 1 and others:
                plays[index] = others[0]
                return
            state.push(parse_move(state, text))

    error = forged(changed(better_bot_play))
    assert error.code == "wrong_bot_play" and "Bot 2 (medium) plays" in error.message

    error = forged(changed(lambda u: u["result"].update(scores=[200, 0])))
    assert error.code == "wrong_result" and "the plays give" in error.message

    error = forged(changed(lambda u: u["save"]["rounds"][0]["plays"].__setitem__(0, "AS")))
    assert error.code in ("illegal_play", "wrong_bot_play")

    error = forged(changed(lambda u: u["save"]["basra_play"].update(seed=12)))
    assert error.code == "wrong_deal"

    error = forged(changed(lambda u: u["save"]["basra_play"].update(seats=["medium", "medium"])))
    assert error.code == "bad_seat"

    error = forged(changed(lambda u: u["save"]["basra_play"].update(seats=["person", "expert"])))
    assert error.code == "bad_seat"

    error = forged(changed(lambda u: u["save"]["names"].__setitem__(1, "Grandmaster")))
    assert error.code == "bad_seat"

    error = forged(changed(lambda u: u["save"].pop("basra_offline")))
    assert error.code == "bad_record"

    error = forged(changed(lambda u: u["save"].update(players=3)))
    assert error.code == "bad_record"

    error = forged(changed(lambda u: u.update(seat=1)))
    assert error.code == "bad_seat"


def _pack(record: Record, index: int) -> list[int]:
    return [parse_card(c) for c in record.rounds[index].pack]


# ---------------------------------------------------------------- keeping uploads


def app_client(database: str = "memory") -> TestClient:
    """The whole app (its environment on ``database``), served in this process."""
    return TestClient(create_app(AppConfig(database=database, service=FAST)))


def signed_in(client: TestClient) -> dict[str, str]:
    """The headers of a new identity's requests."""
    answer = client.post("/api/identity", json={})
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = str(tmp_path_factory.mktemp("offline") / "basra.db")
    with app_client(database) as test_client:
        yield test_client


def uploaded(client: TestClient, body: dict[str, Any], auth: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/api/offline/games", json=body, headers=auth)
    assert answer.status_code in (200, 201), answer.text
    return {"status_code": answer.status_code, **answer.json()}


def my_game(client: TestClient, auth: dict[str, str], table_id: str) -> dict[str, Any]:
    games = client.get("/api/games", headers=auth).json()["games"]
    return next(g for g in games if g["id"] == table_id)


@pytest.mark.parametrize("database", ["memory", "sqlite"])
def test_an_upload_is_kept_as_a_table_of_my_games(
    database: str, medium_game: dict[str, Any], tmp_path: Path
) -> None:
    body = upload_of(medium_game)
    where = "memory" if database == "memory" else str(tmp_path / "basra.db")
    with app_client(where) as client:
        assert client.post("/api/offline/games", json=body).status_code == 401
        auth = signed_in(client)
        first = uploaded(client, body, auth)
        table_id = first["id"]
        assert first["status_code"] == 201 and first["url"] == f"/replay/{table_id}"
        assert first["rated"] is False and first["status"] == "over"
        assert first["scores"] == medium_game["summary"]["scores"]
        again = uploaded(client, body, auth)  # the page sends it again: the same table
        assert again["status_code"] == 200 and again["id"] == table_id
        assert again["appended"] == 0

        game = my_game(client, auth, table_id)
        assert game["status"] == "over" and game["offline"] is True and game["daily"] is False
        assert game["names"] == ["Amal", None] and game["seat"] == 0
        assert game["kinds"] == ["person", "bot"] and game["levels"] == [None, "medium"]
        assert game["scores"] == medium_game["summary"]["scores"]
        assert game["winner"] == medium_game["summary"]["winner"]

        replay = client.get(f"/api/games/{table_id}/replay").json()
        assert replay["result"]["score"] == medium_game["summary"]["scores"]
        assert replay["names"] == ["Amal", "Bot 2 (medium)"]
        record = client.get(f"/api/games/{table_id}/record").json()
        assert record["rounds"] == medium_game["save"]["rounds"]
        assert record["first_dealer"] == medium_game["save"]["first_dealer"]

        table = client.get(f"/api/tables/{table_id}").json()
        assert table["status"] == "over" and table["rated"] is False
        assert not any(seat["open"] for seat in table["seats"])
        # Never rated, never settled into results: no leaderboard ever sees it.
        env = client.app.state.env  # type: ignore[attr-defined]
        assert client.portal.call(env.store.players.results_at, table_id) == []  # type: ignore[union-attr]
        row = client.portal.call(env.store.tables.load, table_id)  # type: ignore[union-attr]
        assert row.created_from == "offline" and row.settled_at is not None and not row.rated

        forged = copy.deepcopy(body)
        forged["result"]["winner"] = 1 - (forged["result"]["winner"] or 0)
        refused = client.post("/api/offline/games", json=forged, headers=auth)
        assert refused.status_code == 422
        assert refused.json()["error"] == "wrong_result"
        assert "the plays give" in refused.json()["message"]
        bad = client.post("/api/offline/games", content=b"{", headers=auth)
        assert bad.status_code == 400 and bad.json()["message"]
        missing = client.post("/api/offline/games", json={"save": {}}, headers=auth)
        assert missing.status_code == 422 and missing.json()["field"] == "result"


def continued(save: dict[str, Any], people: random.Random, events: int | None) -> dict[str, Any]:
    """The engine's answer after going on with a saved game (to its end with no ``events``)."""
    opened = call({"op": "open", "save": save})
    assert opened["ok"], opened
    last = opened
    done = 0
    while not table_of().state.is_over and (events is None or done < events):
        step = call({"op": "next"})
        if not step["ok"]:
            seat = table_of().state.turn
            frames = call({"op": "frames", "viewer": seat})
            move = people.choice(frames["state"]["view"]["legal"])
            version = frames["state"]["version"]
            step = call({"op": "move", "seat": seat, "move": move, "version": version})
            assert step["ok"], step
        last = step
        done += 1
    return last


def test_an_unfinished_game_is_kept_then_grows_until_it_is_over(client: TestClient) -> None:
    people = random.Random(6)
    settings = {"id": "grows", "seats": ["person", "easy"], "names": ["Amal", None], "seed": 8}
    start = play_out(settings, people, stop_after=9)
    auth = signed_in(client)
    first = uploaded(client, upload_of(start), auth)
    table_id = first["id"]
    assert first["status_code"] == 201 and first["status"] == "unfinished"
    assert first["url"] is None
    game = my_game(client, auth, table_id)
    assert game["status"] == "unfinished" and game["offline"] is True
    # Cards are still hidden: no record, replay or review of it yet.
    assert client.get(f"/api/games/{table_id}/replay").json()["error"] == "not_over"
    assert client.get(f"/api/games/{table_id}/record").status_code == 409
    review = client.post(f"/api/games/{table_id}/review", headers=auth)
    assert review.status_code == 409 and review.json()["error"] == "not_over"

    middle = continued(copy.deepcopy(start["save"]), people, events=15)
    grown = uploaded(client, upload_of(middle), auth)
    assert grown["status_code"] == 200 and grown["id"] == table_id
    assert grown["appended"] == 15 and grown["status"] == "unfinished"
    end = continued(copy.deepcopy(middle["save"]), people, events=None)
    over = uploaded(client, upload_of(end), auth)
    assert over["status"] == "over" and over["url"] == f"/replay/{table_id}"
    assert over["appended"] == end["version"] - middle["version"]
    replay = client.get(f"/api/games/{table_id}/replay").json()
    assert replay["result"]["score"] == end["summary"]["scores"]
    assert client.get(f"/api/games/{table_id}/record").json()["rounds"] == end["save"]["rounds"]
    # An older state of it sent late changes nothing: the kept game stands.
    late = uploaded(client, upload_of(middle), auth)
    assert (late["status_code"], late["status"], late["appended"]) == (200, "over", 0)
    # Someone else's upload of the same save is their own game.
    other = uploaded(client, upload_of(end), signed_in(client))
    assert other["status_code"] == 201 and other["id"] != table_id
    assert my_game(client, auth, table_id)["status"] == "over"


def test_hard_decisions_are_made_again_on_the_workers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hard bot's search seeds each decision from a stable hash: the server makes
    the page's hard plays again (on its workers) and finds a changed one."""
    settings = {"id": "hard", "seats": ["person", "hard"], "names": ["Amal", None], "seed": 5}
    with monkeypatch.context() as page:  # as in the page: the search has no compiled kernel
        page.setattr("basra.bots.ismcts.search_module", lambda: None)
        start = play_out(settings, random.Random(1), stop_after=12)
    body = upload_of(start)
    checked = check_offline_game(body, defer=("hard",))
    assert len(checked.deferred) >= 4 and checked.bots_checked == ()
    auth = signed_in(client)
    forged = copy.deepcopy(body)
    record = Record.from_json(forged["save"])
    state = record.new_state()
    state.deal(_pack(record, 0))
    plays = forged["save"]["rounds"][0]["plays"]
    for index, text in enumerate(plays):
        others = [m.text() for m in state.legal_moves() if m.text() != text]
        if state.turn == 1 and others:
            plays[index] = others[0]
            break
        state.push(parse_move(state, text))
    forged["save"]["rounds"][0]["plays"] = plays[: index + 1]  # the game ends at the change
    tail = Record.from_json(forged["save"]).replay()
    forged["result"] = {"scores": list(tail.scores), "winner": None, "finished": False}
    refused = client.post("/api/offline/games", json=forged, headers=auth)
    assert refused.status_code == 422, refused.text
    assert (
        refused.json()["error"] == "wrong_bot_play"
        and "Bot 2 (hard) plays" in (refused.json()["message"])
    )
    kept = uploaded(client, body, auth)
    assert kept["status_code"] == 201 and kept["status"] == "unfinished"


def test_the_table_id_is_the_identitys_and_the_games(client: TestClient) -> None:
    assert offline_table_id("a", "g") == offline_table_id("a", "g")
    assert (
        len({offline_table_id("a", "g"), offline_table_id("b", "g"), offline_table_id("a", "h")})
        == 3
    )


# ---------------------------------------------------------------- the files


def test_service_worker_lists_every_file_with_its_hash(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache"
    assert answer.headers["content-type"].startswith("text/javascript")
    first_line = answer.text.split("\n")[1]
    listing = json.loads(first_line.removeprefix("self.PRECACHE = ").removesuffix(";"))
    urls = [entry["url"] for entry in listing["entries"]]
    assert urls[0] == "/" and "/static/app.js" in urls and "/static/cards/7D.svg" in urls
    assert "/offline/runtime.json" in urls
    core = next(url for url in urls if url.startswith("/offline/core/"))
    zipped = client.get(core)
    assert zipped.content[:2] == b"PK"
    etag = zipped.headers["etag"]
    assert client.get(core, headers={"If-None-Match": etag}).status_code == 304
    stale = client.get("/offline/core/0000.zip")
    assert stale.status_code == 404 and stale.json()["current"] == core
    for url in urls:
        if url.startswith("/offline/pyodide/"):
            got = client.get(url)
            assert got.status_code == 200, url
    assert client.get("/offline/pyodide/0.0.1/pyodide.mjs").json()["error"] == "no_such_file"
    assert client.get("/sw.js").text == answer.text  # the same version while nothing changes


def test_runtime_files_and_what_a_server_without_them_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BASRA_PYODIDE", str(tmp_path))
    with app_client() as bare:
        info = bare.get("/offline/runtime.json").json()
        assert info["installed"] is False and "scripts/setup" in info["message"]
        version = PIN["version"]
        missing = bare.get(f"/offline/pyodide/{version}/pyodide.mjs")
        assert missing.status_code == 404 and missing.json()["error"] == "not_installed"
        listing = bare.get("/sw.js").text
        assert "/offline/pyodide/" not in listing  # the shell is kept all the same
        assert bare.get("/offline").status_code == 200
        assert bare.get("/offline/g/abc").status_code == 200


def runtime_copy(folder: Path) -> Path:
    """A runtime folder of links to the installed runtime's files (and its stamp)."""
    installed = runtime_folder()
    folder.mkdir()
    for name in [*PIN["files"], "VERSION.json"]:
        (folder / name).symlink_to(installed / name)
    return folder


def test_the_compiled_standard_library_replaces_the_sources_where_setup_made_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = runtime_copy(tmp_path / "runtime")
    monkeypatch.setenv("BASRA_PYODIDE", str(folder))
    version = PIN["version"]
    with app_client() as plain:  # no compiled one: the sources, as before
        info = plain.get("/offline/runtime.json").json()
        assert info["installed"] is True
        assert info["pyodide"]["stdlib"]["name"] == "python_stdlib.zip"
        assert f"/offline/pyodide/{version}/python_stdlib.zip" in plain.get("/sw.js").text
        assert plain.get(f"/offline/pyodide/{version}/{COMPILED_STDLIB}").status_code == 404
        source_hash = info["pyodide"]["stdlib"]["hash"]
    (folder / COMPILED_STDLIB).write_bytes(b"PK compiled")
    with app_client() as compiled:
        info = compiled.get("/offline/runtime.json").json()
        stdlib = info["pyodide"]["stdlib"]
        assert stdlib["name"] == COMPILED_STDLIB and stdlib["hash"] != source_hash
        listing = compiled.get("/sw.js").text
        assert f"/offline/pyodide/{version}/{COMPILED_STDLIB}" in listing
        assert "python_stdlib.zip" not in listing  # one standard library kept on the device
        served = compiled.get(f"/offline/pyodide/{version}/{COMPILED_STDLIB}")
        assert served.status_code == 200 and served.content == b"PK compiled"


def test_compile_stdlib_compiles_what_a_start_imports(tmp_path: Path) -> None:
    """scripts/compile-stdlib.mjs (Node, the runtime itself): the modules the engine's start
    imports as unchecked-hash bytecode of that Python, the rest as sources, every other
    file as it was."""
    node = shutil.which("node")
    assert node, "Node is needed to compile the standard library (scripts/fetch-pyodide)"
    folder = runtime_copy(tmp_path / "runtime")
    script = ROOT / "scripts" / "compile-stdlib.mjs"
    done = subprocess.run(
        [node, str(script), str(folder), str(ROOT / "src" / "basra")],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    sources = zipfile.ZipFile(folder / "python_stdlib.zip")
    compiled = zipfile.ZipFile(folder / COMPILED_STDLIB)
    names = set(compiled.namelist())
    assert {"json/__init__.pyc", "random.pyc", "dataclasses.pyc"} <= names  # the engine's
    assert "json/__init__.py" not in names and "antigravity.py" in names  # not imported: a source
    for name in sources.namelist():
        if name.endswith(".py"):
            assert (name in names) != (name + "c" in names), name
        else:
            assert compiled.read(name) == sources.read(name), name
    engine = zipfile.ZipFile(folder / CORE_BYTECODE)  # the engine's own, by their sources
    assert engine.read("cache_tag").startswith(b"cpython-3")
    source = (ROOT / "src" / "basra" / "offline.py").read_bytes()
    assert hashlib.sha256(source).hexdigest() + ".pyc" in engine.namelist()
    header = compiled.read("random.pyc")[:16]
    assert header[2:4] == b"\r\n" and int.from_bytes(header[4:8], "little") == 1  # PEP 552
    magics = {compiled.read(n)[:4] for n in names if n.endswith(".pyc")}
    assert magics == {header[:4]}  # one Python's bytecode throughout


def test_manifest_in_every_language(client: TestClient) -> None:
    english = client.get("/manifest.webmanifest").json()
    arabic = client.get("/manifest.webmanifest?lang=ar").json()
    greek = client.get("/manifest.webmanifest?lang=el").json()
    french = client.get("/manifest.webmanifest?lang=fr").json()
    assert english["short_name"] == "Basra" and arabic["short_name"] == "بصرة"
    assert greek["short_name"] == "Μπάσρα" and greek["lang"] == "el" and greek["dir"] == "ltr"
    assert french["name"] == "Basra : le jeu de cartes" and french["shortcuts"][0]["name"] == (
        "Jouer hors ligne"
    )
    assert english["short_name_localized"] == {"ar": "بصرة", "el": "Μπάσρα", "fr": "Basra"}
    assert arabic["dir"] == "rtl"
    assert english["display"] == "standalone" and english["theme_color"]
    sizes = {icon["sizes"] for icon in english["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in english["icons"])
    for icon in english["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]
    assert manifest("xx")["lang"] == "en"


# ---------------------------------------------------------------- the words


def test_offline_words_in_every_language() -> None:
    from tests.web.test_words_table import LANGS, keys

    for module in ("page.js", "register.js"):
        text = (STATIC / "offline" / module).read_text(encoding="utf-8")
        used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
        used |= set(re.findall(r"\btn\(\"([a-z_0-9]+)\"[,)]", text))
        assert used, module
        for lang in LANGS:
            assert not used - keys(lang), (module, lang, sorted(used - keys(lang)))
