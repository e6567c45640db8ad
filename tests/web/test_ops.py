"""Operations without services: the configuration file, the word list, moderation, the
admin API's guard, readiness and drain, metrics, and a SQLite backup restored and replayed.

(The shipped proxy in front of two processes on PostgreSQL and Redis: test_deploy.py.)
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import tomllib
import urllib.request
from collections.abc import Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import BaseModel
from tests.web.helpers import (
    FAST,
    Player,
    ServerThread,
    create_table,
    http,
    new_token,
    play_to_end,
)

from basra.server import words as policy
from basra.server.app import AppConfig
from basra.server.ops.backup import check_games
from basra.server.ops.config import ConfigError, FileModel, load_config, parse_config
from basra.server.ops.control import OpsConfig
from basra.server.quotas import Limits, Rate
from basra.server.table.forms import CARD_POINTS_BOUND, RULE_BOUNDS

ADMIN = "a" * 40
ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------- the configuration


def test_the_shipped_example_configuration_is_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "secret").write_text("s" * 64)
    text = (ROOT / "deploy" / "basra.toml").read_text()
    text = text.replace("/etc/basra/daily-deal.key", str(tmp_path / "secret"))
    text = text.replace("/etc/basra/admin.token", str(tmp_path / "secret"))
    config = parse_config(text)
    assert config.app.database.startswith("postgresql://") and config.app.redis
    limits = config.app.service.limits
    assert limits.tables_per_identity == Rate(10, 600)
    assert limits.reports_per_address == Rate(20, 3600)
    assert (limits.bot_tables_per_event, limits.open_events_per_address) == (1, 4)
    assert config.daily_secret == b"s" * 64 and config.admin_token == "s" * 64
    assert config.metrics_dir == "/run/basra/metrics" and config.log_format == "json"


def test_the_shipped_configuration_holds_every_key_with_its_default() -> None:
    """deploy/basra.toml says it holds every key, each with its default unless its line
    says "example", and a key without a default commented out: held to the code here."""
    text = (ROOT / "deploy" / "basra.toml").read_text()
    parsed = tomllib.loads(text)
    lines: dict[tuple[str, str], str] = {}
    section = ""
    for line in text.splitlines():
        if heading := re.fullmatch(r"\[(\w+)\]\s*", line):
            section = heading[1]
        elif key := re.match(r"#?\s*(\w+)\s*=", line):
            lines.setdefault((section, key[1]), line)
    expected: dict[tuple[str, str], Any] = {}
    for name, section_field in FileModel.model_fields.items():
        model = section_field.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            for key, key_field in model.model_fields.items():
                expected[(name, key)] = key_field.get_default(call_default_factory=True)
    for name in RULE_BOUNDS:
        expected[("rules", name)] = list(RULE_BOUNDS[name])
    expected[("rules", "card_points_max")] = CARD_POINTS_BOUND
    for quota in fields(Limits):
        default = getattr(Limits(), quota.name)
        value = (
            {"count": default.count, "per": default.per} if isinstance(default, Rate) else default
        )
        expected[("quotas", quota.name)] = value
    expected[("tournaments", "include")] = None
    assert sorted(set(expected) - set(lines)) == []  # every key is there
    assert sorted(set(lines) - set(expected)) == []  # and nothing else
    wrong = []
    for (name, key), default in expected.items():
        line = lines[(name, key)]
        given = parsed.get(name, {}).get(key)
        if line.startswith("#"):
            if default is not None:
                wrong.append(f"[{name}] {key}: commented out, but its default is {default!r}")
        elif "example" not in line and given != default:
            wrong.append(f"[{name}] {key} = {given!r}, but its default is {default!r}")
    assert wrong == []


def test_every_setting_reaches_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASRA_TEST_DB", "postgresql://basra@db:5432/basra")
    (tmp_path / "tournaments.toml").write_text('[[event]]\nname = "Friday"\n')
    (tmp_path / "private.jsonl").write_text("")
    path = tmp_path / "basra.toml"
    path.write_text(
        """
[server]
port = 8101
forwarded_allow_ips = ["10.0.0.5"]
[database]
url_env = "BASRA_TEST_DB"
[tables]
grace = 30
bot_delay = 1
[workers]
bot_processes = 2
review_samples = 100
[quickplay]
pair_every = 0.25
[quotas]
open_tables_per_identity = 2
hints_per_identity = { count = 5, per = 60 }
[rules]
target = [1, 200]
[operations]
metrics_allow = ["10.0.0.0/8"]
[tournaments]
include = "tournaments.toml"
[puzzles]
rated_sets = ["private.jsonl"]
[seasons]
length = "14 days"
first = "2026-03-01T12:00:00+02:00"
divisions = 4
promoted = 2
"""
    )
    config = load_config(path)
    service = config.app.service
    assert (config.port, config.forwarded_allow_ips) == (8101, ["10.0.0.5"])
    assert config.app.database == "postgresql://basra@db:5432/basra"
    assert (service.grace, service.bot_delay, service.bot_processes) == (30, 1, 2)
    assert service.limits.open_tables_per_identity == 2
    assert service.limits.hints_per_identity == Rate(5, 60)
    assert config.app.reviews.samples == 100 and config.app.quickplay.pair_every == 0.25
    assert config.rule_bounds == {"target": (1, 200)}
    assert [str(n) for n in config.metrics_allow] == ["10.0.0.0/8"]
    assert config.tournaments == {"event": [{"name": "Friday"}]}
    assert config.app.puzzles.rated_sets == (str(tmp_path / "private.jsonl"),)
    seasons = config.app.seasons
    assert (seasons.length, seasons.divisions, seasons.promoted, seasons.relegated) == (
        "14 days",
        4,
        2,
        3,
    )
    assert seasons.first == 1772359200.0  # 10:00 UTC


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[server]\nport = 70000", "[server] port: input should be less than or equal to 65535"),
        ('[server]\nport = "8000"', "[server] port: input should be a valid integer"),
        ("[tables]\nbot_delay = -1", "[tables] bot_delay: input should be greater than"),
        ("[tables]\ngrace_period = 1", "[tables] grace_period: is not a setting here"),
        ("[quotas]\nhints = 3", "[quotas] hints: is not a quota"),
        ("[quotas]\nhints_per_identity = 3", "give { count = N, per = SECONDS }"),
        ('[secrets]\ndaily_deal = { env = "BASRA_NO_SUCH_VAR" }', "BASRA_NO_SUCH_VAR is not set"),
        ('[secrets]\nadmin_token = { file = "/nonexistent/x" }', "cannot read /nonexistent/x"),
        ('[secrets]\nadmin_token = { env = "HOME" }', "at least 32 characters"),
        ('[database]\nurl = "mysql://x"', "[database] url: a SQLite path"),
        ('[redis]\nurl = "http://x"', "[redis] url: must start with redis://"),
        ('[operations]\nmetrics_allow = ["everyone"]', "'everyone' is not an address"),
        ("[rules]\ntarget = [10, 1]", "target: [least, most]"),
        ('[tournaments]\ninclude = "missing.toml"', "[tournaments] include: cannot read"),
        ('[puzzles]\nrated_sets = ["missing.jsonl"]', "[puzzles] rated_sets: cannot read"),
        ('[seasons]\nlength = "a quarter"', "[seasons] length: 'a quarter' is not a length"),
        ('[seasons]\nfirst = "soon"', "[seasons] first: 'soon' is not a date"),
        ("[seasons]\ndivisions = 9", "[seasons] divisions: input should be less than or equal"),
        ("[server\nport = 1", "not valid TOML"),
    ],
)
def test_a_bad_value_is_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(text, "basra.toml")
    assert str(error.value).startswith("basra.toml: ") and says in str(error.value)


def test_basra_serve_refuses_a_bad_file_at_start_in_words(tmp_path: Path) -> None:
    path = tmp_path / "basra.toml"
    path.write_text("[tables]\nround_pause = 500\n")
    done = subprocess.run(
        [sys.executable, "-m", "basra", "serve", "--config", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "[tables] round_pause: input should be less than or equal to 120" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("Amal", False),
        ("Dickens", False),
        ("Scunthorpe", False),
        ("أمل", False),
        ("FuckFace", True),
        ("f.u.c.k", True),
        ("sh1t", True),
        ("حمــار", True),
        ("يا ابن الكلب!", True),
        ("شَرموطة", True),
    ],
)
def test_the_shipped_word_list_in_english_and_arabic(name: str, refused: bool) -> None:
    assert policy.shipped().refuses(name) is refused


def test_an_operators_word_list_is_added(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("# our own\nbadword\n*zork\n")
    listed = policy.WordList.from_files([str(words)])
    assert listed.refuses("Mr Badword") and listed.refuses("Zzzzork99") and listed.refuses("sh1t")
    assert not policy.WordList.from_files([str(words)], shipped=False).refuses("shit")


# ---------------------------------------------------------------------- a running server


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    config = AppConfig(
        database=str(tmp_path / "basra.db"),
        service=replace(FAST, bot_delay=0.0),
        ops=OpsConfig(admin_token=ADMIN),
    )
    with ServerThread(config) as server:
        yield server.url


def test_names_are_checked_at_creation_everywhere(site: str) -> None:
    token = new_token(site)
    status, body = http(site + "/api/tables", {"name": "Big Shit"}, token=token)
    assert (status, body["error"]) == (422, "name_not_allowed")
    status, body = http(site + "/api/identity", {"name": "حمار"}, token=token, method="PATCH")
    assert (status, body["error"]) == (422, "name_not_allowed")
    status, body = http(
        site + "/api/account", {"username": "fuckit", "password": "x" * 10}, token=token
    )
    assert (status, body["error"], body["field"]) == (422, "name_not_allowed", "username")


def test_reports_from_a_table_and_a_profile_reach_the_operator(site: str) -> None:
    amal, badr = new_token(site), new_token(site)
    table = create_table(site, amal, seats=[{"kind": "person"}, {"kind": "person"}])
    Player(site, table, badr, "Badr").send({"type": "join", "seat": 1})
    status, _ = http(site + "/api/account", {"username": "badr", "password": "p" * 10}, token=badr)
    assert status == 201
    report = {"table": table, "seat": 1, "reason": "abuse", "note": "  rude   words "}
    assert http(site + "/api/reports", report, token=amal)[0] == 201
    assert http(site + "/api/reports", {"username": "badr", "reason": "name"}, token=amal)[0] == 201
    for bad, field in (
        ({**report, "reason": "meh"}, "reason"),
        ({**report, "seat": 0}, "seat"),  # herself
        ({**report, "note": "x" * 501}, "note"),
    ):
        status, body = http(site + "/api/reports", bad, token=amal)
        assert (status, body["error"], body["field"]) == (422, "bad_report", field)
    assert http(site + "/api/reports", report)[0] == 401
    # Only the operator, with the token, reads them.
    assert http(site + "/admin/reports")[0] == 403
    assert http(site + "/admin/reports", headers={"Authorization": "Bearer wrong"})[0] == 403
    status, body = http(site + "/admin/reports", token=ADMIN)
    assert status == 200 and len(body["reports"]) == 2
    first = body["reports"][-1]
    assert first["reason"] == "abuse" and first["note"] == "rude words" and first["table"] == table
    assert first["target"]["shown_as"] == "Badr"
    status, _ = http(
        site + f"/admin/reports/{first['id']}/close", {"resolution": "warned"}, token=ADMIN
    )
    assert status == 200
    assert len(http(site + "/admin/reports", token=ADMIN)[1]["reports"]) == 1


def test_renaming_and_closing_a_table_by_the_operator(site: str) -> None:
    token = new_token(site)
    table = create_table(site, token, "Rude Name", seats=[{"kind": "person"}, {"kind": "person"}])
    watcher = Player(site, table, watch_only=True)
    watcher.wait_type("table")
    # The operator names the identity by id: find it from a report of the seat.
    other = new_token(site)
    http(site + "/api/reports", {"table": table, "seat": 0, "reason": "name"}, token=other)
    identity = http(site + "/admin/reports", token=ADMIN)[1]["reports"][0]["target"]["identity"]
    status, body = http(
        site + f"/admin/identities/{identity}/rename", {"name": "Player 7"}, token=ADMIN
    )
    assert (status, body) == (200, {"renamed": 1})
    watcher.wait(lambda m: m["type"] == "table" and m["table"]["seats"][0]["name"] == "Player 7")
    assert http(site + "/api/identity", token=token)[1]["name"] == "Player 7"
    status, body = http(site + f"/admin/tables/{table}/close", {}, token=ADMIN)
    assert (status, body["status"]) == (200, "abandoned")
    watcher.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "abandoned")


def test_a_suspension_ends_and_a_rated_seat_is_settled_by_forfeit(site: str) -> None:
    amal, badr = new_token(site), new_token(site)
    table = create_table(
        site, amal, seats=[{"kind": "person"}, {"kind": "person"}], rated=True, rules={"target": 20}
    )
    one = Player(site, table, amal, "Amal")
    two = Player(site, table, badr, "Badr")
    two.wait_type("state")
    two.send({"type": "join", "seat": 1})
    one.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "playing")
    http(site + "/api/reports", {"table": table, "seat": 1, "reason": "cheating"}, token=amal)
    target = http(site + "/admin/reports", token=ADMIN)[1]["reports"][0]["target"]["identity"]
    status, body = http(
        site + f"/admin/identities/{target}/suspend",
        {"hours": 2, "reason": "cheating"},
        token=ADMIN,
    )
    assert status == 200 and body["kind"] == "suspended" and body["until"]
    farewell = two.wait_type("error")
    assert farewell["code"] == "suspended" and farewell["kind"] == "suspended"
    status, body = http(site + "/api/profile", token=badr)
    assert (status, body["error"]) == (403, "suspended")
    # Amal plays on; Badr's seat is played by the stand-in at once and forfeits.
    play_to_end([one], timeout=60)
    table_info = http(site + f"/api/tables/{table}")[1]
    assert table_info["seats"][1]["forfeited"] is True
    assert http(site + f"/admin/identities/{target}/lift", {}, token=ADMIN)[1] == {"lifted": True}
    assert http(site + "/api/profile", token=badr)[0] == 200


def test_readiness_and_metrics_in_one_process(site: str) -> None:
    status, body = http(site + "/readyz")
    assert status == 200 and body["ready"] and body["database"]["migration"] == "0018_talk"
    token = new_token(site)
    table = create_table(site, token, seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}])
    player = Player(site, table, token)
    play_to_end([player], timeout=60)
    with urllib.request.urlopen(site + "/metrics") as response:
        families = {f.name: f for f in text_string_to_metric_families(response.read().decode())}
    moves = families["basra_move_ack_seconds"]
    count = next(s.value for s in moves.samples if s.name.endswith("_count"))
    assert count >= 5  # Amal's moves, each acknowledged


# ---------------------------------------------------------------------- backup


def test_a_sqlite_backup_restores_into_an_empty_file_and_replays(tmp_path: Path) -> None:
    database = tmp_path / "basra.db"
    config = AppConfig(database=str(database), service=replace(FAST, bot_delay=0.0))
    with ServerThread(config) as server:
        token = new_token(server.url)
        bots = [{"kind": "bot", "level": "easy"}] * 2
        for _ in range(2):
            table = create_table(server.url, token, seats=bots, my_seat=None, rules={"target": 15})
            watcher = Player(server.url, table, watch_only=True)
            watcher.wait(lambda m: m["type"] == "state" and m["view"]["over"], timeout=60)
        basra = [sys.executable, "-m", "basra", "admin"]
        dump = tmp_path / "backup.db"
        done = subprocess.run(
            [*basra, "backup", "--database", str(database), str(dump)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    assert "2 finished games replayed: every game replays" in done.stdout
    restored = tmp_path / "restored.db"
    done = subprocess.run(
        [*basra, "restore", "--database", str(restored), str(dump)], capture_output=True, text=True
    )
    assert done.returncode == 0 and "every game replays" in done.stdout, done.stdout + done.stderr
    again = subprocess.run(
        [*basra, "restore", "--database", str(restored), str(dump)], capture_output=True, text=True
    )
    assert again.returncode != 0 and "exists" in again.stderr
    checked = asyncio.run(check_games(str(restored)))
    assert checked.finished == 2 and not checked.failures
