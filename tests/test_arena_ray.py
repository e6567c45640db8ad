"""``basra arena --ray``: the deals on a Ray cluster give the results of ``--jobs``.

A local Ray instance (2 CPUs) runs in a helper process for this module and is
shut down at its end; the arena runs that use it are separate ``basra``
processes that connect to it by address, as a user's would to a cluster, so
this process never starts Ray threads (the ``--jobs`` runs here fork). The
instance asks for Ray's token authentication (the default of local instances
from Ray 2.59), so the processes that connect to it say so too: with
``RAY_AUTH_MODE=token`` they find the token in ``~/.ray/auth_token``.
"""

from __future__ import annotations

import json
import logging
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from basra.bots.arena import ArenaConfig, ClusterError, run_arena
from basra.cli import main
from basra.rules import preset

ROOT = Path(__file__).resolve().parent.parent
TOKEN_AUTH = {**os.environ, "RAY_AUTH_MODE": "token"}
TIMING = ("median", "mean", "p90", "max", "median_all")

CLUSTER = f"""
import logging, sys
import ray

ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level={logging.ERROR})
print(ray.get_runtime_context().gcs_address, flush=True)
sys.stdin.read()  # until the test closes the pipe (or dies)
ray.shutdown()
"""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a local Ray instance, started in another directory than the tests'."""
    home = tmp_path_factory.mktemp("ray-head")
    head = subprocess.Popen(
        [sys.executable, "-c", CLUSTER],
        cwd=home,
        env=TOKEN_AUTH,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert head.stdin is not None and head.stdout is not None
    try:
        ready, _, _ = select.select([head.stdout], [], [], 120)
        address = head.stdout.readline().strip() if ready else ""
        assert address, "the local Ray instance did not start"
        yield address
    finally:
        head.stdin.close()
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()


def basra(*args: str) -> subprocess.CompletedProcess[str]:
    """``basra ARGS`` as a new process from the repository's root."""
    return subprocess.run(
        [sys.executable, "-m", "basra", *args],
        cwd=ROOT,
        env=TOKEN_AUTH,
        capture_output=True,
        text=True,
        timeout=300,
    )


def without_timings(results: dict[str, Any]) -> dict[str, Any]:
    """results.json less the fields that measure time."""
    out = dict(results)
    del out["seconds"]
    out["bots"] = {
        name: {
            **entry,
            "decision_seconds": {
                k: v for k, v in entry["decision_seconds"].items() if k not in TIMING
            },
        }
        for name, entry in results["bots"].items()
    }
    return out


def arena_json(out: Path) -> dict[str, Any]:
    return without_timings(json.loads((out / "results.json").read_text()))


EXTERNAL = f"cmd:{sys.executable} examples/external_bot.py"


def test_ray_cluster_gives_the_results_json_of_jobs(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a round robin with an external bot: its program starts on the Ray workers, whose
    # own directory is not this one (the command names a path relative to this one)
    lineup = ["--bots", f"greedy,random,{EXTERNAL}", "--deals", "3", "--seed", "7", "-q"]
    monkeypatch.chdir(ROOT)
    assert main(["arena", *lineup, "--jobs", "2", "--out", str(tmp_path / "jobs")]) == 0
    run = basra("arena", *lineup, "--ray", cluster, "--out", str(tmp_path / "ray"))
    assert run.returncode == 0, run.stderr
    jobs, ray = arena_json(tmp_path / "jobs"), arena_json(tmp_path / "ray")
    assert ray == jobs
    assert len(ray["tables"]) == 3 and ray["bots"][EXTERNAL]["rounds"] == 12
    assert ray["bots"]["greedy"]["decision_seconds"]["decisions"] > 0
    assert "3 lineups (a round robin)" in run.stdout


def test_ray_local_starts_and_stops_its_own_instance(tmp_path: Path) -> None:
    lineup = ["--bots", "greedy,random", "--deals", "2", "--matches", "-q"]
    assert main(["arena", *lineup, "--out", str(tmp_path / "one")]) == 0
    run = basra("arena", *lineup, "--ray", "local", "--out", str(tmp_path / "ray"))
    assert run.returncode == 0, run.stderr
    assert arena_json(tmp_path / "ray") == arena_json(tmp_path / "one")
    assert "Ray" not in run.stderr  # Ray's start-up chatter is kept quiet


LIAR = """
import json, sys
for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "liar", "protocol": "basra-bot/1"}), flush=True)
    elif kind == "move":
        print(json.dumps({"move": "ZZ"}), flush=True)
    elif kind == "quit":
        break
"""


def test_a_bot_failing_on_a_ray_worker_fails_the_run_as_it_would_here(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    liar = tmp_path / "liar.py"
    liar.write_text(LIAR)
    bot = f"cmd:{sys.executable} {liar}"
    lineup = ["--bots", f"{bot},greedy", "--deals", "1", "-q"]
    assert main(["arena", *lineup]) == 2
    here = capsys.readouterr().err
    run = basra("arena", *lineup, "--ray", cluster)
    assert run.returncode == 2, run.stderr
    assert run.stderr == here
    assert here.startswith(f"basra arena: error: deal 1, rotation 1, table {bot} v greedy: ")
    assert "answered 'ZZ', which is not move text" in here


def test_puzzles_made_on_a_ray_cluster_are_those_made_here(cluster: str, tmp_path: Path) -> None:
    """``basra puzzles make --ray`` (as ``basra review --ray``, through :mod:`basra.spread`)
    shares the games out as the arena shares its deals, with the same results."""
    stored = ROOT / "tests" / "data" / "puzzles" / "one_round_games.jsonl"
    games = tmp_path / "games.jsonl"
    games.write_text(stored.read_text().splitlines()[0] + "\n")  # one game: Ray is slow here
    cheap = ("--samples", "100", "--proof-samples", "400", "--no-rate", "-q")
    ray, here = tmp_path / "ray.jsonl", tmp_path / "here.jsonl"
    run = basra("puzzles", "make", str(games), "--out", str(ray), *cheap, "--ray", cluster)
    assert run.returncode == 0, run.stderr
    assert main(["puzzles", "make", str(games), "--out", str(here), *cheap]) == 0
    assert ray.read_text() == here.read_text() and ray.read_text().count("\n") >= 1
    run = basra("review", str(games), "--samples", "60", "--json", "-q", "--ray", cluster)
    assert run.returncode == 0, run.stderr
    jobs = basra("review", str(games), "--samples", "60", "--json", "-q", "--jobs", "2")
    assert run.stdout == jobs.stdout and run.stdout.count("\n") == 1


def test_ray_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "greedy,random", "-k", "1", "--ray", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "basra arena: error: --ray: cannot reach a Ray cluster at 127.0.0.1:1: Connection refused\n"
    )
    assert main(["arena", "--bots", "greedy,random", "-k", "1", "--ray", "x", "-j", "2"]) == 2
    assert "leave --jobs out" in capsys.readouterr().err
    assert main(["arena", "--bots", "greedy,random", "-k", "1", "--ray", " "]) == 2
    assert "--ray needs an address" in capsys.readouterr().err


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    config = ArenaConfig("egyptian", preset("egyptian"), 2, False, ("greedy", "random"), 1)
    with pytest.raises(ClusterError, match=r"pip install 'basra\[ray\]'"):
        run_arena(ArenaConfig(**{**config.__dict__, "ray": "local"}))


def test_the_arena_imports_ray_only_for_a_ray_run() -> None:
    code = (
        "import sys\n"
        "from basra.cli import main\n"
        "assert main(['arena', '--bots', 'greedy,random', '-k', '2', '-q', '-j', '2']) == 0\n"
        "print('ray' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "False"
