"""Throwaway PostgreSQL and Redis servers, for the service tests and the benchmarks.

Each starts a private server on a free loopback port in a temporary directory
and removes it afterwards; ``scripts/system-deps`` installs the Debian packages
they run. The web app itself never uses these: it is given URLs.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator

__all__ = ["free_port", "postgres_cluster", "redis_server"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


_templates: dict[str, str] = {}
_templates_lock = threading.Lock()


def _initialised(bindir: str, as_user: list[str]) -> str:
    """A data directory that ``initdb`` made once in this process, which each cluster
    copies: ``initdb`` costs a second or more of CPU (it starts PostgreSQL to write its
    catalogue); the copy, a tenth of that. Removed when the process exits."""
    with _templates_lock:
        template = _templates.get(bindir)
        if template is None:
            root = tempfile.mkdtemp(prefix="basra-pg-template-")
            atexit.register(shutil.rmtree, root, True)
            if as_user:
                shutil.chown(root, "postgres")
            template = os.path.join(root, "data")
            initdb = [f"{bindir}/initdb", "-D", template, "-U", "postgres", "--auth=trust"]
            subprocess.run([*as_user, *initdb, "-E", "UTF8"], check=True, capture_output=True)
            _templates[bindir] = template
        return template


@contextlib.contextmanager
def postgres_cluster(max_connections: int = 100) -> Iterator[str]:
    """A PostgreSQL cluster in a temporary directory with a ``basra`` database; yields its URL.

    Its data directory is a copy of one ``initdb`` made once in this process."""
    bindir = _postgres_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed (scripts/system-deps installs it)")
    root = tempfile.mkdtemp(prefix="basra-pg-")
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(root, "data")
    subprocess.run(
        [*as_user, "cp", "-a", _initialised(bindir, as_user), data],
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        f" -c max_connections={max_connections}"
    )
    start = [f"{bindir}/pg_ctl", "-D", data, "-o", options, "-l", f"{root}/log", "-w", "start"]
    subprocess.run(
        [*as_user, *start],
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            [f"{bindir}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "basra"],
            check=True,
            capture_output=True,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/basra"
    finally:
        subprocess.run(
            [*as_user, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis server that keeps nothing on disk; yields its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (scripts/system-deps installs it)")
    port = free_port()
    root = tempfile.mkdtemp(prefix="basra-redis-")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", root],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(root, ignore_errors=True)
