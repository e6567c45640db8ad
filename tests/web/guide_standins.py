"""Stand-ins for ``systemctl`` and ``git`` in test_guide.py: the guide's units run as
processes, and its clone is a copy of this checkout.

docs/DEPLOY.md starts everything with systemd, which a test cannot use (it needs root
and owns the machine). ``test_guide.py`` puts this script on the guide's ``PATH`` as
``systemctl`` (``guide_standins.py systemctl ...``), and it does what systemd would with
the unit files the guide's own commands copied into the test's ``/etc/systemd/system``
(under ``GUIDE_ROOT``):

- ``enable --now``, ``start``, ``restart``, ``stop`` of a service: its ``ExecStart``
  (``%i`` the instance, ``%%`` a ``%``; ``ExecStartPost`` after a ``oneshot``), with its
  ``Environment=``, ``EnvironmentFile=`` (drop-ins in ``NAME.service.d/`` too),
  ``WorkingDirectory=``, ``RuntimeDirectory=`` and ``StateDirectory=`` (made at start);
  ``Restart=always`` with ``RestartSec=``, and ``KillSignal=`` then SIGKILL after
  ``TimeoutStopSec=`` on a stop. A long-running service is watched by a small
  supervisor process (this script, ``supervise``), which systemd itself is. The unit's
  output goes to ``STATE/NAME.log`` (the journal).
- ``User=`` is not switched to (the test runs as one user); PostgreSQL's peer
  authentication, which maps the system user to the role of that name, is stood in
  for by ``PGUSER=User`` in the service's environment.
- A unit not found in the test's ``/etc/systemd/system`` is read from the package's
  ``/lib/systemd/system`` (Debian's ``caddy.service``), read only.
- ``postgresql`` and ``redis-server`` are the test's own servers, already running: no-op.
  ``daemon-reload`` is a no-op; enabling a ``.timer`` records it (``STATE/NAME``); the
  test starts the timer's service itself.
- Sandboxing (``ProtectSystem=``, ``NoNewPrivileges=``, ``PrivateTmp=``...) and resource
  limits are not applied.

Every absolute path of the guide's (``/opt/basra``, ``/etc/basra`` ...) in a unit is
moved under ``GUIDE_ROOT`` by :func:`rooted`, as the test does to the guide's commands.
``GUIDE_UNIT_ENV`` (JSON: unit name prefix to variables) adds the test's own values
(Caddy's ports and data folders).

As ``git``: ``git clone URL DEST`` copies this checkout's files (those git tracks or
would track, uncommitted changes included; no symbolic links such as ``.venv``) to
``DEST``, so that the test installs the code under test; ``git pull`` has nothing to
bring (the copy is the checkout).

As ``gcc`` (the C compiler that pip's build of the kernel calls): a compiler cache, as
``ccache`` is. A compile (``-c SOURCE -o OBJECT``) whose command line and source are
those of one already done in this test (``GUIDE_CC_CACHE``) gives that object again;
every other call, and the linking, is the real compiler's (``GUIDE_CC``). The guide's
install compiles the kernel for real; the update's install, of the same source with the
same flags into the same environment, finds the objects that compile made (the headers
do not change during a test) and links them as the first did. It saves a quarter of
the test's CPU time (three ``-O3`` compiles, 15 s of CPU), and tests no less: the update
still runs Cython, the build, the link and the install.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

# The guide's absolute paths that the test moves under its own root (nothing else is
# touched: /usr/bin/find, /bin/sh and the like are the system's).
GUIDE_PATHS = (
    "/opt/basra",
    "/etc/basra",
    "/etc/caddy",
    "/etc/default/caddy",
    "/etc/systemd/system",
    "/run/basra",
    "/var/lib/basra",
    "/var/backups/basra",
    "/usr/local/bin",
)
_PATH = re.compile(
    r"(?<![\w./-])(" + "|".join(re.escape(p) for p in GUIDE_PATHS) + r")(?=[/\s\"'$)*{]|$)"
)


def rooted(text: str, root: str) -> str:
    """``text`` with each of the guide's absolute paths moved under ``root``.

    >>> rooted("cp a /etc/basra/x.toml; ls /etc/ssl /opt/basra/src[web]", "/t")
    'cp a /t/etc/basra/x.toml; ls /etc/ssl /t/opt/basra/src[web]'
    """
    return _PATH.sub(lambda m: root + m[1], text)


ROOT = os.environ.get("GUIDE_ROOT", "")
STATE = Path(os.environ.get("GUIDE_STATE", "."))
SERVICES_OF_THE_TEST = ("postgresql", "redis-server")


def unit_file(name: str) -> tuple[Path, str]:
    """The unit's file and its instance (``basra@8001`` is ``basra@.service``, ``8001``)."""
    if "." not in name:
        name += ".service"
    stem, suffix = name.rsplit(".", 1)
    instance = ""
    if "@" in stem:
        stem, instance = stem.split("@", 1)
        stem += "@"
    for folder in (Path(ROOT + "/etc/systemd/system"), Path("/lib/systemd/system")):
        path = folder / f"{stem}.{suffix}"
        if path.exists():
            return path, instance
    raise SystemExit(f"systemctl (test): Unit {name} not found.")


def read_unit(name: str) -> dict[str, list[str]]:
    """The [Service] keys of the unit and its drop-ins, paths rooted, specifiers applied."""
    path, instance = unit_file(name)
    texts = [path.read_text()]
    dropins = Path(ROOT + "/etc/systemd/system") / f"{path.name}.d"
    if dropins.is_dir():
        texts += [p.read_text() for p in sorted(dropins.glob("*.conf"))]
    keys: dict[str, list[str]] = {}
    for text in texts:
        section = ""
        for line in text.replace("\\\n", " ").splitlines():
            line = line.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
                continue
            if section == "[Service]" and "=" in line:
                key, value = line.split("=", 1)
                value = rooted(value.replace("%i", instance).replace("%%", "%"), ROOT)
                keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def environment(name: str, keys: dict[str, list[str]]) -> dict[str, str]:
    env = dict(os.environ)
    for path in keys.get("EnvironmentFile", []):
        for line in Path(path.lstrip("-")).read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#") and "=" in line:
                key, value = line.split("=", 1)
                env[key.strip()] = " ".join(shlex.split(value))  # systemd's quotes
    for value in keys.get("Environment", []):
        for pair in shlex.split(value):
            key, _, val = pair.partition("=")
            env[key] = val
    if "User" in keys:
        env["PGUSER"] = keys["User"][-1]  # peer authentication: the role of the user
    extra: dict[str, dict[str, str]] = json.loads(os.environ.get("GUIDE_UNIT_ENV", "{}"))
    for prefix, values in extra.items():
        if name.startswith(prefix):
            env.update(values)
    return env


def prepare(keys: dict[str, list[str]]) -> None:
    for key, under in (("RuntimeDirectory", "/run/"), ("StateDirectory", "/var/lib/")):
        for value in keys.get(key, []):
            for folder in value.split():
                Path(rooted(under + folder, ROOT)).mkdir(parents=True, exist_ok=True)


def seconds(value: str) -> float:
    number = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|min)?", value.strip())
    if number is None:
        raise SystemExit(f"systemctl (test): cannot read the time {value!r}")
    scale = {"ms": 0.001, "min": 60.0}.get(number[2] or "s", 1.0)
    return float(number[1]) * scale


def command(line: str) -> list[str]:
    return shlex.split(line.lstrip("-@+!"))


def name_of(unit: str) -> str:
    return unit if "." in unit else unit + ".service"


def pid_file(unit: str) -> Path:
    return STATE / f"{name_of(unit)}.pid"


def supervisor_file(unit: str) -> Path:
    return STATE / f"{name_of(unit)}.supervisor"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def supervise(unit: str) -> None:
    """Run the service, again after it exits (``Restart=always``), until SIGTERM."""
    keys = read_unit(unit)
    env = environment(unit, keys)
    cwd = keys.get("WorkingDirectory", [None])[-1]
    kill_signal = getattr(signal, keys.get("KillSignal", ["SIGTERM"])[-1])
    stop_after = seconds(keys.get("TimeoutStopSec", ["90"])[-1])
    restart = keys.get("Restart", ["no"])[-1] in ("always", "on-failure")
    restart_sec = seconds(keys.get("RestartSec", ["0.1"])[-1])
    stopping = False
    child: subprocess.Popen[bytes] | None = None

    def on_term(*_: object) -> None:  # SIGTERM: stop the service, as systemd does
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(kill_signal)

    signal.signal(signal.SIGTERM, on_term)
    log = (STATE / f"{name_of(unit)}.log").open("ab")
    try:
        while not stopping:
            prepare(keys)
            child = subprocess.Popen(
                command(keys["ExecStart"][-1]), env=env, cwd=cwd, stdout=log, stderr=log
            )
            pid_file(unit).write_text(str(child.pid))
            killed_at: float | None = None
            while child.poll() is None:
                if stopping and killed_at is None:
                    killed_at = time.monotonic() + stop_after
                if killed_at is not None and time.monotonic() > killed_at:
                    child.kill()
                time.sleep(0.05)
            if stopping or not restart:
                break
            time.sleep(restart_sec)
    finally:
        pid_file(unit).unlink(missing_ok=True)
        supervisor_file(unit).unlink(missing_ok=True)


def start(unit: str) -> int:
    if unit.split(".")[0] in SERVICES_OF_THE_TEST:
        return 0  # the test's own PostgreSQL and Redis, running already
    if unit.endswith(".timer"):
        unit_file(unit)
        (STATE / unit).write_text("enabled\n")
        return 0
    keys = read_unit(unit)
    if keys.get("Type", ["simple"])[-1] == "oneshot":
        prepare(keys)
        env = environment(unit, keys)
        cwd = keys.get("WorkingDirectory", [None])[-1]
        with (STATE / f"{name_of(unit)}.log").open("ab") as log:
            for line in keys["ExecStart"] + keys.get("ExecStartPost", []):
                done = subprocess.run(command(line), env=env, cwd=cwd, capture_output=True)
                log.write(done.stdout + done.stderr)
                sys.stdout.buffer.write(done.stdout)
                sys.stderr.buffer.write(done.stderr)
                if done.returncode != 0:
                    return done.returncode
        return 0
    if supervisor_file(unit).exists():
        return 0  # running already
    pid_file(unit).unlink(missing_ok=True)
    supervisor = subprocess.Popen(
        [sys.executable, __file__, "systemctl", "supervise", unit],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    supervisor_file(unit).write_text(str(supervisor.pid))
    deadline = time.monotonic() + 30
    while not pid_file(unit).exists():  # Type=exec: started once its command runs
        if time.monotonic() > deadline or supervisor.poll() is not None:
            print(f"systemctl (test): {unit} did not start", file=sys.stderr)
            return 1
        time.sleep(0.02)
    return 0


def stop(unit: str) -> int:
    path = supervisor_file(unit)
    if not path.exists():
        return 0
    pid = int(path.read_text())
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 120
    while path.exists() and alive(pid):
        if time.monotonic() > deadline:
            print(f"systemctl (test): {unit} did not stop", file=sys.stderr)
            return 1
        time.sleep(0.02)
    path.unlink(missing_ok=True)
    return 0


CHECKOUT = Path(__file__).resolve().parents[2]


def git(argv: list[str]) -> int:
    if argv[:1] == ["pull"]:
        print("Already up to date (the test's copy is the checkout).")
        return 0
    if argv[:1] != ["clone"] or len(argv) != 3:
        raise SystemExit(f"git (test): only `clone URL DEST` and `pull`, not {argv}")
    listed = subprocess.run(
        [os.environ["GUIDE_GIT"], "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=CHECKOUT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    dest = Path(argv[2])
    for name in filter(None, listed.split("\0")):
        source = CHECKOUT / name
        if source.is_symlink() or not source.is_file():
            continue  # .venv and the offline runtime's links; files deleted, not committed
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return 0


def compiler(argv: list[str]) -> int:
    """The real compiler, or the object it made for the same compile earlier in the test."""
    real = [os.environ["GUIDE_CC"], *argv]
    sources = [a for a in argv if a.endswith(".c")]
    if "-c" not in argv or "-o" not in argv or len(sources) != 1:
        return subprocess.run(real).returncode
    at = argv.index("-o")
    out = Path(argv[at + 1])
    key = hashlib.sha256(json.dumps([argv[:at] + argv[at + 2 :], str(Path.cwd())]).encode())
    key.update(Path(sources[0]).read_bytes())
    cached = Path(os.environ["GUIDE_CC_CACHE"]) / f"{key.hexdigest()}.o"
    if cached.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, out)
        return 0
    done = subprocess.run(real).returncode
    if done == 0:
        cached.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out, cached)
    return done


def main(argv: list[str]) -> int:
    if argv[:1] == ["git"]:
        return git(argv[1:])
    if argv[:1] == ["gcc"]:
        return compiler(argv[1:])
    if argv[:1] == ["systemctl"]:
        argv = argv[1:]
    if argv[:1] == ["supervise"]:
        supervise(argv[1])
        return 0
    words = [w for w in argv if not w.startswith("-")]
    if not words:
        raise SystemExit(f"systemctl (test): no action in {argv}")
    action, units = words[0], words[1:]
    STATE.mkdir(parents=True, exist_ok=True)
    if action == "daemon-reload":
        return 0
    if action == "enable":
        return max([start(u) for u in units] if "--now" in argv else [0])
    if action == "start":
        return max(start(u) for u in units)
    if action == "stop":
        return max(stop(u) for u in units)
    if action == "restart":
        return max(stop(u) or start(u) for u in units)
    raise SystemExit(f"systemctl (test): {action} is not stood in for")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
