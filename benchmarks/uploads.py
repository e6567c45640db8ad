"""Offline uploads under load: ``/healthz`` while six people upload long offline games.

    python benchmarks/uploads.py [--uploaders 6] [--each 3] [--bot-processes 2]
        [--baseline-src /tmp/base/src]

Plays one long offline game in this process, as the page does (``basra.offline``:
a person playing at random against three ``medium`` bots, to 401 points), and
sends it as its ``POST /api/offline/games`` body: about 15 KB, about 960 plays.
Then starts ``basra serve`` (a SQLite file of its own, ``--bot-processes``
workers) and measures ``GET /healthz`` from one client asking every 20 ms:
first idle, then while ``--uploaders`` people (each an identity of its own
from a loopback address of its own, 127.2.0.x) each upload the game
``--each`` times, one after the other (each time under a new id of the page's,
so each is checked and stored anew). Prints the p50 and p95 of ``/healthz``
idle and under the uploads, how each upload was answered and in how long, and
the CPU seconds of the server process alone and with its workers, per upload.

With ``--baseline-src`` the same run is made first on the server from that
source tree (``PYTHONPATH``), for a before-and-after from one run on one
machine. The machine may be shared: read the two runs side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from typing import Any

from load_quickplay import cpu_seconds, percentile, started, tree_cpu_seconds

from basra.offline import call
from basra.server.runtime.devservices import free_port

SEATS = ["person", "medium", "medium", "medium"]
NAMES = ["Amal", None, None, None]


def long_game(least_plays: int, seed: int) -> dict[str, Any]:
    """An upload body of a whole 4-player game (to 401) of ``least_plays`` plays or a few
    more (the first of the seeds from ``seed`` that plays so many)."""
    for tried in range(seed, seed + 50):
        people = random.Random(tried)
        rules = {"target": 401}
        last = call({"op": "new", "id": "bench", "seats": SEATS, "names": NAMES, "seed": tried,
                     "rules": rules})  # fmt: skip
        while not last.get("over"):
            step = call({"op": "next"})
            if not step["ok"]:
                frames = call({"op": "frames", "viewer": 0})
                state = frames["state"]
                move = people.choice(state["view"]["legal"])
                step = call({"op": "move", "seat": 0, "move": move, "version": state["version"]})
            last = step
        save = last["save"]
        plays = sum(len(r["plays"]) for r in save["rounds"])
        if least_plays <= plays < least_plays + 48:
            summary = last["summary"]
            result = {"scores": summary["scores"], "winner": summary["winner"], "finished": True}
            return {"save": save, "seat": 0, "result": result}
    raise RuntimeError(f"no game of {least_plays} plays in 50 seeds")


def request(
    port: int, method: str, path: str, body: bytes | None = None, token: str | None = None,
    source: str | None = None, timeout: float = 600.0,
) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """One HTTP request from ``source`` (a loopback address); its status and JSON."""
    connection = HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0) if source else None
    )
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body, headers)
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, json.loads(data) if data else {}
    finally:
        connection.close()


@contextlib.contextmanager
def server(source: str | None, processes: int) -> Iterator[tuple[int, int]]:
    """``basra serve`` on a SQLite file of its own (``source``'s basra when given); yields
    its port and pid once it answers."""
    with tempfile.TemporaryDirectory(prefix="basra-uploads-") as folder:
        port = free_port()
        command = [
            sys.executable, "-m", "basra", "serve", "--port", str(port),
            "--database", os.path.join(folder, "basra.db"), "--bot-processes", str(processes),
            "--tournaments", "none", "--log-level", "error",
        ]  # fmt: skip
        with started(command, port, source) as running:
            yield running


class Prober(threading.Thread):
    """Asks ``/healthz`` every ``every`` seconds; keeps each answer's seconds."""

    def __init__(self, port: int, every: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.every = every
        self.times: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            status, _ = request(self.port, "GET", "/healthz", timeout=30)
            if status == 200:
                self.times.append(time.perf_counter() - started)
            self.stop.wait(max(0.0, self.every - (time.perf_counter() - started)))

    def taken(self) -> list[float]:
        """The answers' seconds so far, and start again."""
        times, self.times = self.times, []
        return times


def upload_all(
    port: int, game: dict[str, Any], uploaders: int, each: int
) -> tuple[list[tuple[int, str, float]], float]:
    """``uploaders`` people each upload ``game`` ``each`` times, at once; each answer's
    status, error code and seconds, and the seconds of the whole."""
    tokens = []
    for index in range(uploaders):
        where = f"127.2.0.{index + 1}"
        status, answer = request(port, "POST", "/api/identity", b"{}", source=where)
        assert status == 201, answer
        tokens.append(answer["token"])
    answers: list[tuple[int, str, float]] = []
    lock = threading.Lock()

    def person(index: int) -> None:
        for number in range(each):
            body = copy.deepcopy(game)
            body["save"]["basra_offline"]["id"] = f"bench-{index}-{number}"
            data = json.dumps(body).encode()
            started = time.perf_counter()
            status, answer = request(
                port, "POST", "/api/offline/games", data, tokens[index], f"127.2.0.{index + 1}"
            )
            took = time.perf_counter() - started
            with lock:
                answers.append((status, str(answer.get("error", "")), took))

    threads = [threading.Thread(target=person, args=(i,)) for i in range(uploaders)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers, time.perf_counter() - began


def run_once(args: argparse.Namespace, game: dict[str, Any], source: str | None) -> None:
    """One run on a fresh server (from ``source``'s basra, when given); prints its numbers."""
    with server(source, args.bot_processes) as (port, pid):
        prober = Prober(port)
        prober.start()
        time.sleep(args.idle)
        idle = prober.taken()
        own, tree = cpu_seconds(pid), tree_cpu_seconds(pid)
        answers, spent = upload_all(port, game, args.uploaders, args.each)
        busy = prober.taken()
        own, tree = cpu_seconds(pid) - own, tree_cpu_seconds(pid) - tree
        prober.stop.set()
        prober.join()

    def line(times: list[float]) -> str:
        ms = [1000 * t for t in times]
        p50, p95 = statistics.median(ms), percentile(ms, 0.95)
        return f"p50 {p50:6.1f} ms, p95 {p95:6.1f} ms ({len(ms)} answers)"

    codes: dict[str, int] = {}
    for status, error, _ in answers:
        key = f"{status} {error}".strip()
        codes[key] = codes.get(key, 0) + 1
    seconds = [t for _, _, t in answers]
    print(f"{'/healthz idle':34}{line(idle)}")
    print(f"{'/healthz, uploads under way':34}{line(busy)}")
    print(f"{'upload answers':34}{dict(sorted(codes.items()))}")
    print(f"{'upload seconds':34}p50 {statistics.median(seconds):.2f}, max {max(seconds):.2f}; "
          f"all in {spent:.1f} s")  # fmt: skip
    print(f"{'server CPU s per upload':34}{own / len(answers):.2f} in its process, "
          f"{tree / len(answers):.2f} with its workers")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--uploaders", type=int, default=6, help="people uploading at once (6)")
    parser.add_argument("--each", type=int, default=3, help="uploads by each, in turn (3)")
    parser.add_argument("--plays", type=int, default=950, help="least plays of the game (950: 960)")
    parser.add_argument("--idle", type=float, default=4.0, help="seconds measured idle (4)")
    parser.add_argument(
        "--bot-processes", type=int, default=2, help="the server's worker processes (2)"
    )
    parser.add_argument(
        "--baseline-src", help="a source tree (its src/) to run the same benchmark on first"
    )
    args = parser.parse_args()
    game = long_game(args.plays, seed=1)
    plays = sum(len(r["plays"]) for r in game["save"]["rounds"])
    print(
        f"uploads: {args.uploaders} people at once, {args.each} each; the game: {plays} plays, "
        f"{len(game['save']['rounds'])} rounds, {len(json.dumps(game))} bytes; "
        f"{args.bot_processes} worker processes; {os.cpu_count()} CPUs"
    )
    if args.baseline_src:
        print(f"\n== baseline: the server from {args.baseline_src}")
        run_once(args, game, args.baseline_src)
        print("\n== this checkout")
    run_once(args, game, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
