"""The shipped deployment, started as docs/DEPLOY.md says: deploy/Caddyfile (TLS by Caddy's
own CA) in front of two ``basra serve --config`` processes on PostgreSQL and Redis.

Through the proxy: the security headers, the operator's paths refused, a browser game
over WebSockets while each process is restarted in turn (SIGTERM: it drains, then starts
again) with every acknowledged move kept, no error on the page and the game played to its
end; every page without a Content-Security-Policy violation. On the processes: health,
readiness and metrics (parsed by prometheus-client's parser, summed over both processes
by the multiprocess mode); a ban closes the identity's socket and refuses it after; a
backup restored into an empty database replays every game.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.web.helpers import ROOT, eventually, free_port, wait_http
from tests.web.test_browser import CHROMIUM, create
from websockets.sync.client import connect

from basra.server.runtime.devservices import postgres_cluster, redis_server
from basra.server.transport.routes.pages import PAGE_ROUTES

pytestmark = [pytest.mark.services]

CADDYFILE = ROOT / "deploy" / "Caddyfile"
TOKEN = "t" * 40
HEALTH_WAIT = 3
"""Seconds deploy/rolling-restart waits after a process is ready, for the proxy's health
check to see it (BASRA_HEALTH_WAIT's default), before it restarts the next."""
INSECURE = ssl.create_default_context()
INSECURE.check_hostname = False
INSECURE.verify_mode = ssl.CERT_NONE
CSP_WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
window.__banners = [];
new MutationObserver(() => {
  const b = document.getElementById("banner");
  if (b && !b.hidden && b.textContent) window.__banners.push(b.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def fetch(
    url: str, token: str | None = None, body: Any = None
) -> tuple[int, dict[str, str], bytes]:
    """GET (or POST ``body``) a URL, TLS unchecked; status, headers and body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30, context=INSECURE) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read(),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@dataclass
class App:
    """One ``basra serve --config`` process on its own port."""

    config: Path
    port: int
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "basra",
                    "serve",
                    "--config",
                    str(self.config),
                    "--port",
                    str(self.port),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        wait_http(self.url + "/readyz", 60)

    def stop(self) -> float:
        """SIGTERM (a drain); seconds until it exited."""
        assert self.proc is not None
        started = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(30)
        return time.monotonic() - started

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Site:
    """The proxy's address and its two processes."""

    url: str
    apps: list[App]
    database: str
    root: Path
    tables: list[str] = field(default_factory=list)


def write_config(root: Path, database: str, redis: str) -> Path:
    (root / "admin.token").write_text(TOKEN)
    (root / "daily.key").write_text("d" * 64)
    config = root / "basra.toml"
    config.write_text(
        f"""
[server]
forwarded_allow_ips = ["127.0.0.1"]
log_format = "json"
log_level = "info"
drain_timeout = 10
[database]
url = "{database}"
[redis]
url = "{redis}"
[secrets]
admin_token = {{ file = "{root / "admin.token"}" }}
daily_deal = {{ file = "{root / "daily.key"}" }}
[tables]
bot_delay = 0.15
round_pause = 0.3
[workers]
bot_processes = 0
review_samples = 30
[quotas]
identities_per_address = {{ count = 1000, per = 60 }}
tables_per_identity = {{ count = 1000, per = 60 }}
tables_per_address = {{ count = 1000, per = 60 }}
http_per_address = {{ count = 100000, per = 60 }}
[operations]
metrics_dir = "{root / "metrics"}"
"""
    )
    return config


def tls_up(port: int) -> bool:
    """Whether a TLS handshake on the local port succeeds (its certificate unchecked)."""
    try:
        with (
            socket.create_connection(("localhost", port), timeout=2) as raw,
            INSECURE.wrap_socket(raw, server_hostname="localhost"),
        ):
            return True
    except OSError:
        return False


@contextmanager
def caddy(upstreams: list[App], root: Path, ready: bool = True) -> Iterator[str]:
    binary = shutil.which("caddy")
    if binary is None:
        pytest.fail("caddy is not installed (scripts/system-deps installs it)")
    # A port free a moment ago may be taken by the time Caddy binds it (by any socket on
    # the machine, an outgoing connection's too): then Caddy exits at once, saying so,
    # and is started again on other ports.
    for _ in range(5):
        port = free_port()
        env = {
            **os.environ,
            "BASRA_SITE": f"localhost:{port}",
            "BASRA_TLS": "internal",
            "BASRA_UPSTREAMS": " ".join(f"127.0.0.1:{a.port}" for a in upstreams),
            "BASRA_CADDY_ADMIN": f"localhost:{free_port()}",
            "XDG_DATA_HOME": str(root / "caddy-data"),
            "XDG_CONFIG_HOME": str(root / "caddy-config"),
        }
        log = root / "caddy.log"
        start = log.stat().st_size if log.exists() else 0
        with log.open("ab") as out:
            proc = subprocess.Popen(
                [binary, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        url = f"https://localhost:{port}"
        try:
            deadline = time.time() + 30
            while True:
                # Up: ready (through to a process), or, with none ready, serving TLS (a
                # request would wait the proxy's lb_try_duration, 10 s, for a 503).
                try:
                    if fetch(url + "/readyz")[0] == 200 if ready else tls_up(port):
                        break
                except OSError:
                    pass
                if proc.poll() is not None:
                    break
                assert time.time() < deadline, log.read_text()[-3000:]
                time.sleep(0.2)
            if proc.poll() is not None:
                said = log.read_bytes()[start:].decode(errors="replace")
                assert "address already in use" in said, said[-3000:]
                continue
            yield url
            return
        finally:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)
    pytest.fail("caddy found no free port in five tries")


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    root = Path(tempfile.mkdtemp(prefix="basra-deploy-"))
    with ExitStack() as stack:
        database = stack.enter_context(postgres_cluster())
        redis = stack.enter_context(redis_server())
        config = write_config(root, database, redis)
        apps = [App(config, free_port(), root / f"app{i}.log") for i in (1, 2)]
        for app in apps:
            stack.callback(app.kill)
        # Started together: the migrations run once (an advisory lock), both come up.
        threads = [threading.Thread(target=app.start) for app in apps]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        url = stack.enter_context(caddy(apps, root))
        yield Site(url, apps, database, root)
    shutil.rmtree(root, ignore_errors=True)


def identity(base: str) -> str:
    status, _, body = fetch(base + "/api/identity", body={})
    assert status == 201, body
    return str(json.loads(body)["token"])


# ---------------------------------------------------------------------- the proxy


def test_the_proxy_sends_the_security_headers_and_hides_the_operators_paths(site: Site) -> None:
    status, headers, _ = fetch(site.url + "/")
    assert status == 200
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "'wasm-unsafe-eval'" in csp and "worker-src 'self'" in csp
    assert headers["strict-transport-security"].startswith("max-age=31536000")
    assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "same-origin"
    assert headers["x-content-type-options"] == "nosniff" and "server" not in headers
    assert headers["x-request-id"]  # the app's request id, which its log lines carry
    for path in ("/metrics", "/admin/reports"):
        assert fetch(site.url + path, token=TOKEN)[0] == 404, path


def test_with_no_process_to_answer_the_proxy_says_the_site_is_down_in_words(
    tmp_path: Path,
) -> None:
    """Every process down or not ready (Redis down, say): a page in words, not an empty
    503, for every URL, the home page too."""
    nobody = App(tmp_path / "none.toml", free_port(), tmp_path / "none.log")
    with caddy([nobody], tmp_path, ready=False) as url:
        # Each answer comes after the proxy's lb_try_duration (10 s): asked at once.
        paths = ("/", "/rules/egyptian")
        with ThreadPoolExecutor(len(paths)) as pool:
            answers = list(pool.map(lambda path: fetch(url + path), paths))
        for path, (status, headers, body) in zip(paths, answers, strict=True):
            assert status == 503, path
            assert headers["content-type"].startswith("text/html") and headers["retry-after"]
            page = body.decode()
            assert "basra is down for a moment" in page and "ألعابك محفوظة" in page
            assert "Τα παιχνίδια σου είναι φυλαγμένα" in page and "Vos parties sont gardées" in page


def status_from(port: int, source: str, path: str, forwarded: str | None) -> int:
    """GET ``path`` from the loopback address ``source``, claiming ``forwarded`` as the client."""
    conn = HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path, headers={"X-Forwarded-For": forwarded} if forwarded else {})
        return conn.getresponse().status
    finally:
        conn.close()


def test_forwarded_addresses_are_trusted_only_from_the_proxy(site: Site) -> None:
    # /metrics answers only 127.0.0.1 (metrics_allow); the processes trust 127.0.0.1, where
    # the proxy is, to name the client.
    port = site.apps[0].port
    assert status_from(port, "127.0.0.1", "/metrics", None) == 200
    # The proxy says the client is a person on the internet: that person is refused.
    assert status_from(port, "127.0.0.1", "/metrics", "203.0.113.7") == 403
    # Anyone else claiming to be the allowed address is judged by their own address.
    assert status_from(port, "127.0.0.2", "/metrics", "127.0.0.1") == 403
    assert status_from(port, "127.0.0.2", "/metrics", None) == 403


def test_health_readiness_and_metrics_of_both_processes(site: Site) -> None:
    for app in site.apps:
        status, _, body = fetch(app.url + "/healthz")
        assert status == 200 and json.loads(body)["ok"] is True
        status, _, body = fetch(app.url + "/readyz")
        ready = json.loads(body)
        assert status == 200 and ready["ready"] and ready["redis"]["ok"], ready
        assert ready["database"]["migration"] == ready["database"]["head"] == "0018_talk"
    # Sockets on each process: the multiprocess metrics of either process count all of them.
    token = identity(site.apps[0].url)
    status, _, body = fetch(
        site.apps[0].url + "/api/tables",
        token=token,
        body={"name": "Amal", "seats": [{"kind": "person"}, {"kind": "person"}]},
    )
    table = json.loads(body)["id"]
    sockets = []
    for app in site.apps:
        ws = connect(app.url.replace("http", "ws") + f"/ws/{table}", proxy=None, legacy=True)
        ws.send(json.dumps({"type": "hello"}))
        ws.recv(10)
        sockets.append(ws)
    sockets[0].send("not json")  # a refusal, counted by its kind
    refusal = {}
    while refusal.get("type") != "error":
        refusal = json.loads(sockets[0].recv(10))
    assert refusal["code"] == "bad_message", refusal

    def both_counted() -> None:  # once each process has sampled its gauges
        for app in site.apps:
            status, headers, body = fetch(app.url + "/metrics")
            assert status == 200 and headers["content-type"].startswith("text/plain")
            found = {f.name: f for f in text_string_to_metric_families(body.decode())}
            for name in (
                "basra_live_tables",
                "basra_open_sockets",
                "basra_moves",
                "basra_move_ack_seconds",
                "basra_bot_jobs_queued",
                "basra_reviews_unfinished",
                "basra_quickplay_waiting",
                "basra_quickplay_wait_seconds",
                "basra_errors",
            ):
                assert name in found, (name, sorted(found))
            assert sum(s.value for s in found["basra_open_sockets"].samples) >= 2
            kinds = {s.labels.get("kind"): s.value for s in found["basra_errors"].samples}
            assert kinds.get("bad_message", 0) >= 1, kinds

    eventually(both_counted)
    for ws in sockets:
        ws.close()


# ---------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield chromium
        chromium.close()


def new_page(browser: Any) -> Any:
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.add_init_script(CSP_WATCH)
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    return page


def take_turn(page: Any) -> bool:
    """Click a playable card (and the first capture choice); False when none is playable."""
    cards = page.locator(".hand button.card:not([aria-disabled])")
    try:
        if not cards.count():
            return False
        cards.first.click(timeout=1000)
        choice = page.locator(".choices .choice")
        if choice.count():
            choice.first.click(timeout=1000)
        return True
    except Exception:
        return False


@pytest.mark.browser
def test_a_browser_game_plays_on_through_a_rolling_restart(site: Site, browser: Any) -> None:
    page = new_page(browser)
    versions: list[tuple[float, int]] = []

    def on_socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            message = json.loads(payload) if isinstance(payload, str) else {}
            if message.get("type") == "state":
                versions.append((time.monotonic(), message["version"]))

        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    page.goto(site.url + "/")
    table = create(page, "Amal", seats=["me", "bot:easy"], target=40)
    page.wait_for_selector(".hand button.card")
    site.tables.append(table)
    for app in site.apps:
        # Play a few moves, then restart this process mid-game.
        deadline = time.time() + 20
        before = len(versions)
        while len(versions) < before + 6 and time.time() < deadline:
            if not take_turn(page):
                time.sleep(0.05)
        acknowledged = max(v for _, v in versions)
        app.stop()
        cut = len(versions)
        app.start()
        deadline = time.time() + 20
        while len(versions) == cut:
            assert time.time() < deadline, "the page did not play on"
            take_turn(page) or time.sleep(0.05)
        assert versions[cut][1] >= acknowledged, "an acknowledged move was lost"
        if app is not site.apps[-1]:
            # As deploy/rolling-restart does before the next: the proxy's health check (every
            # 2 s) must see this process ready again, or the next stop leaves the proxy with
            # no process in rotation and the page's reconnections back off past the 20 s
            # above (it failed so once, under a parallel run's load).
            time.sleep(HEALTH_WAIT)
    deadline = time.time() + 240
    while not page.locator("#game-over").count():
        assert time.time() < deadline, "the game did not end"
        take_turn(page) or time.sleep(0.05)
    status, _, body = fetch(f"{site.url}/api/games/{table}/replay")
    assert status == 200, body
    assert page.evaluate("window.__banners") == [], "the page showed an error"
    assert page.evaluate("window.__csp") == []


@pytest.mark.browser
def test_no_page_breaks_the_content_security_policy(site: Site, browser: Any) -> None:
    page = new_page(browser)
    page.goto(site.url + "/")
    page.wait_for_selector("#create")
    table = site.tables[0] if site.tables else "nosuchtable"
    routes = [
        r.replace("{table_id}", table).replace("{name}", "egyptian").replace("{username}", "nobody")
        for r in PAGE_ROUTES
    ]
    from basra.server.app import create_app

    extra = [
        getattr(r, "path", "")
        for r in create_app().routes
        if getattr(r, "path", "").startswith("/offline") and "{" not in getattr(r, "path", "")
    ]
    for route in routes + extra:
        page.goto(site.url + route)
        page.wait_for_load_state("networkidle")
        time.sleep(0.3)
        assert page.evaluate("window.__csp") == [], route
        blocked = [e for e in page.console_errors if "Content Security Policy" in e]
        assert not blocked, (route, blocked)


# ---------------------------------------------------------------------- moderation, backups


def test_a_banned_identity_is_closed_out_and_cannot_connect(site: Site) -> None:
    one, two = site.apps
    token = identity(one.url)
    status, _, body = fetch(
        one.url + "/api/tables",
        token=token,
        body={"name": "Mallory", "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]},
    )
    table = json.loads(body)["id"]
    ws = connect(two.url.replace("http", "ws") + f"/ws/{table}", proxy=None, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token, "name": "Mallory"}))
    ws.recv(10)
    me = json.loads(fetch(one.url + "/api/identity", token=token)[2])
    who = me.get("id") or me.get("identity")
    reported = fetch(
        one.url + "/api/reports",
        token=identity(one.url),
        body={"table": table, "seat": 0, "reason": "abuse", "note": "rude"},
    )
    assert reported[0] == 201, reported
    reports = json.loads(fetch(one.url + "/admin/reports", token=TOKEN)[2])["reports"]
    target = next(r["target"]["identity"] for r in reports if r["table"] == table)
    assert who is None or who == target
    status, _, body = fetch(
        one.url + f"/admin/identities/{target}/ban", token=TOKEN, body={"reason": "abuse"}
    )
    assert status == 200, body
    # Its socket on the other process is told and closed; its token works nowhere after.
    closed = None
    deadline = time.time() + 10
    while closed is None and time.time() < deadline:
        try:
            message = json.loads(ws.recv(5))
            if message.get("type") == "error":
                assert message["code"] == "suspended"
        except Exception:
            closed = ws.close_code
    assert closed == 4003
    for app in site.apps:
        assert fetch(app.url + "/api/profile", token=token)[0] == 403
    again = connect(
        site.url.replace("https", "wss") + f"/ws/{table}", proxy=None, ssl=INSECURE, legacy=True
    )
    again.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(again.recv(10))["code"] == "suspended"


def test_a_backup_restored_into_an_empty_database_replays_every_game(site: Site) -> None:
    dump = site.root / "site.dump"
    basra = [sys.executable, "-m", "basra", "admin"]
    done = subprocess.run(
        [*basra, "backup", "--database", site.database, str(dump)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every game replays" in done.stdout
    empty = site.database.rsplit("/", 1)[0] + "/restored"
    host, port = site.database.split("@", 1)[1].split("/", 1)[0].split(":")
    bindir = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
    subprocess.run(
        [str(bindir / "createdb"), "-h", host, "-p", port, "-U", "postgres", "restored"],
        check=True,
    )
    done = subprocess.run(
        [*basra, "restore", "--database", empty, str(dump)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    restored = done.stdout.split("; ", 1)[1].strip()
    live = subprocess.run(
        [*basra, "check", "--database", site.database], capture_output=True, text=True
    ).stdout.strip()
    assert "every game replays" in restored and "every game replays" in live, (restored, live)
    # The site plays on after the dump (its bots and stand-ins finish games): the restored
    # copy has every table and every finished game, and no event the site does not have.
    (tables, events, finished), now = counts(restored), counts(live)
    assert tables == now[0] and 0 < events <= now[1] and finished <= now[2], (restored, live)


def counts(checked: str) -> tuple[int, int, int]:
    """Tables, events and finished games from ``basra admin check``'s line."""
    found = re.match(r"(\d+) tables, (\d+) events, (\d+) finished", checked)
    assert found, checked
    return int(found[1]), int(found[2]), int(found[3])
