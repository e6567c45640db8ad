"""The shipped deployment files, without the services they drive: deploy/rolling-restart
waits for the proxy's health check (deploy/Caddyfile's ``health_interval``) after each
process is ready, not only for the process.

(The files in use, in front of PostgreSQL, Redis and Caddy: test_deploy.py.)
"""

from __future__ import annotations

import os
import re
import subprocess
import time
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
