"""Builds the optional compiled kernel (``basra._kernel``, ``_search``, ``_vector``; Cython).

Everything else is declared in pyproject.toml. The extensions are optional: when
they cannot be built (no C compiler, no Python headers) ``pip install`` still
succeeds and basra runs on its pure-Python engine. ``BASRA_BUILD_KERNEL=0``
skips them on purpose. ``basra._vector`` (the vector environments) builds on
the kernel's C interface (``_kernel.pxd``).
"""

from __future__ import annotations

import os

from setuptools import Extension, setup


def extensions() -> list[Extension]:
    if os.environ.get("BASRA_BUILD_KERNEL", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # built without Cython (not from pyproject's build requirements)
        return []
    modules = [
        Extension(
            f"basra.{name}",
            [f"src/basra/{name}.pyx"],
            optional=True,
            extra_compile_args=["-O3"],
        )
        for name in ("_kernel", "_search", "_vector")
    ]
    return cythonize(modules, quiet=True, language_level=3, include_path=["src"])


setup(ext_modules=extensions())
