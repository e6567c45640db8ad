"""docs/DEPLOY.md, run: the guide's own shell blocks, in its order, so that it cannot drift
from the code.

Each ``sh`` block of the guide is marked for this test by an HTML comment before it
(``<!-- guide: NAME -->``, invisible to readers). The test reads the guide, and runs
each block with ``bash -eu -o pipefail`` (as root would paste it, stopping at the first
failure), except those in :data:`NOT_RUN`, each with why. A block that is not marked,
or marked and neither run nor listed, fails the test: changing the guide changes what
runs here.

What is changed in a block before it runs, and nothing else:

- **Paths.** The guide's absolute paths (``/opt/basra``, ``/etc/basra``, ``/run/basra``,
  ``/var/lib/basra``, ``/var/backups/basra``, ``/etc/caddy``, ``/etc/default/caddy``,
  ``/etc/systemd/system``, ``/usr/local/bin``: ``guide_standins.GUIDE_PATHS``) are moved
  under the test's ``tmp_path / "root"``, in the blocks, in the shipped unit files and in
  the shipped ``basra.toml`` alike (``guide_standins.rooted``).
- **Ports.** 8001, 8002 (the processes) and 8009 (the check run) are free ports, and the
  site's name ``basra.example.org`` is ``localhost:PORT`` (Caddy with its own CA,
  ``BASRA_TLS=internal``, its admin endpoint and data on free ports and in ``tmp_path``).
- **Root's commands**, stood in for by scripts first on ``PATH`` (:data:`STANDINS`, each
  with why): ``adduser``, ``runuser``, ``install``'s owner, ``chgrp``, ``git`` (the
  clone copies this checkout) and ``systemctl`` (``guide_standins.py``: the units'
  own command lines run as processes, restarted as systemd would); and ``gcc``, which
  caches the compiles of the kernel, so that the update's install links the objects
  the first install compiled (as ``ccache`` would).
- **PostgreSQL and Redis** are the test's own (a cluster made by ``initdb`` and Redis,
  on free ports): ``PGHOST``/``PGPORT`` point libpq and asyncpg at the cluster, so the
  guide's ``postgresql:///basra`` works as written; a system user's peer authentication
  is ``PGUSER`` set to that user by the ``runuser`` and ``systemctl`` stand-ins.

Between blocks the test does what the guide leaves to the operator (:data:`ADAPTED`:
the one edit of the configuration the guide asks for, and the economies of a test), and
checks what the guide says should be so. Everything runs in ``tmp_path`` and on free
ports, beside other tests; nothing is written into the checkout (the clone is a copy).

The install is a fresh virtual environment (``python3 -m venv``) with
``pip install "/opt/basra/src[web]"``, as the guide says, twice (the update runs it
again), each building the compiled kernel (the update's from the objects the first one
compiled: the ``gcc`` stand-in), the dependencies from pip's cache or its index.
Measured on the development machine (two cores shared with other work): 160 s in all
at a load average near 2 (the first install 71 s, the update, the install again and the
rolling restart, 47 s), 363 s at a load average of 6 to 13 (139 s and 133 s), 506 s at
a load average of 24 (357 s and 64 s): the installs are most of it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.web.guide_standins import rooted
from tests.web.helpers import ROOT, Player, create_table, free_port, http, new_token, wait_http
from tests.web.tourney import make_event, organiser

from basra.server.runtime.devservices import postgres_cluster, redis_server

# Two installs, each building the compiled kernel, and all the rest: more than the
# suite's 600 s when the machine is busy.
pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.timeout(1500)]

GUIDE = ROOT / "docs" / "DEPLOY.md"
STANDINS_SCRIPT = Path(__file__).with_name("guide_standins.py")
MARKED = re.compile(r"<!-- guide: ([\w-]+) -->\n```sh\n(.*?)```", re.S)

# The guide's blocks this test does not run, and why.
NOT_RUN = {
    "packages": "apt-get installs Debian's packages as root; the test needs them installed "
    "already (python3's venv, PostgreSQL, Redis, Caddy, curl, openssl: checked first)",
}

# The pinned offline runtime, already fetched into this checkout (scripts/setup runs
# scripts/fetch-pyodide): the guide's fetch finds a copy of it current and fetches nothing,
# which stands in for the npm registry (a network CI may not have). Without it here, the
# guide's command fetches it for real.
PYODIDE = Path(os.environ.get("BASRA_PYODIDE") or ROOT / "src/basra/server/pyodide")
PIN = json.loads((ROOT / "src/basra/server/pyodide.json").read_text())

# Commands of root's that the test cannot run, stood in for by these scripts (first on
# the blocks' PATH): the name, the script's body, and why.
STANDINS = {
    "adduser": ("exit 0", "makes the system user basra (root only): the test's user is it"),
    "runuser": (
        'user="$2"; shift 3; PGUSER="$user" exec "$@"',
        "`runuser -u USER -- CMD` needs root: CMD runs as the test's user, with PostgreSQL's "
        "peer authentication stood in for by PGUSER=USER",
    ),
    "install": (
        'set -- $(printf "%s\\n" "$@" | sed "/^-[og]$/,+1d"); exec /usr/bin/install "$@"',
        "`-o USER -g GROUP` need root and the users; the modes and folders are kept",
    ),
    "chgrp": ("exit 0", "the group basra does not exist here (the modes are kept)"),
    "git": (
        f'exec "{sys.executable}" "{STANDINS_SCRIPT}" git "$@"',
        "`git clone https://example.org/...` copies this checkout instead (with its "
        "uncommitted changes: the code under test); `git pull` has nothing to bring",
    ),
    "gcc": (
        f'exec "{sys.executable}" "{STANDINS_SCRIPT}" gcc "$@"',
        "a compiler cache (as ccache): the update's install of the same kernel source with "
        "the same flags links the objects that the first install compiled, not three -O3 "
        "compiles again (guide_standins.py)",
    ),
    "systemctl": (
        f'exec "{sys.executable}" "{STANDINS_SCRIPT}" systemctl "$@"',
        "systemd needs root and the machine: the shipped units' command lines run as "
        "processes (guide_standins.py says what of systemd it does)",
    ),
}

# What the test does to the shipped basra.toml once the guide's commands installed it:
# the edit the guide asks for ("set the URLs"), and the economies of a test: each line's
# start, what it becomes, and why. (The port, 8001, is the test's as in the blocks.)
ADAPTED = {
    'url = "redis://127.0.0.1:6379/0"': ('url = "{redis}"', "the test's Redis, on a free port"),
    "# bot_processes = 3": (
        "bot_processes = 0  #",
        "bots in threads, not 2 to 4 processes for each of the three servers on CI's cores",
    ),
    "bot_delay = 0.9": ("bot_delay = 0", "a game of bots ends in seconds"),
    "round_pause = 6 ": ("round_pause = 0 ", "the same"),
}

INSECURE = ssl.create_default_context()
INSECURE.check_hostname = False
INSECURE.verify_mode = ssl.CERT_NONE


def guide_blocks() -> dict[str, str]:
    """The marked ``sh`` blocks of docs/DEPLOY.md, by name, in the guide's order."""
    text = GUIDE.read_text()
    found = MARKED.findall(text)
    blocks = dict(found)
    assert len(blocks) == len(found), "two blocks of the guide have one name"
    unmarked = text.count("```sh\n") - len(found)
    assert unmarked == 0, f"{unmarked} sh blocks of {GUIDE} have no <!-- guide: NAME -->"
    return blocks


@dataclass
class Guide:
    """The guide's blocks, run in a root of their own."""

    root: Path
    env: dict[str, str]
    ports: dict[str, str]
    redis: str
    blocks: dict[str, str] = field(default_factory=guide_blocks)
    done: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    def local(self, text: str) -> str:
        """``text`` with the guide's paths rooted and its ports the test's."""
        text = rooted(text, str(self.root))
        for old, new in self.ports.items():
            text = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w])", new, text)
        return text

    def text(self, name: str) -> str:
        """The block as it runs here."""
        assert name not in NOT_RUN, name
        self.done.append(name)
        return self.local(self.blocks[name])

    def run(
        self, name: str, timeout: float = 300, **replace: str
    ) -> subprocess.CompletedProcess[str]:
        text = self.text(name)
        for old, new in replace.items():
            assert old in text, (name, old)
            text = text.replace(old, new)
        started = time.monotonic()
        done = subprocess.run(
            ["bash", "-eu", "-o", "pipefail", "-c", text],
            env=self.env,
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        self.seconds[name] = time.monotonic() - started
        assert done.returncode == 0, f"block {name}:\n{text}\n{done.stdout}\n{done.stderr}"
        return done

    def systemctl(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["systemctl", *arguments],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )

    def main_pid(self, unit: str) -> int:
        return int((self.root / "systemd" / f"{unit}.service.pid").read_text())

    def journal(self, unit: str) -> str:
        return (self.root / "systemd" / f"{unit}.service.log").read_text()

    def stop_all(self) -> None:
        for supervisor in (self.root / "systemd").glob("*.supervisor"):
            self.systemctl("stop", supervisor.name.removesuffix(".supervisor"))


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """GET a URL, TLS unchecked (Caddy's own CA): status, headers, body."""
    try:
        with urllib.request.urlopen(url, timeout=30, context=INSECURE) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {}, error.read()


def wait_for(url: str, status: int = 200, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if fetch(url)[0] == status:
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{url} did not answer {status}"
        time.sleep(0.2)


@pytest.fixture
def guide(tmp_path: Path) -> Iterator[Guide]:
    for program in ("python3", "curl", "openssl", "caddy", "redis-server", "bash", "git", "gcc"):
        assert shutil.which(program), f"{program} is not installed (scripts/system-deps)"
    root = tmp_path / "root"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    # The folders of a Debian system with the guide's packages installed.
    for folder in ("usr/local/bin", "etc/default", "etc/caddy", "etc/systemd/system", "opt"):
        (root / folder).mkdir(parents=True)
    for folder in ("var/lib", "var/backups", "run"):
        (root / folder).mkdir(parents=True)
    for name, (body, _) in STANDINS.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n# test_guide.py's stand-in\n{body}\n")
        (bin_dir / name).chmod(0o755)
    ports = {p: str(free_port()) for p in ("8001", "8002", "8009")}
    ports["basra.example.org"] = f"localhost:{free_port()}"
    with ExitStack() as stack:
        database = stack.enter_context(postgres_cluster())
        redis = stack.enter_context(redis_server())
        pg_port = database.rsplit(":", 1)[1].split("/")[0]
        # The guide makes the database itself (createdb): the cluster's own one goes.
        subprocess.run(
            ["psql", "-Xqc", "DROP DATABASE basra", database.rsplit("/", 1)[0] + "/postgres"],
            check=True,
            capture_output=True,
        )
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("BASRA_", "PG", "VIRTUAL_ENV", "PYTHON"))
        }
        env |= {
            "PATH": f"{bin_dir}:{root}/usr/local/bin:{os.environ['PATH']}",
            "PGHOST": "127.0.0.1",
            "PGPORT": pg_port,
            "PYTHONUNBUFFERED": "1",
            "GUIDE_ROOT": str(root),
            "GUIDE_STATE": str(root / "systemd"),
            "GUIDE_GIT": str(shutil.which("git")),
            "GUIDE_CC": str(shutil.which("gcc")),
            "GUIDE_CC_CACHE": str(tmp_path / "cc-cache"),
            "GUIDE_UNIT_ENV": json.dumps(
                {
                    "caddy": {
                        "BASRA_TLS": "internal",
                        "BASRA_CADDY_ADMIN": f"localhost:{free_port()}",
                        "XDG_DATA_HOME": str(tmp_path / "caddy-data"),
                        "XDG_CONFIG_HOME": str(tmp_path / "caddy-config"),
                    }
                }
            ),
        }
        running = Guide(root, env, ports, redis)
        stack.callback(running.stop_all)
        yield running


def adapt_configuration(guide: Guide) -> Path:
    """The guide's one edit of /etc/basra/basra.toml, and the test's economies."""
    config = guide.root / "etc/basra/basra.toml"
    text = guide.local(config.read_text())
    for old, (new, _) in ADAPTED.items():
        assert old in text, old
        text = text.replace(old, new.format(redis=guide.redis))
    assert 'url = "postgresql:///basra"' in text  # as the guide says, unchanged
    config.write_text(text)
    return config


def play_a_game(base: str) -> str:
    """A game of two bots, to its end, so that backups have a game to replay."""
    token = new_token(base)
    bots = [{"kind": "bot", "level": "easy"}] * 2
    table = create_table(base, token, seats=bots, my_seat=None, rules={"target": 20})
    watcher = Player(base, table, watch_only=True)
    watcher.wait(lambda m: m["type"] == "state" and m["view"]["over"], timeout=120)
    watcher.close()
    return table


def test_the_deployment_guide_runs_as_written(guide: Guide) -> None:
    started = time.monotonic()
    p1, p2, p9 = (guide.ports[p] for p in ("8001", "8002", "8009"))
    site = f"https://{guide.ports['basra.example.org']}"

    # The code, in a fresh virtual environment with the web extra; `basra` on PATH.
    guide.run("install", timeout=600)
    venv = guide.root / "opt/basra/venv"
    assert (guide.root / "usr/local/bin/basra").resolve() == (venv / "bin/basra").resolve()
    found = subprocess.run(
        ["bash", "-c", "command -v basra"], env=guide.env, capture_output=True, text=True
    )
    assert found.stdout.strip() == str(guide.root / "usr/local/bin/basra")
    # The web app and its extra's packages are the environment's own, not the checkout's.
    where = subprocess.run(
        [venv / "bin/python", "-c", "import basra.server.app, basra; print(basra.__file__)"],
        env=guide.env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(venv / "lib")), where

    # Offline play's runtime, where the unit's BASRA_PYODIDE says.
    runtime = guide.root / "var/lib/basra/pyodide"
    if (PYODIDE / "VERSION.json").exists():
        shutil.copytree(PYODIDE, runtime)
    guide.run("pyodide")
    assert (runtime / "VERSION.json").exists()

    guide.run("database")
    guide.run("configuration")
    config = adapt_configuration(guide)
    assert oct(config.stat().st_mode & 0o777) == "0o640"
    # Web Push's key: made, kept from the others, and the lines to paste printed (pasted
    # by hand; the site below runs with push off, as a site without them does).
    made = guide.run("vapid")
    key = guide.root / "etc/basra/vapid.key"
    assert oct(key.stat().st_mode & 0o777) == "0o640", made.stdout
    assert f'vapid_private_key = {{ file = "{key}" }}' in made.stdout

    # The check by hand: it serves until Ctrl-C.
    check = subprocess.Popen(
        ["bash", "-eu", "-o", "pipefail", "-c", guide.text("check-run")],
        env=guide.env,
        cwd=guide.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_http(f"http://127.0.0.1:{p9}/readyz", 90)
    finally:
        os.killpg(check.pid, signal.SIGINT)  # Ctrl-C
        said, _ = check.communicate(timeout=60)
    # Ctrl-C ends it cleanly: 130 as a shell says of Ctrl-C, or 0 where the server's graceful
    # exit had ended before uvicorn raised the signal again (seen once in a parallel run).
    assert check.returncode in (130, 0), said
    assert "serving on" in said and "Traceback" not in said

    # The two processes, as units.
    done = guide.run("processes", timeout=180)
    ready = json.loads(done.stdout)
    assert ready["ready"] is True and ready["redis"]["ok"], ready
    wait_http(f"http://127.0.0.1:{p2}/readyz", 60)

    # Caddy, with the shipped Caddyfile, in front of both.
    guide.run("caddy")
    wait_for(site + "/readyz")
    status, headers, _ = fetch(site + "/")
    assert status == 200 and "default-src 'self'" in headers["content-security-policy"]
    assert fetch(site + "/metrics")[0] == 404

    # The runtime from the folder the guide fetched it to, through Caddy.
    version = PIN["version"]
    status, headers, body = fetch(f"{site}/offline/pyodide/{version}/pyodide.mjs")
    assert status == 200 and headers["content-type"].startswith("text/javascript"), body[:200]

    # The journal: JSON from each start's first line, times in UTC; each request a line,
    # with Caddy's request id.
    lines = [
        json.loads(line)
        for port in (p1, p2)
        for line in guide.journal(f"basra@{port}").splitlines()
    ]
    assert all(line["time"].endswith("Z") for line in lines)
    assert any("serving on" in line["message"] for line in lines)
    asked = [
        line
        for line in lines
        if line["logger"] == "basra.server.access" and line.get("path") == "/"
    ]
    assert asked and all(line["request_id"] and line["status"] == 200 for line in asked)

    table = play_a_game(f"http://127.0.0.1:{p1}")

    # An update: the install again, and the rolling restart, while pages are asked for
    # through Caddy all along.
    before = {port: guide.main_pid(f"basra@{port}") for port in (p1, p2)}
    answers: list[tuple[int, float]] = []
    rolling = threading.Event()

    def ask() -> None:
        while not rolling.is_set():
            moment = time.monotonic()
            try:
                code = fetch(site + "/")[0]
            except OSError:
                code = 0
            answers.append((code, time.monotonic() - moment))
            time.sleep(0.1)

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        done = guide.run("update", timeout=600)
    finally:
        rolling.set()
        asker.join()
    assert done.stdout.count("waiting 3 s for the proxy's health check") == 2, done.stdout
    after = {port: guide.main_pid(f"basra@{port}") for port in (p1, p2)}
    assert all(after[port] != before[port] for port in (p1, p2))
    assert answers and all(code == 200 for code, _ in answers), answers
    # No page waited for Caddy's next health check (2 s): a process was always in rotation.
    assert max(took for _, took in answers) < 2.0, sorted(took for _, took in answers)[-5:]

    # Draining one process on request: it exits and is started again (Restart=always).
    done = guide.run("drain")
    assert done.stdout.startswith(f"http://127.0.0.1:{p2} is draining"), done.stdout
    deadline = time.monotonic() + 60
    while guide.main_pid(f"basra@{p2}") == after[p2]:
        assert time.monotonic() < deadline, "the drained process was not started again"
        time.sleep(0.1)
    wait_http(f"http://127.0.0.1:{p2}/readyz", 60)

    # Backups: by hand, then the timer's service (as it runs at 03:30), then the drill.
    done = guide.run("backup")
    assert done.stdout.count("every game replays") == 2, done.stdout
    assert (guide.root / "var/backups/basra/by-hand.dump").stat().st_size > 0
    guide.run("backup-timer")
    assert (guide.root / "systemd/basra-backup.timer").exists()
    done = guide.systemctl("start", "basra-backup.service")
    assert done.returncode == 0 and "every game replays" in done.stdout, done.stderr
    assert len(list((guide.root / "var/backups/basra").glob("basra-*.dump"))) == 1
    done = guide.run("restore-drill")
    assert "every game replays" in done.stdout, done.stdout

    # Moderation, with the things its placeholders name made first.
    base = f"http://127.0.0.1:{p1}"
    amal, badr = new_token(base), new_token(base)
    status, body = http(
        base + "/api/account", {"username": "name", "password": "correct horse"}, token=amal
    )
    assert status == 201, body  # `@name` as the guide writes it
    table = create_table(base, amal, seats=[{"kind": "person"}, {"kind": "person"}])
    report_form = {"table": table, "seat": 0, "reason": "name"}
    status, _ = http(base + "/api/reports", report_form, token=badr)
    assert status == 201
    later = time.time() + 3600
    event = make_event(base, organiser(base), format="swiss", rounds=2, starts_at=later)["id"]
    token = (guide.root / "etc/basra/admin.token").read_text().strip()
    listed = http(base + "/admin/reports", token=token)[1]["reports"]
    report, identity = listed[0]["id"], listed[0]["reporter"]["identity"]
    done = guide.run(
        "moderation",
        TABLE_ID=table,
        IDENTITY_ID=identity,
        REPORT_ID=report,
        EVENT_ID=event,
    )
    said = done.stdout
    assert "@name is now 'Player 7' (at 1 table)" in said and "@name: lifted" in said, said
    assert f"report {report} closed" in said and "is now 'Friday Cup'" in said, said
    assert re.search(r"@name \(\w+\) suspended until \d{4}-\d\d-\d\d \d\d:\d\d UTC", said)
    assert "\n1 report\n" in said and f"table {table}: abandoned" in said, said
    assert re.search(r"@name \(\w+\) silenced until \d{4}-\d\d-\d\d", said), said
    assert "@name: may talk again" in said, said

    # Every block of the guide ran, or is listed with why it cannot.
    assert sorted(guide.done + list(NOT_RUN)) == sorted(guide.blocks), guide.done
    print(
        f"guide: {time.monotonic() - started:.0f} s in all; blocks "
        + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in guide.seconds.items())
        + f"; through Caddy during the roll: {len(answers)} pages, slowest"
        f" {max(t for _, t in answers):.2f} s"
    )
