"""``basra admin`` as an operator meets it in the first hour: a database that is not
there, or is not a database, is one ``error:`` line and nothing is created; the
configuration alone (before or after the action) finds the process and its token; every
option says what it is for; what the server did is said in words.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from tests.web.helpers import FAST, ServerThread, create_table, http, new_token

from basra.cli import build_parser, main
from basra.server.app import AppConfig
from basra.server.ops.backup import check_games
from basra.server.ops.control import OpsConfig
from basra.server.runtime.devservices import postgres_cluster

ADMIN = "t" * 40


def admin(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "basra", "admin", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


@pytest.mark.parametrize("action", ["check", "backup"])
@pytest.mark.parametrize(
    ("database", "says"),
    [
        ("gone/dir/x.db", "there is no SQLite database at gone/dir/x.db"),
        ("memory", "'memory' is a server's store that keeps nothing"),
        ("sqlite:///gone/x.db", "sqlite:////gone/x.db"),
        ("house.toml", "house.toml is not a SQLite database"),
        ("foo://bar", "'foo://bar' is not a database URL"),
        ("postgresql://nobody@127.0.0.1:9/none", "127.0.0.1"),
    ],
)
def test_a_database_that_is_not_there_is_one_error_line_and_nothing_is_made(
    tmp_path: Path, action: str, database: str, says: str
) -> None:
    (tmp_path / "house.toml").write_text("[server]\nport = 8001\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = ["backups/b.dump"] if action == "backup" else []
    done = admin(action, "--database", database, *out, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("basra admin: error: ") and says in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr  # no traceback
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_restoring_a_file_that_is_not_a_dump_leaves_nothing_behind(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a dump\n")
    done = admin("restore", "--database", "new.db", "notes.txt", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "notes.txt is not a SQLite dump" in done.stderr
    assert not (tmp_path / "new.db").exists()


def test_the_configuration_alone_finds_the_process_and_its_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = AppConfig(
        database=str(tmp_path / "basra.db"),
        service=replace(FAST, bot_delay=0.0),
        ops=OpsConfig(admin_token=ADMIN),
    )
    (tmp_path / "admin.token").write_text(ADMIN + "\n")
    monkeypatch.delenv("BASRA_ADMIN_TOKEN", raising=False)
    monkeypatch.delenv("BASRA_CONFIG", raising=False)
    with ServerThread(config) as server:
        house = tmp_path / "basra.toml"
        house.write_text(
            f'[server]\nport = {server.port}\n[database]\nurl = "{tmp_path / "basra.db"}"\n'
            f'[secrets]\nadmin_token = {{ file = "{tmp_path / "admin.token"}" }}\n'
        )
        amal, badr = new_token(server.url), new_token(server.url)
        table = create_table(server.url, amal, seats=[{"kind": "person"}, {"kind": "person"}])
        report = {"table": table, "seat": 0, "reason": "name"}
        assert http(server.url + "/api/reports", report, token=badr)[0] == 201
        # The guide's way: the configuration before the action.
        assert main(["admin", "--config", str(house), "reports"]) == 0
        listed = capsys.readouterr().out
        assert listed.endswith("\n1 report\n")
        assert "None" not in listed and "''" not in listed  # nameless reporter, no note
        identity = http(server.url + "/admin/reports", token=ADMIN)[1]["reports"][0]["target"]
        # ... and after it; what was done is said in words, not JSON.
        who = identity["identity"]
        assert main(["admin", "suspend", who, "--hours", "2", "--config", str(house)]) == 0
        said = capsys.readouterr().out
        assert f"{who} ({who}) suspended until" in said and "{" not in said
        assert re.search(r"until \d{4}-\d\d-\d\d \d\d:\d\d UTC ", said), said
        assert main(["admin", "--config", str(house), "lift", who]) == 0
        assert capsys.readouterr().out == f"{who}: lifted\n"
        # $BASRA_CONFIG is enough too.
        monkeypatch.setenv("BASRA_CONFIG", str(house))
        assert main(["admin", "close-table", table]) == 0
        assert capsys.readouterr().out == f"table {table}: abandoned\n"
        assert main(["admin", "drain"]) == 2  # a process that basra serve did not start
        assert "this process cannot drain" in capsys.readouterr().err
        stopped: list[bool] = []
        server.app.state.env.drain.bind(lambda: stopped.append(True))
        assert main(["admin", "drain"]) == 0 and stopped == [True]
        said = capsys.readouterr().out
        assert said.startswith(f"http://127.0.0.1:{server.port} is draining: ")


def test_every_admin_option_says_what_it_is_for() -> None:
    def choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return dict(found[0].choices)

    admin_parser = choices(build_parser())["admin"]
    missing = [
        f"{name} {option.dest}"
        for name, sub in [("admin", admin_parser), *choices(admin_parser).items()]
        for option in sub._actions
        if option.dest not in ("help", "action") and not option.help
    ]
    assert missing == []


@pytest.mark.services
def test_the_monthly_restore_drill_on_postgresql(tmp_path: Path) -> None:
    """docs/DEPLOY.md's drill: a dump restores into a new database; into one that holds
    tables, only with --force, and without it the refusal is one line, not pg_restore's."""
    with postgres_cluster() as url:
        assert asyncio.run(check_games(url)).tables == 0  # migrated: basra's tables exist
        dump = tmp_path / "basra.dump"
        done = admin("backup", "--database", url, str(dump), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        done = admin("restore", "--database", url, str(dump), cwd=tmp_path)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
        assert "is not empty" in done.stderr and "--force" in done.stderr
        scratch = url.rsplit("/", 1)[0] + "/scratch"
        subprocess.run(["psql", "-Xqc", "CREATE DATABASE scratch", url], check=True)
        done = admin("restore", "--database", scratch, str(dump), cwd=tmp_path)
        assert done.returncode == 0 and "every game replays" in done.stdout, done.stderr
        done = admin("restore", "--force", "--database", url, str(dump), cwd=tmp_path)
        assert done.returncode == 0 and "every game replays" in done.stdout, done.stderr
        done = admin("restore", "--database", scratch, str(tmp_path / "basra.dump.x"), cwd=tmp_path)
        assert done.returncode == 2 and "there is no dump" in done.stderr
