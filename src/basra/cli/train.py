"""``basra train belief``: the belief model from self-play, reproducible from a seed."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from basra.cli import CliError
from basra.cli.common import whole_number

__all__ = ["register"]

SPLITS = ("train", "valid", "test")


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "train",
        help="train the bots' learned models (needs PyTorch: pip install torch==2.13.0)",
        description="Train a learned model of the bots. PyTorch is needed only here "
        "(pip install torch==2.13.0, the CPU build); the bots read the exported numpy weights.",
    )
    models = p.add_subparsers(dest="model", metavar="MODEL")
    b = models.add_parser(
        "belief",
        help="who holds what: each unseen card's chance of being in each hand",
        description="Play self-play rounds in the six tables of the strength work (the bots of "
        "basra.train.belief_data.MIX), record every decision's view and where the hidden cards "
        "were, train the belief network on them, and compare it on held-out rounds with today's "
        "hand reading (log-loss and calibration, per table). Every step is seeded: the same "
        "arguments give the same data and weights. Data already in OUT is reused.",
    )
    b.add_argument("--out", "-o", required=True, metavar="DIR", help="data, weights and report")
    b.add_argument("--rounds", type=whole_number, default=1500, help="training rounds a table")
    b.add_argument("--valid-rounds", type=whole_number, default=150, help="validation rounds")
    b.add_argument("--test-rounds", type=whole_number, default=150, help="held-out rounds")
    b.add_argument("--seed", type=whole_number, default=0, help="default 0")
    b.add_argument(
        "--network",
        choices=("flat", "factored"),
        default="flat",
        help="flat (default, the shipped weights): the whole view in, every card's chances "
        "out; factored: one small network scoring each card in each hand (try --hidden 64)",
    )
    b.add_argument(
        "--hidden", type=whole_number, default=256, help="units a hidden layer (default 256)"
    )
    b.add_argument("--epochs", type=whole_number, default=12, help="default 12")
    b.add_argument("--jobs", "-j", type=whole_number, default=1, help="processes making data")
    b.add_argument("--threads", type=whole_number, default=1, help="PyTorch threads")
    b.add_argument(
        "--install",
        action="store_true",
        help="copy the weights into the package (src/basra/belief/weights.npz)",
    )
    b.set_defaults(run=run_belief)
    p.set_defaults(run=lambda args: _no_model(p))


def _no_model(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _part(job: tuple[str, str, int, int, int, bool]) -> Any:
    from basra.train.belief_data import generate, table_named

    table, split, seed, start, stop, reading = job
    return generate(table_named(table), range(start, stop), f"{seed}/{split}", reading=reading)


def _data(args: argparse.Namespace, out: Path, say: Any) -> dict[str, Any]:
    from basra.train.belief_data import TABLES, Examples

    counts = {"train": args.rounds, "valid": args.valid_rounds, "test": args.test_rounds}
    found: dict[str, list[Any]] = {split: [] for split in SPLITS}
    for split in SPLITS:
        for table in TABLES:
            path = out / "data" / f"{split}-{table.name}-{counts[split]}.npz"
            if not path.exists():
                started = time.perf_counter()
                chunk = max(1, -(-counts[split] // max(args.jobs, 1)))
                jobs = [
                    (
                        table.name,
                        split,
                        args.seed,
                        start,
                        min(start + chunk, counts[split]),
                        split == "test",
                    )
                    for start in range(0, counts[split], chunk)
                ]
                if args.jobs > 1:
                    with ProcessPoolExecutor(args.jobs) as pool:
                        parts = list(pool.map(_part, jobs))
                else:
                    parts = [_part(job) for job in jobs]
                path.parent.mkdir(parents=True, exist_ok=True)
                Examples.concatenate(parts).save(path)
                say(
                    f"{split} {table.name}: {counts[split]} rounds in "
                    f"{time.perf_counter() - started:.0f} s -> {path}"
                )
            found[split].append(Examples.load(path))
    return {split: Examples.concatenate(parts) for split, parts in found.items()}


def run_belief(args: argparse.Namespace) -> int:
    from basra.belief.model import DEFAULT_WEIGHTS, BeliefModel
    from basra.train.belief_report import compare, report_text

    try:
        import numpy  # noqa: F401
    except ImportError:
        raise CliError("training needs numpy (pip install 'basra[env]')") from None
    try:
        import torch  # noqa: F401
    except ImportError:
        raise CliError(
            "training needs PyTorch, the CPU build: pip install torch==2.13.0 "
            "(play never does: the bots read the exported numpy weights)"
        ) from None
    from basra.train.belief import TrainSettings, export, train

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def say(text: str) -> None:
        print(text, flush=True)

    started = time.perf_counter()
    data = _data(args, out, say)
    made = time.perf_counter() - started
    say(
        f"examples: {len(data['train'])} training, {len(data['valid'])} validation, "
        f"{len(data['test'])} held out ({made:.0f} s)"
    )
    settings = TrainSettings(
        hidden=args.hidden,
        epochs=args.epochs,
        seed=args.seed,
        threads=args.threads,
        kind=args.network,
    )
    fit_started = time.perf_counter()
    try:
        weights, history = train(data["train"], data["valid"], settings, log=say)
    except RuntimeError as exc:
        raise CliError(str(exc)) from None
    fitted = time.perf_counter() - fit_started
    path = out / "weights.npz"
    export(weights, path)
    result = compare(data["test"], BeliefModel(path))
    print(report_text(result))
    summary = {
        "format": "basra-belief-training/1",
        "settings": settings.to_json(),
        "rounds": {"train": args.rounds, "valid": args.valid_rounds, "test": args.test_rounds},
        "examples": {split: len(data[split]) for split in SPLITS},
        "seconds": {"data": made, "training": fitted},
        "history": history,
        "report": result,
        "command": " ".join(sys.argv),
    }
    (out / "report.json").write_text(json.dumps(summary, indent=1) + "\n")
    say(f"weights in {path}; report in {out / 'report.json'}")
    if args.install:
        shutil.copyfile(path, DEFAULT_WEIGHTS)
        say(f"installed as {DEFAULT_WEIGHTS}")
    return 0
