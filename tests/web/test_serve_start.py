"""``basra serve --config`` as docs/DEPLOY.md starts it: every line of its logs, from the
first, is a JSON object when the logs are JSON (``journalctl -o cat | jq`` reads them
all), with UTC times, no terminal colour codes, and a line for each HTTP request; a
metrics folder that cannot be made is an error in words.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.web.helpers import free_port, wait_http


def serve(config: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "basra", "serve", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_json_logs_are_json_from_the_first_line_in_utc_with_requests(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "basra.toml"
    config.write_text(
        f'[server]\nport = {port}\nlog_format = "json"\nlog_level = "info"\n'
        f'[database]\nurl = "{tmp_path / "basra.db"}"\n'
        f'[operations]\nmetrics_dir = "{tmp_path / "run" / "metrics"}"\n'
    )
    process = serve(config)
    try:
        wait_http(f"http://127.0.0.1:{port}/readyz", 30)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules?x=secret", timeout=10):
            pass
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    lines = [json.loads(line) for line in output.splitlines()]  # every line is JSON
    assert "serving on" in lines[0]["message"]
    assert all(line["time"].endswith("Z") and "T" in line["time"] for line in lines)
    assert not [line for line in lines if "color_message" in line]
    assert "\x1b" not in output
    requests = [line for line in lines if line["logger"] == "basra.server.access"]
    assert [(r["method"], r["path"], r["status"]) for r in requests] == [("GET", "/rules", 200)]
    assert requests[0]["request_id"]  # matched with the proxy's line
    assert (tmp_path / "run" / "metrics").is_dir()


def test_a_metrics_folder_that_cannot_be_made_is_said_in_words(tmp_path: Path) -> None:
    (tmp_path / "run").write_text("a file where the folder would be\n")
    config = tmp_path / "basra.toml"
    config.write_text(
        f'[server]\nport = {free_port()}\n[database]\nurl = "{tmp_path / "basra.db"}"\n'
        f'[operations]\nmetrics_dir = "{tmp_path / "run" / "metrics"}"\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "basra", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("basra serve: error: [operations] metrics_dir: cannot write")
    assert "install -d" in done.stderr
