"""The research API stays out of the core: importing basra pulls in no framework."""

from __future__ import annotations

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"import sys; {code}; print(' '.join(sys.modules))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(out.split())


def test_the_core_imports_neither_numpy_nor_the_env_package() -> None:
    modules = _modules_after("import basra, basra.bots, basra.cli")
    assert not {"numpy", "basra.env", "pettingzoo", "gymnasium", "pyspiel"} & modules


def test_basra_env_imports_frameworks_only_when_an_adapter_is_used() -> None:
    modules = _modules_after("import basra.env")
    assert "numpy" in modules
    assert not {"pettingzoo", "gymnasium", "pyspiel", "torch"} & modules
