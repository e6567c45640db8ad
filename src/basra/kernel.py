"""Which engine runs: the compiled kernel when it is there, else pure Python.

``basra._kernel`` is a Cython extension built by ``pip install`` when a C
compiler is at hand. It mirrors the pure-Python reference
(:mod:`basra.transition`: a round's fields, the one transition and the move
generator) on the same card ints and bit masks, and adds what search and
training need in C (playouts, ISMCTS, batched environments). When it was not
built, or the environment variable ``BASRA_KERNEL`` is ``0``, everything runs
on the pure-Python engine with identical results; ``basra bench`` says which
is active.

:class:`Round` and :func:`generate_moves` here are the active engine's; the
rest of the package takes them from this module.

>>> describe() in (
...     "compiled kernel (basra._kernel)",
...     "pure Python (BASRA_KERNEL=0)",
...     "pure Python (the kernel is not built)",
... )
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, cast

from basra import transition
from basra.cards import Card
from basra.moves import Move
from basra.rules import Rules

__all__ = [
    "ACTIVE",
    "Round",
    "describe",
    "generate_moves",
    "kernel_module",
    "krules",
    "search_module",
]


def _load() -> tuple[ModuleType | None, ModuleType | None, str]:
    if os.environ.get("BASRA_KERNEL", "").strip() == "0":
        return None, None, "pure Python (BASRA_KERNEL=0)"
    try:
        import basra._kernel as _kernel
        import basra._search as _search
    except ImportError:
        return None, None, "pure Python (the kernel is not built)"
    return _kernel, _search, "compiled kernel (basra._kernel)"


_module, _search_module, _description = _load()

ACTIVE: bool = _module is not None
"""True when the compiled kernel runs the engine."""


def kernel_module() -> ModuleType | None:
    """The compiled kernel module when it is active, else ``None``."""
    return _module


def search_module() -> ModuleType | None:
    """The compiled search module (``basra._search``) when the kernel is active, else ``None``."""
    return _search_module


def describe() -> str:
    """Which engine is active, in words (``basra bench`` prints it)."""
    return _description


def krules(rules: Rules) -> object:
    """The compiled tables of ``rules`` (built once, kept with them); needs the kernel."""
    if _module is None:
        raise RuntimeError(f"the compiled kernel is not active: {_description}")
    return _module.krules(rules)


if TYPE_CHECKING:
    from basra.transition import Round
else:
    Round = _module.Round if _module is not None else transition.Round

generate_moves = cast(
    Callable[[Rules, Iterable[Card], int], list[Move]],
    _module.generate_moves if _module is not None else transition.generate_moves,
)
"""The active engine's :func:`basra.transition.generate_moves`."""
