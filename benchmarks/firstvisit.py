"""A first visit on a slow phone connection: the home page until it can create a table.

    python benchmarks/firstvisit.py [--loads 3]

Starts the app (uvicorn, a byte counter on every response) and opens the home page
in Debian's Chromium at 390x844 with a fresh profile each time (no cache, no service
worker yet), the network throttled as Chromium's DevTools "Slow 3G" and "Fast 4G"
presets throttle it (here: 400 kbit/s each way and 400 ms of latency; 9 Mbit/s down,
1.5 Mbit/s up and 60 ms). It prints, for each, the seconds from the navigation to a
visible "Create table" button, the requests made until then and the bytes the server
sent: once as the app serves the page, and once as a baseline in the same run with
responses uncompressed (the request's Accept-Encoding removed: how ``basra serve``
answered before it compressed).

Goal (issue 35): at most 5 s on "Slow 3G" (it was 12.2 s: 51 requests, 464 KiB).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from offline import ARGS, CHROMIUM, Server

import basra.server.app as app_module

Scope = MutableMapping[str, Any]
NETWORKS = {
    "Slow 3G": {"latency": 400, "downloadThroughput": 50_000, "uploadThroughput": 50_000},
    "Fast 4G": {"latency": 60, "downloadThroughput": 1_125_000, "uploadThroughput": 187_500},
}


class Plain:
    """ASGI middleware: while ``plain`` is set, every request as if its browser took no
    compressed answer (the baseline)."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app
        self.plain = False

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.plain:
            headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]
            scope = dict(scope, headers=headers)
        await self.app(scope, receive, send)


def visit(browser: Any, server: Server, network: dict[str, int]) -> tuple[float, int, int]:
    """Seconds to a visible Create button, requests made, bytes the server sent."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **network})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    before = server.counter.mark()
    started = time.perf_counter()
    page.goto(f"{server.url}/?lang=en", wait_until="commit")
    page.wait_for_selector("#create", state="visible", timeout=120_000)
    elapsed = time.perf_counter() - started
    sent = server.counter.mark() - before
    count = len(requests)
    context.close()
    return elapsed, count, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=3, help="visits per figure (the median)")
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        with Server(app_module.AppConfig(database="memory")) as server:
            switch = Plain(server.counter.app)
            server.counter.app = switch
            for name, network in NETWORKS.items():
                for label, plain in (("uncompressed (baseline)", True), ("as served", False)):
                    switch.plain = plain
                    runs = [visit(browser, server, network) for _ in range(args.loads)]
                    seconds = statistics.median(r[0] for r in runs)
                    print(
                        f"{name:8} {label:24} {seconds:6.2f} s  {runs[0][1]:3d} requests"
                        f"  {runs[0][2] / 1024:7.1f} KiB sent",
                        flush=True,
                    )
        browser.close()


if __name__ == "__main__":
    main()
