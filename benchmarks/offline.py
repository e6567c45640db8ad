"""Offline play's speed and size, in this machine's Chromium, next to the server's engine.

    python benchmarks/offline.py [--decisions 30] [--seconds 3] [--loads 3]
        [--cold 3] [--baseline-src /tmp/offline-base/src]

Starts the app (uvicorn, a byte counter on every response), drives Debian's
Chromium with Playwright and prints, each next to its server-side figure from the
same run:

- the offline runtime's first load: cold (a fresh browser profile: the network,
  no cache) and from the service worker's cache (network cut), as the page
  sees it (navigation to the form) and as the worker reports it (Pyodide, then
  the core's sources unpacked and imported); the server's is a fresh Python
  process importing the same modules;
- from tapping "play" to the first card, offline from the cache: a cold page at
  ``/offline?variant=egyptian&level=medium`` (the engine starts first), and the
  button of a page whose engine is up; the server's: the online home's "Create
  table" against a medium bot, to the first card;
- random-play rounds per second of the engine in the page (``basra.bench``'s API
  loop), of CPython's pure-Python engine (``BASRA_KERNEL=0``) and of the compiled
  kernel;
- the median and the 95th percentile of a ``medium`` and a ``hard`` decision in
  the page, in pure CPython and with the kernel (the same positions);
- the bytes the app downloads once (everything the service worker keeps) and
  for one update (a deploy that changes one script), counted by the server;
- a cold start (issue 35): the app kept by a first visit online, then the page opened
  offline with no engine running and no snapshot on the device (a tab, not the
  installed app, which makes its snapshot in the background): the seconds to the
  form, ``--cold`` times, each in a fresh browser profile. With ``--baseline-src``
  the same is measured on the server of that source tree (the engine as it started
  before, from the standard library's sources), its runs alternating with this
  tree's, so both see the same load of a shared machine; medians are printed side
  by side. A run of this script with ``--cold-only`` in a child process with
  ``PYTHONPATH`` on either tree does each measurement.

Goals (issue 21): from the cache, the first card within 3 s; a ``medium``
decision within 0.5 s at the 95th percentile. Issue 35: a cold start within 5 s.
The machine may be shared: each figure has its baseline from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

import basra.server.app as app_module
from basra.kernel import describe
from basra.offline import call
from basra.server.runtime.devservices import free_port
from basra.server.transport.routes import pages

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/lib/chromium/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
]
KEPT = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration || !registration.active) return null;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const listing = await cache.match("/__precache.json");
    if (listing) return await listing.json();
  }
  return null;
}"""
ENGINE_TIMINGS = """async () => {
  const { offlineEngine } = await import("/static/offline/engine.js");
  return await (await offlineEngine()).start();
}"""
IMPORTS = "import basra, basra.bots, basra.coach, basra.session, basra.offline"

Scope = MutableMapping[str, Any]


class ByteCounter:
    """ASGI middleware: the bytes of every response body, by path."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app
        self.total = 0
        self.by_path: dict[str, int] = {}
        self.lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]

        async def counted(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.body":
                size = len(message.get("body", b""))
                with self.lock:
                    self.total += size
                    self.by_path[path] = self.by_path.get(path, 0) + size
            await send(message)

        await self.app(scope, receive, counted)

    def mark(self) -> int:
        with self.lock:
            return self.total


class Server:
    def __init__(self, config: app_module.AppConfig) -> None:
        self.counter = ByteCounter(app_module.create_app(config))
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(self.counter, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def wait_kept(page: Any, timeout: float = 300) -> dict[str, Any]:
    deadline = time.time() + timeout
    while True:
        listing = page.evaluate(KEPT)
        if listing:
            return dict(listing)
        if time.time() > deadline:
            raise RuntimeError("the service worker did not keep the app")
        time.sleep(0.2)


def wait_snapshot(page: Any, timeout: float = 120) -> None:
    """Wait until the worker kept its memory snapshot (in the background of the first start)."""
    deadline = time.time() + timeout
    check = "caches.open('engine-snapshots').then((c) => c.keys()).then((k) => k.length)"
    while not page.evaluate(check):
        if time.time() > deadline:
            raise RuntimeError("no snapshot was kept")
        time.sleep(0.2)


def timed_form(page: Any, url: str) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("#offline-start", timeout=300_000)
    elapsed = time.perf_counter() - started
    return elapsed, dict(page.evaluate(ENGINE_TIMINGS))


def first_card(page: Any) -> float:
    page.wait_for_selector(".hand button.card", timeout=300_000)
    return time.perf_counter()


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def native(request: dict[str, Any], pure: bool) -> dict[str, Any]:
    """The engine's bench in CPython: in a child process on the pure-Python engine, or here."""
    if not pure:
        return call(request)
    env = dict(os.environ, BASRA_KERNEL="0")
    code = (
        "import json, sys; from basra.offline import call; "
        "print(json.dumps(call(json.loads(sys.argv[1]))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(request)], env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise RuntimeError(out.stderr)
    return dict(json.loads(out.stdout))


def server_import_seconds() -> float:
    """A fresh Python process importing the modules the page imports (its own start excluded)."""
    code = f"import time; t = time.perf_counter(); {IMPORTS}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def cold_start(browser: Any, url: str) -> tuple[float, dict[str, Any]]:
    """A first visit keeps the app; the network cut, a new page opens ``/offline`` with no
    engine running and no snapshot: the seconds to the form, and the worker's timings."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}/?lang=en")
    wait_kept(page)
    page.close()
    context.set_offline(True)
    page = context.new_page()  # no engine in it; nothing was started on this device
    measured = timed_form(page, f"{url}/offline?lang=en")
    context.close()
    return measured


def cold_only(count: int) -> int:
    """``--cold-only``: the cold starts of this process's ``basra`` (PYTHONPATH), one JSON
    line each: ``{"form_s", "engine"}``."""
    from tests.web.helpers import FAST

    work = Path(tempfile.mkdtemp(prefix="basra-offline-cold-"))
    config = app_module.AppConfig(database=str(work / "basra.db"), service=FAST)
    with Server(config) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(count):
            form, engine = cold_start(browser, server.url)
            print(json.dumps({"form_s": form, "engine": engine}), flush=True)
        browser.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


def cold_starts(source: Path, count: int) -> list[dict[str, Any]]:
    """The cold starts measured by a child process on the tree ``source`` (its src/)."""
    env = dict(os.environ, PYTHONPATH=f"{source}{os.pathsep}{ROOT}")
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--cold-only", str(count)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return [json.loads(row) for row in out.stdout.splitlines() if row.startswith("{")]


def cold_comparison(rounds: int, baseline: Path | None) -> None:
    """This tree's cold starts next to the baseline tree's, alternating, one of each a round."""
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for _ in range(rounds):
        ours += cold_starts(ROOT / "src", 1)
        if baseline is not None:
            theirs += cold_starts(baseline, 1)
    print("\nCold start (s): the page opened offline, no engine running, no snapshot (goal: 5.0)")
    for label, runs in (("this tree", ours), (f"baseline {baseline}", theirs)):
        if not runs:
            continue
        form = [run["form_s"] for run in runs]
        engine = _median_parts([run["engine"] for run in runs])
        line(
            label[:44],
            f"{statistics.median(form):.2f}",
            "worker " + _parts(engine) + " · runs " + ", ".join(f"{x:.2f}" for x in form),
        )


def line(label: str, value: str, baseline: str) -> None:
    print(f"  {label:<44} {value:>16}   {baseline}")


def kib(n: float) -> str:
    return f"{n / 1024:,.0f} KiB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30, help="bot decisions per level (30)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of random play (3)")
    parser.add_argument("--loads", type=int, default=3, help="loads from the cache (3)")
    parser.add_argument("--cold", type=int, default=3, help="cold starts, each tree (3)")
    parser.add_argument(
        "--baseline-src",
        type=Path,
        help="a source tree's src/ whose cold start is measured too, alternating with this one",
    )
    parser.add_argument("--cold-only", type=int, metavar="N", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_only is not None:
        return cold_only(args.cold_only)
    from tests.web.helpers import FAST

    work = Path(tempfile.mkdtemp(prefix="basra-offline-bench-"))
    static = work / "static"
    shutil.copytree(pages.STATIC, static)
    pages.STATIC = static  # a copy, so the update below changes a file of this run only
    config = app_module.AppConfig(database=str(work / "basra.db"), service=FAST)
    print(f"server engine: {describe()}; Chromium {CHROMIUM}; machine shared: compare rows")
    with Server(config) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        # --- size: a first visit to the home page, until the service worker kept everything
        context = browser.new_context()
        page = context.new_page()
        before = server.counter.mark()
        page.goto(f"{server.url}/?lang=en")
        listing = wait_kept(page)
        once = server.counter.mark() - before
        entries = listing["entries"]
        runtime = sum(e["bytes"] for e in entries if e["url"].startswith("/offline/pyodide/"))
        core = sum(e["bytes"] for e in entries if e["url"].startswith("/offline/core/"))
        shell = sum(e["bytes"] for e in entries) - runtime - core

        # --- the runtime's load, cold: a fresh profile straight to the offline page
        cold_context = browser.new_context()
        cold_page = cold_context.new_page()
        cold_nav, cold_engine = timed_form(cold_page, f"{server.url}/offline?lang=en")
        cold_context.close()

        # --- from the cache, network cut
        page.reload()  # the page now runs on the kept files
        context.set_offline(True)
        cached = [timed_form(page, f"{server.url}/offline?lang=en")]
        wait_snapshot(page)  # the first start keeps it in the background
        cached += [timed_form(page, f"{server.url}/offline?lang=en") for _ in range(args.loads)]

        # --- tap play -> first card, offline: a cold page (engine starting), a warm one
        cold_cards = []
        for _ in range(args.loads):
            started = time.perf_counter()
            page.goto(f"{server.url}/offline?variant=egyptian&level=medium&lang=en")
            cold_cards.append(first_card(page) - started)
        warm_cards = []
        for _ in range(args.loads):
            page.goto(f"{server.url}/offline?lang=en")
            page.wait_for_selector("#offline-start", timeout=300_000)
            started = time.perf_counter()
            page.click("#offline-start")
            warm_cards.append(first_card(page) - started)

        # --- the engine's speed in the page
        request = {
            "op": "bench",
            "seconds": args.seconds,
            "levels": ["medium", "hard"],
            "decisions": args.decisions,
        }
        in_page = page.evaluate(
            """async (request) => {
              const { offlineEngine } = await import("/static/offline/engine.js");
              return await (await offlineEngine()).call(request);
            }""",
            request,
        )
        context.set_offline(False)

        # --- online baseline: the server's table, create -> first card
        online = []
        for _ in range(args.loads):
            page.goto(f"{server.url}/?lang=en")
            page.wait_for_selector("#create")
            page.fill("#name", "Amal")
            started = time.perf_counter()
            page.click("#create")
            online.append(first_card(page) - started)

        # --- one update: a deploy that changes one script
        script = static / "offline" / "page.js"
        script.write_text(script.read_text(encoding="utf-8") + "\n// a new deploy\n", "utf-8")
        page.goto(f"{server.url}/?lang=en")
        mark = server.counter.mark()
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.wait_for_selector("#update-bar", timeout=300_000)
        update = server.counter.mark() - mark
        context.close()
        browser.close()

    pure = native(request, pure=True)
    compiled = native(request, pure=False)
    imports = statistics.median(server_import_seconds() for _ in range(3))
    script_size = len(script.read_bytes())
    shutil.rmtree(work, ignore_errors=True)

    print("\nLoading the offline engine (s): navigation to the form; worker: Pyodide/core/total")
    line("cold (no cache at all)", f"{cold_nav:.2f}", "worker " + _parts(cold_engine))
    line(
        "from cache, first start on this device",
        f"{cached[0][0]:.2f}",
        "worker " + _parts(cached[0][1]),
    )
    later = cached[1:] or cached
    line(
        "from cache, later starts (snapshot), median",
        f"{statistics.median(c[0] for c in later):.2f}",
        "worker " + _parts(_median_parts([c[1] for c in later])),
    )
    line("server: CPython importing the same modules", f"{imports:.2f}", "")
    print("\nTap play -> first card (s), offline from the cache (goal: 3.0)")
    line(
        "cold page /offline?variant=egyptian&level=medium",
        f"{statistics.median(cold_cards):.2f}",
        "median of " + ", ".join(f"{x:.2f}" for x in cold_cards),
    )
    line("engine up: the Start button", f"{statistics.median(warm_cards):.2f}", "")
    line("server: online Create table (bot medium)", f"{statistics.median(online):.2f}", "")
    print("\nRandom-play rounds per second (the API loop of basra.bench)")
    line("in the page (Pyodide)", f"{in_page['rounds_per_s']:,.0f}", "")
    line("server: CPython, pure-Python engine", f"{pure['rounds_per_s']:,.0f}", "")
    line("server: CPython, compiled kernel", f"{compiled['rounds_per_s']:,.0f}", "")
    print(
        f"\nBot decisions (s), median / p95 of {args.decisions} (goal: medium p95 0.5 in the page)"
    )
    for level in ("medium", "hard"):
        for label, data in (
            ("in the page", in_page),
            ("server, pure Python", pure),
            ("server, kernel", compiled),
        ):
            middle, high = quantiles(data[level])
            line(f"{level}: {label}", f"{middle:.4f} / {high:.4f}", "")
    print("\nSize (bytes on the wire; gzip where the browser takes it)")
    line(
        "kept by the service worker",
        kib(runtime + core + shell),
        f"runtime {kib(runtime)} · core {kib(core)} · app {kib(shell)}",
    )
    line("downloaded by a first visit (counted)", kib(once), "")
    line("one update: one script changed (counted)", kib(update), f"the script {kib(script_size)}")
    line("an update of the rules: the core's zip", kib(core), "")
    if args.cold:
        cold_comparison(args.cold, args.baseline_src)
    return 0


def _parts(timings: dict[str, Any]) -> str:
    parts = (timings["runtime_ms"], timings["core_ms"], timings["total_ms"])
    restored = " (snapshot)" if timings.get("snapshot") else ""
    return "/".join(f"{ms / 1000:.2f}" for ms in parts) + restored


def _median_parts(all_timings: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {
        key: statistics.median(t[key] for t in all_timings)
        for key in ("runtime_ms", "core_ms", "total_ms")
    }
    out["snapshot"] = all(t.get("snapshot") for t in all_timings)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
