"""The shipped deployment files and docs/DEPLOY.md, without the services they drive:
deploy/rolling-restart waits for the proxy's health check (deploy/Caddyfile's
``health_interval``) after each process is ready, not only for the process; the guide's
``basra`` commands are ones ``basra`` takes, as written; it installs the web server's
extra and needs no ``sudo``.

(The files in use, in front of PostgreSQL, Redis and Caddy: test_deploy.py.)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import time
import tomllib
from pathlib import Path

from tests.web.helpers import ROOT

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
