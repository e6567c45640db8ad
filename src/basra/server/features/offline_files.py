"""Offline play's files: the Pyodide runtime, the core's sources, the service worker's list,
the web app manifest.

The page plays offline on the server's own engine: the core's Python sources
(:class:`CoreSources`, from the installed package) run in a Web Worker under
Pyodide (the pinned npm package of ``pyodide.json``, fetched and checked by
``scripts/fetch-pyodide`` into :func:`runtime_folder`). :class:`OfflineFiles`
is what the routes (:mod:`basra.server.transport.routes.offline`) serve:

- the service worker (``static/offline/sw.js``) with its precache list inlined
  (:class:`Precache`: each file's URL and content hash, and a version over them
  all), so a deploy that changes any file changes the worker, which fetches
  only the files whose hash changed and waits until the page says "reload to
  update" (no old and new files mixed);
- the web app manifest in each language of the catalogues (:func:`manifest`);
- whether offline play is installed, and where its runtime and the core's
  sources are (:meth:`Precache.runtime_info`);
- the core's sources as one zip, named by its hash, and the runtime's files.

The runtime's standard library comes as sources (``python_stdlib.zip``), which a
start in the page compiled module by module, most of its seconds; ``scripts/fetch-pyodide``
also writes :data:`COMPILED_STDLIB` (``scripts/compile-stdlib.mjs``: the same zip with
the modules a start imports as that Python's bytecode, compiled by the runtime itself
under Node). Where it is there, the page loads it instead and the service worker keeps
it instead; without it (no Node at setup) the page starts from the sources, slower.
The same script writes :data:`CORE_BYTECODE`, the engine's own modules compiled, by the
sha256 of their sources: the core's zip carries a module's bytecode (in its
``__pycache__``, as that Python names it) where its source is that very source.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import basra
from basra.locales import languages, message
from basra.offline import OFFLINE_LEVELS

__all__ = [
    "COMPILED_STDLIB",
    "CORE_BYTECODE",
    "CORE_PACKAGES",
    "LAZY_IMPORTS",
    "PIN",
    "CoreSources",
    "OfflineFiles",
    "Precache",
    "RuntimeFile",
    "manifest",
    "runtime_folder",
    "runtime_missing",
]

HERE = Path(__file__).parents[1]
PIN: dict[str, Any] = json.loads((HERE / "pyodide.json").read_text(encoding="utf-8"))
"""The pinned Pyodide package: ``version``, sha512 ``integrity``, the ``files`` needed."""
THEME = "#0f4d2c"
BACKGROUND = "#0b3a21"
PRECACHE_SUFFIXES = (".js", ".json", ".css", ".svg", ".woff2", ".png")
"""Which files of ``static/`` the service worker keeps (the page is kept as ``/``; the
catalogues of ``static/locales/`` are its ``.json``)."""
CORE_PACKAGES = ("", "bots", "coach")
"""The packages of ``basra`` whose modules go to the page whole (``""``: the core)."""
CORE_EXTRA = ("bots/ratings.json",)
"""Files other than modules the page needs."""
LAZY_IMPORTS: dict[str, tuple[str, ...]] = {
    "ray": ("bots/arena.py", "spread.py"),
    "openskill": ("bots/arena.py",),
    "basra.belief.features": ("bots/ismcts.py",),
    "basra.belief.model": ("bots/ismcts.py",),
}
"""Modules the page does not get that files it gets import lazily, inside the functions
that need them, which never run offline: the arena (and any spread job) on a Ray cluster,
the arena's ratings, the learned belief (no offline level searches with it)."""
COMPILED_STDLIB = "python_stdlib.pyc.zip"
"""The standard library with what a start imports compiled (``scripts/compile-stdlib.mjs``),
beside the pinned files when setup could make it; it replaces ``python_stdlib.zip``."""
SOURCE_STDLIB = "python_stdlib.zip"
CORE_BYTECODE = "basra_bytecode.zip"
"""The engine's modules compiled at setup (``scripts/compile-stdlib.mjs``): ``cache_tag``
(``cpython-314``) and ``<sha256 of the source>.pyc`` for each."""
MEDIA = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
"""The content type of each kind of runtime file."""


def runtime_folder() -> Path:
    """Where ``scripts/fetch-pyodide`` puts the runtime (``$BASRA_PYODIDE`` to move it)."""
    configured = os.environ.get("BASRA_PYODIDE", "").strip()
    return Path(configured) if configured else HERE / "pyodide"


def runtime_missing(folder: Path) -> list[str]:
    """The runtime's files missing from ``folder`` (all of them when it is another version)."""
    try:
        stamp = json.loads((folder / "VERSION.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = None
    if not isinstance(stamp, dict) or stamp.get("integrity") != PIN["integrity"]:
        return list(PIN["files"])
    return [name for name in PIN["files"] if not (folder / name).is_file()]


class _Hashes:
    """Content hashes of files, worked out again only when a file's size or time changes."""

    def __init__(self) -> None:
        self._known: dict[Path, tuple[int, int, str]] = {}

    def of(self, path: Path) -> tuple[str, int]:
        stat = path.stat()
        known = self._known.get(path)
        if known is not None and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2], stat.st_size
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        self._known[path] = (stat.st_mtime_ns, stat.st_size, digest)
        return digest, stat.st_size


class CoreSources:
    """The core's Python sources as one zip for the page, from the installed package.

    The zip holds ``basra/...``: the core (with the offline table,
    :mod:`basra.offline`, and the table of people and bots it plays through,
    :mod:`basra.session`), the bots and the coach; never a front end. Built on
    request, kept while no file changes, and named by a hash of its content: the
    page always runs this server's rules. With ``bytecode`` (:data:`CORE_BYTECODE`)
    each module whose source was compiled there has its bytecode beside it
    (``basra/__pycache__/offline.cpython-314.pyc``, unchecked: it is of this very
    source), so the page does not compile it.
    """

    def __init__(self, package: Path | None = None, bytecode: Path | None = None) -> None:
        self.package = package or Path(basra.__file__).parent
        self.bytecode = bytecode
        self._built: tuple[tuple[tuple[str, int, int], ...], bytes, str] | None = None

    def _compiled(self) -> tuple[str, zipfile.ZipFile] | None:
        """The compiled modules' cache tag and zip, when there are any."""
        if self.bytecode is None or not self.bytecode.is_file():
            return None
        try:
            archive = zipfile.ZipFile(self.bytecode)
        except (OSError, zipfile.BadZipFile):
            return None  # not what setup writes: the sources alone
        try:
            return archive.read("cache_tag").decode("ascii"), archive
        except (KeyError, ValueError):
            archive.close()
            return None

    def files(self) -> list[tuple[str, Path]]:
        """(name in the zip, file) for every file the page needs, in a fixed order."""
        out: list[tuple[str, Path]] = []
        for package in CORE_PACKAGES:
            folder = self.package / package if package else self.package
            for path in sorted(folder.glob("*.py")):
                if path.name != "__main__.py":
                    out.append((f"basra/{path.relative_to(self.package).as_posix()}", path))
        for extra in CORE_EXTRA:
            out.append((f"basra/{extra}", self.package / extra))
        return out

    def build(self) -> tuple[bytes, str]:
        """The zip's bytes and its hash (16 hex digits), built again when a file changed."""
        files = self.files()
        inputs = [
            *files,
            *([("", self.bytecode)] if self.bytecode and self.bytecode.is_file() else []),
        ]
        signature = tuple(
            (name, path.stat().st_mtime_ns, path.stat().st_size) for name, path in inputs
        )
        if self._built is not None and self._built[0] == signature:
            return self._built[1], self._built[2]
        compiled = self._compiled()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, path in files:
                source = path.read_bytes()
                _write(archive, name, source)
                if compiled is None or not name.endswith(".py"):
                    continue
                tag, bytecode = compiled
                try:
                    code = bytecode.read(hashlib.sha256(source).hexdigest() + ".pyc")
                except KeyError:
                    continue  # changed since setup: the page compiles it
                folder, _, stem = name.removesuffix(".py").rpartition("/")
                _write(archive, f"{folder}/__pycache__/{stem}.{tag}.pyc", code)
        if compiled is not None:
            compiled[1].close()
        data = buffer.getvalue()
        digest = hashlib.sha256(data).hexdigest()[:16]
        self._built = (signature, data, digest)
        return data, digest


def _write(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    """One entry of a zip whose bytes depend on its content alone."""
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


@dataclass(frozen=True)
class PrecacheEntry:
    """A file the service worker keeps: its URL, a hash of its content, its size."""

    url: str
    hash: str
    bytes: int


class Precache:
    """What the service worker keeps for the page to work offline, and its version.

    The app shell (the page as ``/``, its scripts, styles, card faces, fonts,
    icons), ``/offline/runtime.json``, the core's sources and, when installed,
    the Pyodide runtime. The version is a hash over every entry: it changes
    exactly when a file does.
    """

    def __init__(self, static: Path, core: CoreSources, runtime: Path) -> None:
        self.static = static
        self.core = core
        self.runtime = runtime
        self._hashes = _Hashes()

    def runtime_url(self) -> str:
        """Where the page loads Pyodide from (the version is in the path)."""
        return f"/offline/pyodide/{PIN['version']}/"

    def stdlib(self) -> tuple[str, str]:
        """The standard library's file the page loads (compiled where setup made it) and a
        hash of it (a snapshot of the interpreter goes with one standard library)."""
        compiled = self.runtime / COMPILED_STDLIB
        if compiled.is_file():
            return COMPILED_STDLIB, self._hashes.of(compiled)[0]
        return SOURCE_STDLIB, PIN["integrity"][7:23]

    def runtime_files(self) -> list[str]:
        """The runtime's files the page loads (the pinned ones, one standard library)."""
        stdlib, _ = self.stdlib()
        return [stdlib if name == SOURCE_STDLIB else name for name in PIN["files"]]

    def runtime_info(self) -> dict[str, Any]:
        """``/offline/runtime.json``: whether offline play is installed, and where things are."""
        _, digest = self.core.build()
        missing = runtime_missing(self.runtime)
        stdlib, stdlib_hash = self.stdlib()
        out: dict[str, Any] = {
            "installed": not missing,
            "pyodide": {
                "version": PIN["version"],
                "url": self.runtime_url(),
                "stdlib": {"name": stdlib, "hash": stdlib_hash},
            },
            "core": {"url": f"/offline/core/{digest}.zip", "hash": digest},
            "levels": list(OFFLINE_LEVELS),
        }
        if missing:
            out["message"] = (
                "offline play is not installed on this server: scripts/setup fetches "
                f"Pyodide {PIN['version']} (missing: {', '.join(missing)})"
            )
        return out

    def entries(self) -> list[PrecacheEntry]:
        """Every file to keep, in a fixed order."""
        out = []
        files = []
        for path in sorted(self.static.rglob("*")):
            if path.is_file() and path.suffix in PRECACHE_SUFFIXES:
                digest, size = self._hashes.of(path)
                url = "/static/" + path.relative_to(self.static).as_posix()
                files.append(PrecacheEntry(url, digest, size))
        # The page names the modules it preloads (read from the scripts' imports) and the
        # languages (read from the catalogues), so it changes with any script or catalogue:
        # its hash is the file's and theirs together.
        digest, size = self._hashes.of(self.static / "index.html")
        scripts = "".join(e.hash for e in files if e.url.endswith((".js", ".json")))
        page = hashlib.sha256(f"{digest}|{scripts}".encode()).hexdigest()[:16]
        out.append(PrecacheEntry("/", page, size))
        out.extend(files)
        info = json.dumps(self.runtime_info(), sort_keys=True).encode()
        out.append(
            PrecacheEntry("/offline/runtime.json", hashlib.sha256(info).hexdigest()[:16], len(info))
        )
        data, digest = self.core.build()
        out.append(PrecacheEntry(f"/offline/core/{digest}.zip", digest, len(data)))
        if not runtime_missing(self.runtime):
            stdlib, stdlib_hash = self.stdlib()
            for name in self.runtime_files():
                size = (self.runtime / name).stat().st_size
                gz = self.runtime / f"{name}.gz"
                wire = gz.stat().st_size if gz.is_file() else size
                # The URL names the version, and the folder holds the checked package
                # (the compiled standard library: its own hash, made from it).
                digest = stdlib_hash if name == stdlib else PIN["integrity"][7:23]
                out.append(PrecacheEntry(self.runtime_url() + name, digest, wire))
        return out

    def manifest(self) -> dict[str, Any]:
        """The list the service worker receives: ``version`` and ``entries``."""
        entries = self.entries()
        version = hashlib.sha256(
            "\n".join(f"{e.url} {e.hash}" for e in entries).encode()
        ).hexdigest()[:16]
        return {
            "version": version,
            "entries": [{"url": e.url, "hash": e.hash, "bytes": e.bytes} for e in entries],
        }


def manifest(lang: str = "en") -> dict[str, Any]:
    """The web app manifest in ``lang`` (English for a language without a catalogue), its
    names from the catalogues (``manifest_name``, ``manifest_short``,
    ``manifest_description``, ``manifest_offline``), every other language's names riding
    along."""
    lang = lang if lang in languages() else "en"

    def word(key: str, code: str = lang) -> str:
        return message(code, key)

    others = [code for code in languages() if code != lang]
    icons = [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    ]
    return {
        "id": "/",
        "name": word("manifest_name"),
        "short_name": word("manifest_short"),
        "description": word("manifest_description"),
        "lang": lang,
        "dir": word("language_dir"),
        # The manifest localization proposal (W3C): the other languages' names.
        "name_localized": {code: word("manifest_name", code) for code in others},
        "short_name_localized": {code: word("manifest_short", code) for code in others},
        "start_url": f"/?lang={lang}",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": icons,
        "shortcuts": [
            {
                "name": word("manifest_offline"),
                "url": f"/offline?lang={lang}",
                "icons": [{"src": "/static/icons/icon-192.png", "sizes": "192x192"}],
            }
        ],
    }


@dataclass(frozen=True)
class RuntimeFile:
    """A file of the runtime to send: where it is, its type, and whether it is gzipped."""

    path: Path
    media: str
    gzip: bool


class OfflineFiles:
    """What offline play serves: the service worker, the runtime's state, the core's zip
    and the runtime's files, from ``static`` (the page's folder) and ``runtime`` (where
    Pyodide was unpacked: :func:`runtime_folder` by default)."""

    def __init__(self, static: Path, runtime: Path | None = None) -> None:
        self.static = static
        self.runtime = runtime or runtime_folder()
        self.core = CoreSources(bytecode=self.runtime / CORE_BYTECODE)
        self.precache = Precache(static, self.core, self.runtime)

    def service_worker(self) -> str:
        """``static/offline/sw.js`` with this deploy's precache list in front."""
        listing = self.precache.manifest()
        worker = (self.static / "offline" / "sw.js").read_text("utf-8")
        return (
            "// Precache list of this deploy (basra.server.features.offline_files.Precache)\n"
            f"self.PRECACHE = {json.dumps(listing)};\n\n" + worker
        )

    def missing(self) -> list[str]:
        """The runtime's files that are not installed here."""
        return runtime_missing(self.runtime)

    def runtime_file(self, version: str, name: str, gzip: bool) -> RuntimeFile | None:
        """A file of the pinned runtime (gzipped when ``gzip`` and a gzip copy is kept), or
        None when it is no such file."""
        if version != PIN["version"] or name not in (*PIN["files"], COMPILED_STDLIB):
            return None
        if name == COMPILED_STDLIB and not (self.runtime / name).is_file():
            return None
        media = MEDIA[Path(name).suffix]
        packed = self.runtime / f"{name}.gz"
        if gzip and packed.is_file():
            return RuntimeFile(packed, media, True)
        return RuntimeFile(self.runtime / name, media, False)
