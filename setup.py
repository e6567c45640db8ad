"""Builds the optional compiled kernel (``basra._kernel``, Cython) with the package.

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
    kernel = Extension(
        "basra._kernel",
        ["src/basra/_kernel.pyx"],
        optional=True,
        extra_compile_args=["-O3"],
    )
    vector = Extension(
        "basra._vector",
        ["src/basra/_vector.pyx"],
        optional=True,
        extra_compile_args=["-O3"],
    )
    return cythonize([kernel, vector], quiet=True, language_level=3, include_path=["src"])


setup(ext_modules=extensions())
