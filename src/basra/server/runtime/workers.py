"""Where bots think: worker processes that keep the server's loop free (or threads).

Bots see only a :class:`~basra.view.View`; in a worker process they get a
pickled copy of it. :class:`~basra.rules.Rules` is pickled as its settings
(its move caches stay behind), so a view travels in a few kilobytes. Worker
processes run at a lower priority (``nice``) than the server, so thinking bots
never slow the acknowledgement of a person's move; which job runs when is
decided by :mod:`basra.server.runtime.scheduler`.
"""

from __future__ import annotations

import contextlib
import copyreg
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from basra.bots import make_bot
from basra.coach import Hint, hint
from basra.moves import Move
from basra.rules import Rules
from basra.view import View

__all__ = ["WORKER_NICENESS", "bot_hint", "bot_move", "make_executor", "rules_from_settings"]

WORKER_NICENESS = 10
"""How much lower than the server a worker process runs (``os.nice``)."""


def rules_from_settings(settings: dict[str, Any]) -> Rules:
    """Rules rebuilt from :meth:`Rules.to_dict` (used when unpickling)."""
    return Rules().with_overrides(settings)


def _reduce_rules(rules: Rules) -> tuple[Any, tuple[dict[str, Any]]]:
    return rules_from_settings, (rules.to_dict(),)


copyreg.pickle(Rules, _reduce_rules)


def bot_move(level: str, seed: int, view: View) -> Move:
    """The move of a bot of ``level`` in ``view`` (runs in a worker)."""
    return make_bot(level, seed).choose(view)


def bot_hint(view: View, samples: int) -> Hint:
    """A hint for the seat of ``view`` from an analysis of ``samples`` deals (runs in a worker)."""
    return hint(view, samples=samples)


def _start_worker(parent: int) -> None:
    """In a worker: run below the server's priority, and end when the server is gone."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="basra-parent-watch").start()


def make_executor(processes: int, threads: int = 2) -> Executor:
    """A process pool of ``processes`` workers, or a thread pool when it is 0."""
    if processes > 0:
        return ProcessPoolExecutor(
            max_workers=processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="basra-bot")
