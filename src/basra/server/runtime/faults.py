"""Crash points: where the fault-injection tests kill the server, as ``kill -9`` would.

``BASRA_CRASH_AT=NAME`` in the environment of a server process makes it exit
at once (no clean-up, no flush) the first time it reaches the crash point
``NAME``. The tests start ``basra serve`` with it to prove that each
transition that must not be torn (a join that starts the table, the final
play with the finished status) survives a crash on either side of its commit.
Unset, a crash point costs one comparison.
"""

from __future__ import annotations

import os

__all__ = ["CRASH_POINTS", "crash_point"]

CRASH_POINTS = (
    "join_before_commit",
    "join_after_commit",
    "final_before_commit",
    "final_after_commit",
)
"""Every crash point the server has."""

_CRASH_AT = os.environ.get("BASRA_CRASH_AT") or None


def crash_point(name: str) -> None:
    """Exit the process here, status 137, when ``BASRA_CRASH_AT`` names this point."""
    if _CRASH_AT is not None and name == _CRASH_AT:
        os._exit(137)
