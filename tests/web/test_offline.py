"""Offline play without a browser: the page's engine (offline_engine, run here on CPython),
the check of uploaded games, and the routes of basra.server.offline."""

from __future__ import annotations

import ast
import copy
import io
import json
import random
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

from basra.cards import CARD_NAMES, cards_of, parse_card
from basra.notation import parse_move
from basra.record import Record, result_json
from basra.server import offline_engine
from basra.server.offline import (
    LAZY_IMPORTS,
    PIN,
    CheckedGame,
    CoreSources,
    ForgedRecordError,
    StoredGame,
    check_offline_game,
    manifest,
    offline_router,
)
from basra.server.offline_engine import OfflineTable, call, handle
from basra.server.protocol import state_frame
from basra.view import view_of

STATIC = Path(offline_engine.__file__).parent / "static"


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
    table = offline_engine._table
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
        theirs = json.loads(state_frame(table.state, table.version, viewer, table.last_event()))
        assert mine == theirs
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
    """The page has no basra.cli: a save with an illegal play is refused all the same."""
    monkeypatch.setitem(sys.modules, "basra.cli.records", None)  # importing it fails
    save = copy.deepcopy(medium_game["save"])
    save["rounds"][0]["plays"][0] = "AS" if save["rounds"][0]["plays"][0] != "AS" else "2S"
    answer = call({"op": "open", "save": save})
    assert answer["error"] == "bad_save" and "round 0" in answer["message"]


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
    """Every module the page gets imports the standard library, basra or the offline
    engine at its top; a non-standard import inside a function is a known lazy one."""
    core = CoreSources()
    data, digest = core.build()
    assert core.build() == (data, digest)  # cached while no file changes
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "offline_engine.py" in names and "basra/state.py" in names
    assert "basra/tui/session.py" in names and not any("server/" in n for n in names)
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
                if root in ("basra", "offline_engine") and (
                    module in modules or module.rsplit(".", 1)[0] in modules
                ):
                    continue
                assert id(node) not in top, f"{name} imports {module} at its top"
                lazy = LAZY_IMPORTS.get(module, LAZY_IMPORTS.get(root))
                assert lazy == name.removeprefix("basra/"), (name, module)


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


# ---------------------------------------------------------------- the routes


class Caller:
    def __init__(self, identity: str) -> None:
        self.identity = identity


async def authenticate(token: str | None) -> Caller | None:
    return Caller(f"id-{token}") if token else None


class MemoryGames:
    """Keeps checked games in a dict (phase 2 keeps them in the table store)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], tuple[str, CheckedGame]] = {}

    async def keep(self, identity: str, game: CheckedGame) -> StoredGame:
        key = (identity, game.client_id)
        if key in self.kept:
            return StoredGame(self.kept[key][0], created=False)
        table_id = f"t{len(self.kept) + 1}"
        self.kept[key] = (table_id, game)
        return StoredGame(table_id, created=True)


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(offline_router(STATIC, authenticate=authenticate, games=MemoryGames()))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    with TestClient(app) as test_client:
        yield test_client


def test_upload_route(client: TestClient, medium_game: dict[str, Any]) -> None:
    body = upload_of(medium_game)
    assert client.post("/api/offline/games", json=body).status_code == 401
    auth = {"Authorization": "Bearer abc"}
    first = client.post("/api/offline/games", json=body, headers=auth)
    assert first.status_code == 201, first.text
    answer = first.json()
    assert answer["rated"] is False and answer["status"] == "over"
    assert answer["scores"] == medium_game["summary"]["scores"] and answer["url"].startswith(
        "/replay/"
    )
    again = client.post("/api/offline/games", json=body, headers=auth)
    assert again.status_code == 200 and again.json()["id"] == answer["id"]
    body["result"]["winner"] = 1 - (body["result"]["winner"] or 0)
    refused = client.post("/api/offline/games", json=body, headers=auth)
    assert refused.status_code == 422
    assert (
        refused.json()["error"] == "wrong_result" and "the plays give" in refused.json()["message"]
    )
    assert (
        client.post("/api/offline/games", content=b"{", headers=auth).json()["error"]
        == "bad_request"
    )


def test_upload_without_a_store_is_refused_plainly() -> None:
    app = FastAPI()
    app.include_router(offline_router(STATIC, authenticate=authenticate))
    with TestClient(app) as bare:
        answer = bare.post("/api/offline/games", json={}, headers={"Authorization": "Bearer x"})
    assert answer.status_code == 503 and answer.json()["error"] == "upload_unavailable"


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
    assert client.get("/offline/core/0000.zip").status_code == 404
    for url in urls:
        if url.startswith("/offline/pyodide/"):
            got = client.get(url)
            assert got.status_code == 200, url
    assert client.get("/sw.js").text == answer.text  # the same version while nothing changes


def test_runtime_files_and_what_a_server_without_them_says(tmp_path: Path) -> None:
    app = FastAPI()
    app.include_router(offline_router(STATIC, runtime=tmp_path))
    with TestClient(app) as bare:
        info = bare.get("/offline/runtime.json").json()
        assert info["installed"] is False and "scripts/setup" in info["message"]
        version = PIN["version"]
        missing = bare.get(f"/offline/pyodide/{version}/pyodide.mjs")
        assert missing.status_code == 404 and missing.json()["error"] == "not_installed"
        listing = bare.get("/sw.js").text
        assert "/offline/pyodide/" not in listing  # the shell is kept all the same
        assert bare.get("/offline").status_code == 200


def test_manifest_in_both_languages(client: TestClient) -> None:
    english = client.get("/manifest.webmanifest").json()
    arabic = client.get("/manifest.webmanifest?lang=ar").json()
    assert english["short_name"] == "Basra" and arabic["short_name"] == "بصرة"
    assert english["short_name_localized"] == {"ar": "بصرة"} and arabic["dir"] == "rtl"
    assert english["display"] == "standalone" and english["theme_color"]
    sizes = {icon["sizes"] for icon in english["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in english["icons"])
    for icon in english["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]
    assert manifest("xx")["lang"] == "en"


# ---------------------------------------------------------------- the words


def dictionary(path: Path) -> tuple[set[str], set[str]]:
    """The English and the Arabic keys of a words module (``const EN = {...}``, ``const AR``)."""
    english, arabic = path.read_text(encoding="utf-8").split("const AR = {")
    key = r"\b([a-z_0-9]+): \""
    return set(re.findall(key, english)), set(re.findall(key, arabic))


def test_offline_words_in_english_and_arabic_and_no_other_word_changed() -> None:
    english, arabic = dictionary(STATIC / "offline" / "words.js")
    assert english and english == arabic
    known_en: set[str] = set()
    known_ar: set[str] = set()
    for other in ("i18n.js", "words-players.js", "words-play.js", "words-table.js", "coach.js"):
        en, ar = dictionary(STATIC / other)
        assert not english & en, other  # a key already there would change another page's word
        known_en |= en
        known_ar |= ar
    known_en |= english
    known_ar |= arabic
    for module in ("page.js", "register.js"):
        text = (STATIC / "offline" / module).read_text(encoding="utf-8")
        used = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"[,)]", text))
        used |= set(re.findall(r"\btn\(\"([a-z_0-9]+)\"[,)]", text))
        assert used, module
        assert not used - known_en, (module, sorted(used - known_en))
        assert not used - known_ar, (module, sorted(used - known_ar))
