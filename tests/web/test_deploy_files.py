"""The shipped deployment files and docs/DEPLOY.md, without the services they drive:
deploy/rolling-restart waits for the proxy's health check (deploy/Caddyfile's
``health_interval``) after each process is ready, not only for the process; the guide's
``basra`` commands are ones ``basra`` takes, as written; it installs the web server's
extra and needs no ``sudo``.

(The files in use, in front of PostgreSQL, Redis and Caddy: test_deploy.py.)
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from tests.web.helpers import ROOT, free_port, wait_http

DEPLOY = ROOT / "deploy"


def seconds(text: str) -> float:
    number = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)", text)
    assert number, text
    return float(number[1]) / (1000 if number[2] == "ms" else 1)


def test_a_rolling_restart_waits_for_the_proxys_health_check(tmp_path: Path) -> None:
    """Each restart begins at least one health interval after the one before is ready."""
    health = re.search(r"health_interval\s+(\S+)", (DEPLOY / "Caddyfile").read_text())
    assert health is not None
    interval = seconds(health[1])
    log = tmp_path / "log"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # Stand-ins for systemctl and curl: the restart is logged, the process is ready at once.
    for name, body in (
        ("systemctl", f'echo "restart $2 $(date +%s.%N)" >> {log}'),
        ("curl", f'echo "ready $(date +%s.%N)" >> {log}'),
    ):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    env.pop("BASRA_HEALTH_WAIT", None)
    started = time.monotonic()
    done = subprocess.run(
        ["sh", str(DEPLOY / "rolling-restart"), "8001", "8002"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    events = [line.split() for line in log.read_text().splitlines()]
    restarts = [float(e[-1]) for e in events if e[0] == "restart"]
    ready = [float(e[-1]) for e in events if e[0] == "ready"]
    assert len(restarts) == 2 and len(ready) == 2
    assert restarts[1] - ready[0] > interval  # the proxy has checked the first one again
    assert time.monotonic() - started > 2 * interval  # and the last one too before it ends
    assert "waiting" in done.stdout and "health check" in done.stdout


def guide_commands() -> list[str]:
    """The shell lines of docs/DEPLOY.md's code blocks, continuation lines joined."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [
        line.strip()
        for block in blocks
        for line in block.replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_guides_basra_commands_are_ones_basra_takes() -> None:
    """Every `basra ...` line of the guide (the `$B` moderation lines with B set as the
    guide sets it) parses: the options where the guide puts them, the actions it names."""
    from basra.cli import build_parser

    lines = guide_commands()
    b_lines = [line for line in lines if line.startswith("B=")]
    assert len(b_lines) == 1
    prefix = shlex.split(b_lines[0].split("=", 1)[1])[0].split()  # $B, word-split
    commands = []
    for line in lines:
        words = shlex.split(line, comments=True)
        if words[:1] == ["$B"]:
            commands.append(prefix + words[1:])
        commands += [
            words[i:]
            for i in range(len(words) - 1)
            if words[i] == "basra" and words[i + 1] in ("admin", "serve")
        ]
    assert len(commands) >= 9, commands
    parser = build_parser()
    for command in commands:
        parser.parse_args(command[1:])  # exits (status 2) on a command basra does not take


def test_the_guide_installs_the_web_server_and_needs_no_sudo() -> None:
    lines = guide_commands()
    installs = [line for line in lines if " install " in line and "/opt/basra/src" in line]
    assert installs and all("/opt/basra/src[web]" in line for line in installs), installs
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    web = " ".join(project["project"]["optional-dependencies"]["web"])
    assert "fastapi" in web and "uvicorn" in web and "python-json-logger" in web
    assert not [line for line in lines if line.startswith("sudo") or " sudo " in line]
    # The metrics folder the configuration names exists before the check run.
    check = next(i for i, line in enumerate(lines) if "--port 8009" in line)
    assert any("/run/basra/metrics" in line for line in lines[:check])


def unit_command(unit: str, **values: str) -> list[str]:
    """A shipped unit's ExecStart as this test runs it: the venv's basra is this Python's
    ``-m basra``, and each of ``values``' paths is replaced (systemd's ``%%`` is ``%``)."""
    text = (DEPLOY / "systemd" / unit).read_text()
    line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
    command = line.split("=", 1)[1].replace("%%", "%")
    for old, new in values.items():
        command = command.replace(old, new)
    words = shlex.split(command)
    if words[:2] == ["/bin/sh", "-c"]:
        return ["/bin/sh", "-c", words[2].replace("/opt/basra/venv/bin/basra", BASRA)]
    index = words.index("/opt/basra/venv/bin/basra")
    return [sys.executable, "-m", "basra", *words[index + 1 :]]


BASRA = f"{shlex.quote(sys.executable)} -m basra"


@pytest.mark.services
def test_the_shipped_units_and_configuration_run_as_the_guide_says(tmp_path: Path) -> None:
    """deploy/basra.toml with only its URLs, secrets and folders set (PostgreSQL; one
    process, so no Redis), started by the unit's own command line; the guide's moderation
    command with the configuration alone; the backup unit's command; the restore drill."""
    from basra.server.runtime.devservices import postgres_cluster

    for name in ("daily-deal.key", "admin.token"):
        (tmp_path / name).write_text("k" * 64 + "\n")
    port = free_port()
    with postgres_cluster() as url:
        text = (DEPLOY / "basra.toml").read_text()
        text = text.replace('url = "postgresql:///basra"', f'url = "{url}"')
        text = text.replace('url = "redis://127.0.0.1:6379/0"', "# no Redis: one process")
        text = text.replace("/etc/basra/", f"{tmp_path}/")
        text = text.replace("/run/basra/metrics", str(tmp_path / "metrics"))
        text = text.replace("port = 8001", f"port = {port}")
        config = tmp_path / "basra.toml"
        config.write_text(text)
        values = {"/etc/basra/basra.toml": str(config), "%i": str(port)}
        values["/var/backups/basra"] = str(tmp_path)
        server = subprocess.Popen(
            unit_command("basra@.service", **values),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_http(f"http://127.0.0.1:{port}/readyz", 60)
            admin = [sys.executable, "-m", "basra", "admin", "--config", str(config)]
            done = subprocess.run([*admin, "reports"], capture_output=True, text=True, timeout=60)
            assert (done.returncode, done.stdout) == (0, "0 reports\n"), done.stderr
            backup = unit_command("basra-backup.service", **values)
            done = subprocess.run(backup, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0 and "every game replays" in done.stdout, done.stderr
        finally:
            server.terminate()
            output, _ = server.communicate(timeout=60)
        lines = [json.loads(line) for line in output.splitlines()]  # the JSON logs, whole
        assert "serving on" in lines[0]["message"]
        dumps = sorted(tmp_path.glob("basra-*.dump"))
        assert len(dumps) == 1
        scratch = url.rsplit("/", 1)[0] + "/scratch"
        subprocess.run(["psql", "-Xqc", "CREATE DATABASE scratch", url], check=True)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "basra",
                "admin",
                "restore",
                "--database",
                scratch,
                str(dumps[0]),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0 and "every game replays" in done.stdout, done.stderr
